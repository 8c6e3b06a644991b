"""No text is cut or drawn over other text: every screen, in every language, with the widest
names a table can have (twelve W's, twelve CJK characters, mixed scripts) at a table of ten.

Each screen is drawn in full, then read back from what was drawn (the renderer's record of each
line of text, with the window rectangle its pixels inked and the widget that drew it): no line
leaves its widget, and no two lines overlap. A name too long for its place is shrunk to the
16 px floor, broken over lines where the box has room, and only then shortened with "…"; a tap
on a shortened name shows it whole.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pygame
import pytest

from showdown.game.journal import Journal
from showdown.game.messages import RecordShowdown
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, set_language
from showdown.scoreboard.screens.join import JoinScreen
from showdown.scoreboard.screens.names import NamesScreen
from showdown.scoreboard.screens.penalty import PenaltyScreen
from showdown.scoreboard.screens.players import PlayersScreen
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.screens.showdown import ShowdownScreen
from showdown.scoreboard.screens.stats import StatsScreen
from showdown.scoreboard.text import Drawn
from showdown.scoreboard.view import ShowdownView, Side, Stage
from showdown.tournament.discovery import Found
from showdown.tournament.messages import SeatingMessage, StandingLine, TableLine, TournamentInfo
from showdown.tournament.view import StillTournament, TournamentView
from tests.showdown.scoreboard.helpers import touch, widget
from tools.screenshots.games import WIDE_GAME_NAME, WIDE_PLAYERS, sample_wide
from tools.screenshots.tournament import utc

NAMES = WIDE_PLAYERS
MIXED, SAKURA, WIDEST, CJK = NAMES[0], NAMES[1], NAMES[4], NAMES[9]
TOURNAMENT_NAME = "W" * 40
"""The longest name a tournament (a game night across tables) takes."""


# -- what is on the screen ---------------------------------------------------------------------


def _lines(board: Scoreboard) -> list[tuple[Drawn, pygame.Rect]]:
    """Every line of text on the screen drawn afresh, with the window rectangle it inked, but
    those under widgets drawn over them (a banner and its button cover the title)."""
    board.painter.invalidate()
    board.frame()
    shown = board.widgets()
    covered: set[str] = set()
    for i, under in enumerate(shown):
        later = [over.rect for over in shown[i + 1:] if over.rect.colliderect(under.rect)]
        if later and all(any(rect.collidepoint(x, y) for rect in later)
                         for x in range(under.rect.left, under.rect.right, 4)
                         for y in range(under.rect.top, under.rect.bottom, 4)):
            covered.add(under.id)
    return [(line, ink) for owner, lines in board.text.drawn.items() if owner not in covered
            for line in lines if (ink := line.ink).width and ink.height]


def _problems(board: Scoreboard) -> list[str]:
    """Each line of text that leaves its widget, and each two that overlap, in words."""
    lines = _lines(board)
    found: list[str] = []
    for line, ink in lines:
        widget_rect = board.layout.rect(line.widget)
        if not widget_rect.contains(ink):
            found.append(f"{line.owner}: {line.line!r} ({_box(ink)}) leaves its widget "
                         f"({_box(widget_rect)})")
    for (one, one_ink), (other, other_ink) in itertools.combinations(lines, 2):
        if one_ink.colliderect(other_ink):
            found.append(f"{one.owner}: {one.line!r} ({_box(one_ink)}) overlaps {other.owner}: "
                         f"{other.line!r} ({_box(other_ink)})")
    return found


def _box(rect: pygame.Rect) -> str:
    return f"{rect.x},{rect.y} {rect.width}x{rect.height}"


def _check(board: Scoreboard, state: str, found: dict[str, list[str]]) -> None:
    """Draw the screen as it is now and keep what is wrong with it under ``state``."""
    problems = _problems(board)
    if problems:
        found[state] = problems


# -- the tables ---------------------------------------------------------------------------------


_GAMES: dict[tuple[bool, bool], Path] = {}
"""The journal of each game drawn (hero scoring, won), recorded once and copied for each test."""


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where this module keeps the games it records once."""
    yield tmp_path_factory.mktemp("games")
    _GAMES.clear()


def _game(folder: Path, *, hero: bool, over: bool) -> Path:
    """The journal of :func:`sample_wide` (``hero``, ``over``), recorded once."""
    found = _GAMES.get((hero, over))
    if found is None:
        found = folder / f"game-{hero}-{over}.db"
        journal = Journal.open(found)
        sample_wide(Session(journal), hero=hero, over=over)
        journal.close()
        _GAMES[(hero, over)] = found
    return found


