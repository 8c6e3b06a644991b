"""The scoreboard's own drawings, seen through protanopia and deuteranopia, stay apart.

Rendered with the scoreboard's drawing code (the showdown screen's countdown light, the card
swatches of the round-end tally), passed pixel by pixel through the Machado (2009) simulation,
and measured with CIEDE2000 against the thresholds stated in
:mod:`showdown.scoreboard.colour_vision`.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pygame
import pytest

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.scoreboard import theme
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.cards import paint_card
from showdown.scoreboard.colour_vision import (
    CARD_MIN_DELTA_E,
    CUE_MIN_DELTA_E,
    MARK_MIN_CONTRAST,
    Deficiency,
    colour_difference,
    contrast_ratio,
    differing_fraction,
    dominant_colours,
    simulate_colour,
    simulate_surface,
)
from showdown.scoreboard.i18n import LANGUAGES, set_language, use_language
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.screens.showdown import LIGHT
from showdown.scoreboard.text import TextRenderer
from showdown.scoreboard.view import ShowdownView, Stage
from showdown.scoreboard.widgets import Canvas

DICHROMACIES = [Deficiency.PROTANOPIA, Deficiency.DEUTERANOPIA]
ARTIFACTS = Path(__file__).resolve().parents[2] / "_artifacts" / "colour_vision"
RGB = tuple[int, int, int]


@pytest.fixture
def board(tmp_path: Path) -> Iterator[Scoreboard]:
    set_language("en")
    journal = Journal.open(tmp_path / "showdown.db")
    scoreboard = Scoreboard(SessionPort(Session(journal)))
    yield scoreboard
    scoreboard.close()
    journal.close()
    set_language("en")


def _light(board: Scoreboard, phase: Stage, cues: CueSettings) -> pygame.Surface:
    """The countdown light as the showdown screen draws it in ``phase``."""
    board.cues = cues
    board.port.unit_changed(ShowdownView(phase, "Ana", "Chen", 2, beat=1, beats=3))  # type: ignore[attr-defined]
    board.go("showdown")
    board.refresh()
    board.painter.invalidate()
    board.frame()
    return board.surface.subsurface(board.layout.rect(LIGHT)).copy()


def _fill(surface: pygame.Surface, background: RGB) -> RGB:
    """The light's own colour: the most frequent pixel that is not the background."""
    return next(c for c in dominant_colours(surface, 4) if c != background)


@pytest.mark.parametrize("deficiency", DICHROMACIES)
@pytest.mark.parametrize(
    "cues",
    [CueSettings(), CueSettings(countdown_words=False, countdown_shapes=False)],
    ids=["cues-on", "colour-only"],
)
def test_waiting_and_go_stay_apart(
    board: Scoreboard, deficiency: Deficiency, cues: CueSettings
) -> None:
    waiting = simulate_surface(_light(board, Stage.COUNTDOWN, cues), deficiency)
    go = simulate_surface(_light(board, Stage.GO, cues), deficiency)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, image in (("waiting", waiting), ("go", go)):
        pygame.image.save(image, ARTIFACTS / f"light-{name}-{deficiency.value}.png")
    background = simulate_colour(theme.BACKGROUND, deficiency)
    fills = _fill(waiting, background), _fill(go, background)
    assert colour_difference(*fills) >= CUE_MIN_DELTA_E, fills
    # Most of the light changes, not a thin edge: at least a third of its pixels.
    assert differing_fraction(waiting, go, CUE_MIN_DELTA_E) >= 1 / 3


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_waiting_and_go_differ_in_shape_and_word_without_any_colour(
    board: Scoreboard, code: str
) -> None:
    """Seen in grey (no hue at all), the shape and the word alone still tell them apart."""
    with use_language(code):
        waiting = _light(board, Stage.COUNTDOWN, CueSettings())
        go = _light(board, Stage.GO, CueSettings())
    grey_waiting = pygame.transform.grayscale(waiting)
    grey_go = pygame.transform.grayscale(go)
    assert pygame.mask.from_threshold(grey_waiting, (240, 240, 240), (16, 16, 16)).count() > 0
    assert differing_fraction(grey_waiting, grey_go, CUE_MIN_DELTA_E) >= 0.05


def _swatches(marks: bool, face: str = "7") -> dict[str, pygame.Surface]:
    """Each card colour as the round-end tally draws it (a number card, or a bare swatch)."""
    pygame.font.init()
    size = (120, 160)
    layout = Layout(*size, design=size)
    drawn = {}
    for colour in theme.CARD_COLOURS:
        surface = pygame.Surface(size)
        canvas = Canvas(surface, layout, TextRenderer(layout))
        paint_card(canvas, pygame.Rect(0, 0, *size), colour, face, marks=marks)
        drawn[colour] = surface
    return drawn


@pytest.mark.parametrize("deficiency", DICHROMACIES)
def test_the_four_card_colours_stay_apart(deficiency: Deficiency) -> None:
    fills = {}
    for colour, surface in _swatches(marks=False, face="").items():
        fills[colour] = dominant_colours(simulate_surface(surface, deficiency), 1)[0]
    too_close = {
        (a, b): round(colour_difference(fills[a], fills[b]), 1)
        for a, b in combinations(fills, 2)
        if colour_difference(fills[a], fills[b]) < CARD_MIN_DELTA_E
    }
    assert too_close == {}


@pytest.mark.parametrize("deficiency", DICHROMACIES)
def test_each_card_carries_a_readable_mark_and_its_own_pattern(deficiency: Deficiency) -> None:
    plain = _swatches(marks=False)
    marked = _swatches(marks=True)
    for colour in theme.CARD_COLOURS:
        # The mark and pattern change the card visibly...
        assert differing_fraction(plain[colour], marked[colour], CARD_MIN_DELTA_E) > 0.02
        # ...and the mark's text stands out from the plate it sits on, for everyone.
        ink, plate = (simulate_colour(c, deficiency) for c in (theme.TEXT, (20, 20, 20)))
        assert contrast_ratio(ink, plate) >= MARK_MIN_CONTRAST
    patterns = {style.pattern for style in theme.CARD_COLOURS.values()}
    assert len(patterns) == 4
