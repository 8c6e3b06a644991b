"""The event's messages (docs/event.md, "Messages") and its topics.

Every message is a frozen pydantic model with a version field ``v``; unknown fields are refused,
so a message from a newer version is refused whole rather than half understood. Secrets
(passwords, signing keys, join codes) are :class:`~pydantic.SecretStr`: their ``repr`` and a log
line show ``**********``, and they leave a model only through :func:`to_payload`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from showdown.game.names import TableName

__all__ = [
    "TOURNAMENT_NAME_MAX",
    "VERSION",
    "AckMessage",
    "Correction",
    "EntryId",
    "EntryMessage",
    "HostStatus",
    "JoinReply",
    "JoinRequest",
    "MessageError",
    "SeatingMessage",
    "StandingLine",
    "StandingsMessage",
    "TableLine",
    "TableStatus",
    "TablesMessage",
    "Topics",
    "TournamentInfo",
    "parse",
    "to_payload",
]

VERSION: Final = 1

TOURNAMENT_NAME_MAX: Final = 80
"""The longest event name (the host's ``--name``), in characters; otherwise it follows the name
rule of :mod:`showdown.game.names`, as players' and tables' names do."""

ROOT = "uno-showdown/v1"

TOURNAMENT_ID = re.compile(r"^[a-z0-9]{6}$")
TABLE_ID = re.compile(r"^t[0-9]{1,3}$")
CLIENT_ID = re.compile(r"^join-[0-9a-f]{16}$")

M = TypeVar("M", bound="_Message")


class MessageError(ValueError):
    """A message that cannot be read; the message says which field and why (never a secret)."""


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    v: Literal[1] = 1


TournamentId = Field(pattern=TOURNAMENT_ID.pattern)
TableId = Field(pattern=TABLE_ID.pattern)


class EntryId(BaseModel):
    """An entry's stable id at its table: the journal it is in and its sequence number there."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    journal: str = Field(min_length=1, max_length=32)
    seq: int = Field(ge=1)


class EntryMessage(_Message):
    """One entry of a table's journal (table -> host)."""

    event: str = TournamentId
    table: str = TableId
    journal: str = Field(min_length=1, max_length=32)
    seq: int = Field(ge=1)
    game: int = Field(ge=1)
    prev: int | None = Field(default=None, ge=1)
    kind: str = Field(min_length=1, max_length=32)
    key: str | None = Field(default=None, max_length=200)
    events: list[dict[str, Any]] = Field(max_length=16)
    recorded_at: str = Field(max_length=40)
    sent_at: float = 0.0
    mac: str = Field(default="", max_length=64)

    @property
    def id(self) -> EntryId:
        """The entry's stable id."""
        return EntryId(journal=self.journal, seq=self.seq)

    def signed_part(self) -> bytes:
        """What the ``mac`` covers: every field but ``sent_at`` and ``mac``, canonical JSON."""
        data = self.model_dump(mode="json", exclude={"sent_at", "mac"})
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


class AckMessage(_Message):
    """Entries the host has stored (host -> table)."""

    event: str = TournamentId
    table: str = TableId
    entries: list[EntryId] = Field(max_length=1000)


class TableStatus(_Message):
    """A table's presence (table -> host, retained; ``online: false`` is its last will)."""

    event: str = TournamentId
    table: str = TableId
    online: bool
    hands: int | None = Field(default=None, ge=0)
    round: int | None = Field(default=None, ge=1)


class HostStatus(_Message):
    """The host's presence (retained; ``online: false`` is its last will)."""

    event: str = TournamentId
    online: bool


class TournamentInfo(_Message):
    """What the event is (retained)."""

    event: str = TournamentId
    name: str = Field(max_length=TOURNAMENT_NAME_MAX)
    format: Literal["free", "partners-8", "swiss"]
    players: list[str] = Field(max_length=400)
    tables: list[str] = Field(max_length=100)
    rounds: int = Field(ge=1)
    hands_per_round: int | None = Field(default=None, ge=1)
    target: int = Field(default=500, ge=1)


class Correction(BaseModel):
    """A finished game of an earlier round was undone or edited after a later round was
    seated: the standings changed, the seated round stays as it was (the screens say so)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int = Field(ge=1)
    table: str
    seated: int = Field(ge=1)
    """The round seated when the correction came, which stays as seated."""


class SeatingMessage(_Message):
    """The round to play now and who sits where (retained)."""

    event: str = TournamentId
    round: int | None = Field(default=None, ge=1)
    rounds: int = Field(ge=1)
    tables: dict[str, list[str]] = Field(default_factory=dict)
    byes: list[str] = Field(default_factory=list)
    over: bool = False
    correction: Correction | None = None
    """The last correction to an earlier round since this round was seated."""


class StandingLine(BaseModel):
    """One line of the leaderboard."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rank: int
    name: str
    table: str | None
    points: int
    games_played: int = 0
    games_won: int = 0
    rounds_won: int = 0
    showdowns_won: int = 0
    best_ms: float | None = None
    match_points: int = 0
    opponents_points: int = 0
    byes: int = 0


class StandingsMessage(_Message):
    """The leaderboard (retained)."""

    event: str = TournamentId
    lines: list[StandingLine]
    entries: int = Field(ge=0)
    """Entries stored in the event journal when these standings were computed."""
    updated_at: float = 0.0


class TableLine(BaseModel):
    """One table as the host sees it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    table: str
    name: str = ""
    online: bool
    since: float | None = None
    """When it went on or off line (the host's clock, seconds since the epoch)."""
    hands: int = 0
    waiting: int = 0
    """Hands the event waits for from this table in the current round."""


class TablesMessage(_Message):
    """Every table, online or not (retained)."""

    event: str = TournamentId
    tables: list[TableLine]


class JoinRequest(_Message):
    """A table asks to join with the code shown on the host's scoreboard."""

    code: SecretStr
    client: str = Field(pattern=CLIENT_ID.pattern)
    name: TableName = ""


class JoinReply(_Message):
    """The host's answer: the table's credentials, or why not."""

    error: str | None = None
    reason: Literal["wrong-code", "expired-code", "full"] | None = None
    """Why, for a screen that says it in its own language (with ``error``)."""
    table: str | None = None
    password: SecretStr | None = None
    signing_key: SecretStr | None = None
    info: TournamentInfo | None = None


class Topics:
    """The topics of one event (docs/event.md, "Topics")."""

    def __init__(self, event: str) -> None:
        if not TOURNAMENT_ID.match(event):
            raise MessageError(f"an event id is six lowercase letters and digits, not {event!r}")
        self.event = event
        self.base = f"{ROOT}/{event}"
        self.info = f"{self.base}/info"
        self.host = f"{self.base}/host"
        self.standings = f"{self.base}/standings"
        self.seating = f"{self.base}/seating"
        self.tables = f"{self.base}/tables"
        self.all_entries = f"{self.base}/table/+/entry"
        self.all_statuses = f"{self.base}/table/+/status"

    def entry(self, table: str) -> str:
        return f"{self.base}/table/{table}/entry"

    def status(self, table: str) -> str:
        return f"{self.base}/table/{table}/status"

    def ack(self, table: str) -> str:
        return f"{self.base}/table/{table}/ack"

    def table_of(self, topic: str) -> str | None:
        """The table a ``table/<table>/...`` topic names (None for another topic)."""
        parts = topic.split("/")
        if len(parts) == 6 and "/".join(parts[:3]) == self.base and parts[3] == "table":
            return parts[4]
        return None

    @staticmethod
    def join_request(client: str) -> str:
        return f"{ROOT}/join/{client}/request"

    @staticmethod
    def join_reply(client: str) -> str:
        return f"{ROOT}/join/{client}/reply"

    ALL_JOIN_REQUESTS = f"{ROOT}/join/+/request"


def to_payload(message: BaseModel) -> bytes:
    """The message as sent: compact JSON, secrets revealed (only here)."""
    data = message.model_dump(mode="json")
    return json.dumps(_reveal(message, data), separators=(",", ":"), sort_keys=True).encode()


def _reveal(message: BaseModel, data: dict[str, Any]) -> dict[str, Any]:
    for name in type(message).model_fields:
        value = getattr(message, name)
        if isinstance(value, SecretStr):
            data[name] = value.get_secret_value()
        elif isinstance(value, BaseModel) and isinstance(data.get(name), dict):
            data[name] = _reveal(value, data[name])
    return data


def parse(kind: type[M], payload: bytes) -> M:
    """Read one message of ``kind``; :class:`MessageError` names the first field at fault."""
    try:
        return kind.model_validate_json(payload)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or kind.__name__
        raise MessageError(f"not a valid {kind.__name__}: {where}: {first['msg']}") from None
