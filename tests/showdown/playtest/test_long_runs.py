"""Long runs of the simulated table: memory and the time per showdown stay flat from game to game.

The service on the simulator (``showdown run --sim``) plays for days. Each check compares the
later games of a run with its earlier ones (a ratio, never an absolute time): the time per
showdown settled (CPU time of this process, so that a machine busier at the end than at the start
is not mistaken for a slower table), and the Python memory still held after each game
(tracemalloc). The short run
is part of ``make test``; the 200-game run is in ``make soak``.
"""

from __future__ import annotations

import gc
import logging
import statistics
import time
import tracemalloc
from pathlib import Path

import pytest

from hw_sim.pins import SimPin
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable
from showdown.playtest.referee import SimulatedReferee


def _play(db: Path, games: int) -> tuple[list[float], list[int]]:
    """Play *games* games; the CPU seconds per showdown and the memory held after each game."""
    per_showdown: list[float] = []
    held: list[int] = []
    unit = SimulatedReferee(seed=5, fast=True)
    try:
        with Journal.open(db) as journal:
            table = BotTable(Session(journal), unit, seed=5, players=4)
            for number in range(games):
                before, started = table.showdowns_played, time.process_time()
                table.play_game(game_number=number)
                spent = time.process_time() - started
                per_showdown.append(spent / max(1, table.showdowns_played - before))
                gc.collect()
                held.append(tracemalloc.get_traced_memory()[0])
    finally:
        unit.close()
    return per_showdown, held


def _check_flat(db: Path, games: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The pins keep their last states for tests to read: a short history, so that its fixed
    # size is reached in the first games and the rest of the run shows only growth that is not.
    monkeypatch.setattr(SimPin, "HISTORY", 64, raising=False)
    logging.getLogger("showdown").setLevel(logging.ERROR)  # possible jams: counted, not printed
    tracemalloc.start()
    try:
        per_showdown, held = _play(db, games)
    finally:
        tracemalloc.stop()
        logging.getLogger("showdown").setLevel(logging.NOTSET)
    quarter = games // 4
    early = statistics.median(per_showdown[quarter : 2 * quarter])
    late = statistics.median(per_showdown[-quarter:])
    print(f"{games} games: median per showdown {early * 1e3:.2f} ms (games {quarter}-"
          f"{2 * quarter}) -> {late * 1e3:.2f} ms (last {quarter}); memory held "
          f"{held[quarter] / 1e6:.2f} MB -> {held[-1] / 1e6:.2f} MB")
    assert late < 2 * early, "showdowns get slower as games go by"
    # What is held after a game varies with that game's length (its entries are kept until the
    # next one starts): medians of a quarter each, and a bound far below the 300+ KB a game that
    # a run kept when every pin change and every unit event was kept forever.
    spanned = games - 2 * quarter
    growth = (statistics.median(held[-quarter:]) - statistics.median(held[quarter:2 * quarter]))
    assert growth / spanned < 50_000, f"{growth / spanned:.0f} bytes more held after every game"


def test_memory_and_time_per_showdown_stay_flat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check_flat(tmp_path / "long.db", 16, monkeypatch)


@pytest.mark.soak
def test_200_games_memory_and_time_stay_flat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check_flat(tmp_path / "soak.db", 200, monkeypatch)
