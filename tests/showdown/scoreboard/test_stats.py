"""The statistics screen: only players with a reaction time are ranked, names sort as a reader
sorts them, and figures side by side never run together in any language."""

from __future__ import annotations

import itertools

import pytest

from engine.scoring import ScoringSettings
from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.messages import HandEntry, RecordRound, RecordShowdown, SetUpGame
from showdown.game.session import Session
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, set_language
from showdown.scoreboard.screens.stats import COLUMNS, leaderboard
from showdown.scoreboard.view import StatsView
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Label
from tests.showdown.scoreboard.helpers import play_round, shot, start_game, touch, widget
from tests.showdown.scoreboard.test_languages import populate


def _row(board: Scoreboard, row: int) -> list[Label]:
    cells = {w.id: w for w in board.widgets() if isinstance(w, Label)}
    return [cells[f"cell{row}:{c}"] for c in range(len(COLUMNS))]


def test_before_any_showdown_nobody_is_ranked_or_highlighted(board: Scoreboard) -> None:
    start_game(board, players=10)
    board.go("stats")
    board.frame()
    rows = [_row(board, r) for r in range(10)]
    assert [row[0].text for row in rows] == [""] * 10  # no "#1" ... "#10"
    assert [row[1].text for row in rows] == [f"Player {n}" for n in range(1, 11)]
    assert all(cell.colour != theme.ACCENT for row in rows for cell in row)
    assert any(w.id == "empty" for w in board.widgets())


def _line(name: str, fastest: float | None) -> StatsView:
    return StatsView(name, 0, 0, 0, 0, 0, fastest, fastest)


def test_the_fastest_lead_and_names_sort_as_a_reader_sorts_them() -> None:
    lines = (_line("Player 10", None), _line("Player 9", None), _line("Player 2", 300.0),
             _line("Player 11", 300.0), _line("Ana", None), _line("Player 3", 250.0))
    assert [line.name for line in leaderboard(lines)] == [
        "Player 3", "Player 2", "Player 11", "Ana", "Player 9", "Player 10"]


def _text_span(board: Scoreboard, label: Label, size: int) -> tuple[int, int]:
    """Where the label's text starts and ends across the window, as drawn."""
    box = board.layout.rect(label.rect.inflate(-2 * label.padding, 0))
    width = board.text.font(size, label.bold).size(label.text)[0]
    if label.align == "left":
        return box.left, box.left + width
    if label.align == "right":
        return box.right - width, box.right
    return box.centerx - width // 2, box.centerx + (width + 1) // 2


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_figures_side_by_side_never_run_together(board: Scoreboard, table: SessionPort,
                                                  code: str) -> None:
    """Japanese "207 ミリ秒 219 ミリ秒" once filled its cells edge to edge: the unit is in the
    column head now, and between any two texts of a row there is a clear gap."""
    populate(table)
    board.set_language(code)
    board.refresh()
    board.go("stats")
    board.painter.invalidate()
    board.text.overflows.clear()
    board.text.sizes.clear()
    board.frame()
    assert board.text.overflows == []
    for r in range(len(table.view().players)):
        row = _row(board, r)
        assert all(cell.text.isdigit() or cell.text == "—" for cell in row[2:4])  # figures
        spans = [_text_span(board, cell, board.text.sizes[cell.text]) for cell in row
                 if cell.text]
        gaps = [right_start - left_end for (_s, left_end), (right_start, _e)
                in itertools.pairwise(spans)]
        assert min(gaps) >= 12, (code, [cell.text for cell in row], gaps)



