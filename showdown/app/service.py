"""The service's main loop: it keeps the unit, the session and the front ends going until
something ends it, then stops the table first.

``showdown run`` puts the parts together (:mod:`showdown.app.subcommands.run`, from the parts in
:mod:`showdown.app.parts`); this module holds the loop:

- :class:`~showdown.game.recorder.UnitRecorder` records every decided showdown of a real table
  (players loaded from the scoreboard); :class:`~showdown.playtest.bot_table.BotTable` drives a
  simulated one instead, as the service's worker; :class:`~showdown.app.status.StatusPrinter` is
  the headless status.
- :class:`Service` runs the main loop. Each iteration calls ``tick`` first (the one place for a
  watchdog ping), then lets the front end draw (or waits), until the stop event is set (a stop
  signal, the window closed, the simulated games finished, standard output lost, the worker
  failed) or an exception leaves the loop. Whatever ended it, the service then stops the table
  (:meth:`Service.stop_table`) and runs its ``on_stop`` steps. Under ``showdown run`` the rest
  of the shutdown is :class:`~showdown.app.parts.shutdown.Shutdown`'s, in its named phases: the
  table, the unit's outputs, the front ends (scoreboard and phone page), the event link, the
  journal. The service closes nothing it did not open: its front end is closed by whoever
  opened it.

A stop signal reaches the loop through :meth:`Service.signal_stop`, called inside the signal
handler: it records the signal and wakes whatever the loop waits on (the headless wait, the
scoreboard's inbox) without taking a lock, so a stop completes within one short wait whatever
the main thread was doing when the signal came.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import signal
import threading
from collections.abc import Callable
from typing import Protocol

from showdown.game.journal import JournalError
from showdown.game.session import Session
from showdown.playtest.bot_table import TableError

__all__ = ["Frontend", "Service"]

log = logging.getLogger(__name__)


class Frontend(Protocol):
    """A window the main loop drives (the scoreboard). Optional: headless runs without one."""

    def notify(self, note: object = None) -> None:
        """Something changed (called from any thread, and from a signal handler: so it must
        take no lock); redraw soon, and return from a :meth:`pump` in progress."""

    def pump(self, timeout_ms: int) -> bool:
        """Handle input and redraw for up to *timeout_ms*; False once the window was closed."""

    def close(self) -> None:
        """Close the window."""


Tick = Callable[[], None]
"""Called once per main-loop iteration (systemd's watchdog ping goes here)."""


class Service:
    """The main loop, which stops the table first however it ends (see the module docstring)."""

    IDLE_WAIT_S = 0.25
    """How long a headless iteration waits for the stop event (so ticks keep coming)."""

    def __init__(
        self,
        session: Session,
        *,
        worker: Callable[[threading.Event], None] | None = None,
        frontend: Frontend | None = None,
        tick: Tick | None = None,
        on_stop: list[Callable[[], None]] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.session = session
        self.worker = worker
        self.frontend = frontend
        self.tick = tick
        self.on_stop = on_stop or []
        """Shutdown steps after the table stops, in order (outputs safe first)."""
        self.stop = stop if stop is not None else threading.Event()
        """Set to end the loop: by a signal handler, the worker finishing, the window closing."""
        self.failure: BaseException | None = None
        self.problem: str | None = None
        """Why the service stopped early, in one line (standard output lost, the table failed)."""
        self.signalled: int | None = None
        """The stop signal that ended the loop, if one did."""
        self.iterations = 0
        self._thread: threading.Thread | None = None
        self._wake: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.frozen = threading.Event()
        """The debug hook (SIGUSR2 under ``showdown run``): the main loop stops where it is,
        ticks and all, as a hung loop would, so the watchdog's restart can be tested for real."""
        self.thaw = threading.Event()
        """Lets a frozen loop go on (tests only; a frozen service is meant to be killed)."""

    def signal_stop(self, signum: int) -> None:
        """End the loop: called inside a signal handler, so it only records and wakes."""
        self.signalled = signum
        self._wake.put(signum)
        if self.frontend is not None:
            self.frontend.notify()

    def wake(self) -> None:
        """Run the loop's next iteration soon (a stats line was asked for): called inside a
        signal handler, so it only wakes, as :meth:`signal_stop` does."""
        self._wake.put(None)
        if self.frontend is not None:
            self.frontend.notify()

    def fail(self, problem: str) -> None:
        """End the loop because of *problem* (one line; from any thread): exit status 1."""
        if self.problem is None:
            self.problem = problem
        self.stop.set()
        self._wake.put(None)
        if self.frontend is not None:
            self.frontend.notify()

    def _stopping(self) -> bool:
        if self.signalled is not None and not self.stop.is_set():
            log.info("%s received: stopping", signal.Signals(self.signalled).name)
            self.stop.set()
        return self.stop.is_set()

    def _wait(self) -> None:
        """The headless iteration's wait: until woken (a signal, the table done) or a beat."""
        with contextlib.suppress(queue.Empty):
            self._wake.get(timeout=self.IDLE_WAIT_S)

    def _work(self) -> None:
        assert self.worker is not None
        try:
            self.worker(self.stop)
        except BaseException as error:
            self.failure = error
            if isinstance(error, JournalError):  # a message for the operator, not a bug
                self.problem = self.problem or str(error)
            elif isinstance(error, TableError):  # the simulated table cannot go on: one line
                self.problem = self.problem or f"the simulated table stopped: {error}"
            else:
                log.exception("the table stopped with an error")
        finally:
            self.stop.set()
            self._wake.put(None)
            if self.frontend is not None:
                self.frontend.notify()

    def run(self) -> int:
        """Run until stopped; returns the exit status (0, or 1 when the worker failed or
        :meth:`fail` was called)."""
        if self.worker is not None:
            self._thread = threading.Thread(target=self._work, name="table", daemon=True)
            self._thread.start()
        try:
            while not self._stopping():
                if self.frozen.is_set():
                    log.warning("main loop frozen (debug hook): no more watchdog pings")
                    self.thaw.wait()
                    self.frozen.clear()
                self.iterations += 1
                if self.tick is not None:
                    self.tick()
                if self.frontend is not None:
                    if not self.frontend.pump(int(self.IDLE_WAIT_S * 1000)):
                        self.stop.set()
                else:
                    self._wait()
        finally:
            self.stop_table()
            self._after_the_table()
        return 1 if self.failure is not None or self.problem is not None else 0

    def _after_the_table(self) -> None:
        for step in self.on_stop:
            try:
                step()
            except Exception:
                log.exception("a shutdown step failed; continuing with the next")

    def stop_table(self) -> None:
        """The shutdown's first phase: end the loop and wait for the worker (the simulated
        table) to stop, so no entry comes after it. Called again, it does nothing."""
        self._stopping()
        self.stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=5.0)
            if thread.is_alive():
                log.warning("the table did not stop within 5 s; closing around it")
