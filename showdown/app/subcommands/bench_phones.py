"""``showdown bench phones``: does a room full of phones slow the unit down?

Runs the same seeded ``sim duels`` four ways in this process and prints their press-to-launch
latency side by side: without the phone page; with the page mirroring the unit (served by its own
process, as the service serves it) but nobody following it; the same with ``--clients`` pages
following it over Server-Sent Events; and, for comparison, with the page's server on a thread of
the unit's process and ``--clients`` following. It also prints the CPU time each run cost the
unit's process and the page's server (less sensitive to a busy machine than the p99). The phones are
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
import os
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
                        help="times each of the four variants is run, taking turns, so a busy "
                        "moment of the machine falls on all of them alike (3)")
    parser.add_argument("--phones-nice", type=int_in_range(0, 19), default=0,
                        help="niceness of the phones' process: on a LAN phones are other "
                        "machines, here they share the cores with the unit; 19 lets the "
                        "unit's threads have a core first (0)")
    parser.add_argument("--page-nice", type=int_in_range(0, 19), default=None,
                        help="niceness of the page's process (default: the service's, 10)")
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


def _phones(port: int, clients: int, stop: StopEvent, answer: Connection, nice: int) -> None:
    """The phones' process: ``clients`` streams until ``stop``; sends back messages read and
    its CPU time (on a LAN phones are other machines: here they share the cores with the unit,
    and their CPU time says how much of the machine they took)."""
    counts = [0] * clients
    os.nice(nice)

    async def main() -> None:
        await asyncio.gather(*(_follow(port, stop, counts, i) for i in range(clients)))

    asyncio.run(main())
    answer.send((counts, time.process_time()))


def _cpu_s(stat: Path) -> float:
    """User plus system CPU seconds of a process or thread, from its ``/proc`` stat file
    (0 where there is none: not Linux)."""
    try:
        fields = stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _run(args: argparse.Namespace, kind: str) -> dict[str, Any]:
    """One run of ``kind``: ``none`` (no page), ``idle`` (the page in its own process, nobody
    following), ``phones`` (the same, ``--clients`` following) or ``thread`` (the page's server
    on a thread of the unit's process, ``--clients`` following)."""
    from showdown.game.journal import Journal  # noqa: PLC0415 - only when benchmarking
    from showdown.game.session import Session  # noqa: PLC0415
    from showdown.game.table_model import TableModel  # noqa: PLC0415
    from showdown.playtest.duels import run_duels  # noqa: PLC0415
    from showdown.unit.machine import ShowdownMachine  # noqa: PLC0415
    from showdown.web.app import table_app  # noqa: PLC0415
    from showdown.web.hub import Hub  # noqa: PLC0415
    from showdown.web.pin import PinGuard  # noqa: PLC0415
    from showdown.web.process import NICE, PageProcess  # noqa: PLC0415
    from showdown.web.server import WebServer  # noqa: PLC0415
    from showdown.web.table import PARTS, TableSource  # noqa: PLC0415

    if kind == "none":
        before = time.process_time()
        report = run_duels(args.count, args.seed)
        return {"press_to_launch_ms": report.latency_ms(),
                "unit_cpu_s": round(time.process_time() - before, 2)}
    clients = 0 if kind == "idle" else args.clients
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.open(Path(scratch) / "bench.db", writable=True)
        hub = Hub(PARTS)
        model: TableModel[Any] = TableModel(Session(journal))
        unsubscribe = model.subscribe(hub.changed)
        source = TableSource(model)
        server: PageProcess | WebServer
        if kind == "thread":
            app = table_app(source, hub, PinGuard(lambda: "----"))
            server = WebServer(app, "127.0.0.1", 0, before_stop=hub.close)

            def streams() -> int:
                return int(app.state.page.streams)
        else:
            server = PageProcess("table", hub, {"table": source.picture,
                                                  "showdown": lambda: model.showdown},
                                 "127.0.0.1", 0,
                                 nice=NICE if args.page_nice is None else args.page_nice)

            def streams() -> int:
                assert isinstance(server, PageProcess)
                return server.streams
        server.start()
        # the page's work in the unit's process: the feed's thread, or the server's
        unit_stat = Path(f"/proc/self/task/{server.thread_id}/stat")
        page_stat = Path(f"/proc/{server.pid}/stat") if isinstance(server, PageProcess) \
            else unit_stat
        stop = multiprocessing.get_context("spawn").Event()
        mine, theirs = multiprocessing.get_context("spawn").Pipe()
        phones = None
        try:
            if clients:
                phones = multiprocessing.get_context("spawn").Process(
                    target=_phones, args=(server.port, clients, stop, theirs, args.phones_nice),
                    daemon=True)
                phones.start()
                deadline = time.monotonic() + 60
                pause = threading.Event()
                while streams() < clients:
                    if time.monotonic() > deadline or not phones.is_alive():
                        raise RuntimeError(f"only {streams()} of {clients} "
                                           "phones could follow the page")
                    pause.wait(0.05)

            def watch(machine: ShowdownMachine) -> None:
                machine.subscribe(model.unit_event)

            cpu = (time.process_time(), _cpu_s(unit_stat), _cpu_s(page_stat))
            report = run_duels(args.count, args.seed, watch=watch)
            unit_cpu_s = time.process_time() - cpu[0]
            in_unit_cpu_s = _cpu_s(unit_stat) - cpu[1]
            page_cpu_s = _cpu_s(page_stat) - cpu[2]
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
            unsubscribe()
            model.close()
            journal.close()
    return {"press_to_launch_ms": report.latency_ms(), "unit_cpu_s": round(unit_cpu_s, 2),
            "page_in_unit_cpu_s": round(in_unit_cpu_s, 3), "page_cpu_s": round(page_cpu_s, 2),
            "showdown_updates": hub.versions.version("showdown") - 1,
            "messages_read_by_phones": delivered, "phones_cpu_s": round(phones_cpu_s, 2)}


def run(args: argparse.Namespace) -> int:
    """The four runs, taking turns ``--repeat`` times, side by side."""
    quiet = [logging.getLogger(name) for name in ("showdown", "firmware_bridge")]
    for logger in quiet:  # the duels' possible jams are counted, not told
        logger.setLevel(logging.ERROR)
    labels = {"none": "no page", "idle": "page, nobody following",
              "phones": f"page, {args.clients} phones following",
              "thread": f"page on the unit's thread, {args.clients} phones"}
    runs: dict[str, list[dict[str, Any]]] = {kind: [] for kind in labels}
    load = [os.getloadavg()[0]]
    for _turn in range(args.repeat):
        for kind, made in runs.items():
            made.append(_run(args, kind))
        load.append(os.getloadavg()[0])
    summary = []
    for kind, made in runs.items():
        p99s = [r["press_to_launch_ms"]["p99"] for r in made]
        p50s = [r["press_to_launch_ms"]["p50"] for r in made]
        summary.append({"run": labels[kind], "kind": kind, "p50_ms": p50s, "p99_ms": p99s,
                        "median_p99_ms": statistics.median(p99s),
                        "unit_cpu_s": [r["unit_cpu_s"] for r in made],
                        "page_in_unit_cpu_s": [r.get("page_in_unit_cpu_s", 0.0) for r in made],
                        "page_cpu_s": [r.get("page_cpu_s", 0.0) for r in made],
                        "messages_read_by_phones": [r.get("messages_read_by_phones", 0)
                                                    for r in made],
                        "phones_cpu_s": [r.get("phones_cpu_s", 0.0) for r in made]})
    if args.json:
        print(json.dumps({"count": args.count, "seed": args.seed, "repeat": args.repeat,
                          "phones_nice": args.phones_nice, "load_average": load,
                          "runs": summary}))
        return 0
    print(f"{args.count} showdowns (seed {args.seed}) per run, each run made {args.repeat} "
          "times in turn; press to launch, ms; load average "
          + ", ".join(f"{v:.1f}" for v in load))
    print("CPU s, median of the runs: the unit's process, the page's work in it (the feed's "
          "thread, or the server's), the page's server")
    width = 8 * args.repeat
    print(f"{'':36} {'p99 of each run':>{width}} {'median p99':>10} {'p50 of each run':>{width}}"
          f" {'unit':>6} {'in unit':>7} {'page':>6}")
    for line in summary:
        p99 = " ".join(f"{v:7.2f}" for v in line["p99_ms"])
        p50 = " ".join(f"{v:7.2f}" for v in line["p50_ms"])
        print(f"{line['run']:36} {p99:>{width}} {line['median_p99_ms']:>10.2f} {p50:>{width}} "
              f"{statistics.median(line['unit_cpu_s']):>6.2f} "
              f"{statistics.median(line['page_in_unit_cpu_s']):>7.3f} "
              f"{statistics.median(line['page_cpu_s']):>6.2f}")
    for line in summary[2:]:
        print(f"{line['run']}: the phones read {line['messages_read_by_phones']} messages, "
              f"using {line['phones_cpu_s']} s of CPU")
    return 0
