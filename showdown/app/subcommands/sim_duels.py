"""``showdown sim duels``: many showdowns between virtual players on the simulated unit.

Prints how many were decided, and decided correctly against the simulator's ground truth, and
the press-to-launch latency (from the winning edge's own timestamp to the launcher energised),
measured while ``--load-threads`` threads keep the CPU busy like a Pi drawing frames.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

from showdown.app.arguments import int_in_range, seed
from showdown.app.cli import UserError

NAME = "duels"
GROUP = "sim"
HELP = "run N seeded showdowns between virtual players on the simulated unit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown sim duels``."""
    parser.add_argument("--count", type=int, default=200, help="showdowns to run (default 200)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of players, cards and holds")
    parser.add_argument(
        "--load-threads",
        type=int,
        default=0,
        metavar="K",
        help="threads keeping the CPU busy, as a Pi drawing the scoreboard (default 0)",
    )
    parser.add_argument(
        "--load-kind",
        choices=("frames", "python"),
        default="frames",
        help="frames: mostly C work that releases the GIL, like pygame drawing (default); "
        "python: pure-Python loops that hold the GIL (the worst case)",
    )
    parser.add_argument(
        "--load-nice",
        type=int_in_range(0, 19),
        default=19,
        help="nice value of the load threads: the scoreboard draws at low priority (default 19)",
    )
    parser.add_argument(
        "--backend",
        default="gpio",
        help="unit back end to simulate: gpio, or serial (the reference firmware on a simulated "
        "microcontroller behind a pseudo-terminal)",
    )
    parser.add_argument("--config", default=None, help="configuration file (TOML)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _progress_bar(done: int, total: int) -> None:
    if done % max(1, total // 100) and done != total:
        return
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args: argparse.Namespace) -> int:
    """Run the duels and print the figures."""
    # imported here so that `showdown --help` does not load gpiozero and the simulator
    from hw_sim.sim_unit import SIM_BACKENDS  # noqa: PLC0415
    from showdown.app.config import load_settings  # noqa: PLC0415
    from showdown.sim.duels import run_duels  # noqa: PLC0415

    if args.count < 1:
        raise UserError("--count must be at least 1")
    if args.load_threads < 0:
        raise UserError("--load-threads cannot be negative")
    if args.backend not in SIM_BACKENDS:
        raise UserError(f"unknown back end {args.backend!r} (known: {', '.join(SIM_BACKENDS)})")
    settings = load_settings(args.config).unit
    quiet = logging.getLogger("showdown")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # jams and refusals are counted in the figures
    started = time.perf_counter()
    try:
        report = run_duels(
            args.count,
            args.seed,
            load_threads=args.load_threads,
            load_kind=args.load_kind,
            load_nice=args.load_nice,
            backend=args.backend,
            settings=settings,
            progress=None if args.json or args.count < 50 else _progress_bar,
        )
    finally:
        quiet.setLevel(level)
    figures = report.as_dict()
    figures["seconds"] = round(time.perf_counter() - started, 2)
    if args.json:
        print(json.dumps(figures))
        return 0
    latency = figures["press_to_launch_ms"]
    print(f"duels              {figures['duels']}")
    print(f"decided            {figures['decided']} ({figures['decided_correctly']} correctly)")
    print(f"false starts       {figures['false_starts']}")
    print(f"ties               {figures['ties']} (replays {figures['replays']})")
    print(f"timeouts           {figures['timeouts']}")
    print(f"possible jams      {figures['jams']}")
    print(
        f"press to launch    p50 {latency['p50']} ms, p99 {latency['p99']} ms, "
        f"max {latency['max']} ms"
    )
    print(f"took               {figures['seconds']} s")
    for wrong in figures["wrong"]:
        print(f"WRONG: {wrong}")
    return 0 if figures["decided"] == figures["decided_correctly"] else 1
