"""The gpiozero back end on MockFactory pins: real edge times, safe outputs on every exit path."""

from __future__ import annotations

from typing import Any

from hw_sim.pins import SimFactory
from showdown.unit.backends.gpio import GpioUnit, _close_open_units
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Edge, InputLine, Light, Side


class Recorder:
    def __init__(self, fail_on: InputLine | None = None) -> None:
        self.edges: list[Edge] = []
        self.fail_on = fail_on

    def edge(self, edge: Edge) -> None:
        self.edges.append(edge)
        if edge.line is self.fail_on:
            raise RuntimeError("listener bug")

    def light_changed(self, light: Light, at_ns: int) -> None:
        pass

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        pass


def make() -> tuple[GpioUnit, SimFactory, ManualClock, UnitSettings]:
    clock = ManualClock(ms(1000))
    factory = SimFactory(clock)
    settings = UnitSettings()
    return GpioUnit(settings, clock=clock, pin_factory=factory), factory, clock, settings


def level(factory: SimFactory, settings: UnitSettings, name: str) -> bool:
    line = getattr(settings.pins, name)
    return bool(factory.sim_pin(line.pin).state) == line.active_high


def test_edges_carry_the_pin_factorys_own_time_not_the_callback_time() -> None:
    unit, factory, clock, settings = make()
    recorder = Recorder()
    unit.start(recorder)
    pin: Any = factory.sim_pin(settings.pins.paddle_left.pin)
    clock.advance(ms(50))
    pin.drive_at(False, ms(1012.345))  # active low: pressed, stamped earlier than "now"
    assert recorder.edges == [Edge(InputLine.PADDLE_LEFT, True, ms(1012.345))]
    assert unit.paddle_held(Side.LEFT) and not unit.paddle_held(Side.RIGHT)
    unit.close()


def test_launch_is_bounded_by_the_back_end_itself() -> None:
    unit, factory, clock, settings = make()
    unit.start(Recorder())
    unit.launch(Side.LEFT, ms(100))
    assert level(factory, settings, "launcher_enable")
    assert not level(factory, settings, "launcher_direction"), "direction: toward the left"
    clock.advance(ms(100))
    assert not level(factory, settings, "launcher_enable")
    unit.close()


def test_a_listener_exception_switches_the_launcher_off() -> None:
    unit, factory, clock, settings = make()
    unit.start(Recorder(fail_on=InputLine.PADDLE_RIGHT))
    unit.launch(Side.LEFT, ms(300))
    factory.sim_pin(settings.pins.paddle_right.pin).drive_at(False, clock.now_ns())
    assert not level(factory, settings, "launcher_enable")
    unit.close()


def test_close_and_interpreter_exit_leave_every_output_off() -> None:
    unit, factory, _, settings = make()
    unit.start(Recorder())
    unit.countdown_light(Light.GREEN)
    unit.arrow(Side.RIGHT)
    unit.buzzer(880.0)
    unit.launch(Side.RIGHT, ms(300))
    _close_open_units()  # what atexit runs
    for name in ("launcher_enable", "light_red", "light_green", "arrow_left", "arrow_right"):
        assert not level(factory, settings, name), name
    assert not factory.sim_pin(settings.pins.buzzer.pin).state
    unit.close()  # idempotent


def test_plain_buzzer_back_end() -> None:
    clock = ManualClock()
    settings = UnitSettings(buzzer_kind="plain")
    factory = SimFactory(clock)
    unit = GpioUnit(settings, clock=clock, pin_factory=factory)
    unit.buzzer(1000.0)
    assert factory.sim_pin(settings.pins.buzzer.pin).state
    unit.close()
    assert not factory.sim_pin(settings.pins.buzzer.pin).state
