"""A simulated table: bots play UNO by the engine's rules and report to the session like people.

This is what ``showdown run`` on the simulator, ``showdown sim games`` and the crash tests drive.
The bots play each round with the engine (:class:`engine.round.Round`); when the engine starts a
showdown, the table asks a :data:`Referee` to settle it (the simulated unit through the real
showdown state machine, or a seeded coin for quick tests) and records the result in the session;
under Killer UNO the bots jump in, and the table penalises silence and slapping as a person
would, in the session too; at the round's end it enters the round as a scorekeeper would: who
went out, and for the others a points total or the cards they hold tapped by kind.

Resuming is part of the design, not an afterthought: everything a table does is a pure function
of its seed and of what the session's journal already holds. After a crash the table replays the
current round with the same shuffle and the same bots, applies the showdown results the journal
already has instead of asking the referee again, and sends again only what is missing. Every
entry carries a key (``showdown_id`` or ``command_id``), so an entry that was stored but never
acknowledged is refused as a duplicate instead of being recorded twice.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from engine.bots import HeuristicBot, offer_jump_in, table_penalty
from engine.commands import CallUno, CatchUno, Command, ShowdownResult
from engine.round import Round, RoundSetup
from engine.rules import preset
from engine.scoring import ScoringSettings
from engine.state import Phase
from showdown.game.journal import JournalWriteError
from showdown.game.messages import (
    EntryRejected,
    Event,
    HandEntry,
    RecordPenalty,
    RecordRound,
    RecordShowdown,
    ResumeGame,
    SetUpGame,
    ShowdownRecorded,
)
from showdown.game.session import SIMULATED_SETUP_KEY, TAP_KINDS, GameState, Session

__all__ = [
    "BotTable",
    "Referee",
    "ShowdownCall",
    "TableError",
    "TableStopped",
    "coin_referee",
]

log = logging.getLogger(__name__)

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo")
"""Virtual players' names, seat by seat."""

MAX_ROUNDS = 400
"""A game that has not ended after this many rounds is a bug, not a long evening."""


class TableError(RuntimeError):
    """The session refused an entry the table believed correct (a bug to report, not input)."""


class TableStopped(Exception):  # noqa: N818 - a signal to unwind, not an error
    """The table was asked to stop (the service is shutting down); the game resumes next time."""


@dataclass(frozen=True, slots=True)
class ShowdownCall:
    """What the table asks the referee: settle this showdown (challenger on the left paddle)."""

    showdown_id: str
    challenger: str
    opponent: str
    cards_loaded: int


Referee = Callable[[ShowdownCall], RecordShowdown]
"""Settles one showdown and returns the entry to record (winner, loser, reason, times)."""

Ack = Callable[[str], None]
"""Told the key of every entry once the session has stored it durably."""


def coin_referee(seed: int, false_start: float = 0.05) -> Referee:
    """A seeded stand-in for the unit: human-like reaction times, occasional false starts."""

    def settle(call: ShowdownCall) -> RecordShowdown:
        rng = random.Random(f"{seed}:{call.showdown_id}")
        left, right = call.challenger, call.opponent
        if rng.random() < false_start:
            loser = rng.choice((left, right))
            winner = right if loser == left else left
            return RecordShowdown(
                winner=winner, loser=loser, cards_loaded=call.cards_loaded,
                reason="false-start", source="unit", left=left, right=right,
                showdown_id=call.showdown_id,
            )
        times = {left: rng.uniform(150, 400), right: rng.uniform(150, 400)}
        winner = min(times, key=lambda name: times[name])
        loser = right if winner == left else left
        return RecordShowdown(
            winner=winner, loser=loser, cards_loaded=call.cards_loaded, reason="race",
            source="unit", left=left, right=right,
            reaction_ms={k: round(v, 3) for k, v in times.items()},
            showdown_id=call.showdown_id,
        )

    return settle


