"""All-time figures per player, from every game the table kept: on the Stats screen and from
`showdown export --players`."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.app.cli import main
from showdown.game.alltime import all_time
from showdown.game.journal import Journal
from showdown.game.messages import HandEntry, RecordRound, RecordShowdown, SetUpGame
from showdown.game.session import Session


@pytest.fixture
def evenings(tmp_path: Path) -> Path:
    """Two games Ana and Budi played (Ana won the first), a deleted one, and a bot game."""
    db = tmp_path / "evenings.db"
    with Journal.open(db) as journal:
        session = Session(journal)
        session.handle(SetUpGame(players=["Ana", "Budi"], scoring=ScoringSettings(target=50)))
        session.handle(RecordShowdown(winner="Ana", loser="Budi", cards_loaded=2, source="unit",
                                      left="Ana", right="Budi",
                                      reaction_ms={"Ana": 200.0, "Budi": 300.0}))
        session.handle(RecordRound(went_out="Ana", hands={"Budi": HandEntry(points=60)}))
        session.handle(SetUpGame(players=["Budi", "Ana", "Chen"]))
        session.handle(RecordShowdown(winner="Chen", loser="Ana", cards_loaded=1, source="unit",
                                      reason="false-start", left="Ana", right="Chen"))
        session.handle(RecordShowdown(winner="Ana", loser="Budi", cards_loaded=2, source="unit",
                                      left="Ana", right="Budi",
                                      reaction_ms={"Ana": 260.0, "Budi": 240.0}))
        session.handle(RecordRound(went_out="Budi", hands={"Ana": HandEntry(points=10),
                                                            "Chen": HandEntry(points=20)}))
        session.handle(RecordRound(went_out="Ana", hands={"Budi": HandEntry(points=5),
                                                           "Chen": HandEntry(points=7)}))
        session.handle(SetUpGame(players=["Ana", "Dee"]))  # deleted below
        session.handle(RecordRound(went_out="Dee", hands={"Ana": HandEntry(points=99)}))
        assert session.state is not None
        journal.label_game(session.state.game_id, deleted=True)
        session.handle(SetUpGame(players=["Ada", "Ana"], command_id="setup:1:0"))  # bots
        session.handle(RecordRound(went_out="Ada", hands={"Ana": HandEntry(points=40)}))
    return db


def test_all_time_figures_come_from_every_game_kept(evenings: Path) -> None:
    with Journal.open(evenings) as journal:
        records = {r.name: r for r in all_time(k.state for k in Session(journal).kept_games())}
    assert set(records) == {"Ana", "Budi", "Chen"}  # not the deleted game's nor the bots'
    ana, budi, chen = records["Ana"], records["Budi"], records["Chen"]
    assert (ana.games, ana.won, budi.games, budi.won, chen.games) == (2, 1, 2, 0, 1)
    assert (ana.rounds, ana.points) == (3, 60 + 12)  # 60 and 12 scored, 0 in Budi's round
    assert ana.points_per_round == 24.0
    assert (ana.showdowns_won, ana.showdowns_lost, ana.false_starts) == (2, 1, 1)
    assert (ana.best_ms, ana.median_ms) == (200.0, 230.0)
    assert (budi.best_ms, budi.median_ms, budi.showdowns_lost) == (240.0, 270.0, 2)
    assert (chen.best_ms, chen.false_starts, chen.showdowns_won) == (None, 0, 1)


def test_export_players_writes_the_all_time_figures(
    evenings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--db", str(evenings), "--players"]) == 0
    figures = {row["player"]: row for row in json.loads(capsys.readouterr().out)}
    assert figures["Ana"] == {
        "player": "Ana", "games": 2, "won": 1, "rounds": 3, "points": 72,
        "points_per_round": 24.0, "showdowns_won": 2, "showdowns_lost": 1, "best_ms": 200.0,
        "median_ms": 230.0, "false_starts": 1}
    assert main(["export", "--db", str(evenings), "--players", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["player"] for r in rows] == ["Ana", "Budi", "Chen"]
    assert rows[2]["best_ms"] == "" and rows[2]["games"] == "1"


@pytest.fixture
def unnamed(tmp_path: Path) -> Path:
    """Two evenings with a seat nobody named, "Player 2" both times (two different people)."""
    db = tmp_path / "unnamed.db"
    with Journal.open(db) as journal:
        session = Session(journal)
        for went_out in ("Ana", "Player 2"):
            session.handle(SetUpGame(players=["Ana", "Player 2"],
                                     scoring=ScoringSettings(target=50)))
            session.handle(RecordShowdown(winner="Player 2", loser="Ana", cards_loaded=2,
                                          source="unit", left="Ana", right="Player 2",
                                          reaction_ms={"Ana": 300.0, "Player 2": 150.0}))
            other = "Player 2" if went_out == "Ana" else "Ana"
            session.handle(RecordRound(went_out=went_out, hands={other: HandEntry(points=60)}))
    return db


def test_an_unnamed_seat_is_nobodys_all_time_record(
    unnamed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", "--db", str(unnamed), "--players", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(",")[0] for line in lines] == ["player", "Ana"]
    ana = dict(zip(lines[0].split(","), lines[1].split(","), strict=True))
    assert (ana["games"], ana["won"], ana["showdowns_lost"], ana["best_ms"]) == (
        "2", "1", "2", "300.0")


def test_export_list_names_a_renamed_game_and_marks_a_deleted_one(
    evenings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal.open(evenings) as journal:
        journal.label_game(1, name="Friday")
    assert main(["export", "--db", str(evenings), "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("\tnamed Friday")
    assert "\tdeleted " in lines[2]
