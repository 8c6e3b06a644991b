"""The simulated unit: edges from another thread, cards that fly, duels checked against truth."""

from __future__ import annotations

import json
import random
import threading

import pytest

from hw_sim.pins import EdgeFeeder, SimFactory
from hw_sim.players import make_players
from hw_sim.sim_unit import GpioSimUnit
from showdown.app.cli import main
from showdown.playtest.duels import expected_outcome, run_duels
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Side


def test_feeder_delivers_from_its_own_thread_with_the_chosen_stamp() -> None:
    clock = ManualClock(ms(5))
    factory = SimFactory(clock)
    pin = factory.sim_pin("GPIO17")
    pin.pull = "up"
    seen: list[tuple[float, int, str]] = []

    def changed(ticks: float, state: int) -> None:
        seen.append((ticks, state, threading.current_thread().name))

    pin.when_changed = changed  # gpiozero holds callbacks weakly: keep this one alive
    feeder = EdgeFeeder()
    assert feeder.post(pin, False, ms(3.25)) == ms(3.25)
    assert feeder.wait_idle(5.0)
    assert seen == [(pytest.approx(0.00325), 0, "sim-edges")]
    feeder.close()


def test_launcher_model_throws_the_loaded_cards_and_pulses_the_lines() -> None:
    settings = UnitSettings()
    clock = ManualClock(ms(1000))
    unit = GpioSimUnit(settings, clock=clock, seed=3, spread=0.0, jam_probability=0.0)
    counted = {Side.LEFT: 0, Side.RIGHT: 0}

    class Counter:
        def edge(self, edge: object) -> None:
            line = edge.line  # type: ignore[attr-defined]
            if line.is_count and edge.active:  # type: ignore[attr-defined]
                counted[line.side] += 1

        def light_changed(self, *args: object) -> None: ...
        def launcher_changed(self, *args: object) -> None: ...
        def contact_lost(self, at_ns: int, *, restarted: bool) -> None: ...

    unit.hardware.start(Counter())
    unit.load_launcher(4)
    unit.hardware.launch(Side.RIGHT, ms(300))
    for _ in range(100):
        clock.advance(ms(10))
        assert unit.wait_idle()
    assert unit.throws()[0].toward is Side.RIGHT
    assert unit.throws()[0].landed == {Side.LEFT: 0, Side.RIGHT: 4}
    assert counted == {Side.LEFT: 0, Side.RIGHT: 4}
    unit.close()


def test_players_react_within_the_human_band() -> None:
    rng = random.Random(4)
    for player in make_players(6, rng):
        times = [player.reaction_ms(rng) for _ in range(200)]
        assert min(times) >= 150 and max(times) <= 400


def test_ground_truth_rules() -> None:
    s = UnitSettings()
    go = ms(1000)
    assert expected_outcome({Side.LEFT: go + ms(200), Side.RIGHT: go + ms(199)}, go, None, s) == (
        Side.RIGHT,
        Side.LEFT,
    )
    assert expected_outcome({Side.LEFT: go - 1}, go, None, s) == (Side.RIGHT, Side.LEFT)
    tie = {Side.LEFT: go + ms(200), Side.RIGHT: go + ms(200.5)}
    assert expected_outcome(tie, go, {Side.LEFT: 3, Side.RIGHT: 1}, s) == (Side.RIGHT, Side.LEFT)
    assert expected_outcome(tie, go, {Side.LEFT: 1, Side.RIGHT: 1}, s) == (None, None)


def test_seeded_duels_are_all_decided_correctly_under_load() -> None:
    report = run_duels(60, seed=5, load_threads=2)
    assert report.duels == 60 and report.arm_refusals == 0 and report.faults == 0
    assert report.decided_correctly == report.decided > 40
    assert report.false_starts > 0
    assert len(report.press_to_launch_ns) > 40


def test_sim_duels_command_prints_the_figures_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "duels", "--count", "20", "--seed", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in (
        "duels",
        "decided",
        "decided_correctly",
        "false_starts",
        "ties",
        "replays",
        "timeouts",
        "jams",
    ):
        assert key in figures
    assert set(figures["press_to_launch_ms"]) == {"p50", "p99", "max"}
    assert figures["duels"] == 20 and figures["decided"] == figures["decided_correctly"]


def test_sim_duels_readable_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "duels", "--count", "5"]) == 0
    assert "press to launch" in capsys.readouterr().out


def test_sim_duels_bad_options_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:  # argparse, before the command starts
        main(["sim", "duels", "--count", "0"])
    assert refused.value.code == 2
    assert "argument --count: must be 1 to" in capsys.readouterr().err
    assert main(["sim", "duels", "--backend", "nope"]) == 2
    assert "unknown back end" in capsys.readouterr().err
    assert main(["sim", "duels", "--reset-every", "5"]) == 2  # faults on the line need one
    err = capsys.readouterr().err
    assert "add --backend serial" in err and len(err.strip().splitlines()) == 1


def test_a_line_too_bad_to_connect_is_one_line_not_a_trace(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("hw_sim.serial_sim._OPEN_TIMEOUT_S", 1.0)  # a person waits longer
    argv = ["sim", "duels", "--backend", "serial", "--count", "2", "--corrupt", "0.9"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("showdown: error: the simulated unit could not go on: no answer from")
    assert len(err.strip().splitlines()) == 1


def test_sim_duels_repeats_a_fault_trial_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["sim", "duels", "--backend", "serial", "--count", "12", "--seed", "2",
            "--reset-every", "11", "--replug-every", "7", "--json"]
    assert main(argv) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["line"]["resets"] > 0 and figures["line"]["replugs"] > 0
    assert figures["wrong_winners"] == figures["missed_launches"] == 0
    assert figures["stray_launches"] == 0 and figures["voided"] > 0
    assert figures["launches"] >= figures["decided"] - figures["false_starts"]


def test_plain_simulator_records_what_was_commanded_and_nothing_flies() -> None:
    settings = UnitSettings()
    clock = ManualClock(ms(1000))
    unit = GpioSimUnit(settings, clock=clock, physical=False)
    unit.load_launcher(3)
    unit.hardware.launch(Side.LEFT, ms(300))
    clock.advance(ms(1000))
    enable = unit.factory.sim_pin(settings.pins.launcher_enable.pin)
    assert [bool(state.state) for state in enable.states] == [False, True, False]
    assert unit.throws() == []
    unit.close()
