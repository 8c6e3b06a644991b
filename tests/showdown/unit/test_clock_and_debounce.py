"""The clock runs timers in order without sleeping; debounce keeps the first edge of a press."""

from __future__ import annotations

import doctest
import threading

import showdown.unit.clock
import showdown.unit.countdown
import showdown.unit.debounce
import showdown.unit.verdict
from showdown.unit.clock import JumpClock, ManualClock, MonotonicClock, ms
from showdown.unit.debounce import LeadingEdgeDebouncer


def test_docstring_examples_run() -> None:
    for module in (showdown.unit.clock, showdown.unit.debounce, showdown.unit.countdown,
    showdown.unit.verdict):
        assert doctest.testmod(module).failed == 0


def test_manual_clock_runs_due_timers_in_order_at_their_own_time() -> None:
    clock = ManualClock()
    seen: list[tuple[str, int]] = []
    clock.call_later(ms(30), lambda: seen.append(("b", clock.now_ns())))
    clock.call_later(ms(10), lambda: seen.append(("a", clock.now_ns())))
    cancelled = clock.call_later(ms(20), lambda: seen.append(("x", clock.now_ns())))
    cancelled.cancel()
    clock.advance(ms(25))
    assert seen == [("a", ms(10))]
    clock.advance(ms(25))
    assert seen == [("a", ms(10)), ("b", ms(30))]
    assert clock.now_ns() == ms(50) and clock.next_deadline_ns() is None


def test_a_failing_timer_does_not_stop_the_others() -> None:
    clock = ManualClock()
    seen: list[int] = []
    clock.call_later(1, lambda: 1 / 0)
    clock.call_later(2, lambda: seen.append(2))
    clock.advance(5)
    assert seen == [2]


def test_jump_clock_jumps_and_runs_what_became_due() -> None:
    clock = JumpClock(threaded=False)
    fired = threading.Event()
    start = clock.now_ns()
    clock.call_later(ms(60_000), fired.set)
    clock.advance(ms(60_000))
    assert fired.is_set() and clock.now_ns() - start >= ms(60_000)
    clock.close()


def test_monotonic_clock_runs_timers_on_its_thread() -> None:
    clock = MonotonicClock()
    fired = threading.Event()
    clock.call_later(0, fired.set)
    assert fired.wait(5.0)
    clock.close()


def test_debounce_keeps_the_first_edge_and_drops_bounces() -> None:
    debounce = LeadingEdgeDebouncer(window_ns=ms(5))
    assert debounce.accept(True, ms(100))
    assert not debounce.accept(False, ms(100.2))
    assert not debounce.accept(True, ms(101))
    assert debounce.active
    assert debounce.accept(False, ms(200))
    assert not debounce.active


def test_debounce_never_loses_a_press_after_a_tap_shorter_than_the_window() -> None:
    debounce = LeadingEdgeDebouncer(window_ns=ms(5))
    assert debounce.accept(True, ms(0))
    assert not debounce.accept(False, ms(3))  # the release was lost in the window
    assert debounce.accept(True, ms(400)), "the next press still counts"
