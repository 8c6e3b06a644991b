"""Where the phone pages are served, as the command line says it (``--http``, ``--no-http``,
the configuration's ``[web] http``), and what happens when that address cannot be had.

The pages themselves are put together in :mod:`showdown.web.pages`. The built-in address (every
interface, port 8080) is a convenience: when it cannot be had, the service runs on without the
page and says so. An address asked for that cannot be had stops the start with one clear line.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import TypeVar

from showdown.app.errors import UserError
from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource
from showdown.web.http_address import DEFAULT_HTTP, WebSettings
from showdown.web.pages import PhonePage, TournamentPage, table_page, tournament_page
from showdown.web.server import DEFAULT_PORT, WebError, parse_address

__all__ = [
    "PhonePage",
    "TournamentPage",
    "add_http_arguments",
    "http_address",
    "serve_table",
    "serve_tournament",
]

log = logging.getLogger(__name__)

Page = TypeVar("Page", PhonePage, TournamentPage)

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


def http_address(args: argparse.Namespace, web: WebSettings) -> tuple[str | None, bool]:
    """(where to serve the page, None for nowhere; whether it was asked for): ``--no-http``
    and ``[web] enabled = false`` serve none, ``--http`` wins over ``[web] http``. A simulator
    asked for on the command line (``--sim``, ``--interactive``: a developer's machine, ``make
    run``) serves this machine only unless told otherwise, so trying the program opens nothing to
    the network."""
    if args.no_http or (not web.enabled and args.http is None):
        return None, False
    if args.http is not None:
        return args.http, True
    if web.http == DEFAULT_HTTP and (getattr(args, "sim", False)
                                     or getattr(args, "interactive", False)):
        return f"127.0.0.1:{DEFAULT_PORT}", False
    return web.http, web.http != DEFAULT_HTTP


def serve_table(table: TableModel[TournamentSource], address: str, *,
                asked: bool = True, trusted: tuple[str, ...] = (),
                wait: bool = True) -> PhonePage | None:
    """Serve the table's page at ``address`` (:func:`showdown.web.pages.table_page`); one not
    ``asked`` for is given up quietly when it cannot be had (None). ``trusted``: the proxies
    whose forwarded headers name a client (the configuration's ``[web] trusted_proxies``).
    Without ``wait``, return once the address is had and the page's process launched (the
    service's start)."""
    host, port = _where(address)
    return _started(lambda: table_page(table, host, port, trusted=trusted, wait=wait), asked)


def serve_tournament(source: TournamentSource, address: str, *, asked: bool = True,
                     wait: bool = True) -> TournamentPage | None:
    """Serve the event's page at ``address`` (:func:`showdown.web.pages.tournament_page`); one not
    ``asked`` for is given up quietly when it cannot be had (None). Without ``wait``, return
    once the address is had and the page's process launched (the event host's start)."""
    host, port = _where(address)
    return _started(lambda: tournament_page(source, host, port, wait=wait), asked)


def _where(address: str) -> tuple[str, int]:
    try:
        return parse_address(address)
    except WebError as error:
        raise UserError(f"--http: {error}") from None


def _started(start: Callable[[], Page], asked: bool) -> Page | None:
    """The page *start* serves, or None when an address not asked for is taken; an address
    asked for that cannot be had stops the start in one line."""
    try:
        page = start()
    except WebError as error:
        if asked:
            raise UserError(f"{error}; choose another with --http HOST:PORT, or --no-http"
                            ) from None
        log.warning("%s: running without the phone page (--http HOST:PORT picks another)",
                    error)
        return None
    log.info("phone page: %s", page.url)
    return page
