"""The figures on the live table's bars read in any player's colour (issue 37, item 14): "250 to
go" lies wholly on the bar's fill or wholly beyond it, never across its end, and its pixels stand
out from what lies under them by WCAG AA's 4.5:1."""

from __future__ import annotations

import pygame

from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.colour_vision import TEXT_MIN_CONTRAST, contrast_ratio
from showdown.scoreboard.widgets import Bar
from tests.showdown.scoreboard.helpers import shot, widget

RGB = tuple[int, int, int]


def pixels(board: Scoreboard, rect: pygame.Rect) -> list[list[RGB]]:
    """The window's pixels in ``rect`` (window pixels), row by row."""
    area = board.window.subsurface(rect)
    return [[tuple(area.get_at((x, y)))[:3] for x in range(rect.width)]  # type: ignore[misc]
            for y in range(rect.height)]


def words_seen(board: Scoreboard, bar: Bar) -> tuple[list[int], float]:
    """Where a bar's words are drawn across the window (the columns whose pixels they change)
    and the contrast of their strongest pixel with what lies under it."""
    real = board.layout.rect(bar.rect)
    board.painter.invalidate()
    board.frame()
    written = pixels(board, real)
    Bar(bar.id, bar.rect, bar.fraction, bar.colour, "", bar.background).draw(board.canvas)
    bare = pixels(board, real)
    board.painter.invalidate()
    board.frame()
    columns = sorted({x for row_w, row_b in zip(written, bare, strict=True)
                      for x, (w, b) in enumerate(zip(row_w, row_b, strict=True)) if w != b})
    strongest = max(contrast_ratio(w, b) for row_w, row_b in zip(written, bare, strict=True)
                    for w, b in zip(row_w, row_b, strict=True) if w != b)
    return [real.x + x for x in columns], strongest


def test_the_to_go_words_lie_on_one_side_of_the_fill_and_read_on_it(
    board: Scoreboard, table: SessionPort
) -> None:
    """Ana in light grey at 250 of 500 (the words once ran across the fill's end, white on
    grey), Budi in yellow at 100 (beyond the fill), Chen in green at 450 (on it)."""
    session = table.session
    session.handle(SetUpGame(players=["Ana", "Budi", "Chen"]))
    table.pick_colour("Ana", "grey")
    table.pick_colour("Budi", "yellow")
    for went_out, hands in (("Ana", {"Budi": 100, "Chen": 150}),
                            ("Budi", {"Ana": 50, "Chen": 50}),
                            ("Chen", {"Ana": 200, "Budi": 250})):
        session.handle(RecordRound(went_out=went_out, hands={
            name: HandEntry(points=points) for name, points in hands.items()}))
    board.refresh()
    board.go("table")
    shot(board, "bar-words")
    for seat, (total, colour) in enumerate(((250, theme.PLAYER_PALETTE["grey"]),
                                            (100, theme.PLAYER_PALETTE["yellow"]),
                                            (450, theme.PLAYER_COLOURS[2]))):
        bar = widget(board, f"bar{seat}")
        assert isinstance(bar, Bar) and bar.text == f"{500 - total} to go"
        assert bar.colour == colour
        columns, strongest = words_seen(board, bar)
        real = board.layout.rect(bar.rect)
        end = real.x + round(real.width * bar.fraction)
        assert columns, bar.text
        assert columns[-1] < end or columns[0] >= end, (bar.text, columns[0], end,
                                                        columns[-1])
        assert strongest >= TEXT_MIN_CONTRAST, (bar.text, strongest)
