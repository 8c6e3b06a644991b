"""The event's standings: any order or repetition of the same records, the same standings."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    GameRecord,
    PlayerLine,
    TournamentFormat,
    TournamentPlan,
    TournamentSettings,
    standings,
)
from engine.tournament.standings import BYE_POINTS, match_points

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
FREE = TournamentSettings(TournamentFormat.FREE, NAMES, ("t1", "t2"))


def line(name: str, points: int = 0, won: int = 0, showdowns: int = 0,
         ms: float | None = None) -> PlayerLine:
    return PlayerLine(name, points, won, showdowns, ms)


@st.composite
def game_versions(draw: st.DrawFn, table: str, game: str) -> list[GameRecord]:
    """Every version a game went through (points may go down: an undo, an edit)."""
    names = draw(st.permutations(NAMES).map(lambda p: p[:4]))
    versions = []
    for version in sorted(draw(st.sets(st.integers(1, 500), min_size=1, max_size=4))):
        players = tuple(
            line(n, draw(st.integers(0, 600)), draw(st.integers(0, 5)), draw(st.integers(0, 9)),
                 draw(st.none() | st.floats(90, 900)))
            for n in names)
        over = draw(st.booleans())
        winners = (max(players, key=lambda p: p.points).name,) if over else ()
        versions.append(GameRecord(table, game, version, draw(st.none() | st.integers(1, 3)),
                                   players, hands=draw(st.integers(0, 28)), over=over,
                                   winners=winners))
    return versions


@st.composite
def evenings(draw: st.DrawFn) -> list[list[GameRecord]]:
    keys = draw(st.sets(st.tuples(st.sampled_from(("t1", "t2", "t3")),
                                  st.sampled_from(("j:1", "j:2", "k:1"))), max_size=5))
    return [draw(game_versions(table, game)) for table, game in sorted(keys)]


@settings(max_examples=40, deadline=None)
@given(evenings(), st.randoms(use_true_random=False), st.data())
def test_any_order_or_repetition_gives_the_same_standings(
    games: list[list[GameRecord]], rng: object, data: st.DataObject
) -> None:
    latest = [versions[-1] for versions in games]
    everything = [record for versions in games for record in versions]
    repeated = everything + data.draw(st.lists(st.sampled_from(everything), max_size=8)
                                      if everything else st.just([]))
    rng.shuffle(repeated)  # type: ignore[attr-defined]
    for form in (TournamentFormat.FREE, TournamentFormat.SWISS):
        chosen = TournamentSettings(form, NAMES, ("t1", "t2", "t3"))
        assert standings(chosen, repeated) == standings(chosen, latest)
        plan = TournamentPlan(chosen)
        assert plan.standings(repeated) == TournamentPlan(chosen).standings(latest)


def test_the_leaderboard_ranks_by_points_then_games_showdowns_and_reaction() -> None:
    records = [
        GameRecord("t1", "g1", 5, None, (line("Ada", 300, showdowns=1, ms=200.0),
                                         line("Ben", 300, showdowns=4, ms=250.0),
                                         line("Cleo", 120, ms=180.0), line("Dev", 0)),
                   hands=6, over=False),
        GameRecord("t2", "g1", 3, None, (line("Eli", 510, won=2), line("Fay", 300, showdowns=1,
                                         ms=150.0), line("Gus", 10), line("Hana", 0)),
                   hands=4, over=True, winners=("Eli",)),
    ]
    table = standings(FREE, records)
    assert [(s.rank, s.name, s.table, s.points) for s in table[:5]] == [
        (1, "Eli", "t2", 510), (2, "Ben", "t1", 300), (3, "Fay", "t2", 300),
        (4, "Ada", "t1", 300), (5, "Cleo", "t1", 120)]
    assert table[0].games_won == 1 and table[2].best_ms == 150.0


def test_players_equal_on_everything_share_a_rank() -> None:
    records = [GameRecord("t1", "g", 1, None, (line("Ada"), line("Ben")), hands=0, over=False)]
    table = standings(FREE, records)
    assert {s.rank for s in table} == {1}
    assert [s.name for s in table][:2] == ["Ada", "Ben"]  # then by name


def test_placements_share_the_better_place() -> None:
    record = GameRecord("t1", "g", 9, 1, (line("Ada", 90), line("Ben", 200), line("Cleo", 90),
                                          line("Dev", 10)), hands=4, over=True)
    assert match_points(record) == {"Ben": 3, "Ada": 2, "Cleo": 2, "Dev": 0}


def test_swiss_ranks_by_match_points_then_opponents_then_points() -> None:
    swiss = TournamentSettings(TournamentFormat.SWISS, NAMES[:5], ("t1",), rounds=2,
                               hands_per_round=4)
    records = [GameRecord("t1", "r1", 8, 1, (line("Ada", 400), line("Ben", 300),
                                             line("Cleo", 200), line("Dev", 100)),
                          hands=4, over=True)]
    table = standings(swiss, records, byes={"Eli": 1})
    assert [(s.name, s.match_points) for s in table] == [
        ("Ada", 3), ("Ben", 2), ("Eli", BYE_POINTS), ("Cleo", 1), ("Dev", 0)]
    assert table[1].opponents_points == 3 + 1 + 0 and table[2].opponents_points == 0
    assert table[2].byes == 1


def test_free_play_deals_players_to_tables_in_order() -> None:
    plan = TournamentPlan(TournamentSettings(TournamentFormat.FREE, NAMES[:7], ("t1", "t2")))
    seating = plan.current([])
    assert seating is not None
    assert seating.at("t1") == NAMES[:4] and seating.at("t2") == NAMES[4:7]


def test_an_unknown_player_at_a_table_is_listed_too() -> None:
    records = [GameRecord("t3", "g", 1, None, (line("Zed", 40),), hands=1, over=False)]
    assert standings(FREE, records)[0].name == "Zed"
    assert len(standings(FREE, records)) == len(NAMES) + 1


def test_no_records_lists_every_player_unplaced() -> None:
    table = standings(FREE, [])
    assert [s.name for s in table] == sorted(NAMES, key=str.casefold)
    assert all(s.table is None and s.points == 0 for s in table)
    assert list(itertools.islice((s.rank for s in table), 1)) == [1]
