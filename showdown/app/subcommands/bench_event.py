"""``showdown bench event``: how an event scales, against a two-table evening in the same run.

Plays ``showdown event demo``'s free-play evening twice on this machine, first with two tables
(the baseline), then with ``--tables``; prints each run's entry-to-standings latency (from the
moment a table's journal committed an entry to the host's standings that include it, p50 and
p99), the host process's CPU (its user and system time over the run's wall time) and the
entries, as one JSON object. Beside them, ``swiss_seating``: a Swiss event's seating on the
largest field (``--swiss-players``, 64 by default), every round of ``--swiss-evenings`` seeded
evenings, as ``showdown bench seating`` measures it (the worst round, the median, and the
seatings not proved the fewest or the first). A benchmark: it prints figures and asserts none.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
from pathlib import Path
from typing import Any

from showdown.app.arguments import int_in_range
from showdown.app.errors import UserError
from showdown.app.subcommands.bench_seating import measure
from showdown.playtest.tournament_demo import DemoOptions, run_demo
from showdown.tournament.brokers import mosquitto_binary

NAME = "event"
GROUP = "bench"
HELP = "an event's latency and host CPU at N tables, against two tables in the same run"

FIGURES = ("tables", "entries_counted", "lost", "duplicated", "standings_match", "latency_ms",
           "host_cpu_s", "host_cpu_percent", "broker_cpu_s", "redeliveries", "seconds")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown bench event``."""
    parser.add_argument("--tables", type=int_in_range(3, 100), default=50)
    parser.add_argument("--speed", type=float, default=20.0,
                        help="the simulated units' speed (default 20)")
    parser.add_argument("--broker", choices=["embedded", "mosquitto"], default="embedded")
    parser.add_argument("--swiss-players", type=int_in_range(4, 64), default=64,
                        help="players of the Swiss event whose seating is measured (default 64, "
                        "the largest)")
    parser.add_argument("--swiss-evenings", type=int_in_range(1, 100), default=1,
                        help="its seeded ten-round evenings (default 1)")


def run(args: argparse.Namespace) -> int:
    """Both runs, then one JSON object."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    if args.broker == "mosquitto" and mosquitto_binary() is None:
        raise UserError("--broker mosquitto needs Mosquitto (apt-get install mosquitto)")
    result: dict[str, Any] = {"broker": args.broker, "speed": args.speed}
    for label, tables in (("baseline", 2), ("scaled", args.tables)):
        with tempfile.TemporaryDirectory(prefix="showdown-bench-event-") as folder:
            figures = run_demo(DemoOptions(tables=tables, format="free", broker=args.broker,
                                           speed=args.speed, folder=Path(folder)))
        result[label] = {key: figures[key] for key in FIGURES}
    result["swiss_seating"] = measure(args.swiss_players, 10, args.swiss_evenings, 1)
    print(json.dumps(result, sort_keys=True))
    return 0
