"""One rule for a name someone typed (a player's, a table's), so every door refuses the same ones.

A name enters at several doors: the host's ``--players``, a table's ``--table-name``, Set-up's
keyboard, a game set up through the session (a command, the simulator, an event's seating). When
each door had its own idea, a name the host took (250 characters) was one the table's game
refused, and the table stopped mid-event with a traceback. So the rule is here, beside the
session's commands (:mod:`showdown.game.messages`), the lowest layer every door can import, and
each door asks :func:`name_problem` (or takes :data:`NewPlayerName` in a model) and says the
answer in one line.

**Refused, and isolated too.** A name is refused when it holds what no one means to type into a
name and what only misleads a reader: control characters (a line break, a tab, an escape that
rewrites a terminal), the Unicode line and paragraph separators, and the characters that steer
the writing direction (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates, the
LRM/RLM/ALM marks). An override left in a name reverses everything after it on the line, other
players' names included; refusing it at the door tells the person typing at once, while removing
it quietly would store a name other than the one typed. Refusing is not enough on its own,
though, and the pages isolate every name as well (``<bdi>``): a name in a right-to-left script
(Arabic, Hebrew) is a fine name, yet left bare it draws the numbers and punctuation beside it into
its own direction; and a journal written before this rule, or a table running an older
``showdown``, may still bring a name this rule would refuse. Joiners (U+200C, U+200D) stay: scripts
and emoji need them.

A name has :data:`NAME_MAX` characters at most (the game has always taken 40; Set-up's keyboard
stops at 12, which still fits a history column at ten players), at least one of them a letter, a
digit, a punctuation mark or a symbol, and no space at either end (``Ada`` and ``Ada `` would be
two players no one can tell apart).

**A seat nobody named** is recorded as ``Player 4`` (:func:`default_name`): a place at one
table, not a person. Nothing that follows a person from game to game takes it: the players kept
for the next game, the all-time figures (:mod:`showdown.game.alltime`), whose ``Player 7`` of
Friday and ``Player 7`` of Saturday were two people.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Final

from pydantic import AfterValidator

__all__ = [
    "DEFAULT_NAME",
    "DIRECTION_CONTROLS",
    "NAME_MAX",
    "NAME_RULE",
    "NameRuleError",
    "NewPlayerName",
    "TableName",
    "allowed_in_name",
    "check_name",
    "default_name",
    "default_number",
    "is_default_name",
    "name_problem",
    "shown_name",
]

NAME_MAX: Final = 40
"""The longest name, in characters (code points), of a player or a table."""

DIRECTION_CONTROLS: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Unicode's Bidi_Control characters: the marks, embeddings, overrides and isolates that steer
the writing direction of the text around them."""

_CONTROL_CATEGORIES: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Controls, lone surrogates, the line and paragraph separators: none is part of a name."""

_VISIBLE: Final = frozenset("LNPS")
"""The major categories of a character that shows: letters, numbers, punctuation, symbols."""

NAME_RULE: Final = (f"a name has 1 to {NAME_MAX} characters, no space at either end, and no "
                    "control or writing-direction characters")
"""The rule in words, for a refusal to end with."""


DEFAULT_NAME: Final = "Player {number}"
"""The name a game records for a seat nobody named, in English like every stored word (the
screens show it in the language in use)."""

_DEFAULT: Final = re.compile(r"Player ([1-9][0-9]*)")


def default_name(seat: int) -> str:
    """The recorded name of an unnamed seat (0-based): ``"Player 4"`` for the fourth, whatever
    the language, so the journal and a change of language agree."""
    return DEFAULT_NAME.format(number=seat + 1)


def default_number(name: str) -> int | None:
    """The number in an unnamed seat's name (``"Player 4"``: 4); None for a name someone gave."""
    found = _DEFAULT.fullmatch(name)
    return None if found is None else int(found.group(1))


def is_default_name(name: str) -> bool:
    """Whether ``name`` is an unnamed seat's ("Player 4"): a seat, nobody to follow from game
    to game."""
    return default_number(name) is not None


class NameRuleError(ValueError):
    """A name the rule refuses; the message names the name and the rule, in one line."""


def allowed_in_name(char: str) -> bool:
    """Whether one character may be part of a name (a keyboard filters what it types with it)."""
    return char not in DIRECTION_CONTROLS and unicodedata.category(char) not in _CONTROL_CATEGORIES


def shown_name(name: str, limit: int = NAME_MAX) -> str:
    """``name`` quoted for a refusal that cannot be misread: what the rule refuses written as an
    escape (``\\u202e``), so the refusal's own line is not reversed or broken by it, and a name
    longer than ``limit`` cut there with its length said."""
    shown = "".join(c if allowed_in_name(c) else f"\\u{ord(c):04x}" for c in name[:limit])
    if len(name) > limit:
        return f"'{shown}…' ({len(name)} characters)"
    return f"'{shown}'"


def name_problem(name: str, limit: int = NAME_MAX) -> str | None:
    """What is wrong with ``name`` by the rule (None: nothing), in words that name the fault."""
    if len(name) > limit:
        return f"longer than {limit} characters"
    for char in name:
        if char in DIRECTION_CONTROLS:
            return f"it holds a writing-direction character (U+{ord(char):04X})"
        if unicodedata.category(char) in _CONTROL_CATEGORIES:
            return f"it holds a control character (U+{ord(char):04X})"
    if not any(unicodedata.category(c)[0] in _VISIBLE for c in name):
        return "nothing in it shows" if name else "it is empty"
    if name != name.strip():
        return "it starts or ends with a space"
    return None


def check_name(name: str, what: str = "player name", limit: int = NAME_MAX) -> str:
    """``name`` itself when the rule takes it; else :class:`NameRuleError`, one line naming the
    name (:func:`shown_name`), the fault and the rule, e.g. ``player name '...' : longer than
    40 characters (a name has ...)``."""
    problem = name_problem(name, limit)
    if problem is None:
        return name
    rule = NAME_RULE if limit == NAME_MAX else NAME_RULE.replace(str(NAME_MAX), str(limit), 1)
    raise NameRuleError(f"{what} {shown_name(name, limit)}: {problem} ({rule})")


def _player(name: str) -> str:
    return check_name(name, "player name")


def _table(name: str) -> str:
    return name if name == "" else check_name(name, "table name")


NewPlayerName = Annotated[str, AfterValidator(_player)]
"""A player's name entering a game (a set-up): the rule applies. Commands that only name a
player already in the game take any name of up to :data:`NAME_MAX` characters: the session
checks it is one of the game's, and a game set up before this rule goes on with its names."""

TableName = Annotated[str, AfterValidator(_table)]
"""A table's name at an event (``--table-name``, the join request): the rule applies, but for
the empty name, which means the table has none and is called by its number."""
