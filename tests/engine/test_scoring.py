"""Scoring modes with the seeds' worked examples (rules.md, "Scoring the game")."""

import doctest

import pytest
from pydantic import ValidationError

import engine.scoring
from engine.scoring import (
    RoundResult,
    Scoresheet,
    ScoringError,
    ScoringSettings,
)


def result(went_out: int, *points: int) -> RoundResult:
    return RoundResult(went_out=went_out, hand_points=points)


def test_docstring_examples_run() -> None:
    assert doctest.testmod(engine.scoring).failed == 0


# -- seed 003: the five-round plus/minus sheet, reproduced line by line ----------------------

SEED_003_ROUNDS = [
    # A, B, C, D ; B goes out in 1, 3, 5; C in 2 and 4
    result(1, 40, 0, 70, 8),
    result(2, 9, 28, 0, 36),
    result(1, 30, 0, 15, 33),
    result(2, 9, 21, 0, 11),
    result(1, 33, 0, 10, 28),
]
SEED_003_TOTALS = [
    (-40, 118, -70, -8),
    (-49, 90, 3, -44),
    (-79, 168, -12, -77),
    (-88, 147, 29, -88),
    (-121, 218, 19, -116),
]


def test_seed_003_plus_minus_sheet_five_rounds() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus", rounds=5, target=None), 4)
    for entry, totals in zip(SEED_003_ROUNDS, SEED_003_TOTALS, strict=True):
        assert not sheet.is_over
        assert sheet.record(entry).totals == totals
    assert sheet.is_over
    assert sheet.winners == (1,)  # B: 1st with +218
    assert sheet.totals == SEED_003_TOTALS[-1]
    assert sheet.ranking == (1, 2, 3, 0)  # B, C, D, A as the seed's 順位 column
    with pytest.raises(ScoringError, match="game is over"):
        sheet.record(result(0, 0, 1, 1, 1))


def test_seed_003_plus_minus_international_first_to_500() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus"), 3)
    sheet.record(result(0, 0, 250, 200))
    assert sheet.totals == (450, -250, -200) and not sheet.is_over
    score = sheet.record(result(0, 0, 10, 40))
    assert score.totals == (500, -260, -240)
    assert sheet.is_over and sheet.winners == (0,)


# -- standard (000, 001, 003) ---------------------------------------------------------------


def test_seed_000_standard_winner_scores_opponents_cards_first_to_500() -> None:
    sheet = Scoresheet(ScoringSettings(), 4)
    line = sheet.record(result(2, 35, 60, 0, 5))
    assert line.deltas == (0, 0, 100, 0)
    for _ in range(3):
        sheet.record(result(2, 100, 0, 0, 0))
    assert sheet.totals == (0, 0, 400, 0) and not sheet.is_over
    sheet.record(result(3, 50, 49, 0, 0))
    assert not sheet.is_over
    sheet.record(result(2, 1, 99, 0, 0))
    assert sheet.totals == (0, 0, 500, 99)
    assert sheet.is_over and sheet.winners == (2,)


def test_seed_001_agreed_target_score() -> None:
    sheet = Scoresheet(ScoringSettings(target=150), 2)
    sheet.record(result(0, 0, 149))
    assert not sheet.is_over
    sheet.record(result(1, 1, 0))
    assert not sheet.is_over  # 1 point to seat 1
    sheet.record(result(0, 0, 1))
    assert sheet.totals == (150, 1)
    assert sheet.is_over and sheet.winners == (0,)


# -- running tally (000, 001) ---------------------------------------------------------------


def test_seed_000_running_tally_lowest_total_wins_when_someone_reaches_500() -> None:
    sheet = Scoresheet(ScoringSettings(mode="running-tally"), 3)
    sheet.record(result(0, 0, 200, 120))
    sheet.record(result(1, 80, 0, 300))
    assert sheet.totals == (80, 200, 420) and not sheet.is_over
    sheet.record(result(0, 0, 90, 85))
    assert sheet.totals == (80, 290, 505)
    assert sheet.is_over and sheet.winners == (0,)


