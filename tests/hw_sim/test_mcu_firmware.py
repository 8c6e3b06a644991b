"""The reference firmware itself (firmware_bridge/pico), on a manual clock: flow, safety, timing;
each test under CPython and under the real MicroPython interpreter."""

from __future__ import annotations

from firmware_bridge.messages import (
    Ack,
    Arm,
    Configure,
    Disarm,
    Fault,
    Fire,
    Heartbeat,
    HeartbeatReply,
    Hello,
    HelloReply,
    Lights,
    McuAck,
    Nack,
    OutputChanged,
    Paddle,
    SideCount,
)
from firmware_bridge.protocol import (
    FAULT_WATCHDOG,
    INPUT_PADDLE_RIGHT,
    NACK_BAD_DIRECTION,
    NACK_COOLING_DOWN,
    NACK_NOT_ARMED,
    NACK_PULSE_TOO_LONG,
    OUTPUT_LAUNCHER,
    OUTPUT_LIGHT,
    STATUS_WATCHDOG,
)
from showdown.unit.clock import ms
from tests.hw_sim.conftest import FirmwareFactory
from tests.hw_sim.firmware_harness import BOOT_ID


def launcher_reports(messages: list[object]) -> list[int]:
    return [
        m.value for m in messages if isinstance(m, OutputChanged) and m.output == OUTPUT_LAUNCHER
    ]


def test_hello_reply_names_version_boot_and_clock(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.send(Hello(1, 3, 0))
    assert fw.messages() == [HelloReply(1, 0xFF, BOOT_ID, 30, 0, 0, 0)]


def test_hello_outside_the_firmware_versions_gets_version_zero(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.send(Hello(2, 5, 0))
    (reply,) = fw.messages()
    assert isinstance(reply, HelloReply) and reply.version == 0


def test_watchdog_turns_the_launcher_off_when_heartbeats_stop(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect(Configure(watchdog_ms=100, max_pulse_ms=1000, cooldown_ms=0, bounce_us=0,
                         count_bounce_us=0))
    fw.send(Lights(2))
    fw.send(Arm(5000))
    fw.send(Fire(2, 1000))
    fw.ack_all()
    assert fw.level("launcher_enable") == 1 and fw.level("light_green") == 1
    for _ in range(5):  # heartbeats keep it alive
        fw.advance(50)
        fw.send(Heartbeat(1))
    assert fw.level("launcher_enable") == 1
    fw.received()
    fw.advance(60)  # 60 ms of silence: not yet
    assert fw.level("launcher_enable") == 1
    fw.advance(41)  # 101 ms of silence: the host is gone
    assert fw.level("launcher_enable") == 0
    assert fw.level("light_green") == 0
    messages = fw.messages()
    assert any(isinstance(m, Fault) and m.code == FAULT_WATCHDOG for m in messages)
    assert 0 in launcher_reports(messages)
    fw.send(Heartbeat(2))
    replies = [m for m in fw.messages() if isinstance(m, HeartbeatReply)]
    assert replies and replies[0].status & STATUS_WATCHDOG
    # Still disarmed: a late Fire is refused until the host arms again.
    sequence = fw.send(Fire(1, 100))
    assert Nack(sequence, NACK_NOT_ARMED) in fw.messages()
    assert fw.level("launcher_enable") == 0


def test_fire_needs_an_arm_and_one_arm_allows_one_fire(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 0, 0, 0))
    refused = fw.send(Fire(1, 100))
    assert Nack(refused, NACK_NOT_ARMED) in fw.messages()
    fw.send(Arm(1000))
    fw.send(Fire(1, 100))
    assert launcher_reports(fw.messages()) == [1]
    fw.advance(100)
    assert fw.level("launcher_enable") == 0
    again = fw.send(Fire(1, 100))
    assert Nack(again, NACK_NOT_ARMED) in fw.messages()


def test_arm_window_expires(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 0, 0, 0))
    fw.send(Arm(200))
    fw.advance(201)
    late = fw.send(Fire(2, 100))
    assert Nack(late, NACK_NOT_ARMED) in fw.messages()


def test_pulse_is_bounded_by_the_firmware_clock_without_any_host_frame(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 0, 0, 0))
    fw.send(Arm(1000))
    fw.send(Fire(2, 250))
    on = [m for m in fw.messages() if isinstance(m, OutputChanged) and m.output == OUTPUT_LAUNCHER]
    fw.advance(249)
    assert fw.level("launcher_enable") == 1 and fw.level("launcher_in1") == 1
    fw.advance(1)
    assert fw.level("launcher_enable") == 0
    off = [m for m in fw.messages() if isinstance(m, OutputChanged) and m.output == OUTPUT_LAUNCHER]
    assert off[0].at_us - on[0].at_us == 250_000


def test_refusals_pulse_too_long_bad_direction_and_cooldown(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 1000, 0, 0))
    fw.send(Arm(5000))
    too_long = fw.send(Fire(1, 301))
    bad = fw.send(Fire(3, 100))
    messages = fw.messages()
    assert Nack(too_long, NACK_PULSE_TOO_LONG) in messages
    assert Nack(bad, NACK_BAD_DIRECTION) in messages
    fw.send(Fire(1, 100))
    fw.advance(100)
    fw.send(Arm(5000))
    cooling = fw.send(Fire(1, 100))
    assert Nack(cooling, NACK_COOLING_DOWN) in fw.messages()
    fw.advance(1000)
    fw.send(Fire(1, 100))
    assert launcher_reports(fw.messages()) == [1]


def test_disarm_turns_an_energised_launcher_off_now(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 0, 0, 0))
    fw.send(Arm(5000))
    fw.send(Fire(1, 300))
    fw.advance(10)
    fw.send(Disarm())
    assert fw.level("launcher_enable") == 0
    assert launcher_reports(fw.messages()) == [1, 0]


