"""The session keeps 002's table penalties and its pig tally: what the scoreboard shows, the
history holds and the export writes. Seeds: ``002_2cf2187f47789488.txt`` (Killer UNO's silence
and slap, hero and mean scoring), ``003_ea5f156088150643.txt`` (advice, a wrong card)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from engine.rules import PenaltyReason
from engine.scoring import ScoringSettings
from showdown.app.cli import main
from showdown.game.export import game_json, penalties_csv, rounds_csv
from showdown.game.journal import Journal
from showdown.game.messages import (
    EntryRejected,
    EntryUndone,
    Event,
    GameWon,
    HandEntry,
    PenaltyRecorded,
    RecordPenalty,
    RecordRound,
    ScoresUpdated,
    SetUpGame,
    UndoLast,
    parse_command,
)
from showdown.game.session import Session

PLAYERS = ["Ann", "Bob", "Cy"]


def accepted(events: list[Event]) -> list[Event]:
    assert not any(isinstance(e, EntryRejected) for e in events), events
    return events


def rejected(events: list[Event]) -> str:
    assert len(events) == 1 and isinstance(events[0], EntryRejected), events
    return events[0].message


def game(tmp_path: Path, preset: str = "killer", **scoring: object) -> Session:
    session = Session(Journal.open(tmp_path / "showdown.db"))
    accepted(session.handle(SetUpGame(
        players=PLAYERS, preset=preset, scoring=ScoringSettings.model_validate(scoring)
    )))
    return session


def out(session: Session, went_out: str, **held: int) -> list[Event]:
    hands = {name: HandEntry(points=value) for name, value in held.items()}
    return accepted(session.handle(RecordRound(went_out=went_out, hands=hands)))


def test_a_killer_penalty_is_recorded_in_its_round_seed_002(tmp_path: Path) -> None:
    """002 Killer 5: "Vocal people have to fine touch 2 cards": the table records who and why;
    the cards default to the rules' 2, and the entry can be undone."""
    session = game(tmp_path)
    events = accepted(session.handle(RecordPenalty(player="bob", reason=PenaltyReason.SILENCE)))
    assert events[0] == PenaltyRecorded(round=1, player="Bob", reason=PenaltyReason.SILENCE,
                                        cards=2)
    assert isinstance(events[-1], ScoresUpdated)
    state = session.state
    assert state is not None and state.penalties == (events[0],)
    assert state.last_fact == events[0]
    undone = accepted(session.handle(UndoLast()))
    assert isinstance(undone[0], EntryUndone) and undone[0].what == "penalty"
    assert session.state is not None and session.state.penalties == ()


def test_penalty_reasons_are_the_seeds_and_spelt_freely_seed_002_003() -> None:
    """The scoreboard's button sends one of the seeds' reasons, however it is spelt."""
    command = parse_command({"kind": "record_penalty", "player": "Ann", "reason": "Wrong card"})
    assert isinstance(command, RecordPenalty) and command.reason is PenaltyReason.WRONG_CARD
    assert [str(r) for r in PenaltyReason] == ["silence", "slap", "advice", "wrong-card",
                                               "missed-uno"]


def test_a_penalty_the_rules_do_not_have_is_refused_seed_002(tmp_path: Path) -> None:
    """Silence is Killer UNO's table rule: under the official rules it is refused, nothing
    stored; advice and a wrong card are 003's and recorded under any preset."""
    session = game(tmp_path, preset="official")
    message = rejected(session.handle(RecordPenalty(player="Ann", reason="silence")))
    assert message == "silence is not a table rule of the official rules"
    assert session.state is not None and session.state.penalties == ()
    accepted(session.handle(RecordPenalty(player="Ann", reason="advice")))
    events = accepted(session.handle(RecordPenalty(player="Cy", reason="wrong-card")))
    assert isinstance(events[0], PenaltyRecorded) and events[0].cards == 2
    assert "Dee" in rejected(session.handle(RecordPenalty(player="Dee", reason="advice")))


