"""``showdown bench scoreboard``: whether the scoreboard keeps up on a Pi, as frame render times
per screen and the idle loop's CPU use.

Frame times are measured on SDL's dummy video driver (headless) unless ``--display`` is given:
each screen is repainted from scratch (every widget drawn, the window updated) ``--frames``
times, and a small change (the direction of play) is repainted as often on the live table.
The idle figure runs the real event loop on the live table for ``--idle-seconds`` with nothing
happening and reports the process CPU seconds it used, scaled to one minute.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from showdown.app.arguments import (
    FRAMES_MAX,
    IDLE_SECONDS_MAX,
    int_in_range,
    number_in_range,
    window_size,
)

NAME = "scoreboard"
GROUP = "bench"
HELP = "scoreboard frame render p50/p95 per screen and idle CPU of the live table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown bench scoreboard``."""
    parser.add_argument("--frames", type=int_in_range(1, FRAMES_MAX), default=200,
                        help=f"frames per screen, 1-{FRAMES_MAX} (200)")
    parser.add_argument("--size", default="800x480", help="window size WxH (800x480)")
    parser.add_argument("--idle-seconds", type=number_in_range(0.01, IDLE_SECONDS_MAX),
                        default=20.0,
                        help=f"how long to run the idle live table, 0.01-{IDLE_SECONDS_MAX:g} (20)")
    parser.add_argument("--display", action="store_true",
                        help="draw on the real display instead of SDL's dummy driver")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 3), "p95": round(p95, 3),
            "max": round(ordered[-1], 3)}


def _time(frames: int, step: Callable[[], object]) -> dict[str, float]:
    """Wall-clock p50/p95/max of ``step`` in ms, plus the p50/p95 of the CPU time this thread
    spent (``cpu_*``): on a busy machine the wall clock also counts time the scheduler gave to
    other processes, the CPU time only the frame's own work."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(frames):
        start, start_cpu = time.perf_counter(), time.thread_time()
        step()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    figures = _percentiles(wall)
    on_cpu = _percentiles(cpu)
    return {**figures, "cpu_p50": on_cpu["p50"], "cpu_p95": on_cpu["p95"]}


def run(args: argparse.Namespace) -> int:
    """Measure and print."""
    size = window_size(args.size)
    if not args.display:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from showdown.game.journal import Journal  # noqa: PLC0415
    from showdown.game.session import Session  # noqa: PLC0415
    from showdown.scoreboard.app import Scoreboard  # noqa: PLC0415
    from showdown.scoreboard.sample import (  # noqa: PLC0415
        COUNTDOWN,
        FALSE_START,
        GO,
        sample_table,
    )
    from showdown.scoreboard.view import ShowdownView  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.open(Path(scratch) / "bench.db")
        table = sample_table(Session(journal))
        board = Scoreboard(table, size)
        screens: dict[str, Any] = {}
        try:
            cases: list[tuple[str, str, ShowdownView | None]] = [
                ("setup", "setup", None), ("names", "names", None), ("table", "table", None),
                ("showdown-countdown", "showdown", COUNTDOWN), ("showdown-go", "showdown", GO),
                ("showdown-false-start", "showdown", FALSE_START),
                ("showdown-result", "showdown", None), ("round", "round", None),
                ("history", "history", None), ("chart", "chart", None),
                ("stats", "stats", None), ("gameover", "gameover", None),
            ]
            for name, screen, state in cases:
                if state is not None:
                    table.unit_changed(state)
                board.refresh()
                board.go(screen)
                start = time.perf_counter()
                board.painter.invalidate()
                board.frame()
                first = (time.perf_counter() - start) * 1000

                def full() -> None:
                    board.painter.invalidate()
                    board.frame()

                screens[name] = {**_time(args.frames, full), "first": round(first, 3)}
            board.go("table")
            board.frame()
            # A change: the direction of play flips (one button and its arrow are repainted).
            toggle = [0]

            def change() -> None:
                toggle[0] ^= 1
                board.screens["table"].clockwise = bool(toggle[0])  # type: ignore[attr-defined]
                board.frame()

            changed = _time(args.frames, change)
            idle = _idle(board, args.idle_seconds)
            notify = _notify_cost(board)
        finally:
            board.close()
            journal.close()
    report = {
        "size": f"{size[0]}x{size[1]}",
        "driver": "display" if args.display else "dummy",
        "frames_per_screen": args.frames,
        "frame_ms": screens,
        "table_change_ms": changed,
        "idle_seconds": args.idle_seconds,
        "idle_cpu_seconds_per_minute": round(idle * 60 / args.idle_seconds, 4),
        "idle_cpu_percent": round(idle * 100 / args.idle_seconds, 3),
        "notify_from_thread_us": notify,
    }
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, figures in screens.items():
            print(f"{name:22s} p50 {figures['p50']:7.3f} ms  p95 {figures['p95']:7.3f} ms"
                  f"  (CPU p95 {figures['cpu_p95']:7.3f} ms)")
        print(f"table change         p50 {changed['p50']:7.3f} ms  p95 {changed['p95']:7.3f} ms")
        print(f"idle CPU: {report['idle_cpu_seconds_per_minute']} s per minute "
              f"({report['idle_cpu_percent']} %)")
    return 0


def _idle(board: Any, seconds: float) -> float:
    """CPU seconds the real loop uses in ``seconds`` on the live table with nothing happening."""
    board.frame()
    stopper = threading.Timer(seconds, board.stop)
    start = time.process_time()
    stopper.start()
    board.run()
    used = time.process_time() - start
    stopper.join()
    return used


def _notify_cost(board: Any, calls: int = 2000) -> dict[str, float]:
    """How long :meth:`Scoreboard.notify` takes on another thread (it must never wait)."""
    samples: list[float] = []

    def hammer() -> None:
        for _ in range(calls):
            start = time.perf_counter()
            board.notify()
            samples.append((time.perf_counter() - start) * 1e6)

    thread = threading.Thread(target=hammer)
    thread.start()
    thread.join()
    board.pump()
    return _percentiles(samples)
