"""The one injectable clock: every timestamp and every timer in the unit goes through it.

All times are integer nanoseconds in one monotonic domain (``now_ns()``), the domain in which the
hardware back ends report edge times. Three clocks:

:class:`MonotonicClock`
    real time (``time.monotonic_ns``, the domain of lgpio's edge timestamps); timers run on a
    background thread. Used on a real unit.
:class:`JumpClock`
    real time plus an offset that :meth:`JumpClock.advance` can jump forward: the simulator skips
    the seconds of a countdown yet measures real latency between an edge and the launcher.
:class:`ManualClock`
    time stands still until a test advances it; due timers then run in the test's thread, in
    deadline order, each with ``now_ns()`` equal to its deadline. Tests never sleep.

Example::

    >>> clock = ManualClock()
    >>> fired = []
    >>> _ = clock.call_later(ms(5), lambda: fired.append(clock.now_ns()))
    >>> clock.advance(ms(10))
    >>> fired == [ms(5)]
    True
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable

__all__ = ["Clock", "JumpClock", "ManualClock", "MonotonicClock", "Timer", "ms", "to_ms"]

log = logging.getLogger(__name__)

NS_PER_MS = 1_000_000


def ms(value: float) -> int:
    """*value* milliseconds in nanoseconds."""
    return round(value * NS_PER_MS)


def to_ms(value_ns: int) -> float:
    """*value_ns* nanoseconds in milliseconds."""
    return value_ns / NS_PER_MS


class Timer:
    """A callback scheduled on a clock; :meth:`cancel` stops it if it has not run yet."""

    __slots__ = ("_cancelled", "callback", "deadline_ns")

    def __init__(self, deadline_ns: int, callback: Callable[[], object]) -> None:
        self.deadline_ns = deadline_ns
        self.callback = callback
        self._cancelled = False

    def cancel(self) -> None:
        """Do not run (harmless if it already ran)."""
        self._cancelled = True

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._cancelled


class Clock(ABC):
    """Reads the time and runs callbacks at deadlines.

    Callbacks run one at a time (never two at once), outside the clock's own locks, so they may
    schedule or cancel other timers. An exception in a callback is logged and does not stop the
    clock.
    """

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Timer]] = []
        self._seq = itertools.count()
        self._heap_lock = threading.Lock()
        self._run_lock = threading.RLock()
        self._wake = threading.Condition(self._heap_lock)
        self._closed = False

    @abstractmethod
    def now_ns(self) -> int:
        """The time now, in nanoseconds."""

    def call_at(self, deadline_ns: int, callback: Callable[[], object]) -> Timer:
        """Run *callback* once ``now_ns() >= deadline_ns``."""
        timer = Timer(deadline_ns, callback)
        with self._wake:
            heapq.heappush(self._heap, (deadline_ns, next(self._seq), timer))
            self._wake.notify()
        return timer

    def call_later(self, delay_ns: int, callback: Callable[[], object]) -> Timer:
        """Run *callback* *delay_ns* from now."""
        return self.call_at(self.now_ns() + delay_ns, callback)

    def next_deadline_ns(self) -> int | None:
        """The deadline of the next pending timer, or None when nothing is scheduled."""
        with self._heap_lock:
            while self._heap and self._heap[0][2].cancelled:
                heapq.heappop(self._heap)
            return self._heap[0][0] if self._heap else None

    def _pop_due(self, now_ns: int) -> Timer | None:
        with self._heap_lock:
            while self._heap and self._heap[0][0] <= now_ns:
                timer = heapq.heappop(self._heap)[2]
                if not timer.cancelled:
                    return timer
            return None

    def _run(self, timer: Timer) -> None:
        timer.cancel()  # a timer runs once
        try:
            timer.callback()
        except Exception:
            log.exception("timer callback %r failed", timer.callback)

    def run_due(self) -> int:
        """Run every timer that is due now, in deadline order, in this thread; return how many."""
        count = 0
        with self._run_lock:
            while (timer := self._pop_due(self.now_ns())) is not None:
                self._run(timer)
                count += 1
        return count

    def close(self) -> None:
        """Drop pending timers and stop any background thread. Idempotent."""
        with self._wake:
            self._closed = True
            self._heap.clear()
            self._wake.notify_all()


class ManualClock(Clock):
    """Time stands still until :meth:`advance`; for tests (see the module docstring)."""

    def __init__(self, start_ns: int = 0) -> None:
        super().__init__()
        self._now_ns = start_ns

    def now_ns(self) -> int:
        """The time set by the last advance."""
        return self._now_ns

    def advance(self, delta_ns: int) -> None:
        """Move time forward by *delta_ns*, running due timers at their own deadlines."""
        self.advance_to(self._now_ns + delta_ns)

    def advance_to(self, target_ns: int) -> None:
        """Move time forward to *target_ns* (never backward), running due timers on the way."""
        with self._run_lock:
            while True:
                deadline = self.next_deadline_ns()
                if deadline is None or deadline > target_ns:
                    break
                self._now_ns = max(self._now_ns, deadline)
                self.run_due()
            self._now_ns = max(self._now_ns, target_ns)


class MonotonicClock(Clock):
    """Real time; due timers run on one daemon thread (started on first use).

    With ``threaded=False`` nothing runs timers by itself: the owner calls :meth:`run_due`
    (the simulator does, so a timer never races the edges it is feeding).
    """

    def __init__(self, *, threaded: bool = True) -> None:
        super().__init__()
        self._thread: threading.Thread | None = None
        self._threaded = threaded

    def now_ns(self) -> int:
        """``time.monotonic_ns()``: the domain of lgpio's kernel edge timestamps."""
        return time.monotonic_ns()

    def call_at(self, deadline_ns: int, callback: Callable[[], object]) -> Timer:
        """Run *callback* on the clock's thread once the deadline has passed."""
        if self._thread is None and self._threaded:
            with self._heap_lock:
                if self._thread is None and not self._closed:
                    self._thread = threading.Thread(
                        target=self._serve, name="showdown-clock", daemon=True
                    )
                    self._thread.start()
        return super().call_at(deadline_ns, callback)

    def _serve(self) -> None:
        while True:
            with self._wake:
                if self._closed:
                    return
                wait_s: float | None = None
                if self._heap:
                    wait_s = (self._heap[0][0] - self.now_ns()) / 1e9
                if wait_s is None or wait_s > 0:
                    self._wake.wait(wait_s)
                    continue
            self.run_due()

    def close(self) -> None:
        """Stop the timer thread and drop pending timers."""
        super().close()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)


class JumpClock(MonotonicClock):
    """Real time plus a forward-only offset: the simulator skips waits, latency stays real."""

    def __init__(self, *, threaded: bool = True) -> None:
        super().__init__(threaded=threaded)
        self._offset_ns = 0

    def now_ns(self) -> int:
        """Real monotonic time plus every jump so far."""
        return time.monotonic_ns() + self._offset_ns

    def advance(self, delta_ns: int) -> None:
        """Jump forward by *delta_ns* and run what became due, in this thread, before returning."""
        if delta_ns > 0:
            with self._wake:
                self._offset_ns += delta_ns
                self._wake.notify_all()
        self.run_due()

    def advance_to(self, target_ns: int) -> None:
        """Jump forward to *target_ns* if it is still ahead, then run what is due."""
        self.advance(target_ns - self.now_ns())
