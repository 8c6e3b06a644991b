"""``main.py`` itself under the real MicroPython interpreter, as a Pico on USB.

The flash is a directory holding ``main.py`` and the ``sdfw_*.mpy`` modules compiled by
``mpy-cross`` (what ``deploy/flash_pico.sh`` copies to a Pico). The process's standard input and
output are the USB serial line: a socket to a relay thread here, which owns a pseudo-terminal
whose other end the host opens with pyserial through a stable symlink. The relay is the cable
and the USB stack: it damages bytes (:class:`~hw_sim.mcu.Faults`), can be unplugged, and turns
byte 0x03 into a keyboard interrupt while the interpreter has one enabled (the rp2 port checks
every received byte against ``mp_interrupt_char``; the unix port reacts to SIGINT instead, and
installs its handler exactly while ``kbd_intr`` is on, which ``/proc/PID/status`` shows). Until
the board's shims are first imported nothing reaches the process: the interpreter is a CPython
extension here, and CPython's own start-up would take a SIGINT as its own.
The board's shims (``tests/hw_sim/micropython/board.py``) run on a free-running clock and take
commands (press, release, jump) over a pipe; output changes come back over another.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import select
import signal
import socket
import subprocess
import threading
import time
import tty
from pathlib import Path
from typing import Any

from hw_sim.firmware import firmware_module
from hw_sim.mcu import Faults
from tests.hw_sim.mpy_harness import SHIMS, micropython_binary, micropython_env, mpy_cross

__all__ = ["PicoProcess", "flash_image"]

CTRL_C = 0x03
INPUTS = ("paddle_left", "paddle_right", "timer_button", "count_left", "count_right")
FLASH_SCRIPT = Path(__file__).resolve().parents[2] / "deploy" / "flash_pico.sh"


def flash_image(flash: Path, main_source: str | None = None) -> Path:
    """Fill *flash* with what ``deploy/flash_pico.sh`` copies to a Pico (it builds it):
    ``main.py`` and every ``sdfw_*`` module as ``.mpy``; *main_source* replaces ``main.py``."""
    subprocess.run(["bash", str(FLASH_SCRIPT), "--build-only", str(flash)], check=True,
                   capture_output=True, timeout=120, env={**os.environ, "MPY_CROSS": mpy_cross()})
    if main_source is not None:
        (flash / "main.py").write_text(main_source)
    return flash


def catches_sigint(pid: int) -> bool:
    """Whether process *pid* has a SIGINT handler installed (``SigCgt`` in /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    return False


class PicoProcess:
    """``main.py`` on the simulated board in a MicroPython process, behind a pty. See the
    module docstring. *link_path* is the stable name the host opens."""

    def __init__(self, flash: Path, link_path: Path, *, faults: Faults | None = None,
                 pull_up_us: int = 2000, pause: bool = False) -> None:
        self.flash = flash
        self.link_path = link_path
        self.faults = faults or Faults()
        self._rng = random.Random(self.faults.seed)
        self.pull_up_us = pull_up_us
        self.pause = pause
        self.pins: dict[str, int] = firmware_module("sdfw_unit").PINS
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self.levels: dict[int, int] = {}
        self._level_changed = threading.Condition()
        self.interrupts_sent = 0
        self.bytes_to_mcu = 0
        self._forwarded = threading.Condition()
        self.boots = 0
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stop = threading.Event()
        self._process: subprocess.Popen[bytes] | None = None
        self._mcu: socket.socket | None = None
        self._commands: int | None = None
        self._threads: list[threading.Thread] = []
        self._booted = threading.Event()
        self.plug()
        self.boot()

    # -- the chip ------------------------------------------------------------------------

    def boot(self) -> None:
        """Power up: a fresh interpreter runs ``main.py`` from the flash."""
        host_side, mcu_side = socket.socketpair()
        commands_read, commands_write = os.pipe()
        events_read, events_write = os.pipe()
        env = micropython_env(SHIMS)
        env.update({
            "SDFW_BOARD_COMMANDS": str(commands_read),
            "SDFW_BOARD_EVENTS": str(events_write),
            "SDFW_PULL_UP_US": str(self.pull_up_us),
            "SDFW_PAUSE": "1" if self.pause else "0",
        })
        self._process = subprocess.Popen(
            [micropython_binary(), "main.py"], cwd=self.flash, env=env,
            stdin=mcu_side.fileno(), stdout=mcu_side.fileno(),
            stderr=open(self.flash / "stderr.log", "ab"),  # noqa: SIM115 - the child keeps it
            pass_fds=(commands_read, events_write),
        )
        mcu_side.close()
        os.close(commands_read)
        os.close(events_write)
        self._mcu = host_side
        self._commands = commands_write
        self.boots += 1
        self._booted = threading.Event()
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._relay, args=(host_side,), daemon=True),
            threading.Thread(target=self._read_events, args=(events_read,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def power_off(self) -> None:
        """The chip stops (killed); its outputs are gone with it."""
        process = self._process
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(5)
        self._stop.set()
        for thread in self._threads:
            thread.join(5)
        for fd in (self._commands,):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._mcu is not None:
            self._mcu.close()
        self._mcu = self._commands = None

    def reset(self) -> None:
        """A reset: power off and on, so the USB device goes away and comes back; the flash
        (and the last boot id in it) stays."""
        self.unplug()
        self.power_off()
        self.levels = {}
        self.boot()
        self.plug()

    @property
    def exit_status(self) -> int | None:
        """The process's exit status, or None while it runs."""
        return None if self._process is None else self._process.poll()

    def stderr(self) -> str:
        """What the interpreter printed on its error stream (tracebacks)."""
        return (self.flash / "stderr.log").read_text(errors="replace")

    # -- the board -----------------------------------------------------------------------

    def command(self, **command: Any) -> None:
        """A command to the board (handled at the firmware's next interrupt point)."""
        assert self._commands is not None
        os.write(self._commands, json.dumps(command).encode() + b"\n")

    def press(self, name: str) -> None:
        """Pull the active-low input *name* down now."""
        self.command(op="drive", gpio=self.pins[name], level=0)

    def release(self, name: str) -> None:
        """Let *name* go up now."""
        self.command(op="drive", gpio=self.pins[name], level=1)

    def go(self) -> None:
        """Let a board paused at boot go on."""
        self.command(op="go")

    def wait_event(self, key: str, timeout_s: float = 10.0) -> dict[str, Any]:
        """The next board event that has *key* (others are only recorded)."""
        while True:
            event = self.events.get(timeout=timeout_s)
            if key in event:
                return event

    def wait_inputs_up(self, timeout_s: float = 10.0) -> bool:
        """Wait until every input reads high (the pull-ups have lifted them: the chip is past
        its start-up), asking the board for its levels; False on timeout. The host can be in
        session before that (main.py answers a hello on its first pass), and a press on a line
        still low is a button held at power-up, not an edge."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            self.command(op="levels")
            levels = self.wait_event("levels", max(deadline - time.monotonic(), 0.01))["levels"]
            if all(levels.get(str(self.pins[name])) == 1 for name in INPUTS):
                return True
        return False

    def level(self, name: str) -> int:
        """An output's level as the board last reported it."""
        return self.levels.get(self.pins[name], 0)

    def wait_level(self, name: str, level: int, timeout_s: float = 5.0) -> int:
        """The level of *name* once the board reported *level* (or the timeout passed).

        The board's pin reports and the link's frames travel on separate channels, so an
        ``OutputChanged`` frame can overtake the report of the pin it describes."""
        with self._level_changed:
            self._level_changed.wait_for(lambda: self.level(name) == level, timeout_s)
            return self.level(name)

    def _read_events(self, fd: int) -> None:
        with open(fd, "rb") as stream:
            for line in stream:
                event: dict[str, Any] = json.loads(line)
                if "booted" in event:
                    self._booted.set()
                if "gpio" in event:
                    with self._level_changed:
                        self.levels[event["gpio"]] = event["level"]
                        self._level_changed.notify_all()
                self.events.put(event)

    # -- the cable -----------------------------------------------------------------------

    def plug(self) -> None:
        """A fresh pty, the stable symlink pointed at it."""
        with self._lock:
            if self._master is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            name = os.ttyname(slave)
            os.set_blocking(master, False)
            self._master, self._slave = master, slave  # kept open: no EIO before the host opens
            temporary = self.link_path.with_name(self.link_path.name + ".new")
            with contextlib.suppress(FileNotFoundError):
                temporary.unlink()
            temporary.symlink_to(name)
            temporary.replace(self.link_path)

    def unplug(self) -> None:
        """Pull the cable: the host's next read or write fails."""
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
            with contextlib.suppress(FileNotFoundError):
                self.link_path.unlink()

    def replug(self) -> None:
        """Unplug and plug back in."""
        self.unplug()
        self.plug()

    def close(self) -> None:
        """Power off and pull the cable."""
        self.power_off()
        self.unplug()

    def _damage(self, data: bytes) -> bytes:
        faults = self.faults
        if not (faults.corrupt_rate or faults.drop_rate):
            return data
        out = bytearray()
        for byte in data:
            if faults.drop_rate and self._rng.random() < faults.drop_rate:
                continue
            if faults.corrupt_rate and self._rng.random() < faults.corrupt_rate:
                out.append(byte ^ self._rng.randrange(1, 256))
            else:
                out.append(byte)
        return bytes(out)

    def wait_forwarded(self, count: int, timeout_s: float = 10.0) -> bool:
        """Wait until *count* bytes from the host have reached the chip (or a Ctrl-C)."""
        with self._forwarded:
            return self._forwarded.wait_for(lambda: self.bytes_to_mcu >= count, timeout_s)

    def _to_mcu(self, mcu: socket.socket, data: bytes) -> None:
        with self._forwarded:
            self.bytes_to_mcu += len(data)
            self._forwarded.notify_all()
        process = self._process
        for index, byte in enumerate(data):
            if byte == CTRL_C and process is not None and catches_sigint(process.pid):
                # What the rp2 port does with the interrupt character: drop it and what came
                # before it, and raise KeyboardInterrupt in the running program.
                self.interrupts_sent += 1
                process.send_signal(signal.SIGINT)
                mcu.sendall(data[index + 1:])
                return
        mcu.sendall(data)

    def _relay(self, mcu: socket.socket) -> None:
        while not self._stop.is_set():
            master = self._master
            watched = [mcu] if master is None else [mcu, master]
            try:
                readable, _, _ = select.select(watched, [], [], 0.01)
            except (OSError, ValueError):
                continue
            with self._lock:
                master = self._master
                try:
                    if mcu in readable:
                        data = mcu.recv(4096)
                        if not data:
                            return  # the chip stopped
                        if master is not None:
                            with contextlib.suppress(BlockingIOError, OSError):
                                os.write(master, self._damage(data))
                    if master is not None and master in readable:
                        try:
                            data = os.read(master, 4096)
                        except OSError:
                            data = b""
                        if data and self._booted.is_set():
                            self._to_mcu(mcu, self._damage(data))
                except OSError:
                    return
