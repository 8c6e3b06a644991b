"""The colour-vision model and the contrast measure, on published known answers."""

from __future__ import annotations

import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from showdown.scoreboard.colour_vision import (
    CUE_MIN_DELTA_E,
    Deficiency,
    colour_difference,
    contrast_ratio,
    delta_e_2000,
    differing_fraction,
    dominant_colours,
    simulate_colour,
    simulate_surface,
    srgb_to_lab,
)

channel = st.integers(0, 255)
colours = st.tuples(channel, channel, channel)


@pytest.mark.parametrize(
    ("lab1", "lab2", "expected"),
    [  # Sharma, Wu & Dalal (2005), test data pairs 1, 7, 17, 25 and 34
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ],
)
def test_ciede2000_matches_the_published_test_data(
    lab1: tuple[float, float, float], lab2: tuple[float, float, float], expected: float
) -> None:
    assert delta_e_2000(lab1, lab2) == pytest.approx(expected, abs=5e-5)
    assert delta_e_2000(lab2, lab1) == pytest.approx(expected, abs=5e-5)


def test_lab_of_srgb_primaries() -> None:
    assert srgb_to_lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert srgb_to_lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.01)


@pytest.mark.parametrize("deficiency", list(Deficiency))
def test_greys_look_the_same_to_everyone(deficiency: Deficiency) -> None:
    for level in (0, 64, 128, 255):
        grey = (level, level, level)
        simulated = simulate_colour(grey, deficiency)
        assert colour_difference(grey, simulated) < 1.0


def test_red_and_green_collapse_for_deuteranopes_but_not_for_tritanopes() -> None:
    """The model reproduces the problem the cues solve: the classic UNO red and green merge."""
    red, green = (215, 38, 0), (55, 151, 17)
    assert colour_difference(red, green) > 50
    deutan = colour_difference(*(simulate_colour(c, Deficiency.DEUTERANOPIA) for c in (red, green)))
    tritan = colour_difference(*(simulate_colour(c, Deficiency.TRITANOPIA) for c in (red, green)))
    assert deutan < 5 < CUE_MIN_DELTA_E < tritan


@given(colours, colours)
def test_colour_difference_is_a_symmetric_non_negative_measure(
    a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    assert colour_difference(a, a) == pytest.approx(0.0, abs=1e-9)
    assert colour_difference(a, b) == pytest.approx(colour_difference(b, a), abs=1e-9)
    assert colour_difference(a, b) >= 0


@given(colours, st.sampled_from(list(Deficiency)))
def test_simulated_colours_are_valid_pixels(rgb: tuple[int, int, int], d: Deficiency) -> None:
    assert all(0 <= c <= 255 for c in simulate_colour(rgb, d))


def test_wcag_contrast_ratio_known_values() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio((10, 20, 30), (10, 20, 30)) == pytest.approx(1.0)


def test_a_surface_is_simulated_pixel_by_pixel() -> None:
    surface = pygame.Surface((40, 20))
    surface.fill((215, 38, 0))
    pygame.draw.rect(surface, (55, 151, 17), pygame.Rect(20, 0, 20, 20))
    seen = simulate_surface(surface, Deficiency.DEUTERANOPIA)
    assert seen.get_size() == (40, 20)
    assert tuple(seen.get_at((5, 5)))[:3] == simulate_colour((215, 38, 0), Deficiency.DEUTERANOPIA)
    assert tuple(seen.get_at((35, 5)))[:3] == simulate_colour(
        (55, 151, 17), Deficiency.DEUTERANOPIA
    )
    assert differing_fraction(surface, seen, 10.0) == pytest.approx(1.0)
    assert differing_fraction(seen, seen, 1.0) == 0.0
    assert dominant_colours(surface, 2) == [(215, 38, 0), (55, 151, 17)] or dominant_colours(
        surface, 2
    ) == [(55, 151, 17), (215, 38, 0)]


def test_surfaces_of_different_sizes_cannot_be_compared() -> None:
    with pytest.raises(ValueError, match="sizes differ"):
        differing_fraction(pygame.Surface((2, 2)), pygame.Surface((3, 2)), 1.0)
