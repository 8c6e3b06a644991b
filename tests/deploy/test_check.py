"""``showdown check`` against the simulated unit: a simulated builder answers every prompt.

The builder looks at the simulated pins to answer "is it lit?" and "do you hear it?", and presses
paddles or passes cards by injecting edges, stamped at chosen times, through the simulator's edge
thread. The clock is a ManualClock, so every reported timing is exact; nothing sleeps.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device

from engine import build
from hw_sim.mcu import SimulatedMcu
from hw_sim.pins import EdgeFeeder, SimFactory, SimPin
from showdown.app import cli
from showdown.app.config import load_settings
from showdown.unit.backends.gpio import GpioUnit
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.self_test import SelfTest, StepResult, report

EXAMPLE = Path(__file__).resolve().parents[2] / "deploy" / "showdown.toml"


class SimulatedBuilder:
    """A person at the simulated unit. ``wiring``: part -> the GPIO it is REALLY connected to."""

    def __init__(
        self,
        settings: UnitSettings,
        clock: ManualClock,
        factory: SimFactory,
        feeder: EdgeFeeder,
        *,
        wiring: dict[str, str] | None = None,
        dead: frozenset[str] = frozenset(),
        fire: bool = True,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.factory = factory
        self.feeder = feeder
        configured = {name: line.pin for name, line in settings.pins.lines().items()}
        self.wiring = configured | (wiring or {})
        self.dead = dead
        self.fire = fire
        self.transcript: list[str] = []
        self.throws: list[str] = []
        factory.sim_pin(self.wiring["launcher_enable"]).observers.append(self._enable_changed)

    def pin(self, part: str) -> SimPin:
        return self.factory.sim_pin(self.wiring[part])

    def _enable_changed(self, pin: SimPin, state: float, ticks: float) -> None:
        if state:
            right = bool(self.pin("launcher_direction").state)
            self.throws.append("right" if right else "left")

    def _active(self, part: str) -> bool:
        high = bool(self.pin(part).state)
        return high if self.settings.pins.lines()[part].active_high else not high

    def _act(self, part: str, after_ms: float, held_ms: float) -> None:
        """Press (or block the beam of) ``part`` ``after_ms`` from now, for ``held_ms``."""
        if part in self.dead:
            return
        active_high = self.settings.pins.lines()[part].active_high
        start = self.clock.now_ns() + ms(after_ms)
        self.feeder.post(self.pin(part), active_high, start)
        self.feeder.post(self.pin(part), not active_high, start + ms(held_ms))

    def say(self, text: str) -> None:
        self.transcript.append(text)
        actions = {
            "timer button": ("timer_button", 120, 90),
            "LEFT paddle": ("paddle_left", 180, 80),
            "RIGHT paddle": ("paddle_right", 210, 70),
            "LEFT side line": ("count_left", 300, 2),
            "RIGHT side line": ("count_right", 320, 3),
        }
        if text.startswith("Now "):
            for words, (part, after, held) in actions.items():
                if words in text:
                    self._act(part, after, held)
        if "the launcher cools down" in text:
            self.clock.advance(ms(self.settings.timing.launcher_cooldown_ms))
        if "launcher energised" in text:
            self.clock.advance(ms(self.settings.timing.launcher_pulse_ms))

    def ask(self, prompt: str) -> str:
        self.transcript.append(prompt)
        outputs = {
            "red countdown light": "light_red",
            "green countdown light": "light_green",
            "arrow toward the left": "arrow_left",
            "arrow toward the right": "arrow_right",
        }
        for words, part in outputs.items():
            if words in prompt and "Is it lit?" in prompt:
                return "y" if self._active(part) else "n"
        if "Do you hear it?" in prompt:
            hz = float(re.search(r"\(([\d.]+) Hz\)", prompt).group(1))  # type: ignore[union-attr]
            buzzer = self.pin("buzzer")
            sounding = bool(buzzer.state) and buzzer.frequency == pytest.approx(hz)
            return "y" if sounding else "n"
        if "Type yes to fire" in prompt:
            return "yes" if self.fire else "no thanks"
        if "Did the launcher move toward the left" in prompt:
            return "y" if self.throws[-1:] == ["left"] else "n"
        if "Did the launcher move toward the right" in prompt:
            return "y" if self.throws[-1:] == ["right"] else "n"
        raise AssertionError(f"unexpected prompt: {prompt}")


@dataclass
class Rig:
    """The example configuration on the simulated pins, with its edge thread."""

    settings: UnitSettings
    clock: ManualClock
    factory: SimFactory
    feeder: EdgeFeeder
    unit: GpioUnit

    def builder(self, **kwargs: Any) -> SimulatedBuilder:
        return SimulatedBuilder(self.settings, self.clock, self.factory, self.feeder, **kwargs)

    def self_test(self, builder: SimulatedBuilder, **kwargs: Any) -> SelfTest:
        return SelfTest(self.unit, self.settings, say=builder.say, ask=builder.ask, **kwargs)


@pytest.fixture
def rig() -> Iterator[Rig]:
    """A fresh simulated unit with the example configuration; closed (outputs off) afterwards."""
    settings = load_settings(EXAMPLE).unit
    clock = ManualClock()
    factory = SimFactory(clock)
    feeder = EdgeFeeder()
    unit = GpioUnit(settings, clock=clock, pin_factory=factory)
    try:
        yield Rig(settings, clock, factory, feeder, unit)
    finally:
        unit.close()
        feeder.close()
        factory.close()


def by_part(results: list[StepResult]) -> dict[str, StepResult]:
    return {result.part: result for result in results}


def test_a_well_wired_unit_passes_with_exact_timings(rig: Rig) -> None:
    builder = rig.builder()
    results = rig.self_test(builder, timeout_s=5).run()
    parts = by_part(results)
    assert all(result.ok for result in results), report(results)
    assert parts["left paddle"].detail == "pressed 180 ms after the prompt, held for 80.0 ms"
    assert parts["right paddle"].detail == "pressed 210 ms after the prompt, held for 70.0 ms"
    assert parts["left side-count line"].detail == "card seen 300 ms after the prompt"
    assert parts["launcher toward the left player"].detail.startswith("energised for 300 ms")
    assert builder.throws == ["left", "right"]
    assert report(results)[-1] == "all parts answered"
    # Every output is off again afterwards.
    for part in ("light_red", "light_green", "arrow_left", "arrow_right", "launcher_enable"):
        assert not builder._active(part), part
    assert not rig.factory.sim_pin("GPIO12").state


def test_swapped_paddles_are_named_and_fail(rig: Rig) -> None:
    builder = rig.builder(wiring={"paddle_left": "GPIO27", "paddle_right": "GPIO17"})
    parts = by_part(rig.self_test(builder, launcher=False, timeout_s=0.3).run())
    left = parts["left paddle"]
    assert left.ok is False
    assert left.detail.startswith("nothing seen in 0.3 s: check the wire on GPIO17, header pin 11")
    assert left.notes == [
        "saw the right paddle (GPIO27, header pin 13, active low) instead: "
        "are the two wires swapped?"
    ]
    assert parts["right paddle"].ok is False
    assert parts["timer button"].ok is True
    assert parts["launcher toward the left player"].verdict == "skipped"


def test_a_dead_side_line_and_a_miswired_light_fail(rig: Rig) -> None:
    builder = rig.builder(
        wiring={"light_green": "GPIO13"},  # the green LED is really on an unused pin
        dead=frozenset({"count_right"}),
        fire=False,
    )
    results = rig.self_test(builder, timeout_s=0.3).run()
    parts = by_part(results)
    assert parts["green countdown light"].ok is False
    assert "GPIO6, header pin 31" in parts["green countdown light"].detail
    assert parts["red countdown light"].ok is True
    assert parts["right side-count line"].ok is False
    assert parts["launcher toward the right player"].detail == "not fired (no 'yes')"
    assert builder.throws == []  # never fired without the typed "yes"
    assert report(results)[-1] == "2 part(s) failed"


@pytest.fixture
def mock_pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's own MockFactory (PWM-capable pins) as the default factory, reset afterwards."""
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = None


