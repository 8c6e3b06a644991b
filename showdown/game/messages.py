"""What the game session accepts (commands) and what it answers (events).

This is the session's whole vocabulary: the scoreboard sends these commands from a touch, the
service sends :class:`RecordShowdown` from the unit's result, and both draw from the events. Every
type is a frozen pydantic model with a ``kind`` field, so each travels as JSON (the journal, the
export, a test's known-answer file) and is parsed back with :func:`parse_command` /
:func:`parse_event`.

Players are named, not numbered: a name is what a person taps on the scoreboard. Rounds are
numbered from 1, as written on a paper score sheet.

Stored events (:data:`StoredEvent`) are the facts the journal keeps; the session state is a fold
over them. The other events (:class:`ScoresUpdated`, :class:`GameWon`, :class:`EntryRejected`)
are derived or transient: the session sends them to listeners but never stores them.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
    model_validator,
)

from engine.error_text import ErrorText
from engine.rules import PenaltyReason
from engine.scoring import ScoringSettings
from showdown.game.names import NAME_MAX, NewPlayerName

__all__ = [
    "Command",
    "CommandError",
    "CorrectShowdown",
    "EditRound",
    "EntryRedone",
    "EntryRejected",
    "EntryUndone",
    "Event",
    "GameResumed",
    "GameStarted",
    "GameWon",
    "HandEntry",
    "PenaltyRecorded",
    "RecordPenalty",
    "RecordRound",
    "RecordShowdown",
    "RedoLast",
    "ResumeGame",
    "RoundEdited",
    "RoundRecorded",
    "ScoresUpdated",
    "SetUpGame",
    "ShowdownReason",
    "ShowdownRecorded",
    "ShowdownSource",
    "StoredEvent",
    "UndoLast",
    "parse_command",
    "parse_event",
]

MAX_LOADED_CARDS = 20
"""More cards than this never fit into the unit's clip: such a showdown entry is impossible."""

ShowdownReason = Literal["race", "false-start", "side-count"]
"""Why a showdown was decided (unit.md, Report; the names of :class:`engine.stats.ShowdownReason`).
A timeout is not a result: the showdown is replayed."""

ShowdownSource = Literal["unit", "hand"]
"""Whether the unit reported the result or the table entered it."""


def _reason_spelling(value: object) -> object:
    """Accept ``false_start``, ``"False start"``: reporters spell reasons their way."""
    if isinstance(value, str):
        return value.strip().lower().replace("_", "-").replace(" ", "-")
    return value

PlayerName = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
"""A player already in the game, named by a command (the session checks it is one of the game's
players); a name entering a game at set-up follows the rule of :mod:`showdown.game.names`."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- commands ---------------------------------------------------------------------------------


class HandEntry(_Message):
    """What one player still holds at the end of a round: a points total, the cards by kind, or
    both (then they must agree).

    ``cards`` maps a card kind as the scoreboard taps it (``"7"``, ``"draw-two"``, ``"wild"``;
    see :mod:`engine.tally`) to how many of it the player holds.
    """

    points: int | None = None
    cards: dict[str, int] | None = None

    @model_validator(mode="after")
    def _something(self) -> HandEntry:
        if self.points is None and self.cards is None:
            raise ValueError("give the points or the cards held")
        return self


class SetUpGame(_Message):
    """Start a new game: players in seat order (clockwise from the first dealer's left is not
    implied; seat 0 is simply the first name), the rule preset, scoring and the first dealer."""

    kind: Literal["set_up_game"] = "set_up_game"
    players: list[NewPlayerName] = Field(min_length=2, max_length=10)
    preset: str = "official"
    scoring: ScoringSettings = ScoringSettings()
    first_dealer: PlayerName | None = None
    """None: the first player in seat order deals first."""
    command_id: str | None = None
    """Optional idempotency key: a command retried after a crash is recorded once."""


class RecordShowdown(_Message):
    """A showdown's result, from the unit's result event or entered by hand.

    ``showdown_id`` names one showdown (the unit numbers them); a second result for the same id
    is refused. ``left``/``right`` say who sat at which paddle, when known.
    """

    kind: Literal["record_showdown"] = "record_showdown"
    winner: PlayerName
    loser: PlayerName
    cards_loaded: int = Field(ge=1, le=MAX_LOADED_CARDS)
    reason: ShowdownReason = "race"
    source: ShowdownSource = "hand"
    left: PlayerName | None = None
    right: PlayerName | None = None
    reaction_ms: dict[str, float] = Field(default_factory=dict)
    """Reaction time (press - go) per player name, when the unit measured it."""
    side_counts: tuple[int, int] | None = None
    """Cards counted on the (left, right) side after the launch, when the unit counted."""
    showdown_id: str | None = None
    command_id: str | None = None

    _reason = field_validator("reason", mode="before")(_reason_spelling)


class RecordRound(_Message):
    """A round's end: who went out and, for every other player in the hand, what they hold."""

    kind: Literal["record_round"] = "record_round"
    went_out: PlayerName
    hands: dict[str, HandEntry]
    command_id: str | None = None


