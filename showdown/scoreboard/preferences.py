"""The table's choices on the scoreboard (language, colour-never-alone cues), kept with the game.

A table that picked Japanese and turned the shapes off expects both back after a power cut, as
it expects its scores back. So the choices are stored in the same SQLite journal as the game
(:meth:`showdown.game.journal.Journal.set_setting`, durable before it returns), not in the
configuration file: they follow the table's journal across restarts and new games. A stored
value that cannot be read (a language this version does not know, a damaged cue record) is
logged and ignored, and the scoreboard keeps its defaults.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, fields, replace
from typing import Protocol

from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.i18n import LANGUAGES

__all__ = ["CUES", "LANGUAGE", "SettingsStore", "stored_cues", "stored_language", "to_text"]

log = logging.getLogger(__name__)

LANGUAGE = "scoreboard.language"
"""The setting that holds the language code (``ja``)."""

CUES = "scoreboard.cues"
"""The setting that holds the cue switches as a JSON object (``{"countdown_words": false}``)."""


class SettingsStore(Protocol):
    """Where the choices are kept: the game's :class:`~showdown.game.journal.Journal`."""

    def settings(self) -> dict[str, str]:
        """Every stored setting by name."""
        ...

    def set_setting(self, name: str, value: str) -> None:
        """Store one setting durably."""
        ...


def stored_language(settings: dict[str, str]) -> str | None:
    """The stored language, or None when there is none or it is not one this version has."""
    code = settings.get(LANGUAGE)
    if code is None:
        return None
    if code not in LANGUAGES:
        log.warning("the stored scoreboard language %r is unknown: keeping the default", code)
        return None
    return code


def stored_cues(settings: dict[str, str], default: CueSettings) -> CueSettings:
    """``default`` with the stored switches applied; unknown or damaged entries are ignored."""
    raw = settings.get(CUES)
    if raw is None:
        return default
    try:
        data = json.loads(raw)
    except ValueError:
        log.warning("the stored cue settings cannot be read (%r): keeping the defaults", raw)
        return default
    if not isinstance(data, dict):
        log.warning("the stored cue settings are not a record (%r): keeping the defaults", raw)
        return default
    known = {f.name for f in fields(CueSettings)}
    chosen = {k: v for k, v in data.items() if k in known and isinstance(v, bool)}
    return replace(default, **chosen)


def to_text(cues: CueSettings) -> str:
    """The cue switches as the JSON text stored under :data:`CUES`."""
    return json.dumps(asdict(cues), sort_keys=True)
