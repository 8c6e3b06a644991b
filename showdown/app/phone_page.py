"""The phone pages, wired to what they show: a table's read model (``showdown run --http``), an
event's host (``showdown event host --http``).

Builds the page's parts (:mod:`showdown.web`), draws this evening's PIN from the journal (the
table's page only: the event's page has nothing to write), and starts the page's own process
(:mod:`showdown.web.process`: the unit's thread never shares the interpreter with the phones'
streams). The built-in address (every interface, port 8080) is a convenience: when it cannot be
had, the service runs on without the page and says so. An address asked for (``--http`` or the
configuration's ``[web] http``) that cannot be had stops the start with one clear line.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from dataclasses import dataclass

from showdown.app.errors import UserError
from showdown.event.view import EventSource
from showdown.game.table_model import TableModel
from showdown.game.table_pin import evening_pin
from showdown.web.address import page_url
from showdown.web.event import EVENT_PARTS, EventWatch, Membership
from showdown.web.hub import Hub
from showdown.web.process import PageProcess
from showdown.web.server import WebError, parse_address
from showdown.web.settings import DEFAULT_HTTP, WebSettings
from showdown.web.table import PARTS, TableSource

__all__ = ["EventPage", "PhonePage", "add_http_arguments", "http_address", "serve_event",
           "serve_table"]

log = logging.getLogger(__name__)

def add_http_arguments(parser: argparse.ArgumentParser, *, configured: bool = True,
                       what: str = "the live page for phones") -> None:
    """``--http HOST:PORT`` and ``--no-http`` (``configured``: a configuration file's ``[web]
    http`` is the default, as for ``showdown run``)."""
    group = parser.add_argument_group("the phone page (docs/web.md)")
    where = "the configuration's [web] http, else " if configured else ""
    group.add_argument(
        "--http", metavar="HOST:PORT", default=None, type=_address,
        help=f"serve {what} here (default: {where}{DEFAULT_HTTP}; a port alone means every "
        "interface; 127.0.0.1:0 is any free port on this machine only)")
    group.add_argument("--no-http", action="store_true", help="serve no phone page")


def _address(text: str) -> str:
    """``--http``'s value, refused by argparse before anything starts when it is no address."""
    try:
        parse_address(text)
    except WebError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


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


def http_address(args: argparse.Namespace, web: WebSettings) -> tuple[str | None, bool]:
    """(where to serve the page, None for nowhere; whether it was asked for): ``--no-http``
    and ``[web] enabled = false`` serve none, ``--http`` wins over ``[web] http``."""
    if args.no_http or (not web.enabled and args.http is None):
        return None, False
    if args.http is not None:
        return args.http, True
    return web.http, web.http != DEFAULT_HTTP


def serve_table(table: TableModel[EventSource], address: str, *,
                asked: bool = True) -> PhonePage | None:
    """Serve the table's page at ``address`` from the table's read model; one not ``asked``
    for is given up quietly when it cannot be had (None). A table in an event (now, or later:
    :meth:`~showdown.game.table_model.TableModel.join`) shows the event below its own game."""
    try:
        host, port = parse_address(address)
    except WebError as error:
        raise UserError(f"--http: {error}") from None
    journal = table.session.journal

    def pin() -> str:
        return evening_pin(journal).code

    pin()  # drawn and stored now, so the scoreboard shows the one the page checks
    hub = Hub(PARTS + EVENT_PARTS)  # the event's part stays empty until the table is in one
    unsubscribe = table.subscribe(hub.changed)
    source = TableSource(table)
    pictures: dict[str, Callable[[], object]] = {
        "table": source.picture, "showdown": lambda: table.showdown,
        "event": Membership(table).picture}
    calls: dict[str, Callable[..., object]] = {"pin": pin, "undo": source.undo,
                                               "edit": source.edit}
    served = _start(PageProcess("table", hub, pictures, host, port, calls=calls), asked)
    if served is None:
        unsubscribe()
        return None
    return PhonePage(served[0], pin, served[1], unsubscribe)


@dataclass
class EventPage:
    """The event's page being served: where phones find it, how to stop it."""

    url: str
    server: PageProcess

    def stop(self) -> None:
        """Stop serving."""
        self.server.stop()


def serve_event(source: EventSource, address: str, *, asked: bool = True) -> EventPage | None:
    """Serve the event's page (standings, tables, seating) at ``address``; one not ``asked``
    for is given up quietly when it cannot be had (None)."""
    try:
        host, port = parse_address(address)
    except WebError as error:
        raise UserError(f"--http: {error}") from None
    hub = Hub(EVENT_PARTS)
    watch = EventWatch(source, hub.changed)
    served = _start(PageProcess("event", hub, {"event": watch.picture}, host, port), asked)
    return None if served is None else EventPage(*served)


def _start(server: PageProcess, asked: bool) -> tuple[str, PageProcess] | None:
    """Start ``server``: its page's address, or None when an address not asked for is taken."""
    try:
        server.start()
    except WebError as error:
        if asked:
            raise UserError(f"{error}; choose another with --http HOST:PORT, or --no-http"
                            ) from None
        log.warning("%s: running without the phone page (--http HOST:PORT picks another)",
                    error)
        return None
    url = page_url(server.host, server.port)
    log.info("phone page: %s", url)
    return url, server
