"""Duels through the serial path: every decided duel decided correctly against the simulator's
ground truth, with the same players, false starts and refusals as on the gpiozero back end. (Ties
may differ: the runner stamps each press when it posts it, and the serial path takes longer to
settle between two presses, so presses planned a fraction of a millisecond apart land further
apart.)"""

from __future__ import annotations

from hw_sim.sim_unit import make_sim_unit
from showdown.playtest.duels import run_duels
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Side


def test_serial_duels_decide_like_gpio_duels() -> None:
    gpio = run_duels(25, seed=3, backend="gpio").as_dict()
    serial = run_duels(25, seed=3, backend="serial").as_dict()
    assert serial["decided"] == serial["decided_correctly"] == gpio["decided"]
    same = ("duels", "false_starts", "arm_refusals")
    assert {key: serial[key] for key in same} == {key: gpio[key] for key in same}
    assert serial["press_to_launch_ms"]["max"] is not None


def test_a_fire_the_unit_refuses_is_named_in_the_launch_trouble() -> None:
    # A missed launch in a soak must say why: here a fire outside any arm window, which the
    # firmware refuses, as it would a fire arriving after its showdown's window had closed.
    unit = make_sim_unit("serial", UnitSettings(), seed=1)
    try:
        assert unit.launch_trouble() == []
        unit.hardware.launch(Side.LEFT, 100_000_000)
        assert unit.wait_idle(10.0)
        trouble = unit.launch_trouble()
        assert len(trouble) == 1 and trouble[0].endswith("refused: not armed")
        assert unit.throws() == []
    finally:
        unit.close()
