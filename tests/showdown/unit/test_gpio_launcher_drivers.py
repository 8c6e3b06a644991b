"""The gpiozero back end drives each launcher motor driver board by its datasheet's truth table,
on gpiozero's MockFactory pins (the simulator's subclass, stamped by a manual clock): the pin
writes of a launch and of every way a pulse ends (its time is up, a stop, a listener that raises,
close), and the pins from the start.

Each board is configured by its example file in ``deploy/examples/``. The expected writes are
spelled out here from the datasheets, apart from ``showdown/unit/drivers.py``: a wrong row there
fails these tests. Every pattern the pins pass through is read back through the datasheet's table
below, which must never see the motor driven the wrong way, or at all once the pulse has ended.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hw_sim.pins import SimFactory, SimPin
from showdown.app.config import load_settings
from showdown.unit.backends.gpio import GpioUnit, _close_open_units
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Edge, InputLine, Light, Side

EXAMPLES = Path(__file__).resolve().parents[3] / "deploy" / "examples"
IN1, IN2 = "launcher_in1", "launcher_in2"
Levels = dict[str, bool]


def dir_enable(levels: Levels) -> str:
    """A DIR/EN board: EN low is its own stop; EN high drives the way DIR says."""
    if not levels["launcher_enable"]:
        return "off"
    return "right" if levels["launcher_direction"] else "left"


def drv8833(levels: Levels) -> str:
    """DRV8833, H-bridge logic: xIN1 xIN2 = 00 coast, 01 reverse, 10 forward, 11 brake."""
    return {(False, False): "coast", (False, True): "left", (True, False): "right",
            (True, True): "brake"}[(levels[IN1], levels[IN2])]


def tb6612(levels: Levels) -> str:
    """TB6612FNG, H-SW control: STBY low standby; IN1 = IN2 short brake (H) or stop (L);
    otherwise PWM low short brake, PWM high CW (IN1 high) or CCW."""
    if not levels["launcher_stby"]:
        return "coast"
    if levels[IN1] == levels[IN2]:
        return "brake" if levels[IN1] else "coast"
    if not levels["launcher_pwm"]:
        return "brake"
    return "right" if levels[IN1] else "left"


def l298n(levels: Levels) -> str:
    """L298N: Ven low free running stop; C = D fast motor stop; C high forward, D high reverse."""
    if not levels["launcher_ena"]:
        return "coast"
    if levels[IN1] == levels[IN2]:
        return "brake"
    return "right" if levels[IN1] else "left"


Writes = list[tuple[str, bool]]
BOARDS: dict[str, tuple[Callable[[Levels], str], int, dict[str, Writes], dict[str, Writes],
                        dict[str, Writes]]] = {
    # name: (datasheet, brake_ms, drive writes, the end write, the writes to rest after it)
    "dir-enable": (
        dir_enable, 0,
        {"right": [("launcher_direction", True), ("launcher_enable", True)],
         "left": [("launcher_enable", True)]},
        {"right": [("launcher_enable", False)], "left": [("launcher_enable", False)]},
        {"right": [("launcher_direction", False)], "left": []},
    ),
    "drv8833": (
        drv8833, 0,
        {"right": [(IN1, True)], "left": [(IN2, True)]},
        {"right": [(IN1, False)], "left": [(IN2, False)]},
        {"right": [], "left": []},
    ),
    "tb6612": (
        tb6612, 200,
        {"right": [(IN1, True), ("launcher_pwm", True), ("launcher_stby", True)],
         "left": [(IN2, True), ("launcher_pwm", True), ("launcher_stby", True)]},
        {"right": [("launcher_pwm", False)], "left": [("launcher_pwm", False)]},
        {"right": [("launcher_stby", False), (IN1, False)],
         "left": [("launcher_stby", False), (IN2, False)]},
    ),
    "l298n": (
        l298n, 200,
        {"right": [(IN1, True), ("launcher_ena", True)],
         "left": [(IN2, True), ("launcher_ena", True)]},
        {"right": [(IN1, False)], "left": [(IN2, False)]},
        {"right": [("launcher_ena", False)], "left": [("launcher_ena", False)]},
    ),
}
FIRES = [(name, side) for name in BOARDS for side in ("right", "left")]
SIDES = {"right": Side.RIGHT, "left": Side.LEFT}


class Listener:
    """Records the launcher's reports; raises on a chosen line's edge (a bug above)."""

    def __init__(self) -> None:
        self.launcher: list[Side | None] = []
        self.fail_on: InputLine | None = None

    def edge(self, edge: Edge) -> None:
        if edge.line is self.fail_on:
            raise RuntimeError("listener bug")

    def light_changed(self, light: Light, at_ns: int) -> None:
        pass

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        self.launcher.append(toward)

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        raise AssertionError("a back end on the pins never loses contact")


class Board:
    """One board behind the gpio back end: its writes as logic levels, in order, each pattern
    read by its datasheet."""

    def __init__(self, name: str) -> None:
        self.name = name
        (self.datasheet, self.brake_ms, self.drive, self.end, self.rest) = BOARDS[name]
        self.settings: UnitSettings = load_settings(EXAMPLES / f"launcher-{name}.toml").unit
        assert self.settings.launcher_driver == name
        self.clock = ManualClock(ms(1000))
        self.factory = SimFactory(self.clock)
        self.changes: Writes = []
        self.pins: dict[str, SimPin] = {}
        for line, config in self.settings.launcher_lines().items():
            pin = self.factory.sim_pin(config.pin)
            pin.observers.append(self._observer(line, config.active_high))
            self.pins[line] = pin
        self.unit = GpioUnit(self.settings, clock=self.clock, pin_factory=self.factory)
        self.listener = Listener()
        self.unit.start(self.listener)
        self.levels = self.now()
        assert self.levels == dict.fromkeys(self.pins, False), "every input starts at rest"
        assert self.writes() == ([], [])

    def _observer(self, line: str, active_high: bool) -> Callable[[SimPin, float, float], None]:
        def changed(pin: SimPin, state: float, ticks: float) -> None:
            self.changes.append((line, bool(state) == active_high))
        return changed

    def now(self) -> Levels:
        """Each input's logic level at the board now."""
        return {line: bool(pin.state) == self.settings.launcher_lines()[line].active_high
                for line, pin in self.pins.items()}

    def writes(self) -> tuple[Writes, list[str]]:
        """The writes since the last look, and what the board did after each."""
        changes, self.changes = self.changes, []
        motions = []
        for line, level in changes:
            self.levels[line] = level
            motions.append(self.datasheet(self.levels))
        return changes, motions

    def fire(self, side: str, pulse_ms: float = 300) -> None:
        """Launch toward *side*: the drive writes, and only the last one drives."""
        self.unit.launch(SIDES[side], ms(pulse_ms))
        changes, motions = self.writes()
        assert changes == self.drive[side]
        assert motions[-1] == side and side not in motions[:-1]
        assert other(side) not in motions
        assert self.listener.launcher == [SIDES[side]]

    def ended(self, side: str) -> None:
        """The pulse has just ended: the board's own stop, a brake held ``brake_ms``, then
        rest; reported off at the stop."""
        changes, motions = self.writes()
        assert self.listener.launcher[-1] is None
        if not self.brake_ms:
            assert changes == self.end[side] + self.rest[side]
            assert motions[0] in ("coast", "off")
            self.rested(motions)
            return
        assert changes == self.end[side]
        assert motions == ["brake"]
        self.clock.advance(ms(self.brake_ms - 1))
        assert self.writes() == ([], []), "the brake is held for brake_ms"
        self.clock.advance(ms(1))
        changes, motions = self.writes()
        assert changes == self.rest[side]
        self.rested(motions)

    def rested(self, motions: list[str]) -> None:
        assert "right" not in motions and "left" not in motions
        assert self.now() == dict.fromkeys(self.pins, False), "at rest every input is inactive"


