"""The bench: the firmware's objects under the real MicroPython, driven by a CPython test.

One JSON command a line on stdin, one JSON reply a line on stdout. The firmware's modules come
from ``MICROPYPATH``; ``machine``, ``time`` and ``usb_cdc`` are the shims beside this file. A
reply carries what the firmware wrote to the serial line since the last reply (hex), the board's
clock and the output changes; an exception in the firmware comes back as ``error`` (the test
fails on it).
"""

import json
import random
import sys
import time as utime

import machine
import sdfw_link
import sdfw_main
import sdfw_proto
import sdfw_unit
import usb_cdc
from board import BOARD


class WatchdogReset(BaseException):
    """The watchdog reset the chip: ends ``App.run`` on the bench."""


class BenchLimit(BaseException):
    """``App.run`` went on for longer than any test needs."""


class Bench:
    def __init__(self):
        self.unit = None
        self.link = None
        self.app = None
        self.cdc = None
        self.port = None
        self.pass_us = 0
        self.out = bytearray()

    def collect(self):
        """What went out on the serial line since the last reply."""
        data = bytes(self.out)
        self.out[:] = b""
        if self.cdc is not None:
            data += self.cdc.take()
        return data

    def random_bytes(self, count):
        return bytes(random.getrandbits(8) for _ in range(count))

    # -- commands -----------------------------------------------------------------------

    def boot(self, *, bits=30, start_us=0, pull_up_us=2000, read_cost_us=0, boot_id=1, seed=1,
             held=()):
        BOARD.reset(bits, start_us, pull_up_us, read_cost_us)
        for gpio in held:  # held down by hand before the power came
            BOARD.drive(gpio, 0, start_us)
        random.seed(seed)
        self.unit = sdfw_unit.Unit(machine, utime)
        self.link = sdfw_link.McuLink(self.unit, self.out.extend, boot_id, bits,
                                      random_bytes=self.random_bytes)
        return {"boot_id": self.link.boot_id}

    def app_boot(self, *, start_us=0, pull_up_us=2000, watchdog=True, boot_id=1, pass_us=100):
        """The firmware's main loop object on a simulated USB port (sdfw_main.App)."""
        BOARD.reset(30, start_us, pull_up_us, 0)
        BOARD.watchdog_bites = self._bitten
        self.cdc = usb_cdc.Cdc()
        self.port = sdfw_main.UsbPort(self.cdc.stdin, self.cdc.stdout, self.cdc.select)
        dog = machine.WDT(timeout=sdfw_main.WDT_TIMEOUT_MS) if watchdog else None
        self.app = sdfw_main.App(machine, utime, self.port, boot_id, watchdog=dog)
        self.unit, self.link = self.app.unit, self.app.link
        self.pass_us = pass_us

    def _bitten(self):
        raise WatchdogReset()

    def host(self, *, data="", port_open=None, reading=None):
        """The host's side of the USB port: bytes it sends, whether it holds the port open and
        whether it reads."""
        self.cdc.rx.extend(bytes.fromhex(data))
        if port_open is not None:
            self.cdc.open = port_open
        if reading is not None:
            self.cdc.reading = reading

    def app_steps(self, *, count=1):
        """*count* passes of the main loop, each taking ``pass_us``."""
        for _ in range(count):
            BOARD.advance(self.pass_us)
            self.app.step()

    def app_run(self):
        """``App.run()`` until the watchdog resets the chip."""
        started = BOARD.now()
        BOARD.read_cost_us = 10  # time goes by as the loop runs
        BOARD.hook = self._limit
        try:
            self.app.run()
        except WatchdogReset:
            pass
        finally:
            BOARD.read_cost_us = 0
            BOARD.hook = None
        return {"ran_us": BOARD.now() - started, "failed": repr(self.app.failed)}

    def _limit(self, at):
        if at > 60000000:
            raise BenchLimit()

    def usb_fail(self):
        """The next read from the USB port raises (a broken USB stack, a firmware bug)."""
        self.cdc.failure = OSError(5)
        self.cdc.rx.extend(b"\x00")

    def boot_ids(self, *, path, draws):
        """``sdfw_main.boot_id`` at *draws* successive boots whose entropy source gives the same
        bytes every time (the flash file at *path* survives between them)."""
        return [sdfw_main.boot_id(lambda count: b"\x5a" * count, path) for _ in range(draws)]

    def app_state(self):
        return {"stalls": self.cdc.stalls, "queued": len(self.port.queue) - self.port.sent,
                "dropped": self.port.dropped, "unacked": len(self.link.unacked)}

    def step(self):
        now = utime.ticks_us()
        self.unit.poll(now)
        self.link.service(now)

    def feed(self, data):
        self.link.feed(bytes.fromhex(data), utime.ticks_us())
        self.step()

    def advance(self, us, passes=1):
        """Let *us* pass in *passes* equal slices, one main-loop pass after each."""
        for index in range(passes):
            BOARD.advance(us * (index + 1) // passes - us * index // passes)
            self.step()

    def stall(self, us):
        """Time passes with the main loop stuck (in a blocking write): only the hardware runs."""
        BOARD.advance(us)

    def drive(self, gpio, level, at_us):
        BOARD.drive(gpio, level, at_us)

    def inject(self, gpio, level, after):
        """Drive *gpio* to *level* at the *after*-th interrupt point from now (0: the next)."""
        BOARD.injections.append([after, gpio, level])

    def levels(self):
        return {str(gpio): line.level for gpio, line in BOARD.lines.items()}

    def state(self):
        unit, link = self.unit, self.link
        return {
            "edges_pending": unit.edge_head != unit.edge_tail,
            "unacked": len(link.unacked),
            "boot_id": link.boot_id,
            "reported": [1 if held else 0 for held in unit.reported],
            "protocol_errors": link.protocol_errors,
        }

    def vectors(self, items):
        """The wire format computed by the firmware, for the host to compare byte for byte."""
        results = []
        for item in items:
            kind = item[0]
            if kind == "crc":
                results.append(sdfw_proto.crc16(bytes.fromhex(item[1])))
            elif kind == "cobs":
                results.append(sdfw_proto.cobs_encode(bytes.fromhex(item[1])).hex())
            elif kind == "uncobs":
                try:
                    results.append(sdfw_proto.cobs_decode(bytes.fromhex(item[1])).hex())
                except ValueError:
                    results.append(None)
            elif kind == "frame":
                payload = sdfw_proto.pack(item[1], item[3])
                results.append(sdfw_proto.encode_frame(item[1], item[2], payload).hex())
            elif kind == "read":
                reader = sdfw_proto.FrameReader()
                frames = reader.feed(bytes.fromhex(item[1]))
                results.append([[t, s, p.hex()] for t, s, p in frames] + [reader.errors])
        return results

    def constants(self):
        return {name: value for name, value in sdfw_proto.__dict__.items()
                if name.isupper() and isinstance(value, int)}


def main():
    bench = Bench()
    stdin = sys.stdin
    stdout = sys.stdout
    while True:
        line = stdin.readline()
        if not line:
            return
        command = json.loads(line)
        op = command.pop("op")
        reply = {}
        try:
            result = getattr(bench, op)(**command)
            if result is not None:
                reply["result"] = result
        except Exception as exc:
            reply["error"] = f"{type(exc).__name__}: {exc}"
        reply["out"] = bench.collect().hex()
        reply["now_us"] = BOARD.now()
        reply["changes"] = BOARD.changes
        BOARD.changes = []
        reply["injected"] = BOARD.injected
        BOARD.injected = []
        stdout.write(json.dumps(reply))
        stdout.write("\n")


main()
