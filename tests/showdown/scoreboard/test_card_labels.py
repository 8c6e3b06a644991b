"""The round end's word cards (Skip, Wild Draw Four, ...) in every language: one text size for
all of them, fitted by measuring, on one line where they can be, never cut."""

from __future__ import annotations

import pygame
import pytest

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from showdown.scoreboard.text import MIN_FONT
from showdown.scoreboard.widgets import Custom
from tests.showdown.scoreboard.helpers import start_game, touch


def _word_cards(board: Scoreboard) -> list[Custom]:
    return [w for w in board.widgets() if isinstance(w, Custom) and w.id.startswith("kind:")
            and not w.id.removeprefix("kind:").isdigit()]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_word_cards_share_one_size_and_fit(board: Scoreboard, table: SessionPort,
                                           code: str) -> None:
    start_game(board, players=2)
    board.set_language(code)
    board.go("round")
    touch(board, "cards-mode")
    board.painter.invalidate()
    board.text.overflows.clear()
    board.text.sizes.clear()
    board.frame()
    assert board.text.overflows == []
    cards = _word_cards(board)
    assert len(cards) >= 6
    labels = cards[0].state[3]  # type: ignore[index]
    assert len(labels) == len(cards)
    board.text.sizes.clear()  # what the word cards alone draw: each label, or its lines
    for card in cards:
        card.draw(board.canvas)
    drawn = dict(board.text.sizes)
    assert all(any(text in label for label in labels) for text in drawn)
    assert len(set(drawn.values())) == 1, drawn
    assert min(drawn.values()) >= MIN_FONT
    if code != "ja":  # "ワイルド ショーダウン" alone needs two lines at 16 px
        assert set(labels) <= set(drawn), f"wrapped: {set(labels) - set(drawn)}"


def test_a_long_chinese_name_wraps_evenly_when_it_must(board: Scoreboard) -> None:
    """Too narrow for one line, "万能并罚抽四张牌" breaks in the middle, not before "张牌"."""
    board.set_language("zh_CN")
    box = board.layout.rect(pygame.Rect(0, 0, 100, 60))
    lines = board.text._wrap("万能并罚抽四张牌", box.width, 18, True)
    assert lines == ["万能并罚", "抽四张牌"]
