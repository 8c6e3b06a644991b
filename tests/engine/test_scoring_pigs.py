"""002's hero and mean scoring with pigs (seed ``002_2cf2187f47789488.txt``): each test quotes
the sentence it checks; docs/rules.md ("Scoring the game") gives the readings chosen where the
machine translation is unclear."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.scoring import RoundResult, Scoresheet, ScoringMode, ScoringSettings

HERO = ScoringSettings(mode="hero", pigs=2)
MEAN = ScoringSettings(mode="mean", pigs=2)


def out(went_out: int, *points: int) -> RoundResult:
    return RoundResult(went_out=went_out, hand_points=points)


def test_hero_winner_banks_the_losers_hands_seed_002() -> None:
    """002 Hero Scoring: "Each round of losers hand card points in the winner account" """
    sheet = Scoresheet(HERO, 3)
    line = sheet.record(out(0, 0, 120, 80))
    assert line.deltas == (200, 0, 0) and sheet.totals == (200, 0, 0)
    assert sheet.pigs == (0, 0, 0) and not line.reset


def test_hero_first_to_500_draws_a_pig_on_each_other_player_then_zero_seed_002() -> None:
    """002 Hero Scoring: "the first 500 points can draw a pig for each of the other people ...
    Draw all the points after the pig zero." """
    sheet = Scoresheet(HERO, 3)
    sheet.record(out(0, 0, 200, 100))
    sheet.record(out(2, 40, 0, 0))
    line = sheet.record(out(0, 0, 150, 100))
    assert line.deltas == (250, 0, 0) and line.reset
    assert line.pigs_drawn == (0, 1, 1) and sheet.pigs == (0, 1, 1)
    assert sheet.totals == (0, 0, 0) and not sheet.is_over


def test_hero_exactly_500_each_other_person_draws_a_pig_seed_002() -> None:
    """002 Hero Scoring: "if exactly 500 points, each person to draw a pig": read as every other
    player, the same as passing 500 (docs/rules.md says why)."""
    sheet = Scoresheet(HERO, 3)
    line = sheet.record(out(1, 300, 0, 200))
    assert sheet.totals == (0, 0, 0) and line.pigs_drawn == (1, 0, 1)


def test_mean_each_loser_banks_their_own_hand_seed_002() -> None:
    """002 Mean score method: "Each round of losers hands card points in his account" """
    sheet = Scoresheet(MEAN, 3)
    line = sheet.record(out(0, 0, 30, 45))
    assert line.deltas == (0, 30, 45) and sheet.settings.target == 100


def test_mean_first_to_100_gets_a_pig_then_zero_seed_002() -> None:
    """002 Mean score method: "first to 100 points were scored the lowest drawn a pig ... Draw all
    the points after the pig zero": whoever passes 100 gets the pig."""
    sheet = Scoresheet(MEAN, 3)
    sheet.record(out(0, 0, 60, 20))
    line = sheet.record(out(2, 10, 50, 0))
    assert line.pigs_drawn == (0, 1, 0) and sheet.totals == (0, 0, 0)


def test_mean_exactly_100_gives_every_other_player_a_pig_seed_002() -> None:
    """002 Mean score method: "if exactly 100 points, then give each pig painting": landing on
    100 exactly turns the pig round, onto every other player."""
    sheet = Scoresheet(MEAN, 3)
    sheet.record(out(0, 0, 60, 20))
    line = sheet.record(out(0, 0, 40, 10))
    assert line.pigs_drawn == (1, 0, 1) and sheet.totals == (0, 0, 0)


def test_two_players_over_the_mean_target_in_one_round_both_count_seed_002() -> None:
    """Two players can pass 100 in the same round: each gets their pig."""
    sheet = Scoresheet(MEAN, 3)
    line = sheet.record(out(0, 0, 120, 101))
    assert line.pigs_drawn == (0, 1, 1)


def test_one_lands_on_100_and_another_passes_it_in_the_same_round_seed_002() -> None:
    """Both readings apply at once: landing on 100 gives every other player a pig, and the
    player who passed 100 gets their own pig on top of that one."""
    sheet = Scoresheet(MEAN, 3)
    sheet.record(out(2, 60, 70, 0))
    line = sheet.record(out(2, 40, 40, 0))  # seat 0: 100 exactly; seat 1: 110
    assert line.pigs_drawn == (0, 2, 1) and sheet.pigs == (0, 2, 1)
    assert line.is_over and sheet.winners == (0,)  # two pigs end this game; seat 0 has none


def test_the_game_ends_at_the_agreed_pigs_and_the_fewest_pigs_win_seed_002() -> None:
    """The game ends when a player has the agreed number of pigs; the fewest pigs win, and
    between equal pigs, the better score since the last pigs."""
    sheet = Scoresheet(HERO, 3)
    sheet.record(out(0, 0, 300, 250))  # seats 1, 2: one pig
    assert sheet.ranking == (0, 1, 2)
    sheet.record(out(2, 10, 5, 0))
    line = sheet.record(out(0, 0, 300, 250))  # seats 1, 2: two pigs
    assert line.is_over and sheet.winners == (0,) and sheet.pigs == (0, 2, 2)
    assert sheet.ranking == (0, 1, 2)


def test_the_game_ends_after_the_agreed_rounds_seed_002() -> None:
    settings = ScoringSettings(mode="mean", rounds=2)
    sheet = Scoresheet(settings, 3)
    sheet.record(out(0, 0, 130, 20))  # seat 1: a pig
    line = sheet.record(out(1, 30, 0, 20))
    assert line.is_over and sheet.winners == (2,)  # no pig, and 20 beats seat 0's 30


def test_pigs_are_recomputed_on_undo_and_edit_seed_002() -> None:
    sheet = Scoresheet(HERO, 3)
    sheet.record(out(0, 0, 300, 250))
    assert sheet.pigs == (0, 1, 1)
    sheet.undo_last()
    assert sheet.pigs == (0, 0, 0)
    sheet.record(out(0, 0, 300, 250))
    sheet.replace(0, out(0, 0, 30, 25))
    assert sheet.pigs == (0, 0, 0) and sheet.totals == (55, 0, 0)


def test_pig_settings_need_pigs_or_rounds_and_pigs_only_there() -> None:
    """A pig game needs an end the table agreed; pigs mean nothing in the other modes."""
    with pytest.raises(ValidationError, match="number of pigs or rounds"):
        ScoringSettings(mode="hero")
    with pytest.raises(ValidationError, match="only in hero and mean"):
        ScoringSettings(mode="standard", pigs=3)
    assert ScoringSettings(mode="Mean", pigs=1).target == 100
    assert ScoringSettings(mode="hero", pigs=1, target=300).target == 300
    assert {ScoringMode.HERO, ScoringMode.MEAN} <= set(ScoringMode)