# -- Challenge UNO (001, 003) ---------------------------------------------------------------


def test_seed_001_challenge_eliminates_at_target_then_head_to_head() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4)
    line = sheet.record(result(0, 0, 100, 30, 20))
    assert line.eliminated == (1,)
    assert sheet.active_seats == (0, 2, 3) and not sheet.head_to_head
    with pytest.raises(ScoringError, match="seat 2 is eliminated"):
        sheet.record(result(1, 5, 0, 5, 5))
    with pytest.raises(ScoringError, match="seat 2 is eliminated, so holds 0"):
        sheet.record(result(0, 0, 5, 5, 5))
    sheet.record(result(2, 10, 0, 0, 90))
    assert sheet.eliminated == (1, 3)
    assert sheet.active_seats == (0, 2) and sheet.head_to_head
    sheet.record(result(0, 0, 0, 60, 0))
    assert not sheet.is_over  # 30 + 60 = 90: the head-to-head goes on
    sheet.record(result(0, 0, 0, 10, 0))
    assert sheet.is_over
    assert sheet.winners == (0,)  # won the final hand
    assert sheet.totals == (10, 100, 100, 110)
    assert sheet.ranking == (0, 2, 3, 1)  # the later a player went out, the better


def test_challenge_ranks_players_eliminated_together_by_their_totals() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4)
    sheet.record(result(0, 0, 150, 40, 120))
    assert sheet.ranking == (0, 2, 3, 1)
    assert repr(sheet).startswith("Scoresheet(ScoringSettings(mode=<ScoringMode.CHALLENGE")


def test_seed_003_challenge_two_reach_target_in_one_hand_leaves_the_winner() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=500), 3)
    sheet.record(result(2, 500, 600, 0))
    assert sheet.is_over and sheet.winners == (2,)


def test_challenge_settings_need_a_target() -> None:
    with pytest.raises(ValidationError, match="target"):
        ScoringSettings(mode="challenge", target=None, rounds=3)


# -- partners (001) -------------------------------------------------------------------------


def test_seed_001_partners_team_scores_both_opponents_hands() -> None:
    sheet = Scoresheet(ScoringSettings(mode="partners", target=200), 4)
    line = sheet.record(result(2, 30, 45, 0, 25))
    assert line.deltas == (70, 0, 70, 0)  # partner's own 30 does not count
    assert sheet.team_totals == {(0, 2): 70, (1, 3): 0}
    sheet.record(result(0, 0, 80, 10, 50))
    assert sheet.totals == (200, 0, 200, 0)
    assert sheet.is_over and sheet.winners == (0, 2)


def test_partners_need_four_players() -> None:
    with pytest.raises(ScoringError, match="exactly 4 players"):
        Scoresheet(ScoringSettings(mode="partners"), 5)


def test_seed_001_rotating_partners_twelve_hands_each_partner_four_times() -> None:
    settings = ScoringSettings(mode="partners", partners="rotating")
    assert settings.rounds == 12 and settings.target is None
    sheet = Scoresheet(settings, 4)
    partners_of_0 = []
    for _ in range(12):
        (table,) = sheet.tables
        partners_of_0.append(table.team_of(0)[1])
        a, b, c, d = table.seats
        assert table.teams == ((a, c), (b, d))  # partners sit opposite
        sheet.record(result(0, 0, 10, 20, 30))
    assert partners_of_0 == [2] * 4 + [1] * 4 + [3] * 4
    assert sheet.is_over
    # seat 0 always won: 4 hands each with 2, 1, 3 as partner
    assert sheet.totals[0] == 4 * (10 + 30) + 4 * (20 + 30) + 4 * (10 + 20)
    assert sheet.winners == (0,)


