"""The service's shutdown in named phases, so that it runs in one documented order whatever ended
the service and whatever order the parts were opened in.

Each part says how it closes, under its phase, as it opens (:meth:`Shutdown.add`). Closing runs
the phases in :class:`Phase` order and, within a phase, the last opened first (a
:class:`contextlib.ExitStack` each). A start that fails half way closes what it had opened in the
same order, and a step that fails is logged and the next one runs: one broken part never leaves
the unit's outputs on or the journal open.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import threading
from collections.abc import Callable
from types import TracebackType

__all__ = ["Phase", "Shutdown"]

log = logging.getLogger(__name__)


class Phase(enum.Enum):
    """The shutdown's phases, in the order they run; each value is the line logged (at debug
    level) once the phase is done."""

    TABLE = "the table has stopped"
    """No more entries: the simulated table's bots (the service's worker) have stopped."""
    UNIT = "the unit's outputs are safe"
    """The unit is closed (launcher off, lights off) before anything that may take its time."""
    FRONT_ENDS = "the scoreboard and the phone page are closed"
    """Closed while the journal is open: a last tap or a phone's undo still reaches it."""
    TOURNAMENT_LINK = "the event link has stopped"
    """After every entry it might publish is in the journal, before the journal closes."""
    JOURNAL = "the journal is closed"
    """Last: the journal closes and its lock is released (the next start may open it)."""


class Shutdown:
    """Closing steps by phase (see the module docstring); a context manager that closes on exit."""

    def __init__(self) -> None:
        self._stacks = {phase: contextlib.ExitStack() for phase in Phase}
        self._steps = dict.fromkeys(Phase, 0)
        self._lock = threading.Lock()
        self._closed = False

    def add(self, phase: Phase, step: Callable[[], object], what: str) -> None:
        """Run ``step`` in ``phase`` (``what`` names it in the log if it fails). A part opened
        once the shutdown is done (an event joined from Set-up at the last moment) closes now."""
        with self._lock:
            if not self._closed:
                self._stacks[phase].callback(_logged, step, what)
                self._steps[phase] += 1
                return
        _logged(step, what)

    def close(self) -> None:
        """Run every phase that has steps, in order; a second call does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for phase in Phase:
            if self._steps[phase]:
                self._stacks[phase].close()
                log.debug("shutdown: %s", phase.value)

    def __enter__(self) -> Shutdown:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _logged(step: Callable[[], object], what: str) -> None:
    """One closing step; one that fails is logged, and the shutdown goes on with the next."""
    try:
        step()
    except Exception:
        log.exception("shutdown: %s failed; continuing with the next step", what)
