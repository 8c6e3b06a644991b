"""Cues that never rely on colour alone, in words every language tells apart."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from showdown.scoreboard.accessibility import (
    CountdownPhase,
    CueSettings,
    Side,
    countdown_word,
    false_start_message,
    release_paddle_message,
)
from showdown.scoreboard.i18n import LANGUAGES, set_language, use_language
from showdown.unit.config import UnitSettings


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    set_language("en")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_waiting_and_go_are_different_words(code: str) -> None:
    with use_language(code):
        waiting = countdown_word(CountdownPhase.WAITING)
        go = countdown_word(CountdownPhase.GO)
    assert waiting
    assert go
    assert waiting != go


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_false_start_names_the_player_and_points_to_their_side(code: str) -> None:
    with use_language(code):
        left = false_start_message("Ana", Side.LEFT)
        right = false_start_message("李雷", Side.RIGHT)
        release = release_paddle_message()
    assert "Ana" in left
    assert "←" in left
    assert "李雷" in right
    assert "→" in right
    assert release


def test_every_cue_is_on_by_default_and_each_can_be_turned_off() -> None:
    defaults = CueSettings()
    assert all(vars(defaults).values())
    assert not CueSettings(countdown_words=False).countdown_words


def test_the_units_go_tone_differs_from_the_countdown_beeps_in_pitch_and_pattern() -> None:
    """The unit's part of the cue (showdown.unit.config); checked here because this issue asks."""
    settings = UnitSettings()
    assert settings.go_tone.hz != settings.beat_tone.hz
    assert settings.go_tone.pattern_ms != settings.beat_tone.pattern_ms
    with pytest.raises(ValueError, match="pitch must differ"):
        UnitSettings(go_tone=settings.beat_tone.model_copy(update={"pattern_ms": (90, 90)}))
