"""What a table shows of its game, built in one place so the scoreboard and the phones agree.

:func:`table_view` folds a :class:`~showdown.game.session.GameState`, the showdown in progress
and the players' own colours into one read-only :class:`TableView`: each round beside the score
it left, every showdown and penalty in the order it was entered, each player's colour and place.
The touchscreen (``showdown.scoreboard``) and the phone page (``showdown.web``) both draw this
value; neither imports the other, so it lives here, with the game it shows.
:class:`~showdown.game.table_model.TableModel` keeps it up to date.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.rules import PenaltyReason, RuleSet
from showdown.game.colours import Colour, game_colours
from showdown.game.live import ShowdownView
from showdown.game.messages import (
    Event,
    PenaltyRecorded,
    RoundEdited,
    RoundRecorded,
    ShowdownRecorded,
    StoredEvent,
)
from showdown.game.session import GameState

__all__ = [
    "Fact",
    "PenaltyRow",
    "PlayerView",
    "RoundView",
    "ShowdownRow",
    "StatsView",
    "TableView",
    "fact",
    "penalty_reasons",
    "table_view",
]


@dataclass(frozen=True)
class PlayerView:
    """One player as the table shows them."""

    name: str
    total: int
    rounds_won: int = 0
    eliminated: bool = False
    """Out of the game (Challenge UNO): shown, but not entered at a round's end."""
    colour: Colour | None = None
    """The player's colour in this game (their own pick, or their seat's)."""
    pigs: int = 0
    """Pigs drawn on this player (002's hero and mean scoring; 0 in the other modes)."""
    place: int = 1
    """1 for the best (the highest total, the lowest where the lowest wins, the fewest pigs in
    hero and mean scoring); players level share the better place, as the event's standings
    number ties (:attr:`engine.scoring.Scoresheet.places`): two tied for first are both 1, the
    next is 3."""


@dataclass(frozen=True)
class RoundView:
    """One recorded round: who went out and what each player scored in it."""

    number: int
    went_out: str
    points: tuple[int, ...]
    """Points each player scored this round, in seat order."""
    hands: tuple[int, ...] = ()
    """Points each player held at the end of the round (0 for who went out), as entered."""
    totals: tuple[int, ...] = ()
    """Each player's total after this round, in seat order."""
    pigs_drawn: tuple[int, ...] = ()
    """Hero and mean scoring: the pigs each player got in this round (empty in other modes)."""
    pigs: tuple[int, ...] = ()
    """Hero and mean scoring: each player's pigs after this round."""
    reset: bool = False
    """This round drew pigs, so every total went back to zero."""


@dataclass(frozen=True)
class ShowdownRow:
    """One recorded showdown, as a history lists it."""

    round: int
    winner: str
    loser: str
    cards: int
    reason: str = "race"
    by_hand: bool = False
    order: int = 0
    """When it was entered (the journal's order), to list it among the round's penalties."""
    winner_ms: float | None = None
    """The winner's reaction time, when the unit measured one."""
    loser_ms: float | None = None
    """The loser's reaction time, when the unit measured one."""


@dataclass(frozen=True)
class PenaltyRow:
    """One table penalty (002's silence and slap, 003's advice and wrong card, a missing UNO
    call caught), as a history lists it."""

    round: int
    player: str
    reason: str
    """``silence``, ``slap``, ``advice``, ``wrong-card`` or ``missed-uno``."""
    cards: int
    order: int = 0
    """When it was entered (the journal's order)."""


@dataclass(frozen=True)
class Fact:
    """An entry the table made (what an undo takes back, what a redo brings back)."""

    kind: str
    """``round``, ``edit``, ``showdown`` or ``penalty``; as news also ``correct`` (a showdown's
    result turned round), ``started`` and ``resumed`` (a game)."""
    round: int
    who: str
    """Who went out (a round, an edit), who won (a showdown) or who was penalised."""
    other: str = ""
    """Who lost (a showdown)."""
    cards: int = 0
    reason: str = ""
    """Why a showdown was decided (``false-start``...), or what a penalty was for."""
    game: int = 0
    """The game's number (news of a game started or taken up)."""


