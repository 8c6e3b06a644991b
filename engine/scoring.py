"""The scorekeeper: every scoring mode of rules.md as one scoresheet fed with round results.

A sheet holds only the list of round results it accepted; every total, elimination and the end of
the game are recomputed from that list. That makes undo and editing a past round trivially right:
they rebuild the sheet from the edited list, and if the edited history is impossible (a later round
names an eliminated player, or comes after the edited game would have ended) nothing changes and a
:class:`ScoringError` says why.

Modes (seeds named in rules.md, "Scoring the game"):

- ``standard``: the player who goes out scores every card left in the others' hands; first to the
  target wins (000, 001, 003).
- ``running-tally``: each player is charged what they hold; when someone reaches the target the
  lowest total wins (000, 001).
- ``challenge``: running tally; reaching the target eliminates; the last two play head to head
  under the two-player rules and the winner of the final hand wins (001, 003).
- ``plus-minus``: the player who goes out scores +the sum of the others' hands, each other player
  scores minus their own; highest total after the agreed rounds, or first to the target (003).
- ``partners``: partners sit opposite (seats 0 & 2 against 1 & 3); when either goes out the team
  scores both opponents' hands (001). Variations: ``rotating`` (12 hands, four with each partner,
  each player keeps their own total) and ``two-tables`` (8 players at two tables, 28 hands, every
  player partners every other for four hands).
- ``hero`` and ``mean``: 002's pig scoring. Hero: the player who goes out banks the others'
  hands; the first to reach the target (500) draws a pig on every other player. Mean: each
  player banks what they hold; the first to reach the target (100) gets a pig, unless they land
  on it exactly, when every other player gets one. Either way every score then goes back to
  zero and play goes on; the game ends at an agreed number of pigs or rounds, and the fewest
  pigs win (the readings are in rules.md, "Scoring the game").

Every result lists the points of *every* seat of the sheet; seats not playing the hand (eliminated
in Challenge UNO, or at the other table) hold 0. The one who went out holds 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.error_text import ErrorText, plain
from engine.places import places

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PIG_MODES",
    "PartnerVariation",
    "RoundResult",
    "RoundScore",
    "Scoresheet",
    "ScoringError",
    "ScoringMode",
    "ScoringSettings",
    "Table",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 10
ROTATING_HANDS = 12
"""Four hands with each of the other three players as partner (001)."""
TWO_TABLE_HANDS = 28
"""Eight players, every other player as partner for four hands each (001)."""
HANDS_PER_PARTNERSHIP = 4


class ScoringError(ValueError):
    """An entry the scoresheet cannot accept; the message says which seat and why.

    The sheet is unchanged whenever this is raised. ``text`` holds the message as a template
    and its values (:class:`~engine.error_text.ErrorText`), for a front end that translates it.
    """

    def __init__(self, message: str | ErrorText) -> None:
        self.text = plain(message) if isinstance(message, str) else message
        super().__init__(str(self.text))


class ScoringMode(StrEnum):
    """How a round's leftover hands turn into points (rules.md, "Scoring the game")."""

    STANDARD = "standard"
    RUNNING_TALLY = "running-tally"
    CHALLENGE = "challenge"
    PLUS_MINUS = "plus-minus"
    PARTNERS = "partners"
    HERO = "hero"
    MEAN = "mean"


PIG_MODES = frozenset({ScoringMode.HERO, ScoringMode.MEAN})
"""002's modes, where reaching the target draws pigs and sets every score back to zero."""

PIG_TARGETS = {ScoringMode.HERO: 500, ScoringMode.MEAN: 100}
"""The target each pig mode's sheet names, used when the table agrees no other."""


class PartnerVariation(StrEnum):
    """Which of 001's partner games is played (only used in ``partners`` mode)."""

    FIXED = "fixed"
    """Four players, partners opposite for the whole game, team totals, first to the target."""
    ROTATING = "rotating"
    """Four players, 12 hands, four hands with each partner; highest individual total wins."""
    TWO_TABLES = "two-tables"
    """Eight players at two tables, 28 hands, four hands with each partner; highest total wins."""


