"""Frames: ``COBS(type | sequence | payload | CRC-16/CCITT-FALSE) | 0x00``.

Uses the ``cobs`` package and ``binascii.crc_hqx`` rather than hand-written versions. Every way a
frame can be bad raises one typed error, :class:`DecodeError`; the stream decoder reports it in
place and carries on at the next delimiter.
"""

from __future__ import annotations

import binascii
import struct
from typing import NamedTuple

from cobs import cobs

from firmware_bridge.messages import MESSAGE_TYPES, Message, Unknown
from firmware_bridge.protocol import CRC_INIT, DELIMITER, MAX_BODY, MAX_ENCODED, is_reliable

__all__ = [
    "DecodeError", "FrameDecoder", "Packet", "ProtocolError", "body_of", "decode_frame",
    "encode_frame",
]

_DELIMITER = bytes([DELIMITER])


class DecodeError(ValueError):
    """A frame that cannot be trusted (bad COBS, CRC, length or payload); it is dropped."""


class ProtocolError(DecodeError):
    """A frame whose CRC matched but which breaks the protocol: a payload of the wrong length
    for its type, a field out of its range, a sequence on an unreliable type. Damage that the
    CRC missed (one in 65536 damaged frames), or a peer that does not keep to the protocol.
    ``type_code`` and ``sequence`` say which frame it was.

    ``lost_zero``: the payload is one byte short, which is also what the line leaves of an
    intact frame whose CRC ends in a zero byte when it drops the frame's last COBS byte (the
    CRC of the rest is still 0): one frame in 256 is open to that, so the same error again may
    be the same damage again, not the peer's own frame."""

    def __init__(self, message: str, type_code: int, sequence: int, *,
                 lost_zero: bool = False) -> None:
        super().__init__(message)
        self.type_code = type_code
        self.sequence = sequence
        self.lost_zero = lost_zero


class Packet(NamedTuple):
    """A decoded frame: its sequence number (0 for unreliable types) and its message."""

    sequence: int
    message: Message

    def __str__(self) -> str:
        return f"seq={self.sequence} {self.message!r}"


def body_of(message: Message, sequence: int = 0) -> bytes:
    """The unencoded body: type, sequence, payload and the CRC, high byte first."""
    type_code = message.type_code if isinstance(message, Unknown) else message.TYPE
    data = bytes((type_code, sequence & 0xFF)) + message.pack_payload()
    if len(data) + 2 > MAX_BODY:
        raise ValueError(f"{message!r} is longer than MAX_BODY={MAX_BODY}")
    return data + struct.pack(">H", binascii.crc_hqx(data, CRC_INIT))


def encode_frame(message: Message, sequence: int = 0) -> bytes:
    """The bytes on the wire for one message, delimiter included."""
    return bytes(cobs.encode(body_of(message, sequence))) + _DELIMITER


def decode_frame(encoded: bytes) -> Packet:
    """Decode one frame without its delimiter; :class:`DecodeError` if it is bad in any way."""
    if not encoded:
        raise DecodeError("empty frame")
    if len(encoded) > MAX_ENCODED:
        raise DecodeError(f"frame of {len(encoded)} bytes is longer than {MAX_ENCODED}")
    try:
        body = bytes(cobs.decode(encoded))
    except cobs.DecodeError as exc:
        raise DecodeError(f"bad COBS: {exc}") from None
    if len(body) < 4:
        raise DecodeError(f"body of {len(body)} bytes is too short")
    if binascii.crc_hqx(body, CRC_INIT) != 0:
        raise DecodeError("CRC mismatch")
    type_code, sequence = body[0], body[1]
    payload = body[2:-2]
    cls = MESSAGE_TYPES.get(type_code)
    if cls is None:
        return Packet(sequence, Unknown(type_code, payload))
    try:
        message = cls.unpack_payload(payload)
    except struct.error:
        expected = struct.calcsize(cls.FORMAT)
        raise ProtocolError(
            f"seq={sequence} {cls.__name__} payload of {len(payload)} bytes, expected "
            f"{expected}", type_code, sequence, lost_zero=len(payload) + 1 == expected
        ) from None
    if not is_reliable(type_code) and sequence != 0:
        raise ProtocolError(f"{cls.__name__} is unreliable but carries sequence {sequence}",
                            type_code, sequence)
    problem = message.out_of_range()
    if problem is not None:
        raise ProtocolError(f"seq={sequence} {problem}", type_code, sequence)
    return Packet(sequence, message)


class FrameDecoder:
    """Splits a byte stream at delimiters; bad frames come out as :class:`DecodeError` values.

    Bytes before the first delimiter (a receiver that joined mid-stream) or an overlong run come
    out as one error, and decoding resumes cleanly at the next delimiter.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> list[Packet | DecodeError]:
        """Consume bytes; return every complete frame's packet or error, in order."""
        out: list[Packet | DecodeError] = []
        for chunk_end in _split_keep(data):
            piece, complete = chunk_end
            self._buffer += piece
            if len(self._buffer) > MAX_ENCODED:
                self._buffer.clear()
                self._overlong = True
            if not complete:
                continue
            if self._overlong:
                out.append(DecodeError(f"frame longer than {MAX_ENCODED} bytes"))
                self._overlong = False
            elif self._buffer:
                try:
                    out.append(decode_frame(bytes(self._buffer)))
                except DecodeError as exc:
                    out.append(exc)
            self._buffer.clear()
        return out

    def reset(self) -> None:
        """Forget a partial frame (after a reconnect)."""
        self._buffer.clear()
        self._overlong = False


def _split_keep(data: bytes) -> list[tuple[bytes, bool]]:
    parts = data.split(_DELIMITER)
    return [(part, index < len(parts) - 1) for index, part in enumerate(parts)]
