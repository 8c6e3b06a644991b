"""Who may correct the score from a phone: whoever typed the table's PIN, for a short while, one
correction at a time.

The PIN is typed once (:meth:`PinGuard.login`) and exchanged for a session: a random id the page
keeps in an HttpOnly, SameSite=Strict cookie, good for :data:`SESSION_S` after its last use and
never past the evening's PIN. Each correction then carries a one-time token of that session
(:meth:`PinGuard.admit` spends it and gives the next), so a request sent again, by a phone or by
anyone who saw it go by, is refused and changes nothing.

Four digits are 10,000 guesses, so a wrong PIN costs its sender (docs/web.md argues the design):

- per client: three free tries, then a wait of 30 s that doubles with each further miss, up to
  15 minutes. A client is its IPv4 address, or the /64 network of its IPv6 address (a phone
  picks any address it likes inside its /64, a guesser too);
- for everyone together: once :data:`ALARM_MISSES` misses came within :data:`ALARM_WINDOW_S`,
  the table is being guessed at. Until that calms down, a client that missed waits, and a client
  that has not missed yet gets one try: the right PIN is let in (a player's new phone, the
  table's own players are never locked out by a stranger), a wrong one makes it wait too. So
  many addresses guessing together get one guess each, not an evening of them.

A right PIN clears its client's count. The PIN itself is compared in constant time and never
logged.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["ALARM_MISSES", "ALARM_WINDOW_S", "FREE_TRIES", "SESSION_S", "Admission", "Guard",
           "Login", "PinGuard", "client_key"]

FREE_TRIES = 3
"""Wrong PINs a client may type before it has to wait."""

FIRST_WAIT_S = 30.0
LONGEST_WAIT_S = 900.0

ALARM_MISSES = 20
"""Wrong PINs from all clients together within :data:`ALARM_WINDOW_S` that mean the table is
being guessed at."""

ALARM_WINDOW_S = 600.0

SESSION_S = 600.0
"""How long a session lasts after it was last used (ten minutes: a correction takes one)."""

MAX_CLIENTS = 1024
"""Clients remembered (the oldest is forgotten first): a flood of addresses cannot fill memory."""

MAX_SESSIONS = 256
"""Sessions kept (the oldest is dropped first): more phones than ever sit round a table."""


@dataclass(frozen=True)
class Login:
    """The answer to one PIN typed: a session and its first token, or a refusal."""

    ok: bool
    session: str = field(default="", repr=False)
    """The session's id, for the cookie (when ``ok``)."""
    token: str = field(default="", repr=False)
    """The session's first one-time token (when ``ok``)."""
    retry_after_s: float = 0.0
    """Seconds before this client may try again (0: now)."""
    wrong: bool = False
    """The PIN was compared and was wrong (False when the try was refused unread)."""
    tries_left: int = 0
    """Tries before the next wait."""


@dataclass(frozen=True)
class Admission:
    """The answer to one correction's token: let in (with the session's next token), or not."""

    ok: bool
    token: str = field(default="", repr=False)
    """The session's next one-time token (when ``ok``)."""
    known: bool = True
    """False: no such session now (over, or never opened): the PIN is needed again."""


class Guard(Protocol):
    """What the page asks of the PIN's keeper: :class:`PinGuard`, or its stand-in in the page's
    own process (:mod:`showdown.web.process`), which asks the service's."""

    def login(self, client: str, typed: str) -> Login:
        """One PIN typed by ``client`` (its address)."""
        ...

    def token(self, session: str) -> str | None:
        """A new one-time token for ``session`` (the one it had is void); None: no such session
        now."""
        ...

    def admit(self, session: str, token: str) -> Admission:
        """Spend ``token`` of ``session`` on one correction (refused when it was spent
        already, or is another session's, or the session is over)."""
        ...


def client_key(address: str) -> str:
    """Who a try counts against: an IPv4 address, the /64 of an IPv6 one.

    >>> client_key("192.0.2.7"), client_key("2001:db8:0:1:aaaa::9"), client_key("::ffff:10.0.0.2")
    ('192.0.2.7', '2001:db8:0:1::/64', '10.0.0.2')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass
class _Client:
    misses: int = 0
    blocked_until: float = 0.0


@dataclass
class _Session:
    pin: str = field(repr=False)
    """The PIN it was opened with: a new evening's PIN ends it."""
    token: str = field(repr=False)
    used: float = 0.0


