"""Showdown firmware: the wire format of firmware_bridge/PROTOCOL.md, in MicroPython's subset.

MicroPython has neither the ``cobs`` package nor ``binascii.crc_hqx``, so this file carries its own
small COBS and CRC-16/CCITT-FALSE; the host's tests check both byte for byte against the host's
library versions, and check every constant below against ``firmware_bridge/protocol.py``.
Runs unchanged under CPython (the simulated microcontroller in ``hw_sim/mcu.py``).
"""

import struct

PROTOCOL_VERSION = 1
MIN_VERSION = 1

DELIMITER = 0x00
CRC_INIT = 0xFFFF
MAX_BODY = 64
MAX_ENCODED = 66

WINDOW = 16
RETRANSMIT_MS = 30
EVENT_QUEUE = 120

WATCHDOG_MS = 500
PULSE_CEILING_MS = 2000
MAX_PULSE_MS = 300
COOLDOWN_MS = 1000
BOUNCE_US = 10000
COUNT_BOUNCE_US = 500
BUZZER_MIN_HZ = 20
BUZZER_MAX_HZ = 20000

SIDE_NONE = 0
SIDE_LEFT = 1
SIDE_RIGHT = 2
LIGHT_OFF = 0
LIGHT_RED = 1
LIGHT_GREEN = 2
OUTPUT_LIGHT = 1
OUTPUT_BUZZER = 2
OUTPUT_ARROW = 3
OUTPUT_LAUNCHER = 4

CAP_PADDLES = 0x01
CAP_SIDE_COUNTS = 0x02
CAP_TIMER_BUTTON = 0x04
CAP_LIGHTS = 0x08
CAP_BUZZER = 0x10
CAP_ARROW = 0x20
CAP_LAUNCHER = 0x40
CAP_DRIVERS = 0x80

DRIVER_DIR_ENABLE = 0
DRIVER_DRV8833 = 1
DRIVER_TB6612 = 2
DRIVER_L298N = 3

INPUT_PADDLE_LEFT = 0x01
INPUT_PADDLE_RIGHT = 0x02
INPUT_TIMER_BUTTON = 0x04

STATUS_ARMED = 0x01
STATUS_LAUNCHER = 0x02
STATUS_WATCHDOG = 0x04

NACK_NOT_ARMED = 1
NACK_COOLING_DOWN = 2
NACK_PULSE_TOO_LONG = 3
NACK_BAD_PAYLOAD = 4
NACK_UNKNOWN_TYPE = 5
NACK_BAD_DIRECTION = 6

FAULT_WATCHDOG = 1
FAULT_PULSE_CUT = 2
FAULT_QUEUE_OVERFLOW = 3
FAULT_CRASH = 4

# Type bytes (PROTOCOL.md, message catalogue).
T_HELLO = 0x01
T_HEARTBEAT = 0x02
T_ACK = 0x03
T_CONFIGURE = 0x10
T_ARM = 0x11
T_DISARM = 0x12
T_LIGHTS = 0x13
T_BUZZER = 0x14
T_ARROW = 0x15
T_FIRE = 0x16
T_SAFE = 0x17
T_LAUNCHER_DRIVER = 0x18
T_HELLO_REPLY = 0x81
T_HEARTBEAT_REPLY = 0x82
T_MCU_ACK = 0x83
T_PADDLE = 0x90
T_SIDE_COUNT = 0x91
T_TIMER_BUTTON = 0x92
T_OUTPUT_CHANGED = 0x93
T_NACK = 0x94
T_FAULT = 0x95

FORMATS = {
    T_HELLO: "<BBI",
    T_HEARTBEAT: "<I",
    T_ACK: "<B",
    T_CONFIGURE: "<HHHIH",
    T_ARM: "<H",
    T_DISARM: "<",
    T_LIGHTS: "<B",
    T_BUZZER: "<HH",
    T_ARROW: "<BB",
    T_FIRE: "<BH",
    T_SAFE: "<",
    T_LAUNCHER_DRIVER: "<BH",
    T_HELLO_REPLY: "<BHIBBBB",
    T_HEARTBEAT_REPLY: "<IIB",
    T_MCU_ACK: "<B",
    T_PADDLE: "<BBI",
    T_SIDE_COUNT: "<BI",
    T_TIMER_BUTTON: "<BI",
    T_OUTPUT_CHANGED: "<BBI",
    T_NACK: "<BB",
    T_FAULT: "<BI",
}


