"""``showdown sim duels``: many showdowns between virtual players on the simulated unit.

Prints how many were decided, and decided correctly against the simulator's ground truth, and
the press-to-launch latency (from the winning edge's own timestamp to the launcher energised),
measured while ``--load-threads`` threads keep the CPU busy like a Pi drawing frames. On the serial
back end ``--corrupt``, ``--drop``, ``--delay-ms``, ``--replug-every`` and ``--reset-every`` repeat
a fault trial (:class:`~hw_sim.faults.FaultPlan`): the figures then say how many showdowns were
voided, how many launches there were and whether each decided race launched exactly once.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time

from showdown.app.arguments import SHOWDOWNS_MAX, chance, int_in_range, number_in_range, seed
from showdown.app.errors import UserError

NAME = "duels"
GROUP = "sim"
HELP = "run N seeded showdowns between virtual players on the simulated unit"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown sim duels``."""
    parser.add_argument("--count", type=int_in_range(1, SHOWDOWNS_MAX), default=200,
                        help=f"showdowns to run, 1-{SHOWDOWNS_MAX} (default 200)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of players, cards and holds")
    parser.add_argument(
        "--load-threads",
        type=int_in_range(0, 64),
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
    faults = parser.add_argument_group(
        "faults on the line (--backend serial)",
        "repeat a fault trial: damaged bytes, a slow line, replugs and resets mid-showdown",
    )
    faults.add_argument("--corrupt", type=chance, default=0.0, metavar="P",
                        help="chance that a byte is altered, both directions (0.05 = 5 %%)")
    faults.add_argument("--drop", type=chance, default=0.0, metavar="P",
                        help="chance that a byte is lost, both directions")
    faults.add_argument("--delay-ms", type=number_in_range(0, 10_000), default=0.0, metavar="N",
                        help="hold every byte toward the host this long (0 to 10000)")
    faults.add_argument("--replug-every", type=int_in_range(0), default=0, metavar="N",
                        help="pull the cable and plug it back after every N-th input edge")
    faults.add_argument("--reset-every", type=int_in_range(0), default=0, metavar="N",
                        help="reboot the microcontroller after every N-th input edge")
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
    from firmware_bridge.link import LinkError  # noqa: PLC0415
    from hw_sim.faults import FaultPlan  # noqa: PLC0415
    from hw_sim.sim_unit import SIM_BACKENDS  # noqa: PLC0415
    from showdown.app.config import load_settings  # noqa: PLC0415
    from showdown.playtest.duels import run_duels  # noqa: PLC0415

    if args.backend not in SIM_BACKENDS:
        raise UserError(f"unknown back end {args.backend!r} (known: {', '.join(SIM_BACKENDS)})")
    faults = FaultPlan(corrupt=args.corrupt, drop=args.drop, delay_ms=args.delay_ms,
                       replug_every=args.replug_every, reset_every=args.reset_every,
                       seed=args.seed)
    if faults.active and args.backend != "serial":
        raise UserError("--corrupt, --drop, --delay-ms, --replug-every and --reset-every hit the "
                        "serial line: add --backend serial")
    settings = load_settings(args.config).unit
    # jams, refusals, voided showdowns and the link's ups and downs are counted in the figures
    quiet = [logging.getLogger(name) for name in ("showdown", "firmware_bridge")]
    levels = [logger.level for logger in quiet]
    for logger in quiet:
        logger.setLevel(logging.ERROR)
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
            # on a terminal only: a lossy line can take minutes a duel; stdout stays JSON
            progress=_progress_bar if sys.stderr.isatty() else None,
            faults=faults,
        )
    except (LinkError, RuntimeError) as exc:  # the line was too bad to go on: say so, no trace
        raise UserError(f"the simulated unit could not go on: {exc}") from None
    finally:
        for logger, level in zip(quiet, levels, strict=True):
            logger.setLevel(level)
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
    print(f"voided             {figures['voided']} (the unit lost contact mid-showdown)")
    print(f"wrong winners      {figures['wrong_winners']}")
    print(f"launches           {figures['launches']} (races without exactly one: "
          f"{figures['missed_launches']}, outside a showdown: {figures['stray_launches']})")
    print(f"possible jams      {figures['jams']}")
    print(
        f"press to launch    p50 {latency['p50']} ms, p99 {latency['p99']} ms, "
        f"max {latency['max']} ms"
    )
    print(f"took               {figures['seconds']} s")
    for wrong in figures["wrong"]:
        print(f"WRONG: {wrong}")
    sound = not (figures["wrong_winners"] or figures["missed_launches"]
                 or figures["stray_launches"])
    return 0 if sound else 1
