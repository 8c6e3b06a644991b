"""The simulated microcontroller: the reference firmware, run under CPython on a pseudo-terminal.

The firmware's own objects (``sdfw_unit.Unit``, ``sdfw_link.McuLink`` from
``firmware_bridge/pico``) run
with stand-ins for ``machine`` and ``time`` (:mod:`hw_sim.micropython_standins`) in one daemon
thread that does what the Pico's ``main.py`` loop does: read the serial line, poll the unit,
service the link. The serial line is a pseudo-terminal (``os.openpty``): the host opens the other
end with the real pyserial, optionally through a stable symlink that survives a replug, exactly as
``/dev/showdown-unit`` does on a Pi.

Faults (:class:`Faults`) are injected on the bytes in both directions: corruption and loss at given
rates, a delay on the way to the host; :meth:`SimulatedMcu.unplug` / :meth:`SimulatedMcu.plug` close
and reopen the line (the host sees a ``SerialException``), :meth:`SimulatedMcu.reset` reboots the
firmware (new boot id, pins reset, the USB line re-enumerates). While :attr:`SimulatedMcu.deaf` is
set every byte toward the board is lost (a line that has gone bad one way at the worst moment: a
command the host keeps resending arrives only when it is cleared).
"""

from __future__ import annotations

import collections
import contextlib
import errno
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hw_sim.firmware import firmware_module
from hw_sim.micropython_standins import StandinMachine, StandinPin, StandinUtime

__all__ = ["Faults", "SimulatedMcu"]

_LOOP_PERIOD_S = 0.0005


@dataclass
class Faults:
    """What the cable and the USB stack do to bytes. Rates are per byte, in both directions."""

    corrupt_rate: float = 0.0
    drop_rate: float = 0.0
    delay_ms: float = 0.0
    seed: int = 0


