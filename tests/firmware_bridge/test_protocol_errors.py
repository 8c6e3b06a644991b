"""Fields out of range over the serial link: a well-framed message whose side is 0, 3, 9 or 255
(or any field outside what the protocol allows) is a protocol error: counted in the link's
figures, logged in one line, never a traceback, and the link goes on."""

from __future__ import annotations

import logging
import queue
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.codec import ProtocolError, body_of, decode_frame, encode_frame
from firmware_bridge.messages import MESSAGE_TYPES, Message, Paddle, Unknown
from firmware_bridge.pico import sdfw_proto as proto
from firmware_bridge.protocol import LOST_ZERO_COPIES, is_reliable
from hw_sim.mcu import SimulatedMcu
from showdown.app.stats import link_text
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Edge, InputLine, Light, Side
from tests.firmware_bridge.strategies import out_of_range

RANGED = sorted((cls for cls in MESSAGE_TYPES.values() if cls.RANGES), key=lambda c: c.TYPE)


@pytest.mark.parametrize("cls", RANGED, ids=lambda c: c.__name__)
@given(data=st.data(), sequence=st.integers(0, 255))
def test_a_field_out_of_range_is_a_protocol_error_naming_it(
    cls: type[Message], data: st.DataObject, sequence: int
) -> None:
    message = data.draw(out_of_range(cls))
    sequence = sequence if is_reliable(cls.TYPE) else 0
    with pytest.raises(ProtocolError) as refused:
        decode_frame(encode_frame(message, sequence)[:-1])
    problem = message.out_of_range()
    assert problem is not None and str(refused.value) == f"seq={sequence} {problem}"
    assert (refused.value.type_code, refused.value.sequence) == (cls.TYPE, sequence)


class Edges:
    """A listener keeping the edges it hears, in a queue."""

    def __init__(self) -> None:
        self.edges: queue.Queue[Edge] = queue.Queue()

    def edge(self, edge: Edge) -> None:
        self.edges.put(edge)

    def light_changed(self, light: Light, at_ns: int) -> None:
        pass

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        pass

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        pass


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(ms(5_000))


@pytest.fixture
def mcu(clock: ManualClock, tmp_path: Path) -> Iterator[SimulatedMcu]:
    with SimulatedMcu(clock.now_ns, link_path=tmp_path / "showdown-unit") as sim:
        yield sim


def _send_event(mcu: SimulatedMcu, type_code: int, values: tuple[int, ...]) -> None:
    """The board sends an event as its firmware would, whatever the values."""
    with mcu._lock:
        mcu.link.queue_event(type_code, values)
        mcu.link.service(mcu.utime.ticks_us())
        mcu._flush()


def _next_edge(listener: Edges, clock: ManualClock, mcu: SimulatedMcu) -> Edge:
    """The next edge the listener hears, the board's clock running on meanwhile (so it
    resends what was not acknowledged) in steps of its retransmission time."""
    for _ in range(100):
        try:
            return listener.edges.get_nowait()
        except queue.Empty:
            clock.advance(ms(proto.RETRANSMIT_MS + 1))
            assert mcu.wait_steps(3)
    raise AssertionError("the press never came: the link stalled")


