"""Draw the scoreboard's screenshots (docs/scoreboard/), so the pictures in the documentation
are the screens as they are: every main screen in English and Japanese (with Set-up's lists of
rules and of scoring modes), a table of ten players, a table of ten names as wide as names go, a
Killer UNO game in hero scoring (its set-up, table, penalty picker, history and game over), and a
Chinese round end.

    python -m tools.screenshots.scoreboard [docs/scoreboard]     (make screenshots)

A test draws them all again and fails when any differs from the committed file by one pixel. They
come out the same on any machine: the sample games (:mod:`showdown.scoreboard.sample` and
:mod:`tools.screenshots.games`, fixed entries), the pinned font
(:func:`~showdown.scoreboard.fonts.pinned_font`, whatever fonts the machine has) and SDL's dummy
video driver at 800x480.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engine.rules import PenaltyReason
from showdown.game.journal import Journal
from showdown.game.messages import RecordPenalty, RecordShowdown
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.fonts import ENV_VARIABLE, forget_choices, pinned_font
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.sample import (
    COUNTDOWN,
    FALSE_START,
    GO,
    RESULT,
    WINNING_TOTAL,
    sample_game,
    sample_table,
)
from showdown.scoreboard.screens.penalty import PenaltyScreen
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.screens.setup import SetupScreen
from tools.offscreen import DOCS, parser
from tools.screenshots.games import (
    WIDE_PLAYERS,
    sample_evening,
    sample_hero,
    sample_ten,
    sample_wide,
)

SCREENS = ("setup", "names", "table", "showdown", "round", "history", "chart", "stats",
           "settings")
LANGUAGES = ("en", "ja")
TEN_SCREENS = ("table", "round", "history", "chart", "stats")
"""The screens drawn again for ten players (``<screen>-10-<language>.png``)."""
EXTRA_ROUND_ENDS = ("zh_CN",)
"""Languages whose round end is drawn besides English and Japanese (``round-<code>.png``)."""


@contextmanager
def pinned() -> Iterator[None]:
    """Draw with the pinned font and UTC times (the saved games' dates) inside the block (then
    as before), so the pictures are the same on any machine; SDL's dummy driver is set by
    :mod:`tools` itself."""
    before = {name: os.environ.get(name) for name in (ENV_VARIABLE, "TZ")}
    os.environ[ENV_VARIABLE] = str(pinned_font())
    os.environ["TZ"] = "UTC"
    time.tzset()
    forget_choices()
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()
        forget_choices()


@contextmanager
def _board(scratch: Path, name: str,
           build: Callable[[Session], SessionPort]) -> Iterator[tuple[Scoreboard, SessionPort]]:
    """A scoreboard over a sample game in a fresh journal; closed (and English again) after."""

    journal = Journal.open(scratch / f"{name}.db")
    table = build(Session(journal))
    board = Scoreboard(table)
    try:
        yield board, table
    finally:
        set_language("en")
        board.close()
        journal.close()


def render(out_dir: Path, languages: tuple[str, ...] = LANGUAGES, *,
           extras: bool = True) -> list[Path]:
    """Write the screenshots (``extras``: also ten players and the other round ends); the files
    written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with pinned(), tempfile.TemporaryDirectory() as scratch:
        written = _main_screens(out_dir, languages, Path(scratch))
        written += _game_over(out_dir, languages, Path(scratch))
        written += _games(out_dir, languages, Path(scratch))
        written += _news(out_dir, languages, Path(scratch))
        written += _no_unit(out_dir, languages, Path(scratch))
        written += _hero(out_dir, languages, Path(scratch))
        if extras:
            written += _ten_players(out_dir, Path(scratch))
            written += _wide_names(out_dir, Path(scratch))
            written += _round_ends(out_dir, EXTRA_ROUND_ENDS, Path(scratch))
    return written


EVENING_START = datetime(2025, 11, 21, 19, 30, tzinfo=UTC)
"""When the sample evening's first entry is made; each entry a minute after the last."""


def _evening_clock() -> Callable[[], str]:
    """A journal clock for the games list: the same dates on every machine."""
    minutes = iter(range(10_000))
    return lambda: (EVENING_START + timedelta(minutes=next(minutes))).isoformat(
        timespec="milliseconds")


