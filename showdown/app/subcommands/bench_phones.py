"""``showdown bench phones``: does a room full of phones slow the unit down?

Runs the same seeded ``sim duels`` three times in this process and prints their press-to-launch
latency side by side: without the phone page; with the page mirroring the unit but nobody
following it; and with ``--clients`` pages following it over Server-Sent Events. The phones are
a separate process (as phones are other machines), each an open ``GET /events`` stream read to
the end of every message; the run starts once the server counts every stream open. The duels
jump the unit's clock over the countdown, so the page is told of a showdown's steps far more
often than at a real table: the worst case for the unit.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import multiprocessing
import statistics
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event as StopEvent
from pathlib import Path
from typing import Any

from showdown.app.arguments import int_in_range, seed

NAME = "phones"
GROUP = "bench"
HELP = "sim duels press-to-launch p99 with and without N phones following the page"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown bench phones``."""
    parser.add_argument("--clients", type=int_in_range(1, 500), default=50,
                        help="pages following the table at once (50)")
    parser.add_argument("--count", type=int_in_range(10, 100_000), default=500,
                        help="showdowns per run (500)")
    parser.add_argument("--seed", type=seed, default=1, help="seed of the duels (1)")
    parser.add_argument("--repeat", type=int_in_range(1, 20), default=3,
                        help="times each of the three runs is made, taking turns, so a busy "
                        "moment of the machine falls on all three alike (3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


async def _follow(port: int, stop: StopEvent, counts: list[int], index: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 0.5)
        except TimeoutError:
            continue
        if not line:
            break
        if line.startswith(b"event: parts"):
            counts[index] += 1
    writer.close()


def _phones(port: int, clients: int, stop: StopEvent, answer: Connection) -> None:
    """The phones' process: ``clients`` streams until ``stop``; sends back messages read and
    its CPU time (on a LAN phones are other machines: here they share the cores with the unit,
    and their CPU time says how much of the machine they took)."""
    counts = [0] * clients

    async def main() -> None:
        await asyncio.gather(*(_follow(port, stop, counts, i) for i in range(clients)))

    asyncio.run(main())
    answer.send((counts, time.process_time()))


def _run(args: argparse.Namespace, clients: int | None) -> dict[str, Any]:
    """One run: no page (``clients`` None), or the page with ``clients`` following it."""
    from showdown.game.journal import Journal  # noqa: PLC0415 - only when benchmarking
    from showdown.game.session import Session  # noqa: PLC0415
    from showdown.sim.duels import run_duels  # noqa: PLC0415
    from showdown.unit.machine import ShowdownMachine  # noqa: PLC0415
    from showdown.web.app import table_app  # noqa: PLC0415
    from showdown.web.hub import Hub  # noqa: PLC0415
    from showdown.web.pin import PinGuard  # noqa: PLC0415
    from showdown.web.server import WebServer  # noqa: PLC0415
    from showdown.web.table import PARTS, TableSource  # noqa: PLC0415

    if clients is None:
        report = run_duels(args.count, args.seed)
        return {"page": False, "clients": 0, "press_to_launch_ms": report.latency_ms()}
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.open(Path(scratch) / "bench.db", writable=True)
        hub = Hub(PARTS)
        source = TableSource(Session(journal), hub.changed)
        app = table_app(source, hub, PinGuard(lambda: "----"))
        server = WebServer(app, "127.0.0.1", 0, before_stop=hub.close)
        server.start()
        stop = multiprocessing.get_context("spawn").Event()
        mine, theirs = multiprocessing.get_context("spawn").Pipe()
        phones = None
        try:
            if clients:
                phones = multiprocessing.get_context("spawn").Process(
                    target=_phones, args=(server.port, clients, stop, theirs), daemon=True)
                phones.start()
                deadline = time.monotonic() + 60
                pause = threading.Event()
                while app.state.page.streams < clients:
                    if time.monotonic() > deadline or not phones.is_alive():
                        raise RuntimeError(f"only {app.state.page.streams} of {clients} "
                                           "phones could follow the page")
                    pause.wait(0.05)

            def watch(machine: ShowdownMachine) -> None:
                machine.subscribe(source.unit_event)

            report = run_duels(args.count, args.seed, watch=watch)
            delivered, phones_cpu_s = 0, 0.0
            if phones is not None:
                stop.set()
                if mine.poll(30):
                    counts, phones_cpu_s = mine.recv()
                    delivered = sum(counts)
                phones.join(10)
        finally:
            stop.set()
            server.stop()
            source.close()
            journal.close()
    return {"page": True, "clients": clients, "press_to_launch_ms": report.latency_ms(),
            "showdown_updates": hub.versions.version("showdown") - 1,
            "messages_read_by_phones": delivered, "phones_cpu_s": round(phones_cpu_s, 2)}


def run(args: argparse.Namespace) -> int:
    """The three runs, taking turns ``--repeat`` times, side by side."""
    quiet = [logging.getLogger(name) for name in ("showdown", "firmware_bridge")]
    for logger in quiet:  # the duels' possible jams are counted, not told
        logger.setLevel(logging.ERROR)
    kinds: list[int | None] = [None, 0, args.clients]
    runs: list[list[dict[str, Any]]] = [[] for _ in kinds]
    for _turn in range(args.repeat):
        for index, clients in enumerate(kinds):
            runs[index].append(_run(args, clients))
    labels = ["no page", "page, nobody following", f"page, {args.clients} phones following"]
    summary = []
    for label, made in zip(labels, runs, strict=True):
        p99s = [r["press_to_launch_ms"]["p99"] for r in made]
        p50s = [r["press_to_launch_ms"]["p50"] for r in made]
        summary.append({"run": label, "p50_ms": p50s, "p99_ms": p99s,
                        "median_p99_ms": statistics.median(p99s),
                        "messages_read_by_phones": [r.get("messages_read_by_phones", 0)
                                                    for r in made],
                        "phones_cpu_s": [r.get("phones_cpu_s", 0.0) for r in made]})
    if args.json:
        print(json.dumps({"count": args.count, "seed": args.seed, "repeat": args.repeat,
                          "runs": summary}))
        return 0
    print(f"{args.count} showdowns (seed {args.seed}) per run, each run made {args.repeat} "
          "times in turn; press to launch, ms")
    print(f"{'':32} {'p99 of each run':>26} {'median p99':>11} {'p50 of each run':>26}")
    for line in summary:
        p99 = " ".join(f"{v:7.2f}" for v in line["p99_ms"])
        p50 = " ".join(f"{v:7.2f}" for v in line["p50_ms"])
        print(f"{line['run']:32} {p99:>26} {line['median_p99_ms']:>11.2f} {p50:>26}")
    print(f"the phones read {summary[-1]['messages_read_by_phones']} messages in their runs, "
          f"using {summary[-1]['phones_cpu_s']} s of CPU on this machine")
    return 0
