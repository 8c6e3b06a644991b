"""The service: the unit, the showdown state machine, the session, the journal and a front end.

``showdown run`` builds the parts (:mod:`showdown.app.subcommands.run`); this module holds what
they are
wired with and the main loop:

- :func:`entry_from_unit` turns the state machine's one :class:`ShowdownResult` per showdown into
  the session's :class:`~showdown.game.messages.RecordShowdown`.
- :class:`UnitRecorder` records every decided showdown of a real table (players loaded from the
  scoreboard); :class:`~showdown.sim.bot_table.SimulatedTable` drives a simulated one instead.
- :class:`StatusPrinter` is the headless mode's live terminal status.
- :class:`Service` runs the main loop. Each iteration calls ``tick`` first (the one place for a
  watchdog ping), then lets the front end draw (or waits), until the stop event is set (SIGINT,
  SIGTERM, the window closed, the simulated games finished). Shutdown is in one order, whatever
  ended the loop: stop the table, make the unit's outputs safe, close the front end, close the
  journal.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol, TextIO

from showdown.game.messages import (
    EntryRejected,
    Event,
    GameStarted,
    GameWon,
    RecordShowdown,
    RoundRecorded,
    ScoresUpdated,
    ShowdownReason,
    ShowdownRecorded,
)
from showdown.game.session import Session
from showdown.unit.events import Armed, FalseStart, Go, ShowdownEvent, ShowdownResult
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason

__all__ = [
    "Frontend",
    "Service",
    "StatusPrinter",
    "UnitRecorder",
    "entry_from_unit",
]

log = logging.getLogger(__name__)

_REASONS: dict[Reason, ShowdownReason] = {
    Reason.RACE: "race",
    Reason.FALSE_START: "false-start",
    Reason.SIDE_COUNT: "side-count",
}


def entry_from_unit(result: ShowdownResult, showdown_id: str) -> RecordShowdown | None:
    """The session entry for a unit result; None for a replay (tie, timeout, fault) or when the
    unit was not told who sat at the paddles."""
    reason = _REASONS.get(result.reason)
    winner, loser = result.player(result.winner), result.player(result.loser)
    if reason is None or winner is None or loser is None or not result.cards_loaded:
        return None
    reactions = {
        name: round(value, 3)
        for side, value in result.reaction_ms.items()
        if (name := result.player(side)) is not None and value >= 0
    }
    counts = None
    if result.counts:
        counts = (result.counts.get(Side.LEFT, 0), result.counts.get(Side.RIGHT, 0))
    return RecordShowdown(
        winner=winner,
        loser=loser,
        cards_loaded=result.cards_loaded,
        reason=reason,
        source="unit",
        left=result.left_player,
        right=result.right_player,
        reaction_ms=reactions,
        side_counts=counts,
        showdown_id=showdown_id,
    )


class UnitRecorder:
    """Records each decided showdown of a real table in the session (subscribe it to the machine).

    The unit numbers showdowns from 1 each time the service starts, so the entry's key joins that
    number with the moment the service started: a result is recorded once, never twice.
    """

    def __init__(self, session: Session, started: str) -> None:
        self.session = session
        self.started = started
        self.unrecorded: list[ShowdownResult] = []
        """Decided results without players (nobody loaded the unit): shown, not scored."""

    def __call__(self, event: ShowdownEvent) -> None:
        if not isinstance(event, ShowdownResult) or event.replay:
            return
        entry = entry_from_unit(event, f"{self.started}#{event.showdown_id}")
        if entry is None:
            self.unrecorded.append(event)
            log.warning(
                "showdown %d: %s won, but the unit was not told who played; enter it by hand",
                event.showdown_id, event.winner.value if event.winner else "nobody",
            )
            return
        answer = self.session.handle(entry)
        if isinstance(answer[0], EntryRejected):
            log.warning("showdown %d not recorded: %s", event.showdown_id, answer[0].message)


class Frontend(Protocol):
    """A window the main loop drives (the scoreboard). Optional: headless runs without one."""

    def notify(self, note: object = None) -> None:
        """Something changed (called from any thread); redraw soon."""

    def pump(self, timeout_ms: int) -> bool:
        """Handle input and redraw for up to *timeout_ms*; False once the window was closed."""

    def close(self) -> None:
        """Close the window."""


class StatusPrinter:
    """The headless live status: one line per showdown, round and game, plus the unit's phase.

    On a terminal the unit's phase (countdown, go, ...) is rewritten in place on the last line;
    into a file or a pipe only the lines that matter are written.
    """

    def __init__(self, stream: TextIO, *, live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self._lock = threading.Lock()
        self._pending = ""
        self._rounds = 0

    def session_event(self, event: Event) -> None:
        """A session listener: print what the table would want to hear."""
        if isinstance(event, ScoresUpdated):
            if event.rounds != self._rounds and event.rounds:
                board = ", ".join(f"{n} {t}" for n, t in event.totals.items())
                dealer = f"; {event.dealer} deals next" if event.dealer else ""
                self.line(f"  totals: {board}{dealer}")
            self._rounds = event.rounds
            return
        text = _describe(event)
        if text:
            self.line(text)

    def unit_event(self, event: ShowdownEvent) -> None:
        """A state-machine subscriber: the phase line on a terminal."""
        if not self.live:
            return
        if isinstance(event, Armed):
            self.phase(f"showdown {event.showdown_id}: red light, wait for it...")
        elif isinstance(event, Go):
            self.phase(f"showdown {event.showdown_id}: GREEN - slam!")
        elif isinstance(event, FalseStart):
            self.phase(f"showdown {event.showdown_id}: false start on the {event.side.value}")

    def line(self, text: str) -> None:
        """Print one lasting line."""
        with self._lock:
            if self.live and self._pending:
                self.stream.write("\r\x1b[2K")
            self.stream.write(text + "\n")
            if self.live and self._pending:
                self.stream.write(self._pending)
            self.stream.flush()

    def phase(self, text: str) -> None:
        """Replace the live phase line (terminal only)."""
        with self._lock:
            self._pending = text
            self.stream.write("\r\x1b[2K" + text)
            self.stream.flush()


def _describe(event: Event) -> str:
    if isinstance(event, GameStarted):
        return (
            f"game {event.game_id}: {', '.join(event.players)}; {event.preset} rules, "
            f"{event.scoring.mode} to {event.scoring.target}; {event.first_dealer} deals"
        )
    if isinstance(event, ShowdownRecorded):
        how = "false start by " + event.loser if event.reason == "false-start" else event.reason
        times = ", ".join(f"{n} {ms:.0f} ms" for n, ms in event.reaction_ms.items())
        return (
            f"  showdown: {event.winner} beat {event.loser} ({how}{'; ' + times if times else ''})"
            f" - {event.loser} takes {event.cards_loaded}"
        )
    if isinstance(event, RoundRecorded):
        scored = sum(event.points.values())
        return f"round {event.round}: {event.went_out} went out; the others held {scored} points"
    if isinstance(event, GameWon):
        board = ", ".join(f"{n} {t}" for n, t in event.totals.items())
        return f"game over: {' and '.join(event.winners)} won ({board})"
    if isinstance(event, EntryRejected):
        return f"  refused: {event.message}"
    return ""


Tick = Callable[[], None]
"""Called once per main-loop iteration (systemd's watchdog ping goes here)."""


class Service:
    """The main loop and the shutdown order (see the module docstring)."""

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
        """Shutdown steps after the worker stops, in order (outputs safe first)."""
        self.stop = stop if stop is not None else threading.Event()
        """Set to end the loop: by a signal handler, the worker finishing, the window closing."""
        self.failure: BaseException | None = None
        self.iterations = 0

    def _work(self) -> None:
        assert self.worker is not None
        try:
            self.worker(self.stop)
        except BaseException as error:
            self.failure = error
            log.exception("the table stopped with an error")
        finally:
            self.stop.set()
            if self.frontend is not None:
                self.frontend.notify()

    def run(self) -> int:
        """Run until stopped; returns the exit status (0, or 1 when the worker failed)."""
        thread = None
        if self.worker is not None:
            thread = threading.Thread(target=self._work, name="table", daemon=True)
            thread.start()
        try:
            while not self.stop.is_set():
                self.iterations += 1
                if self.tick is not None:
                    self.tick()
                if self.frontend is not None:
                    if not self.frontend.pump(int(self.IDLE_WAIT_S * 1000)):
                        self.stop.set()
                else:
                    self.stop.wait(self.IDLE_WAIT_S)
        finally:
            self.stop.set()
            self._shut_down(thread)
        return 1 if self.failure is not None else 0

    def _shut_down(self, thread: threading.Thread | None) -> None:
        if thread is not None:
            thread.join(timeout=5.0)
            if thread.is_alive():
                log.warning("the table did not stop within 5 s; closing around it")
        for step in self.on_stop:
            try:
                step()
            except Exception:
                log.exception("a shutdown step failed; continuing with the next")
        if self.frontend is not None:
            try:
                self.frontend.close()
            except Exception:
                log.exception("closing the scoreboard failed")
