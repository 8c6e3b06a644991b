"""The gpiozero back end: the unit's parts on the Raspberry Pi's own pins.

The pin factory is chosen by gpiozero's normal means (``GPIOZERO_PIN_FACTORY``, else lgpio on a Pi)
unless one is passed in; the simulator passes a ``MockFactory`` (:mod:`hw_sim.pins`).

Edge times come from the pin factory, not from the clock inside a callback: :class:`EdgeInput`
subclasses gpiozero's ``DigitalInputDevice`` and takes the *ticks* that ``_pin_changed`` receives
(lgpio: the kernel's nanosecond timestamp, in seconds, from ``CLOCK_MONOTONIC``), converts them to
nanoseconds and debounces on the leading edge (:mod:`showdown.unit.debounce`). The factory's ticks
and
the unit's clock must share a domain: :class:`~showdown.unit.clock.MonotonicClock` with lgpio or the
stock ``MockFactory``; the simulator's factory reads the simulator's clock.

The launcher's motor driver board is driven by its truth table (:mod:`showdown.unit.drivers`):
a pulse ends with the board's own stop (a held brake on a TB6612 or an L298N, coasting on a
DRV8833, EN low on a DIR/EN board), then every driver input goes to rest. Outputs go to their safe
state (launcher inputs at rest first, then lights, buzzer, arrow) on :meth:`close` and at
interpreter exit; a listener that raises stops the launcher.
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

from gpiozero import LED, Buzzer, DigitalInputDevice, DigitalOutputDevice, TonalBuzzer
from gpiozero.tones import Tone

from showdown.unit.clock import Clock, MonotonicClock, ms
from showdown.unit.config import LineConfig, UnitSettings
from showdown.unit.debounce import LeadingEdgeDebouncer
from showdown.unit.hardware import Edge, InputLine, Light, Side, UnitHardware, UnitListener
from showdown.unit.realtime import favour_edge_thread

__all__ = ["EdgeInput", "GpioUnit"]

log = logging.getLogger(__name__)

EdgeHandler = Callable[[bool, float], None]


class EdgeInput(DigitalInputDevice):  # type: ignore[misc]
    """A ``DigitalInputDevice`` that passes every edge, with the factory's own ticks, to a handler.

    gpiozero's user callbacks (``when_activated``) do not receive the edge time; ``_pin_changed``
    does, so this is the one place the time of a paddle press is known exactly.
    """

    def __init__(self, pin: str, *, active_high: bool, handler: EdgeHandler, **kwargs: Any) -> None:
        self._edge_handler = handler
        super().__init__(pin, pull_up=not active_high, **kwargs)

    def _pin_changed(self, ticks: float, state: int) -> None:
        super()._pin_changed(ticks, state)
        self._edge_handler(bool(self._state_to_value(state)), ticks)


_OPEN_UNITS: weakref.WeakSet[GpioUnit] = weakref.WeakSet()


@atexit.register
def _close_open_units() -> None:
    """At interpreter exit every unit still open goes to its safe state."""
    for unit in list(_OPEN_UNITS):
        unit.close()


class GpioUnit(UnitHardware):
    """The unit on gpiozero devices. See the module docstring."""

    def __init__(
        self,
        settings: UnitSettings,
        *,
        clock: Clock | None = None,
        pin_factory: Any = None,
        ticks_to_ns: Callable[[float], int] | None = None,
    ) -> None:
        self._settings = settings
        self._clock = clock if clock is not None else MonotonicClock()
        self._ticks_to_ns = ticks_to_ns or (lambda ticks: round(ticks * 1e9))
        self._listener: UnitListener | None = None
        self._closed = False
        self._lock = threading.RLock()
        self._launch_generation = 0
        self._launching: Side | None = None
        self._driver = settings.driver
        self._devices: list[Any] = []
        pins = settings.pins
        timing = settings.timing
        factory = {"pin_factory": pin_factory}
        try:
            self._red = self._out(LED, pins.light_red, factory)
            self._green = self._out(LED, pins.light_green, factory)
            self._arrows = {
                Side.LEFT: self._out(LED, pins.arrow_left, factory),
                Side.RIGHT: self._out(LED, pins.arrow_right, factory),
            }
            # Every driver input starts inactive: the board's rest, whatever the board.
            self._launcher = {
                line: self._out(DigitalOutputDevice, config, factory)
                for line, config in settings.launcher_lines().items()
            }
            self._buzzer: Any
            if settings.buzzer_kind == "tonal":
                low = min(settings.beat_tone.hz, settings.go_tone.hz)
                high = max(settings.beat_tone.hz, settings.go_tone.hz)
                mid = (low * high) ** 0.5
                octaves = 1
                while mid / 2**octaves > low * 1.001 or mid * 2**octaves < high * 0.999:
                    octaves += 1
                self._buzzer = TonalBuzzer(
                    pins.buzzer.pin, mid_tone=Tone.from_frequency(mid), octaves=octaves, **factory
                )
                self._devices.append(self._buzzer)
            else:
                self._buzzer = self._out(Buzzer, pins.buzzer, factory)
            self._debouncers: dict[InputLine, LeadingEdgeDebouncer] = {}
            self._inputs: dict[InputLine, EdgeInput] = {}
            for line in InputLine:
                config: LineConfig = getattr(pins, line.value)
                window = timing.count_bounce_ms if line.is_count else timing.bounce_ms
                self._debouncers[line] = LeadingEdgeDebouncer(ms(window))
                device = EdgeInput(
                    config.pin,
                    active_high=config.active_high,
                    handler=self._edge_handler(line),
                    **factory,
                )
                self._devices.append(device)
                self._inputs[line] = device
                self._debouncers[line] = LeadingEdgeDebouncer(ms(window), bool(device.is_active))
        except BaseException:
            self.close()
            raise
        _OPEN_UNITS.add(self)

    def _out(self, kind: Any, line: LineConfig, factory: dict[str, Any]) -> Any:
        device = kind(line.pin, active_high=line.active_high, initial_value=False, **factory)
        self._devices.append(device)
        return device

    def _edge_handler(self, line: InputLine) -> EdgeHandler:
        priority = self._settings.edge_thread_priority

        def handle(active: bool, ticks: float) -> None:
            favour_edge_thread(priority)
            at_ns = self._ticks_to_ns(ticks)
            if not self._debouncers[line].accept(active, at_ns):
                return
            listener = self._listener
            if listener is None or self._closed:
                return
            try:
                listener.edge(Edge(line, active, at_ns))
            except Exception:
                log.exception("showdown failed handling %s; launcher forced off", line.value)
                self.stop_launch()

        return handle

    # -- UnitHardware ------------------------------------------------------------------------

    @property
    def clock(self) -> Clock:
        """The clock in whose domain edges are stamped."""
        return self._clock

    def start(self, listener: UnitListener) -> None:
        """Deliver edges to *listener* from now on (from the pin factory's callback thread)."""
        self._listener = listener

    def countdown_light(self, light: Light) -> None:
        """Red, green or off; reports the change with the clock's time right after the write."""
        with self._lock:
            if self._closed:
                return
            self._red.value = light is Light.RED
            self._green.value = light is Light.GREEN
            at_ns = self._clock.now_ns()
        if self._listener is not None:
            self._listener.light_changed(light, at_ns)

    def buzzer(self, tone_hz: float | None) -> None:
        """Sound *tone_hz* (a plain buzzer ignores the pitch) or go silent."""
        with self._lock:
            if self._closed:
                return
            if isinstance(self._buzzer, TonalBuzzer):
                if tone_hz is None:
                    self._buzzer.stop()
                else:
                    self._buzzer.play(Tone.from_frequency(tone_hz))
            else:
                self._buzzer.value = tone_hz is not None

    def arrow(self, toward: Side | None) -> None:
        """Light the arrow pointing at *toward* only."""
        with self._lock:
            if self._closed:
                return
            for side, led in self._arrows.items():
                led.value = side is toward

    def _write(self, writes: tuple[tuple[str, bool], ...]) -> None:
        """Driver inputs to logic levels, one at a time in order (each device knows its
        active level)."""
        for line, level in writes:
            self._launcher[line].value = level

    def launch(self, toward: Side, pulse_ns: int) -> None:
        """From rest, the board's drive writes toward *toward*; off again after *pulse_ns* on the
        clock at the latest."""
        with self._lock:
            if self._closed:
                return
            self._write(self._driver.rest)  # a brake still held after the last pulse ends first
            self._write(self._driver.drive[toward])
            at_ns = self._clock.now_ns()
            self._launching = toward
            self._launch_generation += 1
            generation = self._launch_generation
        if self._listener is not None:
            self._listener.launcher_changed(toward, at_ns)
        self._clock.call_later(pulse_ns, lambda: self._pulse_over(generation))

    def _pulse_over(self, generation: int) -> None:
        if generation == self._launch_generation:
            self.stop_launch()

    def stop_launch(self) -> None:
        """The board's own stop (one write); a brake is held ``brake_ms``, then every driver
        input goes to rest."""
        with self._lock:
            if self._closed or self._launching is None:
                return
            self._write((self._driver.end[self._launching],))
            self._launching = None
            self._launch_generation += 1
            generation = self._launch_generation
            at_ns = self._clock.now_ns()
            if not self._driver.brakes:
                self._write(self._driver.rest)
        if self._driver.brakes:
            self._clock.call_later(ms(self._driver.brake_ms), lambda: self._rest(generation))
        if self._listener is not None:
            self._listener.launcher_changed(None, at_ns)

    def _rest(self, generation: int) -> None:
        """The brake has been held long enough: every driver input to rest (unless a new pulse
        began meanwhile)."""
        with self._lock:
            if not self._closed and generation == self._launch_generation:
                self._write(self._driver.rest)

    def paddle_held(self, side: Side) -> bool:
        """The paddle's real level now (not the debounced one)."""
        return bool(self._inputs[InputLine.paddle(side)].is_active)

    def pin_of(self, line: InputLine) -> Any:
        """The gpiozero pin object of an input line (the simulator drives it)."""
        return self._inputs[line].pin

    def close(self) -> None:
        """Launcher driver inputs to rest first (no brake: the pins are released at once), then
        every other output off, then release the pins."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._listener = None
            for line in self._driver.lines:
                device = getattr(self, "_launcher", {}).get(line)
                if device is not None:
                    _quietly(device.off)
            for name in ("_red", "_green"):
                device = getattr(self, name, None)
                if device is not None:
                    _quietly(device.off)
            buzzer = getattr(self, "_buzzer", None)
            if buzzer is not None:
                _quietly(buzzer.stop if isinstance(buzzer, TonalBuzzer) else buzzer.off)
            for led in getattr(self, "_arrows", {}).values():
                _quietly(led.off)
            for device in reversed(self._devices):
                _quietly(device.close)
        _OPEN_UNITS.discard(self)


def _quietly(action: Callable[[], object]) -> None:
    try:
        action()
    except Exception:
        log.exception("could not reach a safe state with %r", action)
