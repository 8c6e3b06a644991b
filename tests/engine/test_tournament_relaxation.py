"""The seating's linear relaxation: a bound no seating goes below, and the fewest where the
search's counting bounds fall short.

Checked against the brute force of ``test_tournament_swiss`` (every partition, written apart from
the engine) on small fields, and on the bench's evening whose fewest repeats only the
relaxation proves.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.masks import players_in
from engine.tournament.relaxation import TINY, Master, priced_bound, relaxed
from engine.tournament.swiss import repeats, search
from tests.engine.test_tournament_swiss import Met, brute_force


def random_history(seed: int, count: int, density: float) -> tuple[list[str], Met, list[int]]:
    """(players, who met whom, each player's past tablemates as a mask of player numbers)."""
    rng = random.Random(seed)
    players = [f"P{i:02}" for i in range(count)]
    rows = [0] * count
    met: dict[str, set[str]] = {}
    for a, b in itertools.combinations(range(count), 2):
        if rng.random() < density:
            rows[a] |= 1 << b
            rows[b] |= 1 << a
            met.setdefault(players[a], set()).add(players[b])
            met.setdefault(players[b], set()).add(players[a])
    return players, {name: frozenset(others) for name, others in met.items()}, rows


def in_order(count: int) -> list[tuple[int, ...]]:
    """The players four by four, a seating to start from."""
    return [tuple(range(start, start + 4)) for start in range(0, count, 4)]


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((4, 8, 12)), st.floats(0.0, 1.0))
def test_no_seating_goes_below_the_bound_and_a_whole_answer_is_a_fewest_seating(
    seed: int, count: int, density: float
) -> None:
    players, met, rows = random_history(seed, count, density)
    everyone = (1 << count) - 1
    found = relaxed(rows, everyone, in_order(count))
    fewest, _first = brute_force(players, met)
    assert 0 <= found.least <= fewest
    if found.seating is not None:
        assert sorted(n for table in found.seating for n in table) == list(range(count))
        assert all(len(table) == 4 for table in found.seating)
        made = sum(repeats([players[n] for n in table], met) for table in found.seating)
        assert made == found.least == fewest


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.3, 1.0), st.integers(1, 6))
def test_it_stops_once_the_bound_is_enough_and_never_claims_more(
    seed: int, density: float, enough: int
) -> None:
    """Asked only whether the players can be seated below ``enough``: a bound that reaches it
    ends the work there; whatever it says stays below the fewest."""
    players, met, rows = random_history(seed, 12, density)
    full = relaxed(rows, (1 << 12) - 1, in_order(12))
    early = relaxed(rows, (1 << 12) - 1, in_order(12), enough=enough)
    fewest, _first = brute_force(players, met)
    assert early.least <= full.least <= fewest
    assert early.least >= min(enough, full.least)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((8, 12, 16)), st.floats(0.0, 1.0))
def test_the_tables_it_generates_reach_the_bound_of_every_table(
    seed: int, count: int, density: float
) -> None:
    """Column generation adds only the tables the prices ask for; the programme over every
    table of four (all given at the start, nothing left to generate) has the same bound. A
    search for tables that stops short leaves the bound too high, above what a seating makes."""
    _players, _met, rows = random_history(seed, count, density)
    everyone = (1 << count) - 1
    every_table = {sum(1 << n for n in table)
                   for table in itertools.combinations(range(count), 4)}
    generated = relaxed(rows, everyone, in_order(count))
    given_all = relaxed(rows, everyone, in_order(count), pool=every_table)
    assert generated.least == given_all.least


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((8, 12, 16)), st.floats(0.0, 1.0),
       st.integers(1, 6))
def test_the_programme_stops_only_where_no_table_it_holds_would_lower_it(
    seed: int, count: int, density: float, batches: int
) -> None:
    """The simplex looks first at the tables its last look at all of them found worth taking,
    and stops only when none of all of them is: its prices then certify its answer (every
    table it holds costs at least its players' prices, and so does a player at no table).
    The tables are offered in batches, as column generation offers them."""
    _players, _met, rows = random_history(seed, count, density)
    master = Master(rows, (1 << count) - 1, in_order(count), lambda _work: None)
    tables = [sum(1 << n for n in table) for table in itertools.combinations(range(count), 4)]
    random.Random(seed).shuffle(tables)
    for batch in range(batches):
        master.offer(tables[batch::batches])
        prices = master.solve()
        for column, table in enumerate(master.columns):
            rows_of = [master.row_of[n] for n in players_in(table)] if table else [column]
            assert master.costs[column] - sum(prices[row] for row in rows_of) >= -TINY
        assert sum(value for _table, value in master.answer()) > 0


