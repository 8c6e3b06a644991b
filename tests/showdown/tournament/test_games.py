"""From the tables' entries to the standings: any order or repetition, the same standings.

The entries are real: bots play at a real session into a real journal (SQLite file), with undos
and an edit among them, and are read back as the table's outbox publishes them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.tournament import TournamentFormat, TournamentPlan, TournamentSettings
from showdown.game.journal import Journal
from showdown.game.messages import EditRound, HandEntry, SetUpGame, UndoLast
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee
from showdown.tournament.games import records, setup_key, tournament_round
from showdown.tournament.messages import EntryMessage
from showdown.tournament.outbox import journal_identity, tournament_entries

EVENT = "abc123"
PLAYERS = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
SETTINGS = TournamentSettings(TournamentFormat.FREE, PLAYERS, ("t1", "t2"))


def table_entries(folder: Path, table: str, seed: int) -> list[EntryMessage]:
    """A table's evening: a game to 500 played by bots, with an undo and an edit in it."""
    with Journal.open(folder / f"{table}.db", writable=True) as journal:
        session = Session(journal)
        names = list(PLAYERS[:4] if table == "t1" else PLAYERS[4:])
        session.handle(SetUpGame(players=names, preset="showdown",
                                 scoring=SETTINGS.scoring(), command_id=setup_key(
                                     seed, EVENT, None, 1)))
        bots = BotTable(session, coin_referee(seed), seed=seed, players=4,
                        scoring=SETTINGS.scoring())
        bots.play_game()
        if table == "t1":  # the last round taken back, the first one corrected
            assert session.handle(UndoLast())[0].kind == "entry_undone"
            assert session.handle(EditRound(round=1, went_out=names[0], hands={
                n: HandEntry(points=7) for n in names[1:]}))[0].kind == "round_edited"
        identity = journal_identity(journal)
        return [EntryMessage(event=EVENT, table=table, journal=identity, seq=e.seq,
                             game=e.game_id, prev=p, kind=e.kind, key=e.key, events=e.events,
                             recorded_at=e.recorded_at)
                for e, p in tournament_entries(journal, EVENT)]


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> list[EntryMessage]:
    folder = tmp_path_factory.mktemp("evening")
    return table_entries(folder, "t1", 3) + table_entries(folder, "t2", 4)


def test_the_evening_folds_to_both_games(evening: list[EntryMessage]) -> None:
    games = records(EVENT, evening)
    assert [(g.table, g.over) for g in games] == [("t1", False), ("t2", True)]
    kinds = {e.kind for e in evening}
    assert {"set_up", "round", "showdown", "undo", "edit"} <= kinds
    assert games[1].winners and not games[0].winners
    assert {line.name: line.points for line in games[0].players}["Ada"] >= 21


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.randoms(use_true_random=False), st.lists(st.integers(0, 10_000), max_size=30))
def test_any_order_or_repetition_of_the_entries_gives_the_same_standings(
    evening: list[EntryMessage], rng: random.Random, repeats: list[int]
) -> None:
    plan = TournamentPlan(SETTINGS)
    expected = plan.standings(records(EVENT, evening))
    shuffled = evening + [evening[i % len(evening)] for i in repeats]
    rng.shuffle(shuffled)
    assert plan.standings(records(EVENT, shuffled)) == expected


def test_a_missing_entry_holds_its_game_back_until_it_arrives(
    evening: list[EntryMessage],
) -> None:
    t1 = [e for e in evening if e.table == "t1"]
    gap = t1[5]
    partial = records(EVENT, [e for e in evening if e is not gap])
    full = records(EVENT, evening)
    assert partial[0].version == t1[4].seq and partial[0].hands < full[0].hands
    assert partial[1] == full[1]


def test_a_game_of_another_event_or_none_is_not_counted() -> None:
    assert tournament_round(setup_key(1, EVENT, 3), EVENT) == (True, 3)
    assert tournament_round(setup_key(1, EVENT, None, 2), EVENT) == (True, None)
    assert tournament_round(setup_key(1, "zzz999", 3), EVENT) == (False, None)
    assert tournament_round("setup:1:0", EVENT) == (False, None)
