"""The table's PIN for corrections from a phone: four digits, valid for the evening.

The scoreboard shows it; the phone page asks for it before an undo or an edit. It is kept in
the table's journal (a setting, like the scoreboard's language), so a restart mid-evening keeps
the PIN the players already have; the first start after 06:00 (local time) the next morning
draws a new one. It is never logged.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

__all__ = ["PIN_SETTING", "EveningPin", "SettingsStore", "evening_ends", "evening_pin"]

PIN_SETTING = "phone.pin"
"""The journal setting that holds the PIN and when it ends (JSON)."""

MORNING_HOUR = 6
"""An evening ends at this hour, local time."""


class SettingsStore(Protocol):
    """Where the PIN is kept: the table's :class:`~showdown.game.journal.Journal`."""

    def settings(self) -> dict[str, str]:
        """Every stored setting by name."""
        ...

    def set_setting(self, name: str, value: str) -> None:
        """Store one setting durably."""
        ...


@dataclass(frozen=True)
class EveningPin:
    """Four digits and the moment they stop working."""

    code: str
    until: datetime

    def __repr__(self) -> str:  # a PIN printed by accident in a log says nothing
        return f"EveningPin(code='****', until={self.until.isoformat()!r})"


def evening_ends(now: datetime) -> datetime:
    """The next 06:00 after ``now`` (same time zone as ``now``)."""
    morning = now.replace(hour=MORNING_HOUR, minute=0, second=0, microsecond=0)
    return morning if morning > now else morning + timedelta(days=1)


def evening_pin(
    store: SettingsStore,
    now: datetime | None = None,
    draw: Callable[[int], int] = secrets.randbelow,
) -> EveningPin:
    """This evening's PIN: the stored one while it lasts, else a new one, stored before it is
    returned. ``now`` is local time with its zone (default: now)."""
    now = now or datetime.now().astimezone()
    try:
        stored = json.loads(store.settings().get(PIN_SETTING, "null"))
        code, until = str(stored["code"]), datetime.fromisoformat(stored["until"])
        if len(code) == 4 and code.isdigit() and now < until:
            return EveningPin(code, until)
    except (ValueError, TypeError, KeyError):
        pass  # none yet, or not readable: a new one
    pin = EveningPin(f"{draw(10_000):04d}", evening_ends(now))
    store.set_setting(PIN_SETTING, json.dumps({"code": pin.code, "until": pin.until.isoformat()}))
    return pin
