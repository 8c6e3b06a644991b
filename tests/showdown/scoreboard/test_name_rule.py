"""Set-up's keyboard follows the name rule every door applies (:mod:`showdown.game.names`): what
no name may hold is not typed, and Done waits for a name the rule takes."""

from __future__ import annotations

import pygame

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from tests.showdown.scoreboard.helpers import touch, widget

RLO = "\u202e"


def test_set_up_types_no_direction_override_and_keeps_done_for_a_name(
    board: Scoreboard, table: SessionPort
) -> None:
    """A USB keyboard's U+202E or tab never reaches the name being typed; a name of nothing
    that shows (a lone joiner) is not taken: Done waits for a name the rule takes."""
    touch(board, "fewer")
    touch(board, "fewer")
    touch(board, "rename")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"Ad{RLO}a\t"))
    board.pump()
    names = board.screens["names"]
    assert names.buffer == "Ada"  # type: ignore[attr-defined]
    touch(board, "clear")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text="\u200d"))
    board.pump()
    board.frame()
    assert not widget(board, "done").enabled  # type: ignore[attr-defined]
    touch(board, "done")
    assert board.current == "names"
    touch(board, "clear")
    pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=f"Bo{RLO}"))
    board.pump()
    board.frame()
    touch(board, "done")
    assert board.current == "setup"
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.players[0] == "Bo"
