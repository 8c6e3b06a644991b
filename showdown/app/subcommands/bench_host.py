"""``showdown bench host``: what one change of a Swiss evening costs the event's host under its
lock, as the host works now and as it worked before, in the same run.

The host recomputes the standings and the seating under its lock on every change it receives
(every other entry waits meanwhile). This plays a seeded ten-round Swiss evening through
:class:`~engine.tournament.seating.TournamentPlan` (random results), then times three changes late
in the last round: an entry of the round in play, a correction to a finished game of round 1
(its totals changed) and the last game of a round recorded (the round complete, the next one to
seat). "now" is the host's plan: every round kept as seated, the next round's search run off the
lock (not counted here: its time is ``showdown bench seating``'s); "before" is a plan that seats
every round from the games alone and searches under the lock, as the host did before rounds were
kept. CPU time of one core, in milliseconds. A benchmark: it prints figures and asserts none.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import time
from dataclasses import replace
from typing import Any

from engine.tournament import (
    GameRecord,
    TournamentPlan,
)
from showdown.app.arguments import int_in_range, seed
from showdown.app.swiss_evening import game, swiss_settings

NAME = "host"
GROUP = "bench"
HELP = "what one change of a Swiss evening costs the event's host under its lock, now and before"

log = logging.getLogger("showdown.bench.host")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown bench host``."""
    parser.add_argument("--players", type=int_in_range(4, 64), default=64,
                        help="players of the event measured (default 64, the largest)")
    parser.add_argument("--baseline-players", type=int_in_range(4, 64), default=20)
    parser.add_argument("--rounds", type=int_in_range(2, 10), default=10)
    parser.add_argument("--seed", type=seed, default=1)


def _timed(plan: TournamentPlan, records: list[GameRecord], *, search: bool) -> float:
    """CPU ms of what the host does under its lock: the round to play and the standings."""
    start = time.process_time()
    plan.current(records, search=search)
    plan.standings(records, search=search)
    return round((time.process_time() - start) * 1000, 2)


def measure(players: int, rounds: int, first_seed: int) -> dict[str, Any]:
    """One seeded evening of ``players``, then the three changes, now and before."""
    settings = swiss_settings(players, rounds)
    rng = random.Random(first_seed)
    plan = TournamentPlan(settings)
    records: list[GameRecord] = []
    for _round in range(rounds):
        seating = plan.current(records)
        assert seating is not None
        plan.keep(seating)
        for table, seated in seating.tables:
            records.append(game(table, seating.round, seated,
                                 [rng.randrange(0, 40) * 5 for _ in seated]))
    last = records.pop()  # the last round still in play at one table
    playing = [*records, replace(last, version=0, over=False, hands=1)]
    first = records[0]
    corrected = [replace(first, version=2, players=tuple(
        replace(line, points=line.points + 25 * index) for index, line in
        enumerate(first.players))), *playing[1:]]
    changes = {"entry": playing, "correction": corrected}
    now = {name: _timed(plan, changed, search=False) for name, changed in changes.items()}
    before: dict[str, float] = {}
    for name, changed in changes.items():
        old = TournamentPlan(settings)
        old.current(playing)  # its memory as warm as the host's was
        before[name] = _timed(old, changed, search=True)
    # The round before the last just complete: the last one to seat.
    rounds_before = [r for r in records if r.round is not None and r.round < rounds]
    fresh = TournamentPlan(settings, [plan.kept[n] for n in range(1, rounds)])
    now["round_complete"] = _timed(fresh, rounds_before, search=False)
    old = TournamentPlan(settings)
    old.current([r for r in rounds_before if r.round != rounds - 1])
    before["round_complete"] = _timed(old, rounds_before, search=True)
    log.info("%d players: now %s, before %s", players, now, before)
    return {"players": players, "tables": players // 4, "rounds": rounds,
            "now_ms": now, "before_ms": before}


def run(args: argparse.Namespace) -> int:
    """Both fields, then one JSON object."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    result: dict[str, Any] = {"seed": args.seed, "cpu_ms": "process time, this machine"}
    for label, players in (("baseline", args.baseline_players), ("scaled", args.players)):
        result[label] = measure(players, args.rounds, args.seed)
    print(json.dumps(result, sort_keys=True))
    return 0