def other(side: str) -> str:
    return "left" if side == "right" else "right"


@pytest.fixture
def boards() -> Iterator[Callable[[str], Board]]:
    made: list[Board] = []

    def make(name: str) -> Board:
        board = Board(name)
        made.append(board)
        return board

    yield make
    for board in made:
        board.unit.close()


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_whose_time_is_up(boards: Callable[[str], Board], name: str, side: str) -> None:
    board = boards(name)
    board.fire(side, pulse_ms=300)
    board.clock.advance(ms(299))
    assert board.writes() == ([], [])
    board.clock.advance(ms(1))
    board.ended(side)
    assert board.listener.launcher == [SIDES[side], None]


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_stopped(boards: Callable[[str], Board], name: str, side: str) -> None:
    board = boards(name)
    board.fire(side)
    board.unit.stop_launch()
    board.ended(side)
    board.clock.advance(ms(300))  # the pulse's own timer finds it over: nothing moves
    assert board.writes() == ([], [])


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_a_pulse_ended_by_a_listener_that_raises(
    boards: Callable[[str], Board], name: str, side: str
) -> None:
    board = boards(name)
    board.fire(side)
    board.listener.fail_on = InputLine.PADDLE_RIGHT
    paddle = board.settings.pins.paddle_right
    board.factory.sim_pin(paddle.pin).drive_at(paddle.active_high, board.clock.now_ns())  # pressed
    board.ended(side)


@pytest.mark.parametrize(("name", "side"), FIRES)
def test_close_mid_pulse_rests_every_input_at_once(
    boards: Callable[[str], Board], name: str, side: str
) -> None:
    board = boards(name)
    board.fire(side)
    order = {"dir-enable": ["launcher_enable", "launcher_direction"], "drv8833": [IN1, IN2],
             "tb6612": ["launcher_stby", "launcher_pwm", IN1, IN2],
             "l298n": ["launcher_ena", IN1, IN2]}[name]
    high = [line for line in order if board.levels[line]]
    board.unit.close()
    changes, motions = board.writes()
    # the disabling input first, no brake: the pins are released right after
    assert [line for line, _level in changes] == high
    assert all(not level for _line, level in changes)
    board.rested(motions)
    board.clock.advance(ms(1000))
    assert board.writes() == ([], [])


@pytest.mark.parametrize("name", ["tb6612", "l298n"])
def test_close_while_braking_rests_at_once(boards: Callable[[str], Board], name: str) -> None:
    board = boards(name)
    board.fire("left")
    board.unit.stop_launch()
    board.writes()
    _close_open_units()  # what atexit runs
    changes, motions = board.writes()
    assert changes == board.rest["left"]
    board.rested(motions)


@pytest.mark.parametrize("name", ["tb6612", "l298n"])
def test_a_launch_during_the_brake_rests_first(boards: Callable[[str], Board], name: str) -> None:
    board = boards(name)
    board.fire("right")
    board.unit.stop_launch()
    assert board.writes()[0] == board.end["right"]
    board.unit.launch(Side.LEFT, ms(300))
    changes, motions = board.writes()
    assert changes == board.rest["right"] + board.drive["left"]
    assert "right" not in motions and motions[-1] == "left"
    board.clock.advance(ms(board.brake_ms))  # the first brake's release must not cut this pulse
    assert board.writes() == ([], [])
