"""The game session: the table's scorekeeper, a fold over the journal.

A :class:`Session` takes commands (:mod:`showdown.game.messages`), checks each against the
current game, stores the accepted ones in the :class:`~showdown.game.journal.Journal` (durably,
before
answering) and answers with events. Its state is never kept anywhere but in the journal: it is
rebuilt by folding the game's stored events (:func:`fold`), so resuming after a crash, undoing
and editing a past round are one mechanism.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from showdown.game.journal import Journal
    >>> folder = tempfile.TemporaryDirectory()
    >>> session = Session(Journal.open(Path(folder.name) / "table.db"))
    >>> session.handle(SetUpGame(players=["Ann", "Bob"]))  # doctest: +ELLIPSIS
    [GameStarted(...), ScoresUpdated(...)]
    >>> session.journal.close()
    >>> folder.cleanup()

Bad input changes nothing and is answered by one :class:`EntryRejected` whose message is meant
for the people at the table. The session is thread-safe: the unit's result thread and the
scoreboard's touch thread may both call :meth:`Session.handle`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from engine.cards import CardKind
from engine.deck import builtin_deck
from engine.error_text import ErrorText, plain
from engine.rules import PenaltyReason, RuleSet, UnknownPresetError, preset
from engine.scoring import RoundResult, Scoresheet, ScoringError, ScoringSettings
from engine.stats import PlayerStats, ShowdownReason, ShowdownRecord, player_stats
from engine.tally import DeckValues, HandTally, tally_for
from showdown.game.journal import DuplicateEntryError, Entry, Journal, JournalWriteError
from showdown.game.messages import (
    STORED_EVENTS,
    Command,
    CorrectShowdown,
    EditRound,
    EntryRedone,
    EntryRejected,
    EntryUndone,
    Event,
    GameResumed,
    GameStarted,
    GameWon,
    HandEntry,
    PenaltyRecorded,
    RecordPenalty,
    RecordRound,
    RecordShowdown,
    RedoLast,
    ResumeGame,
    RoundEdited,
    RoundRecorded,
    ScoresUpdated,
    SetUpGame,
    ShowdownRecorded,
    StoredEvent,
    UndoLast,
)
from showdown.unit.listeners import Listeners

__all__ = [
    "SIMULATED_SETUP_KEY",
    "TAP_KINDS",
    "GameState",
    "KeptGame",
    "Listener",
    "Session",
    "SessionError",
    "deck_values",
    "fold",
]

log = logging.getLogger(__name__)

Listener = Callable[[Event], None]


def _failed(listener: Callable[[Event], object], event: Event) -> None:
    """A listener raised: logged with the event it was told, and the others are still told."""
    log.exception("a session listener failed on %s", event.kind)
"""Receives every event the session sends, in order, on the thread that sent the command."""

MAX_REACTION_MS = 60_000.0
"""A reaction longer than a minute is not a reaction: such an entry is refused."""


class SessionError(ValueError):
    """A command that cannot be accepted. ``str()`` is the English message (logs, the command
    line); ``text`` is the same as a template and its values, which the scoreboard translates."""

    def __init__(self, message: str | ErrorText) -> None:
        self.text = plain(message) if isinstance(message, str) else message
        super().__init__(str(self.text))


@dataclass(frozen=True)
class GameState:
    """One game as the fold of its journal entries: everything the scoreboard draws."""

    game_id: int
    players: tuple[str, ...]
    preset: str
    rules: RuleSet
    scoring: ScoringSettings
    first_dealer: str
    rounds: tuple[RoundRecorded, ...]
    """Every round as it stands now (edits applied), round 1 first."""
    showdowns: tuple[ShowdownRecorded, ...]
    """Every showdown still standing, in the order recorded; each names its round."""
    penalties: tuple[PenaltyRecorded, ...]
    """Every table penalty still standing, in the order recorded; each names its round."""
    sheet: Scoresheet = field(repr=False, compare=False)
    undoable: tuple[tuple[int, str], ...] = ()
    """(journal seq, kind) of entries an undo can take back, last one last."""
    live: tuple[tuple[int, StoredEvent], ...] = ()
    """Every fact standing now with the journal seq of its entry, in the order entered."""
    redoable: tuple[tuple[int, str], ...] = ()
    """(journal seq of an undo, kind it undid) that a redo can take back, last one first in
    line; emptied by any new entry, as in an editor."""

    @property
    def last_fact(self) -> StoredEvent | None:
        """What an undo would take back now (a round, a showdown or an edit)."""
        return self.live[-1][1] if self.live else None

    @property
    def totals(self) -> dict[str, int]:
        """Each player's total."""
        return dict(zip(self.players, self.sheet.totals, strict=True))

    @property
    def pigs(self) -> dict[str, int]:
        """Each player's pigs (hero and mean scoring; all 0 in the other modes)."""
        return dict(zip(self.players, self.sheet.pigs, strict=True))

    @property
    def is_over(self) -> bool:
        """True once the game reached its target (or its agreed number of rounds or pigs)."""
        return self.sheet.is_over

    @property
    def winners(self) -> tuple[str, ...]:
        """The winners' names once the game is over, else empty."""
        return tuple(self.players[s] for s in self.sheet.winners)

    @property
    def eliminated(self) -> tuple[str, ...]:
        """Players out of a Challenge UNO game, in the order they went out."""
        return tuple(self.players[s] for s in self.sheet.eliminated)

    @property
    def active_players(self) -> tuple[str, ...]:
        """Who plays the next round (everyone, bar the eliminated)."""
        return tuple(self.players[s] for s in self.sheet.active_seats)

    @property
    def current_round(self) -> int:
        """The round being played now (numbered from 1)."""
        return len(self.rounds) + 1

    @property
    def dealer(self) -> str | None:
        """Who deals the current round; None once the game is over."""
        if self.is_over:
            return None
        active = self.sheet.active_seats
        seat = self._deal_passed()
        while active and seat not in active:
            seat = (seat + 1) % len(self.players)
        return self.players[seat]

    def _deal_passed(self) -> int:
        """The seat the deal has reached after every round played, by the rules' next dealer
        (left each round, or the round's winner), whoever is still in the game."""
        seat = self.players.index(self.first_dealer)
        for played in self.rounds:
            if self.rules.next_dealer == "winner":
                seat = self.players.index(played.went_out)
            else:
                seat = (seat + 1) % len(self.players)
        return seat

    def rematch(self) -> SetUpGame:
        """The next game at this table: the same players in the same seats, the same rules,
        scoring and target, and the deal passed on from this game's last round as the rules
        pass it each round (to the left, or to the last round's winner)."""
        return SetUpGame(players=list(self.players), preset=self.preset, scoring=self.scoring,
                         first_dealer=self.players[self._deal_passed()])

    @property
    def stats(self) -> dict[str, PlayerStats]:
        """Per player: rounds won, points, showdowns won and lost, cards taken, reactions."""
        seat = self.players.index
        records = []
        for s in self.showdowns:
            pair = (s.left, s.right) if s.left and s.right else (s.winner, s.loser)
            records.append(
                ShowdownRecord(
                    players=(seat(pair[0]), seat(pair[1])),
                    cards_loaded=s.cards_loaded,
                    winner=seat(s.winner),
                    loser=seat(s.loser),
                    reason=ShowdownReason(s.reason),
                    reaction_ms=(s.reaction_ms.get(pair[0]), s.reaction_ms.get(pair[1])),
                )
            )
        computed = player_stats(len(self.players), self.sheet.history, records)
        return {self.players[line.seat]: line for line in computed}

    def scores_updated(self) -> ScoresUpdated:
        """The derived event the scoreboard redraws from."""
        return ScoresUpdated(
            rounds=len(self.rounds),
            totals=self.totals,
            dealer=self.dealer,
            eliminated=list(self.eliminated),
            pigs=self.pigs if self.scoring.uses_pigs else {},
        )


