"""The firmware's main loop (``sdfw_main.App``) under the real MicroPython interpreter, on a
simulated rp2 USB port: a host that stops reading never stalls the loop, and any error ends in
safe outputs, a ``Fault(CRASH)`` and a watchdog reset."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.messages import (
    Arm,
    Configure,
    Fault,
    Fire,
    Heartbeat,
    HeartbeatReply,
    Hello,
    Lights,
    Paddle,
)
from firmware_bridge.protocol import FAULT_CRASH
from tests.hw_sim.mpy_harness import MpyApp

SLOW_WATCHDOG = Configure(watchdog_ms=60_000, max_pulse_ms=1000, cooldown_ms=0,
                          bounce_us=1000, count_bounce_us=500)


@pytest.fixture
def app() -> Iterator[MpyApp]:
    bench = MpyApp()
    yield bench
    bench.close()


def test_a_host_that_stops_reading_never_stalls_the_loop(app: MpyApp) -> None:
    app.send(Hello(1, 1, 0))
    app.send(SLOW_WATCHDOG)
    app.messages()
    app.host(reading=False)  # the port stays open, nobody reads: the FIFO fills
    for _ in range(40):  # 80 edges: fewer than the event queue holds
        app.press("paddle_left")
        app.steps(20)
        app.release("paddle_left")
        app.steps(20)
        app.send(Heartbeat(7))
    state = app.state()
    assert state["stalls"] == 0, "a write waited for the host"
    assert state["queued"] <= 2048
    app.host(reading=True)
    seen: set[tuple[int, int]] = set()
    for _ in range(20):  # 40 ms each: retransmissions go out, the host acknowledges
        app.steps(400)
        seen |= {(m.pressed, m.at_us) for m in app.messages() if isinstance(m, Paddle)}
    assert len(seen) == 80, "every edge arrives in the end"


def test_an_error_makes_every_output_safe_reports_a_fault_and_the_watchdog_resets(
    app: MpyApp,
) -> None:
    app.send(Hello(1, 1, 0))
    app.send(SLOW_WATCHDOG)
    app.send(Lights(2))
    app.send(Arm(5000))
    app.send(Fire(2, 900))
    app.messages()
    assert app.level("launcher_enable") == app.level("light_green") == 1
    app.command("usb_fail")
    result = app.command("app_run")
    assert "OSError" in result["failed"]
    assert all(app.level(name) == 0 for name in ("launcher_enable", "light_green", "buzzer"))
    faults = [m for m in app.messages() if isinstance(m, Fault)]
    assert [f.code for f in faults] == [FAULT_CRASH]
    assert 2_000_000 <= result["ran_us"] <= 2_100_000, "reset by the 2 s watchdog"


def test_the_loop_answers_heartbeats_with_its_clock(app: MpyApp) -> None:
    app.send(Hello(1, 1, 0))
    app.messages()
    app.send(Heartbeat(42))
    (reply,) = [m for m in app.messages() if isinstance(m, HeartbeatReply)]
    assert reply.token == 42 and reply.mcu_us == app.now_us_unwrapped


def test_a_boot_id_never_repeats_the_last_boots_even_from_a_stuck_entropy_source(
    app: MpyApp, tmp_path: Path
) -> None:
    ids = app.command("boot_ids", path=str(tmp_path / "sdfw_boot.bin"), draws=4)
    assert all(ids) and all(a != b for a, b in itertools.pairwise(ids))
    assert (tmp_path / "sdfw_boot.bin").read_bytes() == ids[-1].to_bytes(4, "little")