def test_seed_001_eight_players_two_tables_28_hands() -> None:
    settings = ScoringSettings(mode="partners", partners="two-tables")
    assert settings.rounds == 28
    sheet = Scoresheet(settings, 8)
    partnered: dict[frozenset[int], int] = {}
    while not sheet.is_over:
        tables = sheet.tables
        if len(tables) == 2:  # a new hand: everyone is at one of the two tables
            assert sorted(s for t in tables for s in t.seats) == list(range(8))
        table = tables[-1]  # the second table may report first
        for team in table.teams:
            partnered[frozenset(team)] = partnered.get(frozenset(team), 0) + 1
        points = [0] * 8
        for seat in table.seats[1:]:
            points[seat] = 5
        sheet.record(RoundResult(went_out=table.seats[0], hand_points=tuple(points)))
    assert sheet.hands_played == 28 and len(sheet.history) == 56
    assert len(partnered) == 28 and set(partnered.values()) == {4}


def test_two_tables_refuses_points_for_a_player_at_the_other_table() -> None:
    sheet = Scoresheet(ScoringSettings(mode="partners", partners="two-tables"), 8)
    first, second = sheet.tables
    points = [0] * 8
    points[second.seats[0]] = 7
    with pytest.raises(ScoringError, match="not in this hand"):
        sheet.record(RoundResult(went_out=first.seats[0], hand_points=tuple(points)))
    assert sheet.history == ()


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (result(0, 0, -5, 3), "seat 2 .*negative"),
        (result(0, 0, 5), "expected points for 3 seats, got 2"),
        (result(3, 0, 5, 5), "seat 3 does not exist"),
        (result(1, 4, 2, 5), "went out, so holds 0"),
    ],
)
def test_impossible_entries_are_refused_and_change_nothing(
    entry: RoundResult, message: str
) -> None:
    sheet = Scoresheet(ScoringSettings(), 3, names=["Ann", "Bo", "Cy"])
    sheet.record(result(0, 0, 5, 5))
    before = (sheet.history, sheet.totals)
    with pytest.raises(ScoringError, match=message):
        sheet.record(entry)
    assert (sheet.history, sheet.totals) == before


def test_messages_name_the_player() -> None:
    sheet = Scoresheet(ScoringSettings(), 3, names=["Ann", "Bo", "Cy"])
    with pytest.raises(ScoringError, match=r"seat 2 \(Bo\): points cannot be negative"):
        sheet.record(result(0, 0, -1, 3))


def test_undo_and_edit_recompute_every_total() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus", rounds=5, target=None), 4)
    for entry in SEED_003_ROUNDS[:3]:
        sheet.record(entry)
    assert sheet.undo_last() == SEED_003_ROUNDS[2]
    assert sheet.totals == SEED_003_TOTALS[1]
    sheet.replace(0, result(1, 40, 0, 70, 18))  # D held 18, not 8
    assert sheet.totals == (-49, 100, 3, -54)


def test_an_edit_that_makes_later_rounds_impossible_is_refused() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 3)
    sheet.record(result(0, 0, 50, 50))
    sheet.record(result(1, 10, 0, 10))
    with pytest.raises(ScoringError, match="round 2: seat 2 is eliminated"):
        sheet.replace(0, result(0, 0, 100, 50))
    assert sheet.totals == (10, 50, 60)
    with pytest.raises(ScoringError, match="no round 3"):
        sheet.replace(2, result(0, 0, 1, 1))
    sheet.undo_last()
    sheet.undo_last()
    with pytest.raises(ScoringError, match="no round to undo"):
        sheet.undo_last()


@pytest.mark.parametrize(
    ("spelled", "mode"),
    [("Running tally", "running-tally"), ("plus/minus", "plus-minus"), ("CHALLENGE", "challenge")],
)
def test_modes_as_people_spell_them(spelled: str, mode: str) -> None:
    assert ScoringSettings(mode=spelled).mode == mode  # type: ignore[arg-type]


def test_two_tables_spelled_freely_still_gets_its_28_hands() -> None:
    settings = ScoringSettings.model_validate({"mode": "Partners", "partners": "two tables"})
    assert settings.rounds == 28 and settings.target is None


def test_unknown_mode_names_the_field() -> None:
    with pytest.raises(ValidationError, match="mode"):
        ScoringSettings(mode="hero")  # type: ignore[arg-type]
