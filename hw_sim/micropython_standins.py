"""Small stand-ins for MicroPython's ``machine`` and ``utime``, so the firmware runs under CPython.

Only what the reference firmware uses, with MicroPython's names and semantics:

- :class:`StandinUtime`: ``ticks_us`` wrapping at ``2**tick_bits`` (30 like the RP2040), read from
  a host clock in nanoseconds (the simulator's clock, so the MCU and the host share time, and a
  test's :class:`~showdown.unit.clock.ManualClock` controls both); ``ticks_diff`` / ``ticks_add`` in
  modular arithmetic.
- :class:`StandinMachine`: ``Pin`` (``IN``/``OUT``, ``PULL_UP``, ``value()``, ``irq()``) and
  ``PWM`` (``freq``, ``duty_u16``), on :class:`StandinPin` objects that the simulated world drives
  (:meth:`StandinPin.drive`) and watches (``observers``).

An input edge is delivered like a hard interrupt: the handler runs at once, in the driving thread,
and ``ticks_us()`` inside it reads the edge's own time, as the real interrupt would within a few µs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["StandinMachine", "StandinPin", "StandinUtime"]

PinObserver = Callable[["StandinPin", int, int], None]


class StandinUtime:
    """``utime``'s tick functions on a host clock (nanoseconds)."""

    def __init__(self, now_ns: Callable[[], int], tick_bits: int = 30) -> None:
        self._now_ns = now_ns
        self.tick_bits = tick_bits
        self._mask = (1 << tick_bits) - 1
        self._half = 1 << (tick_bits - 1)
        self._edge = threading.local()

    def ticks_us(self) -> int:
        """Microseconds, wrapping; inside an injected edge's interrupt, the edge's time."""
        override: int | None = getattr(self._edge, "at_ns", None)
        at_ns = override if override is not None else self._now_ns()
        return (at_ns // 1000) & self._mask

    def ticks_cpu(self) -> int:
        """As ``ticks_us`` (the firmware uses it only for entropy)."""
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
        self.level = 1
        self.handler: Callable[[StandinPin], None] | None = None
        self.trigger = 0
        self.observers: list[PinObserver] = []
        self._lock = threading.Lock()

    # MicroPython's API (what the firmware calls).
    def init(self, mode: int = -1, pull: int = -1, *, value: int | None = None) -> None:
        """Configure like ``Pin(id, mode, pull, value=...)``."""
        if mode != -1:
            self.mode = mode
        if pull == self.PULL_UP and self.mode == self.IN:
            self.level = 1
        if value is not None:
            self.value(value)

    def value(self, level: int | None = None) -> int | None:
        """Read the level, or drive an output."""
        if level is None:
            return self.level
        level = 1 if level else 0
        if self.mode != self.OUT or level == self.level:
            self.level = level if self.mode == self.OUT else self.level
            return None
        self.level = level
        at_ns = self.board.utime._now_ns()
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
        with self._lock:
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
        """Set or read the frequency in hertz."""
        if value is not None:
            self.frequency = value
        return self.frequency

    def duty_u16(self, value: int | None = None) -> int:
        """Set or read the duty cycle (0..65535); the pin reads 1 while the tone sounds."""
        if value is not None:
            self.duty = value
            self.pin.mode = StandinPin.OUT
            self.pin.value(1 if value else 0)
        return self.duty


class StandinMachine:
    """``machine`` for one simulated board: pins by GPIO number, PWM, ``unique_id``."""

    def __init__(self, utime: StandinUtime, unique: bytes = b"\x5d\x00\x00\x00\x00\x00\x00\x01"):
        self.utime = utime
        self._pins: dict[int, StandinPin] = {}
        self._unique = unique
        self.Pin: Any = _PinFactory(self)
        self.PWM: Any = StandinPWM
        self.on_interrupt: Callable[[], None] | None = None
        """Called after every interrupt handler (the simulator wakes its main loop with it)."""

    def pin(self, gpio: int) -> StandinPin:
        """The board's pin *gpio* (created on first use; kept across a firmware reset)."""
        if gpio not in self._pins:
            self._pins[gpio] = StandinPin(self, gpio)
        return self._pins[gpio]

    def unique_id(self) -> bytes:
        """The board's serial number."""
        return self._unique

    def reset_pins(self) -> None:
        """What a reset does to the pins: outputs low and back to inputs, handlers gone."""
        for pin in self._pins.values():
            if pin.mode == StandinPin.OUT:
                pin.value(0)
            pin.mode = StandinPin.IN
            pin.handler = None