class ScoringSettings(BaseModel):
    """What the table agreed before the first deal.

    ``target`` ends the game when reached (None: no target); ``rounds`` ends it after that many
    hands (None: play to the target). At least one is set; with both, whichever comes first.
    A 003-style five-round plus/minus sheet is ``ScoringSettings(mode="plus-minus", rounds=5,
    target=None)``. The rotating and two-table partner games default to their 12 / 28 hands and
    no target.

    In the pig modes (``hero``, ``mean``) ``target`` is where pigs are drawn (by default 500 for
    hero, 100 for mean, as 002 has them) and the game ends at ``pigs`` pigs (one player has
    that many) or after ``rounds``: at least one of the two is agreed.
    ``ScoringSettings(mode="hero", pigs=3)`` plays hero scoring until someone has three pigs.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: ScoringMode = ScoringMode.STANDARD
    target: int | None = Field(default=500, gt=0)
    rounds: int | None = Field(default=None, gt=0)
    partners: PartnerVariation = PartnerVariation.FIXED
    pigs: int | None = Field(default=None, gt=0)
    """Pig modes: the game ends when a player has this many pigs."""

    @staticmethod
    def _spelling(value: object) -> object:
        """Accept "Running tally", "plus/minus", "two_tables": people spell modes freely."""
        if isinstance(value, str) and not isinstance(value, StrEnum):
            return "-".join(value.strip().lower().replace("_", " ").replace("/", " ").split())
        return value

    @model_validator(mode="before")
    @classmethod
    def _partner_defaults(cls, data: object) -> object:
        """The rotating and two-table games are played for a number of hands, not to a target."""
        if not isinstance(data, dict):
            return data
        data = {
            key: ScoringSettings._spelling(value) if key in ("mode", "partners") else value
            for key, value in data.items()
        }
        mode = str(data.get("mode", ""))
        if mode in PIG_TARGETS and "target" not in data:
            data["target"] = PIG_TARGETS[ScoringMode(mode)]
        variation = data.get("partners", PartnerVariation.FIXED)
        if mode != ScoringMode.PARTNERS or str(variation) == "fixed":
            return data
        filled = dict(data)
        hands = ROTATING_HANDS if str(variation) == "rotating" else TWO_TABLE_HANDS
        filled.setdefault("rounds", hands)
        filled.setdefault("target", None)
        return filled

    @model_validator(mode="after")
    def _consistent(self) -> ScoringSettings:
        if self.mode in PIG_MODES:
            if self.target is None:
                raise ValueError(f"{self.mode} scoring needs a target: reaching it draws the pigs")
            if self.pigs is None and self.rounds is None:
                raise ValueError(
                    f"{self.mode} scoring ends at an agreed number of pigs or rounds: set pigs, "
                    "rounds or both"
                )
            return self
        if self.pigs is not None:
            raise ValueError("pigs are drawn only in hero and mean scoring")
        if self.target is None and self.rounds is None:
            raise ValueError("set a target score, a number of rounds, or both")
        if self.mode is ScoringMode.CHALLENGE:
            if self.target is None:
                raise ValueError("Challenge UNO needs a target: reaching it eliminates a player")
            if self.rounds is not None:
                raise ValueError("Challenge UNO is played until one player is left, not for rounds")
        return self

    @property
    def players_required(self) -> int | None:
        """The exact number of players this mode needs, or None when 2-10 are fine."""
        if self.mode is not ScoringMode.PARTNERS:
            return None
        return 8 if self.partners is PartnerVariation.TWO_TABLES else 4

    @property
    def lowest_wins(self) -> bool:
        """True where totals are penalties (running tally, Challenge UNO, mean scoring)."""
        return self.mode in (ScoringMode.RUNNING_TALLY, ScoringMode.CHALLENGE, ScoringMode.MEAN)

    @property
    def uses_pigs(self) -> bool:
        """True in the pig modes (hero, mean): the fewest pigs win, totals go back to zero."""
        return self.mode in PIG_MODES


class RoundResult(BaseModel):
    """One hand as the table reports it: who went out and the points left in each seat's hand.

    ``hand_points`` has one entry per seat of the sheet; the seat that went out, and seats not in
    the hand (eliminated, or at the other table), hold 0. Values are checked by the sheet, so an
    impossible result raises :class:`ScoringError` there, not here.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    went_out: int
    hand_points: tuple[int, ...]


