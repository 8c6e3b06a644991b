"""The service's stats line: once a minute by a clock the test moves, on SIGUSR1 without stopping
the service, with the serial link's real figures (the simulated Pico on a damaging line) and the
Pi's health from a fake tree; never an error, whatever a source does."""

from __future__ import annotations

import logging
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from firmware_bridge.link import LinkFigures
from hw_sim.faults import FaultPlan
from hw_sim.serial_sim import SerialSimUnit
from showdown.app.health import PiHealth, read_health
from showdown.app.parts.unit_source import link_source
from showdown.app.stats import StatsLogger, link_text
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Light
from tests.showdown.app.test_health import fake_vcgencmd, pi_tree

HEALTH = PiHealth(temperature_c=51.0, load=(1.0, 0.5, 0.25), memory_mb=(700, 1848),
                  missing={"throttling": "no vcgencmd, no rpi_volt sensor"})


def figures(**changes: object) -> LinkFigures:
    values: dict[str, object] = {
        "path": "/dev/showdown-unit", "connected": True, "srtt_ms": 2.14, "last_rtt_ms": 2.0,
        "rto_ms": 30.0, "rtt_samples": 40, "retransmit_rounds": 11, "go_backs": 0,
        "damaged_frames": 2, "duplicates_dropped": 0, "dropped_commands": 0, "reconnects": 0,
        "fresh_sessions": 1,
    }
    values.update(changes)
    return LinkFigures(**values)  # type: ignore[arg-type]


