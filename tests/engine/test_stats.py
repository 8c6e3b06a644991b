"""Per-player statistics: rounds, points, showdowns and reaction times."""

import pytest
from pydantic import ValidationError

from engine.scoring import RoundResult, Scoresheet, ScoringError, ScoringSettings
from engine.stats import PlayerStats, ShowdownReason, ShowdownRecord, player_stats


def showdown(
    left: int,
    right: int,
    winner: int | None,
    reason: str = "race",
    *,
    cards: int = 2,
    reaction_ms: tuple[float | None, float | None] = (None, None),
) -> ShowdownRecord:
    loser = None if winner is None else (right if winner == left else left)
    return ShowdownRecord(
        players=(left, right),
        cards_loaded=cards,
        winner=winner,
        loser=loser,
        reason=reason,  # the validator accepts the reporters' spellings
        reaction_ms=reaction_ms,
    )


def test_seed_004_showdowns_and_rounds_add_up_per_player() -> None:
    sheet = Scoresheet(ScoringSettings(), 3)
    sheet.record(RoundResult(went_out=0, hand_points=(0, 30, 12)))
    sheet.record(RoundResult(went_out=2, hand_points=(7, 50, 0)))
    records = [
        showdown(0, 1, 0, cards=3, reaction_ms=(210.0, 260.0)),
        showdown(1, 2, 2, "false start", cards=1, reaction_ms=(-40.0, None)),
        showdown(2, 0, 2, "side_count", cards=2, reaction_ms=(180.5, 181.0)),
        showdown(0, 2, None, "timeout"),
        showdown(0, 1, 0, cards=1, reaction_ms=(190.0, None)),
    ]
    ann, bo, cy = player_stats(3, sheet.history, records)
    assert (ann.rounds_won, ann.points, ann.points_held) == (1, 42, 7)
    assert (bo.rounds_won, bo.points, bo.points_held) == (0, 0, 80)
    assert (cy.rounds_won, cy.points) == (1, 57)
    assert (ann.showdowns_won, ann.showdowns_lost, ann.cards_taken) == (2, 1, 2)
    assert (bo.showdowns_won, bo.showdowns_lost, bo.cards_taken) == (0, 3, 5)
    assert bo.false_starts == 1 and ann.false_starts == 0
    assert (cy.showdowns_won, cy.showdowns_lost, cy.cards_taken) == (2, 0, 0)
    assert (ann.fastest_ms, ann.median_ms) == (181.0, 190.0)
    assert (bo.fastest_ms, bo.median_ms) == (260.0, 260.0)  # the false start's -40 is left out
    assert (cy.fastest_ms, cy.median_ms) == (180.5, 180.5)


def test_no_rounds_and_no_showdowns_give_zeros() -> None:
    (only, other) = player_stats(2, (), ())
    assert only == PlayerStats(seat=0, rounds_won=0, points=0, points_held=0, showdowns_won=0,
                               showdowns_lost=0, false_starts=0, cards_taken=0, fastest_ms=None,
                               median_ms=None, pigs=0)
    assert other.seat == 1 and other.pigs == 0 and other.median_ms is None


def test_a_game_without_pigs_shows_none_for_anyone() -> None:
    sheet = Scoresheet(ScoringSettings(), 2)
    sheet.record(RoundResult(went_out=0, hand_points=(0, 30)))
    assert [line.pigs for line in player_stats(2, sheet.history, ())] == [0, 0]


def test_every_false_start_counts() -> None:
    records = [showdown(0, 1, 1, "false-start", cards=2) for _ in range(3)]
    records.append(showdown(0, 1, 0, "false-start", cards=1))
    ann, bo = player_stats(2, (), records)
    assert (ann.false_starts, ann.showdowns_lost, ann.cards_taken) == (3, 3, 6)
    assert (bo.false_starts, bo.showdowns_lost, bo.cards_taken) == (1, 1, 1)


def test_the_smallest_reported_reaction_times_count() -> None:
    """Any time from go on counts, however small; only a press before go (negative) does not."""
    ann, bo, cy = player_stats(3, (), [
        showdown(0, 1, 0, reaction_ms=(0.0, 0.5)),
        showdown(2, 1, 1, "side-count", reaction_ms=(-0.5, 0.75)),
    ])
    assert (ann.fastest_ms, ann.median_ms) == (0.0, 0.0)
    assert (bo.fastest_ms, bo.median_ms) == (0.5, 0.625)
    assert (cy.fastest_ms, cy.median_ms) == (None, None)


def test_reason_spellings_from_either_reporter() -> None:
    assert showdown(0, 1, 1, "FALSE_START").reason is ShowdownReason.FALSE_START
    assert showdown(0, 1, 1, "side count").reason is ShowdownReason.SIDE_COUNT
    with pytest.raises(ValidationError, match="reason"):
        showdown(0, 1, 1, "coin toss")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"winner": 2, "loser": 1}, "must be the two players"),
        ({"winner": 0, "loser": 0}, "must be the two players"),
        ({"reason": "timeout"}, "timeout has no winner"),
        ({"players": (1, 1), "winner": 1, "loser": 1}, "two different seats"),
        ({"cards_loaded": 0}, "cards_loaded"),
    ],
)
def test_impossible_showdowns_are_refused(kwargs: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {
        "players": (0, 1),
        "cards_loaded": 2,
        "winner": 0,
        "loser": 1,
        "reason": "race",
    }
    with pytest.raises(ValidationError, match=message):
        ShowdownRecord.model_validate(fields | kwargs)


def test_a_showdown_for_a_seat_the_game_lacks_is_refused() -> None:
    with pytest.raises(ScoringError) as caught:
        player_stats(3, (), [showdown(1, 3, 3)])
    assert str(caught.value) == "a showdown between seats 1 and 3, but the game has seats 0 to 2"


def test_reaction_of_a_seat() -> None:
    record = showdown(4, 2, 2, reaction_ms=(300.0, 250.0))
    assert record.reaction_of(2) == 250.0 and record.reaction_of(0) is None


def test_the_engines_settled_showdown_becomes_a_record() -> None:
    # as engine.events.ShowdownSettled gives it: winner, loser, reason "paddle", the cards taken
    record = ShowdownRecord.settled(
        winner=3,
        loser=1,
        reason="paddle",
        cards_loaded=2,
        winner_ms=201.5,
        loser_ms=None,
        players=(1, 3),
    )
    assert record.players == (1, 3) and record.reason is ShowdownReason.RACE
    assert record.reaction_ms == (None, 201.5)
    both = ShowdownRecord.settled(winner=3, loser=1, reason="race", cards_loaded=2,
                                  winner_ms=201.5, loser_ms=260.0, players=(1, 3))
    assert both.reaction_ms == (260.0, 201.5)  # each time beside its own seat
    assert (both.reaction_of(1), both.reaction_of(3)) == (260.0, 201.5)
    hand = ShowdownRecord.settled(winner=0, loser=2, reason="agreed", cards_loaded=1)
    assert hand.players == (0, 2) and hand.reason is ShowdownReason.AGREED
    lines = ShowdownRecord.settled(winner=0, loser=2, reason="side-lines", cards_loaded=3)
    assert lines.reason is ShowdownReason.SIDE_COUNT
    with pytest.raises(ValidationError, match="reason"):
        ShowdownRecord.settled(winner=0, loser=2, reason="dice", cards_loaded=1)
