"""``showdown event host``: run an event for the tables of the evening (docs/event.md).

Opens the event in ``--dir`` (or takes up the one there), starts the broker (Mosquitto where
installed, else the embedded one; ``--broker system`` for the venue's Mosquitto under systemd),
announces the event on the LAN by mDNS, and keeps the event journal, the standings and the
seating until stopped (Ctrl-C, SIGTERM, or the window closed). Where a screen is, the host's
window shows the Event screen: the join code with the address the tables type and its QR code,
the standings, every table online or not, the next seating (``--headless``: none). The join
code is written to ``DIR/join-code`` and, on a terminal, printed; it is never logged. The
event's page for phones (standings, the tables online or not, the next seating; docs/web.md) is
served on port 8080 unless ``--no-http``; its address is written to ``DIR/page-url``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import ifaddr

from engine.tournament import TournamentFormat, TournamentSettings
from engine.tournament.formats import TournamentSettingsError
from showdown.app.arguments import int_in_range
from showdown.app.errors import UserError
from showdown.app.phone_page import TournamentPage, add_http_arguments, serve_tournament
from showdown.app.signals import Stopped
from showdown.game.journal import Journal
from showdown.game.names import NameRuleError, check_name
from showdown.game.session import Session
from showdown.playtest.bot_table import NAMES
from showdown.tournament.broker_files import BrokerFiles
from showdown.tournament.brokers import (
    Broker,
    BrokerError,
    BrokerProcess,
    ExternalBroker,
    mosquitto_binary,
)
from showdown.tournament.client_id_plugin import can_build
from showdown.tournament.discovery import Announcement
from showdown.tournament.host import TournamentHost, new_tournament_id
from showdown.tournament.messages import TOURNAMENT_NAME_MAX, TournamentInfo
from showdown.tournament.store import DEFAULT_FOLDER, StoreError
from showdown.web.http_address import DEFAULT_HTTP

NAME = "host"
GROUP = "event"
HELP = "run an event: the broker, the event journal, the standings and the seating"

log = logging.getLogger("showdown.tournament")



def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown event host``."""
    parser.add_argument("--dir", type=Path, default=DEFAULT_FOLDER,
                        help=f"the event's folder: its journal and the broker's files "
                        f"(default {DEFAULT_FOLDER})")
    parser.add_argument("--name", default="Game night", help="the event's name on the screens")
    parser.add_argument("--format", choices=[f.value for f in TournamentFormat], default="free")
    parser.add_argument("--tables", type=int_in_range(1, 100), default=2,
                        help="tables of the event, 1-100 (partners-8: 2)")
    parser.add_argument("--players", default="",
                        help="the players' names, comma-separated (default: four per table)")
    parser.add_argument("--rounds", type=int_in_range(1, 20), default=3,
                        help="Swiss rounds (partners-8 plays 7, free play one evening)")
    parser.add_argument("--hands", type=int_in_range(1, 50), default=4,
                        help="hands in a Swiss round (default 4)")
    parser.add_argument("--target", type=int_in_range(50, 5000), default=500,
                        help="free play: the target of a game (default 500)")
    parser.add_argument("--broker", choices=["auto", "mosquitto", "embedded", "system"],
                        default="auto", help="auto: Mosquitto where installed (with a C "
                        "compiler for its client-id check), else embedded; "
                        "system: the Mosquitto already running (deploy/install.sh --event-host)")
    parser.add_argument("--bind", default="0.0.0.0",
                        help="the broker's address (default: every interface)")
    parser.add_argument("--port", type=int_in_range(1, 65535), default=1883)
    parser.add_argument("--code-minutes", type=float, default=15.0,
                        help="how long a join code is accepted (default 15)")
    parser.add_argument("--no-mdns", action="store_true", help="do not announce on the LAN")
    parser.add_argument("--address", default="",
                        help="the address the tables type, shown with the join code and in "
                        "its QR code (default: --bind, else this machine's LAN address)")
    parser.add_argument("--headless", action="store_true",
                        help="no window: the join code on the terminal and in DIR/join-code")
    parser.add_argument("--fullscreen", action="store_true",
                        help="the window fills the screen (a venue's display, a Pi's panel)")
    parser.add_argument("--json", action="store_true",
                        help="print the host's figures and standings as JSON when stopped")
    parser.add_argument("--keepalive", type=int_in_range(2, 600), default=30,
                        help=argparse.SUPPRESS)
    add_http_arguments(parser, configured=False)


