"""The protocol's constants, named exactly as in ``PROTOCOL.md`` (the tests check they agree).

Kept apart from the messages and the codec so that the firmware's copy
(``firmware_bridge/pico/sdfw_proto.py``) can be compared with this one name by name.
"""

from __future__ import annotations

from typing import Final

PROTOCOL_VERSION: Final = 1
"""The only version this host speaks; ``Hello`` offers ``[MIN_VERSION, PROTOCOL_VERSION]``."""
MIN_VERSION: Final = 1

DELIMITER: Final = 0x00
CRC_INIT: Final = 0xFFFF
MAX_BODY: Final = 64
MAX_ENCODED: Final = 66

WINDOW: Final = 16
RETRANSMIT_MS: Final = 30
MAX_RETRANSMITS: Final = 8
RTO_MAX_MS: Final = 2000
LINK_STALL_MS: Final = 10000
EVENT_QUEUE: Final = 120
LOST_ZERO_COPIES: Final = 6
"""Copies of one event frame a byte short before the host takes it for the unit's own and
skips it (``ProtocolError.lost_zero`` in the host's codec): a resend loses the same last byte
again at the line's rate, one in ten on a bad cable, so six in a row is one in a million
there; any other broken frame is the unit's own at its second copy."""

HEARTBEAT_MS: Final = 100
WATCHDOG_MS: Final = 500
HELLO_TIMEOUT_MS: Final = 200
HELLO_ATTEMPTS: Final = 5
PULSE_CEILING_MS: Final = 2000
MAX_PULSE_MS: Final = 300
COOLDOWN_MS: Final = 1000
BOUNCE_US: Final = 10000
COUNT_BOUNCE_US: Final = 500
BUZZER_MIN_HZ: Final = 20
"""The lowest tone ``Buzzer`` accepts (the RP2040's PWM cannot go below about 8 Hz)."""
BUZZER_MAX_HZ: Final = 20_000

SYNC_SAMPLES: Final = 16
SLEW_PPM: Final = 500

RECONNECT_MIN_MS: Final = 50
RECONNECT_MAX_MS: Final = 2000
USB_VID: Final = 0x2E8A
USB_PID: Final = 0x0005
STABLE_PATH: Final = "/dev/showdown-unit"

# Sides, lights, outputs: small ints on the wire.
SIDE_NONE: Final = 0
SIDE_LEFT: Final = 1
SIDE_RIGHT: Final = 2
LIGHT_OFF: Final = 0
LIGHT_RED: Final = 1
LIGHT_GREEN: Final = 2
OUTPUT_LIGHT: Final = 1
OUTPUT_BUZZER: Final = 2
OUTPUT_ARROW: Final = 3
OUTPUT_LAUNCHER: Final = 4

CAP_PADDLES: Final = 0x01
CAP_SIDE_COUNTS: Final = 0x02
CAP_TIMER_BUTTON: Final = 0x04
CAP_LIGHTS: Final = 0x08
CAP_BUZZER: Final = 0x10
CAP_ARROW: Final = 0x20
CAP_LAUNCHER: Final = 0x40
CAP_DRIVERS: Final = 0x80
"""The firmware takes ``LauncherDriver`` (without it: a DIR/EN launcher only)."""

# The launcher's motor driver boards (``LauncherDriver.driver``; docs/drivers.md).
DRIVER_DIR_ENABLE: Final = 0
DRIVER_DRV8833: Final = 1
DRIVER_TB6612: Final = 2
DRIVER_L298N: Final = 3

INPUT_PADDLE_LEFT: Final = 0x01
INPUT_PADDLE_RIGHT: Final = 0x02
INPUT_TIMER_BUTTON: Final = 0x04

STATUS_ARMED: Final = 0x01
STATUS_LAUNCHER: Final = 0x02
STATUS_WATCHDOG: Final = 0x04

NACK_NOT_ARMED: Final = 1
NACK_COOLING_DOWN: Final = 2
NACK_PULSE_TOO_LONG: Final = 3
NACK_BAD_PAYLOAD: Final = 4
NACK_UNKNOWN_TYPE: Final = 5
NACK_BAD_DIRECTION: Final = 6

FAULT_WATCHDOG: Final = 1
FAULT_PULSE_CUT: Final = 2
FAULT_QUEUE_OVERFLOW: Final = 3
FAULT_CRASH: Final = 4


def is_reliable(type_code: int) -> bool:
    """Whether a type byte is sequenced and acknowledged (``PROTOCOL.md``, type ranges)."""
    return 0x10 <= type_code <= 0x3F or 0x90 <= type_code <= 0xBF


def sequence_ahead(sequence: int, expected: int) -> int:
    """How far ``sequence`` is ahead of ``expected`` modulo 256; negative means behind."""
    diff = (sequence - expected) & 0xFF
    return diff - 256 if diff >= 128 else diff