class RecordPenalty(_Message):
    """The table penalised ``player`` for breaking a table rule (``reason``, the seeds' reasons:
    silence, slap, advice, wrong card, a missing UNO call); they drew ``cards`` (None: what
    the game's rules say, 2 in every sheet but 001's 4 for UNO). Refused for a reason the game's
    rules do not have."""

    kind: Literal["record_penalty"] = "record_penalty"
    player: PlayerName
    reason: PenaltyReason
    cards: int | None = Field(default=None, ge=1, le=20)
    command_id: str | None = None

    _reason = field_validator("reason", mode="before")(_reason_spelling)


class UndoLast(_Message):
    """Take back the last entry (a round, a showdown or an edit); it stays in the journal."""

    kind: Literal["undo_last"] = "undo_last"
    command_id: str | None = None


class RedoLast(_Message):
    """Take back the last undo (only while nothing else was entered since): what it undid
    stands again."""

    kind: Literal["redo_last"] = "redo_last"
    command_id: str | None = None


class CorrectShowdown(_Message):
    """The last showdown went the other way: ``winner`` beat ``loser``, not the reverse (the
    table overrules the unit, or its own tap). One entry takes the old result back and records
    the corrected one, so a crash leaves either both or neither; undoing it brings the old
    result back."""

    kind: Literal["correct_showdown"] = "correct_showdown"
    winner: PlayerName
    loser: PlayerName
    command_id: str | None = None


class ResumeGame(_Message):
    """Take up a saved game again; the game played until now stays saved as it is."""

    kind: Literal["resume_game"] = "resume_game"
    game_id: int


class EditRound(_Message):
    """Replace a past round (numbered from 1); every total after it is recomputed."""

    kind: Literal["edit_round"] = "edit_round"
    round: int = Field(ge=1)
    went_out: PlayerName
    hands: dict[str, HandEntry]
    command_id: str | None = None


Command = Annotated[
    SetUpGame | RecordShowdown | RecordRound | UndoLast | RedoLast | EditRound | CorrectShowdown
    | ResumeGame | RecordPenalty,
    Field(discriminator="kind"),
]
"""Every command the session accepts."""


# -- events -----------------------------------------------------------------------------------


class GameStarted(_Message):
    """A game was set up (always the first entry of a game)."""

    kind: Literal["game_started"] = "game_started"
    game_id: int
    players: list[str]
    preset: str
    scoring: ScoringSettings
    first_dealer: str


class ShowdownRecorded(_Message):
    """A showdown was settled during round ``round``: the loser takes ``cards_loaded`` cards."""

    kind: Literal["showdown_recorded"] = "showdown_recorded"
    round: int
    winner: str
    loser: str
    cards_loaded: int
    reason: ShowdownReason
    source: ShowdownSource = "hand"
    left: str | None = None
    right: str | None = None
    reaction_ms: dict[str, float] = Field(default_factory=dict)
    side_counts: tuple[int, int] | None = None
    showdown_id: str | None = None


class RoundRecorded(_Message):
    """Round ``round`` ended; ``points`` is what each player in the hand held (0 for the one who
    went out), ``hands`` what was entered."""

    kind: Literal["round_recorded"] = "round_recorded"
    round: int
    went_out: str
    points: dict[str, int]
    hands: dict[str, HandEntry]


class PenaltyRecorded(_Message):
    """During round ``round`` the table penalised ``player``, who drew ``cards`` for ``reason``
    (it changes no score: the cards count in the hand at the round's end)."""

    kind: Literal["penalty_recorded"] = "penalty_recorded"
    round: int
    player: str
    reason: PenaltyReason
    cards: int


class RoundEdited(_Message):
    """Round ``round`` was corrected; it now reads as given here."""

    kind: Literal["round_edited"] = "round_edited"
    round: int
    went_out: str
    points: dict[str, int]
    hands: dict[str, HandEntry]