@pytest.mark.parametrize("side", [0, 3, 9, 255])
def test_a_paddle_or_side_count_of_no_side_is_one_line_and_the_link_goes_on(
    clock: ManualClock, mcu: SimulatedMcu, side: int, caplog: pytest.LogCaptureFixture
) -> None:
    unit = SerialUnit(UnitSettings(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    listener = Edges()
    unit.start(listener)
    try:
        assert unit.link.wait_idle(5.0)
        with caplog.at_level(logging.WARNING):
            _send_event(mcu, proto.T_PADDLE, (side, 1, 1000))
            _send_event(mcu, proto.T_SIDE_COUNT, (side, 2000))
            mcu.press("paddle_left", clock.now_ns())
            edge = _next_edge(listener, clock, mcu)  # the board's own press still comes
        assert edge.line is InputLine.PADDLE_LEFT and edge.active
        assert listener.edges.empty(), "an event of no side reached the showdown"
        assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
        said = [r.getMessage() for r in caplog.records if "breaks the protocol" in r.getMessage()]
        assert said and all("\n" not in line for line in said)
        assert any(f"Paddle.side is {side}, not 1 to 2" in line for line in said), said
        assert any(f"SideCount.side is {side}, not 1 to 2" in line for line in said), said
        assert unit.link.stats.protocol_errors >= 2
        figures = unit.link.figures()
        assert figures.protocol_errors == unit.link.stats.protocol_errors
        assert f", protocol errors {figures.protocol_errors}, " in link_text(figures, 0)
    finally:
        unit.close()


def _last_zero_paddle(sequence: int, side: int) -> tuple[int, bytes]:
    """A press time whose Paddle frame at *sequence* has a CRC ending in a zero byte, and that
    frame (whole: the tests drop its last COBS byte themselves)."""
    for at_us in range(1000, 1_000_000):
        press = Paddle(side=side, pressed=1, at_us=at_us)
        if body_of(press, sequence)[-1] == 0:
            return at_us, encode_frame(press, sequence)
    raise AssertionError("no press time gives a CRC ending in a zero byte")


def test_a_frame_a_byte_short_passes_the_crc_when_the_line_drops_its_last_zero() -> None:
    at_us, frame = _last_zero_paddle(43, side=1)
    with pytest.raises(ProtocolError) as short:
        decode_frame(frame[:-2])  # the last COBS byte (and the delimiter) lost
    assert str(short.value) == "seq=43 Paddle payload of 5 bytes, expected 6"
    assert short.value.lost_zero
    with pytest.raises(ProtocolError) as shorter:  # two bytes short: no drop leaves that
        decode_frame(encode_frame(Unknown(Paddle.TYPE, bytes(4)), 43)[:-1])
    assert not shorter.value.lost_zero
    assert decode_frame(frame[:-1]).message == Paddle(side=1, pressed=1, at_us=at_us)


@pytest.mark.parametrize("damaged", [LOST_ZERO_COPIES - 1, 1000], ids=["line", "board"])
def test_a_press_whose_last_zero_the_line_keeps_dropping_comes_whole_or_is_the_boards_own(
    clock: ManualClock, mcu: SimulatedMcu, damaged: int, caplog: pytest.LogCaptureFixture
) -> None:
    """A bad cable can drop the last byte of one press's every copy a few times running (each
    copy still passing the CRC, a byte short): the host waits for a whole copy rather than
    skipping the press. Only a board that sends it short every time has it skipped, and the
    presses after it still come."""
    unit = SerialUnit(UnitSettings(), port=mcu.port, clock=clock, watchdog_ms=60_000)
    listener = Edges()
    unit.start(listener)
    try:
        assert unit.link.wait_idle(5.0)
        at_us, frame = _last_zero_paddle(mcu.link.tx_next, side=2)
        copies = 0

        def drop_last_zero(data: bytes) -> bytes:
            nonlocal copies
            if data == frame and copies < damaged:
                copies += 1
                return data[:-2] + data[-1:]
            return data

        mcu.tamper = drop_last_zero
        with caplog.at_level(logging.WARNING):
            _send_event(mcu, proto.T_PADDLE, (2, 1, at_us))
            mcu.press("paddle_left", clock.now_ns())
            first = _next_edge(listener, clock, mcu)
            second = None if damaged > LOST_ZERO_COPIES else _next_edge(listener, clock, mcu)
        skipped = [r.getMessage() for r in caplog.records if "is skipped" in r.getMessage()]
        if damaged < LOST_ZERO_COPIES:  # the line's: the whole copy after the damaged ones
            assert copies == damaged and skipped == []
            assert first.line is InputLine.PADDLE_RIGHT
            assert second is not None and second.line is InputLine.PADDLE_LEFT
        else:  # the board's own: skipped at its sixth copy, the next press still comes
            assert copies == LOST_ZERO_COPIES
            assert len(skipped) == 1 and "Paddle payload of 5 bytes, expected 6" in skipped[0]
            assert first.line is InputLine.PADDLE_LEFT and listener.edges.empty()
        assert unit.link.stats.protocol_errors == copies
    finally:
        unit.close()
