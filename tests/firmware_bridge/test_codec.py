"""Frames: every message round-trips, and bad bytes only ever give the typed error."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.codec import DecodeError, FrameDecoder, Packet, decode_frame, encode_frame
from firmware_bridge.messages import MESSAGE_TYPES, Fire, Heartbeat, Message, Paddle, Unknown
from firmware_bridge.protocol import MAX_ENCODED, is_reliable
from tests.firmware_bridge.strategies import any_message, message_of


@pytest.mark.parametrize("cls", list(MESSAGE_TYPES.values()), ids=lambda c: c.__name__)
@given(data=st.data(), sequence=st.integers(0, 255))
def test_every_message_round_trips(cls: type[Message], data: st.DataObject, sequence: int) -> None:
    message = data.draw(message_of(cls))
    sequence = sequence if is_reliable(cls.TYPE) else 0
    frame = encode_frame(message, sequence)
    assert frame.endswith(b"\x00") and b"\x00" not in frame[:-1]
    assert decode_frame(frame[:-1]) == Packet(sequence, message)
    assert eval(repr(message), {c.__name__: c for c in MESSAGE_TYPES.values()}) == message


def test_unknown_type_is_kept_with_its_sequence() -> None:
    frame = encode_frame(Unknown(0x3E, b"\x01\x02"), 9)
    assert decode_frame(frame[:-1]) == Packet(9, Unknown(0x3E, b"\x01\x02"))


def test_wrong_payload_length_is_the_typed_error() -> None:
    good = encode_frame(Unknown(Fire.TYPE, b"\x01"), 1)
    with pytest.raises(DecodeError, match="Fire payload"):
        decode_frame(good[:-1])


@given(st.binary(max_size=200))
def test_random_bytes_only_give_the_typed_error(data: bytes) -> None:
    for item in FrameDecoder().feed(data):
        assert isinstance(item, Packet | DecodeError)
    with contextlib.suppress(DecodeError):
        decode_frame(data)


@given(
    messages=st.lists(any_message, min_size=1, max_size=8),
    noise=st.binary(min_size=1, max_size=40),
    flips=st.lists(st.tuples(st.integers(0, 10_000), st.integers(1, 255)), max_size=4),
    cut=st.integers(0, 10_000),
)
def test_mutated_streams_resynchronise_at_the_next_delimiter(
    messages: list[Message], noise: bytes, flips: list[tuple[int, int]], cut: int
) -> None:
    stream = bytearray(b"".join(encode_frame(m, 0 if not is_reliable(m.TYPE) else 3)
                                for m in messages))
    for position, xor in flips:
        stream[position % len(stream)] ^= xor
    del stream[cut % len(stream):cut % len(stream) + (cut % 3)]
    decoder = FrameDecoder()
    damaged = decoder.feed(noise + bytes(stream))
    assert all(isinstance(item, Packet | DecodeError) for item in damaged)
    # Whatever came before, the next clean frame after a delimiter decodes.
    after = decoder.feed(b"\x00" + encode_frame(Heartbeat(42)))
    assert after[-1] == Packet(0, Heartbeat(42))


def test_garbage_then_frames_gives_one_error_then_the_frames() -> None:
    items = FrameDecoder().feed(b"\x07junk\x00" + encode_frame(Paddle(1, 1, 5), 0)
                                + encode_frame(Heartbeat(1)))
    assert isinstance(items[0], DecodeError)
    assert items[1:] == [Packet(0, Paddle(1, 1, 5)), Packet(0, Heartbeat(1))]


def test_overlong_run_is_one_error_and_decoding_resumes() -> None:
    decoder = FrameDecoder()
    items = decoder.feed(b"\x01" * (MAX_ENCODED * 3))
    assert items == []
    items = decoder.feed(b"\x00" + encode_frame(Heartbeat(5)))
    assert isinstance(items[0], DecodeError)
    assert items[1] == Packet(0, Heartbeat(5))


def test_single_bit_flips_are_always_caught() -> None:
    frame = encode_frame(Fire(2, 250), 5)[:-1]
    for index in range(len(frame)):
        for bit in range(8):
            damaged = bytearray(frame)
            damaged[index] ^= 1 << bit
            if 0 in damaged:
                continue
            with pytest.raises(DecodeError):
                decode_frame(bytes(damaged))