def test_stats_never_say_no_showdowns_beside_showdowns_counted(
    board: Scoreboard, table: SessionPort
) -> None:
    start_game(board, players=3)
    board.go("stats")
    assert widget(board, "empty").text == "No showdowns yet"  # type: ignore[attr-defined]
    # A showdown entered by hand: it counts in Won and Lost, and has no reaction time.
    table.session.handle(RecordShowdown(winner="Player 1", loser="Player 2", cards_loaded=2))
    board.refresh()
    board.go("stats")
    assert widget(board, "empty").text == "No reaction times yet"  # type: ignore[attr-defined]
    texts = {w.text for w in board.widgets() if hasattr(w, "text")}  # type: ignore[attr-defined]
    assert "No showdowns yet" not in texts


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_all_time_figures_are_on_stats_and_fit_in_every_language(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    from tools.screenshots.games import sample_evening

    sample_evening(table.session)
    board.refresh()
    board.set_language(code)
    board.go("stats")
    touch(board, "all-time")
    board.text.overflows.clear()
    board.text.sizes.clear()
    board.painter.invalidate()
    board.frame()
    records = table.all_time()
    assert [w.text for w in board.widgets() if w.id.endswith(":0") and w.id.startswith("all")
            ] == [player_name(r.name) for r in records]  # type: ignore[attr-defined]
    ana = next(r for r in records if r.name == "Ana")
    assert (ana.games, ana.won, ana.showdowns_won, ana.false_starts) == (2, 0, 2, 0)
    assert board.text.overflows == []
    assert {t: s for t, s in board.text.sizes.items() if s < theme.MIN_TEXT} == {}
    if code in ("en", "ja"):
        shot(board, f"stats-all-time-{code}")
    touch(board, "all-time")  # back to this game's leaderboard
    assert widget(board, "title").text != "All time"  # type: ignore[attr-defined]


def test_all_time_lists_no_unnamed_seat_and_heads_points_per_round_as_points(
    board: Scoreboard, table: SessionPort
) -> None:
    """Two games with a "Player 2" each: two people nobody named, so nobody's record; the
    points per round stand under Points, not under Games."""
    session = table.session
    for went_out in ("Ana", "Player 2"):
        session.handle(SetUpGame(players=["Ana", "Player 2"], scoring=ScoringSettings(target=50)))
        other = "Player 2" if went_out == "Ana" else "Ana"
        session.handle(RecordRound(went_out=went_out, hands={other: HandEntry(points=60)}))
    board.refresh()
    board.go("stats")
    touch(board, "all-time")
    shown = [w for w in board.widgets() if isinstance(w, Label)]
    assert [w.text for w in shown if w.id.startswith("all") and w.id.endswith(":0")] == ["Ana"]
    per_round = next(w for w in shown if w.id.startswith("head:Per round"))
    over = [w.text for w in shown if w.id.startswith("group:")
            and w.rect.left <= per_round.rect.centerx <= w.rect.right]
    assert over == ["Points"]
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_this_games_column_heads_share_one_size(board: Scoreboard, table: SessionPort,
                                                code: str) -> None:
    """Issue 37, item 15: "ラウンド" and "Cards taken" were shrunk alone to fit their columns,
    beside heads at full size; every head of the row is drawn at one size."""
    populate(table)
    board.set_language(code)
    board.refresh()
    board.go("stats")
    board.frame()
    heads = [w for w in board.widgets() if w.id.startswith(("head:", "unit:"))]
    assert len(heads) >= len(COLUMNS)
    board.text.sizes.clear()
    board.text.overflows.clear()
    for head in heads:
        head.draw(board.canvas)
    assert board.text.overflows == []
    assert len(set(board.text.sizes.values())) == 1, board.text.sizes
    assert min(board.text.sizes.values()) >= theme.MIN_TEXT


def test_a_table_without_a_unit_lists_its_game_by_place_without_reaction_times(
    session: Session,
) -> None:
    """Issue 37, item 15: no unit, no reaction time: the one-game Stats does not lead with a
    reaction-time leaderboard; it lists the game by place, with the showdowns tapped in."""
    set_language("en")
    board = build_scoreboard(session)
    try:
        assert not board.view.has_unit
        start_game(board, players=3)
        play_round(board, went_out=1, held={0: "30", 2: "40"})
        touch(board, "nav:showdown")
        touch(board, "by-hand-right")  # Player 2 beat Player 1
        touch(board, "nav:stats")
        shot(board, "stats-no-unit")
        shown = {w.id: w for w in board.widgets()}
        assert shown["title"].text == "This game"  # type: ignore[attr-defined]
        assert not {"head:Fastest", "head:Median"} & set(shown)
        rows = [[shown[f"cell{r}:{c}"].text for c in (0, 1, 2, 3, 5, 6)]  # type: ignore[attr-defined]
                for r in range(3)]
        assert rows == [["1", "Player 2", "1", "0", "1", "70"],
                        ["2", "Player 1", "0", "1", "0", "0"],
                        ["2", "Player 3", "0", "0", "0", "0"]]
        assert shown["cell0:1"].colour == theme.ACCENT  # type: ignore[attr-defined]
    finally:
        board.close()