def test_hero_pigs_reach_the_scoreboard_and_end_the_game_seed_002(tmp_path: Path) -> None:
    """002 Hero Scoring: "the first 500 points can draw a pig for each of the other people ...
    Draw all the points after the pig zero": the state and the events carry each player's pigs;
    the game ends at the agreed pigs."""
    session = game(tmp_path, preset="house", mode="hero", pigs=1)
    events = out(session, "Ann", Bob=300, Cy=250)
    updated = next(e for e in events if isinstance(e, ScoresUpdated))
    assert updated.pigs == {"Ann": 0, "Bob": 1, "Cy": 1}
    assert updated.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    won = next(e for e in events if isinstance(e, GameWon))
    assert won.winners == ["Ann"] and won.pigs == {"Ann": 0, "Bob": 1, "Cy": 1}
    state = session.state
    assert state is not None and state.pigs == {"Ann": 0, "Bob": 1, "Cy": 1}
    assert state.stats["Bob"].pigs == 1


def test_pigs_are_in_the_export_seed_002(tmp_path: Path) -> None:
    """The history's rounds carry each player's pigs, in JSON and in the rounds CSV; the
    penalties have their own CSV."""
    session = game(tmp_path, mode="mean", pigs=3)
    out(session, "Ann", Bob=60, Cy=20)
    accepted(session.handle(RecordPenalty(player="Cy", reason="slap")))
    out(session, "Ann", Bob=40, Cy=10)  # Bob lands on 100 exactly: Ann and Cy get a pig
    state = session.state
    assert state is not None
    exported = game_json(state, session.journal.entries(state.game_id))
    assert exported["rounds"][1]["pigs_drawn"] == {"Ann": 1, "Bob": 0, "Cy": 1}
    assert exported["rounds"][1]["pigs"] == exported["pigs"] == {"Ann": 1, "Bob": 0, "Cy": 1}
    assert exported["penalties"] == [
        {"round": 2, "player": "Cy", "reason": "slap", "cards": 2}
    ]
    rows = list(csv.DictReader(io.StringIO(rounds_csv(state))))
    assert [row["Ann pigs"] for row in rows] == ["0", "1"]
    assert list(csv.reader(io.StringIO(penalties_csv(state)))) == [
        ["round", "player", "reason", "cards"], ["2", "Cy", "slap", "2"]
    ]


def test_export_list_ranks_a_pig_game_by_its_pigs_seed_002(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every score goes back to 0 at a pig: the list says the pigs, the fewest first."""
    session = game(tmp_path, preset="house", mode="hero", pigs=2)
    out(session, "Ann", Bob=300, Cy=250)  # Ann banks 550: a pig on Bob and on Cy
    out(session, "Cy", Ann=20, Bob=30)
    session.journal.close()
    assert main(["export", "--db", str(tmp_path / "showdown.db"), "--list"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert line.split("\t")[2:] == ["open", "round 3",
                                    "Ann 0 (0 pigs), Cy 50 (1 pig), Bob 0 (1 pig)"]


def test_a_standard_game_exports_as_before_without_pigs(tmp_path: Path) -> None:
    session = game(tmp_path, preset="official")
    out(session, "Ann", Bob=6, Cy=7)
    state = session.state
    assert state is not None
    exported = game_json(state, session.journal.entries(state.game_id))
    assert "pigs" not in exported and "pigs" not in exported["rounds"][0]
    assert "Ann pigs" not in rounds_csv(state)


def test_export_command_writes_the_penalties_csv(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = game(tmp_path)
    accepted(session.handle(RecordPenalty(player="Ann", reason="silence", cards=3)))
    session.journal.close()
    assert main(["export", "--db", str(tmp_path / "showdown.db"), "--format", "csv",
                 "--penalties"]) == 0
    assert capsys.readouterr().out.splitlines() == ["round,player,reason,cards",
                                                     "1,Ann,silence,3"]
    assert main(["export", "--db", str(tmp_path / "showdown.db")]) == 0
    assert json.loads(capsys.readouterr().out)["penalties"][0]["cards"] == 3


@pytest.mark.parametrize(("preset", "cards"), [("showdown", 2), ("edition-2018", 4)])
def test_a_missing_uno_call_is_a_penalty_of_the_rules_uno_cards_seed_000_001_004(
    tmp_path: Path, preset: str, cards: int
) -> None:
    """000 and 004: "If you don't yell "UNO" and you are caught ..., you must draw two cards";
    001: "you must pick FOUR more cards". A table playing real cards records it as a penalty,
    of the cards its rules say, under every preset."""
    session = game(tmp_path, preset=preset)
    events = accepted(session.handle(RecordPenalty(player="Bob", reason="missed-uno")))
    assert isinstance(events[0], PenaltyRecorded)
    assert (events[0].player, events[0].reason, events[0].cards) == (
        "Bob", PenaltyReason.MISSED_UNO, cards)

