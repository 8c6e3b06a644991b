"""A finished game leaves the Pi as JSON or CSV that a spreadsheet or a program can read."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.app.cli import main
from showdown.game.journal import Journal, entry_crc
from showdown.game.messages import (
    HandEntry,
    RecordRound,
    RecordShowdown,
    SetUpGame,
    UndoLast,
)
from showdown.game.session import Session


@pytest.fixture
def played(tmp_path: Path) -> Path:
    db = tmp_path / "showdown.db"
    with Journal.open(db) as journal:
        session = Session(journal)
        session.handle(SetUpGame(players=["Ann", "Bob", "Cy"], scoring=ScoringSettings(target=60)))
        session.handle(RecordShowdown(
            winner="Ann", loser="Bob", cards_loaded=2, reason="race", left="Ann", right="Bob",
            reaction_ms={"Ann": 201.0, "Bob": 288.5}, side_counts=(0, 2), showdown_id="1",
            source="unit",
        ))
        session.handle(RecordRound(
            went_out="Ann", hands={"Bob": HandEntry(points=20), "Cy": HandEntry(cards={"5": 1})}
        ))
        session.handle(RecordRound(went_out="Cy", hands={"Ann": HandEntry(points=3),
                                                         "Bob": HandEntry(points=4)}))
        session.handle(UndoLast())
        session.handle(RecordRound(went_out="Bob", hands={"Ann": HandEntry(points=30),
                                                          "Cy": HandEntry(points=40)}))
    return db


def test_json_export_holds_the_game_and_its_audit_trail(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--db", str(played)]) == 0
    game = json.loads(capsys.readouterr().out)
    assert game["players"] == ["Ann", "Bob", "Cy"]
    assert [r["went_out"] for r in game["rounds"]] == ["Ann", "Bob"]
    assert game["rounds"][0]["held"] == {"Ann": 0, "Bob": 20, "Cy": 5}
    assert game["rounds"][0]["entered"]["Cy"] == {"cards": {"5": 1}}
    assert game["totals"] == {"Ann": 25, "Bob": 70, "Cy": 0}
    assert game["over"] is True and game["winners"] == ["Bob"]
    assert game["showdowns"][0]["reaction_ms"] == {"Ann": 201.0, "Bob": 288.5}
    assert game["stats"]["Bob"]["cards_taken"] == 2
    # The undone round is still in the audit trail.
    kinds = [e["kind"] for e in game["journal"]]
    assert kinds == ["set_up", "showdown", "round", "round", "undo", "round"]


def test_csv_export_of_rounds_and_of_showdowns(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "rounds.csv"
    assert main(["export", "--db", str(played), "--format", "csv", "-o", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(r["round"], r["went_out"], r["Cy held"], r["Bob total"]) for r in rows] == [
        ("1", "Ann", "5", "0"), ("2", "Bob", "40", "70")
    ]
    out = tmp_path / "showdowns.csv"
    assert main(["export", "--db", str(played), "--format", "csv", "--showdowns",
                 "-o", str(out)]) == 0
    (row,) = list(csv.DictReader(io.StringIO(out.read_text())))
    assert row["winner"] == "Ann" and row["loser_reaction_ms"] == "288.5"
    assert row["right_count"] == "2" and row["source"] == "unit"


def test_list_marks_a_finished_game_with_its_winner_and_final_scores(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal.open(played) as journal:  # a second game, still being played
        session = Session(journal)
        session.handle(SetUpGame(players=["Dee", "Eve"]))
        session.handle(RecordRound(went_out="Dee", hands={"Eve": HandEntry(points=12)}))
    assert main(["export", "--db", str(played), "--list"]) == 0
    finished, playing = capsys.readouterr().out.splitlines()
    assert finished.startswith("1\t")
    assert finished.split("\t")[2:] == ["over", "won by Bob", "Bob 70, Ann 25, Cy 0"]
    assert playing.split("\t")[2:] == ["open", "round 2", "Dee 12, Eve 0"]


def test_list_of_a_journal_not_made_yet_lists_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing-here.db"
    assert main(["export", "--db", str(missing), "--list"]) == 0
    printed = capsys.readouterr()
    assert printed.out == "" and f"no journal at {missing}: no games" in printed.err
    assert not missing.exists()


def test_export_tells_a_showdown_the_unit_decided_from_one_entered_by_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "two.db"
    with Journal.open(db) as journal:
        session = Session(journal)
        session.handle(SetUpGame(players=["Ann", "Bob"]))
        session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2, source="unit",
                                      left="Ann", right="Bob", reaction_ms={"Ann": 250.0}))
        session.handle(RecordShowdown(winner="Bob", loser="Ann", cards_loaded=3))  # by hand
    assert main(["export", "--db", str(db)]) == 0
    game = json.loads(capsys.readouterr().out)
    assert [(s["source"], s["reason"]) for s in game["showdowns"]] == [
        ("unit", "race"), ("hand", "hand")]
    out = tmp_path / "showdowns.csv"
    assert main(["export", "--db", str(db), "--format", "csv", "--showdowns", "-o",
                 str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [r["reason"] for r in rows] == ["race", "hand"]


def test_export_problems_are_one_line_messages(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--db", str(tmp_path / "missing.db")]) == 2
    assert "no journal at" in capsys.readouterr().err
    assert main(["export", "--db", str(played), "--game", "9"]) == 2
    assert "has no game 9" in capsys.readouterr().err
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"\x00not sqlite" * 100)
    assert main(["export", "--db", str(junk)]) == 2
    err = capsys.readouterr().err
    assert "not a readable database" in err and "Traceback" not in err


def test_an_unreadable_entry_is_reported_not_a_traceback(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _insert_raw(played, "round", '[{"kind": "round_recorded", "round": "x"}]')
    assert main(["export", "--db", str(played)]) == 2
    assert "journal entry 7 cannot be read" in capsys.readouterr().err


def _insert_raw(db: Path, kind: str, events: str) -> bytes:
    """Add a row as a newer version (or a bug) would have written it, checksum and all; the
    file's bytes afterwards."""
    raw = sqlite3.connect(db)
    raw.execute(
        "INSERT INTO entries (game_id, kind, events, recorded_at, crc) VALUES (1, ?, ?, 'now', ?)",
        (kind, events, entry_crc(1, None, kind, events, "now")),
    )
    raw.commit()
    raw.close()
    return db.read_bytes()


@pytest.mark.parametrize(
    ("kind", "events", "says"),
    [
        ("round", "{not json", "journal entry 7 is damaged (its events are not valid JSON"),
        ("round", '{"kind": "round_recorded"}', "journal entry 7 is damaged"),
        ("bonus", "[]", "journal entry 7 cannot be read (kind: unknown kind 'bonus'"),
    ],
)
@pytest.mark.parametrize(
    "argv",
    [["export", "--list"], ["export"], ["export", "--format", "csv"],
     ["run", "--sim", "--headless", "--games", "1"]],
)
def test_a_damaged_or_unknown_entry_is_refused_in_one_line_and_the_file_kept(
    played: Path, *, kind: str, events: str, says: str, argv: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _insert_raw(played, kind, events)
    assert main([*argv, "--db", str(played)]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and err.strip().count("\n") == 0
    assert played.read_bytes() == before


def test_an_export_to_a_missing_folder_is_one_line(
    played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nonexistent" / "out.csv"
    assert main(["export", "--db", str(played), "-o", str(target), "--format", "csv"]) == 2
    err = capsys.readouterr().err
    assert str(target) in err and "cannot write" in err and "Traceback" not in err
