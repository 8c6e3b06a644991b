"""Duels through the serial path while the cable misbehaves: damaged bytes, replugs and
microcontroller resets in the middle of showdowns. What a player would notice, checked against the
simulator's ground truth: no wrong winner, every race decided with cards loaded launches exactly
once, nothing launches outside a showdown, every armed showdown has one result, and a showdown the
unit lost contact with is void (replayed), never decided on whichever presses got through.

``make test`` runs short versions; ``make soak`` runs 1000 duels of each (the lossy one as four
``showdown sim duels`` processes side by side: the figures are the command line's own JSON, as
docs/reliability.md reports them).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

import pytest

import showdown.playtest.duels
from hw_sim.faults import FaultAction, FaultPlan
from hw_sim.sim_unit import SimulatedUnit
from showdown.playtest.duels import DuelReport, run_duels
from showdown.unit.events import Armed, Go, Launching, ShowdownEvent, ShowdownOutcome
from showdown.unit.machine import ShowdownMachine


@dataclass
class Record:
    """Every event of every machine built during a run, and the simulated units."""

    events: list[ShowdownEvent] = field(default_factory=list)
    units: list[SimulatedUnit] = field(default_factory=list)


def random_edges(seed: int, count: int, every: int, action: FaultAction) -> dict[int, FaultAction]:
    """About one *action* every *every* input edges, at random edges over *count* duels (a duel
    has about six edges of its own)."""
    rng = random.Random(seed)
    return {edge: action for edge in range(1, 6 * count) if rng.random() < 1 / every}


def soak(
    monkeypatch: pytest.MonkeyPatch, duels: int, plan: FaultPlan, seed: int = 5
) -> tuple[DuelReport, Record]:
    record = Record()

    class RecordingMachine(ShowdownMachine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.subscribe(record.events.append)

    make = showdown.playtest.duels.make_sim_unit

    def recorded(*args: Any, **kwargs: Any) -> SimulatedUnit:
        unit = make(*args, **kwargs)
        record.units.append(unit)
        return unit

    monkeypatch.setattr(showdown.playtest.duels, "ShowdownMachine", RecordingMachine)
    monkeypatch.setattr(showdown.playtest.duels, "make_sim_unit", recorded)
    report = run_duels(duels, seed=seed, backend="serial", faults=plan)
    return report, record


def check_report(figures: dict[str, Any], duels: int) -> None:
    """What a player would notice, from the figures ``showdown sim duels --json`` prints."""
    assert figures["duels"] == duels
    assert figures["wrong_winners"] == 0, figures["wrong"]
    # a decided race that did not launch exactly once; a launch outside a showdown's race
    assert figures["missed_launches"] == 0, figures["launch_problems"]
    assert figures["stray_launches"] == 0, figures["launch_problems"]
    assert figures["results_missing"] == figures["results_duplicated"] == 0
    assert figures["decided"] > duels // 2, "most showdowns are still decided"


def check(report: DuelReport, record: Record, duels: int, *, some_void: bool = True) -> None:
    (unit,) = record.units
    check_report(report.as_dict(), duels)
    armed = [e.showdown_id for e in record.events if isinstance(e, Armed)]
    results = [e for e in record.events if isinstance(e, ShowdownOutcome)]
    assert sorted(r.showdown_id for r in results) == sorted(armed), "one result per showdown"
    # Every launch the machine reported is a throw of the physical launcher after its go; a
    # throw it never heard of is one whose report the lost contact took (its showdown is void).
    gos = {e.showdown_id: e.at_ns for e in record.events if isinstance(e, Go)}
    launches = [e for e in record.events if isinstance(e, Launching)]
    throws = unit.throws()
    assert len(throws) == report.launches
    unmatched = iter(throws)
    for launch in launches:  # in order: each one the next throw toward its side
        assert launch.at_ns >= gos[launch.showdown_id]
        assert any(t.toward is launch.toward for t in unmatched), f"{launch} threw no card"
    assert len(launches) <= len(throws) <= len(launches) + report.voided
    # A void showdown was void for a reason the line really gave, and is scored by nobody.
    line = report.line
    assert line["resets"] + line["replugs"] > 0 and line["reconnects"] > 0
    assert report.voided == sum(r.void for r in results)
    assert report.voided > 0 or not some_void
    assert all(r.winner is None and r.loser is None for r in results if r.void)
    print(f"\nsoak: {duels} duels, {report.decided} decided, {report.voided} void, "
          f"{report.launches} launches, line {line}")


def test_resets_at_random_edges_leave_every_decided_race_one_launch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A reset while the launcher is energised used to leave the host believing it still was:
    # every later fire was refused while showdowns went on being decided and scored.
    plan = FaultPlan(at_edges=random_edges(seed=7, count=100, every=40, action="reset"))
    report, record = soak(monkeypatch, 100, plan)
    check(report, record, 100)
    # Every boot the host greets is a fresh session. A reset within a few edges of the one before
    # (a paddle press just after the reboot) can come before the host has greeted the new boot on
    # a busy machine; the host then meets only the later one, and one session covers both.
    resets = sorted(plan.at_edges)
    quick = sum(1 for before, after in pairwise(resets) if after - before <= 3)
    assert 1 + len(resets) - quick <= report.line["fresh_sessions"] <= 1 + len(resets)
    # The host counts a reset by the boot it greets: the same quick pair counts once.
    assert len(resets) - quick <= report.line["resets"] <= len(resets)


def test_replugs_and_resets_at_random_edges_void_the_showdowns_they_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plan = FaultPlan(at_edges={**random_edges(seed=8, count=100, every=30, action="replug"),
                               **random_edges(seed=9, count=100, every=60, action="reset")})
    report, record = soak(monkeypatch, 100, plan)
    check(report, record, 100)


def test_a_short_soak_on_a_lossy_line_with_a_replug_and_a_reset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plan = FaultPlan(corrupt=0.05, drop=0.05, at_edges={9: "replug", 20: "reset"}, seed=3)
    report, record = soak(monkeypatch, 5, plan)
    check(report, record, 5, some_void=False)
    assert report.line["resets"] == report.line["replugs"] == 1
    assert report.line["bad_frames"] > 0 and report.line["retransmit_rounds"] > 0


def test_a_line_with_300_ms_of_latency_still_decides_showdowns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report, _ = soak(monkeypatch, 2, FaultPlan(delay_ms=300), seed=4)
    check_report(report.as_dict(), 2)
    assert report.decided == 2 and report.line["reconnects"] == 0
    assert report.line["srtt_us"] > 250_000  # the link measured the slow line and settled


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_soak_1000_duels_with_resets_at_random_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = FaultPlan(at_edges={**random_edges(seed=10, count=1000, every=50, action="replug"),
                               **random_edges(seed=11, count=1000, every=50, action="reset")})
    report, record = soak(monkeypatch, 1000, plan, seed=6)
    check(report, record, 1000)


SOAK_SHARDS = 4
SOAK_COMMAND = ["sim", "duels", "--backend", "serial", "--count", "250", "--corrupt", "0.05",
                "--drop", "0.05", "--replug-every", "97", "--reset-every", "89", "--json"]
"""The lossy soak: four runs of this command with seeds 1 to 4 (docs/reliability.md)."""


@pytest.mark.soak
@pytest.mark.timeout(5400)
def test_soak_1000_duels_on_a_lossy_line_with_replugs_and_resets() -> None:
    runs = [
        subprocess.Popen(  # side by side: a lossy line spends its time waiting, not computing
            [sys.executable, "-m", "showdown", *SOAK_COMMAND, "--seed", str(seed)],
            stdout=subprocess.PIPE, text=True,
        )
        for seed in range(1, SOAK_SHARDS + 1)
    ]
    shards = []
    for run in runs:
        out, _ = run.communicate()
        assert run.returncode == 0
        shards.append(json.loads(out))
    for seed, figures in enumerate(shards, start=1):
        print(f"\nseed {seed}: {json.dumps(figures)}")
    for figures in shards:
        check_report(figures, 250)
        assert figures["line"]["bad_frames"] > 0 and figures["line"]["resets"] > 0
    total = {key: sum(f[key] for f in shards) for key in (
        "duels", "decided", "decided_correctly", "voided", "launches", "missed_launches",
        "stray_launches", "wrong_winners")}
    line = {key: sum(f["line"][key] for f in shards) for key in shards[0]["line"]}
    print(f"\nlossy soak: {total}, line {line}, seconds {[f['seconds'] for f in shards]}")