class Table(BaseModel):
    """Who plays the next hand at one table: seats in seating order and the teams."""

    model_config = ConfigDict(frozen=True)

    index: int
    seats: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    """Each team's seats; single-seat teams outside partner play."""

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The team ``seat`` plays in at this table."""
        for team in self.teams:
            if seat in team:
                return team
        raise KeyError(seat)


class RoundScore(BaseModel):
    """One line of the scoresheet: what a recorded round changed, and the state after it."""

    model_config = ConfigDict(frozen=True)

    index: int
    """Position in the sheet's history (0 = first recorded round)."""
    hand: int
    """Hand number (0-based); in the two-table game two rounds share a hand."""
    table: int
    result: RoundResult
    deltas: tuple[int, ...]
    """Points each seat gained (negative: lost) in this round."""
    totals: tuple[int, ...]
    """Every seat's total after this round."""
    eliminated: tuple[int, ...]
    """Seats eliminated by this round (Challenge UNO)."""
    is_over: bool
    winners: tuple[int, ...]
    """The seats that won, when this round ended the game; otherwise empty."""
    pigs_drawn: tuple[int, ...] = ()
    """Pig modes: the pigs each seat got in this round (empty in other modes)."""
    pigs: tuple[int, ...] = ()
    """Pig modes: every seat's pigs after this round (empty in other modes)."""
    reset: bool = False
    """Pig modes: this round drew pigs, so every total went back to zero (``totals`` are the
    zeros after it; ``deltas`` still say what the round scored)."""