@pytest.mark.usefixtures("mock_pins")
def test_command_reports_and_exits_1_when_parts_are_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n" * 6))
    status = cli.main(["check", "--config", str(EXAMPLE), "--no-launcher", "--timeout", "0.05"])
    out = capsys.readouterr().out
    assert status == 1
    assert out.startswith(build.describe() + "\n")  # which engine build runs, first
    assert "The red countdown light (GPIO5, header pin 29, active high) is on now." in out
    assert "Now press and release the LEFT paddle (GPIO17, header pin 11, active low)." in out
    assert "11 part(s) failed" in out
    assert "skipped  launcher toward the left player" in out


@pytest.mark.usefixtures("mock_pins")
def test_command_without_answers_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["check", "--config", str(EXAMPLE)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "showdown: error: showdown check needs answers on standard input (run it in a terminal)"
    )


def test_example_configuration_loads_through_the_settings() -> None:
    settings = load_settings(EXAMPLE)
    assert settings.unit.pins.paddle_left.pin == "GPIO17"
    assert settings.unit.pins.launcher_enable.pin == "GPIO25"


def test_command_through_a_microcontroller_on_a_pty(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # The simulated board runs the reference firmware on a pseudo-terminal, on real time.
    with SimulatedMcu(link_path=tmp_path / "showdown-unit") as mcu:
        mcu.start()
        monkeypatch.setattr("sys.stdin", io.StringIO("y\n" * 6))
        argv = ["check", "--config", str(EXAMPLE), "--serial", mcu.port, "--no-launcher"]
        status = cli.main([*argv, "--timeout", "0.05"])
    out = capsys.readouterr().out
    assert status == 1  # nobody pressed anything
    assert "     ok  red countdown light" in out
    assert "   FAIL  left paddle" in out
    assert "5 part(s) failed" in out


def test_command_with_no_microcontroller_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "no-such-port")
    assert cli.main(["check", "--config", str(EXAMPLE), "--serial", missing]) == 2
    err = capsys.readouterr().err
    assert err.startswith("showdown: error: cannot open the microcontroller: ")
    assert "\n" not in err.strip()


