"""Stop signals: installed before anything else, so a signal at any moment stops cleanly.

``showdown`` installs one handler for every signal that would otherwise end the process without
running its clean-up (SIGINT, SIGTERM, SIGHUP, SIGUSR1; SIGUSR2 is ``run``'s watchdog-test hook,
and ``run`` gives SIGUSR1 another meaning once it starts: a stats line) as the first thing
:func:`showdown.app.cli.main` does. While the command line is read (which imports the
subcommands, and so pydantic, whose schema building would wrap an exception raised inside it) a
signal is only noted; :meth:`StopSignals.check` then stops before the command starts. A command
runs with stop signals raising :class:`Stopped` in the main thread, as Ctrl-C raises
``KeyboardInterrupt`` by default: ``with`` blocks and ``finally`` clauses on the way out make the
unit's outputs safe. The service (``showdown run``) routes them to its main loop instead
(:meth:`StopSignals.route`).

A routed handler only records the signal and wakes the loop through a ``queue.SimpleQueue``
(whose ``put`` is documented as safe in a signal handler): it takes no lock and writes no log,
because it runs between two bytecodes of the main thread, which may hold that very lock.
"""

from __future__ import annotations

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
        """The last stop signal received, if any."""
        self._target: Target | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        """Handle every stop signal from now on, noting it only (see :meth:`route`). Only the
        main thread can handle signals: called from another (a test driving the command line),
        it does nothing."""
        self.received = None
        self._target = _note
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in STOP_SIGNALS:
            self._previous.setdefault(signum, signal.signal(signum, self._handle))

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
        self.received = signum
        target = self._target
        if target is None:
            raise Stopped(signum)
        target(signum)


def _note(_signum: int) -> None:
    """A target that does nothing: :attr:`StopSignals.received` already holds the signal."""


stop_signals = StopSignals()
"""The process's handler, installed by :func:`showdown.app.cli.main`."""
