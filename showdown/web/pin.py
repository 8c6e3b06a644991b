"""Who may correct the score from a phone: whoever types the table's PIN, a few tries at a time.

Four digits are 10,000 guesses, so wrong ones are rate-limited twice over: per client (three
free tries, then a wait of 30 s that doubles with each further miss, up to 15 minutes) and for
everyone together (:data:`GLOBAL_WRONG` misses per :data:`GLOBAL_WINDOW_S` from all clients,
then every client waits), so even many addresses guessing together need days, not an evening.
A right PIN clears its client's count. The PIN itself is compared in constant time and never
logged.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["FREE_TRIES", "GLOBAL_WINDOW_S", "GLOBAL_WRONG", "PinCheck", "PinGuard"]

FREE_TRIES = 3
"""Wrong PINs a client may type before it has to wait."""

FIRST_WAIT_S = 30.0
LONGEST_WAIT_S = 900.0

GLOBAL_WRONG = 20
"""Wrong PINs from all clients together within :data:`GLOBAL_WINDOW_S` before everyone waits."""

GLOBAL_WINDOW_S = 600.0

MAX_CLIENTS = 1024
"""Clients remembered (the oldest is forgotten first): a flood of addresses cannot fill memory."""


@dataclass(frozen=True)
class PinCheck:
    """The answer to one try: accepted, or refused (wrong, or asked to wait ``retry_after_s``)."""

    ok: bool
    retry_after_s: float = 0.0
    """Seconds before this client may try again (0: now)."""
    wrong: bool = False
    """The PIN was compared and was wrong (False when the try was refused unread)."""
    tries_left: int = 0
    """Tries before the next wait."""


@dataclass
class _Client:
    misses: int = 0
    blocked_until: float = 0.0


class PinGuard:
    """Checks PINs against ``pin()`` (read at each try: a new evening's PIN takes over)."""

    def __init__(self, pin: Callable[[], str], clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self._pin = pin
        self._clock = clock
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._misses: deque[float] = deque()

    def check(self, client: str, typed: str) -> PinCheck:
        """One try from ``client`` (its address)."""
        now = self._clock()
        with self._lock:
            while self._misses and self._misses[0] <= now - GLOBAL_WINDOW_S:
                self._misses.popleft()
            record = self._clients.get(client) or _Client()
            if record.blocked_until > now:
                return PinCheck(False, retry_after_s=record.blocked_until - now)
            if len(self._misses) >= GLOBAL_WRONG:
                return PinCheck(False, retry_after_s=self._misses[0] + GLOBAL_WINDOW_S - now)
            if hmac.compare_digest(typed.encode("utf-8", "replace"), self._pin().encode()):
                self._clients.pop(client, None)
                return PinCheck(True)
            record.misses += 1
            self._misses.append(now)
            wait = 0.0
            if record.misses >= FREE_TRIES:
                wait = min(LONGEST_WAIT_S, FIRST_WAIT_S * 2 ** (record.misses - FREE_TRIES))
                record.blocked_until = now + wait
            self._clients[client] = record
            self._clients.move_to_end(client)
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
            return PinCheck(False, retry_after_s=wait, wrong=True,
                            tries_left=max(0, FREE_TRIES - record.misses))
