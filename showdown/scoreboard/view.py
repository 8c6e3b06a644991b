"""What the scoreboard draws: a small, read-only picture of the game, filled by an adapter.

Screens never reach into the session or the state machine; they draw a :class:`TableView`.
The adapter (:mod:`showdown.scoreboard.adapter`) builds one from the session's state and the
unit's events, so the screens stay simple, testable with plain values, and the only code that
knows the session's API is in one file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from showdown.unit.hardware import Side

__all__ = [
    "AllTimeView",
    "CardKind",
    "Fact",
    "PenaltyRow",
    "PlayerView",
    "RosterPlayer",
    "RoundView",
    "SavedGame",
    "ScoringChoice",
    "ShowdownRow",
    "ShowdownView",
    "Side",
    "Stage",
    "StatsView",
    "TableView",
]


class Stage(Enum):
    """Where the showdown on the unit is, as the showdown screen shows it."""

    IDLE = "idle"
    """Nothing loaded."""
    LOADED = "loaded"
    """Players and cards set; waiting for the timer button."""
    RELEASE = "release"
    """The timer button was pressed with a paddle held: release it first."""
    COUNTDOWN = "countdown"
    """Red light and beeps: wait."""
    GO = "go"
    """Green light: slam."""
    FALSE_START = "false_start"
    """A paddle went down before go; the arrow points at that player."""
    LAUNCHING = "launching"
    """The launcher is firing toward the loser."""
    RESULT = "result"
    """Settled: winner, loser and reaction times."""
    NO_CONTEST = "no_contest"
    """Nobody pressed in time, or a tie the side lines could not decide: replay."""


@dataclass(frozen=True)
class PlayerView:
    """One player as the table shows them."""

    name: str
    total: int
    rounds_won: int = 0
    eliminated: bool = False
    """Out of the game (Challenge UNO): shown, but not entered at a round's end."""
    colour: tuple[int, int, int] | None = None
    """The player's colour in this game (their own pick, or their seat's)."""
    pigs: int = 0
    """Pigs drawn on this player (002's hero and mean scoring; 0 in the other modes)."""


@dataclass(frozen=True)
class ShowdownView:
    """The showdown on the unit, mirrored."""

    phase: Stage = Stage.IDLE
    left: str | None = None
    right: str | None = None
    cards: int = 0
    beat: int = 0
    beats: int = 0
    winner: str | None = None
    loser: str | None = None
    reason: str = ""
    left_ms: float | None = None
    right_ms: float | None = None
    false_start_side: Side | None = None
    launch_toward: Side | None = None
    counts: tuple[int, int] | None = None
    """Cards the side-count lines counted on the (left, right) side after the launch."""
    go_ns: int | None = None
    """When the light turned green (the unit's clock): the winner's reaction time is known the
    moment the launcher fires, long before the side counts settle."""


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
    """One recorded showdown, as History lists it."""

    round: int
    winner: str
    loser: str
    cards: int
    reason: str = "race"
    by_hand: bool = False
    order: int = 0
    """When it was entered (the journal's order), to list it among the round's penalties."""


@dataclass(frozen=True)
class PenaltyRow:
    """One table penalty (002's silence and slap, 003's advice and wrong card), as History
    lists it."""

    round: int
    player: str
    reason: str
    """``silence``, ``slap``, ``advice`` or ``wrong-card``."""
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
class SavedGame:
    """A game the table kept: one still open can be taken up again, a finished one read."""

    game_id: int
    players: tuple[str, ...]
    round: int
    """The round being played (numbered from 1)."""
    leader: str
    leader_total: int
    last_played: str
    """When its last entry was made (ISO 8601, UTC)."""
    standings: tuple[tuple[str, int], ...] = ()
    """Every player and total, the best first."""
    pigs: tuple[int, ...] = ()
    """In hero and mean scoring, the pigs of each player in :attr:`standings` (the fewest
    first, which is what ranks them); empty in the other modes, which have none."""
    finished: bool = False
    winners: tuple[str, ...] = ()
    name: str | None = None
    """What the table named the game, if it did."""
    current: bool = False
    """The game on the table now (a finished one stays there until the next)."""


@dataclass(frozen=True)
class RosterPlayer:
    """A player the table keeps across games: the name, and the colour they picked."""

    name: str
    colour: str | None = None
    """A key of :data:`showdown.scoreboard.theme.PLAYER_PALETTE`, or None."""


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
class AllTimeView:
    """One player's figures over every game the table kept."""

    name: str
    games: int
    won: int
    points_per_round: float | None
    showdowns_won: int
    showdowns_lost: int
    best_ms: float | None
    median_ms: float | None
    false_starts: int


@dataclass(frozen=True)
class ScoringChoice:
    """A scoring mode the set-up screen offers, with what the set-up needs to know of it."""

    mode: str
    """The engine's name (``standard``, ``hero``...)."""
    target: int
    """The target it plays to unless the table agrees another (500; 100 in mean scoring)."""
    pigs: bool = False
    """002's hero and mean scoring: the target draws pigs, and the game ends at an agreed
    number of pigs or rounds."""


@dataclass(frozen=True)
class CardKind:
    """A kind of card that can be tapped into a round-end tally, with its point value."""

    key: str
    """The face in card codes: ``"7"``, ``"S"``, ``"+2"``, ``"W+4"``, ``"WSD"``."""
    name: str
    """Key of its name in :data:`showdown.scoreboard.vocabulary.KINDS` (``"skip"``), or the
    digit."""
    points: int
    coloured: bool


@dataclass(frozen=True)
class TableView:
    """Everything the scoreboard draws, at one moment."""

    players: tuple[PlayerView, ...] = ()
    dealer: int = 0
    clockwise: bool = True
    target: int = 500
    mode: str = "standard"
    preset: str = "showdown"
    rounds: tuple[RoundView, ...] = ()
    showdown: ShowdownView = field(default_factory=ShowdownView)
    stats: tuple[StatsView, ...] = ()
    finished: bool = False
    winner: str | None = None
    started: bool = False
    lowest_wins: bool = False
    showdowns: tuple[ShowdownRow, ...] = ()
    last: Fact | None = None
    """What an undo would take back now."""
    can_redo: bool = False
    """An undo was the last thing done: a redo would bring back what it took."""
    read_only: bool = False
    """A finished game opened from the saved games to look at: nothing in it can change."""
    has_unit: bool = True
    """A unit is wired to the table; without one, showdowns are entered by hand."""
    game_id: int = 0
    game_name: str | None = None
    """What the table named the game, if it did."""
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
