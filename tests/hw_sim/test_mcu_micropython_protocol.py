"""The firmware's wire format computed by the real MicroPython interpreter matches the host's
libraries byte for byte (the CPython twin of these tests is
``tests/firmware_bridge/test_firmware_codec.py``): MicroPython's ``struct``, integers and
``bytes`` are its own, so agreement under CPython does not prove it."""

from __future__ import annotations

import binascii
import dataclasses
import struct
from collections.abc import Iterator

import pytest
from cobs import cobs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol
from firmware_bridge.codec import DecodeError, decode_frame, encode_frame
from firmware_bridge.messages import MESSAGE_TYPES, Message, Unknown
from tests.firmware_bridge.strategies import any_message
from tests.hw_sim.mpy_harness import MpyFirmware

quick = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def bench() -> Iterator[MpyFirmware]:
    firmware = MpyFirmware(settle=False)
    yield firmware
    firmware.close()


def computed(bench: MpyFirmware, *items: list[object]) -> list[object]:
    result: list[object] = bench.command("vectors", items=[list(item) for item in items])
    return result


@quick
@given(st.binary(max_size=700))
def test_cobs_and_crc_match_the_host_libraries(bench: MpyFirmware, data: bytes) -> None:
    encoded, crc = computed(bench, ["cobs", data.hex()], ["crc", data.hex()])
    assert encoded == cobs.encode(data).hex()
    assert crc == binascii.crc_hqx(data, 0xFFFF)


@quick
@given(st.binary(max_size=40))
def test_cobs_decode_rejects_what_the_package_rejects(bench: MpyFirmware, data: bytes) -> None:
    try:
        expected: str | None = cobs.decode(data).hex()
    except cobs.DecodeError:
        expected = None
    assert computed(bench, ["uncobs", data.hex()]) == [expected]


@quick
@given(message=any_message, sequence=st.integers(0, 255), noise=st.binary(max_size=80))
def test_frames_match_host_frames_and_read_back(
    bench: MpyFirmware, message: Message, sequence: int, noise: bytes
) -> None:
    sequence = sequence if protocol.is_reliable(message.TYPE) else 0
    values = [getattr(message, f.name) for f in dataclasses.fields(message)]
    host = encode_frame(message, sequence)
    frame, read = computed(
        bench, ["frame", message.TYPE, sequence, values], ["read", (noise + b"\x00" + host).hex()]
    )
    assert frame == host.hex()
    assert isinstance(read, list)
    assert read[-2] == [message.TYPE, sequence, message.pack_payload().hex()]


@quick
@given(cls=st.sampled_from(sorted(MESSAGE_TYPES.values(), key=lambda c: c.TYPE)),
       sequence=st.integers(0, 255), payload=st.binary(max_size=12))
def test_a_payload_that_does_not_fit_its_type_is_a_bad_frame_on_both_sides(
    bench: MpyFirmware, cls: type[Message], sequence: int, payload: bytes
) -> None:
    """A damaged frame can pass the CRC (one in 65536); its length is the second check, and the
    firmware must drop it as the host does, not take it as a command with a bad payload."""
    frame = encode_frame(Unknown(cls.TYPE, payload), sequence)  # a right CRC, any length
    (read,) = computed(bench, ["read", frame.hex()])
    assert isinstance(read, list)
    if len(payload) == struct.calcsize(cls.FORMAT):
        assert read == [[cls.TYPE, sequence, payload.hex()], 0]
    else:
        assert read == [1]
        with pytest.raises(DecodeError):
            decode_frame(frame[:-1])


def test_crc_check_value_and_constants(bench: MpyFirmware) -> None:
    assert computed(bench, ["crc", b"123456789".hex()]) == [0x29B1]
    constants: dict[str, int] = bench.command("constants")
    shared = [name for name in constants if hasattr(protocol, name)]
    assert len(shared) >= 40
    assert {name: constants[name] for name in shared} == {
        name: getattr(protocol, name) for name in shared
    }
