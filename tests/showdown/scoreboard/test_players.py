"""Players who come back: kept across games and evenings, seated with one tap each, each with a
colour of their own from a colour-blind-safe set."""

from __future__ import annotations

import itertools

import pytest

from showdown.game.colours import game_colours
from showdown.game.session import Session
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.colour_vision import (
    PLAYER_MIN_DELTA_E,
    Deficiency,
    colour_difference,
    simulate_colour,
)
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.widgets import Bar
from tests.showdown.scoreboard.helpers import shot, touch, widget


def setup_of(board: Scoreboard) -> SetupScreen:
    screen = board.screens["setup"]
    assert isinstance(screen, SetupScreen)
    return screen


def test_players_named_in_a_game_are_kept_across_games_and_restarts(
    board: Scoreboard, table: SessionPort
) -> None:
    setup = setup_of(board)
    setup.count = 3
    setup.rename(0, "Ana")
    setup.rename(1, "Budi")  # the third seat keeps its default name, "Player 3"
    touch(board, "start")
    assert table.session.state is not None
    again = Session(table.session.journal)  # the next evening: the same journal
    assert [name for name, _colour in again.journal.players()] == ["Ana", "Budi"]
    assert [p.name for p in SessionPort(again).roster()] == ["Ana", "Budi"]


def test_one_tap_per_player_seats_them_on_set_up(board: Scoreboard, table: SessionPort) -> None:
    table.session.journal.remember_players(["Chen", "Ana", "Budi", "Dewi", "Eko"])
    board.go("setup")
    touch(board, "players")
    assert board.current == "players"
    for name in ("Chen", "Ana", "Budi", "Dewi", "Eko"):  # five taps, one more than the seats
        touch(board, f"player:{name}")
    shot(board, "players")
    touch(board, "done")
    setup = setup_of(board)
    assert setup.count == 5
    assert [setup.recorded_name(seat) for seat in range(5)] == ["Chen", "Ana", "Budi", "Dewi",
                                                                "Eko"]
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.players == ("Chen", "Ana", "Budi", "Dewi", "Eko")


def test_a_colour_picked_is_kept_and_drawn_in_the_next_games(
    board: Scoreboard, table: SessionPort
) -> None:
    table.session.journal.remember_players(["Ana", "Budi"])
    board.go("setup")
    touch(board, "fewer")
    touch(board, "fewer")
    touch(board, "players")
    touch(board, "player:Ana")
    touch(board, "colour:orange")
    touch(board, "player:Budi")
    touch(board, "done")
    assert dict(table.session.journal.players())["Ana"] == "orange"
    touch(board, "start")
    assert table.view().players[0].colour == theme.PLAYER_PALETTE["orange"]
    board.go("table")
    bar = widget(board, "bar0")
    assert isinstance(bar, Bar) and bar.colour == theme.PLAYER_PALETTE["orange"]


def test_two_players_never_share_a_colour_in_a_game() -> None:
    picked = {"Ana": "blue", "Budi": "blue", "Chen": None}
    colours = game_colours(["Ana", "Budi", "Chen"], picked)
    assert colours[0] == theme.PLAYER_PALETTE["blue"]
    assert len(set(colours)) == 3
    ten = game_colours([f"P{i}" for i in range(10)], {f"P{i}": "red" for i in range(10)})
    assert len(set(ten)) == 10


@pytest.mark.parametrize("deficiency", [None, *Deficiency], ids=lambda d: getattr(d, "value",
                                                                                    "normal"))
def test_the_players_colours_stay_apart_under_colour_blindness(
    deficiency: Deficiency | None,
) -> None:
    def seen(colour: theme.Colour) -> theme.Colour:
        return colour if deficiency is None else simulate_colour(colour, deficiency)

    for (a, first), (b, second) in itertools.combinations(theme.PLAYER_PALETTE.items(), 2):
        assert colour_difference(seen(first), seen(second)) >= PLAYER_MIN_DELTA_E, (a, b)


def test_picking_a_seated_players_colour_leaves_them_in_their_seat(
    board: Scoreboard, table: SessionPort
) -> None:
    """Issue 37, item 12: Ben, seated third, chooses a colour while Set-up's seat 7 is chosen:
    he stays third (he went to seat 7), and the next player tapped takes seat 7."""
    table.session.journal.remember_players(["Eko", "Ben", "Ana", "Budi"])
    board.go("setup")
    for _ in range(4):
        touch(board, "more")  # eight seats
    touch(board, "players")
    for name in ("Ana", "Budi", "Ben"):
        touch(board, f"player:{name}")
    touch(board, "done")
    touch(board, "seat6")  # seat 7
    touch(board, "players")
    touch(board, "player:Ben")
    assert widget(board, "colour:caption").text == "Ben's colour"  # type: ignore[attr-defined]
    touch(board, "colour:green")
    assert widget(board, "player:Ben").state[0] == "Ben · seat 3"  # type: ignore[attr-defined]
    touch(board, "player:Eko")
    touch(board, "done")
    setup = setup_of(board)
    assert [setup.name_of(seat) for seat in range(8)] == [
        "Ana", "Budi", "Ben", "Player 4", "Player 5", "Player 6", "Eko", "Player 8"]
    assert dict(table.session.journal.players())["Ben"] == "green"
    touch(board, "start")
    assert table.view().players[2].colour == theme.PLAYER_PALETTE["green"]
