"""An error's words as plain data: an English template with named placeholders, and its values.

The engine knows no language but English and imports nothing that translates. Its refusals
(:class:`engine.scoring.ScoringError`, :class:`engine.tally.TallyError`) carry an
:class:`ErrorText` so a front end can look the template up in its own message catalogue, translate
nested texts the same way and substitute the values; ``str()`` is the English text, which logs and
the command line show unchanged.

>>> text = ErrorText("{who}: points cannot be negative ({points})",
...                  {"who": ErrorText("seat {seat} ({name})", {"seat": 1, "name": "Bo"}),
...                   "points": -5})
>>> str(text)
'seat 1 (Bo): points cannot be negative (-5)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = ["ErrorText", "Param", "plain"]

Param: TypeAlias = "str | int | float | ErrorText | tuple[str | ErrorText, ...]"
"""What a placeholder may hold (for annotations; the field below spells it out for pydantic)."""


@dataclass(frozen=True)
class ErrorText:
    """One refusal's words: ``template`` (an English message id, :meth:`str.format` names) and
    the ``params`` it names. A value is a string or number, a nested text (translated on its
    own), or a tuple of strings and texts (written joined by commas)."""

    template: str
    params: Mapping[str, str | int | float | ErrorText | tuple[str | ErrorText, ...]] = field(
        default_factory=dict
    )

    def __str__(self) -> str:
        return self.template.format(**{k: _english(v) for k, v in self.params.items()})


def _english(value: object) -> object:
    if isinstance(value, tuple):
        return ", ".join(str(item) for item in value)
    if isinstance(value, ErrorText):
        return str(value)
    return value


def plain(message: str) -> ErrorText:
    """A message with no placeholders (braces in it are kept as written)."""
    return ErrorText(message.replace("{", "{{").replace("}", "}}"))
