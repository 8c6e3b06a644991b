"""Draw the event screen's screenshots (docs/event/), a table's view and the host's, so the
event's documentation shows the screen as it is.

    python -m tools.screenshots.tournament [docs/event]     (make event-screenshots)

Drawn like the scoreboard's own (:mod:`tools.screenshots.scoreboard`: the pinned font, SDL's
dummy driver, a sample game underneath) from fixed sample events, with the clock read in UTC, so
they come out the same on any machine; a test draws them again and compares.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from showdown.scoreboard.sample import sample_table
from showdown.tournament.messages import SeatingMessage, StandingLine, TableLine, TournamentInfo
from showdown.tournament.view import StillTournament, TournamentView
from tools.offscreen import DOCS, parser
from tools.screenshots.scoreboard import _board, pinned

__all__ = ["HOST_VIEW", "TABLE_VIEW", "render"]

LANGUAGES = ("en", "ja")
EIGHT = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
AT_20_41 = datetime(2026, 3, 14, 20, 41, tzinfo=UTC).timestamp()

TABLE_VIEW = TournamentView(
    info=TournamentInfo(event="k7qd3m", name="Friday game night", format="partners-8",
                        players=EIGHT, tables=["t1", "t2"], rounds=7, hands_per_round=4),
    standings=tuple(StandingLine(rank=i + 1, name=n, table=t, points=p) for i, (n, t, p) in
                    enumerate([("Hana", "t1", 512), ("Ada", "t1", 498), ("Eli", "t2", 431),
                               ("Ben", "t2", 390), ("Gus", "t1", 377), ("Dev", "t2", 302),
                               ("Fay", "t1", 288), ("Cleo", "t2", 120)])),
    tables=(TableLine(table="t1", online=True, since=AT_20_41 - 3600, hands=11),
            TableLine(table="t2", online=False, since=AT_20_41, hands=8, waiting=3)),
    seating=SeatingMessage(event="k7qd3m", round=3, rounds=7,
                           tables={"t1": ["Ada", "Gus", "Hana", "Fay"],
                                   "t2": ["Ben", "Cleo", "Eli", "Dev"]}),
    host_online=True, me="t1")
"""Table 1's scoreboard in a partners-8 evening: table 2 dropped off the Wi-Fi at 20:41."""

HOST_VIEW = TournamentView(
    info=TournamentInfo(event="p4x9wz", name="Club Swiss, March", format="swiss",
                        players=[*EIGHT, "Ivo"], tables=["t1", "t2"], rounds=3, hands_per_round=4),
    standings=tuple(
        StandingLine(rank=r, name=n, table=t, points=p, match_points=m, opponents_points=b)
        for r, n, t, p, m, b in [
            (1, "Eli", "t1", 540, 5, 9), (2, "Ada", "t2", 610, 5, 7), (3, "Ivo", "t1", 120, 4, 6),
            (4, "Ben", "t1", 470, 3, 8), (5, "Gus", "t2", 300, 2, 7), (6, "Cleo", "t2", 350, 2, 5),
            (7, "Hana", "t2", 90, 2, 4), (8, "Dev", "t1", 210, 1, 6), (9, "Fay", "t1", 80, 0, 8)]),
    tables=(TableLine(table="t1", name="Window", online=True, since=AT_20_41, hands=8),
            TableLine(table="t2", name="Bar", online=True, since=AT_20_41, hands=7)),
    seating=SeatingMessage(event="p4x9wz", round=3, rounds=3,
                           tables={"t1": ["Eli", "Ivo", "Ben", "Dev"],
                                   "t2": ["Ada", "Gus", "Cleo", "Hana"]}, byes=["Fay"]),
    host_online=True, join_code="K7QD3MPA", join_address="192.168.1.20")
"""The host's screen in a Swiss evening of nine: the join code, a bye in round 3."""


@contextmanager
def utc() -> Iterator[None]:
    """Read the clock in UTC inside the block ("20:41" on any machine)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


def render(out_dir: Path) -> list[Path]:
    """Write the event screen's screenshots; the files written."""

    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with pinned(), utc(), tempfile.TemporaryDirectory() as scratch, \
            _board(Path(scratch), "event", sample_table) as (board, table):
        for name, view in (("table", TABLE_VIEW), ("host", HOST_VIEW)):
            table.model.join(StillTournament(view))
            for code in LANGUAGES:
                board.set_language(code)
                board.go("event")
                board.refresh()
                path = out_dir / f"scoreboard-{name}-{code}.png"
                board.screenshot(path)
                written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: the output folder (default ``docs/event``)."""
    command = parser(__doc__)
    command.add_argument("out", nargs="?", default=DOCS / "event", type=Path)
    for path in render(command.parse_args(argv).out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
