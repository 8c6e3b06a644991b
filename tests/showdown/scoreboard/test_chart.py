"""The chart: no line hidden under another, a legend with every name and total at full size,
round figures on the y axis and the rounds numbered on the x axis."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import ScoringSettings
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from showdown.scoreboard.sample import sample_game
from showdown.scoreboard.screens.chart import (
    LEGEND_TEXT,
    PLOT,
    TICK_TEXT,
    nice_step,
    round_x,
    y_axis,
)
from showdown.scoreboard.theme import MIN_TEXT
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Label
from tests.showdown.scoreboard.helpers import widget
from tools.screenshots.games import sample_ten


def _label(board: Scoreboard, widget_id: str) -> Label:
    found = widget(board, widget_id)
    assert isinstance(found, Label)
    return found


def _colour_pixels(board: Scoreboard, colour: theme.Colour) -> int:
    """Pixels of exactly ``colour`` inside the plot."""
    real = board.layout.rect(PLOT)
    surface = board.surface
    return sum(1 for x in range(real.left, real.right) for y in range(real.top, real.bottom)
               if surface.get_at((x, y))[:3] == colour)


def test_a_line_level_with_another_stays_visible(board: Scoreboard, table: SessionPort) -> None:
    """Ana goes out every round, so Budi and Chen stay at 0 together: Chen's line, drawn last,
    once covered Budi's entirely."""
    table.session.handle(SetUpGame(players=["Ana", "Budi", "Chen"], preset="showdown",
                                   scoring=ScoringSettings(target=500)))
    for held in (10, 20, 30):
        table.session.handle(RecordRound(went_out="Ana", hands={
            "Budi": HandEntry(points=held), "Chen": HandEntry(points=held)}))
    board.refresh()
    board.go("chart")
    board.frame()
    budi = _colour_pixels(board, theme.PLAYER_COLOURS[1])
    chen = _colour_pixels(board, theme.PLAYER_COLOURS[2])
    assert budi > 300
    assert budi >= 0.5 * chen, (budi, chen)


def test_the_axes_have_round_figures_and_numbered_rounds(board: Scoreboard,
                                                          table: SessionPort) -> None:
    sample_game(table.session)  # four rounds, target 500, the leader at 205
    board.refresh()
    board.go("chart")
    board.text.overflows.clear()
    board.frame()
    ticks = [w for w in board.widgets() if w.id.startswith("ytick:")]
    assert [t.text for t in ticks] == ["0", "100", "200", "300", "400", "500"]  # type: ignore[attr-defined]
    rounds = [w for w in board.widgets() if w.id.startswith("xtick:")]
    assert [r.text for r in rounds] == ["1", "2", "3", "4"]  # type: ignore[attr-defined]
    tops = [t.rect.centery for t in ticks]
    assert tops == sorted(tops, reverse=True)  # 0 at the bottom
    lefts = [r.rect.centerx for r in rounds]
    assert lefts == sorted(lefts) and lefts[-1] <= PLOT.right
    assert _label(board, "xaxis").text == "Round"
    assert all(_label(board, w.id).size >= TICK_TEXT >= 16 for w in ticks + rounds)
    assert board.text.overflows == []


@given(st.integers(min_value=1, max_value=10_000_000))
def test_tick_steps_are_round_figures_and_few(span: int) -> None:
    step = nice_step(span)
    digits = str(step).rstrip("0")
    assert digits in ("1", "2", "5")
    assert span / step <= 5
    assert span / step > 1 or step == 1  # not one big step where smaller ones would do


LONGEST_NAMES = ("Maximilianax", "王小明王小明王小明王小明")
"""The sample's names of twelve characters, the most a name may have."""


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_legend_names_ten_players_and_their_totals_at_full_size(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    sample_ten(table.session)
    board.set_language(code)
    board.refresh()
    board.go("chart")
    board.text.overflows.clear()
    board.frame()
    view = table.view()
    assert len(view.players) == 10
    for i, player in enumerate(view.players):
        name, total = _label(board, f"legend-name{i}"), _label(board, f"legend-total{i}")
        assert name.text == player_name(player.name)
        assert total.text == str(player.total)
        for found in (name, total):
            assert found.size == LEGEND_TEXT
            box = board.layout.rect(found.rect)
            width, height = board.text.font(found.size, found.bold).size(found.text)
            if found.text in LONGEST_NAMES:  # twelve letters: whole, on one line, at 16 px
                width, height = board.text.font(MIN_TEXT, found.bold).size(found.text)
            assert width <= box.width and height <= box.height + 2, (code, found.text)
    assert board.text.overflows == []


def test_every_value_is_drawn_at_its_value_and_level_lines_take_turns(
    board: Scoreboard, table: SessionPort
) -> None:
    """Eight of ten players stay at 0: each one's line lies on the 0 grid line, not up to ~30
    points above it, and each colour shows along the stretch they share."""
    sample_ten(table.session)
    board.refresh()
    board.go("chart")
    board.frame()
    view = table.view()
    axis = y_axis(view)
    real = board.layout.rect(PLOT)
    zero = real.top + (axis.y(0, PLOT) - PLOT.top) * board.layout.scale
    rounds = len(view.rounds)
    marked = [real.left + (round_x(r, rounds, PLOT) - PLOT.left) * board.layout.scale
              for r in range(rounds + 1)]
    half_line = board.layout.px(3)
    for i, player in enumerate(view.players):
        if player.total != 0:
            continue
        colour = theme.PLAYER_COLOURS[i]
        found = [(x, y) for x in range(real.left, real.right) for y in range(real.top,
                                                                              real.bottom)
                 if all(abs(x - m) > 24 for m in marked)  # between the markers' piles
                 and board.surface.get_at((x, y))[:3] == colour]
        assert found, player.name  # its colour takes a turn along the shared line
        assert all(abs(y - zero) <= half_line for _x, y in found), (
            player.name, sorted({y for _x, y in found}), zero)
