"""Text read at arm's length is drawn at its full size: the navigation bar, the history's round
column and the set-up's captions fit their boxes without shrinking, in every language."""

from __future__ import annotations

import pytest

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import NAV, Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from showdown.scoreboard.theme import READABLE_TEXT
from showdown.scoreboard.widgets import Button, Label
from showdown.tournament.view import StillTournament
from tests.showdown.scoreboard.helpers import widget
from tests.showdown.scoreboard.test_languages import populate
from tools.screenshots.tournament import TABLE_VIEW, utc


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_eight_tabs_with_the_event_keep_every_label_on_one_line(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    """A table in an event has eight tabs: no label wraps ("ラウン / ド終了" did in Japanese)."""
    populate(table)
    with utc():
        table.model.join(StillTournament(TABLE_VIEW))
    board.set_language(code)
    board.refresh()
    board.go("history")
    names = [w.id for w in board.widgets() if w.id.startswith("nav:")]
    assert "nav:event" in names and len(names) == 8
    for name in names:
        found = widget(board, name)
        assert isinstance(found, Button)
        assert found.size >= READABLE_TEXT
        if code == "id":  # Indonesian's eight do not fit at full size: a word shrinks, never breaks
            assert " " in found.text or board.text.fits_on_one_line(
                found.text, found.rect, found.size, bold=True), (found.id, found.text)
        else:
            assert _fits_at_full_size(board, found, 16), (code, found.id, found.text)


def _fits_at_full_size(board: Scoreboard, found: Label | Button, margin: int) -> bool:
    width, _height = board.text.font(found.size, bold=found.bold if isinstance(found, Label)
                                     else True).size(found.text)
    return bool(width <= board.layout.rect(found.rect).width - margin)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_labels_read_across_the_table_are_never_shrunk(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    populate(table)
    board.set_language(code)
    board.refresh()
    board.go("history")
    checked: list[tuple[Label | Button, int]] = []
    for name, _msgid in NAV:
        found = widget(board, f"nav:{name}")
        assert isinstance(found, Button)
        checked.append((found, 16))  # the button's inner margin, 8 px each side
    head = widget(board, "head:round")
    assert isinstance(head, Label)
    checked.append((head, 0))
    for row in range(3):
        found = widget(board, f"row{row}")
        assert isinstance(found, Button)
        checked.append((found, 24))  # a margin: the label does not touch the button's edges
    board.go("setup")
    for key in ("preset", "mode", "target"):
        caption = widget(board, f"{key}:caption")
        assert isinstance(caption, Label)
        checked.append((caption, 0))
    for found, margin in checked:
        assert found.size >= READABLE_TEXT
        assert _fits_at_full_size(board, found, margin), (code, found.id, found.text)
