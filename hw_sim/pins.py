"""gpiozero's ``MockFactory`` on the simulator's clock, with edges injected at chosen times.

The stock ``MockPin`` stamps every change with ``time.monotonic()`` and runs the callback in the
caller's thread. :class:`SimPin` stamps changes with the factory's clock (so edges and the unit's
clock share one domain, even a clock that jumps) and :meth:`SimPin.drive_at` sets the stamp of one
edge exactly. :class:`EdgeFeeder` delivers edges from its own thread, one at a time in the order
posted, as lgpio's callback thread does, so tests and the simulator exercise the real concurrency.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

from showdown.unit.clock import Clock

__all__ = ["EdgeFeeder", "SimFactory", "SimPin"]


class SimPin(MockPWMPin):  # type: ignore[misc]
    """A mock pin (PWM-capable, so a ``TonalBuzzer`` fits any pin) stamped by the factory's clock.

    ``observers`` are called with ``(pin, state, ticks)`` after every change: the launcher model
    watches the launcher's pins this way, like a motor driver watching its inputs.

    ``states`` (gpiozero's record of every change, for tests to read) keeps the last
    :attr:`HISTORY` changes only: a simulator that runs for days must not grow with every edge.
    """

    HISTORY = 1024
    """How many of the latest state changes ``states`` keeps."""

    _state: float

    def __init__(self, factory: SimFactory, info: Any) -> None:
        self._stamp: float | None = None
        self.observers: list[Callable[[SimPin, float, float], None]] = []
        super().__init__(factory, info)

    def _ticks(self) -> float:
        if self._stamp is not None:
            return self._stamp
        return float(self.factory.ticks())

    def clear_states(self) -> None:
        """Forget the recorded states (gpiozero's test helper), stamped on the sim clock."""
        self._last_change = self._ticks()
        self.states = [PinState(0.0, self._state)]

    def _change_state(self, value: float) -> bool:
        if self._state == value:
            return False
        ticks = self._ticks()
        self._state = value
        self.states.append(PinState(ticks - self._last_change, value))
        if len(self.states) > 2 * self.HISTORY:  # trimmed in batches: amortised O(1) a change
            del self.states[: -self.HISTORY]
        self._last_change = ticks
        for observer in list(self.observers):
            observer(self, float(value), ticks)
        return True

    def drive_at(self, high: bool, at_ns: int) -> None:
        """Drive this input high or low with the edge stamped *at_ns*, in the caller's thread."""
        self._stamp = at_ns / 1e9
        try:
            if high:
                self.drive_high()
            else:
                self.drive_low()
        finally:
            self._stamp = None


class SimFactory(MockFactory):  # type: ignore[misc]
    """A ``MockFactory`` of :class:`SimPin` whose ticks are *clock*'s time in seconds."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(pin_class=SimPin)
        self.clock = clock

    def ticks(self) -> float:
        """The clock's time in seconds (gpiozero ticks are seconds)."""
        return self.clock.now_ns() / 1e9

    def sim_pin(self, name: str) -> SimPin:
        """The pin called *name* (``"GPIO17"``)."""
        pin: SimPin = self.pin(name)
        return pin


class EdgeFeeder:
    """Delivers posted edges from one daemon thread, in order, like lgpio's callback thread."""

    def __init__(self, name: str = "sim-edges") -> None:
        self._queue: queue.Queue[tuple[SimPin, bool, int] | None] = queue.Queue()
        self._idle = threading.Condition()
        self._pending = 0
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def post(self, pin: SimPin, high: bool, at_ns: int | None = None) -> int:
        """Queue one edge on *pin* to level *high*, stamped *at_ns* (None: the clock's now, read
        right before the edge is queued, as hardware stamps an edge when it happens). Returns the
        stamp."""
        with self._idle:
            self._pending += 1
        stamp = pin.factory.clock.now_ns() if at_ns is None else at_ns
        self._queue.put((pin, high, stamp))
        return stamp

    def wait_idle(self, timeout_s: float = 5.0) -> bool:
        """Wait until every posted edge has been delivered and handled; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout_s)

    def _serve(self) -> None:
        while (item := self._queue.get()) is not None:
            pin, high, at_ns = item
            try:
                pin.drive_at(high, at_ns)
            except BaseException as exc:  # recorded for the test or simulator to report
                self.errors.append(exc)
            finally:
                with self._idle:
                    self._pending -= 1
                    self._idle.notify_all()

    def close(self) -> None:
        """Stop the thread after the edges already posted."""
        self._queue.put(None)
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5.0)