@contextmanager
def _table(games: Path, tmp_path: Path, *, hero: bool = False, unit: bool = True,
           over: bool = False) -> Iterator[tuple[Scoreboard, SessionPort]]:
    """A scoreboard over the game of the ten widest names (:func:`_game`), in a journal of
    its own."""
    path = tmp_path / "fit.db"
    shutil.copyfile(_game(games, hero=hero, over=over), path)
    journal = Journal.open(path)
    table = SessionPort(Session(journal), unit=unit)
    assert [player.name for player in table.view().players] == list(NAMES)
    set_language("en")
    board = Scoreboard(table)
    try:
        board.refresh()
        board.message = ""  # what the table was just told: checked on its own
        yield board, table
    finally:
        set_language("en")
        board.close()
        journal.close()


# -- each screen, in the states that put the most words on it ----------------------------------


Case = Callable[[Scoreboard, SessionPort, dict[str, list[str]]], None]


def _table_screen(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    table.unit_changed(ShowdownView(Stage.COUNTDOWN, WIDEST, CJK, 3, beat=1, beats=3))
    board.refresh()
    board.message = ""
    board.go("table")
    _check(board, "table", found)


def _showdown(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("showdown")
    screen = board.screens["showdown"]
    assert isinstance(screen, ShowdownScreen)
    screen.left, screen.right = 4, 9
    _check(board, "showdown-pick", found)
    states = {
        "loaded": ShowdownView(Stage.LOADED, WIDEST, CJK, 3),
        "countdown": ShowdownView(Stage.COUNTDOWN, WIDEST, CJK, 3, beat=2, beats=3),
        "go": ShowdownView(Stage.GO, WIDEST, CJK, 3),
        "release": ShowdownView(Stage.RELEASE, WIDEST, CJK, 3, false_start_side=Side.LEFT),
        "false-start": ShowdownView(Stage.FALSE_START, WIDEST, CJK, 3,
                                    false_start_side=Side.RIGHT),
        "launching": ShowdownView(Stage.LAUNCHING, WIDEST, CJK, 3, winner=WIDEST, loser=CJK,
                                  launch_toward=Side.RIGHT),
        "result": ShowdownView(Stage.RESULT, WIDEST, CJK, 3, winner=WIDEST, loser=CJK,
                               reason="race", left_ms=212.0, right_ms=305.0,
                               launch_toward=Side.RIGHT, counts=(1, 3)),
    }
    for name, state in states.items():
        table.unit_changed(state)
        board.refresh()
        board.message = ""
        _check(board, f"showdown-{name}", found)
    touch(board, "correct")  # the question names both players
    _check(board, "showdown-question", found)


def _no_unit(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("showdown")
    screen = board.screens["showdown"]
    assert isinstance(screen, ShowdownScreen)
    screen.left, screen.right = 9, 4
    _check(board, "showdown-no-unit", found)


def _round(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("round")
    entry = board.screens["round"]
    assert isinstance(entry, RoundEndScreen)
    entry.went_out = 0
    entry.totals = {seat: str(10 * seat + 3) for seat in range(1, 9)}
    entry.selected = 9
    _check(board, "round-keypad", found)
    entry.cards_mode = True
    entry.tallies = {9: [("green", "7"), ("red", "draw-two"), (None, "wild-showdown")]}
    _check(board, "round-cards", found)
    entry.selected = 4
    _check(board, "round-cards-selected", found)


def _round_edit(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("history")
    touch(board, "row" + next(w.id.removeprefix("row") for w in board.widgets()
                              if w.id.startswith("row") and w.action is not None))
    touch(board, "edit")
    assert board.current == "round"
    _check(board, "round-edit", found)


def _penalty(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("penalty")
    picker = board.screens["penalty"]
    assert isinstance(picker, PenaltyScreen)
    _check(board, "penalty-why", found)
    picker.reason = board.view.penalty_reasons[-1][0]
    _check(board, "penalty-who", found)


def _screen(name: str) -> Case:
    def case(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
        board.go(name)
        _check(board, name, found)

    return case


def _stats(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("stats")
    _check(board, "stats", found)
    stats = board.screens["stats"]
    assert isinstance(stats, StatsScreen)
    touch(board, "all-time")
    _check(board, "stats-all-time", found)


def _setup(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("setup")
    setup = board.screens["setup"]
    assert isinstance(setup, SetupScreen)
    setup.names, setup.count, setup.dealer, setup.selected = list(NAMES), 10, 9, 4
    _check(board, "setup", found)


def _names(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("setup")
    setup = board.screens["setup"]
    assert isinstance(setup, SetupScreen)
    setup.names, setup.count, setup.selected = list(NAMES), 10, 9
    board.go("names")
    _check(board, "names", found)
    keyboard = board.screens["names"]
    assert isinstance(keyboard, NamesScreen)
    keyboard.buffer = WIDEST
    _check(board, "names-full", found)


def _players(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("setup")
    setup = board.screens["setup"]
    assert isinstance(setup, SetupScreen)
    setup.names, setup.count = list(NAMES), 10
    board.go("players")
    players = board.screens["players"]
    assert isinstance(players, PlayersScreen)
    players.chosen = WIDEST
    _check(board, "players", found)


def _phones(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    board.go("phones")
    board.screens["phones"].link = (  # type: ignore[attr-defined]
        "http://uno-table-wwwwwwwwwwww.local:8080/", lambda: "4821")
    _check(board, "phones", found)


def _join(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    join = board.screens["join"]
    assert isinstance(join, JoinScreen)
    join._searched = True  # nothing looks for events on this machine's network
    board.go("join")
    join.found = [Found("e1", TOURNAMENT_NAME, "192.168.100.200", 1883),
                  Found("e2", "さくら" * 13, "uno-host-wwwwwwww.local", 1883)]
    join.code, join.address = "K7QD3MPA", "192.168.100.200:18830"
    join.problem = "The host refused: " + "W" * 60
    _check(board, "join", found)


def _tournament(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    at = 1_773_520_860.0  # 20:41
    view = TournamentView(
        info=TournamentInfo(event="k7qd3m", name=TOURNAMENT_NAME, format="partners-8",
                       players=list(NAMES[:8]), tables=["t1", "t2"], rounds=7,
                       hands_per_round=4),
        standings=tuple(StandingLine(rank=i + 1, name=name, table="t1" if i % 2 else "t2",
                                     points=512 - 7 * i) for i, name in enumerate(NAMES[:8])),
        tables=(TableLine(table="t1", name="W" * 40, online=True, since=at, hands=11),
                TableLine(table="t2", name="王" * 40, online=False, since=at, hands=8,
                          waiting=3)),
        seating=SeatingMessage(event="k7qd3m", round=3, rounds=7,
                               tables={"t1": list(NAMES[:4]), "t2": list(NAMES[4:8])}),
        host_online=True, me="t1")
    with utc():
        table.model.join(StillTournament(view))
        board.refresh()
        board.message = ""
        board.go("event")
        _check(board, "event", found)
        board.go("setup")  # seated by the event: its players and words
        _check(board, "setup-seated", found)


def _news(board: Scoreboard, table: SessionPort, found: dict[str, list[str]]) -> None:
    """What the table is told, with Undo, over the title it covers."""
    table.session.handle(RecordShowdown(winner=CJK, loser=WIDEST, cards_loaded=3,
                                        source="unit", left=WIDEST, right=CJK,
                                        reaction_ms={WIDEST: 301.0, CJK: 244.0}))
    board.refresh()
    board.go("table")
    assert board.message
    _check(board, "news", found)


CASES: dict[str, tuple[Case, dict[str, bool]]] = {
    "table": (_table_screen, {}),
    "table-hero": (_table_screen, {"hero": True}),
    "news": (_news, {}),
    "showdown": (_showdown, {}),
    "showdown-no-unit": (_no_unit, {"unit": False}),
    "round": (_round, {}),
    "round-edit": (_round_edit, {}),
    "penalty": (_penalty, {"hero": True}),
    "history": (_screen("history"), {}),
    "history-hero": (_screen("history"), {"hero": True}),
    "chart": (_screen("chart"), {}),
    "stats": (_stats, {}),
    "games": (_screen("games"), {}),
    "setup": (_setup, {}),
    "names": (_names, {}),
    "players": (_players, {}),
    "settings": (_screen("settings"), {}),
    "phones": (_phones, {}),
    "join": (_join, {}),
    "event": (_tournament, {}),
    "gameover": (_screen("gameover"), {"over": True}),
    "gameover-hero": (_screen("gameover"), {"hero": True, "over": True}),
}
"""Every screen (some twice: in hero scoring, without a unit) and how to bring it up."""


@pytest.mark.parametrize("code", list(LANGUAGES))
@pytest.mark.parametrize("screen", list(CASES))
def test_no_text_leaves_its_widget_or_overlaps_another(games: Path, tmp_path: Path,
                                                       screen: str, code: str) -> None:
    case, options = CASES[screen]
    with _table(games, tmp_path, **options) as (board, table):
        board.set_language(code)
        found: dict[str, list[str]] = {}
        case(board, table, found)
        assert found == {}
        assert board.text.drawn, "the screen drew no text"


def test_a_finished_game_opened_to_read_fits_too(games: Path, tmp_path: Path) -> None:
    with _table(games, tmp_path) as (board, _port):
        found: dict[str, list[str]] = {}
        for code in LANGUAGES:
            board.set_language(code)
            board.go("games")
            games = board.screens["games"]
            games.chosen = 1  # type: ignore[attr-defined]
            touch(board, "open")
            assert board.current == "gameover"
            _check(board, f"finished-{code}", found)
            touch(board, "nav:close")
        assert found == {}


def _whole(board: Scoreboard, owner: str) -> str:
    """What a widget shows, its lines put back together."""
    return " ".join(line.line for line in board.text.drawn[owner])


def _shown_whole_inside(board: Scoreboard, owner: str, text: str) -> None:
    """``owner`` draws all of ``text`` (over lines, without "…"), every line inside it."""
    lines = board.text.drawn[owner]
    assert "".join(line.line for line in lines).replace(" ", "") == text.replace(" ", "")
    inside = board.layout.rect(lines[0].widget)
    assert all(inside.contains(line.ink) for line in lines), (owner, [
        (line.line, _box(line.ink)) for line in lines], _box(inside))


def test_the_issues_names_stay_whole_in_their_places(games: Path, tmp_path: Path) -> None:
    """Issue 37's three, at a table of ten: on Players "WWWWWWWWWWWW · seat 5" and
    "王小明王小明王小明王小明 · seat 10" beside "山田さくら · seat 2", the round end's buttons and
    the penalty picker's show each name whole, inside its own card or button."""
    with _table(games, tmp_path, hero=True) as (board, port):
        _players(board, port, {})
        for seat in (0, 1, 4, 9):
            name = NAMES[seat]
            _shown_whole_inside(board, f"player:{name}", f"{name} · seat {seat + 1}")
        board.go("round")
        board.frame()
        for seat in (0, 4, 9):
            _shown_whole_inside(board, f"player{seat}", f"{NAMES[seat]}: ?")
        board.go("penalty")
        widget(board, "reason:slap").action()  # type: ignore[misc]
        board.frame()
        for seat in (0, 4, 9):
            _shown_whole_inside(board, f"player{seat}", NAMES[seat])


def _banner(board: Scoreboard) -> str | None:
    found = [w for w in board.widgets() if w.id == "banner"]
    return str(found[0].text) if found else None  # type: ignore[attr-defined]


def test_a_tap_on_words_cut_short_shows_them_whole(games: Path, tmp_path: Path) -> None:
    """The event's name is as long as names go: cut short on its screen, a tap on it (or a
    fingertip beside a small line) tells it whole; a tap on words shown whole tells nothing."""
    with _table(games, tmp_path) as (board, table):
        _tournament(board, table, {})
        board.go("event")
        board.frame()
        assert "…" in _whole(board, "title")
        touch(board, "head:standings")  # drawn whole: nothing to tell
        assert _banner(board) is None
        touch(board, "title")
        assert _banner(board) == TOURNAMENT_NAME
        board.message = ""
        status = widget(board, "status:t2")  # a line 34 px high: tapped just under it
        assert "…" in _whole(board, "status:t2")
        board.tap((status.rect.centerx, status.rect.bottom + 6))
        board.frame()
        assert _banner(board) == f"{'王' * 40} offline since 20:41, 3 rounds waiting"


def test_a_control_whose_words_are_cut_short_acts_and_shows_them_whole(
        games: Path, tmp_path: Path) -> None:
    """A saved game's line names the game (24 W's), its date and its winner: too long for its
    row, it ends in "…"; a tap chooses the game as before and tells the line whole."""
    with _table(games, tmp_path) as (board, _port):
        board.go("games")
        board.frame()
        cut = [w for w in board.widgets() if w.id.startswith("game") and "…" in _whole(board, w.id)]
        assert len(cut) == 1
        row = cut[0]
        touch(board, row.id)
        assert board.screens["games"].chosen == 1  # type: ignore[attr-defined]
        banner = _banner(board)
        assert banner is not None and banner.startswith(f"{WIDE_GAME_NAME} · ")
        assert banner.endswith(f"{WIDEST} won")
