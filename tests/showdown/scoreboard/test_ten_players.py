"""A full table of ten, read at arm's length: on the live table, the round end (keypad and cards)
and the final standings, no text is drawn below the 16 px floor and none is cut, in any
language."""

from __future__ import annotations

import pytest

from showdown.game.messages import HandEntry, RecordRound
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from showdown.scoreboard.theme import MIN_TEXT
from tests.showdown.scoreboard.helpers import keypad, shot, touch
from tools.screenshots.games import TEN_PLAYERS, sample_ten


def _drawn(board: Scoreboard) -> tuple[list[str], dict[str, int]]:
    """Everything on the current screen drawn afresh: what overflowed, and each text's size."""
    board.painter.invalidate()
    board.text.overflows.clear()
    board.text.sizes.clear()
    board.frame()
    return [o.text for o in board.text.overflows], dict(board.text.sizes)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_ten_players_stay_readable(board: Scoreboard, table: SessionPort, code: str) -> None:
    sample_ten(table.session)
    board.set_language(code)
    board.refresh()
    found: dict[str, tuple[list[str], dict[str, int]]] = {}
    board.go("table")
    found["table"] = _drawn(board)
    shot(board, f"table-10-{code}")
    board.go("round")
    touch(board, "player9")
    keypad(board, "123")
    found["round"] = _drawn(board)
    touch(board, "cards-mode")
    found["round-cards"] = _drawn(board)
    shot(board, f"round-10-{code}")
    hands = {name: HandEntry(points=120) for name in TEN_PLAYERS if name != "Chen"}
    table.session.handle(RecordRound(went_out="Chen", hands=hands))  # Chen passes 500
    board.refresh()
    assert board.current == "gameover"
    found["gameover"] = _drawn(board)
    for screen, (overflows, sizes) in found.items():
        assert overflows == [], (screen, overflows)
        small = {text: size for text, size in sizes.items() if size < MIN_TEXT}
        assert small == {}, (screen, small)
        assert len(sizes) >= 20, screen  # the screen drew its rows


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_history_of_ten_with_long_names_shows_every_name_whole(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    assert "Maximilianax" in TEN_PLAYERS and "王小明王小明王小明王小明" in TEN_PLAYERS
    sample_ten(table.session)
    board.set_language(code)
    board.refresh()
    board.go("history")
    overflows, sizes = _drawn(board)
    shot(board, f"history-10-{code}")
    assert overflows == []
    assert {text: size for text, size in sizes.items() if size < MIN_TEXT} == {}
    heads = [w for w in board.widgets() if w.id.startswith("head:")]
    assert len(heads) == 11
    for i, head in enumerate(heads):  # side by side, none over another
        assert all(head.rect.clip(other.rect).width == 0 for other in heads[i + 1:]), head.id
    # Every name is drawn whole (no overflow was recorded), on more than one line where its
    # column is too narrow for it: "Maximilianax" breaks between letters.
    assert any(text and text != "Maximilianax" and text in "Maximilianax" for text in sizes)
