"""The hardware interface of the Showdown unit: what every back end must do.

Everything above this module (the showdown state machine, the session, ``showdown check``) talks to
the unit only through :class:`UnitHardware` and hears from it only through :class:`UnitListener`.
Two back ends implement it: the gpiozero one (:mod:`showdown.unit.backends.gpio`, also used by the
simulator
on gpiozero's ``MockFactory``) and the serial one (``firmware_bridge``, a microcontroller on USB).

Time
    Every timestamp here is an integer number of nanoseconds in ONE monotonic time domain, the one
    that :attr:`UnitHardware.clock` reads (``clock.now_ns()``). A back end whose hardware stamps
    events in another domain (a microcontroller's microseconds) converts them before reporting.
    Edges carry the time the edge happened on the wire, never the time a callback ran.

The names say what the unit does (a countdown light, a launcher that throws toward a side), not how
it is wired, so nothing above this interface knows which back end is in use.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Protocol

from showdown.unit.clock import Clock

__all__ = [
    "Edge",
    "InputLine",
    "Light",
    "Side",
    "UnitHardware",
    "UnitListener",
]


class Side(enum.Enum):
    """A player's side of the unit, as seen from the timer button."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        """The opposite side: the one the launcher throws at when this side wins."""
        return Side.RIGHT if self is Side.LEFT else Side.LEFT


class Light(enum.Enum):
    """What the countdown light shows."""

    OFF = "off"
    RED = "red"
    GREEN = "green"


class InputLine(enum.Enum):
    """The unit's inputs. Paddles and side-count lines belong to a side; the timer button not."""

    TIMER_BUTTON = "timer_button"
    PADDLE_LEFT = "paddle_left"
    PADDLE_RIGHT = "paddle_right"
    COUNT_LEFT = "count_left"
    COUNT_RIGHT = "count_right"

    @property
    def side(self) -> Side | None:
        """The side this line belongs to (``None`` for the timer button)."""
        if self in (InputLine.PADDLE_LEFT, InputLine.COUNT_LEFT):
            return Side.LEFT
        if self in (InputLine.PADDLE_RIGHT, InputLine.COUNT_RIGHT):
            return Side.RIGHT
        return None

    @property
    def is_paddle(self) -> bool:
        """True for the two paddles."""
        return self in (InputLine.PADDLE_LEFT, InputLine.PADDLE_RIGHT)

    @property
    def is_count(self) -> bool:
        """True for the two side-count lines (one pulse per card crossing)."""
        return self in (InputLine.COUNT_LEFT, InputLine.COUNT_RIGHT)

    @staticmethod
    def paddle(side: Side) -> InputLine:
        """The paddle on *side*."""
        return InputLine.PADDLE_LEFT if side is Side.LEFT else InputLine.PADDLE_RIGHT

    @staticmethod
    def count(side: Side) -> InputLine:
        """The side-count line on *side*."""
        return InputLine.COUNT_LEFT if side is Side.LEFT else InputLine.COUNT_RIGHT


@dataclass(frozen=True, slots=True)
class Edge:
    """One debounced edge on an input line.

    ``active`` is True for a press (timer button, paddle) or the leading edge of a card pulse
    (side-count line), False for a release. ``at_ns`` is when the edge happened, in the clock's
    domain (see the module docstring).
    """

    line: InputLine
    active: bool
    at_ns: int


class UnitListener(Protocol):
    """What a back end calls. Calls may come from any thread (lgpio's callback thread, a serial
    reader), possibly concurrently with each other; the listener does its own locking."""

    def edge(self, edge: Edge) -> None:
        """A debounced edge on an input line."""

    def light_changed(self, light: Light, at_ns: int) -> None:
        """The countdown light actually changed at *at_ns*. GREEN's time is the showdown's "go"."""

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        """The launcher was actually energised toward *toward* (``None``: now off) at *at_ns*.
        ``None`` also answers a :meth:`UnitHardware.launch` the unit refused: it stays off."""

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        """The back end lost contact with the unit at *at_ns* (a cable pulled, a microcontroller
        that stopped answering or reset): edges from then on may come late or never. With
        *restarted* the unit has rebooted: every output is off now, whatever was reported."""


class UnitHardware(ABC):
    """The Showdown unit's parts. A back end must:

    - Deliver input edges to the listener given to :meth:`start`: paddle presses AND releases,
      timer-button presses, one active edge per card on each side-count line. Each :class:`Edge`
      carries the time the edge happened (the pin factory's or microcontroller's timestamp,
      converted to :attr:`clock`'s nanoseconds), debounced on the leading edge: the first edge of a
      press is its time; bounces within the bounce window after it are dropped.
    - Report output changes when they actually happen: :meth:`UnitListener.light_changed` (the
      GREEN report is the "go" time) and :meth:`UnitListener.launcher_changed` (energised / off).
      A back end that drives the pins itself may report from inside the call that changed them.
    - Report :meth:`UnitListener.contact_lost` when edges may have been lost or delayed (the
      serial back end: the link went down, the microcontroller restarted or dropped events); a
      back end wired to the pins never loses contact and never calls it.
    - Bound the launcher itself: :meth:`launch` energises for at most ``pulse_ns`` even if no
      :meth:`stop_launch` follows (the host may hang). The interlock above this interface decides
      *whether* to fire; the back end guarantees *how long* at most.
    - Return quickly from every output call (no waiting on timers); never raise from a listener
      call into the caller's thread: exceptions raised by the listener are the listener's business.
    - :meth:`close`: every output to its safe state (launcher off, lights and buzzer off, arrow
      off); idempotent; also done at interpreter exit and after a fault.

    A back end may call listener methods before :meth:`start` returns, and never after
    :meth:`close` returns.
    """

    @property
    @abstractmethod
    def clock(self) -> Clock:
        """The clock whose ``now_ns()`` is in the same domain as every reported timestamp."""

    @abstractmethod
    def start(self, listener: UnitListener) -> None:
        """Begin delivering events to *listener* (one listener per unit)."""

    @abstractmethod
    def countdown_light(self, light: Light) -> None:
        """Show *light* on the countdown light; report the change with ``light_changed``."""

    @abstractmethod
    def buzzer(self, tone_hz: float | None) -> None:
        """Sound *tone_hz* continuously (``None``: silent). Patterns are timed by the caller.
        A back end without pitch control sounds its one tone for any frequency."""

    @abstractmethod
    def arrow(self, toward: Side | None) -> None:
        """Light the false-start arrow toward *toward* (``None``: arrow off)."""

    @abstractmethod
    def launch(self, toward: Side, pulse_ns: int) -> None:
        """Energise the launcher toward *toward* for at most *pulse_ns*; report with
        ``launcher_changed`` when it is energised and again when it goes off."""

    @abstractmethod
    def stop_launch(self) -> None:
        """De-energise the launcher now (no-op if it is off)."""

    @abstractmethod
    def paddle_held(self, side: Side) -> bool:
        """True if the paddle on *side* is held down right now."""

    @abstractmethod
    def close(self) -> None:
        """Every output to its safe state and release the hardware. Idempotent."""

    def __enter__(self) -> UnitHardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
