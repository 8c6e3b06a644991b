"""The event screen: standings, every table online or not, the next seating; its screenshots in
docs/event/ are what it draws."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.scoreboard.screens.base import CONTENT_BOTTOM
from showdown.scoreboard.screens.tournament import (
    seated_round,
    seating_lines,
    table_status,
    tournament_widgets,
)
from showdown.scoreboard.widgets import Label
from showdown.tournament.games import tournament_round
from showdown.tournament.messages import Correction, TableLine
from tests.showdown.scoreboard.test_docs import _differing_pixels
from tools.screenshots.tournament import HOST_VIEW, TABLE_VIEW, render, utc

DOCS = Path(__file__).resolve().parents[3] / "docs" / "event"


def texts(view: object) -> dict[str, str]:
    return {w.id: w.text for w in tournament_widgets(view) if isinstance(w, Label)}  # type: ignore[arg-type]


def test_an_offline_table_says_since_when_and_what_it_holds_up() -> None:
    with utc():
        shown = texts(TABLE_VIEW)
    assert shown["status:t2"] == "Table 2 offline since 20:41, 3 rounds waiting"
    assert shown["status:t1"] == "Table 1 online, 11 hands"
    assert table_status(TableLine(table="t3", online=False)) == "Table 3 has not joined"


def test_a_table_sees_its_own_seating_first_partners_opposite() -> None:
    assert seating_lines(TABLE_VIEW) == ["Table 1: Ada & Hana against Gus & Fay",
                                         "Table 2: Ben & Eli against Cleo & Dev"]
    assert seating_lines(HOST_VIEW)[-1] == "Bye: Fay"


def test_the_host_shows_its_join_code_and_swiss_match_points() -> None:
    shown = texts(HOST_VIEW)
    assert (shown["join:caption"], shown["join"], shown["join:address"]) == (
        "Join code", "K7QD-3MPA", "at 192.168.1.20")
    assert "join:qr" in {w.id for w in tournament_widgets(HOST_VIEW)}
    assert shown["head:points"] == "Match points" and shown["points:Eli"] == "5"
    assert shown["format"] == "Swiss · Round 3 of 3"
    assert "join" not in texts(TABLE_VIEW)


def test_the_committed_screenshots_are_what_the_screen_draws(tmp_path: Path) -> None:
    written = render(tmp_path)
    assert {p.name for p in written} == {p.name for p in DOCS.glob("scoreboard-*.png")}
    differing = {p.name: n for p in written
                 if (n := _differing_pixels(p, DOCS / p.name))}
    assert differing == {}, ("run make event-screenshots "
                             "and look at the pictures")


def test_when_not_every_table_fits_the_offline_ones_are_shown() -> None:
    lines = tuple(TableLine(table=f"t{n}", online=n not in (5, 8), since=0.0, hands=3)
                  for n in range(1, 9))
    with utc():
        shown = texts(replace(HOST_VIEW, tables=lines))
    statuses = sorted(k for k in shown if k.startswith("status:t"))
    assert {"status:t5", "status:t8"} <= set(statuses)
    assert len(statuses) < 8
    assert shown["status:more"] == f"{8 - len(statuses)} more tables online"
    assert all(w.rect.bottom <= 412 for w in tournament_widgets(replace(HOST_VIEW, tables=lines)))


def test_set_up_seats_a_swiss_round_but_not_free_play_a_bye_or_the_host() -> None:
    seated = seated_round(replace(HOST_VIEW, me="t2"))
    assert seated is not None
    assert (seated.round, seated.rounds, seated.players) == (3, 3, ("Ada", "Gus", "Cleo", "Hana"))
    assert seated.scoring.rounds == 4 and seated.scoring.target is None
    assert tournament_round(seated.key, "p4x9wz") == (True, 3)
    assert seated_round(HOST_VIEW) is None  # the host sits at no table
    assert TABLE_VIEW.seating is not None and TABLE_VIEW.info is not None
    no_seat = replace(TABLE_VIEW, seating=TABLE_VIEW.seating.model_copy(
        update={"tables": {"t2": TABLE_VIEW.seating.tables["t2"]}, "byes": ["Ada"]}))
    assert seated_round(no_seat) is None  # a bye this round: Set-up is the table's own
    free = replace(TABLE_VIEW, info=TABLE_VIEW.info.model_copy(update={"format": "free"}))
    assert seated_round(free) is None
    over = replace(TABLE_VIEW, seating=TABLE_VIEW.seating.model_copy(update={"over": True}))
    assert seated_round(over) is None


def test_a_correction_to_an_earlier_round_is_said_above_the_seating_it_leaves() -> None:
    """The host's screen says a finished game of an earlier round was corrected: the standings
    changed, the round seated did not."""
    assert HOST_VIEW.seating is not None
    view = replace(HOST_VIEW, seating=HOST_VIEW.seating.model_copy(
        update={"correction": Correction(round=1, table="t2", seated=3)}))
    shown = texts(view)
    assert shown["seat:0"] == "Round 1, Bar corrected: standings updated; round 3 stays as seated"
    assert (shown["seat:1"], shown["seat:2"]) == ("Window: Eli, Ivo, Ben, Dev",
                                                  "Bar: Ada, Gus, Cleo, Hana")
    assert shown["status:more"] == "2 more tables online"  # both online: the seating comes first
    assert all(w.rect.bottom <= 412 for w in tournament_widgets(view))
    assert "corrected" not in " ".join(texts(HOST_VIEW).values())


def test_an_offline_table_is_never_counted_among_the_tables_online() -> None:
    """With a correction on the host's screen there is room for one table's status: the
    offline one takes it, and no line says the other tables are online."""
    assert HOST_VIEW.seating is not None
    view = replace(HOST_VIEW, tables=(
        TableLine(table="t1", name="Window", online=True, since=0.0, hands=8),
        TableLine(table="t2", name="Bar", online=False, since=0.0, hands=7, waiting=1)),
        seating=HOST_VIEW.seating.model_copy(
            update={"correction": Correction(round=1, table="t2", seated=3)}))
    with utc():
        shown = texts(view)
    assert shown["status:t2"] == "Bar offline since 00:00, 1 rounds waiting"
    assert "status:t1" not in shown and "status:more" not in shown
    assert shown["seat:2"] == "Bar: Ada, Gus, Cleo, Hana"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=8), st.booleans(), st.booleans(),
       st.integers(1, 3))
def test_the_right_column_keeps_the_seating_and_says_the_truth_about_the_tables(
        online: list[bool], corrected: bool, join: bool, seated: int) -> None:
    """Whatever the tables, the correction and the join code: everything fits above the
    navigation bar; a table goes unlisted only when offline ones fill the room or the last line
    counts it, and that count is of online ones only; the correction never pushes the
    seating's first two lines off."""
    assert HOST_VIEW.seating is not None
    names = ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lu"]
    tables = tuple(TableLine(table=f"t{n + 1}", online=up, since=0.0, hands=3)
                   for n, up in enumerate(online))
    seating = HOST_VIEW.seating.model_copy(update={
        "tables": {f"t{n + 1}": names[4 * n:4 * n + 4] for n in range(seated)}, "byes": [],
        "correction": Correction(round=1, table="t1", seated=3) if corrected else None})
    view = replace(HOST_VIEW, tables=tables, seating=seating,
                   join_code=HOST_VIEW.join_code if join else None)
    widgets = tournament_widgets(view)
    assert all(w.rect.bottom <= CONTENT_BOTTOM for w in widgets)
    with utc():
        shown = texts(view)
    listed = {line.table for line in tables if f"status:{line.table}" in shown}
    hidden_offline = [line for line in tables if not line.online and line.table not in listed]
    if hidden_offline:
        assert all(not line.online for line in tables if line.table in listed)
        assert "status:more" not in shown
    if "status:more" in shown:
        missing = sum(1 for line in tables if line.online and line.table not in listed)
        assert shown["status:more"] == f"{missing} more tables online"
    elif len(listed) < len(tables):  # offline tables fill the room: those come first
        assert all(not line.online for line in tables if line.table in listed)
    lines = seating_lines(view)
    for index in range(corrected + min(2, seated)):
        assert shown[f"seat:{index}"] == lines[index]
