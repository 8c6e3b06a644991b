"""``showdown check`` through each back end: the gpiozero pins and the microcontroller on a pty.

Uses the unit's own test rigs (``tests/showdown/rigs.py``), which put edges on the wire from
another thread and read the outputs as the wires show them, for either back end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from showdown.app.config import load_settings
from showdown.unit.clock import ms
from showdown.unit.hardware import InputLine, Light, Side
from showdown.unit.self_test import SelfTest, report
from tests.deploy.test_check import EXAMPLE
from tests.showdown.rigs import GpioRig, UnitRig
from tests.showdown.serial_rig import SerialRig

ACTIONS = {
    "timer button": (InputLine.TIMER_BUTTON, 120, 90),
    "LEFT paddle": (InputLine.PADDLE_LEFT, 180, 80),
    "RIGHT paddle": (InputLine.PADDLE_RIGHT, 210, 70),
    "LEFT side line": (InputLine.COUNT_LEFT, 300, 2),
    "RIGHT side line": (InputLine.COUNT_RIGHT, 320, 3),
}
LIT = {
    "red countdown light": lambda o: o.light is Light.RED,
    "green countdown light": lambda o: o.light is Light.GREEN,
    "arrow toward the left": lambda o: o.arrow is Side.LEFT,
    "arrow toward the right": lambda o: o.arrow is Side.RIGHT,
}


class RigBuilder:
    """A person at a rig: looks at its outputs, presses through its wires."""

    def __init__(self, rig: UnitRig) -> None:
        self.rig = rig
        self.throws: list[Side | None] = []

    def say(self, text: str) -> None:
        if text.startswith("Now "):
            for words, (line, after, held) in ACTIONS.items():
                if words in text:
                    start = self.rig.now_ns() + ms(after)
                    self.rig.deliver(line, True, start)
                    self.rig.deliver(line, False, start + ms(held))
        if "the launcher cools down" in text:
            self.rig.advance(self.rig.settings.timing.launcher_cooldown_ms)
        if "launcher energised" in text:
            self.throws.append(self.rig.outputs().launcher)
            self.rig.advance(self.rig.settings.timing.launcher_pulse_ms)
            self.rig.outputs()  # let the unit catch up (the serial rig settles here)

    def ask(self, prompt: str) -> str:
        outputs = self.rig.outputs()
        for words, lit in LIT.items():
            if words in prompt and "Is it lit?" in prompt:
                return "y" if lit(outputs) else "n"
        if "Do you hear it?" in prompt:
            return "y" if outputs.buzzing else "n"
        if "Type yes to fire" in prompt:
            return "yes"
        for side in Side:
            if f"Did the launcher move toward the {side.value}" in prompt:
                return "y" if self.throws[-1:] == [side] else "n"
        raise AssertionError(f"unexpected prompt: {prompt}")


@pytest.fixture(params=["gpio", "serial"])
def rig(request: pytest.FixtureRequest) -> Iterator[UnitRig]:
    kind = {"gpio": GpioRig, "serial": SerialRig}[request.param]
    made = kind(load_settings(EXAMPLE).unit)
    try:
        yield made
    finally:
        made.close()


def test_check_passes_on_each_back_end_and_leaves_outputs_off(rig: UnitRig) -> None:
    builder = RigBuilder(rig)
    test = SelfTest(rig.hardware, rig.settings, say=builder.say, ask=builder.ask, timeout_s=5)
    results = test.run()
    assert all(result.ok for result in results), "\n".join(report(results))
    assert builder.throws == [Side.LEFT, Side.RIGHT]
    paddle = {r.part: r for r in results}["left paddle"]
    assert paddle.detail.startswith("pressed ")
    outputs = rig.outputs()
    assert (outputs.light, outputs.arrow, outputs.launcher, outputs.buzzing) == (
        Light.OFF,
        None,
        None,
        False,
    )
