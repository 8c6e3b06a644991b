"""Small stand-ins for MicroPython's ``machine`` and ``time``, so the firmware runs under CPython.

Only what the reference firmware uses, with MicroPython's names and the RP2040 port's behaviour
where the firmware depends on it (the real interpreter runs the same firmware in
``tests/hw_sim/micropython/``, with shims of the same behaviour):

- :class:`StandinUtime`: ``ticks_us`` wrapping at ``2**tick_bits`` (30 like the RP2040: its
  ``time_us_32()`` masked by ``MICROPY_PY_TIME_TICKS_PERIOD``), read from a host clock in
  nanoseconds (the simulator's clock, so the MCU and the host share time, and a test's
  :class:`~showdown.unit.clock.ManualClock` controls both); ``ticks_diff`` / ``ticks_add`` in
  modular arithmetic. With *read_cost_ns* every read moves the MCU's clock on, as a loop pass
  takes time on a Pico.
- :class:`StandinMachine`: ``Pin`` (``IN``/``OUT``, ``PULL_UP``, ``value()``, ``irq()``),
  ``PWM`` (``freq``, ``duty_u16``; ``ValueError`` outside the RP2040's range), a one-shot
  ``Timer`` and ``unique_id``, on :class:`StandinPin` objects that the simulated world drives
  (:meth:`StandinPin.drive`) and watches (``observers``).

An input edge is delivered like a hard interrupt: the handler runs at once, in the driving thread,
and ``ticks_us()`` inside it reads the edge's own time, as the real interrupt would within a few µs.
A pin comes out of reset pulled down, as an RP2040's does, and its pull-up takes *pull_up_ns* to
bring it high. Every clock read and input read by the firmware is a point where something may
happen (:attr:`StandinMachine.on_preempt`): a due timer fires there, with its own time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = [
    "PWM_MAX_HZ",
    "PWM_MIN_HZ",
    "StandinMachine",
    "StandinPin",
    "StandinTimer",
    "StandinUtime",
]

PinObserver = Callable[["StandinPin", int, int], None]

PWM_MIN_HZ = 8
"""The RP2040's lowest PWM frequency at 125 MHz: ``machine_pwm.c`` raises "freq too small" when
the divider reaches 256 (16 * 125e6 / (65534 * 4096) = 7.45 Hz)."""
PWM_MAX_HZ = 62_500_000
"""Half the system clock: above it the counter has no room for a period."""

DEFAULT_PULL_UP_NS = 2_000_000
"""How long the internal pull-up takes to lift a quiet line here: a few milliseconds, as behind a
long cable or a debounce capacitor (the firmware waits ``INPUT_SETTLE_MS`` before believing it)."""


class StandinUtime:
    """``utime``'s tick functions on a host clock (nanoseconds)."""

    def __init__(self, now_ns: Callable[[], int], tick_bits: int = 30, *,
                 read_cost_ns: int = 0) -> None:
        self._now_ns = now_ns
        self.tick_bits = tick_bits
        self._mask = (1 << tick_bits) - 1
        self._half = 1 << (tick_bits - 1)
        self._edge = threading.local()
        self.read_cost_ns = read_cost_ns
        self._lag_ns = 0
        self.board: StandinMachine | None = None

    def now_ns(self) -> int:
        """The MCU's own clock in nanoseconds (the host clock plus what reads have cost)."""
        return self._now_ns() + self._lag_ns

    def current_ns(self) -> int:
        """The time of what runs now: an interrupt's own time inside one, else the clock."""
        override: int | None = getattr(self._edge, "at_ns", None)
        return override if override is not None else self.now_ns()

    def ticks_us(self) -> int:
        """Microseconds, wrapping; inside an injected edge's interrupt, the edge's time."""
        override: int | None = getattr(self._edge, "at_ns", None)
        if override is not None:
            return (override // 1000) & self._mask
        at_ns = self.now_ns()
        self._lag_ns += self.read_cost_ns
        board = self.board
        if board is not None:
            board.preempt(at_ns)
        return (at_ns // 1000) & self._mask

    def ticks_cpu(self) -> int:
        """As ``ticks_us``: on an RP2040 both read ``time_us_32()`` (``mphalport.h``)."""
        return self.ticks_us()

    def ticks_add(self, ticks: int, delta: int) -> int:
        """*ticks* moved by *delta*, modulo the period."""
        return (ticks + delta) & self._mask

    def ticks_diff(self, ticks1: int, ticks2: int) -> int:
        """Signed ``ticks1 - ticks2`` assuming they are less than half a period apart."""
        return ((ticks1 - ticks2 + self._half) & self._mask) - self._half

    def at_edge(self, at_ns: int) -> _EdgeTime:
        """Context in which ``ticks_us()`` reads *at_ns* (this thread only)."""
        return _EdgeTime(self._edge, at_ns)

    def in_interrupt(self) -> bool:
        """True inside an injected interrupt handler (this thread)."""
        return getattr(self._edge, "at_ns", None) is not None


class _EdgeTime:
    def __init__(self, local: threading.local, at_ns: int) -> None:
        self._local = local
        self._at_ns = at_ns

    def __enter__(self) -> None:
        self._local.at_ns = self._at_ns

    def __exit__(self, *exc: object) -> None:
        self._local.at_ns = None


class StandinPin:
    """One GPIO as MicroPython's ``machine.Pin`` sees it, plus the simulator's side of it."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, board: StandinMachine, gpio: int) -> None:
        self.board = board
        self.gpio = gpio
        self.mode = self.IN
        self.level = 0  # out of reset an RP2040 pin is pulled down
        self.driven = False
        self.rises_at_ns: int | None = None
        self.handler: Callable[[StandinPin], None] | None = None
        self.trigger = 0
        self.observers: list[PinObserver] = []
        self._lock = threading.Lock()

    # MicroPython's API (what the firmware calls).
    def init(self, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        """Configure like ``Pin(id, mode, pull, value=...)``."""
        if mode != -1:
            self.mode = mode
        if pull == self.PULL_UP and self.mode == self.IN and not self.driven and not self.level:
            with self.board._lock:
                self.rises_at_ns = self.board.utime.now_ns() + self.board.pull_up_ns
                self.board.rising.add(self)
        if value is not None:
            self.value(value)

    def value(self, level: int | None = None) -> int | None:
        """Read the level, or drive an output."""
        if level is None:
            if self.mode == self.IN:
                self.board.preempt(self.board.utime.now_ns())
            return self.level
        level = 1 if level else 0
        if self.mode != self.OUT or level == self.level:
            self.level = level if self.mode == self.OUT else self.level
            return None
        self.level = level
        at_ns = self.board.utime.current_ns()
        for observer in list(self.observers):
            observer(self, level, at_ns)
        return None

    def irq(
        self,
        handler: Callable[[StandinPin], None] | None = None,
        trigger: int = 12,
        *,
        hard: bool = False,
    ) -> None:
        """Call *handler(pin)* on the chosen edges; always at once, like a hard interrupt."""
        self.handler = handler
        self.trigger = trigger

    # The simulated world's side.
    def drive(self, level: int, at_ns: int) -> None:
        """An external circuit sets this input to *level* at *at_ns*; interrupts fire."""
        self.driven = True
        with self.board._lock:
            self.rises_at_ns = None
            self.board.rising.discard(self)
        self._change(level, at_ns)

    def _change(self, level: int, at_ns: int) -> None:
        # An interrupt runs to its end before the main loop goes on (one core): the board's
        # ``cpu`` lock, which the simulator's loop holds for a pass, makes it so across threads.
        with self.board.cpu, self._lock:
            level = 1 if level else 0
            if level == self.level:
                return
            self.level = level
            wanted = self.IRQ_RISING if level else self.IRQ_FALLING
            handler = self.handler if self.trigger & wanted else None
            if handler is not None:
                with self.board.utime.at_edge(at_ns):
                    handler(self)
                if self.board.on_interrupt is not None:
                    self.board.on_interrupt()


class _PinFactory:
    """``machine.Pin``: ``Pin(gpio, mode, pull, value=...)`` returns the board's pin object."""

    IN = StandinPin.IN
    OUT = StandinPin.OUT
    PULL_UP = StandinPin.PULL_UP
    PULL_DOWN = StandinPin.PULL_DOWN
    IRQ_FALLING = StandinPin.IRQ_FALLING
    IRQ_RISING = StandinPin.IRQ_RISING

    def __init__(self, board: StandinMachine) -> None:
        self._board = board

    def __call__(self, gpio: int, mode: int = -1, pull: int = -1, *,
                 value: int | None = None) -> StandinPin:
        pin = self._board.pin(gpio)
        pin.init(mode, pull, value=value)
        return pin


class StandinPWM:
    """``machine.PWM``: frequency and duty on a pin; observers see the tone change."""

    def __init__(self, pin: StandinPin) -> None:
        self.pin = pin
        self.frequency = 0
        self.duty = 0

    def freq(self, value: int | None = None) -> int:
        """Set or read the frequency in hertz; outside the RP2040's range, ``ValueError``."""
        if value is not None:
            if value < PWM_MIN_HZ:
                raise ValueError("freq too small")
            if value > PWM_MAX_HZ:
                raise ValueError("freq too large")
            self.frequency = value
        return self.frequency

    def duty_u16(self, value: int | None = None) -> int:
        """Set or read the duty cycle (0..65535); the pin reads 1 while the tone sounds."""
        if value is not None:
            self.duty = value
            self.pin.mode = StandinPin.OUT
            self.pin.value(1 if value else 0)
        return self.duty


class StandinTimer:
    """``machine.Timer`` in one-shot mode: the callback runs as a hard interrupt at the first
    clock or input read at or after its deadline, and reads the deadline as its time (a hardware
    alarm fires on time whatever the main loop is doing)."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, board: StandinMachine) -> None:
        self._board = board
        self.deadline_ns: int | None = None
        self._callback: Callable[[StandinTimer], None] | None = None

    def init(self, *, mode: int = ONE_SHOT, period: int = 0, tick_hz: int = 1000,
             callback: Callable[[StandinTimer], None] | None = None, hard: bool = False) -> None:
        """Arm: *callback* once, *period* ticks of *tick_hz* from now."""
        if mode != self.ONE_SHOT:
            raise ValueError("the stand-in timer is one-shot only")
        self._callback = callback
        with self._board._lock:
            self.deadline_ns = self._board.utime.now_ns() + period * 1_000_000_000 // tick_hz
            self._board.timers.add(self)

    def deinit(self) -> None:
        """Disarm."""
        with self._board._lock:
            self.deadline_ns = None
            self._board.timers.discard(self)

    def fire(self) -> None:
        """The alarm: run the callback with the deadline as the time."""
        deadline, callback = self.deadline_ns, self._callback
        self.deinit()
        if deadline is not None and callback is not None:
            with self._board.utime.at_edge(deadline):
                callback(self)


class _TimerFactory:
    ONE_SHOT = StandinTimer.ONE_SHOT
    PERIODIC = StandinTimer.PERIODIC

    def __init__(self, board: StandinMachine) -> None:
        self._board = board

    def __call__(self, *args: Any, **kwargs: Any) -> StandinTimer:
        timer = StandinTimer(self._board)
        if kwargs:
            timer.init(**kwargs)
        return timer


class StandinMachine:
    """``machine`` for one simulated board: pins by GPIO number, PWM, Timer, ``unique_id``."""

    def __init__(self, utime: StandinUtime, unique: bytes = b"\x5d\x00\x00\x00\x00\x00\x00\x01",
                 *, pull_up_ns: int = DEFAULT_PULL_UP_NS):
        self.utime = utime
        utime.board = self
        self.pull_up_ns = pull_up_ns
        self._pins: dict[int, StandinPin] = {}
        self._unique = unique
        self.Pin: Any = _PinFactory(self)
        self.PWM: Any = StandinPWM
        self.Timer: Any = _TimerFactory(self)
        self.timers: set[StandinTimer] = set()
        self.rising: set[StandinPin] = set()
        self.on_interrupt: Callable[[], None] | None = None
        """Called after every interrupt handler (the simulator wakes its main loop with it)."""
        self.on_preempt: Callable[[], None] | None = None
        """Called at every clock or input read outside an interrupt: a test injects edges here."""
        self._preempting = threading.local()
        self._lock = threading.RLock()
        self.cpu = threading.RLock()
        """Held by whatever runs firmware code: the main loop's pass or an interrupt handler."""

    def pin(self, gpio: int) -> StandinPin:
        """The board's pin *gpio* (created on first use; kept across a firmware reset)."""
        if gpio not in self._pins:
            self._pins[gpio] = StandinPin(self, gpio)
        return self._pins[gpio]

    def unique_id(self) -> bytes:
        """The board's serial number."""
        return self._unique

    def preempt(self, now_ns: int) -> None:
        """What may happen between two instructions of the main loop: pull-ups finish rising,
        due timers fire, a test's hook runs."""
        if not (self.rising or self.timers or self.on_preempt):
            return
        if self.utime.in_interrupt() or getattr(self._preempting, "active", False):
            return
        self._preempting.active = True
        try:
            with self._lock:
                rising = sorted(self.rising, key=lambda p: p.rises_at_ns or 0)
                timers = sorted(self.timers, key=lambda t: t.deadline_ns or 0)
            for pin in rising:
                at = pin.rises_at_ns
                if at is not None and at <= now_ns:
                    with self._lock:
                        self.rising.discard(pin)
                        pin.rises_at_ns = None
                    if pin.mode == StandinPin.IN:
                        pin._change(1, at)
            for timer in timers:
                if timer.deadline_ns is not None and timer.deadline_ns <= now_ns:
                    timer.fire()
            if self.on_preempt is not None:
                self.on_preempt()
        finally:
            self._preempting.active = False

    def reset_pins(self) -> None:
        """What a reset does to the pins: outputs low and back to inputs pulled down, handlers
        and timers gone (a line held low from outside stays low)."""
        for timer in list(self.timers):
            timer.deinit()
        self.rising.clear()
        for pin in self._pins.values():
            if pin.mode == StandinPin.OUT:
                pin.value(0)
            pin.mode = StandinPin.IN
            pin.handler = None
            pin.rises_at_ns = None
            if not pin.driven:
                pin.level = 0
