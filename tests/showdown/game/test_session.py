"""The game session as the table sees it: entries, undo, edits, the end, and resuming."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.scoring import ScoringMode, ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import (
    EditRound,
    EntryRejected,
    EntryUndone,
    Event,
    GameStarted,
    GameWon,
    HandEntry,
    RecordRound,
    RecordShowdown,
    RoundRecorded,
    ScoresUpdated,
    SetUpGame,
    ShowdownRecorded,
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
    answer = s.handle(SetUpGame(players=PLAYERS, scoring=ScoringSettings(target=100)))
    assert isinstance(answer[0], GameStarted)
    return s


def points(**held: int) -> dict[str, HandEntry]:
    return {name: HandEntry(points=value) for name, value in held.items()}


def accepted(events: list[Event]) -> list[Event]:
    assert not any(isinstance(e, EntryRejected) for e in events), events
    return events


def rejected(events: list[Event]) -> str:
    assert len(events) == 1 and isinstance(events[0], EntryRejected), events
    return events[0].message


def entry_count(session: Session) -> int:
    state = session.state
    assert state is not None
    return len(session.journal.entries(state.game_id))


def test_round_by_points_scores_the_player_who_went_out(session: Session) -> None:
    events = accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=12, Cy=30))))
    assert isinstance(events[0], RoundRecorded)
    scores = events[1]
    assert isinstance(scores, ScoresUpdated)
    assert scores.totals == {"Ann": 42, "Bob": 0, "Cy": 0}
    assert scores.dealer == "Bob"  # the deal passes left


def test_round_by_cards_tapped_counts_their_values(session: Session) -> None:
    hands = {
        "Bob": HandEntry(cards={"7": 2, "Draw Two": 1}),
        "Cy": HandEntry(cards={"wild": 1}, points=50),
    }
    accepted(session.handle(RecordRound(went_out="Ann", hands=hands)))
    assert session.state is not None
    assert session.state.totals["Ann"] == 7 + 7 + 20 + 50
    assert session.state.rounds[0].points == {"Ann": 0, "Bob": 34, "Cy": 50}


def test_cards_and_total_that_disagree_are_refused(session: Session) -> None:
    hands = {"Bob": HandEntry(cards={"9": 1}, points=10), "Cy": HandEntry(points=5)}
    message = rejected(session.handle(RecordRound(went_out="Ann", hands=hands)))
    assert "worth 9" in message and "10" in message
    assert entry_count(session) == 1


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (RecordRound(went_out="Ann", hands=points(Bob=-5, Cy=3)), "negative"),
        (RecordRound(went_out="Ann", hands=points(Bob=5000, Cy=3)), "more than"),
        (RecordRound(went_out="Ann", hands=points(Bob=1401, Cy=0)), "more than"),
        (RecordRound(went_out="Zed", hands=points(Bob=5, Cy=3)), "'Zed' is not playing"),
        (RecordRound(went_out="Ann", hands=points(Bob=5, Zed=3)), "'Zed' is not playing"),
        (RecordRound(went_out="Ann", hands=points(Bob=5)), "Cy"),
        (
            RecordRound(went_out="Ann", hands={"Bob": HandEntry(cards={"7": 9}), **points(Cy=1)}),
            "deck has only 8",
        ),
        (
            RecordRound(
                went_out="Ann", hands={"Bob": HandEntry(cards={"joker": 1}), **points(Cy=1)}
            ),
            "not a kind of card",
        ),
        (RecordShowdown(winner="Ann", loser="Zed", cards_loaded=2), "'Zed' is not playing"),
        (RecordShowdown(winner="Ann", loser="Ann", cards_loaded=2), "against themselves"),
        (
            RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2, reaction_ms={"Ann": -1}),
            "impossible",
        ),
        (
            RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2, left="Cy", right="Bob"),
            "paddles",
        ),
        (EditRound(round=1, went_out="Ann", hands=points(Bob=1, Cy=1)), "no round 1"),
        (UndoLast(), "nothing to undo"),
    ],
)
def test_bad_entries_change_nothing_and_say_why(
    session: Session, command: RecordRound | RecordShowdown | EditRound | UndoLast, says: str
) -> None:
    before = session.state
    message = rejected(session.handle(command))
    assert says in message
    assert entry_count(session) == 1
    assert session.state is before


def test_second_result_for_one_showdown_is_refused(session: Session) -> None:
    first = RecordShowdown(
        winner="Ann", loser="Bob", cards_loaded=2, reason="race", showdown_id="7"
    )
    accepted(session.handle(first))
    again = RecordShowdown(winner="Bob", loser="Ann", cards_loaded=2, showdown_id="7")
    events = session.handle(again)
    assert "showdown 7 already has a result" in rejected(events)
    assert isinstance(events[0], EntryRejected) and events[0].duplicate
    assert session.state is not None
    assert [s.winner for s in session.state.showdowns] == ["Ann"]


def test_showdowns_belong_to_the_round_being_played(session: Session) -> None:
    accepted(session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=1)))
    accepted(session.handle(RecordRound(went_out="Cy", hands=points(Ann=5, Bob=9))))
    accepted(session.handle(RecordShowdown(winner="Cy", loser="Ann", cards_loaded=3)))
    assert session.state is not None
    assert [(s.round, s.loser) for s in session.state.showdowns] == [(1, "Bob"), (2, "Ann")]


def test_undo_takes_back_the_last_entry_only(session: Session) -> None:
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=10))))
    accepted(session.handle(RecordShowdown(winner="Bob", loser="Cy", cards_loaded=2)))
    events = accepted(session.handle(UndoLast()))
    assert isinstance(events[0], EntryUndone) and events[0].what == "showdown"
    assert session.state is not None and session.state.showdowns == ()
    events = accepted(session.handle(UndoLast()))
    assert isinstance(events[0], EntryUndone) and events[0].what == "round"
    assert session.state.rounds == ()
    assert session.state.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert "nothing to undo" in rejected(session.handle(UndoLast()))
    # Nothing is erased: the journal still holds every entry and both undos.
    assert entry_count(session) == 5


def test_editing_a_past_round_recomputes_every_total(session: Session) -> None:
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=10))))
    accepted(session.handle(RecordRound(went_out="Bob", hands=points(Ann=5, Cy=5))))
    assert session.state is not None and session.state.totals == {"Ann": 20, "Bob": 10, "Cy": 0}
    accepted(session.handle(EditRound(round=1, went_out="Cy", hands=points(Ann=3, Bob=4))))
    assert session.state.totals == {"Ann": 0, "Bob": 10, "Cy": 7}
    assert [r.went_out for r in session.state.rounds] == ["Cy", "Bob"]
    # The edit itself can be undone.
    accepted(session.handle(UndoLast()))
    assert session.state.totals == {"Ann": 20, "Bob": 10, "Cy": 0}


def test_an_edit_that_makes_later_rounds_impossible_is_refused(session: Session) -> None:
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=10))))
    accepted(session.handle(RecordRound(went_out="Bob", hands=points(Ann=5, Cy=5))))
    # Round 1 worth 100 would end the game, so round 2 could never have been played.
    message = rejected(
        session.handle(EditRound(round=1, went_out="Ann", hands=points(Bob=50, Cy=50)))
    )
    assert "impossible" in message
    assert session.state is not None and session.state.totals == {"Ann": 20, "Bob": 10, "Cy": 0}


def test_game_ends_at_target_with_its_winner(session: Session) -> None:
    heard: list[Event] = []
    session.subscribe(heard.append)
    accepted(session.handle(RecordRound(went_out="Bob", hands=points(Ann=60, Cy=50))))
    won = [e for e in heard if isinstance(e, GameWon)]
    assert won == [GameWon(winners=["Bob"], totals={"Ann": 0, "Bob": 110, "Cy": 0})]
    state = session.state
    assert state is not None and state.is_over and state.winners == ("Bob",)
    assert state.dealer is None
    assert "game is over" in rejected(
        session.handle(RecordRound(went_out="Ann", hands=points(Bob=1, Cy=1)))
    )
    assert "game is over" in rejected(
        session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=1))
    )
    # Undoing the final round reopens the game.
    accepted(session.handle(UndoLast()))
    assert not session.state.is_over


def test_a_restarted_session_resumes_exactly_where_it_was(db: Path, session: Session) -> None:
    accepted(session.handle(RecordShowdown(
        winner="Ann", loser="Bob", cards_loaded=2, reason="race", left="Ann", right="Bob",
        reaction_ms={"Ann": 201.5, "Bob": 260.0}, side_counts=(0, 2), showdown_id="1",
    )))
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=10))))
    accepted(session.handle(EditRound(round=1, went_out="Ann", hands=points(Bob=12, Cy=10))))
    before = session.state
    session.journal.close()
    resumed = Session(Journal.open(db))
    after = resumed.state
    assert before is not None and after is not None
    assert after.totals == before.totals == {"Ann": 22, "Bob": 0, "Cy": 0}
    assert after.rounds == before.rounds
    assert after.showdowns == before.showdowns
    assert after.dealer == "Bob"
    assert "already has a result" in rejected(
        resumed.handle(RecordShowdown(winner="Bob", loser="Ann", cards_loaded=2, showdown_id="1"))
    )
    accepted(resumed.handle(UndoLast()))
    assert resumed.state is not None and resumed.state.totals["Ann"] == 20


def test_a_retried_command_is_recorded_once(session: Session) -> None:
    command = RecordRound(went_out="Ann", hands=points(Bob=10, Cy=10), command_id="tablet-41")
    accepted(session.handle(command))
    events = session.handle(command)
    assert isinstance(events[0], EntryRejected) and events[0].duplicate
    assert session.state is not None and len(session.state.rounds) == 1


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        (SetUpGame(players=["Ann", "ann"]), "same name"),
        (SetUpGame(players=["Ann", "Bob"], preset="poker"), "unknown preset"),
        (SetUpGame(players=["Ann", "Bob"], first_dealer="Cy"), "first dealer"),
        (
            SetUpGame(players=["Ann", "Bob", "Cy"], scoring=ScoringSettings(mode="partners")),
            "exactly 4 players",
        ),
    ],
)
def test_bad_set_up_is_refused(db: Path, setup: SetUpGame, says: str) -> None:
    session = Session(Journal.open(db))
    assert says in rejected(session.handle(setup))
    assert session.state is None
    assert session.journal.games() == []


def test_entries_before_any_set_up_are_refused(db: Path) -> None:
    session = Session(Journal.open(db))
    assert "no game is set up" in rejected(session.handle(UndoLast()))


def test_first_dealer_and_the_winner_deals_next(db: Path) -> None:
    session = Session(Journal.open(db))
    accepted(session.handle(SetUpGame(players=PLAYERS, first_dealer="Cy")))
    assert session.state is not None and session.state.dealer == "Cy"
    accepted(session.handle(RecordRound(went_out="Bob", hands=points(Ann=1, Cy=1))))
    assert session.state.dealer == "Ann"  # passes left from Cy, wrapping round


def test_challenge_eliminates_and_the_eliminated_cannot_enter(db: Path) -> None:
    session = Session(Journal.open(db))
    scoring = ScoringSettings(mode=ScoringMode.CHALLENGE, target=50)
    accepted(session.handle(SetUpGame(players=PLAYERS, scoring=scoring)))
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=60, Cy=10))))
    assert session.state is not None and session.state.eliminated == ("Bob",)
    assert "not in this round" in rejected(
        session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=1))
    )
    events = accepted(session.handle(RecordRound(went_out="Ann", hands=points(Cy=45))))
    assert any(isinstance(e, GameWon) and e.winners == ["Ann"] for e in events)


def test_showdown_fields_are_kept(session: Session) -> None:
    accepted(session.handle(RecordShowdown(
        winner="Bob", loser="Cy", cards_loaded=3, reason="false start", left="Cy", right="Bob",
        reaction_ms={"Bob": 180.0}, side_counts=(3, 0), showdown_id="u-12",
    )))
    assert session.state is not None
    recorded = session.state.showdowns[0]
    assert recorded == ShowdownRecorded(
        round=1, winner="Bob", loser="Cy", cards_loaded=3, reason="false-start", left="Cy",
        right="Bob", reaction_ms={"Bob": 180.0}, side_counts=(3, 0), showdown_id="u-12",
    )


def test_a_new_game_starts_after_the_last_one(db: Path, session: Session) -> None:
    accepted(session.handle(RecordRound(went_out="Bob", hands=points(Ann=60, Cy=50))))
    accepted(session.handle(SetUpGame(players=["Dee", "Eve"])))
    assert session.state is not None and session.state.players == ("Dee", "Eve")
    assert len(session.journal.games()) == 2
    session.journal.close()
    assert Session(Journal.open(db)).state is not None


def test_statistics_per_player(session: Session) -> None:
    accepted(session.handle(RecordShowdown(
        winner="Ann", loser="Bob", cards_loaded=2, reason="race", left="Ann", right="Bob",
        reaction_ms={"Ann": 210.0, "Bob": 300.0}, source="unit",
    )))
    accepted(session.handle(RecordShowdown(
        winner="Ann", loser="Cy", cards_loaded=3, reason="race", reaction_ms={"Ann": 250.0},
    )))
    accepted(session.handle(RecordShowdown(
        winner="Ann", loser="Bob", cards_loaded=1, reason="false-start",
        reaction_ms={"Bob": 5.0},
    )))
    accepted(session.handle(RecordRound(went_out="Ann", hands=points(Bob=10, Cy=20))))
    assert session.state is not None
    stats = session.state.stats
    assert stats["Ann"].rounds_won == 1 and stats["Ann"].points == 30
    assert (stats["Ann"].showdowns_won, stats["Ann"].showdowns_lost) == (3, 0)
    assert (stats["Bob"].showdowns_lost, stats["Bob"].cards_taken) == (2, 3)
    assert stats["Bob"].false_starts == 1
    assert stats["Ann"].fastest_ms == 210.0 and stats["Ann"].median_ms == 230.0
    assert stats["Bob"].fastest_ms == 300.0  # a false start's time says nothing about speed
    assert stats["Cy"].cards_taken == 3
    # Undo keeps them right.
    accepted(session.handle(UndoLast()))
    accepted(session.handle(UndoLast()))
    assert session.state.stats["Bob"].cards_taken == 2
    assert session.state.stats["Ann"].rounds_won == 0


def test_threads_entering_at_once_lose_nothing(session: Session) -> None:
    """The unit's result thread and the scoreboard's touches may arrive together."""
    import threading

    def record(prefix: str) -> None:
        for n in range(40):
            session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=1,
                                          showdown_id=f"{prefix}{n}"))
            session.journal.games()  # a reader in between

    threads = [threading.Thread(target=record, args=(p,)) for p in ("a", "b", "c")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert session.state is not None
    assert len(session.state.showdowns) == 120
    assert session.journal.integrity_check() == "ok"
    assert len(session.journal.entries(session.state.game_id)) == 121