class Clock:
    """Seconds that move only when the test says."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def logger_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "showdown.stats"]


def test_one_line_at_start_then_one_a_minute_and_one_when_asked(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="showdown.stats")
    clock = Clock()
    stats = StatsLogger(link=lambda: "none (the unit is on the Pi's own pins)",
                        health=lambda: HEALTH, clock=clock)
    stats.tick()
    clock.now += 59.9
    stats.tick()
    assert len(logger_lines(caplog)) == 1
    clock.now += 0.1
    stats.tick()
    stats.tick()
    assert len(logger_lines(caplog)) == 2
    clock.now += 5
    stats.request()  # SIGUSR1
    stats.tick()
    stats.tick()
    lines = logger_lines(caplog)
    assert len(lines) == 3
    assert lines[0] == (
        "stats: link none (the unit is on the Pi's own pins); pi 51.0 C, throttling n/a "
        "(no vcgencmd, no rpi_volt sensor), load 1.00 0.50 0.25, memory 700/1848 MiB free")
    clock.now += 59.9  # the asked-for line started a new minute
    stats.tick()
    assert len(logger_lines(caplog)) == 3


def test_counters_show_the_change_since_the_previous_line() -> None:
    first = link_text(figures(), 0)
    assert first == ("link /dev/showdown-unit up, rtt 2.1 ms (rto 30 ms), retransmits 11, "
                     "damaged 2, dropped 0, duplicates 0, reconnects 0, mcu restarts 0, faults 0")
    later = link_text(figures(retransmit_rounds=14, reconnects=1, fresh_sessions=2,
                              connected=False, srtt_ms=None), 1, before=(figures(), 0))
    assert later == ("link /dev/showdown-unit DOWN, rtt n/a (not measured yet), retransmits 14 "
                     "(+3), damaged 2, dropped 0, duplicates 0, reconnects 1 (+1), mcu restarts 1 "
                     "(+1), faults 1 (+1)")


def test_a_source_that_fails_gives_a_line_saying_so(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="showdown.stats")

    def broken() -> LinkFigures:
        raise RuntimeError("port vanished")

    stats = StatsLogger(link=lambda: (broken(), 0), health=lambda: HEALTH, clock=Clock())
    stats.tick()
    assert logger_lines(caplog) == [
        "stats: could not be gathered (RuntimeError: port vanished)"]


def test_the_pis_figures_come_from_its_files_and_vcgencmd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "bin"
    fake_vcgencmd(folder, 'echo "throttled=0x50000"')
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    root = pi_tree(tmp_path / "root")
    stats = StatsLogger(link=lambda: "none (the simulated unit)",
                        health=lambda: read_health(root), clock=Clock())
    assert stats.line() == (
        "stats: link none (the simulated unit); pi 48.3 C, throttling now: none; since boot: "
        "under-voltage, throttled, load 0.42 0.30 0.25, memory 1220/1848 MiB free")


def test_a_real_serial_link_on_a_damaging_line_shows_its_figures() -> None:
    """The simulated Pico behind a pty that corrupts 1 % of the bytes: after some traffic the
    line reports round trips, damaged frames and retransmissions, as measured by the link."""
    sim = SerialSimUnit(UnitSettings(), faults=FaultPlan(corrupt=0.01, seed=3), physical=False)
    try:
        source = link_source(sim.hardware)
        stats = StatsLogger(link=source, health=lambda: HEALTH, clock=Clock())
        before = stats.line()
        assert ", rtt " in before and " up, " in before
        for _ in range(100):
            for light in (Light.RED, Light.GREEN, Light.OFF):
                sim.hardware.countdown_light(light)
        assert sim.wait_idle()
        got = source()
        assert not isinstance(got, str)
        link, faults = got
        assert link.connected and link.srtt_ms is not None and link.rtt_samples > 0
        assert link.damaged_frames > 0 and link.retransmit_rounds > 0
        after = stats.line()
        assert f"damaged {link.damaged_frames} (+" in after
        assert f"retransmits {link.retransmit_rounds} (+" in after
        assert faults == len(sim.hardware.faults)  # events may overflow the Pico's queue
        assert f"faults {faults}" in after
    finally:
        sim.close()


def _read_lines(stream: object, into: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line)
    into.put("")


def _next_stats(lines: queue.Queue[str], seen: list[str]) -> str:
    while True:
        line = lines.get(timeout=60)
        seen.append(line)
        assert line, "the service ended: " + "".join(seen[-20:])
        if " stats: " in line:
            return line


def test_sigusr1_asks_the_running_service_for_a_line_and_does_not_stop_it(
    tmp_path: Path,
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--fast",
         "--speed", "100", "--db", str(tmp_path / "stats.db")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "PATH": "/usr/bin:/bin"},
    )
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(child.stderr, lines), daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        first = _next_stats(lines, seen)  # the line at start
        assert "stats: link none (the simulated unit); pi " in first
        for _ in range(3):
            child.send_signal(signal.SIGUSR1)
            _next_stats(lines, seen)
        assert child.poll() is None, "SIGUSR1 stopped the service"
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=60) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    reader.join(timeout=10)
    text = "".join(seen) + "".join(iter_queue(lines))
    assert "Traceback" not in text
    assert "every output is safe" in text


def iter_queue(lines: queue.Queue[str]) -> list[str]:
    got = []
    while not lines.empty():
        got.append(lines.get_nowait())
    return got


def test_a_whole_line_as_the_journal_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line docs/troubleshooting.md shows: a link that dropped once and restarted its Pico,
    on a Pi that saw under-voltage since boot."""
    folder = tmp_path / "bin"
    fake_vcgencmd(folder, 'echo "throttled=0x50000"')
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    root = pi_tree(tmp_path / "root", temp_milli="51000")
    before = figures(retransmit_rounds=0, damaged_frames=0)
    after = figures(srtt_ms=2.9, retransmit_rounds=41, damaged_frames=12, dropped_commands=1,
                    reconnects=1, fresh_sessions=2)
    seen = iter([(before, 0), (after, 0)])
    stats = StatsLogger(link=lambda: next(seen), health=lambda: read_health(root), clock=Clock())
    stats.line()
    assert stats.line() == (
        "stats: link /dev/showdown-unit up, rtt 2.9 ms (rto 30 ms), retransmits 41 (+41), "
        "damaged 12 (+12), dropped 1 (+1), duplicates 0, reconnects 1 (+1), mcu restarts 1 (+1), "
        "faults 0; pi 51.0 C, throttling now: none; since boot: under-voltage, throttled, "
        "load 0.42 0.30 0.25, memory 1220/1848 MiB free")
