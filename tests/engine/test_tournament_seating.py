"""The event's seating: 001's two-table rotation and the Swiss pairing."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring import (
    PartnerVariation,
    RoundResult,
    Scoresheet,
    ScoringMode,
    ScoringSettings,
)
from engine.tournament import (
    GameRecord,
    PlayerLine,
    Seating,
    TournamentFormat,
    TournamentPlan,
    TournamentSettings,
)
from engine.tournament.formats import TournamentSettingsError
from engine.tournament.swiss import repeats, swiss_tables

EIGHT = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
PARTNERS = TournamentSettings.partners_8(EIGHT, ("t1", "t2"))


def finished(table: str, round_: int, players: tuple[str, ...], points: list[int],
             version: int = 1) -> GameRecord:
    return GameRecord(table, f"r{round_}", version, round_,
                      tuple(PlayerLine(n, p, 0, 0, None) for n, p in zip(players, points,
                                                                           strict=True)),
                      hands=4, over=True)


def play_partners(results: list[list[int]]) -> tuple[list[GameRecord], Scoresheet]:
    """Play 001's evening: per hand and table, a went-out seat (0-3) and its opponents' points.

    Each table scores each round as a fixed-partners game of four hands (what a table's session
    keeps); the 8-player two-table scoresheet is fed the same hands."""
    plan = TournamentPlan(PARTNERS)
    records: list[GameRecord] = []
    whole = Scoresheet(ScoringSettings(mode=ScoringMode.PARTNERS,
                                       partners=PartnerVariation.TWO_TABLES), players=8)
    for round_ in range(1, 8):
        seating = plan.current(records)
        assert seating is not None and seating.round == round_
        for index, (table, players) in enumerate(seating.tables):
            sheet = Scoresheet(PARTNERS.scoring(), players=4)
            for hand in range(4):
                went_out, *points = results[(round_ - 1) * 8 + hand * 2 + index]
                held = [0 if seat == went_out else points[seat] for seat in range(4)]
                sheet.record(RoundResult(went_out=went_out, hand_points=tuple(held)))
            records.append(finished(table, round_, players, list(sheet.totals)))
        for hand in range(4):
            for index, (_table, players) in enumerate(seating.tables):
                row = results[(round_ - 1) * 8 + hand * 2 + index]
                went_out, points = row[0], row[1:]
                held = [0] * 8
                for seat, name in enumerate(players):
                    if seat != went_out:
                        held[EIGHT.index(name)] = points[seat]
                whole.record(RoundResult(went_out=EIGHT.index(players[went_out]),
                                         hand_points=tuple(held)))
    return records, whole


hand_rows = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60),
              st.integers(0, 60)).map(list),
    min_size=56, max_size=56)


@settings(max_examples=30, deadline=None)
@given(hand_rows)
def test_partners_8_standings_are_the_two_table_scoresheet(rows: list[list[int]]) -> None:
    records, whole = play_partners(rows)
    plan = TournamentPlan(PARTNERS)
    assert plan.current(records) is None  # seven rounds, then the event is over
    assert whole.is_over and whole.hands_played == 28
    table = {s.name: s.points for s in plan.standings(records)}
    assert table == dict(zip(EIGHT, whole.totals, strict=True))


def test_partners_8_every_pair_partners_four_hands_and_each_table_plays_28() -> None:
    plan = TournamentPlan(PARTNERS)
    records: list[GameRecord] = []
    partnered: Counter[frozenset[str]] = Counter()
    hands: Counter[str] = Counter()
    for _round in range(7):
        seating = plan.current(records)
        assert seating is not None
        for table, players in seating.tables:
            assert len(players) == 4
            partnered[frozenset((players[0], players[2]))] += 4  # partners sit opposite
            partnered[frozenset((players[1], players[3]))] += 4
            hands[table] += 4
            records.append(finished(table, seating.round, players, [0, 0, 0, 0]))
    assert set(partnered) == {frozenset(p) for p in itertools.combinations(EIGHT, 2)}
    assert set(partnered.values()) == {4}
    assert hands == {"t1": 28, "t2": 28}


def test_the_next_round_waits_for_every_table() -> None:
    plan = TournamentPlan(PARTNERS)
    first = plan.current([])
    assert first is not None
    one = [finished("t1", 1, first.at("t1"), [5, 0, 5, 0])]
    assert plan.current(one) == first
    unfinished = GameRecord("t2", "r1", 3, 1, (), hands=2, over=False)
    assert plan.current([*one, unfinished]) == first
    both = [*one, finished("t2", 1, first.at("t2"), [0, 0, 0, 0], version=9)]
    second = plan.current(both)
    assert second is not None and second.round == 2
    assert second.at("t1") != first.at("t1")


def test_partners_8_refuses_another_count() -> None:
    with pytest.raises(TournamentSettingsError, match="eight players at two tables, not 7"):
        TournamentSettings.partners_8(EIGHT[:7], ("t1", "t2"))


def brute_force_fewest_repeats(players: list[str], met: dict[str, frozenset[str]]) -> int:
    best = None
    for order in itertools.permutations(players):
        tables = [order[i:i + 4] for i in range(0, len(order), 4)]
        best = min(best if best is not None else 99, sum(repeats(t, met) for t in tables))
    return best if best is not None else 0


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[str], dict[str, frozenset[str]]]:
    players = [f"P{i}" for i in range(draw(st.sampled_from((4, 8))))]
    pairs = draw(st.sets(st.sampled_from(list(itertools.combinations(players, 2))), max_size=10))
    met: dict[str, set[str]] = {}
    for a, b in pairs:
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
    return players, {k: frozenset(v) for k, v in met.items()}


@settings(max_examples=40, deadline=None)
@given(fields())
def test_swiss_keeps_players_who_met_apart_as_far_as_possible(
    field: tuple[list[str], dict[str, frozenset[str]]],
) -> None:
    players, met = field
    tables, byes = swiss_tables(players, met, {}, tables=len(players) // 4)
    assert byes == ()
    assert sorted(n for t in tables for n in t) == sorted(players)
    ours = sum(repeats(t, met) for t in tables)
    if len(players) == 4:
        assert ours == repeats(players, met)
    else:
        assert ours == brute_force_fewest_repeats(players, met)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 23), st.integers(1, 6), st.dictionaries(st.integers(0, 22),
                                                              st.integers(0, 2)))
def test_swiss_byes_go_to_those_with_fewest_byes_lowest_first(
    count: int, tables: int, had: dict[int, int]
) -> None:
    players = [f"P{i:02}" for i in range(count)]
    byes_had = {players[i]: n for i, n in had.items() if i < count}
    seated, byes = swiss_tables(players, {}, byes_had, tables)
    assert len(byes) == count - min(tables, count // 4) * 4
    assert all(len(t) == 4 for t in seated)
    if byes:
        waiting = [byes_had.get(p, 0) for p in players if p not in byes]
        assert max(byes_had.get(p, 0) for p in byes) <= min(waiting, default=0) or not waiting
    if not byes_had:
        assert list(byes) == players[len(players) - len(byes):]


def test_a_swiss_event_seats_round_two_from_round_one() -> None:
    swiss = TournamentSettings(TournamentFormat.SWISS, EIGHT, ("t1", "t2"), rounds=3,
                               hands_per_round=4)
    plan = TournamentPlan(swiss)
    first = plan.current([])
    assert first is not None and first.at("t1") == EIGHT[:4] and first.at("t2") == EIGHT[4:]
    records = [finished("t1", 1, EIGHT[:4], [400, 300, 200, 100]),
               finished("t2", 1, EIGHT[4:], [50, 40, 30, 20])]
    second = plan.current(records)
    assert second is not None and second.round == 2
    for _table, players in second.tables:  # two of each first-round table: the least possible
        assert len(set(players) & set(EIGHT[:4])) == 2
    assert second.at("t1")[0] == "Ada"  # the leader heads the first table


def test_a_seated_round_stays_while_an_earlier_one_is_corrected_and_the_next_is_searched_apart(
        ) -> None:
    """Round 1 undone at a table while round 2 is played: round 2 stays as seated (before, the
    event went back to round 1, and recorded again it seated round 2 anew). The next round's
    search is left to the caller, to run off its lock: until its answer is remembered, the
    round just played stays the round to play."""
    names = tuple("ABCDEFGHI")
    settings = TournamentSettings(TournamentFormat.SWISS, names, ("t1", "t2"), rounds=3,
                                  hands_per_round=1)
    plan = TournamentPlan(settings)
    first = plan.current([])
    assert first is not None and first.byes == ("I",)
    plan.keep(first)

    def played(seating: Seating, points: list[int], version: int = 1) -> list[GameRecord]:
        return [GameRecord(table, f"{table}:r{seating.round}", version, seating.round,
                           tuple(PlayerLine(n, p, 0, 0, None) for n, p in zip(
                               players, points, strict=True)), hands=1, over=True)
                for table, players in seating.tables]

    round_1 = played(first, [0, 10, 20, 30])
    assert plan.current(round_1, search=False) == first  # complete: the search is pending
    job = plan.pending(round_1)
    assert job is not None and job.number == 2
    plan.remember(job, plan.search(job))
    second = plan.current(round_1, search=False)
    assert second is not None and second.round == 2
    plan.keep(second)
    undone = [replace(round_1[0], version=2, over=False), round_1[1]]
    assert plan.current(undone) == second
    lines = round_1[0].players
    again = [replace(round_1[0], version=3, players=tuple(
        replace(line, points=other.points) for line, other in zip(
            lines, reversed(lines), strict=True))), round_1[1]]
    assert plan.current(again) == second
    assert plan.standings(again) != plan.standings(round_1)
