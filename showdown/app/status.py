"""The headless mode's live terminal status: one line per showdown, penalty, round and game
(with the pigs of 002's hero and mean scoring)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TextIO

from engine.scoring import PIG_MODES, ScoringSettings
from showdown.game.messages import (
    EntryRejected,
    Event,
    GameStarted,
    GameWon,
    PenaltyRecorded,
    RoundRecorded,
    ScoresUpdated,
    ShowdownRecorded,
)
from showdown.locale.lists import listed
from showdown.unit.events import Armed, FalseStart, Go, ShowdownEvent, ShowdownOutcome

__all__ = ["StatusPrinter"]


class StatusPrinter:
    """The headless live status: one line per showdown, round and game, plus the unit's phase.

    On a terminal the unit's phase (countdown, go, ...) is rewritten in place on the last line;
    into a file or a pipe only the lines that matter are written. When the stream cannot be
    written any more (the pipe's reader left, the disk is full) nothing more is written and
    ``on_lost`` is told once, with the error: the service stops rather than go on unwatched.
    """

    def __init__(
        self, stream: TextIO, *, live: bool | None = None,
        on_lost: Callable[[OSError], None] | None = None,
    ) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.on_lost = on_lost
        self.lost: OSError | None = None
        """Why the stream cannot be written any more (None while it can)."""
        self._lock = threading.Lock()
        self._pending = ""
        self._rounds = 0

    def session_event(self, event: Event) -> None:
        """A session listener: print what the table would want to hear."""
        if isinstance(event, ScoresUpdated):
            if event.rounds != self._rounds and event.rounds:
                board = ", ".join(f"{n} {t}" for n, t in event.totals.items())
                dealer = f"; {event.dealer} deals next" if event.dealer else ""
                self.line(f"  totals: {board}{_pigs(event.pigs)}{dealer}")
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
        elif isinstance(event, ShowdownOutcome) and event.void:
            self.phase(f"showdown {event.showdown_id}: the unit lost contact - replay the showdown")

    def line(self, text: str) -> None:
        """Print one lasting line."""
        with self._lock:
            out = ""
            if self.live and self._pending:
                out += "\r\x1b[2K"
            out += text + "\n"
            if self.live and self._pending:
                out += self._pending
            self._write(out)

    def phase(self, text: str) -> None:
        """Replace the live phase line (terminal only)."""
        with self._lock:
            self._pending = text
            self._write("\r\x1b[2K" + text)

    def _write(self, text: str) -> None:
        if self.lost is not None:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except OSError as error:
            self.lost = error
            if self.on_lost is not None:
                self.on_lost(error)


def _describe(event: Event) -> str:
    if isinstance(event, GameStarted):
        return (
            f"game {event.game_id}: {', '.join(event.players)}; {event.preset} rules, "
            f"{_scoring(event.scoring)}; {event.first_dealer} deals"
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
    if isinstance(event, PenaltyRecorded):
        return f"  penalty: {event.player} ({event.reason}) draws {event.cards}"
    if isinstance(event, GameWon):
        board = ", ".join(f"{n} {t}" for n, t in event.totals.items())
        won = "tie" if len(event.winners) > 1 else "won"
        return f"game over: {listed(event.winners, 'en')} {won} ({board}{_pigs(event.pigs)})"
    if isinstance(event, EntryRejected):
        return f"  refused: {event.message}"
    return ""


def _scoring(scoring: ScoringSettings) -> str:
    """How the game is scored and when it ends, in words: an event's partners game has no target
    (it was printed as "standard to None"), a pig game ends at pigs, not at its target."""
    if scoring.mode in PIG_MODES:
        ends = [f"{scoring.pigs} pigs"] if scoring.pigs is not None else []
        ends += [f"{scoring.rounds} rounds"] if scoring.rounds is not None else []
        return f"{scoring.mode}, a pig at {scoring.target}, until {' or '.join(ends)}"
    ends = [f"to {scoring.target}"] if scoring.target is not None else []
    ends += [f"for {scoring.rounds} rounds"] if scoring.rounds is not None else []
    return f"{scoring.mode} {' or '.join(ends)}"


def _pigs(pigs: dict[str, int]) -> str:
    """Each player's pigs after the totals (hero and mean scoring; nothing otherwise)."""
    return "; pigs: " + ", ".join(f"{n} {p}" for n, p in pigs.items()) if pigs else ""