@dataclass(frozen=True)
class KeptGame:
    """A game in the table's list of games (:meth:`Session.kept_games`)."""

    state: GameState
    last_played: str
    """When its latest entry was made (ISO 8601, UTC)."""
    name: str | None = None
    """What the table named it, if it did."""
    current: bool = False
    """It is the game being played (or just finished) now."""


SIMULATED_SETUP_KEY = "setup:"
"""How the simulated table keys a game's set-up (``setup:<seed>:<game>``): the scoreboard never
keys one, so a game that starts so was played by bots, and the table's lists leave it out."""


def fold(game_id: int, entries: Sequence[Entry]) -> GameState | None:
    """Rebuild a game from its journal entries; None when the game has no set-up yet."""
    return _fold(game_id, [(entry.seq, _parse(entry)) for entry in entries])


ParsedEntry = tuple[int, list[StoredEvent]]
"""An entry's journal sequence number and its events, already read."""


def _fold(game_id: int, entries: Sequence[ParsedEntry]) -> GameState | None:
    if not entries:
        return None
    first = entries[0][1]
    if len(first) != 1 or not isinstance(first[0], GameStarted):
        raise SessionError(ErrorText("game {game}: the journal does not start with a set-up",
                                     {"game": game_id}))
    started = first[0]
    live: list[tuple[int, StoredEvent]] = []
    effects: dict[int, _Effects] = {}
    redoable: list[tuple[int, str]] = []
    for entry_seq, events in entries[1:]:
        removed: list[tuple[int, StoredEvent]] = []
        restored: list[tuple[int, StoredEvent]] = []
        for event in events:
            if isinstance(event, GameResumed):
                continue
            if isinstance(event, EntryUndone | EntryRedone):
                # A redo takes the undo back exactly as an undo takes back an entry.
                gone, back = _take_back(live, effects, event.seq)
                removed += gone
                restored += back
            else:
                live.append((entry_seq, event))
        if removed or restored:
            effects[entry_seq] = (removed, restored)
        kinds = {type(event) for event in events}
        if kinds == {GameResumed}:
            continue
        if kinds == {EntryUndone}:
            redoable.append((entry_seq, _what(events[0])))
        elif kinds == {EntryRedone}:
            if redoable:
                redoable.pop()
        else:
            redoable.clear()
    rounds: list[RoundRecorded] = []
    showdowns: list[ShowdownRecorded] = []
    penalties: list[PenaltyRecorded] = []
    for _seq, event in live:
        if isinstance(event, RoundRecorded):
            rounds.append(event)
        elif isinstance(event, RoundEdited):
            rounds[event.round - 1] = RoundRecorded(
                round=event.round, went_out=event.went_out, points=event.points,
                hands=event.hands,
            )
        elif isinstance(event, ShowdownRecorded):
            showdowns.append(event)
        elif isinstance(event, PenaltyRecorded):
            penalties.append(event)
    players = tuple(started.players)
    sheet = Scoresheet(
        started.scoring,
        len(players),
        names=players,
        results=[_result(players, r.went_out, r.points) for r in rounds],
    )
    return GameState(
        game_id=game_id,
        players=players,
        preset=started.preset,
        rules=preset(started.preset),
        scoring=started.scoring,
        first_dealer=started.first_dealer,
        rounds=tuple(rounds),
        showdowns=tuple(showdowns),
        penalties=tuple(penalties),
        sheet=sheet,
        undoable=tuple((seq, _KIND_OF[type(e)]) for seq, e in live),
        live=tuple(live),
        redoable=tuple(redoable),
    )


