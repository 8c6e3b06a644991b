"""Redo after an undo, and the correction of a showdown's result: both survive a restart."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import (
    CorrectShowdown,
    EditRound,
    EntryRejected,
    EntryUndone,
    Event,
    HandEntry,
    RecordRound,
    RecordShowdown,
    RedoLast,
    SetUpGame,
    UndoLast,
)
from showdown.game.session import Session

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "showdown.db"


@pytest.fixture
def session(db: Path) -> Session:
    s = Session(Journal.open(db))
    s.handle(SetUpGame(players=PLAYERS, scoring=ScoringSettings(target=200)))
    return s


def points(**held: int) -> dict[str, HandEntry]:
    return {name: HandEntry(points=value) for name, value in held.items()}


def ok(events: list[Event]) -> list[Event]:
    assert not any(isinstance(e, EntryRejected) for e in events), events
    return events


def refused(events: list[Event]) -> str:
    assert len(events) == 1 and isinstance(events[0], EntryRejected), events
    return events[0].message


def pairs(session: Session) -> list[tuple[str, str]]:
    assert session.state is not None
    return [(s.winner, s.loser) for s in session.state.showdowns]


def test_redo_brings_back_what_undo_took_back_in_its_place(session: Session, db: Path) -> None:
    ok(session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2)))
    ok(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=20))))
    ok(session.handle(UndoLast()))
    ok(session.handle(UndoLast()))
    assert session.state is not None and session.state.totals["Ann"] == 0 and not pairs(session)
    ok(session.handle(RedoLast()))  # the showdown first: redo goes back the way undo came
    assert pairs(session) == [("Ann", "Bob")] and session.state.rounds == ()
    ok(session.handle(RedoLast()))
    assert session.state.totals["Ann"] == 30 and len(session.state.rounds) == 1
    assert "nothing to redo" in refused(session.handle(RedoLast()))
    # The journal is the truth: a restart folds to the very same game.
    again = Session(Journal.open(db))
    assert again.state is not None and again.state.totals == session.state.totals
    assert [(s.winner, s.loser) for s in again.state.showdowns] == [("Ann", "Bob")]


def test_a_new_entry_after_an_undo_ends_redo(session: Session) -> None:
    ok(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=20))))
    ok(session.handle(UndoLast()))
    ok(session.handle(RecordShowdown(winner="Cy", loser="Bob", cards_loaded=1)))
    assert "nothing to redo" in refused(session.handle(RedoLast()))
    assert session.state is not None and session.state.rounds == ()


def test_an_edit_can_be_undone_and_redone(session: Session) -> None:
    ok(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=20))))
    ok(session.handle(EditRound(round=1, went_out="Bob", hands=points(Ann=4, Cy=6))))
    assert session.state is not None and session.state.totals["Bob"] == 10
    ok(session.handle(UndoLast()))
    assert session.state.totals == {"Ann": 30, "Bob": 0, "Cy": 0}
    ok(session.handle(RedoLast()))
    assert session.state.totals == {"Ann": 0, "Bob": 10, "Cy": 0}


def test_a_correction_swaps_the_last_showdown_and_undo_restores_it(
    session: Session, db: Path
) -> None:
    ok(session.handle(RecordShowdown(
        winner="Ann", loser="Bob", cards_loaded=3, source="unit", left="Ann", right="Bob",
        reaction_ms={"Ann": 180.0, "Bob": 240.0}, showdown_id="u1")))
    events = ok(session.handle(CorrectShowdown(winner="Bob", loser="Ann")))
    assert isinstance(events[0], EntryUndone)
    assert pairs(session) == [("Bob", "Ann")]
    assert session.state is not None
    fixed = session.state.showdowns[0]
    assert (fixed.source, fixed.cards_loaded, fixed.left, fixed.right) == ("hand", 3, "Ann", "Bob")
    assert fixed.reaction_ms == {"Ann": 180.0, "Bob": 240.0}  # what the unit measured stays
    assert Session(Journal.open(db)).state.showdowns == session.state.showdowns  # type: ignore[union-attr]
    assert "already won" in refused(session.handle(CorrectShowdown(winner="Bob", loser="Ann")))
    assert refused(session.handle(CorrectShowdown(winner="Cy", loser="Ann"))) == (
        "the last showdown was Bob against Ann")
    ok(session.handle(UndoLast()))  # the correction goes; the unit's result stands again
    assert pairs(session) == [("Ann", "Bob")]
    ok(session.handle(RedoLast()))
    assert pairs(session) == [("Bob", "Ann")]
    ok(session.handle(UndoLast()))
    ok(session.handle(UndoLast()))  # and then the unit's showdown itself
    assert pairs(session) == []
    # The unit's id still belongs to the first result: a retry of it stays a duplicate.
    again = session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=3,
                                          showdown_id="u1"))
    assert isinstance(again[0], EntryRejected) and again[0].duplicate


def test_a_correction_needs_the_same_two_players(session: Session) -> None:
    assert "no showdown to correct" in refused(
        session.handle(CorrectShowdown(winner="Bob", loser="Ann")))
    ok(session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2)))
    assert refused(session.handle(CorrectShowdown(winner="Cy", loser="Ann"))) == (
        "the last showdown was Ann against Bob")
