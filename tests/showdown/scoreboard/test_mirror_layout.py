"""The unit's events as the showdown screen shows them, and the design-to-window mapping."""

from __future__ import annotations

import pygame
from hypothesis import given
from hypothesis import strategies as st

from showdown.game.live import mirror
from showdown.scoreboard.layout import DESIGN_HEIGHT, DESIGN_WIDTH, Layout
from showdown.scoreboard.view import ShowdownView, Side, Stage
from showdown.unit import hardware
from showdown.unit.events import (
    Armed,
    CountdownBeat,
    FalseStart,
    Go,
    Launching,
    PaddleHeld,
    ShowdownOutcome,
)
from showdown.unit.verdict import Reason

LOADED = ShowdownView(Stage.LOADED, "Ana", "Bob", 3)
MS = 1_000_000


def test_a_race_from_arming_to_the_result() -> None:
    view = mirror(LOADED, Armed(1, 0))
    assert view.phase is Stage.COUNTDOWN
    view = mirror(view, CountdownBeat(1, 2, 3, 500 * MS))
    assert (view.phase, view.beat, view.beats) == (Stage.COUNTDOWN, 2, 3)
    view = mirror(view, Go(1, 3000 * MS))
    assert view.phase is Stage.GO
    view = mirror(view, Launching(1, hardware.Side.RIGHT, 3180 * MS, 3181 * MS))
    assert (view.phase, view.launch_toward, view.loser) == (Stage.LAUNCHING, Side.RIGHT, "Bob")
    result = ShowdownOutcome(
        1, "Ana", "Bob", 3, hardware.Side.LEFT, hardware.Side.RIGHT, Reason.RACE,
        go_ns=3000 * MS, press_ns={hardware.Side.LEFT: 3180 * MS, hardware.Side.RIGHT: 3250 * MS},
        counts={hardware.Side.RIGHT: 3}, launched_toward=hardware.Side.RIGHT)
    view = mirror(view, result)
    assert (view.phase, view.winner, view.loser) == (Stage.RESULT, "Ana", "Bob")
    assert (view.left_ms, view.right_ms) == (180.0, 250.0)
    assert view.counts == (0, 3)


def test_arming_brings_the_players_loaded_and_the_launch_names_the_winner() -> None:
    # The unit was loaded by someone else (virtual players): the last showdown's names go.
    last = ShowdownView(Stage.RESULT, "Ada", "Ben", 2, winner="Ada", loser="Ben", left_ms=197.0)
    view = mirror(last, Armed(7, 0, "Ben", "Cleo", 3))
    assert (view.left, view.right, view.cards, view.winner, view.left_ms) == (
        "Ben", "Cleo", 3, None, None)
    view = mirror(view, Go(7, 2000 * MS))
    view = mirror(view, Launching(7, hardware.Side.LEFT, 2195 * MS, 2196 * MS))
    assert (view.winner, view.loser, view.right_ms, view.left_ms) == ("Cleo", "Ben", 195.0, None)


def test_a_false_start_points_at_the_early_player_and_shows_no_reaction() -> None:
    view = mirror(mirror(LOADED, Armed(1, 0)), FalseStart(1, hardware.Side.RIGHT, 900 * MS))
    assert (view.phase, view.false_start_side) == (Stage.FALSE_START, Side.RIGHT)
    result = ShowdownOutcome(
        1, "Ana", "Bob", 3, hardware.Side.LEFT, hardware.Side.RIGHT, Reason.FALSE_START,
        go_ns=None, press_ns={hardware.Side.RIGHT: 900 * MS})
    view = mirror(view, result)
    assert (view.phase, view.false_start_side, view.loser) == (Stage.RESULT, Side.RIGHT, "Bob")
    assert view.right_ms is None


def test_a_held_paddle_asks_for_release_and_a_timeout_is_a_replay() -> None:
    held = mirror(LOADED, PaddleHeld((hardware.Side.LEFT,), 0))
    assert (held.phase, held.false_start_side) == (Stage.RELEASE, Side.LEFT)
    timeout = ShowdownOutcome(1, "Ana", "Bob", 3, None, None, Reason.TIMEOUT, go_ns=5 * MS)
    assert mirror(mirror(LOADED, Armed(1, 0)), timeout).phase is Stage.NO_CONTEST


sizes = st.tuples(st.integers(160, 3840), st.integers(96, 2160))


@given(sizes, st.integers(0, DESIGN_WIDTH - 1), st.integers(0, DESIGN_HEIGHT - 1))
def test_a_touch_maps_back_to_the_design_point_it_was_drawn_at(
    size: tuple[int, int], x: int, y: int
) -> None:
    layout = Layout(*size)
    real = layout.rect(pygame.Rect(x, y, 1, 1))
    back = layout.to_design(real.center)
    assert abs(back[0] - (x + 0.5)) <= 1 / layout.scale + 0.5
    assert abs(back[1] - (y + 0.5)) <= 1 / layout.scale + 0.5


@given(sizes)
def test_the_design_canvas_always_fits_the_window(size: tuple[int, int]) -> None:
    layout = Layout(*size)
    whole = layout.rect(pygame.Rect(0, 0, DESIGN_WIDTH, DESIGN_HEIGHT))
    assert pygame.Rect(0, 0, *size).contains(whole)
    assert whole.width == size[0] or whole.height == size[1] or abs(
        whole.width - size[0]) <= 1 or abs(whole.height - size[1]) <= 1
