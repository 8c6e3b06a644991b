"""The exact cover of the tables within an allowance: whether players can be seated within it
(with some of them at one table, others kept from it), answered as every partition answers.

Checked against every partition into tables of four (``partitions`` of ``test_tournament_swiss``,
written apart from the engine) on small fields, and on the bench's rounds whose seating was a
needle the search by repeats did not find within the work limit.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.branching import SpentError
from engine.tournament.cover import Cover, allowed, with_repeats
from tests.engine.test_tournament_branching import assert_keeps, drawn_rule, possible, proved
from tests.engine.test_tournament_relaxation import random_history


def within(rows: list[int], count: int, allowance: int) -> list[int]:
    """Every table of four among ``count`` players with at most ``allowance`` repeats, as masks
    (listed apart from the engine)."""
    found = []
    for table in itertools.combinations(range(count), 4):
        met = sum(1 for a, b in itertools.combinations(table, 2) if rows[a] >> b & 1)
        if met <= allowance:
            found.append(sum(1 << n for n in table))
    return found


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((8, 12)), st.floats(0.0, 0.9),
       st.integers(0, 5), st.data())
def test_its_answer_is_every_partitions_answer(
    seed: int, count: int, density: float, allowance: int, data: st.DataObject
) -> None:
    """For any history, allowance and rule: a seating when some partition keeps the rule within
    the allowance (and the one given does), None when none does; asked twice of one cover (the
    second answer from what the first remembered, unless the rule restricted it) the same."""
    players, met, rows = random_history(seed, count, density)
    rule = drawn_rule(data, count)
    together = rule[0]
    expected = possible(players, met, allowance, rule)
    failed: dict[int, int] = {}
    seated: dict[int, tuple[int, list[tuple[int, ...]]]] = {}
    cover = Cover(lambda _work: None, failed, seated)
    tables = allowed(with_repeats(rows, within(rows, count, allowance)), *rule)
    everyone = (1 << count) - 1
    for _asked in range(2):
        found = cover.seating(everyone, tables, allowance, restricted=together)
        assert (found is not None) == expected
        if found is not None:
            assert_keeps(found, players, met, allowance, rule)
    if together:  # a restricted answer is not one about the players alone
        assert everyone not in failed and everyone not in seated
    else:
        assert (everyone in seated) == expected and (everyone in failed) == (not expected)


def test_its_tables_come_cheapest_first_with_their_repeats() -> None:
    """Players 0, 1 and 2 all met, and 3 met 1: tables of four among six players with 4, 1, 0,
    3 and 0 repeats come back with them, cheapest first (ties in the order given)."""
    rows = [0b000110, 0b001101, 0b000011, 0b000010, 0, 0]
    tables = with_repeats(rows, [0b001111, 0b110011, 0b111100, 0b010111, 0b111001])
    assert tables == [(0b111100, 0), (0b111001, 0), (0b110011, 1), (0b010111, 3),
                      (0b001111, 4)]


def test_a_question_past_its_budget_is_left_open_and_its_work_counted() -> None:
    """A budget of one unit: the question is left open (``SpentError``) and every unit it did
    went to the search's count."""
    _players, _met, rows = random_history(7, 12, 0.3)
    spent: list[int] = []
    cover = Cover(spent.append, {}, {})
    with pytest.raises(SpentError):
        cover.seating(4095, with_repeats(rows, within(rows, 12, 6)), 6, budget=1)
    assert sum(spent) == cover.spent > 1


def test_sixty_four_players_whose_rest_is_a_needle_are_proved_the_first_seating() -> None:
    """``showdown bench seating --players 64 --seed 11``, evening 3, round 10: no repeat is
    needed, but the tables without one are few (40 players a table of the walk left had 2,051
    among 91,390, where a search by repeats alone spent 600,000 units without finding a
    seating of them; an integer programme, solved apart from this code, finds one). The
    seating is proved the first, the exact cover answering its largest question (44 players,
    3,266 tables) in some 227,000 units."""
    proved("sixty_four_seed_eleven_evening_three_round_ten", 0)


def test_forty_four_players_whose_first_table_is_asked_of_the_cover_are_proved() -> None:
    """``showdown bench seating --players 44 --seed 11``, evening 2, round 10: one repeat is
    the fewest, and 2,454 of the 135,751 tables have at most one. Which players can sit with
    the best one at all is asked of the exact cover one player at a time (branch and price
    took its whole share of the work on some of them), and the seating is proved the first."""
    proved("forty_four_seed_eleven_evening_two_round_ten", 1)


def test_sixty_four_players_whose_cover_gives_up_are_seated_by_repeats_and_proved() -> None:
    """``showdown bench seating --players 64 --seed 12``, round 10 of an earlier search's
    evening: a mend of the walk asks for a seating of 32 players without a repeat from 1,173
    tables, which the exact cover does not answer within three quarters of the work limit;
    the search by repeats then takes the question over and answers it, and the seating is
    proved the first (a cover without that limit spends all the work there)."""
    proved("sixty_four_seed_twelve_round_ten", 0)


def test_sixty_players_whose_cover_needs_two_thirds_of_the_limit_are_proved() -> None:
    """``showdown bench seating --players 60 --seed 21``, evening 1, round 9: no repeat is
    needed, and the exact cover finds the 48 players the walk's first three tables leave a
    seating from their 5,869 tables without one only after 792,000 units of work, two thirds
    of the limit (the search by repeats, taking over at half of it, runs out); the seating is
    proved the first."""
    proved("sixty_seed_twenty_one_round_nine", 0)
