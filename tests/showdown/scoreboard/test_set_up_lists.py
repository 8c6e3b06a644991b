"""Set-up explains itself: the rules and the scoring are chosen from a list that names every
choice with a line on what it changes, in every language, one tap each; the colour-free cues
and the total that draws pigs say what they do (issue 37, item 13)."""

from __future__ import annotations

import pytest

from engine.rules import PRESETS
from engine.scoring import ScoringMode
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, current_language
from showdown.scoreboard.widgets import Button, Choice, Label
from tests.showdown.scoreboard.helpers import shot, touch, widget


def text(board: Scoreboard, widget_id: str) -> str:
    found = widget(board, widget_id)
    assert isinstance(found, Label | Button), widget_id
    return found.text


def choices(board: Scoreboard) -> dict[str, Choice]:
    """The list shown now, by the key each choice is stored by."""
    board.frame()
    return {w.id.removeprefix("choice:"): w for w in board.widgets() if isinstance(w, Choice)}


def marked(board: Scoreboard) -> list[str]:
    """The keys of the choices the list marks as the current one."""
    return [key for key, choice in choices(board).items() if choice.selected]


def explained(board: Scoreboard, button: str) -> dict[str, tuple[str, str]]:
    """Open a set-up button's list; every choice's name and line (then Cancel)."""
    touch(board, button)
    assert board.current == "choose"
    shown = {key: (choice.name, choice.line) for key, choice in choices(board).items()}
    touch(board, "cancel")
    assert board.current == "setup"
    return shown


@pytest.mark.parametrize("preset", list(PRESETS))
def test_each_rule_set_is_one_tap_in_the_list_and_the_game_plays_it(
    board: Scoreboard, table: SessionPort, preset: str
) -> None:
    board.go("setup")
    touch(board, "preset")
    listed = choices(board)
    assert sorted(listed) == sorted(PRESETS)
    assert marked(board) == ["showdown"]
    touch(board, f"choice:{preset}")
    assert board.current == "setup"
    assert text(board, "preset") == listed[preset].name
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.preset == preset


@pytest.mark.parametrize("mode", list(ScoringMode))
def test_each_scoring_is_one_tap_in_the_list_and_the_game_keeps_it(
    board: Scoreboard, table: SessionPort, mode: ScoringMode
) -> None:
    board.go("setup")  # four players: partners can start too
    touch(board, "mode")
    listed = choices(board)
    assert sorted(listed) == sorted(str(m) for m in ScoringMode)
    assert marked(board) == ["standard"]
    touch(board, f"choice:{mode}")
    assert board.current == "setup"
    assert text(board, "mode") == listed[str(mode)].name
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.scoring.mode is mode


def test_rules_and_scoring_open_a_list_and_never_cycle(board: Scoreboard) -> None:
    """A tap on Rules or Scoring shows the list, changing nothing; Cancel keeps the choice,
    and the list marks the one chosen."""
    board.go("setup")
    before = (text(board, "preset"), text(board, "mode"))
    for button in ("preset", "mode"):
        touch(board, button)
        assert board.current == "choose"
        touch(board, "cancel")
        assert (text(board, "preset"), text(board, "mode")) == before
    touch(board, "mode")
    touch(board, "choice:partners")
    touch(board, "mode")
    assert marked(board) == ["partners"]
    shot(board, "choose-scoring")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_choice_says_what_it_changes_in_every_language(board: Scoreboard,
                                                            code: str) -> None:
    board.go("setup")
    english = {button: explained(board, button) for button in ("preset", "mode")}
    english_cues = text(board, "cues:line")
    touch(board, "mode")
    touch(board, "choice:hero")
    english_pigs = text(board, "target:line")
    board.set_language(code)
    assert text(board, "target:caption") != "Pig at" or code == "en"
    pigs = text(board, "target:line")
    assert pigs and (pigs != english_pigs or code == "en"), pigs
    cues = text(board, "cues:line")
    assert cues and (cues != english_cues or code == "en"), cues
    for button in ("preset", "mode"):
        shown = explained(board, button)
        assert len(shown) == 7 and shown.keys() == english[button].keys()
        for key, (name, line) in shown.items():
            assert name and line, (button, key)
            if code != "en":
                assert line != english[button][key][1], (button, key, line)


def test_the_language_is_one_tap_in_a_list_that_names_each_in_its_own_words(
    board: Scoreboard,
) -> None:
    """Nobody cycles through five languages they cannot read to find theirs: Set-up's Language
    lists every one by its own name, with what the language in use calls it under it."""
    board.go("setup")
    assert explained(board, "language") == {
        "en": ("English", "English"),
        "zh_CN": ("简体中文", "Simplified Chinese"),
        "zh_HK": ("繁體中文（香港）", "Traditional Chinese (Hong Kong)"),
        "id": ("Bahasa Indonesia", "Indonesian"),
        "ja": ("日本語", "Japanese"),
    }
    assert current_language() == "en"  # Cancel changed nothing
    touch(board, "language")
    assert marked(board) == ["en"]
    touch(board, "choice:ja")
    assert board.current == "setup"
    assert current_language() == "ja"
    assert text(board, "language") == "日本語"
    touch(board, "language")
    assert marked(board) == ["ja"]
    assert choices(board)["en"].line == "英語"
    touch(board, "choice:en")
    assert current_language() == "en"
