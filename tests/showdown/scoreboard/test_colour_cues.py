"""Waiting and go, and the four card colours, stay apart for protanopes and deuteranopes.

The screens are rendered, passed through the Machado (2009) dichromacy simulation
(:mod:`showdown.scoreboard.colour_vision`), and measured with CIEDE2000 against the stated
thresholds. The
non-colour cues are checked too: waiting and go differ in shape and word, each card colour shows
its mark, and a false start is said in words.
"""

from __future__ import annotations

import itertools

import pygame
import pytest

from showdown.scoreboard import theme
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.cards import _PLATE
from showdown.scoreboard.colour_vision import (
    CARD_MIN_DELTA_E,
    CUE_MIN_DELTA_E,
    MARK_MIN_CONTRAST,
    Deficiency,
    colour_difference,
    contrast_ratio,
    dominant_colours,
    simulate_colour,
    simulate_surface,
)
from showdown.scoreboard.screens.showdown import LIGHT
from showdown.scoreboard.view import ShowdownView, Side, Stage
from tests.showdown.scoreboard.helpers import shot, start_game, touch, widget

DICHROMACIES = (Deficiency.PROTANOPIA, Deficiency.DEUTERANOPIA)


def light_region(board: Scoreboard, table: SessionPort, phase: Stage) -> pygame.Surface:
    table.unit_changed(ShowdownView(phase, "Player 1", "Player 2", 2, beat=1, beats=3))
    board.refresh()
    board.frame()
    return board.surface.subsurface(board.layout.rect(LIGHT)).copy()


def lit_colour(region: pygame.Surface) -> tuple[int, int, int]:
    """The light's own colour: the most common pixel that is not the background or text."""
    for rgb in dominant_colours(region, 6):
        if rgb not in (theme.BACKGROUND, theme.TEXT):
            return rgb
    raise AssertionError("the light is not drawn")


def shape_mask(region: pygame.Surface) -> pygame.mask.Mask:
    """Where the light is drawn at all, whatever its colour."""
    return pygame.mask.from_threshold(region, theme.BACKGROUND, (8, 8, 8, 255)).copy()


@pytest.fixture
def showdown_board(board: Scoreboard) -> Scoreboard:
    start_game(board, players=2)
    board.go("showdown")
    return board


@pytest.mark.parametrize("deficiency", DICHROMACIES, ids=lambda d: d.value)
def test_waiting_and_go_stay_apart_in_colour(showdown_board: Scoreboard, table: SessionPort,
                                             deficiency: Deficiency) -> None:
    waiting = simulate_surface(light_region(showdown_board, table, Stage.COUNTDOWN), deficiency)
    go = simulate_surface(light_region(showdown_board, table, Stage.GO), deficiency)
    assert colour_difference(lit_colour(waiting), lit_colour(go)) >= CUE_MIN_DELTA_E


def test_waiting_and_go_differ_in_shape_and_word(showdown_board: Scoreboard,
                                                 table: SessionPort) -> None:
    waiting = light_region(showdown_board, table, Stage.COUNTDOWN)
    waiting_word = widget(showdown_board, "status").text  # type: ignore[attr-defined]
    shot(showdown_board, "cue-waiting")
    go = light_region(showdown_board, table, Stage.GO)
    go_word = widget(showdown_board, "status").text  # type: ignore[attr-defined]
    shot(showdown_board, "cue-go")
    outline_waiting = shape_mask(waiting)
    outline_go = shape_mask(go)
    # An octagon and a circle of the same size: their outlines differ in a visible share.
    overlap = outline_waiting.overlap_area(outline_go, (0, 0))
    union = outline_waiting.count() + outline_go.count() - overlap
    assert 1 - overlap / union > 0.05
    assert waiting_word != go_word


def test_with_cues_off_only_colour_remains(showdown_board: Scoreboard,
                                           table: SessionPort) -> None:
    showdown_board.cues = CueSettings(countdown_words=False, countdown_shapes=False,
                                      colour_marks=False, false_start_words=False)
    showdown_board.painter.invalidate()
    waiting = shape_mask(light_region(showdown_board, table, Stage.COUNTDOWN))
    go = shape_mask(light_region(showdown_board, table, Stage.GO))
    assert waiting.overlap_area(go, (0, 0)) == waiting.count() == go.count()


def test_a_false_start_is_said_in_words(showdown_board: Scoreboard,
                                        table: SessionPort) -> None:
    table.unit_changed(ShowdownView(Stage.FALSE_START, "Player 1", "Player 2", 2,
                                    false_start_side=Side.RIGHT))
    showdown_board.refresh()
    story = widget(showdown_board, "story").text  # type: ignore[attr-defined]
    assert "Player 2" in story
    assert "right" in story


@pytest.mark.parametrize("deficiency", DICHROMACIES, ids=lambda d: d.value)
def test_card_colours_stay_apart_and_carry_marks(board: Scoreboard, deficiency: Deficiency) -> None:
    start_game(board, players=2)
    board.go("round")
    touch(board, "cards-mode")
    board.frame()
    shot(board, f"cards-{deficiency.value}-source")
    seen = {}
    for colour in theme.CARD_COLOURS:
        swatch = widget(board, f"colour:{colour}")
        region = board.surface.subsurface(board.layout.rect(swatch.rect)).copy()
        simulated = simulate_surface(region, deficiency)
        chrome = {simulate_colour(c, deficiency) for c in (
            theme.BACKGROUND, theme.PANEL_LIGHT, theme.ACCENT, theme.TEXT, _PLATE,
            (255, 255, 255))}
        seen[colour] = next(rgb for rgb in dominant_colours(simulated, 8) if rgb not in chrome)
        assert contrast_ratio(theme.TEXT, _PLATE) >= MARK_MIN_CONTRAST
    pygame.image.save(simulate_surface(board.surface, deficiency),
                      str(shot(board, f"cards-{deficiency.value}")))
    for first, second in itertools.combinations(seen, 2):
        assert colour_difference(seen[first], seen[second]) >= CARD_MIN_DELTA_E, (first, second)
