"""Duels through the serial path while the cable misbehaves: 1% corrupted bytes, unplugs and a
microcontroller reset in the middle of showdowns. No result lost, none duplicated, no launch
outside an armed showdown. The long run is ``make soak``; a short one runs with ``make test``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

import hw_sim.sim_unit
import showdown.sim.duels
from hw_sim.mcu import Faults
from hw_sim.serial_sim import SerialSimUnit
from showdown.sim.duels import run_duels
from showdown.unit.config import UnitSettings
from showdown.unit.events import Armed, Go, Launching, ShowdownEvent, ShowdownOutcome
from showdown.unit.machine import ShowdownMachine


@dataclass
class Record:
    """Every event of every machine built during a run, and the simulated units."""

    events: list[ShowdownEvent] = field(default_factory=list)
    units: list[SerialSimUnit] = field(default_factory=list)


def soak(monkeypatch: pytest.MonkeyPatch, duels: int, plan: dict[int, str]) -> Any:
    record = Record()

    class RecordingMachine(ShowdownMachine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.subscribe(record.events.append)

    def faulty(settings: UnitSettings, seed: int, clock: Any) -> SerialSimUnit:
        unit = SerialSimUnit(
            settings, clock=clock, seed=seed,
            faults=Faults(corrupt_rate=0.01, seed=seed), fault_plan=plan,
        )
        record.units.append(unit)
        return unit

    monkeypatch.setattr(showdown.sim.duels, "ShowdownMachine", RecordingMachine)
    monkeypatch.setitem(hw_sim.sim_unit.SIM_BACKENDS, "serial-faulty", faulty)
    report = run_duels(duels, seed=5, backend="serial-faulty")
    return report, record


def check(report: Any, record: Record, duels: int, plan: dict[int, str]) -> None:
    (unit,) = record.units
    assert report.duels == duels
    armed = [e.showdown_id for e in record.events if isinstance(e, Armed)]
    results = [e.showdown_id for e in record.events if isinstance(e, ShowdownOutcome)]
    assert len(results) == len(set(results)), "a result was duplicated"
    assert set(results) == set(armed), "an armed showdown has no result"
    # Every throw of the physical launcher is a launch the machine made after its go.
    gos = {e.showdown_id: e.at_ns for e in record.events if isinstance(e, Go)}
    launches = [e for e in record.events if isinstance(e, Launching)]
    assert len(unit.throws()) == len(launches)
    for throw, launch in zip(unit.throws(), launches, strict=True):
        assert throw.toward is launch.toward
        assert launch.at_ns >= gos[launch.showdown_id]
    # The faults really happened, and the link really had to work.
    stats = unit.serial.link.stats
    assert unit.edges_posted >= max(plan)
    assert unit.mcu.boots == 1 + list(plan.values()).count("reset")
    assert stats.reconnects >= len(plan)
    assert stats.fresh_sessions == 1 + list(plan.values()).count("reset")
    assert unit.mcu.bytes_corrupted > 0 and stats.decode_errors > 0
    assert report.decided_correctly == report.decided
    print(  # the figures of the run, for `make soak -s` and the issue
        f"\nsoak: {duels} duels, {len(results)} results, {len(launches)} launches, "
        f"{unit.mcu.bytes_corrupted} bytes corrupted, {stats.decode_errors} bad frames, "
        f"{stats.retransmit_rounds} retransmit rounds, {stats.go_backs} go-backs, "
        f"{stats.reconnects} reconnects, {stats.fresh_sessions} sessions, "
        f"{stats.duplicates_dropped} duplicates dropped, "
        f"{report.decided_correctly}/{report.decided} decided correctly"
    )


def test_short_soak_with_corruption_an_unplug_and_a_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = {23: "replug", 61: "reset"}
    report, record = soak(monkeypatch, 30, plan)
    check(report, record, 30, plan)


@pytest.mark.soak
@pytest.mark.timeout(3600)
def test_soak_1000_duels_five_unplugs_one_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    plan = {300: "replug", 900: "replug", 1500: "reset", 2100: "replug", 2700: "replug",
            3300: "replug"}
    report, record = soak(monkeypatch, 1000, plan)
    check(report, record, 1000, plan)