# The values a host command's fields may take where their format allows more: (lowest,
# highest) per field in order, None for any value. A command with a field outside is refused
# (NACK_BAD_PAYLOAD) and counted, whatever the command; firmware_bridge/messages.py holds the same
# ranges (RANGES), and the host's tests check that the two agree.
RANGES = {
    T_LIGHTS: ((LIGHT_OFF, LIGHT_GREEN),),
    T_BUZZER: ((0, BUZZER_MAX_HZ), None),
    T_ARROW: ((SIDE_NONE, SIDE_RIGHT), (0, 1)),
    T_LAUNCHER_DRIVER: ((DRIVER_DIR_ENABLE, DRIVER_L298N), None),
}


def out_of_range(type_code, values):
    """The index of the first field of a known type outside its range, or -1."""
    ranges = RANGES.get(type_code)
    if ranges is not None:
        for index in range(len(ranges)):
            bounds = ranges[index]
            if bounds is not None and not bounds[0] <= values[index] <= bounds[1]:
                return index
    return -1


def is_reliable(type_code):
    """Sequenced and acknowledged types (PROTOCOL.md, type ranges)."""
    return 0x10 <= type_code <= 0x3F or 0x90 <= type_code <= 0xBF


def sequence_ahead(sequence, expected):
    """How far sequence is ahead of expected, modulo 256; negative means behind."""
    diff = (sequence - expected) & 0xFF
    if diff >= 128:
        return diff - 256
    return diff


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = (crc << 1 ^ 4129) & 65535 if crc & 32768 else crc << 1 & 65535
        table.append(crc)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc=CRC_INIT):
    """CRC-16/CCITT-FALSE: polynomial 0x1021, no reflection, no final xor."""
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _CRC_TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    """Consistent Overhead Byte Stuffing: the result holds no zero byte."""
    out = bytearray(1)
    code_at = 0
    code = 1
    last = len(data) - 1
    for index in range(len(data)):
        byte = data[index]
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF and index < last:
            # A full block of 254 data bytes carries no implied zero; start the next block.
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    """Undo cobs_encode; ValueError if the bytes are not valid COBS."""
    out = bytearray()
    index = 0
    length = len(data)
    while index < length:
        code = data[index]
        if code == 0:
            raise ValueError("zero byte in COBS data")
        index += 1
        end = index + code - 1
        if end > length:
            raise ValueError("COBS block runs past the end")
        for position in range(index, end):
            if data[position] == 0:
                raise ValueError("zero byte in COBS data")
        out.extend(data[index:end])
        index = end
        if code < 0xFF and index < length:
            out.append(0)
    return bytes(out)


def encode_frame(type_code, sequence, payload):
    """The bytes on the wire: COBS(type, sequence, payload, CRC high byte first) and 0x00."""
    data = bytes((type_code, sequence & 0xFF)) + payload
    crc = crc16(data)
    return cobs_encode(data + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


_PAYLOAD_SIZES = {type_code: struct.calcsize(fmt) for type_code, fmt in FORMATS.items()}


def pack(type_code, values):
    """Payload bytes of a known type from its field values."""
    return struct.pack(FORMATS[type_code], *values)


def unpack(type_code, payload):
    """Field values of a known type (the FrameReader checked the payload's length)."""
    return struct.unpack(FORMATS[type_code], payload)


class FrameReader:
    """Splits the byte stream at delimiters; counts bad frames and resynchronises at the next."""

    def __init__(self):
        self.buffer = bytearray()
        self.overlong = False
        self.errors = 0

    def feed(self, data):
        """Return a list of (type, sequence, payload) for every good frame in data."""
        frames = []
        for byte in data:
            if byte != 0:
                if len(self.buffer) >= MAX_ENCODED:
                    self.overlong = True
                else:
                    self.buffer.append(byte)
                continue
            if self.overlong:
                self.errors += 1
            elif len(self.buffer):
                frame = self._decode(bytes(self.buffer))
                if frame is None:
                    self.errors += 1
                else:
                    frames.append(frame)
            self.buffer = bytearray()
            self.overlong = False
        return frames

    def reset(self):
        """Forget a partial frame."""
        self.buffer = bytearray()
        self.overlong = False

    @staticmethod
    def _decode(encoded):
        try:
            body = cobs_decode(encoded)
        except ValueError:
            return None
        if len(body) < 4 or crc16(body) != 0:
            return None
        size = _PAYLOAD_SIZES.get(body[0])
        if size is not None and size != len(body) - 4:
            # A damaged frame whose CRC still matched (one in 65536 of them): drop it as the
            # host does, so the sequence stays open for the sender's intact copy.
            return None
        return (body[0], body[1], body[2:-2])