def test_a_budget_ends_it_with_the_bound_found_so_far() -> None:
    """Past its budget it stops where it is: a bound no higher than the full one (still a
    bound), no seating, and no more work than the step that crossed the budget."""
    _players, _met, rows = random_history(3, 16, 0.4)
    everyone = (1 << 16) - 1
    full = relaxed(rows, everyone, in_order(16))
    spent: list[int] = []
    cut = relaxed(rows, everyone, in_order(16), budget=50, spend=spent.append)
    assert cut.seating is None and 0 <= cut.least <= full.least
    assert 50 < sum(spent) <= 50 + max(spent)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.3, 1.0),
       st.lists(st.floats(-3.0, 3.0), min_size=12, max_size=12), st.integers(1, 8))
def test_any_guess_of_prices_gives_a_bound_never_above_the_fewest(
    seed: int, density: float, guess: list[float], enough: int
) -> None:
    """A guess from a like question is used as it is when its bound already suffices: any
    prices give a bound, so whatever the guess the answer stays at or below the fewest."""
    players, met, rows = random_history(seed, 12, density)
    fewest, _first = brute_force(players, met)
    found = relaxed(rows, (1 << 12) - 1, in_order(12), enough=enough,
                    guess=dict(enumerate(guess)))
    assert found.least <= fewest
    assert set(found.prices) == set(range(12))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from((8, 12)), st.floats(0.0, 1.0),
       st.dictionaries(st.integers(0, 11), st.floats(-3.0, 3.0)))
def test_prices_alone_bound_a_seating_from_below(
    seed: int, count: int, density: float, prices: dict[int, float]
) -> None:
    """The bound the search's nodes take from the last prices: any prices (0 for a player they
    lack) give one at or below the fewest, and the programme's own prices give its bound."""
    players, met, rows = random_history(seed, count, density)
    everyone = (1 << count) - 1
    fewest, _first = brute_force(players, met)
    assert 0 <= priced_bound(rows, everyone, prices) <= fewest
    solved = relaxed(rows, everyone, in_order(count))
    assert priced_bound(rows, everyone, solved.prices) == solved.least


def test_a_guess_that_suffices_spares_the_programme() -> None:
    """The prices of the same question answer it again with one search for tables, not a
    simplex: far less work."""
    _players, _met, rows = random_history(5, 16, 0.6)
    everyone = (1 << 16) - 1
    first: list[int] = []
    solved = relaxed(rows, everyone, in_order(16), enough=99, spend=first.append)
    again: list[int] = []
    repeated = relaxed(rows, everyone, in_order(16), enough=solved.least, guess=solved.prices,
                       spend=again.append)
    assert repeated.least == solved.least > 0
    assert sum(again) * 4 < sum(first)


def test_tables_found_for_one_question_start_the_next() -> None:
    """The pool: a question on fewer players starts from the tables found for more, and gives
    the same bound as when it starts from nothing."""
    _players, _met, rows = random_history(7, 12, 0.5)
    pool: set[int] = set()
    whole = relaxed(rows, (1 << 12) - 1, in_order(12), pool=pool)
    assert pool and all(table.bit_count() == 4 for table in pool)
    fewer = (1 << 12) - 1 - 0b1111
    alone = relaxed(rows, fewer, in_order(12)[1:])
    helped = relaxed(rows, fewer, in_order(12)[1:], pool=pool)
    assert helped.least == alone.least <= whole.least


def test_thirty_six_players_round_ten_is_proved_by_the_relaxation() -> None:
    """The first evening of ``showdown bench seating --players 36``, round 10, as the search
    before the relaxation made its history (kept in ``seating/``: the bench's history now
    depends on the search itself): the counting bounds prove 10 and the search's seatings
    made 12; the relaxation's bound is 10.5, so 11, and with it the search finds a seating of
    11: the fewest, proved."""
    kept = json.loads((Path(__file__).parent / "seating" / "thirty_six_round_ten.json")
                      .read_text(encoding="utf-8"))
    players: list[str] = kept["players"]
    met = {name: frozenset(others) for name, others in kept["met"].items()}
    found = search(players, met)
    assert (found.least, found.repeats) == (11, 11)
    assert sum(repeats(table, met) for table in found.tables) == 11
    assert sorted(n for table in found.tables for n in table) == sorted(players)


def test_a_wide_mend_asks_the_relaxation_before_its_complete_search() -> None:
    """Round 10 of ``showdown bench seating --players 64 --seed 12``'s first evening, as the
    search made it before (kept in ``seating/``): the walk's mend of 32 players around a new
    table has no seating without a repeat, and its complete search spent the rest of the work
    limit to show it; the relaxation refutes it in thousands of units, and the first seating
    without a repeat is proved."""
    kept = json.loads((Path(__file__).parent / "seating" / "sixty_four_seed_twelve_round_ten.json")
                      .read_text(encoding="utf-8"))
    players: list[str] = kept["players"]
    met = {name: frozenset(others) for name, others in kept["met"].items()}
    found = search(players, met)
    assert (found.least, found.repeats, found.proved) == (0, 0, True)
    assert found.tables[0][0] == players[0]