def tournament_info(args: argparse.Namespace) -> TournamentInfo:
    """The event the options describe (UserError naming what does not fit)."""
    form = TournamentFormat(args.format)
    tables = tuple(f"t{n}" for n in range(1, args.tables + 1))
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    try:  # the rule every table's game applies, said here rather than by a table mid-event
        for name in players:
            check_name(name, "--players: player name")
        check_name(args.name, "--name: the event's name", limit=TOURNAMENT_NAME_MAX)
    except NameRuleError as error:
        raise UserError(str(error)) from None
    if not players:
        count = 8 if form is TournamentFormat.PARTNERS_8 else 4 * args.tables
        players = tuple(f"{NAMES[i % len(NAMES)]}{'' if i < len(NAMES) else i // len(NAMES)}"
                        for i in range(count))
    try:
        if form is TournamentFormat.PARTNERS_8:
            if len(tables) != 2:
                raise UserError(f"partners-8 is played at two tables, not {len(tables)}")
            settings = TournamentSettings.partners_8(players, (tables[0], tables[1]))
        elif form is TournamentFormat.SWISS:
            settings = TournamentSettings(form, players, tables, rounds=args.rounds,
                                          hands_per_round=args.hands)
        else:
            settings = TournamentSettings(form, players, tables, target=args.target)
    except TournamentSettingsError as error:
        raise UserError(str(error)) from None
    return TournamentInfo(event=new_tournament_id(), name=args.name, format=form.value,
                          players=list(settings.players), tables=list(settings.tables),
                          rounds=settings.rounds, hands_per_round=settings.hands_per_round,
                          target=settings.target)


def make_broker(kind: str, files: BrokerFiles, bind: str, port: int, folder: Path) -> Broker:
    """The broker the host uses (started, for one it runs itself)."""
    if kind == "system":
        return ExternalBroker("127.0.0.1" if bind in ("0.0.0.0", "") else bind, port)
    if kind == "auto":
        kind = "mosquitto" if mosquitto_binary() is not None and can_build() else "embedded"
    process = BrokerProcess(kind, files, bind=bind, port=port, log=folder / "broker.log")
    try:
        process.start()
    except BrokerError as error:
        raise UserError(str(error)) from None
    process.supervise()  # a broker that dies is started again; the tables reconnect
    if bind in ("0.0.0.0", ""):
        process.host = "127.0.0.1"  # the host itself connects over the loopback
    return process