def _games(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """The players kept over an evening, its saved games (a finished game, one left
    unfinished), the all-time figures, and the finished game opened to read."""

    written: list[Path] = []
    journal = Journal.open(scratch / "evening.db", clock=_evening_clock())
    board = Scoreboard(sample_evening(Session(journal)))
    journal.remember_players(["Sakura", "José", "Zoë", "王小明", "Ana", "Budi", "Chen",
                              "Daisuke"])
    for name, colour in (("José", "orange"), ("Sakura", "sky"), ("王小明", "green")):
        journal.set_player_colour(name, colour)
    try:
        for code in languages:
            board.set_language(code)
            board.go("setup")
            board.go("players")
            players = board.screens["players"]
            players.chosen = "José"  # type: ignore[attr-defined]
            _save(board, out_dir / f"players-{code}.png", written)
            board.go("games")
            _save(board, out_dir / f"games-{code}.png", written)
            stats = board.screens["stats"]
            stats.all_time = True  # type: ignore[attr-defined]
            board.go("stats")
            _save(board, out_dir / f"stats-all-time-{code}.png", written)
            stats.all_time = False  # type: ignore[attr-defined]
            board.command(board.port.open_game, 1)
            board.go("gameover")
            _save(board, out_dir / f"finished-{code}.png", written)
            board.command(board.port.close_game)
    finally:
        set_language("en")
        board.close()
        journal.close()
    return written


def _news(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """The live table telling what the unit just recorded, with Undo."""

    written: list[Path] = []
    with _board(scratch, "news", sample_table) as (board, table):
        table.session.handle(RecordShowdown(
            winner="Daisuke", loser="Chen", cards_loaded=3, source="unit", left="Chen",
            right="Daisuke", reaction_ms={"Chen": 301.0, "Daisuke": 244.0}))
        board.refresh()
        for code in languages:
            board.set_language(code)
            board.go("table")
            _save(board, out_dir / f"news-{code}.png", written)
    return written


def _no_unit(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """The showdown screen of `showdown scoreboard` alone, with no unit wired."""

    def alone(session: Session) -> SessionPort:
        sample_game(session)
        return SessionPort(session, unit=False)

    written: list[Path] = []
    with _board(scratch, "alone", alone) as (board, _table):
        for code in languages:
            board.set_language(code)
            board.go("showdown")
            _save(board, out_dir / f"showdown-no-unit-{code}.png", written)
    return written


def _hero(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """Killer UNO in 002's hero scoring: its set-up (the preset, the scoring, the pigs and
    rounds that end it), the table with every player's pigs, the penalty picker, a penalty
    told with Undo, the history with its penalties and pigs, and the game over by pigs."""

    written: list[Path] = []
    with _board(scratch, "hero", sample_hero) as (board, table):
        for code in languages:
            board.set_language(code)
            for screen in ("table", "history"):
                board.go(screen)
                _save(board, out_dir / f"{screen}-hero-{code}.png", written)
            board.go("penalty")
            picker = board.screens["penalty"]
            assert isinstance(picker, PenaltyScreen)
            picker.reason = "silence"
            _save(board, out_dir / f"penalty-{code}.png", written)
            board.go("setup")
            setup = board.screens["setup"]
            assert isinstance(setup, SetupScreen)
            setup.preset = table.presets().index("killer")
            setup.mode = [choice.mode for choice in table.modes()].index("hero")
            setup.rounds = 12
            _save(board, out_dir / f"setup-hero-{code}.png", written)
        table.session.handle(RecordPenalty(player="Budi", reason=PenaltyReason.SLAP))
        board.refresh()
        for code in languages:
            board.set_language(code)
            board.go("table")
            _save(board, out_dir / f"penalty-news-{code}.png", written)
    with _board(scratch, "hero-over", lambda session: sample_hero(session, pigs=1)) as (
            board, _table):
        for code in languages:
            board.set_language(code)
            board.go("gameover")
            _save(board, out_dir / f"gameover-hero-{code}.png", written)
    return written


def _tap(board: Scoreboard, widget_id: str) -> None:
    """A tap on a widget of the screen shown, as a finger would make it."""
    board.frame()
    (found,) = [w for w in board.widgets() if w.id == widget_id]
    board.tap(found.rect.center)


def _save(board: Scoreboard, path: Path, written: list[Path]) -> None:
    board.screenshot(path)
    written.append(path)


def _main_screens(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:

    written: list[Path] = []
    with _board(scratch, "sample", sample_table) as (board, table):
        for code in languages:
            board.set_language(code)
            for screen in SCREENS:
                board.go(screen)
                _round_entry(board, screen)
                _save(board, out_dir / f"{screen}-{code}.png", written)
            board.go("setup")
            for button, name in (("preset", "rules"), ("mode", "scoring")):
                _tap(board, button)  # Set-up's list of rules, of scoring modes
                _save(board, out_dir / f"choose-{name}-{code}.png", written)
                _tap(board, "cancel")
            board.go("round")
            _round_entry(board, "round")
            board.screens["round"].cards_mode = False  # type: ignore[attr-defined]
            _save(board, out_dir / f"round-keypad-{code}.png", written)
            board.go("showdown")
            for name, state in (("countdown", COUNTDOWN), ("go", GO),
                                ("false-start", FALSE_START)):
                table.unit_changed(state)
                board.refresh()
                _save(board, out_dir / f"showdown-{name}-{code}.png", written)
            table.unit_changed(RESULT)
            board.refresh()
            phones = board.screens["phones"]
            phones.link = ("http://uno-table.local:8080/", lambda: "4821")  # type: ignore[attr-defined]
            board.go("phones")
            _save(board, out_dir / f"phones-{code}.png", written)
    return written


def _game_over(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """The game-over screen, over the sample game played to a target its leader reaches."""

    def finished(session: Session) -> SessionPort:
        sample_game(session, target=WINNING_TOTAL)
        return SessionPort(session)

    written: list[Path] = []
    with _board(scratch, "finished", finished) as (board, _table):
        for code in languages:
            board.set_language(code)
            board.go("gameover")
            _save(board, out_dir / f"gameover-{code}.png", written)
    return written


def _ten_players(out_dir: Path, scratch: Path) -> list[Path]:
    """A full table of ten, two of them with names as long as names go, in English and
    Japanese."""

    written: list[Path] = []
    with _board(scratch, "ten", sample_ten) as (board, _table):
        for code in LANGUAGES:
            board.set_language(code)
            for screen in TEN_SCREENS:
                board.go(screen)
                _round_entry(board, screen)
                _save(board, out_dir / f"{screen}-10-{code}.png", written)
    return written


WIDE_SCREENS = ("players", "round", "penalty", "showdown", "games")
"""The screens drawn again for the table of ten widest names (``<screen>-wide-<language>.png``):
the ones where such a name ran out of its place before every text was fitted the one way."""


def _wide_names(out_dir: Path, scratch: Path) -> list[Path]:
    """The ten widest names (twelve W's, twelve CJK characters, mixed scripts) on the screens
    they ran out of, in English and Japanese: each inside its own place, whole or cut with "…"
    (a tap tells it whole)."""

    written: list[Path] = []
    journal = Journal.open(scratch / "wide.db", clock=_evening_clock())
    board = Scoreboard(sample_wide(Session(journal)))
    try:
        for code in LANGUAGES:
            board.set_language(code)
            board.go("setup")
            setup = board.screens["setup"]
            assert isinstance(setup, SetupScreen)
            setup.names, setup.count = list(WIDE_PLAYERS), len(WIDE_PLAYERS)
            for screen in WIDE_SCREENS:
                board.go(screen)
                if screen == "players":
                    board.screens["players"].chosen = WIDE_PLAYERS[4]  # type: ignore[attr-defined]
                elif screen == "round":
                    entry = board.screens["round"]
                    assert isinstance(entry, RoundEndScreen)
                    entry.clear()
                    entry.went_out, entry.selected = 4, 9
                    entry.totals = {seat: str(7 * seat + 3) for seat in range(4)}
                elif screen == "penalty":
                    picker = board.screens["penalty"]
                    assert isinstance(picker, PenaltyScreen)
                    picker.reason = "advice"
                elif screen == "showdown":
                    pick = board.screens["showdown"]
                    pick.left, pick.right = 4, 9  # type: ignore[attr-defined]
                _save(board, out_dir / f"{screen}-wide-{code}.png", written)
    finally:
        set_language("en")
        board.close()
        journal.close()
    return written


def _round_ends(out_dir: Path, languages: tuple[str, ...], scratch: Path) -> list[Path]:
    """The round end (cards being tapped) in other languages: their card names are the longest."""

    written: list[Path] = []
    with _board(scratch, "rounds", sample_table) as (board, _table):
        for code in languages:
            board.set_language(code)
            board.go("round")
            _round_entry(board, "round")
            _save(board, out_dir / f"round-{code}.png", written)
    return written


def _round_entry(board: Scoreboard, screen: str) -> None:
    """Half an entry on the round-end screen, so the tally shows its running sum."""
    if screen != "round":
        return

    entry = board.screens["round"]
    assert isinstance(entry, RoundEndScreen)
    entry.clear()
    entry.went_out = 1
    entry.selected = 2
    entry.cards_mode = True
    entry.colour = "green"
    entry.totals = {0: "23"}
    entry.tallies = {2: [("green", "7"), ("red", "draw-two"), (None, "wild-showdown")]}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: the output folder (default ``docs/scoreboard``)."""
    command = parser(__doc__)
    command.add_argument("out", nargs="?", default=DOCS / "scoreboard", type=Path)
    for path in render(command.parse_args(argv).out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
