"""Who to tell when something changed: the one subscribe-and-unsubscribe list, so that the unit's
state machine, the session, the table's read model, the event's host and link and the scoreboard's
language all subscribe, unsubscribe and tell alike, safely across threads.

It sits in the unit, the lowest layer all of them may import. A publisher keeps one
:class:`Listeners`, hands :meth:`Listeners.subscribe` on as its own ``subscribe``, and calls
:meth:`Listeners.tell` when it has news. Listeners are told in the order they subscribed, on the
publisher's thread, with the list copied first: one may subscribe or unsubscribe while told.

    >>> heard = []
    >>> news: Listeners[[str]] = Listeners()
    >>> stop = news.subscribe(heard.append)
    >>> news.tell("table")
    >>> stop(); stop()  # twice is harmless
    >>> news.tell("showdown")
    >>> heard
    ['table']
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Concatenate, Generic, ParamSpec

__all__ = ["Listeners"]

P = ParamSpec("P")


class Listeners(Generic[P]):
    """Callables taking ``P``, told in the order they subscribed.

    ``lock`` guards the list: the publisher's own lock (a :class:`threading.RLock` when the list
    is touched while the publisher holds it) keeps a subscription from slipping between the
    publisher's own steps; without one, the list has its own. ``failed``, given, is called with
    the listener that raised and what it was told, inside the ``except`` (so
    :meth:`logging.Logger.exception` records the error), and the others are still told; without
    it, a listener's exception reaches the publisher.
    """

    def __init__(self, *, lock: AbstractContextManager[object] | None = None,
                 failed: Callable[Concatenate[Callable[P, object], P], None] | None = None
                 ) -> None:
        self._lock: AbstractContextManager[object] = lock if lock is not None else threading.Lock()
        self._failed = failed
        self._listeners: list[Callable[P, object]] = []

    def subscribe(self, listener: Callable[P, object]) -> Callable[[], None]:
        """Tell ``listener`` from now on; returns a function that unsubscribes it (calling that
        again does nothing)."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def tell(self, *args: P.args, **kwargs: P.kwargs) -> None:
        """Call every listener subscribed now with ``args``, in order, outside the lock."""
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            if self._failed is None:
                listener(*args, **kwargs)
                continue
            try:
                listener(*args, **kwargs)
            except Exception:
                self._failed(listener, *args, **kwargs)
