"""The firmware's own COBS, CRC and constants agree byte for byte with the host's libraries."""

from __future__ import annotations

import binascii
import dataclasses

from cobs import cobs
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.codec import encode_frame
from firmware_bridge.messages import MESSAGE_TYPES, Message
from hw_sim.firmware import firmware_module
from tests.firmware_bridge.strategies import any_message

fw = firmware_module("sdfw_proto")


@given(st.binary(max_size=700))
def test_firmware_cobs_matches_the_cobs_package(data: bytes) -> None:
    encoded = fw.cobs_encode(data)
    assert encoded == cobs.encode(data)
    assert fw.cobs_decode(encoded) == data


@given(st.binary(min_size=250, max_size=520).map(lambda b: b.replace(b"\x00", b"\x07")))
def test_firmware_cobs_on_long_runs_without_zeros(data: bytes) -> None:
    assert fw.cobs_encode(data) == cobs.encode(data)


@given(st.binary(max_size=40))
def test_firmware_cobs_decode_rejects_what_the_package_rejects(data: bytes) -> None:
    try:
        expected: bytes | None = cobs.decode(data)
    except cobs.DecodeError:
        expected = None
    try:
        got: bytes | None = fw.cobs_decode(data)
    except ValueError:
        got = None
    assert got == expected


@given(st.binary(max_size=300))
def test_firmware_crc_matches_crc_hqx(data: bytes) -> None:
    assert fw.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_firmware_crc_check_value() -> None:
    assert fw.crc16(b"123456789") == 0x29B1


@given(message=any_message, sequence=st.integers(0, 255))
def test_firmware_frames_match_host_frames(message: Message, sequence: int) -> None:
    sequence = sequence if protocol.is_reliable(message.TYPE) else 0
    values = [getattr(message, f.name) for f in dataclasses.fields(message)]
    frame = fw.encode_frame(message.TYPE, sequence, fw.pack(message.TYPE, values))
    assert frame == encode_frame(message, sequence)
    reader = fw.FrameReader()
    assert reader.feed(b"\x13garbage\x00" + frame) == [
        (message.TYPE, sequence, message.pack_payload())
    ]
    assert reader.errors == 1


def test_firmware_formats_are_the_catalogue() -> None:
    assert {code: cls.FORMAT for code, cls in MESSAGE_TYPES.items()} == fw.FORMATS


def test_firmware_constants_are_the_host_constants() -> None:
    shared = [name for name in vars(fw) if name.isupper() and hasattr(protocol, name)]
    assert len(shared) >= 40
    for name in shared:
        assert getattr(fw, name) == getattr(protocol, name), name


@given(noise=st.binary(max_size=300), message=any_message)
def test_firmware_reader_never_raises_and_resynchronises(noise: bytes, message: Message) -> None:
    reader = fw.FrameReader()
    reader.feed(noise)
    sequence = 7 if protocol.is_reliable(message.TYPE) else 0
    frames = reader.feed(b"\x00" + encode_frame(message, sequence))
    assert frames[-1] == (message.TYPE, sequence, message.pack_payload())


def test_the_firmware_checks_the_same_field_ranges_as_the_host() -> None:
    """One table on each side (the firmware cannot import the host's): every host command with
    ranges has them in the firmware's, field by field, and the firmware's has nothing else."""
    host = {
        cls.TYPE: tuple(cls.RANGES.get(f.name) for f in dataclasses.fields(cls))
        for cls in MESSAGE_TYPES.values() if cls.RANGES and cls.TYPE < 0x80
    }
    assert host and host == fw.RANGES
