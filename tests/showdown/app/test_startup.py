"""The service's start-up line says where a slow start went, phase by phase, from the process's own
start (what a builder reads when systemd's start timeout comes near, docs/deploy.md)."""

from __future__ import annotations

import os
from pathlib import Path

from showdown.app.startup import StartTimes, process_age


class Ticks:
    """A clock the test moves."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_each_phase_is_timed_from_the_end_of_the_one_before() -> None:
    clock = Ticks(100.0)
    shown: list[str] = []
    start = StartTimes(began=82.0, clock=clock, on_phase=shown.append)
    start.phase("the journal")
    clock.now = 100.4
    start.phase("the phone page")
    clock.now = 115.6
    start.phase("the scoreboard")
    clock.now = 121.9
    assert start.done() == ("started in 39.9 s: python and imports 18.0 s, the journal 0.4 s, "
                            "the phone page 15.2 s, the scoreboard 6.3 s")
    assert shown == ["the journal", "the phone page", "the scoreboard"]


def test_the_first_phase_counts_from_the_process_start(tmp_path: Path) -> None:
    # /proc/self/stat: field 22 is the start in clock ticks since boot; the name may hold ") "
    ticks = os.sysconf("SC_CLK_TCK")
    stat = tmp_path / "stat"
    stat.write_text("4242 (showdown (a) b) S 1 4242 4242 0 -1 4194560 " + "0 " * 12
                    + f"{30 * ticks} 12345 67\n")
    assert process_age(stat, now=42.5) == 12.5
    assert process_age(tmp_path / "missing") is None
    stat.write_text("garbage")
    assert process_age(stat) is None


def test_this_process_has_an_age() -> None:
    age = process_age()
    assert age is not None and age > 0
    start = StartTimes.of_this_process(clock=Ticks(1000.0))
    assert start.began < 1000.0
