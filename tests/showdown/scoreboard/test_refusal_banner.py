"""Every refusal the scoreboard can show fits its banner in every language."""

from __future__ import annotations

import re

import pytest

from engine.error_text import ErrorText
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from tests.showdown.scoreboard.test_i18n import _code_messages

PLACEHOLDER = re.compile(r"\{(\w+)[^{}]*\}")
NAMES = ("Daisuke", "Fumiko", "Budi", "Chen")
"""Long-ish names as a table types them (the on-screen keyboard allows 12 letters)."""


def _seat(seat: int) -> ErrorText:
    return ErrorText("seat {seat} ({name})", {"seat": seat, "name": NAMES[seat % len(NAMES)]})


SAMPLES: dict[str, object] = {
    "who": _seat(3), "holders": (_seat(1), _seat(2), _seat(3)), "role": ErrorText("the winner"),
    "names": NAMES[:2], "players": NAMES, "error": ErrorText(
        "{who}: points cannot be negative ({points})", {"who": _seat(2), "points": -40}),
    "kind": "wild-draw-four", "mode": "partners", "partners": "two-tables", "ms": 61234.5,
    "where": "events.0.points", "problem": "Input should be a valid integer", "id": "u-1234",
}


def _refusals() -> list[ErrorText]:
    """Every refusal template with realistic values (numbers as large as a game makes them)."""
    texts = []
    for (context, msgid), where in _code_messages().items():
        if context is not None or not ("engine/" in where or "session.py" in where
                                        or "adapter.py" in where):
            continue
        params = {name: SAMPLES.get(name, 1234) for name in PLACEHOLDER.findall(msgid)}
        texts.append(ErrorText(msgid, params))  # type: ignore[arg-type]
    return texts


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_refusal_fits_the_banner(board: Scoreboard, code: str) -> None:
    board.set_language(code)
    board.go("setup")
    refusals = _refusals()
    assert len(refusals) > 40
    too_long = []
    for text in refusals:
        board.message = text
        board.painter.invalidate()
        board.text.overflows.clear()
        board.frame()
        if board.text.overflows:
            too_long.append(text.template)
    assert too_long == []
