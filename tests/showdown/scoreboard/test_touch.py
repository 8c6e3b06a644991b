"""Touch: fingers act once, the mouse still works, targets are finger-sized, any screen size."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.layout import MIN_TARGET
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.touch import SDL_TOUCH_MOUSEID, finger_event
from showdown.scoreboard.widgets import Button, Widget
from tests.showdown.scoreboard.helpers import shot, start_game, touch, widget


def setup_count(board: Scoreboard) -> int:
    screen = board.screens["setup"]
    assert isinstance(screen, SetupScreen)
    return screen.count


def centre(board: Scoreboard, widget_id: str) -> tuple[int, int]:
    rect = board.layout.rect(widget(board, widget_id).rect)
    return rect.center


def test_a_touch_acts_once_though_sdl_also_sends_a_mouse_click(board: Scoreboard) -> None:
    x, y = centre(board, "more")
    w, h = board.window.get_size()
    before = setup_count(board)
    for event in (
        finger_event(pygame.FINGERDOWN, x / w, y / h),
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=True,
                           which=SDL_TOUCH_MOUSEID),
        finger_event(pygame.FINGERUP, x / w, y / h),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1, touch=True,
                           which=SDL_TOUCH_MOUSEID),
    ):
        pygame.event.post(event)
    board.pump()
    assert setup_count(board) == before + 1


def test_a_real_mouse_click_still_works(board: Scoreboard) -> None:
    x, y = centre(board, "more")
    before = setup_count(board)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1,
                                         touch=False, which=0))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(x, y), button=1,
                                         touch=False, which=0))
    board.pump()
    assert setup_count(board) == before + 1


def test_sliding_off_a_button_cancels_the_tap(board: Scoreboard) -> None:
    x, y = centre(board, "more")
    w, h = board.window.get_size()
    before = setup_count(board)
    pygame.event.post(finger_event(pygame.FINGERDOWN, x / w, y / h))
    pygame.event.post(finger_event(pygame.FINGERUP, 0.5, 0.95))
    board.pump()
    assert setup_count(board) == before


def test_the_cursor_is_hidden_and_fingers_still_land(board: Scoreboard) -> None:
    assert not pygame.mouse.get_visible()
    before = setup_count(board)
    touch(board, "more")
    assert setup_count(board) == before + 1


def tappable(widgets: list[Widget]) -> list[Widget]:
    return [w for w in widgets if w.action is not None
            and not (isinstance(w, Button) and not w.enabled)]


def test_every_touch_target_is_at_least_48_pixels(board: Scoreboard,
                                                  table: SessionPort) -> None:
    small: dict[str, list[str]] = {}

    def check(name: str) -> None:
        board.frame()
        for w in tappable(board.widgets()):
            real = board.layout.rect(w.rect)
            if real.width < MIN_TARGET or real.height < MIN_TARGET:
                small.setdefault(name, []).append(f"{w.id} {real.size}")

    check("setup")
    for button in ("preset", "mode"):
        touch(board, button)
        check(f"choose-{button}")
        touch(board, "cancel")
    board.go("names")
    check("names")
    start_game(board, players=10)
    for name in ("table", "penalty", "showdown", "round", "history", "chart", "stats",
                 "settings", "games", "gameover"):
        board.go(name)
        check(name)
    board.go("round")
    touch(board, "cards-mode")
    check("round-cards")
    assert small == {}


@pytest.fixture(params=[(1280, 720), (480, 320), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def sized_board(request: pytest.FixtureRequest, table: SessionPort) -> Iterator[Scoreboard]:
    board = Scoreboard(table, request.param)
    board.frame()
    yield board
    board.close()


def test_other_screen_sizes_scale_and_taps_still_land(sized_board: Scoreboard,
                                                      table: SessionPort) -> None:
    start_game(sized_board, players=3)
    state = table.session.state
    assert state is not None and len(state.players) == 3
    more = sized_board.layout.rect(widget(sized_board, "nav:stats").rect)
    assert more.width == pytest.approx(widget(sized_board, "nav:stats").rect.width
                                       * sized_board.layout.scale, abs=2)
    sized_board.text.overflows.clear()
    sized_board.painter.invalidate()
    sized_board.frame()
    w, h = sized_board.window.get_size()
    shot(sized_board, f"table-{w}x{h}")
