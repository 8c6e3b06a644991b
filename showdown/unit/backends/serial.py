"""The serial back end: the unit's parts behind a microcontroller on USB (``firmware_bridge``).

The microcontroller (the reference firmware in ``firmware_bridge/pico``, or the simulated one in
:mod:`hw_sim.mcu`) stamps every edge in its own microseconds and reports when each output really
changed; this back end maps those times to :attr:`clock`'s nanoseconds
(:class:`~firmware_bridge.timesync.ClockSync`) and turns protocol events into listener calls, from
the link's reader thread. Output calls only queue a command and return.

Safety is shared: the state machine's interlock decides *whether* to fire; the firmware fires only
within an ``Arm`` window that this back end opens when the light turns green, bounds the pulse,
enforces the cool-down, and turns everything off by itself when heartbeats stop. The firmware also
drives the launcher's motor driver board by its truth table: this back end names the board
(``LauncherDriver``) at every fresh session, and refuses a firmware that cannot take the name
unless the board is the DIR/EN one it has always driven.

When the link goes down, the microcontroller restarts, or it reports that it dropped events or
went safe on its own (``Fault``), the listener hears :meth:`~UnitListener.contact_lost`: the state
machine voids a showdown in progress rather than deciding it on the edges that got through, and
after a restart forgets that the launcher was on. A ``Fire`` or ``Arm`` not yet acknowledged when
the launcher is stopped is withdrawn, so it cannot land after its showdown.
"""

from __future__ import annotations

import atexit
import logging
import math
import threading
import weakref
from collections.abc import Callable

from firmware_bridge.link import Link, LinkError
from firmware_bridge.messages import (
    Arm,
    Arrow,
    Buzzer,
    Configure,
    Disarm,
    Fault,
    Fire,
    LauncherDriver,
    Lights,
    Message,
    Nack,
    OutputChanged,
    Paddle,
    SideCount,
    TimerButton,
)
from firmware_bridge.protocol import (
    CAP_DRIVERS,
    DRIVER_DIR_ENABLE,
    DRIVER_DRV8833,
    DRIVER_L298N,
    DRIVER_TB6612,
    FAULT_QUEUE_OVERFLOW,
    FAULT_WATCHDOG,
    INPUT_PADDLE_LEFT,
    INPUT_PADDLE_RIGHT,
    LIGHT_GREEN,
    LIGHT_OFF,
    LIGHT_RED,
    NACK_BAD_DIRECTION,
    NACK_BAD_PAYLOAD,
    NACK_COOLING_DOWN,
    NACK_NOT_ARMED,
    NACK_PULSE_TOO_LONG,
    NACK_UNKNOWN_TYPE,
    OUTPUT_LAUNCHER,
    OUTPUT_LIGHT,
    PULSE_CEILING_MS,
    SIDE_LEFT,
    SIDE_NONE,
    SIDE_RIGHT,
    WATCHDOG_MS,
)
from showdown.unit.clock import Clock, MonotonicClock
from showdown.unit.config import UnitSettings
from showdown.unit.drivers import DriverName
from showdown.unit.hardware import Edge, InputLine, Light, Side, UnitHardware, UnitListener

__all__ = ["NACK_REASONS", "LinkError", "SerialUnit"]

log = logging.getLogger(__name__)

_LIGHTS = {Light.OFF: LIGHT_OFF, Light.RED: LIGHT_RED, Light.GREEN: LIGHT_GREEN}
_LIGHTS_BACK = {value: light for light, value in _LIGHTS.items()}
_SIDES = {Side.LEFT: SIDE_LEFT, Side.RIGHT: SIDE_RIGHT}
_SIDES_BACK = {value: side for side, value in _SIDES.items()}
NACK_REASONS = {
    NACK_NOT_ARMED: "not armed",
    NACK_COOLING_DOWN: "cooling down",
    NACK_PULSE_TOO_LONG: "pulse too long",
    NACK_BAD_PAYLOAD: "bad payload",
    NACK_UNKNOWN_TYPE: "unknown type",
    NACK_BAD_DIRECTION: "bad direction",
}
"""Why the microcontroller refused a command, in words (``Nack.reason``)."""
_DRIVER_CODES: dict[DriverName, int] = {
    "dir-enable": DRIVER_DIR_ENABLE,
    "drv8833": DRIVER_DRV8833,
    "tb6612": DRIVER_TB6612,
    "l298n": DRIVER_L298N,
}

_OPEN_UNITS: weakref.WeakSet[SerialUnit] = weakref.WeakSet()


@atexit.register
def _close_open_units() -> None:
    """At interpreter exit every unit still open is told to go safe."""
    for unit in list(_OPEN_UNITS):
        unit.close()