@dataclass
class _Replay:
    """Mutable state while results are replayed; never escapes this module."""

    settings: ScoringSettings
    players: int
    names: tuple[str, ...]
    totals: list[int] = field(init=False)
    eliminated: list[int] = field(default_factory=list)
    history: list[RoundScore] = field(default_factory=list)
    hand: int = 0
    tables_done: set[int] = field(default_factory=set)
    over: bool = False
    winners: tuple[int, ...] = ()

    pigs: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.totals = [0] * self.players
        self.pigs = [0] * self.players

    def seat(self, seat: int) -> ErrorText:
        """How a refusal names ``seat``: counted from 1, as players count seats at a table (the
        API's seat indices start at 0)."""
        if self.names:
            return ErrorText("seat {seat} ({name})", {"seat": seat + 1, "name": self.names[seat]})
        return ErrorText("seat {seat}", {"seat": seat + 1})

    # -- who plays ---------------------------------------------------------------------------

    def all_tables(self) -> tuple[Table, ...]:
        settings = self.settings
        if settings.mode is not ScoringMode.PARTNERS:
            active = tuple(s for s in range(self.players) if s not in self.eliminated)
            return (Table(index=0, seats=active, teams=tuple((s,) for s in active)),)
        if settings.partners is PartnerVariation.FIXED:
            return (Table(index=0, seats=(0, 1, 2, 3), teams=((0, 2), (1, 3))),)
        if settings.partners is PartnerVariation.ROTATING:
            return (_rotating_table(self.hand),)
        return _two_tables(self.hand)

    def open_tables(self) -> tuple[Table, ...]:
        if self.over:
            return ()
        return tuple(t for t in self.all_tables() if t.index not in self.tables_done)

    # -- one round ---------------------------------------------------------------------------

    def check(self, result: RoundResult) -> Table:
        """The table ``result`` was played at, or ScoringError saying what is wrong with it."""
        if self.over:
            raise ScoringError(ErrorText("the game is over: no more rounds can be recorded"))
        points = result.hand_points
        if len(points) != self.players:
            raise ScoringError(f"expected points for {self.players} seats, got {len(points)}")
        if not 0 <= result.went_out < self.players:
            raise ScoringError(
                f"seat {result.went_out} does not exist (seats are 0 to {self.players - 1})"
            )
        for seat, value in enumerate(points):
            if value < 0:
                raise ScoringError(ErrorText("{who}: points cannot be negative ({points})",
                                             {"who": self.seat(seat), "points": value}))
        if points[result.went_out] != 0:
            raise ScoringError(ErrorText(
                "{who} went out, so holds 0 points, not {points}",
                {"who": self.seat(result.went_out), "points": points[result.went_out]},
            ))
        table = next((t for t in self.open_tables() if result.went_out in t.seats), None)
        if table is None:
            if result.went_out in self.eliminated:
                raise ScoringError(
                    ErrorText("{who} is eliminated", {"who": self.seat(result.went_out)})
                )
            raise ScoringError(ErrorText(
                "{who} is not at a table still playing hand {hand}",
                {"who": self.seat(result.went_out), "hand": self.hand + 1},
            ))
        for seat, value in enumerate(points):
            if value and seat not in table.seats:
                why = (
                    "{who} is eliminated, so holds 0 points, not {points}"
                    if seat in self.eliminated
                    else "{who} is not in this hand, so holds 0 points, not {points}"
                )
                raise ScoringError(ErrorText(why, {"who": self.seat(seat), "points": value}))
        return table

    def deltas(self, result: RoundResult, table: Table) -> list[int]:
        points = result.hand_points
        deltas = [0] * self.players
        mode = self.settings.mode
        if mode in (ScoringMode.RUNNING_TALLY, ScoringMode.CHALLENGE, ScoringMode.MEAN):
            deltas = list(points)
        elif mode is ScoringMode.PARTNERS:
            team = table.team_of(result.went_out)
            won = sum(points[s] for s in table.seats if s not in team)
            for seat in team:
                deltas[seat] = won
        else:
            won = sum(points)
            deltas[result.went_out] = won
            if mode is ScoringMode.PLUS_MINUS:
                for seat in table.seats:
                    if seat != result.went_out:
                        deltas[seat] = -points[seat]
        return deltas

    def apply(self, result: RoundResult) -> RoundScore:
        table = self.check(result)
        deltas = self.deltas(result, table)
        for seat, delta in enumerate(deltas):
            self.totals[seat] += delta
        drawn = self._draw_pigs() if self.settings.uses_pigs else None
        hand = self.hand
        self.tables_done.add(table.index)
        newly_out = self._eliminate()
        if not self.open_tables():
            self.hand += 1
            self.tables_done.clear()
            self._finish()
        score = RoundScore(
            index=len(self.history),
            hand=hand,
            table=table.index,
            result=result,
            deltas=tuple(deltas),
            totals=tuple(self.totals),
            eliminated=newly_out,
            is_over=self.over,
            winners=self.winners,
            pigs_drawn=() if drawn is None else tuple(drawn),
            pigs=tuple(self.pigs) if self.settings.uses_pigs else (),
            reset=drawn is not None and any(drawn),
        )
        self.history.append(score)
        return score

    def _draw_pigs(self) -> list[int]:
        """002's pigs for whoever reached the target this round; if any were drawn, every total
        goes back to zero. Hero: the player who reached it draws a pig on each other player.
        Mean: the player who reached it gets a pig, or, landing on it exactly, every other
        player gets one. Returns the pigs each seat got."""
        target = self.settings.target
        assert target is not None  # the settings require one in the pig modes
        drawn = [0] * self.players
        hero = self.settings.mode is ScoringMode.HERO
        for seat, total in enumerate(self.totals):
            if total < target:
                continue
            if hero or total == target:
                for other in range(self.players):
                    if other != seat:
                        drawn[other] += 1
            else:
                drawn[seat] += 1
        if any(drawn):
            for seat, count in enumerate(drawn):
                self.pigs[seat] += count
            self.totals = [0] * self.players
        return drawn

    def _eliminate(self) -> tuple[int, ...]:
        settings = self.settings
        if settings.mode is not ScoringMode.CHALLENGE or settings.target is None:
            return ()
        out = tuple(
            s
            for s in range(self.players)
            if s not in self.eliminated and self.totals[s] >= settings.target
        )
        self.eliminated.extend(out)
        return out

    def _finish(self) -> None:
        settings = self.settings
        if settings.mode is ScoringMode.CHALLENGE:
            alive = [s for s in range(self.players) if s not in self.eliminated]
            if len(alive) <= 1:
                self.over, self.winners = True, tuple(alive)
            return
        played = settings.rounds is not None and self.hand >= settings.rounds
        if settings.uses_pigs:
            if played or (settings.pigs is not None and max(self.pigs) >= settings.pigs):
                self.over, self.winners = True, self._fewest_pigs()
            return
        reached = settings.target is not None and max(self.totals) >= settings.target
        if not (reached or played):
            return
        best = min(self.totals) if settings.lowest_wins else max(self.totals)
        self.over = True
        self.winners = tuple(s for s, total in enumerate(self.totals) if total == best)


    def pig_order(self, seat: int) -> tuple[int, int]:
        """A seat's place in the pig modes, best first: fewer pigs, then the better score since
        the last pigs (more points in hero, fewer in mean)."""
        total = self.totals[seat]
        return (self.pigs[seat], total if self.settings.lowest_wins else -total)

    def _fewest_pigs(self) -> tuple[int, ...]:
        best = min(self.pig_order(seat) for seat in range(self.players))
        return tuple(s for s in range(self.players) if self.pig_order(s) == best)


