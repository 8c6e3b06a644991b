"""Screenshots of the main screens for the documentation, in English and Japanese.

Regenerate the committed ones with::

    .venv/bin/python -m showdown.scoreboard.screenshots docs/scoreboard

It draws the sample game (:mod:`showdown.scoreboard.sample`) on SDL's dummy video driver, so it
runs headless, and writes ``<screen>-<language>.png`` for each screen and language.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from showdown.game.journal import Journal
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.view import ShowdownView, Side, Stage

SCREENS = ("setup", "names", "table", "showdown", "round", "history", "chart", "stats")
LANGUAGES = ("en", "ja")
COUNTDOWN = ShowdownView(Stage.COUNTDOWN, "Ana", "Chen", 2, beat=2, beats=3)
GO = ShowdownView(Stage.GO, "Ana", "Chen", 2)
FALSE_START = ShowdownView(Stage.FALSE_START, "Ana", "Chen", 2, false_start_side=Side.RIGHT)


def render(out_dir: Path, languages: tuple[str, ...] = LANGUAGES) -> list[Path]:
    """Write the screenshots; the files written."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from showdown.game.session import Session  # noqa: PLC0415
    from showdown.scoreboard.app import Scoreboard  # noqa: PLC0415 (after the SDL driver)
    from showdown.scoreboard.sample import RESULT, sample_table  # noqa: PLC0415

    written: list[Path] = []
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.open(Path(scratch) / "sample.db")
        table = sample_table(Session(journal))
        board = Scoreboard(table)
        try:
            for code in languages:
                board.set_language(code)
                for screen in SCREENS:
                    board.go(screen)
                    _round_entry(board, screen)
                    path = out_dir / f"{screen}-{code}.png"
                    board.screenshot(path)
                    written.append(path)
                board.go("showdown")
                for name, state in (("countdown", COUNTDOWN), ("go", GO),
                                    ("false-start", FALSE_START)):
                    table.unit_changed(state)
                    board.refresh()
                    path = out_dir / f"showdown-{name}-{code}.png"
                    board.screenshot(path)
                    written.append(path)
                table.unit_changed(RESULT)
                board.refresh()
        finally:
            set_language("en")
            board.close()
            journal.close()
        written += _game_over(out_dir, languages, Path(scratch) / "finished.db")
    return written


def _game_over(out_dir: Path, languages: tuple[str, ...], db: Path) -> list[Path]:
    """The game-over screen, over the sample game played to a target its leader reaches."""
    from showdown.game.session import Session  # noqa: PLC0415
    from showdown.scoreboard.adapter import SessionPort  # noqa: PLC0415
    from showdown.scoreboard.app import Scoreboard  # noqa: PLC0415
    from showdown.scoreboard.sample import WINNING_TOTAL, sample_game  # noqa: PLC0415

    written: list[Path] = []
    journal = Journal.open(db)
    session = Session(journal)
    sample_game(session, target=WINNING_TOTAL)
    board = Scoreboard(SessionPort(session))
    try:
        for code in languages:
            board.set_language(code)
            board.go("gameover")
            path = out_dir / f"gameover-{code}.png"
            board.screenshot(path)
            written.append(path)
    finally:
        set_language("en")
        board.close()
        journal.close()
    return written


def _round_entry(board: object, screen: str) -> None:
    """Half an entry on the round-end screen, so the tally shows its running sum."""
    if screen != "round":
        return
    from showdown.scoreboard.app import Scoreboard  # noqa: PLC0415
    from showdown.scoreboard.screens.round_end import RoundEndScreen  # noqa: PLC0415

    assert isinstance(board, Scoreboard)
    entry = board.screens["round"]
    assert isinstance(entry, RoundEndScreen)
    entry.clear()
    entry.went_out = 1
    entry.selected = 2
    entry.cards_mode = True
    entry.colour = "green"
    entry.totals = {0: "23"}
    entry.tallies = {2: [("green", "7"), ("red", "draw-two"), (None, "wild-showdown")]}


def main() -> None:
    """Command-line entry: the output folder (default ``docs/scoreboard``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default="docs/scoreboard", type=Path)
    args = parser.parse_args()
    for path in render(args.out):
        print(path)


if __name__ == "__main__":
    main()