def _u16(value: float) -> int:
    return max(0, min(0xFFFF, int(value)))


class SerialUnit(UnitHardware):
    """The unit behind a microcontroller. See the module docstring.

    *port*: a path or pyserial URL, a callable returning one, or ``None`` to find the unit
    (``/dev/showdown-unit``, then the Pico's USB id). *watchdog_ms*: how long the microcontroller
    waits for a sign of life before making everything safe; the simulator, whose clock jumps over
    countdowns, passes a long one. Raises :class:`LinkError` when no microcontroller answers.
    """

    def __init__(
        self,
        settings: UnitSettings,
        *,
        port: str | Callable[[], str] | None = None,
        clock: Clock | None = None,
        watchdog_ms: int = WATCHDOG_MS,
        open_timeout_s: float = 3.0,
    ) -> None:
        self._settings = settings
        self._clock = clock if clock is not None else MonotonicClock()
        self._watchdog_ms = watchdog_ms
        self._lock = threading.RLock()
        self._listener: UnitListener | None = None
        self._closed = False
        self._held = {Side.LEFT: False, Side.RIGHT: False}
        self._light = Light.OFF
        self._arrow: Side | None = None
        self._tone: int = 0
        self.refusals: list[Nack] = []
        self._fire_sequence: int | None = None  # the last Fire's, to tell its refusal
        self.faults: list[Fault] = []
        self.link = Link(
            port, on_event=self._event, on_session=self._session, on_down=self._down,
            now_ns=self._clock.now_ns,
        )
        self.link.open(open_timeout_s)
        if not self._takes_driver():
            self.link.close(safe=True)
            raise LinkError(self._driver_refusal())
        _OPEN_UNITS.add(self)

    # -- the link's side ----------------------------------------------------------------------

    def _takes_driver(self) -> bool:
        """Whether the firmware can drive the configured launcher board: any firmware drives a
        DIR/EN board; another needs one that takes ``LauncherDriver``."""
        return (self._settings.launcher_driver == "dir-enable"
                or bool(self.link.capabilities & CAP_DRIVERS))

    def _driver_refusal(self) -> str:
        return (f"unit.launcher_driver is {self._settings.launcher_driver!r}, but the unit's "
                "firmware drives only a dir-enable launcher: reflash it (docs/firmware.md)")

    def _configure(self) -> Configure:
        timing = self._settings.timing
        return Configure(
            watchdog_ms=_u16(self._watchdog_ms),
            max_pulse_ms=min(_u16(math.ceil(timing.launcher_pulse_ms)), PULSE_CEILING_MS),
            cooldown_ms=_u16(timing.launcher_cooldown_ms - 1),
            bounce_us=round(timing.bounce_ms * 1000),
            count_bounce_us=_u16(round(timing.count_bounce_ms * 1000)),
        )

    def _session(self, fresh: bool) -> None:
        """A fresh session (first connect, or the MCU rebooted): the inputs as they are now
        (edges lost in a reset must not leave a paddle held), the settings, the listener told
        (every output is off now), then the outputs it wants."""
        hello = self.link.hello
        inputs = 0 if hello is None else hello.inputs
        self._held = {
            Side.LEFT: bool(inputs & INPUT_PADDLE_LEFT),
            Side.RIGHT: bool(inputs & INPUT_PADDLE_RIGHT),
        }
        self.link.send(self._configure())
        if self.link.capabilities & CAP_DRIVERS:
            driver = self._settings.driver
            self.link.send(LauncherDriver(_DRIVER_CODES[driver.name], driver.brake_ms))
        elif not self._takes_driver():  # a firmware reflashed with an older one meanwhile
            log.error("%s; the launcher will not fire", self._driver_refusal())
        self._contact_lost(restarted=True)
        with self._lock:
            light, arrow, tone = self._light, self._arrow, self._tone
        if light is not Light.OFF:
            self.link.send(Lights(_LIGHTS[light]))
        if arrow is not None:
            self.link.send(Arrow(_SIDES[arrow], 0))
        if tone:
            self.link.send(Buzzer(tone, 0))

    def _down(self, why: str) -> None:
        self._contact_lost(restarted=False)

    def _contact_lost(self, *, restarted: bool) -> None:
        listener = self._listener
        if listener is None or self._closed:
            return
        try:
            listener.contact_lost(self._clock.now_ns(), restarted=restarted)
        except Exception:
            log.exception("the listener failed on a lost contact; launcher forced off")
            self.stop_launch()

    def _event(self, message: Message) -> None:
        listener = self._listener
        try:
            self._dispatch(message, listener)
        except Exception:
            log.exception("showdown failed handling %r; launcher forced off", message)
            self.stop_launch()

    def _dispatch(self, message: Message, listener: UnitListener | None) -> None:
        if isinstance(message, Paddle):
            side = _SIDES_BACK[message.side]
            self._held[side] = bool(message.pressed)
            self._edge(listener, InputLine.paddle(side), bool(message.pressed), message.at_us)
        elif isinstance(message, SideCount):
            line = InputLine.count(_SIDES_BACK[message.side])
            self._edge(listener, line, True, message.at_us)
        elif isinstance(message, TimerButton):
            self._edge(listener, InputLine.TIMER_BUTTON, bool(message.pressed), message.at_us)
        elif isinstance(message, OutputChanged):
            at_ns = self.link.sync.to_host_ns(message.at_us)
            if listener is None or self._closed:
                return
            if message.output == OUTPUT_LIGHT and message.value in _LIGHTS_BACK:
                listener.light_changed(_LIGHTS_BACK[message.value], at_ns)
            elif message.output == OUTPUT_LAUNCHER:
                listener.launcher_changed(_SIDES_BACK.get(message.value), at_ns)
        elif isinstance(message, Nack):
            self.refusals.append(message)
            log.warning("the microcontroller refused command %d (%s)", message.refused_sequence,
                        NACK_REASONS.get(message.reason, f"reason {message.reason}"))
            if message.refused_sequence == self._fire_sequence:
                # the launcher stays off: the listener stops waiting for it to fire
                self._fire_sequence = None
                if listener is not None and not self._closed:
                    listener.launcher_changed(None, self._clock.now_ns())
        elif isinstance(message, Fault):
            self.faults.append(message)
            log.warning("the microcontroller reports fault %d", message.code)
            if message.code in (FAULT_WATCHDOG, FAULT_QUEUE_OVERFLOW):
                # it went safe on its own, or dropped events: a showdown cannot go on
                self._contact_lost(restarted=False)

    def _edge(self, listener: UnitListener | None, line: InputLine, active: bool,
              at_us: int) -> None:
        at_ns = self.link.sync.to_host_ns(at_us)
        if listener is not None and not self._closed:
            listener.edge(Edge(line, active, at_ns))

    # -- UnitHardware ----------------------------------------------------------------------------

    @property
    def clock(self) -> Clock:
        """The clock that microcontroller times are mapped to."""
        return self._clock

    def start(self, listener: UnitListener) -> None:
        """Deliver events to *listener* from now on (from the link's reader thread)."""
        self._listener = listener

    def countdown_light(self, light: Light) -> None:
        """Queue the light; at green also open the firmware's one-fire ``Arm`` window."""
        with self._lock:
            if self._closed:
                return
            self._light = light
        self.link.send(Lights(_LIGHTS[light]))
        if light is Light.GREEN:
            self.link.send(Arm(_u16(self._settings.timing.launch_window_ms)))

    def buzzer(self, tone_hz: float | None) -> None:
        """A continuous tone (rounded to whole hertz) or silence."""
        tone = 0 if tone_hz is None else max(1, _u16(round(tone_hz)))
        with self._lock:
            if self._closed:
                return
            self._tone = tone
        self.link.send(Buzzer(tone, 0))

    def arrow(self, toward: Side | None) -> None:
        """Light the arrow toward *toward* (steady), or turn it off."""
        with self._lock:
            if self._closed:
                return
            self._arrow = toward
        self.link.send(Arrow(SIDE_NONE if toward is None else _SIDES[toward], 0))

    def launch(self, toward: Side, pulse_ns: int) -> None:
        """Queue a ``Fire``; the firmware bounds the pulse and reports on and off."""
        if self._closed:
            return
        if not self._takes_driver():  # its pins would not be this board's: never fire
            listener = self._listener
            if listener is not None:
                listener.launcher_changed(None, self._clock.now_ns())
            return
        pulse_ms = max(1, math.ceil(pulse_ns / 1_000_000))
        self._fire_sequence = self.link.send(Fire(_SIDES[toward], pulse_ms))

    def stop_launch(self) -> None:
        """``Disarm``: the launcher goes off now and cannot fire again until the next go; a
        ``Fire`` or ``Arm`` still waiting for its acknowledgement is withdrawn."""
        if self._closed:
            return
        self._fire_sequence = None
        self.link.withdraw((Fire, Arm), Disarm())
        self.link.send(Disarm())

    def paddle_held(self, side: Side) -> bool:
        """The paddle's last reported (debounced) level."""
        return self._held[side]

    def close(self) -> None:
        """``Safe`` (every output off, disarmed), briefly awaited; then the link closes."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._listener = None
        try:
            self.link.close(safe=True)
        except LinkError:
            log.exception("could not tell the microcontroller to go safe")
        _OPEN_UNITS.discard(self)
