"""The table's PIN for corrections from a phone: four digits, valid for the evening.

The scoreboard shows it; the phone page asks for it once and gives a short session for it. A
restart mid-evening keeps the PIN the players already have; the first start after 06:00 (local
time) the next morning draws a new one. It is never logged.

Where it is kept: the table's journal holds a salted hash of it (scrypt) and when it ends, never
the four digits, so a journal copied off the Pi (to read its games, to report a bug) gives the
PIN away to nobody. The four digits themselves, which the scoreboard must show again after a
restart, are in a file beside the journal (its name and ``.pin``), readable by the service's
user only (0600), like the journal itself; the hash tells whether that file is this evening's.
A journal from before the hash (the four digits in plain text) still opens with its PIN: the
PIN is moved into the file and the journal keeps only its hash from then on.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

__all__ = ["PIN_SETTING", "EveningPin", "SettingsStore", "TablePin", "evening_ends",
           "evening_pin", "pin_path"]

PIN_SETTING = "phone.pin"
"""The journal setting that holds the PIN's salted hash and when it ends (JSON)."""

MORNING_HOUR = 6
"""An evening ends at this hour, local time."""

SCHEME = "scrypt-n16384-r8-p1"
"""How the hash is made (:func:`hashlib.scrypt`, 16 MiB, a few tens of ms on a Pi, once per
start): named in the setting, so another scheme can follow without reading this one wrong."""


class SettingsStore(Protocol):
    """Where the PIN is kept: the table's :class:`~showdown.game.journal.Journal`."""

    path: Path
    """The journal's file (the PIN's own file is beside it)."""

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

    def matches(self, typed: str) -> bool:
        """Whether ``typed`` is this PIN (compared in constant time)."""
        return hmac.compare_digest(typed.encode("utf-8", "replace"), self.code.encode())


def evening_ends(now: datetime) -> datetime:
    """The next 06:00 after ``now`` (same time zone as ``now``)."""
    morning = now.replace(hour=MORNING_HOUR, minute=0, second=0, microsecond=0)
    return morning if morning > now else morning + timedelta(days=1)


def pin_path(journal: Path) -> Path:
    """The file beside ``journal`` that holds its PIN's four digits (``.pin`` added to its
    name; a symbolic link is followed)."""
    real = journal.resolve()
    return real.with_name(real.name + ".pin")


def _digest(code: str, salt: bytes) -> bytes:
    return hashlib.scrypt(code.encode(), salt=salt, n=16384, r=8, p=1, dklen=32)


def evening_pin(
    store: SettingsStore,
    now: datetime | None = None,
    draw: Callable[[int], int] = secrets.randbelow,
) -> EveningPin:
    """This evening's PIN: the stored one while it lasts, else a new one, stored before it is
    returned. ``now`` is local time with its zone (default: now)."""
    now = now or datetime.now().astimezone()
    kept = _kept(store, now)
    if kept is not None:
        return kept
    pin = EveningPin(f"{draw(10_000):04d}", evening_ends(now))
    _keep(store, pin)
    return pin


class TablePin:
    """The service's PIN: this evening's, read (or drawn) once, and again once the evening is
    over; asked for from any thread (the scoreboard's, the phone page's calls)."""

    def __init__(self, store: SettingsStore,
                 now: Callable[[], datetime] = lambda: datetime.now().astimezone()) -> None:
        self._store = store
        self._now = now
        self._lock = threading.Lock()
        self._pin = evening_pin(store, now())

    def code(self) -> str:
        """The four digits now."""
        with self._lock:
            now = self._now()
            if not now < self._pin.until:
                self._pin = evening_pin(self._store, now)
            return self._pin.code


def _kept(store: SettingsStore, now: datetime) -> EveningPin | None:
    """The PIN stored for this evening, if any is and it is whole."""
    try:
        stored: Any = json.loads(store.settings().get(PIN_SETTING, "null"))
        until = datetime.fromisoformat(stored["until"])
        if not now < until:
            return None
        if "code" in stored:  # a journal from before the hash: its PIN, moved out of it
            code = str(stored["code"])
            if not _four_digits(code):
                return None
            pin = EveningPin(code, until)
            with contextlib.suppress(Exception):  # a journal opened to read: checked as it is
                _keep(store, pin)
            return pin
        if stored.get("scheme") != SCHEME:
            return None
        code = pin_path(store.path).read_text(encoding="ascii").strip()
        expected = bytes.fromhex(stored["hash"])
        if _four_digits(code) and hmac.compare_digest(
                _digest(code, bytes.fromhex(stored["salt"])), expected):
            return EveningPin(code, until)
    except (ValueError, TypeError, KeyError, OSError):
        pass  # none yet, not readable, or another evening's file: a new one
    return None


def _four_digits(code: str) -> bool:
    return len(code) == 4 and code.isascii() and code.isdigit()


def _keep(store: SettingsStore, pin: EveningPin) -> None:
    """The hash into the journal, then the four digits into their own file (0600, whole or not
    at all): a journal that cannot be written (opened to read) gets no file beside it."""
    salt = secrets.token_bytes(16)
    store.set_setting(PIN_SETTING, json.dumps({
        "scheme": SCHEME, "salt": salt.hex(), "hash": _digest(pin.code, salt).hex(),
        "until": pin.until.isoformat()}))
    path = pin_path(store.path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.new")
    temporary.unlink(missing_ok=True)
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(pin.code + "\n")
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
