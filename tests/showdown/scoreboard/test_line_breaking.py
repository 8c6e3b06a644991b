"""Wrapped labels break where a reader expects: at spaces, and in CJK text only where Japanese
line-breaking rules (kinsoku) allow; never "ワイルド ド|ロー4" or a line that starts with "ー"."""

from __future__ import annotations

import pygame
from hypothesis import given
from hypothesis import strategies as st

from showdown.scoreboard.fonts import current_fonts
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.text import NO_LINE_END, NO_LINE_START, TextRenderer, break_units


def _renderer() -> TextRenderer:
    pygame.font.init()
    fonts = current_fonts("ja")
    return TextRenderer(Layout(800, 480), fonts=lambda: fonts)


def _width(renderer: TextRenderer, text: str, size: int) -> int:
    return int(renderer.font(size).size(text)[0])


def test_card_labels_break_at_their_space_not_inside_a_word() -> None:
    renderer = _renderer()
    for label, words in (("ワイルド ドロー4", ["ワイルド", "ドロー4"]),
                         ("ワイルド ショーダウン", ["ワイルド", "ショーダウン"])):
        # Narrower than the label, wider than either word: the only good break is the space.
        width = max(_width(renderer, word, 24) for word in words) + 2
        assert width < _width(renderer, label, 24)
        assert renderer._wrap(label, width, 24, False) == words


def test_japanese_without_spaces_never_starts_a_line_with_a_forbidden_character() -> None:
    renderer = _renderer()
    text = "ショーダウンで負けたプレイヤーは、カードを引きます。「ドロー」！"
    for width in range(_width(renderer, "ショー", 20), _width(renderer, text, 20), 7):
        lines = renderer._wrap(text, width, 20, False)
        assert "".join(lines) == text
        for line in lines[1:]:
            assert line[0] not in NO_LINE_START, (width, lines)
        for line in lines[:-1]:
            assert line[-1] not in NO_LINE_END, (width, lines)


def test_latin_words_are_never_cut() -> None:
    assert break_units("Showdown") == ["Showdown"]
    assert break_units("ドロー+2") == ["ド", "ロー", "+2"]


@given(st.text(alphabet="アイウエオカキクーっゃ。、「」（）ab12 ", max_size=30))
def test_pieces_rebuild_the_word_and_obey_kinsoku(word: str) -> None:
    units = break_units(word)
    assert "".join(units) == word
    for unit in units[1:]:
        assert unit[0] not in NO_LINE_START
    for unit in units[:-1]:
        assert unit[-1] not in NO_LINE_END
