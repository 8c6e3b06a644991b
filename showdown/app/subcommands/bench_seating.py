"""``showdown bench seating``: the Swiss seating's worst round on the largest event, against a
small event in the same run.

The seating's search is exact (the fewest repeated pairs any seating allows), so its time is what
varies: this plays seeded Swiss evenings through :class:`~engine.tournament.seating.TournamentPlan`
(random game results, every round of every evening) and prints, for a small field (the baseline)
and then for ``--players``, the CPU time of each round's seating: the worst, with where it
happened, and the median. It counts the seatings not proved the least and first (the search stopped
at :data:`~engine.tournament.swiss.WORK_LIMIT` and took the best it knew), and of those the ones
whose repeats are not proved the fewest either, with the most repeats over the proved bound. It
also prints what one new entry of the round in play costs the host (standings and seating
recomputed) with the plan's remembered seatings, against a plan that seats every round again. A
benchmark: it prints figures and asserts none. """

from __future__ import annotations

import argparse
import json
import logging
import random
import statistics
import time
from typing import Any

from engine.tournament import (
    GameRecord,
    Seating,
    TournamentPlan,
    TournamentSettings,
)
from engine.tournament.standings import met
from engine.tournament.swiss import SwissSearch, repeats, search
from showdown.app.arguments import int_in_range, seed
from showdown.app.swiss_evening import game, swiss_settings

NAME = "seating"
GROUP = "bench"
HELP = "the Swiss seating's worst round on the largest event, against a small one in one run"

log = logging.getLogger("showdown.bench.seating")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown bench seating``."""
    parser.add_argument("--players", type=int_in_range(4, 64), default=64,
                        help="players of the event measured (default 64, the largest)")
    parser.add_argument("--baseline-players", type=int_in_range(4, 64), default=16)
    parser.add_argument("--rounds", type=int_in_range(2, 10), default=10)
    parser.add_argument("--evenings", type=int_in_range(1, 1000), default=3,
                        help="seeded evenings played for each field (default 3)")
    parser.add_argument("--seed", type=seed, default=1)


def _repeats(seating: Seating, records: list[GameRecord]) -> int:
    before = met(r for r in records if r.round is not None and r.round < seating.round)
    return sum(repeats(players, before) for _table, players in seating.tables)


def _searched(plan: TournamentPlan, seating: Seating, records: list[GameRecord]) -> SwissSearch:
    """What the search proved of this round's seating (searched again, untimed)."""
    before = [r for r in records if r.round is not None and r.round < seating.round]
    ranking = [line.name for line in plan.standings(before)] if seating.round > 1 else list(
        plan.settings.players)
    playing = [name for name in ranking if name not in seating.byes]
    return search(playing, met(before))


def _change_ms(plan: TournamentPlan, settings: TournamentSettings, records: list[GameRecord]
               ) -> tuple[float, float]:
    """(CPU ms of the standings and seating after one more entry, with ``plan``'s remembered
    seatings; the same with a new plan that seats every round again)."""
    seating = plan.current(records)
    if seating is None or not seating.tables:
        return 0.0, 0.0
    table, players = seating.tables[-1]  # the table still playing
    playing = [*records, game(table, seating.round, players, [5] * len(players), over=False)]
    timed = []
    for fresh in (plan, TournamentPlan(settings)):
        start = time.process_time()
        fresh.standings(playing)
        fresh.current(playing)
        timed.append((time.process_time() - start) * 1000)
    return timed[0], timed[1]


def _unproved(found: SwissSearch) -> str:
    """What a round's log line adds when its seating is not proved ("" when it is)."""
    if found.proved:
        return ""
    if found.repeats == found.least:
        return " (the fewest, not proved the first in ranking order)"
    return f" (not proved the fewest: {found.least} proved unavoidable)"


def measure(players: int, rounds: int, evenings: int, first_seed: int) -> dict[str, Any]:
    """Every round of ``evenings`` seeded evenings of ``players``: the seatings' CPU times."""
    settings = swiss_settings(players, rounds)
    times: list[float] = []
    worst: dict[str, Any] = {"seconds": -1.0}
    cached, uncached = [], []
    unproved = 0
    above_least: list[int] = []
    for evening in range(evenings):
        rng = random.Random(first_seed + evening)
        plan = TournamentPlan(settings)
        records: list[GameRecord] = []
        for _round in range(rounds):
            start = time.process_time()
            seating = plan.current(records)
            spent = time.process_time() - start
            assert seating is not None
            times.append(spent)
            made = _repeats(seating, records)
            found = _searched(plan, seating, records)
            unproved += not found.proved
            if found.repeats > found.least:
                above_least.append(found.repeats - found.least)
            log.info("%d players, evening %d, round %d: %.3f s, %d repeats%s", players,
                     evening + 1, seating.round, spent, made, _unproved(found))
            if spent > worst["seconds"]:
                worst = {"seconds": round(spent, 4), "evening": evening + 1,
                         "round": seating.round, "repeats": made}
            for table, seated in seating.tables:
                records.append(game(table, seating.round, seated,
                                     [rng.randrange(0, 40) * 5 for _ in seated]))
            if seating.round == rounds:
                records.pop()  # the last round still in play at one table
                ms = _change_ms(plan, settings, records)
                cached.append(ms[0])
                uncached.append(ms[1])
    return {"players": players, "tables": players // 4, "rounds": rounds, "evenings": evenings,
            "seatings": len(times), "not_proved": unproved,
            "fewest_not_proved": len(above_least), "most_above_least": max(above_least, default=0),
            "worst": worst,
            "median_s": round(statistics.median(times), 4),
            "change_ms": {"remembered": round(max(cached), 2),
                          "seated_again": round(max(uncached), 2)}}


def run(args: argparse.Namespace) -> int:
    """Both fields, then one JSON object."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    result: dict[str, Any] = {"seed": args.seed, "cpu_seconds": "process time, this machine"}
    for label, players in (("baseline", args.baseline_players), ("scaled", args.players)):
        result[label] = measure(players, args.rounds, args.evenings, args.seed)
    print(json.dumps(result, sort_keys=True))
    return 0
