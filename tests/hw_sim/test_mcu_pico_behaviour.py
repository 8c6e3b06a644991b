"""What a real Pico does that the first stand-ins hid: a 30-bit clock over long quiet stretches,
interrupts between any two instructions of a loop pass that takes time, pull-ups that take time,
a main loop stuck in a USB write, the PWM's frequency range and a boot id drawn twice. Each test
runs under CPython (stand-ins) and under the real MicroPython interpreter (shims)."""

from __future__ import annotations

import pytest

from firmware_bridge.codec import encode_frame
from firmware_bridge.messages import (
    Arm,
    Arrow,
    Buzzer,
    Configure,
    Fire,
    Hello,
    HelloReply,
    Lights,
    McuAck,
    Message,
    Nack,
    OutputChanged,
    Paddle,
    SideCount,
    TimerButton,
    Unknown,
)
from firmware_bridge.protocol import (
    INPUT_PADDLE_LEFT,
    NACK_BAD_PAYLOAD,
    OUTPUT_LAUNCHER,
    OUTPUT_LIGHT,
)
from tests.hw_sim.conftest import FirmwareFactory

MASK = (1 << 30) - 1
# A host that stays away: the watchdog (at most 65 s) trips, inputs are still reported.
QUIET = Configure(watchdog_ms=60_000, max_pulse_ms=300, cooldown_ms=0, bounce_us=10_000,
                  count_bounce_us=500)


def inputs(messages: list[Message]) -> list[Message]:
    return [m for m in messages if isinstance(m, Paddle | SideCount | TimerButton)]


@pytest.mark.parametrize("minutes", [10, 20, 70])
def test_a_press_after_a_long_quiet_is_reported_at_once_with_its_time(
    make_firmware: FirmwareFactory, minutes: int
) -> None:
    fw = make_firmware()
    fw.connect(QUIET)
    fw.press("paddle_left")
    fw.advance(50)
    fw.release("paddle_left")
    fw.advance(50)
    fw.press("count_right")
    fw.advance(5)
    fw.release("count_right")
    fw.advance(5)
    assert len(inputs(fw.messages())) == 4
    fw.advance(minutes * 60_000, passes=minutes * 60)  # a loop pass every second
    fw.messages()
    for name in ("paddle_left", "count_right", "timer_button"):
        at = fw.now_us()
        fw.press(name)
        fw.step()
        (event,) = inputs(fw.messages())
        assert event.at_us == at, name
        fw.advance(20)
        fw.release(name)
        fw.advance(20)
        fw.messages()


def test_a_first_press_long_after_boot_is_reported(make_firmware: FirmwareFactory) -> None:
    fw = make_firmware()
    fw.advance(10 * 60_000, passes=600)
    fw.connect(QUIET)
    at = fw.now_us()
    fw.press("paddle_right")
    fw.step()
    assert inputs(fw.messages()) == [Paddle(2, 1, at)]


def test_every_edge_time_is_its_interrupts_time_wherever_it_lands_in_a_loop_pass(
    make_firmware: FirmwareFactory,
) -> None:
    # Each clock or input read takes 300 us, so a pass lasts long enough for the loop's own
    # start time to be wrong for an edge that lands during it.
    fw = make_firmware(read_cost_us=300)
    fw.connect(QUIET)
    held = False
    for point in range(10):
        fw.advance(30)  # past the bounce window
        fw.messages()
        held = not held
        before = len(fw.injected)
        fw.inject("paddle_left", 0 if held else 1, after=point)
        for _ in range(point + 1):  # every pass reads the clock at least once
            fw.step()
            if len(fw.injected) > before:
                break
        fw.step()
        (event,) = inputs(fw.messages())
        assert isinstance(event, Paddle) and event.pressed == int(held)
        assert event.at_us == fw.injected[-1] & MASK, f"edge at interrupt point {point}"