_Effects = tuple[list[tuple[int, StoredEvent]], list[tuple[int, StoredEvent]]]
"""What an entry that takes things back did: the facts it removed, the facts it restored."""


def _what(event: StoredEvent) -> str:
    return event.what if isinstance(event, EntryUndone | EntryRedone) else ""


def _take_back(
    live: list[tuple[int, StoredEvent]], effects: dict[int, _Effects], seq: int
) -> _Effects:
    """Take back entry ``seq``: its facts leave ``live``, and whatever it took back itself (an
    undo, a correction) stands again, in its original place. Returns (removed, restored)."""
    removed = [item for item in live if item[0] == seq]
    undid, brought_back = effects.get(seq, ([], []))
    gone = removed + [item for item in brought_back if item in live]
    live[:] = [item for item in live if item[0] != seq and item not in brought_back]
    back = [item for item in undid if item not in live]
    live.extend(back)
    live.sort(key=lambda item: item[0])
    return gone, back


_KIND_OF: dict[type[BaseModel], str] = {
    RoundRecorded: "round",
    RoundEdited: "edit",
    ShowdownRecorded: "showdown",
    PenaltyRecorded: "penalty",
}


#: The kinds of entry the session writes. An entry of any other kind (written by a newer version,
#: or damaged) is refused rather than skipped or guessed at: a game folded without it would show
#: and export wrong totals, so nothing reads the game until someone looks at the file.
ENTRY_KINDS = frozenset(
    {"set_up", "showdown", "round", "edit", "undo", "redo", "correct", "resume", "penalty"})


