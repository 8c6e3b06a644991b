"""``showdown event demo``: a whole simulated evening on one machine (docs/event.md).

A broker, the host and N tables, each its own process with its own journal, bots and the
simulated unit; ``--broker-restarts``, ``--table-crashes`` and ``--partition-s`` add faults. The
host serves the event's page for phones (``--http``; given, it stays up after the evening until
Ctrl-C). ``--json`` prints one JSON object last (also after Ctrl-C): the hands at each table,
the entries made and counted, ``lost`` (made, acknowledged to the table, and not at the host),
``pending`` (still in a table's outbox, as after a Ctrl-C), ``duplicated``, ``standings_match``,
the standings, the broker, the latency of an entry to the standings and the host's CPU, the
seconds.
"""

from __future__ import annotations

import argparse
import json
import logging
import tempfile
import threading
from pathlib import Path

from engine.tournament import TournamentFormat
from showdown.app.arguments import int_in_range
from showdown.app.errors import UserError
from showdown.app.phone_page import add_http_arguments
from showdown.app.signals import Stopped, stop_signals
from showdown.playtest.tournament_demo import DemoOptions, run_demo
from showdown.tournament.brokers import mosquitto_binary

NAME = "demo"
GROUP = "event"
HELP = "play a whole simulated evening: a broker, the host and N tables, with faults"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown event demo``."""
    parser.add_argument("--tables", type=int_in_range(1, 100), default=2,
                        help="tables, each its own process (default 2; partners-8: 2)")
    parser.add_argument("--format", choices=[f.value for f in TournamentFormat], default="free")
    parser.add_argument("--broker", choices=["embedded", "mosquitto"], default="embedded",
                        help="the embedded broker (default) or Debian's /usr/sbin/mosquitto")
    parser.add_argument("--broker-restarts", type=int_in_range(0, 20), default=0,
                        help="restart the broker this many times during the evening")
    parser.add_argument("--table-crashes", type=int_in_range(0, 20), default=0,
                        help="SIGKILL a table's process this many times and start it again")
    parser.add_argument("--partition-s", type=float, default=0.0,
                        help="cut one table off the broker for this many seconds")
    parser.add_argument("--speed", type=float, default=None,
                        help="the simulated units' time this many times faster than real time "
                        "(default: no waiting at all)")
    parser.add_argument("--games", type=int_in_range(1, 100), default=1,
                        help="free play: games at each table (default 1)")
    parser.add_argument("--target", type=int_in_range(50, 5000), default=200,
                        help="free play: a game's target (default 200)")
    parser.add_argument("--rounds", type=int_in_range(1, 20), default=3, help="Swiss rounds")
    parser.add_argument("--dir", type=Path, help="keep the journals and logs here "
                        "(default: a temporary folder)")
    parser.add_argument("--json", action="store_true", help="print one JSON object last")
    add_http_arguments(parser, configured=False, what="the event's page (the host's); given "
                       "--http, it stays up after the evening until Ctrl-C")


def run(args: argparse.Namespace) -> int:
    """Play the evening and print its figures."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    if args.format == "partners-8" and args.tables != 2:
        raise UserError(f"partners-8 is played at two tables, not {args.tables}")
    if args.broker == "mosquitto" and mosquitto_binary() is None:
        raise UserError("--broker mosquitto needs Mosquitto (apt-get install mosquitto)")
    if args.speed is not None and not 0.1 <= args.speed <= 100:
        raise UserError(f"--speed must be 0.1-100, not {args.speed}")
    if args.partition_s < 0:
        raise UserError("--partition-s cannot be negative")
    stop = threading.Event()
    stop_signals.route(lambda _signum: stop.set())
    try:
        with tempfile.TemporaryDirectory(prefix="showdown-event-") as scratch:
            folder = args.dir or Path(scratch)
            options = DemoOptions(
                tables=args.tables, format=args.format, broker=args.broker,
                broker_restarts=args.broker_restarts, table_crashes=args.table_crashes,
                partition_s=args.partition_s, speed=args.speed, games=args.games,
                target=args.target, rounds=args.rounds, folder=folder,
                http="" if args.no_http else args.http, keep_page=args.http is not None
                and not args.no_http)
            try:
                result = run_demo(options, stop)
            except RuntimeError as error:
                raise UserError(f"{error} (run with --dir to keep the logs)") from None
    except Stopped:
        return 130
    finally:
        stop_signals.route(None)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        for key in ("format", "tables", "hands", "entries_made", "entries_counted", "lost",
                    "pending", "duplicated", "standings_match", "broker", "faults", "latency_ms",
                    "host_cpu_percent", "seconds"):
            print(f"{key}: {result[key]}")
        for line in result["standings"][:10]:
            print(f"  {line['name']:<10} {line['table']!s:<4} {line['points']}")
    ok = (result["lost"] == 0 and result["pending"] == 0 and result["duplicated"] == 0
          and result["standings_match"])
    return 0 if ok or result["stopped"] else 1
