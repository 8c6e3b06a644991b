"""Stop signals: installed before anything else, so a signal at any moment stops cleanly.

``showdown`` installs one handler for every signal that would otherwise end the process without
running its clean-up (SIGINT, SIGTERM, SIGHUP, SIGUSR1; SIGUSR2 is ``run``'s watchdog-test hook,
and ``run`` gives SIGUSR1 another meaning once it starts: a stats line) as the first thing the
``showdown`` command does (``showdown/__main__.py``, before the modules it needs import), or
:func:`showdown.app.cli.main` when it is called on its own. While the command line is read
(which imports the subcommands, and so pydantic, whose schema building would wrap an exception
raised inside it) a signal is only noted; :meth:`StopSignals.check` then stops before the command
starts. A command runs with stop signals raising :class:`Stopped` in the main thread, as Ctrl-C
raises ``KeyboardInterrupt`` by default: ``with`` blocks and ``finally`` clauses on the way out
make the unit's outputs safe. The service (``showdown run``) routes them to its main loop instead
(:meth:`StopSignals.route`).

A routed handler only records the signal and wakes the loop through a ``queue.SimpleQueue``
(whose ``put`` is documented as safe in a signal handler): it takes no lock and writes no log,
because it runs between two bytecodes of the main thread, which may hold that very lock.

One stop signal stops. A second one while the first is being handled (an impatient Ctrl-C, a
SIGTERM after a SIGHUP) must not cut the clean stop short: it is only said, in one line written
straight to the standard error's descriptor (no Python stream, no lock). A third forces the stop,
saying so: every exit hook runs (the unit back ends' own hooks make every output safe), and the
process ends at once, without waiting for the clean stop or its threads.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

__all__ = ["STOP_SIGNALS", "StopSignals", "Stopped", "stop_signals"]

STOP_SIGNALS: tuple[signal.Signals, ...] = (
    signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1,
)
"""Signals that stop a command cleanly (each would end the process at once by default)."""


class Stopped(BaseException):
    """A stop signal arrived: unwind, making outputs safe on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def name(self) -> str:
        """The signal's name (``"SIGTERM"``)."""
        return signal.Signals(self.signum).name


Target = Callable[[int], None]
"""Receives the signal number inside the signal handler: it must take no lock."""


class StopSignals:
    """The one handler of :data:`STOP_SIGNALS` (see the module docstring)."""

    def __init__(self) -> None:
        self.received: int | None = None
        """The stop signal that is stopping the command, if any."""
        self.count = 0
        """How many stop signals came (the second is only said, the third forces the stop)."""
        self._target: Target | None = None
        self._previous: dict[int, Any] = {}
        self.force: Callable[[int], None] = _force
        """What a third stop signal does (ends the process; tests replace it)."""

    def install(self) -> bool:
        """Handle every stop signal from now on, noting it only (see :meth:`route`); False
        if they were handled already (by the entry point, from its first line: a signal noted
        meanwhile is kept). Only the main thread can handle signals: called from another (a test
        driving the command line), it does nothing."""
        if self._previous:
            return False
        self.received = None
        self.count = 0
        self._target = _note
        if threading.current_thread() is not threading.main_thread():
            return True
        for signum in STOP_SIGNALS:
            self._previous.setdefault(signum, signal.signal(signum, self._handle))
        return True

    def noted(self, signum: int) -> None:
        """Take a signal that came before :meth:`install` (the entry point's first lines noted
        it) as if it came now."""
        self._handle(signum, None)

    def route(self, target: Target | None) -> None:
        """Send later signals to *target* instead of raising (None: raise :class:`Stopped`)."""
        self._target = target

    def check(self) -> None:
        """Raise :class:`Stopped` if a stop signal was noted (between two steps of a start)."""
        if self.received is not None:
            raise Stopped(self.received)

    def restore(self) -> None:
        """Give every stop signal back the handler it had before :meth:`install`."""
        self._target = None
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        self.count += 1
        if self.count == 2:
            _write(f"showdown: {_name(signum)}: still stopping cleanly; a third stop signal "
                   "forces the stop")
            return
        if self.count > 2:
            self.force(signum)
            return
        self.received = signum
        target = self._target
        if target is None:
            raise Stopped(signum)
        target(signum)


def _name(signum: int) -> str:
    return signal.Signals(signum).name


def _write(line: str) -> None:
    """One line on standard error from inside a signal handler: straight to the descriptor."""
    with contextlib.suppress(OSError):
        os.write(2, (line + "\n").encode())


def _force(signum: int) -> None:
    """The third stop signal: say so, run the exit hooks (outputs safe), end the process now."""
    _write(f"showdown: {_name(signum)}: a third stop signal forces the stop: every output is "
           "made safe by the exit hooks, the rest of the clean stop is cut short")
    try:
        atexit._run_exitfuncs()
    finally:
        os._exit(128 + signum)


def _note(_signum: int) -> None:
    """A target that does nothing: :attr:`StopSignals.received` already holds the signal."""


stop_signals = StopSignals()
"""The process's handler, installed by :func:`showdown.app.cli.main`."""
