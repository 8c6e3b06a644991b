"""Where the service's start went: one log line once ``READY=1`` is sent, and the phase it is in
shown by ``systemctl status`` while it starts.

Why: systemd stops a start that has not sent ``READY=1`` within ``TimeoutStartSec=``
(``deploy/showdown.service``) and starts it again, and on the slowest Pi a start takes tens of
seconds (``docs/deploy.md`` argues the figure). The line says which part took the time, the
interpreter and its imports included (timed from the process's own start, as the kernel keeps
it), so a start that comes near the limit says what to look at::

    started in 41.3 s: python and imports 17.9 s, the configuration 0.4 s, the journal 0.3 s,
    the event link 0.0 s, the unit 1.2 s, the phone page 15.2 s, the scoreboard 6.3 s
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["FIRST_PHASE", "StartTimes", "process_age"]

Clock = Callable[[], float]

FIRST_PHASE = "python and imports"
"""The phase before the service's own code runs: the interpreter, the modules it imports."""


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