def test_pull_ups_that_take_time_report_no_edge_and_a_held_paddle_is_a_snapshot(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware(pull_up_us=8000, settle=False, held=("paddle_left",))
    fw.send(Hello(1, 1, 0))
    fw.advance(30, passes=30)
    fw.send(Hello(1, 1, 0))
    packets = fw.received()
    replies = [p.message for p in packets if isinstance(p.message, HelloReply)]
    assert replies[-1].inputs == INPUT_PADDLE_LEFT
    assert not inputs([p.message for p in packets]), "the pull-ups' rise is not an edge"
    fw.release("paddle_left")
    fw.advance(1)
    assert [(m.side, m.pressed) for m in inputs(fw.messages())] == [(1, 0)]


def test_the_launcher_goes_off_on_time_while_the_main_loop_is_stuck(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    fw.connect(QUIET)
    fw.send(Arm(1000))
    fw.send(Fire(1, 100))
    (on,) = [m for m in fw.messages() if isinstance(m, OutputChanged)]
    fw.stall(400)  # a USB write that blocks (the rp2 port waits up to 500 ms for the host)
    assert fw.level("launcher_enable") == 0
    fw.step()
    (off,) = [m for m in fw.messages() if isinstance(m, OutputChanged)]
    assert (off.output, off.value) == (OUTPUT_LAUNCHER, 0)
    assert (off.at_us - on.at_us) & MASK == 100_000


@pytest.mark.parametrize("hz", [1, 7, 19, 20_001])
def test_a_buzzer_tone_outside_the_range_is_refused_and_the_link_goes_on(
    make_firmware: FirmwareFactory, hz: int
) -> None:
    fw = make_firmware()
    fw.connect()
    refused = fw.send(Buzzer(hz, 100))
    fw.send(Lights(1))
    messages = fw.messages()
    assert Nack(refused, NACK_BAD_PAYLOAD) in messages
    assert McuAck(refused + 2) in messages
    assert [m.output for m in messages if isinstance(m, OutputChanged)] == [OUTPUT_LIGHT]
    assert fw.level("buzzer") == 0
    fw.send(Buzzer(20, 0))
    fw.step()
    assert fw.level("buzzer") == 1


def test_a_host_naming_this_boots_id_before_any_reply_gets_a_fresh_session(
    make_firmware: FirmwareFactory,
) -> None:
    fw = make_firmware()
    # The host spoke to an earlier boot that drew the same id, then the MCU reset.
    fw.send(Hello(1, 1, fw.boot_id))
    (reply,) = [m for m in fw.messages() if isinstance(m, HelloReply)]
    assert reply.boot_id not in (0, fw.boot_id)
    assert (reply.next_expected, reply.next_sequence) == (0, 0)
    # Now the host knows this boot: naming it again resumes.
    fw.send(Lights(1))
    fw.send(Hello(1, 1, reply.boot_id))
    (again,) = [m for m in fw.messages() if isinstance(m, HelloReply)]
    assert again.boot_id == reply.boot_id and again.next_expected == 1


def test_a_fire_that_lost_a_byte_yet_passed_the_crc_waits_for_its_intact_copy(
    make_firmware: FirmwareFactory,
) -> None:
    """On a noisy line one damaged frame in 65536 passes the CRC. Taken as a Fire with a bad
    payload it used its sequence number, so the host's intact resend was a duplicate and the
    winner's cards never flew."""
    fw = make_firmware()
    fw.connect()
    fw.send(Arm(5000))
    fw.messages()
    fire = Fire(1, 100)
    sequence = fw.host_sequence
    fw.feed(encode_frame(Unknown(fire.TYPE, fire.pack_payload()[:-1]), sequence))
    assert fw.messages() == []  # neither taken nor refused: no Ack, no Nack
    assert fw.send(fire, sequence) == sequence
    messages = fw.messages()
    assert McuAck(sequence + 1) in messages
    assert [(m.output, m.value) for m in messages if isinstance(m, OutputChanged)] == [
        (OUTPUT_LAUNCHER, 1)
    ]


@pytest.mark.parametrize("command", [Lights(3), Lights(255), Arrow(3, 0), Arrow(9, 0),
                                     Arrow(1, 2), Buzzer(20_001, 100), Buzzer(65_535, 0)],
                         ids=repr)
def test_a_command_with_a_field_out_of_range_is_refused_counted_and_the_link_goes_on(
    make_firmware: FirmwareFactory, command: Message
) -> None:
    """Any field outside its range (the protocol's table, the same as the host's) is refused
    as a bad payload and counted; no output moves, and the next command is carried out."""
    fw = make_firmware()
    fw.connect()
    refused = fw.send(command)
    fw.send(Lights(1))
    messages = fw.messages()
    assert Nack(refused, NACK_BAD_PAYLOAD) in messages
    assert McuAck(refused + 2) in messages
    assert [m.output for m in messages if isinstance(m, OutputChanged)] == [OUTPUT_LIGHT]
    assert fw.level("light_red") == 1 and fw.level("buzzer") == 0
    assert fw.protocol_errors == 1
