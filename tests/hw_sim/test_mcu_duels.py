"""Duels through the serial path: every decided duel decided correctly against the simulator's
ground truth, with the same players, false starts and refusals as on the gpiozero back end. (Ties
may differ: the runner stamps each press when it posts it, and the serial path takes longer to
settle between two presses, so presses planned a fraction of a millisecond apart land further
apart.)"""

from __future__ import annotations

from showdown.sim.duels import run_duels


def test_serial_duels_decide_like_gpio_duels() -> None:
    gpio = run_duels(25, seed=3, backend="gpio").as_dict()
    serial = run_duels(25, seed=3, backend="serial").as_dict()
    assert serial["decided"] == serial["decided_correctly"] == gpio["decided"]
    same = ("duels", "false_starts", "arm_refusals")
    assert {key: serial[key] for key in same} == {key: gpio[key] for key in same}
    assert serial["press_to_launch_ms"]["max"] is not None