def _parse(entry: Entry) -> list[StoredEvent]:
    if entry.kind not in ENTRY_KINDS:
        raise SessionError(ErrorText(
            "game {game}, journal entry {seq} cannot be read ({where}: {problem}); the journal "
            "was not changed",
            {"game": entry.game_id, "seq": entry.seq, "where": "kind",
             "problem": f"unknown kind {entry.kind!r}, from a newer version or damaged"},
        ))
    try:
        return [STORED_EVENTS.validate_python(e) for e in entry.events]
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise SessionError(ErrorText(
            "game {game}, journal entry {seq} cannot be read ({where}: {problem}); the journal "
            "was not changed",
            {"game": entry.game_id, "seq": entry.seq, "where": where, "problem": first["msg"]},
        )) from None


def _result(players: Sequence[str], went_out: str, points: dict[str, int]) -> RoundResult:
    return RoundResult(
        went_out=players.index(went_out),
        hand_points=tuple(points.get(name, 0) for name in players),
    )


class Session:
    """The scorekeeper of one table: handle commands, answer events, resume from the journal.

    On creation it resumes the journal's latest game (or waits for a :class:`SetUpGame`).
    """

    def __init__(self, journal: Journal, *, game_id: int | None = None) -> None:
        self._journal = journal
        self._lock = threading.RLock()
        self._listeners: Listeners[[Event]] = Listeners(lock=self._lock, failed=_failed)
        self._state: GameState | None = None
        self._entries: list[ParsedEntry] = []
        """The current game's entries as read: the fold's input, kept to fold again cheaply."""
        chosen = journal.last_played_game() if game_id is None else game_id
        if chosen is not None:
            self._entries = [(e.seq, _parse(e)) for e in journal.entries(chosen)]
            self._state = _fold(chosen, self._entries)

    # -- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> GameState | None:
        """The current game, or None before the first set-up."""
        return self._state

    @property
    def journal(self) -> Journal:
        """Where the session stores its entries."""
        return self._journal

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every event from now on; returns a function that unsubscribes."""
        return self._listeners.subscribe(listener)

    # -- commands -----------------------------------------------------------------------------

    def handle(self, command: Command) -> list[Event]:
        """Check, store (durably) and answer one command. Never raises for bad input."""
        with self._lock:
            try:
                events = self._handle(command)
            except SessionError as error:
                events = [
                    EntryRejected(command=command.kind, message=str(error), text=error.text)
                ]
            except DuplicateEntryError:
                text = _duplicate_message(command)
                events = [
                    EntryRejected(
                        command=command.kind, message=str(text), text=text, duplicate=True
                    )
                ]
            except JournalWriteError as error:
                text = ErrorText("not stored: {error}", {"error": str(error)})
                events = [
                    EntryRejected(
                        command=command.kind, message=str(text), text=text, unstored=True
                    )
                ]
            for event in events:
                self._emit(event)
            return events

    def _emit(self, event: Event) -> None:
        self._listeners.tell(event)

    def _handle(self, command: Command) -> list[Event]:
        if isinstance(command, SetUpGame):
            return self._set_up(command)
        if isinstance(command, ResumeGame):
            return self._resume(command)
        state = self._state
        if state is None:
            raise SessionError(ErrorText("no game is set up yet: set up the players first"))
        if isinstance(command, RecordShowdown):
            return self._showdown(state, command)
        if isinstance(command, RecordRound):
            return self._round(state, command)
        if isinstance(command, EditRound):
            return self._edit(state, command)
        if isinstance(command, RedoLast):
            return self._redo(state, command)
        if isinstance(command, CorrectShowdown):
            return self._correct(state, command)
        if isinstance(command, RecordPenalty):
            return self._penalty(state, command)
        return self._undo(state, command)

    def _commit(
        self, state: GameState, kind: str, events: list[StoredEvent], key: str | None
    ) -> list[Event]:
        payload: list[dict[str, Any]] = [e.model_dump(mode="json") for e in events]
        entry = self._journal.append(state.game_id, kind, payload, key=key)
        self._entries.append((entry.seq, list(events)))
        return self._refresh(state.game_id, list(events))

    def _refresh(self, game_id: int, stored: list[Event]) -> list[Event]:
        was_over = self._state is not None and self._state.is_over
        self._state = _fold(game_id, self._entries)
        assert self._state is not None
        answer = [*stored, self._state.scores_updated()]
        if self._state.is_over and not was_over:
            pigs = self._state.pigs if self._state.scoring.uses_pigs else {}
            answer.append(
                GameWon(winners=list(self._state.winners), totals=self._state.totals, pigs=pigs)
            )
        return answer

    def _set_up(self, command: SetUpGame) -> list[Event]:
        latest = self._journal.latest_game()
        if (
            command.command_id is not None
            and latest is not None
            and self._journal.has_key(latest, command.command_id)
        ):
            raise DuplicateEntryError(command.command_id)
        names = [name.strip() for name in command.players]
        if any(not name for name in names):
            raise SessionError(ErrorText("every player needs a name"))
        folded = [name.casefold() for name in names]
        repeated = sorted({n for n, f in zip(names, folded, strict=True) if folded.count(f) > 1})
        if repeated:
            raise SessionError(ErrorText("two players have the same name: {names}",
                                         {"names": tuple(repeated)}))
        try:
            preset(command.preset)
        except UnknownPresetError as error:
            raise SessionError(str(error)) from None
        dealer = names[0] if command.first_dealer is None else command.first_dealer.strip()
        if dealer not in names:
            raise SessionError(ErrorText("the first dealer {name!r} is not one of the players",
                                         {"name": dealer}))
        try:
            Scoresheet(command.scoring, len(names), names=names)
        except ScoringError as error:
            raise SessionError(error.text) from None

        def events_for(game_id: int) -> list[dict[str, Any]]:
            started = GameStarted(
                game_id=game_id, players=names, preset=command.preset,
                scoring=command.scoring, first_dealer=dealer,
            )
            return [started.model_dump(mode="json")]

        entry = self._journal.start_game("set_up", events_for, key=command.command_id)
        self._state = None
        self._entries = [(entry.seq, _parse(entry))]
        return self._refresh(entry.game_id, list(self._entries[0][1]))

    def _resume(self, command: ResumeGame) -> list[Event]:
        game_id = command.game_id
        if game_id not in {row.id for row in self._journal.games()}:
            raise SessionError(ErrorText("there is no game {game}", {"game": game_id}))
        entries = [(e.seq, _parse(e)) for e in self._journal.entries(game_id)]
        state = _fold(game_id, entries)
        if state is None:
            raise SessionError(ErrorText("there is no game {game}", {"game": game_id}))
        if state.is_over:
            raise SessionError(ErrorText("game {game} is over", {"game": game_id}))
        event = GameResumed(game_id=game_id)
        entry = self._journal.append(game_id, "resume", [event.model_dump(mode="json")])
        self._entries = [*entries, (entry.seq, [event])]
        log.info("resumed game %d at round %d", game_id, state.current_round)
        return self._refresh(game_id, [event])

    def kept_games(self) -> list[KeptGame]:
        """The table's games, the latest played first: every game with something entered in
        it (a round, a showdown or a penalty: a game left before its first round was played
        too, and the table is told it stays saved), the current one too (marked), but none
        deleted and none a simulated table played."""
        current = None if self._state is None else self._state.game_id
        labels = self._journal.game_labels()
        found = []
        for game_id, when in self._journal.activity():
            label = labels.get(game_id)
            if label is not None and label.deleted_at is not None:
                continue
            entries = self._journal.entries(game_id)
            if entries and (entries[0].key or "").startswith(SIMULATED_SETUP_KEY):
                continue
            try:
                state = _fold(game_id, [(e.seq, _parse(e)) for e in entries])
            except SessionError as error:  # a damaged game is listed nowhere, and said so
                log.warning("game %d cannot be read: %s", game_id, error)
                continue
            if state is not None and (state.rounds or state.showdowns or state.penalties):
                found.append(KeptGame(state, when, None if label is None else label.name,
                                      current=game_id == current))
        return found

    def read_game(self, game_id: int) -> GameState:
        """Any game of the journal as it stands, to look at (nothing is written)."""
        state = _fold(game_id, [(e.seq, _parse(e)) for e in self._journal.entries(game_id)])
        if state is None:
            raise SessionError(ErrorText("there is no game {game}", {"game": game_id}))
        return state

    def _player(self, state: GameState, name: str, role: ErrorText) -> str:
        clean = name.strip()
        if clean in state.players:
            return clean
        for player in state.players:
            if player.casefold() == clean.casefold():
                return player
        raise SessionError(ErrorText(
            "{role} {name!r} is not playing in this game ({players})",
            {"role": role, "name": name, "players": state.players},
        ))

    def _showdown(self, state: GameState, command: RecordShowdown) -> list[Event]:
        if state.is_over:
            raise SessionError(ErrorText("the game is over: no more showdowns can be recorded"))
        winner = self._player(state, command.winner, ErrorText("the winner"))
        loser = self._player(state, command.loser, ErrorText("the loser"))
        if winner == loser:
            raise SessionError(ErrorText("{name} cannot win a showdown against themselves",
                                         {"name": winner}))
        for name in (winner, loser):
            if name not in state.active_players:
                raise SessionError(ErrorText("{name} is not in this round", {"name": name}))
        left = None
        if command.left is not None:
            left = self._player(state, command.left, ErrorText("left"))
        right = None
        if command.right is not None:
            right = self._player(state, command.right, ErrorText("right"))
        if (left, right) != (None, None) and {left, right} != {winner, loser}:
            raise SessionError(ErrorText("the paddles must be held by the winner and the loser"))
        reactions: dict[str, float] = {}
        for name, ms in command.reaction_ms.items():
            player = self._player(state, name, ErrorText("a reaction time's player"))
            if not 0 <= ms <= MAX_REACTION_MS:
                raise SessionError(ErrorText("{name}'s reaction time {ms} ms is impossible",
                                             {"name": player, "ms": ms}))
            reactions[player] = ms
        if command.side_counts is not None and min(command.side_counts) < 0:
            raise SessionError(ErrorText("a side count cannot be negative"))
        key = None
        if command.showdown_id is not None:
            key = f"showdown:{command.showdown_id}"
        elif command.command_id is not None:
            key = command.command_id
        event = ShowdownRecorded(
            round=state.current_round, winner=winner, loser=loser,
            cards_loaded=command.cards_loaded, reason=command.reason, source=command.source,
            left=left, right=right,
            reaction_ms=reactions, side_counts=command.side_counts,
            showdown_id=command.showdown_id,
        )
        return self._commit(state, "showdown", [event], key)

    def _penalty(self, state: GameState, command: RecordPenalty) -> list[Event]:
        if state.is_over:
            raise SessionError(ErrorText("the game is over: no more penalties can be recorded"))
        player = self._player(state, command.player, ErrorText("player"))
        if player not in state.active_players:
            raise SessionError(ErrorText("{name} is not in this round", {"name": player}))
        rules = state.rules
        if command.reason is PenaltyReason.WRONG_CARD:
            allowed, cards = rules.wrong_card_penalty > 0, rules.wrong_card_penalty
        elif command.reason is PenaltyReason.MISSED_UNO:
            allowed, cards = rules.uno_penalty > 0, rules.uno_penalty
        else:
            allowed = command.reason in rules.table_penalties
            cards = rules.table_penalty_cards
        if not allowed:
            raise SessionError(ErrorText(
                "{reason} is not a table rule of the {preset} rules",
                {"reason": str(command.reason), "preset": state.preset},
            ))
        event = PenaltyRecorded(
            round=state.current_round, player=player, reason=command.reason,
            cards=cards if command.cards is None else command.cards,
        )
        return self._commit(state, "penalty", [event], command.command_id)

    def _points(
        self, state: GameState, sheet: Scoresheet, went_out: str, hands: dict[str, HandEntry]
    ) -> tuple[str, dict[str, int], dict[str, HandEntry]]:
        """Check one round's entries against the deck (engine.tally) for ``sheet``'s next hand."""
        out = self._player(state, went_out, ErrorText("the player who went out"))
        entries: dict[str, HandEntry] = {}
        by_seat: dict[int, HandTally[str]] = {}
        for name, hand in hands.items():
            player = self._player(state, name, ErrorText("player"))
            if player in entries:
                raise SessionError(ErrorText("{name} is entered twice", {"name": player}))
            if player == out and hand.points in (0, None) and not hand.cards:
                continue  # "went out: 0" is what a person types; it says nothing more
            cards = None if hand.cards is None else _tapped(hand.cards, player)
            entries[player] = HandEntry(points=hand.points, cards=cards)
            by_seat[state.players.index(player)] = HandTally(points=hand.points, cards=cards)
        try:
            result = tally_for(sheet, deck_values(state.rules), state.players.index(out), by_seat)
            sheet.check(result)
        except ScoringError as error:
            raise SessionError(error.text) from None
        points = dict(zip(state.players, result.hand_points, strict=True))
        return out, points, entries

    def _round(self, state: GameState, command: RecordRound) -> list[Event]:
        if state.is_over:
            raise SessionError(ErrorText("the game is over: no more rounds can be recorded"))
        out, points, hands = self._points(state, state.sheet, command.went_out, command.hands)
        event = RoundRecorded(round=state.current_round, went_out=out, points=points, hands=hands)
        return self._commit(state, "round", [event], command.command_id)

    def _edit(self, state: GameState, command: EditRound) -> list[Event]:
        if command.round > len(state.rounds):
            raise SessionError(ErrorText(
                "there is no round {round} to edit ({recorded} recorded)",
                {"round": command.round, "recorded": len(state.rounds)},
            ))
        results = [_result(state.players, r.went_out, r.points) for r in state.rounds]
        before = Scoresheet(
            state.scoring, len(state.players), names=state.players,
            results=results[: command.round - 1],
        )
        out, points, hands = self._points(state, before, command.went_out, command.hands)
        results[command.round - 1] = _result(state.players, out, points)
        try:
            Scoresheet(state.scoring, len(state.players), names=state.players, results=results)
        except ScoringError as error:
            raise SessionError(ErrorText("that edit would make the sheet impossible: {error}",
                                         {"error": error.text})) from None
        event = RoundEdited(round=command.round, went_out=out, points=points, hands=hands)
        was = state.rounds[command.round - 1]
        log.info("edit: round %d now has %s going out, holding %s (was %s going out, %s)",
                 command.round, out, _held(points), was.went_out, _held(was.points))
        return self._commit(state, "edit", [event], command.command_id)

    def _undo(self, state: GameState, command: UndoLast) -> list[Event]:
        if not state.undoable:
            raise SessionError(ErrorText("there is nothing to undo"))
        seq, what = state.undoable[-1]
        log.info("undo: %s taken back (%s)", what, _summary(state.live[-1][1]))
        return self._commit(state, "undo", [EntryUndone(seq=seq, what=what)], command.command_id)

    def _redo(self, state: GameState, command: RedoLast) -> list[Event]:
        if not state.redoable:
            raise SessionError(ErrorText("there is nothing to redo"))
        seq, what = state.redoable[-1]
        log.info("redo: %s stands again", what)
        return self._commit(state, "redo", [EntryRedone(seq=seq, what=what)], command.command_id)

    def _correct(self, state: GameState, command: CorrectShowdown) -> list[Event]:
        last = next(((seq, e) for seq, e in reversed(state.live)
                     if isinstance(e, ShowdownRecorded)), None)
        if last is None:
            raise SessionError(ErrorText("there is no showdown to correct"))
        seq, old = last
        winner = self._player(state, command.winner, ErrorText("the winner"))
        loser = self._player(state, command.loser, ErrorText("the loser"))
        if {winner, loser} != {old.winner, old.loser}:
            raise SessionError(ErrorText(
                "the last showdown was {winner} against {loser}",
                {"winner": old.winner, "loser": old.loser}))
        if winner == old.winner:
            raise SessionError(ErrorText("{name} already won the last showdown",
                                         {"name": winner}))
        corrected = old.model_copy(update={"winner": winner, "loser": loser, "source": "hand",
                                           "showdown_id": None})
        log.info("correction: the last showdown is now %s beat %s (was %s beat %s)",
                 winner, loser, old.winner, old.loser)
        return self._commit(state, "correct",
                            [EntryUndone(seq=seq, what="showdown"), corrected],
                            command.command_id)


def _held(points: dict[str, int]) -> str:
    return ", ".join(f"{name} {value}" for name, value in points.items() if value) or "nothing"


def _summary(event: StoredEvent) -> str:
    """One line naming a fact, for the log."""
    if isinstance(event, ShowdownRecorded):
        return f"round {event.round}: {event.winner} beat {event.loser}, {event.cards_loaded} cards"
    if isinstance(event, RoundRecorded | RoundEdited):
        return f"round {event.round}: {event.went_out} went out"
    if isinstance(event, PenaltyRecorded):
        return f"round {event.round}: {event.player} drew {event.cards} ({event.reason})"
    return event.kind


TAP_KINDS: dict[str, CardKind] = {
    (str(int(k)) if k.is_number else k.name.lower().replace("_", "-")): k for k in CardKind
}
"""The names of card kinds as the scoreboard taps them: ``"7"``, ``"draw-two"``, ``"wild"``."""

_ALIASES = {"+2": "draw-two", "+4": "wild-draw-four", "wild-draw-4": "wild-draw-four"}


def _tapped(cards: dict[str, int], player: str) -> dict[str, int]:
    """Card kinds in their canonical names (``"Draw Two"`` reads as ``"draw-two"``)."""
    clean: dict[str, int] = {}
    for name, count in cards.items():
        key = "-".join(name.strip().lower().replace("_", " ").split())
        key = _ALIASES.get(key, key)
        if key not in TAP_KINDS:
            raise SessionError(ErrorText(
                "{player}: {name!r} is not a kind of card (use 0-9, skip, reverse, draw-two, "
                "wild, wild-draw-four, ...)",
                {"player": player, "name": name},
            ))
        clean[key] = clean.get(key, 0) + count
    return clean


def deck_values(rules: RuleSet) -> DeckValues[str]:
    """The copies and points of every card kind in the rule set's deck, by tap name."""
    values = DeckValues.of(builtin_deck(rules.deck), rules)
    names = {kind: name for name, kind in TAP_KINDS.items()}
    return DeckValues(
        copies={names[k]: n for k, n in values.copies.items()},
        values={names[k]: v for k, v in values.values.items()},
    )


def _duplicate_message(command: Command) -> ErrorText:
    if isinstance(command, RecordShowdown) and command.showdown_id is not None:
        return ErrorText("showdown {id} already has a result", {"id": command.showdown_id})
    return ErrorText("this entry was already recorded")