class SimulatedMcu:
    """The firmware on a simulated board behind a pseudo-terminal. See the module docstring."""

    def __init__(
        self,
        now_ns: Callable[[], int] = time.monotonic_ns,
        *,
        link_path: str | Path | None = None,
        faults: Faults | None = None,
        pins: dict[str, int] | None = None,
        tick_bits: int = 30,
        seed: int = 0,
        pull_up_ns: int = 0,
    ) -> None:
        self.utime = StandinUtime(now_ns, tick_bits)
        # The inputs' pull-ups lift the lines at the first read unless *pull_up_ns* says
        # otherwise: tests on a manual clock press lines right after boot.
        self.machine = StandinMachine(self.utime, pull_up_ns=pull_up_ns)
        # The main loop's passes and the interrupts take turns, as on one core.
        self._lock = self.machine.cpu
        self.faults = faults or Faults()
        self._fault_rng = random.Random(self.faults.seed)
        self._boot_rng = random.Random(seed)
        self._pins = pins
        self._link_path = Path(link_path) if link_path is not None else None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_name = ""
        self._outgoing: collections.deque[tuple[float, bytes]] = collections.deque()
        # An interrupt wakes the main loop at once, as on a Pico whose loop never sleeps.
        self._wake_read, self._wake_write = os.pipe()
        os.set_blocking(self._wake_read, False)
        os.set_blocking(self._wake_write, False)
        self.machine.on_interrupt = self._wake
        self.boots = 0
        self.steps = 0
        self._stepped = threading.Condition()
        self.bytes_corrupted = 0
        self.bytes_dropped = 0
        self.deaf = False  # every byte toward the board lost (see the module docstring)
        self.tamper: Callable[[bytes], bytes] | None = None
        """A test's own damage to each write of the board's, after :attr:`faults`'."""
        self.unit: Any = None
        self.link: Any = None
        self._boot()
        self.plug()

    # -- the board ------------------------------------------------------------------------

    @property
    def port(self) -> str:
        """What the host opens: the stable symlink if one was asked for, else the pty's name."""
        return str(self._link_path) if self._link_path is not None else self._slave_name

    @property
    def boot_id(self) -> int:
        """The running firmware's boot id."""
        return int(self.link.boot_id)

    def pin(self, name: str) -> StandinPin:
        """The board pin wired to the firmware's line *name* (``"paddle_left"``)."""
        pins = self._pins or firmware_module("sdfw_unit").PINS
        return self.machine.pin(pins[name])

    def press(self, name: str, at_ns: int) -> None:
        """Pull the active-low input *name* down at *at_ns* (a press, a card on a line)."""
        self.pin(name).drive(0, at_ns)

    def release(self, name: str, at_ns: int) -> None:
        """Let the input *name* go back up at *at_ns*."""
        self.pin(name).drive(1, at_ns)

    def _random_bytes(self, count: int) -> bytes:
        """The board's entropy source (``os.urandom`` on a Pico), seeded for repeatable runs."""
        return self._boot_rng.randbytes(count)

    def _boot(self, boot_id: int | None = None) -> None:
        proto_unit = firmware_module("sdfw_unit")
        proto_link = firmware_module("sdfw_link")
        with self._lock:
            self.machine.reset_pins()
            if boot_id is None:
                # As the firmware's boot does: random, and never the last boot's id (kept in flash).
                last = 0 if self.link is None else int(self.link.boot_id)
                boot_id = int(proto_link.draw_boot_id(self._random_bytes, last))
            self.unit = proto_unit.Unit(self.machine, self.utime, self._pins)
            self.link = proto_link.McuLink(self.unit, self._write, boot_id, self.utime.tick_bits,
                                           random_bytes=self._random_bytes)
            self.boots += 1

    # -- the serial line ------------------------------------------------------------------

    def plug(self) -> None:
        """Open a fresh pseudo-terminal (and point the stable symlink at it)."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)  # no echo, no line discipline: a binary line like USB CDC
            os.set_blocking(master, False)
            self._master, self._slave = master, slave
            self._slave_name = os.ttyname(slave)
            self._outgoing.clear()
            if self._link_path is not None:
                temporary = self._link_path.with_name(self._link_path.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    temporary.unlink()
                temporary.symlink_to(self._slave_name)
                temporary.replace(self._link_path)

    def unplug(self) -> None:
        """Close the line as a pulled cable does: the host's next read or write fails."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            self._outgoing.clear()
            if self._link_path is not None:
                with contextlib.suppress(FileNotFoundError):
                    self._link_path.unlink()

    def replug(self) -> None:
        """Unplug and plug back in (a new pty; the stable path follows it)."""
        self.unplug()
        self.plug()

    def reset(self, *, same_boot_id: bool = False) -> None:
        """Reboot the microcontroller: outputs low, firmware state gone, new boot id, USB replug.
        With *same_boot_id* the new boot draws the old id again (what a weak entropy source
        does), and the firmware must still start a fresh session."""
        previous = self.boot_id
        self.unplug()
        self._boot(previous if same_boot_id else None)
        self.plug()

    def _write(self, data: bytes) -> None:
        # Called by the firmware's link (in the MCU thread, or in a test's thread).
        data = self._damage(data)
        if self.tamper is not None:
            data = self.tamper(data)
        if data:
            release = time.monotonic() + self.faults.delay_ms / 1000
            self._outgoing.append((release, data))

    def _damage(self, data: bytes) -> bytes:
        faults = self.faults
        if not (faults.corrupt_rate or faults.drop_rate):
            return data
        out = bytearray()
        rng = self._fault_rng
        for byte in data:
            if faults.drop_rate and rng.random() < faults.drop_rate:
                self.bytes_dropped += 1
                continue
            if faults.corrupt_rate and rng.random() < faults.corrupt_rate:
                self.bytes_corrupted += 1
                out.append(byte ^ rng.randrange(1, 256))
            else:
                out.append(byte)
        return bytes(out)

    def _flush(self) -> None:
        now = time.monotonic()
        master = self._master
        while self._outgoing and self._outgoing[0][0] <= now:
            _release, data = self._outgoing.popleft()
            if master is None:
                continue
            try:
                os.write(master, data)
            except BlockingIOError:
                pass  # nobody reads: a USB CDC port drops what the host does not take
            except OSError as exc:
                if exc.errno not in (errno.EIO, errno.EBADF):
                    raise

    # -- the main loop --------------------------------------------------------------------

    def start(self) -> SimulatedMcu:
        """Run the firmware's main loop in a daemon thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="sim-mcu", daemon=True)
            self._thread.start()
        return self

    def step(self) -> None:
        """One pass of the firmware's main loop (read, poll, service, write)."""
        with self._lock:
            data = b""
            master = self._master
            if master is not None:
                try:
                    data = os.read(master, 4096)
                except (BlockingIOError, InterruptedError):
                    data = b""
                except OSError:
                    data = b""  # the host end is not open (yet)
            now = self.utime.ticks_us()
            if data and self.deaf:
                self.bytes_dropped += len(data)
                data = b""
            if data:
                data = self._damage(data)
                self.link.feed(data, now)
            self.unit.poll(now)
            self.link.service(now)
            self._flush()
        with self._stepped:
            self.steps += 1
            self._stepped.notify_all()

    def wait_steps(self, count: int, timeout_s: float = 5.0) -> bool:
        """Wait until the main loop has made *count* more passes; False on timeout."""
        with self._stepped:
            target = self.steps + count
            return self._stepped.wait_for(lambda: self.steps >= target, timeout_s)

    def quiescent(self) -> bool:
        """Nothing left to do: no unprocessed edge, no unacknowledged event. (Bytes still on
        their way to the host do not count: on a slow line a heartbeat reply always is; an event
        among them is unacknowledged, and an acknowledgement leaves the host's command pending.)"""
        with self._lock:
            return self.unit.edge_head == self.unit.edge_tail and not self.link.unacked

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._wake_write, b"!")

    def _run(self) -> None:
        while not self._stop.is_set():
            master = self._master
            watched = [self._wake_read] if master is None else [master, self._wake_read]
            with contextlib.suppress(OSError, ValueError):
                readable, _, _ = select.select(watched, [], [], _LOOP_PERIOD_S)
                if self._wake_read in readable:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_read, 4096)
            self.step()

    def close(self) -> None:
        """Stop the loop, make the outputs safe and close the line."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            self.unit.safe(self.utime.ticks_us())
            self.unplug()
            self.machine.on_interrupt = None
            for fd in (self._wake_read, self._wake_write):
                with contextlib.suppress(OSError):
                    os.close(fd)

    def __enter__(self) -> SimulatedMcu:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
