"""The launcher interlock: the one gate between the state machine and the launcher.

The launcher throws cards at a player's hand. It may be energised only while a showdown is
launching (the state machine opens the gate for exactly one fire when go has come), for at most
the configured pulse, and not again until the cool-down after the previous pulse has passed. Every
other request is refused and logged; refusals are also kept in :attr:`LauncherInterlock.refusals`
so ``showdown check`` and the tests can see them.
"""

from __future__ import annotations

import logging
import threading

from showdown.unit.clock import Clock
from showdown.unit.hardware import Side, UnitHardware

__all__ = ["LauncherInterlock"]

log = logging.getLogger(__name__)


class LauncherInterlock:
    """Fires the launcher only when permitted, bounded in time, with a cool-down."""

    def __init__(
        self, hardware: UnitHardware, clock: Clock, *, pulse_ns: int, cooldown_ns: int
    ) -> None:
        self._hardware = hardware
        self._clock = clock
        self.pulse_ns = pulse_ns
        self.cooldown_ns = cooldown_ns
        self._lock = threading.Lock()
        self._permitted = False
        self._energised_since: int | None = None
        self._last_off_ns: int | None = None
        self.refusals: list[str] = []

    @property
    def energised(self) -> bool:
        """True while the back end reports the launcher energised."""
        return self._energised_since is not None

    def permit_one(self) -> None:
        """Open the gate for one fire (the state machine, when a showdown's race begins)."""
        with self._lock:
            self._permitted = True

    def forbid(self) -> None:
        """Close the gate (any state other than launching)."""
        with self._lock:
            self._permitted = False

    def fire(self, toward: Side) -> bool:
        """Energise toward *toward* for the pulse if permitted and cooled down; else refuse."""
        with self._lock:
            now = self._clock.now_ns()
            reason = None
            if not self._permitted:
                reason = "not launching"
            elif self._energised_since is not None:
                reason = "already energised"
            elif self._last_off_ns is not None and now - self._last_off_ns < self.cooldown_ns:
                left_ms = (self._last_off_ns + self.cooldown_ns - now) / 1e6
                reason = f"cooling down ({left_ms:.0f} ms to go)"
            if reason is not None:
                self._refuse(toward, reason)
                return False
            self._permitted = False
        self._hardware.launch(toward, self.pulse_ns)
        self._clock.call_later(self.pulse_ns, self.stop)
        return True

    def _refuse(self, toward: Side, reason: str) -> None:
        message = f"launcher refused toward {toward.value}: {reason}"
        self.refusals.append(message)
        log.warning(message)

    def stop(self) -> None:
        """De-energise now (idempotent)."""
        self._hardware.stop_launch()

    def changed(self, toward: Side | None, at_ns: int) -> None:
        """The back end's report of the launcher going on (*toward*) or off (None)."""
        with self._lock:
            if toward is not None:
                self._energised_since = at_ns
            elif self._energised_since is not None:
                self._energised_since = None
                self._last_off_ns = at_ns