def test_command_follows_the_configured_back_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The service's configuration says serial: the check goes through the board, not the pins.
    missing = tmp_path / "no-such-port"
    config = tmp_path / "showdown.toml"
    config.write_text(f'[unit]\nbackend = "serial"\nserial_port = "{missing}"\n')
    assert cli.main(["check", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"showdown: error: cannot open the microcontroller: {missing} ")


def test_unclear_answers_are_asked_again(rig: Rig) -> None:
    builder = rig.builder(fire=False)
    replies = iter(["perhaps", "Y"])

    def ask(prompt: str) -> str:
        if "red countdown light" in prompt:
            return next(replies)
        return builder.ask(prompt)

    test = SelfTest(rig.unit, rig.settings, say=builder.say, ask=ask, launcher=False)
    red = by_part(test.run())["red countdown light"]
    assert red.ok is True
    assert "  please answer y or n" in builder.transcript


def test_command_refuses_a_timeout_that_is_not_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["check", "--config", str(EXAMPLE), "--timeout", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "showdown: error: --timeout must be a positive number of seconds, at most 3600"
    )


def test_command_warns_about_a_language_no_font_can_draw(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the unit is opened (even where it cannot be), a builder learns the scoreboard
    would draw Chinese and Japanese as empty boxes (and, with pygame's own font alone, the
    false-start arrows in every language), and what to install."""
    from showdown.scoreboard import fonts

    monkeypatch.delenv(fonts.ENV_VARIABLE)
    monkeypatch.setattr(fonts, "DEBIAN_CJK_FONTS", ())
    monkeypatch.setattr(fonts, "DEBIAN_LATIN_FONTS", ())
    monkeypatch.setattr(fonts, "_pypi_font", lambda: None)
    fonts.forget_choices()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["check", "--config", str(EXAMPLE), "--serial", "/nowhere/tty"]) == 2
    engine, *out = capsys.readouterr().out.splitlines()
    fonts.forget_choices()
    assert engine == build.describe()
    assert [line.split(":")[2].strip() for line in out] == [
        "no font found draws English (en)", "no font found draws 简体中文 (zh_CN)",
        "no font found draws 繁體中文（香港） (zh_HK)", "no font found draws Bahasa Indonesia (id)",
        "no font found draws 日本語 (ja)"]
    assert all(line.startswith("warning: scoreboard: ") for line in out)
    assert all("fonts-noto-cjk" in line for line in out)
