"""A name is kept as typed: a USB keyboard's capitals stay, and the on-screen keys have a Shift
(tapped twice in a row: Caps lock) and start each word with a capital, like a phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.widgets import Button
from tests.showdown.scoreboard.helpers import shot, touch, widget
from tests.showdown.scoreboard.test_rematch import finish


class Clock:
    """The scoreboard's clock, moved by the test (seconds)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def board(table: SessionPort, clock: Clock) -> Iterator[Scoreboard]:
    set_language("en")
    scoreboard = Scoreboard(table, clock=clock)
    scoreboard.frame()
    yield scoreboard
    scoreboard.close()


def shown(board: Scoreboard, widget_id: str) -> str:
    return widget(board, widget_id).text  # type: ignore[attr-defined,no-any-return]


def shift_key(board: Scoreboard) -> Button:
    found = widget(board, "shift")
    assert isinstance(found, Button)
    return found


def keys(board: Scoreboard, letters: str) -> None:
    """Tap the keys of ``letters`` (the key's own letter: the case is Shift's)."""
    for letter in letters:
        touch(board, "space" if letter == " " else f"key:{letter.upper()}")


def first_player(table: SessionPort) -> str:
    state = table.session.state
    assert state is not None
    return state.players[0]


def test_a_usb_keyboard_name_keeps_its_capitals(board: Scoreboard, table: SessionPort) -> None:
    touch(board, "rename")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="DJ McKay"))
    board.pump()
    assert shown(board, "buffer") == "DJ McKay"
    touch(board, "done")
    assert shown(board, "seat0") == "DJ McKay (deals)"
    touch(board, "start")
    assert first_player(table) == "DJ McKay"


def test_the_keys_start_each_word_with_a_capital_and_shift_makes_one_more(
    board: Scoreboard, table: SessionPort
) -> None:
    touch(board, "rename")
    assert shift_key(board).selected  # an empty name starts with a capital...
    assert shown(board, "key:Q") == "Q"  # ...and the keys say so
    keys(board, "d")
    assert not shift_key(board).selected
    assert shown(board, "key:Q") == "q"
    touch(board, "shift")
    assert shift_key(board).selected and shown(board, "key:Q") == "Q"
    keys(board, "j mc")
    touch(board, "shift")
    keys(board, "kay")
    shot(board, "names-shift")
    assert shown(board, "buffer") == "DJ McKay"
    touch(board, "done")
    touch(board, "start")
    assert first_player(table) == "DJ McKay"


def test_shift_off_at_the_start_of_a_word_types_a_small_letter(board: Scoreboard) -> None:
    touch(board, "rename")
    keys(board, "ada ")
    assert shift_key(board).selected  # a new word
    touch(board, "shift")
    keys(board, "de")
    assert shown(board, "buffer") == "Ada de"


def test_shift_tapped_twice_in_a_row_locks_the_capitals_of_a_game_name(
    tmp_path: Path, clock: Clock
) -> None:
    with Journal.open(tmp_path / "evening.db") as journal:
        session = Session(journal)
        finish(session)
        set_language("en")
        board = Scoreboard(SessionPort(session), clock=clock)
        try:
            board.go("games")
            touch(board, "game0")
            touch(board, "rename")
            keys(board, "friday night ")
            touch(board, "shift")  # the word's own capital off...
            clock.now += 0.3
            touch(board, "shift")  # ...and at once again: Caps lock
            assert shown(board, "shift") == "Caps lock" and shift_key(board).selected
            keys(board, "uno")
            assert shown(board, "key:Q") == "Q"
            shot(board, "names-caps-lock")
            touch(board, "shift")
            assert shown(board, "shift") == "Shift" and not shift_key(board).selected
            assert shown(board, "key:Q") == "q"
            assert shown(board, "buffer") == "Friday Night UNO"
            touch(board, "done")
            assert Session(journal).kept_games()[0].name == "Friday Night UNO"
        finally:
            board.close()


def test_two_taps_of_shift_far_apart_do_not_lock(board: Scoreboard, clock: Clock) -> None:
    touch(board, "rename")
    keys(board, "a")
    touch(board, "shift")
    clock.now += 2
    touch(board, "shift")  # too late for a double tap: Shift off again
    assert shown(board, "shift") == "Shift" and not shift_key(board).selected
    clock.now += 2
    touch(board, "shift")
    keys(board, "b")
    touch(board, "shift")  # at once, but a letter came between the taps: no lock
    assert shown(board, "shift") == "Shift"
    keys(board, "cd")
    assert shown(board, "buffer") == "ABCd"