def run(args: argparse.Namespace) -> int:
    """Run the event until stopped."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    folder: Path = args.dir
    info = None if (folder / "event.db").exists() else tournament_info(args)
    files = BrokerFiles(folder)
    try:
        host = TournamentHost(folder, ExternalBroker("127.0.0.1", args.port), info=info,
                              code_minutes=args.code_minutes, keepalive=args.keepalive)
    except (ValueError, StoreError) as error:  # StoreError: a damaged event journal, named
        raise UserError(str(error)) from None
    host.write_broker_files()  # before the broker starts: it reads them at start
    broker = make_broker(args.broker, files, args.bind, args.port, folder)
    host.broker = broker
    host.connection.host, host.connection.port = broker.host, broker.port
    announcement = None
    page: TournamentPage | None = None
    window: Any = None
    stop = threading.Event()
    try:
        host.start()
        if not host.wait_connected(20):
            raise UserError(f"the host cannot reach the broker at {broker.host}:{broker.port} "
                            f"({host.connection.refused or 'no answer'})")
        address = args.address or lan_address(args.bind)
        host.address = address if broker.port == 1883 else f"{address}:{broker.port}"
        if not args.no_mdns:
            announcement = _announce(host, address, broker.port)
        # The built-in address is given up quietly when it is taken. The host does not wait for
        # its page's process: on a starved Pi its start outlasted the page's own time limit and
        # the host ended, again and again, its tables waiting for a join code meanwhile.
        if not args.no_http:
            page = serve_tournament(host, args.http or DEFAULT_HTTP, asked=args.http is not None,
                                    wait=False)
        _show_page(folder, page)
        window = None if args.headless else _window(host, folder, args.fullscreen)
        shown = None
        log.info("event %s (%s, %s): %d tables, %d players; the broker is %s on port %d",
                 host.info.event, host.info.name, host.info.format, len(host.info.tables),
                 len(host.info.players), broker.name, broker.port)
        while _wait(window, stop):
            host.tick()
            code = host.join_code.code.get_secret_value()
            if code != shown:
                shown = code
                _show_code(folder, f"{code}@{host.address}")
    except Stopped as stopped:
        log.info("%s received: stopping the event (it goes on at the next start)", stopped.name)
    finally:
        if window is not None:
            window.close()
        if page is not None:
            page.stop()
        if announcement is not None:
            announcement.close()
        summary = host.summary()
        host.stop()
        broker.stop()
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    return 0


def _show_code(folder: Path, text: str) -> None:
    """``CODE@HOST[:PORT]`` into ``DIR/join-code`` (mode 0600) and, on a terminal, printed."""
    code = text.partition("@")[0]
    path = folder / "join-code"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text + "\n")
    if sys.stdout.isatty():
        print(f"join code: {code}  (showdown run --event {text})", flush=True)


def _show_page(folder: Path, page: TournamentPage | None) -> None:
    """The page's address in ``DIR/page-url`` (gone when there is none), and on a terminal."""
    path = folder / "page-url"
    if page is None:
        path.unlink(missing_ok=True)
        return
    path.write_text(page.url + "\n")
    log.info("the event's page for phones: %s", page.url)
    if sys.stdout.isatty():
        print(f"phones: {page.url}", flush=True)


def lan_address(bind: str) -> str:
    """The address the tables reach this host at: ``--bind`` when it names one, else the first
    IPv4 address of a network interface that is not the loopback nor link-local (the
    host name's own address is 127.0.1.1 on Debian), else the loopback."""
    if bind not in ("0.0.0.0", ""):
        return bind
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str) and not ip.ip.startswith(("127.", "169.254.")):
                return ip.ip
    return "127.0.0.1"


def _window(host: TournamentHost, folder: Path, fullscreen: bool) -> Any:
    """The host's window on the Event screen, or None where no screen is (said in the log).
    Its journal keeps only the window's language."""
    try:
        display = importlib.import_module("showdown.scoreboard.display")
        display.check_environment()
        play = importlib.import_module("showdown.app.scoreboard_main")
        journal = Journal.open(folder / "screen.db", writable=True)
    except ImportError:
        log.info("no scoreboard in this installation: the join code is in %s",
                 folder / "join-code")
        return None
    except Exception as error:  # no screen here: the terminal and the file say the code
        log.info("no window for the event (%s): the join code is in %s", error,
                 folder / "join-code")
        return None
    try:
        board = play.build_scoreboard(Session(journal), fullscreen=fullscreen, event=host)
    except Exception as error:
        journal.close()
        log.info("no window for the event (%s): the join code is in %s", error,
                 folder / "join-code")
        return None
    board.screens["event"].setup_back = False
    board.go("event")
    board.on_close.insert(0, journal.close)
    return board


def _wait(window: Any, stop: threading.Event) -> bool:
    """A second of the event: the window drawn and its taps handled meanwhile. False once
    the window is closed (or Esc on a keyboard)."""
    if window is None:
        return not stop.wait(1.0)
    deadline = time.monotonic() + 1.0
    while (left := deadline - time.monotonic()) > 0:
        if not window.pump(int(left * 1000) + 1):
            return False
    return True


def _announce(host: TournamentHost, address: str, port: int) -> Announcement | None:
    try:
        return Announcement(host.info.event, host.info.name, address, port)
    except OSError as error:
        log.warning("cannot announce the event by mDNS (%s): tables type the address", error)
        return None
