"""The phone pages put together from what they show, so the command line only says where.

A table's page draws the table's read model and takes corrections with this evening's PIN; an
event's page draws the host's standings, tables and seating and takes nothing. Each runs in a
page process of its own (:mod:`showdown.web.process`: the unit's thread never shares the
interpreter with the phones' streams). Starting one raises :class:`~showdown.web.server.WebError`
when its address cannot be had; what to do then is the command line's business.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from showdown.game.table_model import TableModel
from showdown.game.table_pin import TablePin
from showdown.tournament.view import TournamentSource
from showdown.web.address import page_url
from showdown.web.connections import Limits
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.process import PageProcess
from showdown.web.table import PARTS, TableSource
from showdown.web.tournament import TOURNAMENT_PARTS, Membership, TournamentWatch

__all__ = ["PhonePage", "TournamentPage", "table_page", "tournament_page"]


@dataclass
class PhonePage:
    """A page being served: where phones find it, the PIN for corrections, how to stop it."""

    url: str
    pin: Callable[[], str]
    server: PageProcess
    unsubscribe: Callable[[], None]
    """Stops the page hearing the table's read model."""

    def stop(self) -> None:
        """Stop serving and stop hearing the table."""
        self.server.stop()
        self.unsubscribe()


@dataclass
class TournamentPage:
    """The event's page being served: where phones find it, how to stop it."""

    url: str
    server: PageProcess

    def stop(self) -> None:
        """Stop serving."""
        self.server.stop()


def table_page(table: TableModel[TournamentSource], host: str, port: int, *,
               trusted: tuple[str, ...] = (), limits: Limits | None = None,
               clock: Callable[[], float] = time.monotonic,
               pause: Callable[[float], object] | None = None,
               wait: bool = True) -> PhonePage:
    """Serve the table's page on ``host:port`` from the table's read model. A table in an event
    (now, or later: :meth:`~showdown.game.table_model.TableModel.join`) shows the event below
    its own game. The evening's PIN is drawn and stored first, so the scoreboard shows the one
    the page checks; its keeper (the sessions, the wrong PINs counted) stays in this process.
    ``trusted``: the proxies whose forwarded headers name a client; ``limits``, ``clock`` and
    ``pause``: :class:`~showdown.web.process.PageProcess`'s (``clock`` times the PIN's keeper
    too). Without ``wait``, return once the address is bound and the page's process launched
    (:meth:`~showdown.web.process.PageProcess.start`): the service's start does not wait for
    it."""
    pin = TablePin(table.session.journal).code
    guard = PinGuard(pin, clock=clock)
    hub = Hub(PARTS + TOURNAMENT_PARTS)  # the event's part stays empty until the table is in one
    unsubscribe = table.subscribe(hub.changed)
    source = TableSource(table)
    pictures: dict[str, Callable[[], object]] = {
        "table": source.picture, "showdown": lambda: table.showdown,
        "event": Membership(table).picture}
    calls: dict[str, Callable[..., object]] = {
        "login": guard.login, "token": guard.token, "admit": guard.admit,
        "undo": source.undo, "edit": source.edit}
    server = PageProcess("table", hub, pictures, host, port, calls=calls, trusted=trusted,
                         limits=limits, clock=clock, pause=pause)
    try:
        server.start(wait=wait)
    except BaseException:
        unsubscribe()
        raise
    return PhonePage(page_url(server.host, server.port), pin, server, unsubscribe)


def tournament_page(source: TournamentSource, host: str, port: int, *,
                    wait: bool = True) -> TournamentPage:
    """Serve the event's page (standings, tables, seating) on ``host:port``; without ``wait``,
    return once the address is bound (:meth:`~showdown.web.process.PageProcess.start`)."""
    hub = Hub(TOURNAMENT_PARTS)
    watch = TournamentWatch(source, hub.changed)
    server = PageProcess("event", hub, {"event": watch.picture}, host, port)
    server.start(wait=wait)
    return TournamentPage(page_url(server.host, server.port), server)
