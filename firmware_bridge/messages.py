"""Typed messages of the serial protocol, one small frozen dataclass per type byte.

Each class declares its ``TYPE`` byte and its ``FORMAT`` (``struct`` notation, little-endian);
the fields are the payload in order. ``RANGES`` gives the values a field may take where its type
allows more (a side is 1 or 2, not any byte): the decoder refuses a frame with a field outside
them as it refuses one of the wrong length (:func:`firmware_bridge.codec.decode_frame`). The
``repr`` is the protocol's one text form and rebuilds the message:
``Fire(direction=2, pulse_ms=250)``.
"""

from __future__ import annotations

import dataclasses
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

from firmware_bridge.protocol import (
    BUZZER_MAX_HZ,
    DRIVER_DIR_ENABLE,
    DRIVER_L298N,
    PROTOCOL_VERSION,
)

__all__ = [
    "MESSAGE_TYPES",
    "Ack",
    "Arm",
    "Arrow",
    "Buzzer",
    "Configure",
    "Disarm",
    "Fault",
    "Fire",
    "Heartbeat",
    "HeartbeatReply",
    "Hello",
    "HelloReply",
    "LauncherDriver",
    "Lights",
    "McuAck",
    "Message",
    "Nack",
    "OutputChanged",
    "Paddle",
    "Safe",
    "SideCount",
    "TimerButton",
    "Unknown",
]


@dataclass(frozen=True, slots=True)
class Message:
    """Base of every message: packs and unpacks its fields with ``FORMAT``."""

    TYPE: ClassVar[int] = -1
    FORMAT: ClassVar[str] = "<"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {}
    """Field name -> (lowest, highest) value it may take; fields not named take any value
    their format packs."""

    def out_of_range(self) -> str | None:
        """The first field outside its range, said in a few words; None when all fit."""
        for name, (low, high) in self.RANGES.items():
            value = getattr(self, name)
            if not low <= value <= high:
                return f"{type(self).__name__}.{name} is {value}, not {low} to {high}"
        return None

    def pack_payload(self) -> bytes:
        """The payload bytes; ``struct.error`` if a field is out of its range."""
        values = [getattr(self, f.name) for f in dataclasses.fields(self)]
        return struct.pack(self.FORMAT, *values)

    @classmethod
    def unpack_payload(cls, payload: bytes) -> Self:
        """Rebuild from payload bytes; ``struct.error`` if the length is wrong."""
        return cls(*struct.unpack(cls.FORMAT, payload))


@dataclass(frozen=True, slots=True)
class Unknown(Message):
    """A type byte this host does not know (a newer firmware); kept so its sequence is consumed."""

    type_code: int
    payload: bytes

    def pack_payload(self) -> bytes:
        """The payload as received."""
        return self.payload


# Host -> MCU, unreliable.
@dataclass(frozen=True, slots=True)
class Hello(Message):
    """Opens a connection: the versions the host speaks and the MCU boot it last spoke to."""

    TYPE: ClassVar[int] = 0x01
    FORMAT: ClassVar[str] = "<BBI"
    min_version: int
    max_version: int
    boot_id: int


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    """The host is alive; the reply echoes ``token`` with the MCU's clock (time sync)."""

    TYPE: ClassVar[int] = 0x02
    FORMAT: ClassVar[str] = "<I"
    token: int


@dataclass(frozen=True, slots=True)
class Ack(Message):
    """Host acknowledges every MCU event before ``next_expected``."""

    TYPE: ClassVar[int] = 0x03
    FORMAT: ClassVar[str] = "<B"
    next_expected: int


# Host -> MCU, reliable commands.
@dataclass(frozen=True, slots=True)
class Configure(Message):
    """Safety and timing settings; sent at every fresh session."""

    TYPE: ClassVar[int] = 0x10
    FORMAT: ClassVar[str] = "<HHHIH"
    watchdog_ms: int
    max_pulse_ms: int
    cooldown_ms: int
    bounce_us: int
    count_bounce_us: int


@dataclass(frozen=True, slots=True)
class Arm(Message):
    """Allows one launcher pulse within ``window_ms``."""

    TYPE: ClassVar[int] = 0x11
    FORMAT: ClassVar[str] = "<H"
    window_ms: int


@dataclass(frozen=True, slots=True)
class Disarm(Message):
    """Forbids the launcher until the next ``Arm``."""

    TYPE: ClassVar[int] = 0x12
    FORMAT: ClassVar[str] = "<"


@dataclass(frozen=True, slots=True)
class Lights(Message):
    """The countdown light: 0 off, 1 red, 2 green."""

    TYPE: ClassVar[int] = 0x13
    FORMAT: ClassVar[str] = "<B"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"light": (0, 2)}
    light: int


@dataclass(frozen=True, slots=True)
class Buzzer(Message):
    """A tone for ``duration_ms`` (frequency 0: silence)."""

    TYPE: ClassVar[int] = 0x14
    FORMAT: ClassVar[str] = "<HH"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"frequency_hz": (0, BUZZER_MAX_HZ)}
    frequency_hz: int
    duration_ms: int


