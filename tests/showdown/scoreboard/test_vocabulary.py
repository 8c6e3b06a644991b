"""The game's words in every language: the seeds' card names, engine keys in any spelling."""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum, IntEnum, StrEnum

import pytest

from engine.rules import PRESETS
from engine.scoring import ScoringMode
from showdown.scoreboard import vocabulary
from showdown.scoreboard.i18n import LANGUAGES, set_language, use_language


class _Colour(IntEnum):  # the shape of engine.cards.Colour
    RED = 0
    GREEN = 2


class _Mode(StrEnum):  # the shape of engine.scoring.ScoringMode
    RUNNING_TALLY = "running-tally"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


# The seed sheets' own names: 000 (zh_CN, zh_HK, id) and 003 (ja).
SEED_NAMES = {
    "skip": ("Skip", "跳过", "略過", "Lompatan", "スキップ"),
    "reverse": ("Reverse", "反转牌", "反方向", "Kebalikan", "リバース"),
    "draw_two": ("Draw Two", "罚抽两张牌", "罰抽兩張", "Ambil Dua", "ドロー2"),
    "wild": ("Wild", "万能牌", "轉色", "Wild", "ワイルド"),
    "wild_draw_four": (
        "Wild Draw Four",
        "万能并罚抽四张牌",
        "轉色及罰抽4張",
        "Wild Draw Four",
        "ワイルド ドロー4",
    ),
    "wild_shuffle_hands": (
        "Wild Shuffle Hands",
        "万能洗牌手牌",
        "轉色及洗牌",
        "Wild Shuffle Hand",
        "シャッフルワイルド",
    ),
    "wild_customizable": (
        "Wild Customizable",
        "万能定制牌",
        "話事",
        "Wild Customizable",
        "白いワイルド",
    ),
}


@pytest.mark.parametrize(("kind", "names"), SEED_NAMES.items())
def test_card_names_follow_the_seed_sheets(kind: str, names: tuple[str, ...]) -> None:
    for code, expected in zip(LANGUAGES, names, strict=True):
        with use_language(code):
            assert vocabulary.kind_name(kind) == expected, code


def test_the_four_colours_have_four_different_marks_in_every_language() -> None:
    for code in LANGUAGES:
        with use_language(code):
            marks = [vocabulary.colour_mark(c) for c in vocabulary.COLOURS]
            names = [vocabulary.colour_name(c) for c in vocabulary.COLOURS]
        assert len(set(marks)) == 4, (code, marks)
        assert len(set(names)) == 4, (code, names)
        assert all(len(mark) == 1 for mark in marks), (code, marks)


def test_engine_enums_and_stored_strings_find_the_same_words() -> None:
    set_language("ja")
    assert vocabulary.colour_name(_Colour.RED) == vocabulary.colour_name("red") == "赤"
    assert vocabulary.colour_mark(_Colour.GREEN) == "緑"
    assert vocabulary.scoring_mode_name(_Mode.RUNNING_TALLY) == "罰点累計"
    assert vocabulary.scoring_mode_name("running-tally") == "罰点累計"
    assert vocabulary.preset_name("edition-2018") == "2018年版"


def test_number_kinds_are_their_digits_and_unknown_names_pass_through() -> None:
    class _Kind(Enum):
        SEVEN = 7

    set_language("zh_CN")
    assert vocabulary.kind_name(_Kind.SEVEN) == "7"
    assert vocabulary.kind_name("zero") == "0"
    assert vocabulary.preset_name("Grandma's rules") == "Grandma's rules"
    assert vocabulary.deck_name("my-deck") == "my-deck"


def test_every_table_entry_is_translated_in_every_language() -> None:
    tables = [
        vocabulary.COLOURS,
        vocabulary.KINDS,
        vocabulary.SCORING_MODES,
        vocabulary.PRESETS,
        vocabulary.DECKS,
        vocabulary.CUSTOM_EFFECTS,
    ]
    functions = [
        vocabulary.colour_name,
        vocabulary.kind_name,
        vocabulary.scoring_mode_name,
        vocabulary.preset_name,
        vocabulary.deck_name,
        vocabulary.custom_effect_name,
    ]
    for code in LANGUAGES:
        if code == "en":
            continue
        with use_language(code):
            for table, name in zip(tables, functions, strict=True):
                same = [k for k, english in table.items() if name(k) == english]
                # Indonesian keeps the English names of the wild cards, as its seed sheet does.
                allowed = (
                    {
                        "wild",
                        "wild_draw_four",
                        "wild_customizable",
                        "wild_swap_hands",
                        "wild_showdown",
                        "showdown",
                    }
                    if code == "id"
                    else set()
                )
                assert set(same) <= allowed, (code, same)


def test_every_preset_and_scoring_mode_has_its_line_beside_its_name() -> None:
    """Set-up's lists read each choice's name and its line from the same key: a preset or a
    mode the engine adds gets both, or neither shows."""
    presets = {vocabulary.key_of(name) for name in PRESETS}
    modes = {vocabulary.key_of(mode) for mode in ScoringMode}
    assert set(vocabulary.PRESETS) == set(vocabulary.PRESET_EXPLANATIONS) == presets
    assert set(vocabulary.SCORING_MODES) == set(vocabulary.SCORING_MODE_EXPLANATIONS) == modes
    assert vocabulary.preset_explanation("Grandma's rules") == ""
    with use_language("zh_HK"):
        assert vocabulary.preset_explanation("edition-2018").startswith("2018 年版規則")
        assert vocabulary.scoring_mode_explanation(ScoringMode.MEAN).startswith("每人累積")
