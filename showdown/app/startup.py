"""A slow start is not a hung one: systemd is told the start goes on while it does, and once
``READY=1`` is sent one log line says where the start went.

Why: systemd stops a start that has not sent ``READY=1`` within ``TimeoutStartSec=``
(``deploy/showdown.service``) and tries again, five times, then gives up. How long a start takes
depends on the Pi (a Zero 2 W's core is several times slower than a Pi 5's), on what else it
does at that moment (the first boot after a power cut, the event host starting beside it), and
on what this start has to do (a journal to migrate after an update); a start killed half way
starts again from the beginning and is no quicker the next time. So the start says it goes on, as
long as it does (``docs/deploy.md`` argues the figures):

- while the modules import (before the service's own code can say anything), each module that
  imports is progress (:class:`ImportProgress`, put in by ``showdown/__main__.py``);
- each phase of the start says its name as it begins (``systemctl status`` shows ``starting:
  the journal``) and that the next word comes within :data:`STALL_S`.

What is stuck says nothing more, and systemd stops it :data:`STALL_S` after its last word (or at
``TimeoutStartSec=``, whichever is later). The line once it is ready says which part took the
time, the interpreter and its imports included (timed from the process's own start, as the kernel
keeps it)::

    started in 41.3 s: python and imports 17.9 s, the configuration 0.4 s, the journal 0.3 s,
    the tournament link 0.0 s, the unit 1.2 s, the phone page 0.2 s, the scoreboard 6.3 s
"""

from __future__ import annotations

import importlib.abc
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

from showdown.app.sd_notify import SystemdNotifier

__all__ = ["FIRST_PHASE", "STALL_S", "ImportProgress", "StartTimes", "process_age",
           "stop_watching_imports", "watch_imports"]

Clock = Callable[[], float]

FIRST_PHASE = "python and imports"
"""The phase before the service's own code runs: the interpreter, the modules it imports."""

STALL_S = 120.0
"""The longest a start may go without a sign of progress (a module imported, a phase begun)
before systemd may stop it: twice the slowest single step measured on a starved guest (one
emulated core with a CPU hog beside it, on a busy host; docs/deploy.md)."""

EVERY_S = 5.0
"""Progress during the imports is told at most this often (one datagram, not one a module)."""


class ImportProgress(importlib.abc.MetaPathFinder):
    """Under systemd, while the start imports its modules: each import is progress, told at most
    every :data:`EVERY_S` (``EXTEND_TIMEOUT_USEC``). It finds nothing itself: it only watches
    the import system ask, first of the finders (``sys.meta_path``)."""

    def __init__(self, notifier: SystemdNotifier, clock: Clock = time.monotonic) -> None:
        self.notifier = notifier
        self.clock = clock
        self._last = clock()

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """A module is about to import: tell systemd, unless it was told a moment ago."""
        now = self.clock()
        if now - self._last >= EVERY_S:
            self._last = now
            self.notifier.extend(STALL_S)
        return None


def watch_imports(environ: Mapping[str, str] | None = None,
                  clock: Clock = time.monotonic) -> ImportProgress | None:
    """Under systemd (``$NOTIFY_SOCKET``): say the start has begun, and watch the imports as
    progress until :func:`stop_watching_imports`; elsewhere nothing (None)."""
    notifier = SystemdNotifier.from_environ(environ)
    if not notifier.enabled:
        return None
    notifier.extend(STALL_S, f"starting: {FIRST_PHASE}")
    watcher = ImportProgress(notifier, clock)
    sys.meta_path.insert(0, watcher)
    return watcher


def stop_watching_imports() -> None:
    """The start is over (or its phases speak for it): imports are no longer progress."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, ImportProgress)]


def process_age(stat: Path = Path("/proc/self/stat"), now: float | None = None) -> float | None:
    """Seconds since this process started, by the kernel's record (``/proc/self/stat``'s start
    time, in clock ticks since boot); None where there is none (not Linux). The launcher's
    ``exec`` keeps the process, so its age counts from systemd's fork."""
    try:
        fields = stat.read_text(encoding="ascii").rpartition(")")[2].split()
        ticks = int(fields[19])  # the 22nd field; the name before ")" may hold spaces
        booted = time.clock_gettime(time.CLOCK_BOOTTIME) if now is None else now
        return max(0.0, booted - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class StartTimes:
    """The start's phases, each timed from the end of the one before, the first from the
    process's start (*began*, on *clock*)."""

    def __init__(self, began: float, clock: Clock = time.monotonic,
                 on_phase: Callable[[str], None] | None = None) -> None:
        self.clock = clock
        self.began = began
        self.on_phase = on_phase
        """Told each phase's name as it begins (the status line ``systemctl status`` shows)."""
        self.phases: list[tuple[str, float]] = []
        self._current = FIRST_PHASE
        self._since = began

    @classmethod
    def of_this_process(cls, clock: Clock = time.monotonic,
                        on_phase: Callable[[str], None] | None = None) -> StartTimes:
        """Timed from this process's start (from now where the kernel does not say)."""
        now = clock()
        return cls(now - (process_age() or 0.0), clock, on_phase)

    def phase(self, name: str) -> None:
        """The phase before is over; *name* begins."""
        now = self.clock()
        self.phases.append((self._current, now - self._since))
        self._current, self._since = name, now
        if self.on_phase is not None:
            self.on_phase(name)

    def done(self) -> str:
        """The last phase is over: the line that says how long the start took, and where."""
        now = self.clock()
        self.phases.append((self._current, now - self._since))
        self._since = now
        parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.phases)
        return f"started in {now - self.began:.1f} s: {parts}"