@dataclass(frozen=True)
class StatsView:
    """One player's statistics line."""

    name: str
    rounds_won: int
    points: int
    showdowns_won: int
    showdowns_lost: int
    cards_taken: int
    fastest_ms: float | None
    median_ms: float | None


@dataclass(frozen=True)
class TableView:
    """Everything a table shows of its game, at one moment."""

    players: tuple[PlayerView, ...] = ()
    dealer: int = 0
    """The dealer's seat (-1: nobody deals)."""
    clockwise: bool = True
    target: int = 500
    mode: str = "standard"
    preset: str = "showdown"
    rounds: tuple[RoundView, ...] = ()
    showdown: ShowdownView = field(default_factory=ShowdownView)
    """The showdown on the unit now (:mod:`showdown.game.live`)."""
    stats: tuple[StatsView, ...] = ()
    finished: bool = False
    winners: tuple[str, ...] = ()
    """Who won, once the game is over: more than one when they tie."""
    started: bool = False
    lowest_wins: bool = False
    showdowns: tuple[ShowdownRow, ...] = ()
    last: Fact | None = None
    """What an undo would take back now."""
    can_redo: bool = False
    """An undo was the last thing done: a redo would bring back what it took."""
    can_undo: bool = False
    """An entry of a game still being played can be taken back (the phones' correction)."""
    read_only: bool = False
    """A finished game opened from the saved games to look at: nothing in it can change."""
    has_unit: bool = True
    """A unit is wired to the table; without one, showdowns are entered by hand."""
    game_id: int = 0
    game_name: str | None = None
    """What the table named the game, if it did."""
    round: int = 1
    """The round being played (numbered from 1)."""
    uses_pigs: bool = False
    """002's hero or mean scoring: reaching :attr:`target` draws pigs, the fewest pigs win."""
    pig_limit: int | None = None
    """Pig modes: the game ends when a player has this many pigs (None: no such limit)."""
    round_limit: int | None = None
    """The game ends after this many rounds (None: no such limit)."""
    penalties: tuple[PenaltyRow, ...] = ()
    penalty_reasons: tuple[tuple[str, int], ...] = ()
    """The table penalties this game's rules have, each with the cards it costs."""

    def cumulative(self) -> list[list[int]]:
        """Running total per player after each round (round 0 is everyone at zero). A round
        that drew pigs shows the totals it reached; the next one counts from zero again."""
        series = [[0] for _ in self.players]
        base = [0] * len(series)
        for rnd in self.rounds:
            for i, pts in enumerate(rnd.points[: len(series)]):
                series[i].append(base[i] + pts)
                base[i] = 0 if rnd.reset else series[i][-1]
        return series


