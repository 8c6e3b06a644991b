"""Mapping the microcontroller's wrapping microseconds to the host's nanoseconds.

``PROTOCOL.md``, "Time": unwrap the MCU counter, estimate the offset from heartbeat round trips
(shortest of the last ``SYNC_SAMPLES``), and move the applied offset toward the estimate by at
most ``SLEW_PPM`` of elapsed MCU time so that the mapping is monotone and nearly rigid.
"""

from __future__ import annotations

import threading
from collections import deque

from firmware_bridge.protocol import SLEW_PPM, SYNC_SAMPLES

__all__ = ["ClockSync"]


class ClockSync:
    """MCU ``ticks_us`` (``tick_bits`` wide) to host nanoseconds. Thread-safe."""

    def __init__(self, tick_bits: int = 32) -> None:
        self._lock = threading.Lock()
        self._period = 1 << tick_bits
        self._last_us: int | None = None
        self._samples: deque[tuple[int, int]] = deque(maxlen=SYNC_SAMPLES)  # (rtt, offset)
        self._target_ns: int | None = None
        self._applied_ns: int | None = None
        self._slew_at_us = 0

    def reset(self, tick_bits: int) -> None:
        """Forget everything: a new MCU boot (its clock restarted)."""
        with self._lock:
            self._period = 1 << tick_bits
            self._last_us = None
            self._samples.clear()
            self._target_ns = self._applied_ns = None

    @property
    def ready(self) -> bool:
        """True once at least one round trip has given an offset."""
        return self._applied_ns is not None

    def unwrap(self, raw_us: int) -> int:
        """The raw counter placed nearest the last unwrapped value (see the module docstring)."""
        with self._lock:
            return self._unwrap(raw_us)

    def _unwrap(self, raw_us: int) -> int:
        raw_us %= self._period
        if self._last_us is None:
            self._last_us = raw_us
            return raw_us
        step = (raw_us - self._last_us) % self._period
        if step >= self._period // 2:
            step -= self._period
        value = self._last_us + step
        self._last_us = max(self._last_us, value)
        return value

    def sample(self, sent_ns: int, received_ns: int, mcu_us: int) -> None:
        """One heartbeat round trip: sent and received on the host clock, stamped by the MCU."""
        with self._lock:
            extended = self._unwrap(mcu_us)
            rtt = max(received_ns - sent_ns, 0)
            self._samples.append((rtt, (sent_ns + received_ns) // 2 - extended * 1000))
            self._target_ns = min(self._samples)[1]
            if self._applied_ns is None:
                self._applied_ns = self._target_ns
                self._slew_at_us = extended
            else:
                self._slew(extended)

    def _slew(self, extended_us: int) -> None:
        assert self._applied_ns is not None and self._target_ns is not None
        elapsed_us = extended_us - self._slew_at_us
        if elapsed_us <= 0:
            return
        self._slew_at_us = extended_us
        allowed = elapsed_us * 1000 * SLEW_PPM // 1_000_000
        error = self._target_ns - self._applied_ns
        self._applied_ns += max(-allowed, min(allowed, error))

    def to_host_ns(self, raw_us: int) -> int:
        """The host time of an MCU timestamp; requires :attr:`ready`."""
        with self._lock:
            extended = self._unwrap(raw_us)
            if self._applied_ns is None:
                raise RuntimeError("no round trip yet: the offset is unknown")
            self._slew(extended)
            return extended * 1000 + self._applied_ns
