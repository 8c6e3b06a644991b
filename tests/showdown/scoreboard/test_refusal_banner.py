"""Every refusal the scoreboard can show fits its banner in every language, on the screen where
it comes up (the banner sits in each screen's own area, over words, never over a control)."""

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


SET_UP = ("every player needs a name", "two players have the same name: {names}",
          "{mode} ({partners}) needs exactly {required} players, not {players}",
          "a game has {least} to {most} players, not {players}",
          "the first dealer {name!r} is not one of the players",
          "there is no scoring mode {mode}",
          "hero and mean scoring end at an agreed number of pigs or rounds: choose one or both")
"""Refusals of a new game: shown on the set-up screen, whose banner area is the smallest."""

NEVER_A_BANNER = ("game {game}, journal entry {seq} cannot be read ({where}: {problem}); the "
                  "journal was not changed",
                  "game {game}: the journal does not start with a set-up")
"""Refused when the journal is opened, before any window: said on the command line."""


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_refusal_fits_the_banner(board: Scoreboard, code: str) -> None:
    board.set_language(code)
    refusals = [t for t in _refusals() if t.template not in NEVER_A_BANNER]
    assert len(refusals) > 40
    too_long = []
    for text in refusals:
        for screen in ("setup", "round") if text.template in SET_UP else ("round",):
            board.go(screen)
            board.message = text
            board.painter.invalidate()
            board.text.overflows.clear()
            board.frame()
            if board.text.overflows:
                too_long.append((screen, text.template))
    assert too_long == []
