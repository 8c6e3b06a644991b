"""Places shared by players level (:mod:`engine.places`): the rule a game's final standings and
the event's standings number ties by."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.places import places
from engine.scoring import RoundResult, Scoresheet, ScoringMode, ScoringSettings


@given(st.lists(st.integers(-3, 3), max_size=12))
def test_a_place_counts_everyone_strictly_ahead(keys: list[int]) -> None:
    found = places(keys)
    assert found == tuple(1 + sum(other < key for other in keys) for key in keys)


def test_two_tied_for_first_are_both_first_and_the_next_is_third() -> None:
    assert places([(-30,), (-30,), (0,)]) == (1, 1, 3)


def test_a_game_whose_winners_tie_gives_them_first_place_together() -> None:
    sheet = Scoresheet(ScoringSettings(target=500, rounds=2), players=3)
    sheet.record(RoundResult(went_out=0, hand_points=(0, 0, 30)))
    sheet.record(RoundResult(went_out=1, hand_points=(0, 0, 30)))
    assert sheet.winners == (0, 1)
    assert sheet.places == (1, 1, 3)


def test_players_level_on_pigs_share_a_place_behind_the_winner() -> None:
    sheet = Scoresheet(ScoringSettings(mode=ScoringMode.HERO, pigs=1), players=4)
    sheet.record(RoundResult(went_out=0, hand_points=(0, 200, 200, 100)))
    assert sheet.is_over and sheet.winners == (0,)
    assert sheet.places == (1, 2, 2, 2)