class EntryUndone(_Message):
    """The entry with journal sequence number ``seq`` was taken back."""

    kind: Literal["entry_undone"] = "entry_undone"
    seq: int
    what: str
    """The undone entry's kind (``round``, ``showdown``, ``edit``), for the scoreboard's toast."""


class EntryRedone(_Message):
    """The undo with journal sequence number ``seq`` was taken back: what it undid stands again."""

    kind: Literal["entry_redone"] = "entry_redone"
    seq: int
    what: str
    """The kind of entry that stands again (``round``, ``showdown``, ``edit``)."""


class GameResumed(_Message):
    """The table took this game up again: it is the game played from here on (no score
    changes; the game with the latest entry is the one a restart resumes)."""

    kind: Literal["game_resumed"] = "game_resumed"
    game_id: int


StoredEvent = Annotated[
    GameStarted | ShowdownRecorded | RoundRecorded | RoundEdited | EntryUndone | EntryRedone
    | GameResumed | PenaltyRecorded,
    Field(discriminator="kind"),
]
"""The facts the journal keeps."""


class ScoresUpdated(_Message):
    """The score after an accepted entry (derived: never stored)."""

    kind: Literal["scores_updated"] = "scores_updated"
    rounds: int
    """Rounds recorded so far."""
    totals: dict[str, int]
    dealer: str | None
    """Who deals the next round (None once the game is over)."""
    eliminated: list[str] = Field(default_factory=list)
    pigs: dict[str, int] = Field(default_factory=dict)
    """Each player's pigs in hero and mean scoring (empty in the other modes)."""


class GameWon(_Message):
    """The game reached its end (derived: never stored)."""

    kind: Literal["game_won"] = "game_won"
    winners: list[str]
    totals: dict[str, int]
    pigs: dict[str, int] = Field(default_factory=dict)
    """Each player's pigs in hero and mean scoring (empty in the other modes)."""


class EntryRejected(_Message):
    """A command was refused; nothing changed. ``message`` is for the people at the table, in
    English; ``text`` is the same message as a template and its values, which the scoreboard
    translates into the table's language."""

    kind: Literal["entry_rejected"] = "entry_rejected"
    command: str
    message: str
    text: ErrorText | None = None
    duplicate: bool = False
    """True when the very same entry is already recorded (a retry after a lost answer): the
    table's record is complete, nothing needs entering again."""
    unstored: bool = False
    """True when the entry was accepted but the journal could not be written (disk full,
    read-only): nothing was stored, and the same entry can be sent again later."""


Event = Annotated[
    GameStarted
    | ShowdownRecorded
    | RoundRecorded
    | RoundEdited
    | EntryUndone
    | EntryRedone
    | GameResumed
    | PenaltyRecorded
    | ScoresUpdated
    | GameWon
    | EntryRejected,
    Field(discriminator="kind"),
]
"""Every event the session sends to its listeners."""


class CommandError(ValueError):
    """A command could not be read; the message names the field at fault."""


_COMMANDS: TypeAdapter[Command] = TypeAdapter(Command)
_EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
STORED_EVENTS: TypeAdapter[StoredEvent] = TypeAdapter(StoredEvent)


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) if str(p).isprintable() else repr(p) for p in item["loc"])
        where = where or "command"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts).replace("\n", " ").replace("\r", " ")


def parse_command(data: str | bytes | dict[str, object]) -> Command:
    """Read one command from JSON text or a decoded object; :class:`CommandError` if it is bad.

    >>> parse_command('{"kind": "undo_last"}')
    UndoLast(kind='undo_last', command_id=None)
    """
    try:
        if isinstance(data, str | bytes):
            return _COMMANDS.validate_json(data)
        return _COMMANDS.validate_python(data)
    except ValidationError as error:
        raise CommandError(f"not a valid command: {_describe(error)}") from None
    except (ValueError, TypeError) as error:
        raise CommandError(f"not a valid command: {' '.join(str(error).split())}") from None


def parse_event(data: str | bytes | dict[str, object]) -> Event:
    """Read one event from JSON text or a decoded object (raises ``ValidationError``)."""
    if isinstance(data, str | bytes):
        return _EVENTS.validate_json(data)
    return _EVENTS.validate_python(data)


def to_json(message: BaseModel) -> str:
    """One line of JSON for a command or an event."""
    return json.dumps(message.model_dump(mode="json"), separators=(",", ":"), sort_keys=True)