class PinGuard:
    """Checks PINs against ``pin()`` (read at each try: a new evening's PIN takes over, and ends
    the sessions opened with the last one), and keeps the sessions."""

    def __init__(self, pin: Callable[[], str], clock: Callable[[], float] = time.monotonic,
                 secret: Callable[[], str] = lambda: secrets.token_urlsafe(24)) -> None:
        self._pin = pin
        self._clock = clock
        self._secret = secret
        self._lock = threading.Lock()
        self._clients: OrderedDict[str, _Client] = OrderedDict()
        self._misses: deque[float] = deque()
        self._sessions: OrderedDict[str, _Session] = OrderedDict()

    def login(self, client: str, typed: str) -> Login:
        """One PIN typed by ``client`` (its address; see the module docstring)."""
        key = client_key(client)
        now = self._clock()
        with self._lock:
            while self._misses and self._misses[0] <= now - ALARM_WINDOW_S:
                self._misses.popleft()
            record = self._clients.get(key) or _Client()
            if record.blocked_until > now:
                return Login(False, retry_after_s=record.blocked_until - now)
            if self._alarm() and record.misses:
                return Login(False, retry_after_s=self._calm(now))
            pin = self._pin()
            if hmac.compare_digest(typed.encode("utf-8", "replace"), pin.encode()):
                self._clients.pop(key, None)
                return self._open(pin, now)
            record.misses += 1
            self._misses.append(now)
            wait = 0.0
            if record.misses >= FREE_TRIES:
                wait = min(LONGEST_WAIT_S, FIRST_WAIT_S * 2 ** (record.misses - FREE_TRIES))
            if self._alarm():
                wait = max(wait, self._calm(now))
            record.blocked_until = now + wait
            self._clients[key] = record
            self._clients.move_to_end(key)
            while len(self._clients) > MAX_CLIENTS:
                self._clients.popitem(last=False)
            return Login(False, retry_after_s=wait, wrong=True,
                         tries_left=0 if wait else max(0, FREE_TRIES - record.misses))

    def _alarm(self) -> bool:
        return len(self._misses) >= ALARM_MISSES

    def _calm(self, now: float) -> float:
        """Seconds until fewer than :data:`ALARM_MISSES` misses are left in the window, if no
        other comes meanwhile."""
        return self._misses[len(self._misses) - ALARM_MISSES] + ALARM_WINDOW_S - now

    def _open(self, pin: str, now: float) -> Login:
        session, token = self._secret(), self._secret()
        self._sessions[session] = _Session(pin, token, now)
        while len(self._sessions) > MAX_SESSIONS:
            self._sessions.popitem(last=False)
        return Login(True, session=session, token=token)

    def _live(self, session: str, now: float) -> _Session | None:
        """``session`` if it is still good (its evening's PIN, used recently enough)."""
        found = self._sessions.get(session)
        if found is None:
            return None
        if now - found.used > SESSION_S or not hmac.compare_digest(found.pin, self._pin()):
            del self._sessions[session]
            return None
        return found

    def token(self, session: str) -> str | None:
        """A new one-time token for ``session`` (the one it had is void); None: no such session
        now."""
        now = self._clock()
        with self._lock:
            found = self._live(session, now)
            if found is None:
                return None
            found.token = self._secret()
            return found.token

    def admit(self, session: str, token: str) -> Admission:
        """Spend ``token`` of ``session`` on one correction (refused when it was spent
        already, or is another session's, or the session is over)."""
        now = self._clock()
        with self._lock:
            found = self._live(session, now)
            if found is None:
                return Admission(False, known=False)
            if not hmac.compare_digest(found.token.encode(), token.encode("utf-8", "replace")):
                return Admission(False)
            found.token = self._secret()
            found.used = now
            self._sessions.move_to_end(session)
            return Admission(True, token=found.token)
