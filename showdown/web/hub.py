"""Changes told from any thread, waited for on the server's event loop.

The session answers on whatever thread sent a command and the unit's events arrive on its back
end's thread; neither may wait for a web client. :meth:`Hub.changed` only counts the change,
stamps it and wakes the loop (``call_soon_threadsafe``); each page's stream then renders what
changed since it last sent, on the loop's thread. Many changes in a burst become one message.

The same counts feed the page's own process (:mod:`showdown.web.process`): there a thread of the
service waits for them with :meth:`Hub.wait_blocking`, and the page's hub takes the service's
versions as they are (:meth:`Hub.update`), stamps included.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Hub", "Versions"]


@dataclass(frozen=True)
class Versions:
    """How many times each part of the page changed, and when the latest change was made."""

    parts: tuple[tuple[str, int, float], ...]
    """(part, version, wall-clock time in s of its latest change), in a fixed order."""

    def version(self, part: str) -> int:
        """The version of ``part`` (0: unknown)."""
        return next((v for name, v, _at in self.parts if name == part), 0)

    def stamp(self, part: str) -> float:
        """When ``part`` last changed (s since the epoch; 0: unknown)."""
        return next((at for name, _v, at in self.parts if name == part), 0.0)


class Hub:
    """Versions of the page's parts; :meth:`wait` returns when any moved on."""

    def __init__(self, parts: tuple[str, ...], clock: Callable[[], float] = time.time) -> None:
        self._lock = threading.Condition()
        self._clock = clock
        now = clock()
        self._versions = {part: (1, now) for part in parts}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wakeup: asyncio.Event | None = None
        self.closing = False
        """Set when the server stops: every stream ends."""

    @property
    def versions(self) -> Versions:
        """The versions now."""
        with self._lock:
            return Versions(self._parts())

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called on ``loop`` when the server starts: wake-ups go there from now on."""
        with self._lock:
            self._loop = loop
            self._wakeup = asyncio.Event()

    def changed(self, *parts: str) -> None:
        """``parts`` changed (any thread, never waits)."""
        with self._lock:
            now = self._clock()
            for part in parts:
                self._versions[part] = (self._versions.get(part, (0, now))[0] + 1, now)
            loop = self._loop
            self._lock.notify_all()
        self._wake_loop(loop)

    def update(self, versions: Versions) -> None:
        """Take ``versions`` (another hub's, stamps included) as they are (any thread)."""
        with self._lock:
            for part, version, at in versions.parts:
                self._versions[part] = (version, at)
            loop = self._loop
            self._lock.notify_all()
        self._wake_loop(loop)

    def _wake_loop(self, loop: asyncio.AbstractEventLoop | None) -> None:
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits
                loop.call_soon_threadsafe(self._wake)

    def close(self) -> None:
        """The server stops: wake every stream so it ends."""
        with self._lock:
            self.closing = True
        self.changed()

    def _wake(self) -> None:
        if self._wakeup is not None:
            self._wakeup.set()
            self._wakeup = asyncio.Event()

    async def wait(self, seen: Versions, timeout_s: float) -> Versions:
        """The versions once they differ from ``seen`` (or after ``timeout_s``)."""
        now = self.versions
        if now.parts != seen.parts or self.closing:
            return now
        event = self._wakeup
        if event is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout_s)
        return self.versions

    def wait_blocking(self, seen: Versions | None, timeout_s: float) -> Versions:
        """:meth:`wait` for a thread: the versions once they differ from ``seen`` (None: at
        once), on closing, or after ``timeout_s``."""
        with self._lock:
            self._lock.wait_for(lambda: seen is None or self.closing
                                or self._parts() != seen.parts, timeout_s)
            return Versions(self._parts())

    def _parts(self) -> tuple[tuple[str, int, float], ...]:
        return tuple((part, v, at) for part, (v, at) in self._versions.items())