class BotTable:
    """Bots at a table, reporting to a :class:`~showdown.game.session.Session`.

    ``tap_every``: every n-th hand is entered as cards tapped by kind instead of a total, so both
    ways of entering a round are exercised (0: always totals).
    """

    def __init__(
        self,
        session: Session,
        referee: Referee,
        *,
        seed: int,
        players: int = 4,
        preset_name: str = "showdown",
        scoring: ScoringSettings | None = None,
        tap_every: int = 3,
        on_ack: Ack | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        self.session = session
        self.referee = referee
        self.seed = seed
        self.players = players
        self.preset_name = preset_name
        self.rules = preset(preset_name)
        self.scoring = scoring or ScoringSettings(target=self.rules.target_score)
        self.tap_every = tap_every
        self.on_ack = on_ack
        self.stop = stop
        """Set by the service to end play at the next entry (raises :class:`TableStopped`)."""
        self.showdowns_played = 0
        """Showdowns this table had the referee settle (not those taken from the journal)."""
        self._game_seeds: dict[int, int] = {}

    # -- the game -----------------------------------------------------------------------------

    def state(self) -> GameState:
        """The session's current game (the table always has one once it started)."""
        state = self.session.state
        assert state is not None
        return state

    def set_up(self, game_number: int = 0) -> None:
        """Start a new game (keyed, so a retry after a crash starts it once)."""
        names = list(NAMES[: self.players])
        dealer = names[random.Random(f"{self.seed}:dealer:{game_number}").randrange(self.players)]
        command = SetUpGame(
            players=names, preset=self.preset_name, scoring=self.scoring, first_dealer=dealer,
            command_id=f"{SIMULATED_SETUP_KEY}{self.seed}:{game_number}",
        )
        self._send(command, command.command_id)

    def play_game(self, game_number: int = 0) -> GameState:
        """Play (or resume) a game until it ends; returns its final state."""
        state = self.session.state
        if state is None or state.is_over:
            self.set_up(game_number)
        for _ in range(MAX_ROUNDS):
            if self.state().is_over:
                return self.state()
            before = self.state()
            self.play_round()
            if self.state().rounds == before.rounds:
                raise TableError(f"round {before.current_round} was recorded before and taken "
                                 "back: the table records it again")
        raise TableError(f"no winner after {MAX_ROUNDS} rounds")

    def play_round(self) -> None:
        """Play (or resume) the current round to its end and record it."""
        state = self.state()
        number = state.current_round
        active = list(state.active_players)
        dealer = state.dealer
        assert dealer is not None
        tag = f"{self.game_seed(state.game_id)}:{state.game_id}:{number}"
        setup = RoundSetup(
            players=len(active),
            dealer=active.index(dealer),
            seed=random.Random(f"{tag}:shuffle").getrandbits(32),
        )
        rnd = Round.new(self.rules, setup)
        bots = [HeuristicBot(seed=random.Random(f"{tag}:bot{i}").getrandbits(32))
                for i in range(len(active))]
        recorded = [s for s in state.showdowns if s.round == number]
        showdowns = 0
        table = random.Random(f"{tag}:table")  # who the table penalises (Killer UNO)
        penalties = 0
        st = rnd.state
        for _ in range(100_000):
            if st.phase is Phase.OVER:
                break
            if st.phase is Phase.SHOWDOWN:
                self._showdown(rnd, active, f"{tag}:{showdowns}", recorded, showdowns)
                showdowns += 1
                continue
            if st.exposed is not None and self._react(rnd, bots):
                continue
            choice = offer_jump_in(rnd, bots) if self.rules.jump_in else None
            if choice is None:
                seat = st.turn
                options: list[Command] = [
                    a for a in rnd.legal_actions(seat) if not isinstance(a, CallUno | CatchUno)
                ]
                choice = bots[seat].choose(rnd, seat, options)
            assert choice is not None
            penalty = table_penalty(rnd, rnd.apply(choice), table)
            if penalty is not None:
                rnd.apply(penalty)
                command = RecordPenalty(
                    player=active[penalty.player], reason=penalty.reason,
                    command_id=f"penalty:{tag}:{penalties}",
                )
                self._send(command, command.command_id)
                penalties += 1
        else:
            raise TableError(f"round {number} did not end")
        self._record_round(rnd, active, number, tag)

    def game_seed(self, game_id: int) -> int:
        """The seed a game's rounds are dealt with: the one it was set up with (its set-up key
        says which), so a table resumed with another ``--seed`` replays the open round as it
        was dealt instead of a different one that the recorded showdowns do not fit."""
        if game_id not in self._game_seeds:
            entries = self.session.journal.entries(game_id)
            key = entries[0].key if entries else None
            seed = self.seed
            if key is not None and key.startswith("setup:"):
                with contextlib.suppress(ValueError, IndexError):
                    seed = int(key.split(":")[1])
            self._game_seeds[game_id] = seed
        return self._game_seeds[game_id]

    # -- steps --------------------------------------------------------------------------------

    def _react(self, rnd: Round, bots: list[HeuristicBot]) -> bool:
        st = rnd.state
        assert st.exposed is not None
        for offset in range(st.players):
            seat = (st.exposed + offset) % st.players
            options: list[Command] = [
                a for a in rnd.legal_actions(seat) if isinstance(a, CallUno | CatchUno)
            ]
            if options:
                choice = bots[seat].choose(rnd, seat, options)
                if choice is not None:
                    rnd.apply(choice)
                    return True
        return False

    def _showdown(
        self,
        rnd: Round,
        active: list[str],
        showdown_id: str,
        recorded: list[ShowdownRecorded],
        index: int,
    ) -> None:
        pending = rnd.state.showdown
        assert pending is not None
        challenger, opponent = active[pending.challenger], active[pending.opponent]
        if index < len(recorded):
            # Settled before a restart: the journal is the truth, the referee is not asked again.
            winner, loser = recorded[index].winner, recorded[index].loser
        else:
            call = ShowdownCall(showdown_id, challenger, opponent, len(pending.loaded))
            command = self.referee(call)
            self.showdowns_played += 1
            self._send(command, f"showdown:{showdown_id}")
            winner, loser = command.winner, command.loser
        if {winner, loser} != {challenger, opponent}:
            raise TableError(f"showdown {index + 1} of this round was recorded between {winner} "
                             f"and {loser}, and the replayed deal has {challenger} and {opponent} "
                             "face off: the round was corrected at the table")
        rnd.apply(
            ShowdownResult(winner=active.index(winner), loser=active.index(loser), reason="unit")
        )

    def _record_round(self, rnd: Round, active: list[str], number: int, tag: str) -> None:
        st = rnd.state
        out = next(seat for seat, hand in enumerate(st.hands) if not hand)
        hands: dict[str, HandEntry] = {}
        tap = self.tap_every > 0 and number % self.tap_every == 0
        names = {kind: name for name, kind in TAP_KINDS.items()}
        for seat, hand in enumerate(st.hands):
            if seat == out:
                continue
            if tap:
                kinds = Counter(names[rnd.deck.cards[card].kind] for card in hand)
                hands[active[seat]] = HandEntry(cards=dict(kinds))
            else:
                hands[active[seat]] = HandEntry(points=sum(rnd.values[card] for card in hand))
        command = RecordRound(went_out=active[out], hands=hands, command_id=f"round:{tag}")
        self._send(command, command.command_id)

    def send(
        self,
        command: SetUpGame | RecordShowdown | RecordRound | RecordPenalty | ResumeGame,
        key: str | None,
    ) -> None:
        """Send one entry as the table does (refusals raise, duplicates are acknowledged)."""
        self._send(command, key)

    def _send(
        self,
        command: SetUpGame | RecordShowdown | RecordRound | RecordPenalty | ResumeGame,
        key: str | None,
    ) -> None:
        if self.stop is not None and self.stop.is_set():
            raise TableStopped
        answer: list[Event] = self.session.handle(command)
        first = answer[0]
        if isinstance(first, EntryRejected) and first.unstored:
            raise JournalWriteError(first.message)  # not the table's fault: stop, say why
        # A duplicate was stored before a crash but never acknowledged: it is durable, so it is
        # acknowledged now.
        if isinstance(first, EntryRejected) and not first.duplicate:
            raise TableError(f"the session refused {command.kind}: {first.message}")
        if self.on_ack is not None and key is not None:
            self.on_ack(key)