def table_view(state: GameState | None, showdown: ShowdownView,
               picked: Mapping[str, str | None], *, read_only: bool = False,
               has_unit: bool = True, game_name: str | None = None) -> TableView:
    """``state`` as a table shows it, with ``showdown`` on the unit and each player in the
    colour :func:`~showdown.game.colours.game_colours` gives them from ``picked``.
    ``read_only``: a finished game opened to read (nothing to undo, redo or penalise)."""
    if state is None:
        return TableView(showdown=showdown, has_unit=has_unit)
    players = state.players
    totals = state.sheet.totals
    stats = state.stats
    colours = game_colours(players, picked)
    pigs = state.sheet.pigs
    places = state.sheet.places
    rounds = tuple(
        RoundView(
            number=r.round,
            went_out=r.went_out,
            points=tuple(score.deltas),
            hands=tuple(r.points.get(name, 0) for name in players),
            totals=tuple(score.totals),
            pigs_drawn=score.pigs_drawn,
            pigs=score.pigs,
            reset=score.reset,
        )
        for r, score in zip(state.rounds, state.sheet.history, strict=False)
    )
    # When each fact was entered: a round's showdowns and penalties are listed so.
    order = {id(event): seq for seq, event in state.live}
    # Every score goes back to 0 at a pig: Stats counts the points banked over the game.
    banked = {name: sum(score.deltas[i] for score in state.sheet.history)
              for i, name in enumerate(players)} if state.scoring.uses_pigs else {}
    return TableView(
        players=tuple(
            PlayerView(name, totals[i], stats[name].rounds_won, name in state.eliminated,
                       colours[i], pigs[i], places[i])
            for i, name in enumerate(players)
        ),
        dealer=players.index(state.dealer) if state.dealer in players else -1,
        target=state.scoring.target or 0,
        mode=str(state.scoring.mode),
        preset=state.preset,
        rounds=rounds,
        showdown=showdown,
        stats=tuple(
            StatsView(
                name=name, rounds_won=line.rounds_won,
                points=banked.get(name, line.points),
                showdowns_won=line.showdowns_won, showdowns_lost=line.showdowns_lost,
                cards_taken=line.cards_taken, fastest_ms=line.fastest_ms,
                median_ms=line.median_ms,
            )
            for name, line in stats.items()
        ),
        finished=state.is_over,
        winners=state.winners,
        started=True,
        lowest_wins=state.scoring.lowest_wins,
        showdowns=tuple(
            ShowdownRow(s.round, s.winner, s.loser, s.cards_loaded, s.reason,
                        s.source == "hand", order.get(id(s), 0),
                        s.reaction_ms.get(s.winner), s.reaction_ms.get(s.loser))
            for s in state.showdowns
        ),
        penalties=tuple(
            PenaltyRow(p.round, p.player, str(p.reason), p.cards, order.get(id(p), 0))
            for p in state.penalties
        ),
        penalty_reasons=() if read_only else penalty_reasons(state.rules),
        uses_pigs=state.scoring.uses_pigs,
        pig_limit=state.scoring.pigs,
        round_limit=state.scoring.rounds,
        last=None if read_only else fact(state.last_fact),
        can_redo=bool(state.redoable) and not read_only,
        can_undo=bool(state.undoable) and not state.is_over and not read_only,
        read_only=read_only,
        has_unit=has_unit,
        game_id=state.game_id,
        game_name=game_name,
        round=state.current_round,
    )


def fact(event: StoredEvent | Event | None) -> Fact | None:
    """A stored entry as the fact a table tells (None for one it does not tell)."""
    if isinstance(event, ShowdownRecorded):
        return Fact("showdown", event.round, event.winner, event.loser, event.cards_loaded,
                    event.reason)
    if isinstance(event, RoundRecorded):
        return Fact("round", event.round, event.went_out)
    if isinstance(event, RoundEdited):
        return Fact("edit", event.round, event.went_out)
    if isinstance(event, PenaltyRecorded):
        return Fact("penalty", event.round, event.player, cards=event.cards,
                    reason=str(event.reason))
    return None


def penalty_reasons(rules: RuleSet) -> tuple[tuple[str, int], ...]:
    """The table penalties ``rules`` have, in the seeds' order, each with the cards it costs:
    the table rules (advice; Killer UNO's silence and slap), a wrong card where the rules
    penalise one, and a missing UNO call caught (2 cards; 4 in 001)."""
    found = []
    for reason in PenaltyReason:
        if reason is PenaltyReason.WRONG_CARD:
            if rules.wrong_card_penalty > 0:
                found.append((str(reason), rules.wrong_card_penalty))
        elif reason is PenaltyReason.MISSED_UNO:
            if rules.uno_penalty > 0:
                found.append((str(reason), rules.uno_penalty))
        elif reason in rules.table_penalties:
            found.append((str(reason), rules.table_penalty_cards))
    return tuple(found)
