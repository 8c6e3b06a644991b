"""Leading-edge debounce: the first edge of a press is its time; bounces right after it are dropped.

lgpio's own debounce waits for the line to settle and so reports a press late by the debounce
time (and drops short pulses); a showdown is decided by sub-millisecond differences, so the paddles
are debounced here instead, keeping the edge's own timestamp.

    >>> d = LeadingEdgeDebouncer(window_ns=5_000_000, active=False)
    >>> d.accept(True, 1_000_000), d.accept(False, 1_200_000), d.accept(True, 1_400_000)
    (True, False, False)
    >>> d.accept(False, 90_000_000)
    True
"""

from __future__ import annotations

import threading

__all__ = ["LeadingEdgeDebouncer"]


class LeadingEdgeDebouncer:
    """Decides which raw edges of one line are real. Thread-safe."""

    def __init__(self, window_ns: int, active: bool = False) -> None:
        self.window_ns = window_ns
        self._active = active
        self._last_ns: int | None = None
        self._lock = threading.Lock()

    @property
    def active(self) -> bool:
        """The debounced level (True: pressed / pulse on)."""
        return self._active

    def accept(self, active: bool, at_ns: int) -> bool:
        """True if the raw edge to *active* at *at_ns* is a real change of the debounced level.

        Edges within the window after the last accepted one are bounces. An edge after the window
        is real even if it repeats the reported level: the opposite edge was lost in a bounce (a
        tap shorter than the window), and dropping it would lose the next press.
        """
        with self._lock:
            if self._last_ns is not None and at_ns - self._last_ns < self.window_ns:
                return False
            self._active = active
            self._last_ns = at_ns
            return True