@dataclass(frozen=True, slots=True)
class Arrow(Message):
    """The false-start arrow: side 0 none, 1 left, 2 right; steady or blinking."""

    TYPE: ClassVar[int] = 0x15
    FORMAT: ClassVar[str] = "<BB"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"side": (0, 2), "blink": (0, 1)}
    side: int
    blink: int


@dataclass(frozen=True, slots=True)
class Fire(Message):
    """Energise the launcher toward ``direction`` for ``pulse_ms`` (refused unless armed)."""

    TYPE: ClassVar[int] = 0x16
    FORMAT: ClassVar[str] = "<BH"
    direction: int
    pulse_ms: int


@dataclass(frozen=True, slots=True)
class Safe(Message):
    """Every output off and disarmed: sent when the host closes."""

    TYPE: ClassVar[int] = 0x17
    FORMAT: ClassVar[str] = "<"


@dataclass(frozen=True, slots=True)
class LauncherDriver(Message):
    """The launcher's motor driver board (``DRIVER_*``) and how long a braking stop is held;
    sent after ``Configure`` to a firmware with ``CAP_DRIVERS``."""

    TYPE: ClassVar[int] = 0x18
    FORMAT: ClassVar[str] = "<BH"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {
        "driver": (DRIVER_DIR_ENABLE, DRIVER_L298N)}
    driver: int
    brake_ms: int


# MCU -> host, unreliable.
@dataclass(frozen=True, slots=True)
class HelloReply(Message):
    """The MCU's answer to ``Hello``: version, parts, boot, clock width, its sequences, and a
    snapshot of the inputs held now (``INPUT_*`` bits)."""

    TYPE: ClassVar[int] = 0x81
    FORMAT: ClassVar[str] = "<BHIBBBB"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {
        "version": (0, PROTOCOL_VERSION), "tick_bits": (16, 32), "inputs": (0, 7)}
    version: int
    capabilities: int
    boot_id: int
    tick_bits: int
    next_expected: int
    next_sequence: int
    inputs: int


@dataclass(frozen=True, slots=True)
class HeartbeatReply(Message):
    """Echo of a heartbeat with the MCU time it was read and the safety status flags."""

    TYPE: ClassVar[int] = 0x82
    FORMAT: ClassVar[str] = "<IIB"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"status": (0, 7)}
    token: int
    mcu_us: int
    status: int


@dataclass(frozen=True, slots=True)
class McuAck(Message):
    """MCU acknowledges every host command before ``next_expected`` (``Ack`` in PROTOCOL.md)."""

    TYPE: ClassVar[int] = 0x83
    FORMAT: ClassVar[str] = "<B"
    next_expected: int


# MCU -> host, reliable events.
@dataclass(frozen=True, slots=True)
class Paddle(Message):
    """A paddle's debounced leading edge at MCU time ``at_us``."""

    TYPE: ClassVar[int] = 0x90
    FORMAT: ClassVar[str] = "<BBI"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"side": (1, 2), "pressed": (0, 1)}
    side: int
    pressed: int
    at_us: int


@dataclass(frozen=True, slots=True)
class SideCount(Message):
    """One card crossed ``side``'s counting line."""

    TYPE: ClassVar[int] = 0x91
    FORMAT: ClassVar[str] = "<BI"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"side": (1, 2)}
    side: int
    at_us: int


@dataclass(frozen=True, slots=True)
class TimerButton(Message):
    """The timer button's debounced edge."""

    TYPE: ClassVar[int] = 0x92
    FORMAT: ClassVar[str] = "<BI"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"pressed": (0, 1)}
    pressed: int
    at_us: int


@dataclass(frozen=True, slots=True)
class OutputChanged(Message):
    """An output really changed at ``at_us`` (the true go time, the true launch time)."""

    TYPE: ClassVar[int] = 0x93
    FORMAT: ClassVar[str] = "<BBI"
    RANGES: ClassVar[Mapping[str, tuple[int, int]]] = {"output": (1, 4), "value": (0, 2)}
    output: int
    value: int
    at_us: int


@dataclass(frozen=True, slots=True)
class Nack(Message):
    """The command with ``refused_sequence`` was refused for ``reason`` (``NACK_*``)."""

    TYPE: ClassVar[int] = 0x94
    FORMAT: ClassVar[str] = "<BB"
    refused_sequence: int
    reason: int


@dataclass(frozen=True, slots=True)
class Fault(Message):
    """The MCU acted on its own for safety (``FAULT_*``)."""

    TYPE: ClassVar[int] = 0x95
    FORMAT: ClassVar[str] = "<BI"
    code: int
    at_us: int


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello, Heartbeat, Ack, Configure, Arm, Disarm, Lights, Buzzer, Arrow, Fire, Safe,
        LauncherDriver, HelloReply, HeartbeatReply, McuAck, Paddle, SideCount, TimerButton,
        OutputChanged, Nack, Fault,
    )
}
"""Type byte -> message class: the catalogue of ``PROTOCOL.md``."""