def _rotating_table(hand: int) -> Table:
    """001's variation: hands 1-4 with the partner opposite, then 4 with each other player."""
    partner = (2, 1, 3)[(hand // HANDS_PER_PARTNERSHIP) % 3]
    first, second = (s for s in (1, 2, 3) if s != partner)
    return Table(index=0, seats=(0, first, partner, second), teams=((0, partner), (first, second)))


def _two_tables(hand: int) -> tuple[Table, Table]:
    """Eight players: seven pairings in which everyone partners everyone once (circle method).

    Each pairing is played for four hands; its first two pairs sit at table 0, the others at
    table 1, partners opposite each other.
    """
    turn = (hand // HANDS_PER_PARTNERSHIP) % 7
    pairs = [(7, turn)] + [((turn + k) % 7, (turn - k) % 7) for k in (1, 2, 3)]
    tables = []
    for index, (a, b) in enumerate((pairs[0:2], pairs[2:4])):
        tables.append(Table(index=index, seats=(a[0], b[0], a[1], b[1]), teams=(a, b)))
    return tables[0], tables[1]


def two_table_seating(hand: int) -> tuple[Table, Table]:
    """Who sits where at the two tables for ``hand`` (0-based) of 001's eight-player game.

    The rotation the two-table scoresheet itself uses, public for the event's seating
    (:mod:`engine.tournament.seating`): seat indices 0-7, partners opposite, four hands per pairing.
    """
    return _two_tables(hand)


class Scoresheet:
    """The game's score: record round results, undo, edit a past round, read totals and winners.

    >>> sheet = Scoresheet(ScoringSettings(target=100), players=3)
    >>> sheet.record(RoundResult(went_out=1, hand_points=(40, 0, 70))).totals
    (0, 110, 0)
    >>> sheet.is_over, sheet.winners
    (True, (1,))
    """

    def __init__(
        self,
        settings: ScoringSettings,
        players: int,
        *,
        names: Sequence[str] | None = None,
        results: Sequence[RoundResult] = (),
    ) -> None:
        required = settings.players_required
        if required is not None and players != required:
            raise ScoringError(ErrorText(
                "{mode} ({partners}) needs exactly {required} players, not {players}",
                {"mode": str(settings.mode), "partners": str(settings.partners),
                 "required": required, "players": players},
            ))
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ScoringError(ErrorText(
                "a game has {least} to {most} players, not {players}",
                {"least": MIN_PLAYERS, "most": MAX_PLAYERS, "players": players},
            ))
        if names is not None and len(names) != players:
            raise ScoringError(f"{players} players but {len(names)} names")
        self._settings = settings
        self._players = players
        self._names = tuple(names) if names is not None else ()
        self._state = self._replay(results)

    def _replay(self, results: Sequence[RoundResult]) -> _Replay:
        state = _Replay(self._settings, self._players, self._names)
        for index, result in enumerate(results):
            try:
                state.apply(result)
            except ScoringError as error:
                raise ScoringError(
                    ErrorText("round {round}: {error}", {"round": index + 1, "error": error.text})
                ) from None
        return state

    # -- entries -----------------------------------------------------------------------------

    def record(self, result: RoundResult) -> RoundScore:
        """Add a round; returns its line of the sheet. ScoringError leaves the sheet unchanged."""
        return self._state.apply(result)  # apply checks everything before it changes anything

    def undo_last(self) -> RoundResult:
        """Remove the last recorded round and return it (ScoringError when there is none)."""
        results = self.results
        if not results:
            raise ScoringError(ErrorText("there is no round to undo"))
        self._state = self._replay(results[:-1])
        return results[-1]

    def replace(self, round_index: int, result: RoundResult) -> RoundScore:
        """Edit a past round (0-based) and recompute every total after it.

        If the edited history is impossible, ScoringError names the first round that no longer
        fits and the sheet is unchanged.
        """
        results = list(self.results)
        if not 0 <= round_index < len(results):
            raise ScoringError(ErrorText(
                "there is no round {round} to edit ({recorded} recorded)",
                {"round": round_index + 1, "recorded": len(results)},
            ))
        results[round_index] = result
        self._state = self._replay(results)
        return self._state.history[round_index]

    def check(self, result: RoundResult) -> None:
        """Raise ScoringError if ``result`` could not be recorded now; records nothing."""
        self._state.check(result)

    # -- reading -----------------------------------------------------------------------------

    @property
    def settings(self) -> ScoringSettings:
        """The agreed scoring settings."""
        return self._settings

    @property
    def players(self) -> int:
        """Number of seats on the sheet."""
        return self._players

    @property
    def names(self) -> tuple[str, ...]:
        """Seat names used in messages (empty when none were given)."""
        return self._names

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """Every recorded result, in order: all the sheet needs to rebuild itself."""
        return tuple(score.result for score in self._state.history)

    @property
    def history(self) -> tuple[RoundScore, ...]:
        """Every line of the sheet, in order."""
        return tuple(self._state.history)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total. In fixed partners both partners show the team total."""
        return tuple(self._state.totals)

    @property
    def team_totals(self) -> dict[tuple[int, ...], int]:
        """Fixed partners: each team's total; otherwise each seat as a team of one."""
        if (
            self._settings.mode is ScoringMode.PARTNERS
            and self._settings.partners is PartnerVariation.FIXED
        ):
            return {team: self._state.totals[team[0]] for team in ((0, 2), (1, 3))}
        return {(s,): total for s, total in enumerate(self._state.totals)}

    @property
    def tables(self) -> tuple[Table, ...]:
        """The tables still to report the current hand (empty when the game is over)."""
        return self._state.open_tables()

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that play the next hand: not eliminated, and at a table still to report."""
        return tuple(sorted(s for t in self._state.open_tables() for s in t.seats))

    @property
    def pigs(self) -> tuple[int, ...]:
        """Each seat's pigs (hero and mean scoring; all 0 in the other modes)."""
        return tuple(self._state.pigs)

    @property
    def eliminated(self) -> tuple[int, ...]:
        """Seats eliminated in Challenge UNO, in the order they went."""
        return tuple(self._state.eliminated)

    @property
    def head_to_head(self) -> bool:
        """True when exactly two play the next hand, so the two-player rules apply."""
        return len(self.active_seats) == 2 and len(self.tables) == 1

    @property
    def hands_played(self) -> int:
        """Complete hands so far (in the two-table game, both tables have reported)."""
        return self._state.hand

    @property
    def is_over(self) -> bool:
        """True once the target or the agreed number of rounds decided the game."""
        return self._state.over

    @property
    def ranking(self) -> tuple[int, ...]:
        """Seats best first, as 003's 順位 column: by total (lowest first where totals are
        penalties); in Challenge UNO the players still in come first, then the eliminated, the
        last to go first; in the pig modes the fewest pigs first. Ties keep seat order.
        """
        keys = self._rank_keys()
        return tuple(sorted(range(self._players), key=keys.__getitem__))

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's place in :attr:`ranking` (1 for the best): seats level on what ranks
        them share the better place (:func:`engine.places.places`), as the event's standings
        number ties: two tied for first are both 1, the next is 3."""
        return places(self._rank_keys())

    def _rank_keys(self) -> list[tuple[int, ...]]:
        """Each seat's ranking key, the smallest best."""
        totals = self._state.totals
        seats = range(self._players)
        if self._settings.uses_pigs:
            return [self._state.pig_order(s) for s in seats]
        if not self._settings.lowest_wins:
            return [(-totals[s],) for s in seats]
        went = {seat: line.index for line in self._state.history for seat in line.eliminated}
        return [(1, -went[s], totals[s]) if s in went else (0, 0, totals[s]) for s in seats]

    def __repr__(self) -> str:
        names = f", names={list(self._names)!r}" if self._names else ""
        return (
            f"Scoresheet({self._settings!r}, players={self._players}{names}, "
            f"results={list(self.results)!r})"
        )

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats (ties share the win; a team in fixed partners); empty until over."""
        return self._state.winners