def test_a_duplicated_command_is_carried_out_once_and_acknowledged_again(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect()
    fw.send(Lights(1), sequence=1)
    fw.send(Lights(1), sequence=1)
    messages = fw.messages()
    lights = [m for m in messages if isinstance(m, OutputChanged) and m.output == OUTPUT_LIGHT]
    assert len(lights) == 1
    assert [m for m in messages if isinstance(m, McuAck)] == [McuAck(2), McuAck(2)]


def test_a_command_after_a_gap_is_dropped_and_the_ack_asks_for_the_missing_one(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect()
    fw.send(Lights(2), sequence=2)  # 1 was lost
    messages = fw.messages()
    assert messages == [McuAck(1)]
    assert fw.level("light_green") == 0
    fw.send(Lights(1), sequence=1)
    fw.send(Lights(2), sequence=2)
    assert fw.level("light_green") == 1


def test_events_are_retransmitted_until_acknowledged_and_kept_across_a_resume(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect()
    fw.press("paddle_left", at_ns=fw.clock.now_ns())
    fw.step()
    first = [p for p in fw.received(ack=False) if isinstance(p.message, Paddle)]
    assert len(first) == 1
    fw.advance(29)
    assert not fw.received(ack=False)
    fw.advance(1)
    again = [p for p in fw.received(ack=False) if isinstance(p.message, Paddle)]
    assert again == first  # same sequence, same time: a retransmission
    # The cable is unplugged; the host comes back with the same boot id: resume, resend.
    fw.send(Hello(1, 1, BOOT_ID))
    packets = fw.received(ack=False)
    reply = packets[0].message
    assert isinstance(reply, HelloReply) and reply.next_sequence == first[0].sequence
    assert [p for p in packets if isinstance(p.message, Paddle)] == first
    fw.send(Ack(first[0].sequence + 1))
    fw.advance(100)
    assert not [p for p in fw.received() if isinstance(p.message, Paddle)]


def test_a_fresh_hello_forgets_old_events_and_snapshots_held_paddles(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect()
    fw.send(Lights(1))
    fw.press("paddle_right")
    fw.step()
    fw.received(ack=False)
    fw.send(Hello(1, 1, 0))  # another host
    packets = fw.received(ack=False)
    reply = packets[0].message
    assert isinstance(reply, HelloReply)
    assert (reply.next_expected, reply.next_sequence, reply.inputs) == (0, 0, INPUT_PADDLE_RIGHT)
    assert not [p for p in packets if isinstance(p.message, Paddle)], "a snapshot, not an edge"
    # Outputs go safe for the new host, reported from sequence 0.
    assert [(p.sequence, p.message) for p in packets[1:]] == [
        (0, OutputChanged(OUTPUT_LIGHT, 0, fw.now_us()))
    ]


def test_a_copy_of_the_hello_just_answered_does_not_start_over(
    make_firmware: FirmwareFactory,
) -> None:
    # A host on a noisy or slow line says hello again before the reply reaches it; the copy
    # arrives after the MCU answered and sent events. Starting over would number the next event
    # 0 again, and the host, which took the first reply, would drop it as a duplicate.
    fw = make_firmware()
    fw.send(Hello(1, 1, 0))
    fw.press("paddle_left")
    fw.step()
    first = fw.received(ack=False)
    reply = first[0].message
    assert isinstance(reply, HelloReply)
    assert [(p.sequence, type(p.message)) for p in first[1:]] == [(0, Paddle)]
    fw.send(Hello(1, 1, 0))  # the copy
    copy = fw.received(ack=False)[0].message
    assert isinstance(copy, HelloReply)  # the same boot and sequences: no new session
    assert (copy.boot_id, copy.next_expected, copy.next_sequence) == (
        reply.boot_id, reply.next_expected, 0)
    fw.send(Ack(1))
    fw.press("paddle_right")
    fw.step()
    assert [(p.sequence, type(p.message)) for p in fw.received(ack=False)] == [(1, Paddle)]
    # Once the host has spoken (here the ack), the same hello is a new host: a fresh session.
    fw.send(Hello(1, 1, 0))
    fresh = fw.received(ack=False)[0].message
    assert isinstance(fresh, HelloReply) and fresh.next_sequence == 0


def test_leading_edge_debounce_keeps_the_first_edge_time(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect(Configure(60_000, 300, 0, 5_000, 500))
    start = fw.clock.now_ns()
    fw.press("paddle_left", at_ns=start)
    fw.release("paddle_left", at_ns=start + ms(1))
    fw.press("paddle_left", at_ns=start + ms(2))
    fw.advance(10)
    paddles = [m for m in fw.messages() if isinstance(m, Paddle)]
    assert paddles == [Paddle(1, 1, (start // 1000) & (2**30 - 1))]


def test_each_card_pulse_is_one_side_count(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.connect()
    for _ in range(3):
        fw.press("count_right")
        fw.advance(1)
        fw.release("count_right")
        fw.advance(20)
    counts = []
    for _ in range(3):
        counts += [m for m in fw.ack_all() if isinstance(m.message, SideCount)]
        fw.advance(30)
    assert len(counts) == 3


def test_timers_survive_the_microsecond_counter_wrapping(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware(start_ns=(2**24 - 50_000) * 1000, tick_bits=24)  # wraps 50 ms from now
    fw.connect(Configure(60_000, 300, 0, 0, 0))
    fw.send(Arm(1000))
    fw.send(Fire(1, 100))
    fw.advance(99)
    assert fw.level("launcher_enable") == 1
    fw.advance(1)
    assert fw.level("launcher_enable") == 0
