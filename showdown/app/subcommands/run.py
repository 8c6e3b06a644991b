"""``showdown run``: the service - the unit, its state machine, the session and the journal.

On a Raspberry Pi it drives the unit on the Pi's pins (gpiozero) and records each showdown the
unit settles. Anywhere else, or with ``--sim``, it runs the simulated unit with virtual players:
bots play UNO by the engine's rules, every showdown runs through the real state machine, and the
score is kept exactly as at a real table, in the simulator's own journal (``--db`` names another):
a game nobody played never joins the table's games. One log line says which back end and why.

It stops cleanly on Ctrl-C (SIGINT), SIGTERM, SIGHUP and SIGUSR2, at any moment, even while
starting: the table stops at its next entry, the unit's outputs go safe, the journal is
closed. SIGUSR1 does not stop it: it asks for a stats line (:mod:`showdown.app.stats`), which
the service also logs once a minute. The open game resumes on the next start. One journal has
one service: a second one on the same file is refused at start, naming the process that holds
it.

:func:`_run` is the composition root: the service is put together from the parts in
:mod:`showdown.app.parts` (the table, the event link, the unit source, the front ends), each
registering its closing under a named phase of one
:class:`~showdown.app.parts.shutdown.Shutdown`, which closes them in the documented order however
the loop ended (docs/architecture.md, "The service, put together").
"""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from pydantic import ValidationError

from engine.rules import PRESETS, preset
from engine.scoring import PIG_MODES, ScoringMode, ScoringSettings
from showdown.app.arguments import GAMES_MAX, int_in_range, seed, table_name, window_size
from showdown.app.config import Settings, load_settings
from showdown.app.errors import UserError
from showdown.app.parts.front_ends import (
    ScoreboardFront,
    open_phone_page,
    open_scoreboard,
    window_or_refuse,
)
from showdown.app.parts.shutdown import Phase, Shutdown
from showdown.app.parts.table import Table, open_table
from showdown.app.parts.tournament_link import TOURNAMENT_SCORING, open_tournament_link
from showdown.app.parts.unit_source import (
    UnitSource,
    choose_backend,
    open_keyboard,
    open_real,
    open_simulated,
)
from showdown.app.phone_page import PhonePage, add_http_arguments, http_address
from showdown.app.sd_notify import ServiceHeartbeat
from showdown.app.service import Service
from showdown.app.signals import Stopped, stop_signals
from showdown.app.startup import STALL_S, StartTimes, stop_watching_imports
from showdown.app.stats import StatsLogger
from showdown.app.status import StatusPrinter
from showdown.game.messages import SetUpGame
from showdown.game.names import default_name
from showdown.game.storage import add_db_argument, db_path, simulated_path
from showdown.game.table_model import TableModel
from showdown.playtest.bot_table import TableError
from showdown.playtest.workers import Bots, bot_worker
from showdown.tournament.view import TournamentSource
from showdown.unit.config import TimingConfig

__all__ = ["banner", "choose_backend", "first_game", "phone_line", "run", "simulated_scoring"]

NAME = "run"
GROUP = None
HELP = "run the service: the unit (or its simulator), the session and the journal"

log = logging.getLogger("showdown.run")

PIGS_MAX = 99
ROUNDS_MAX = 1_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown run``."""
    parser.add_argument(
        "--config", type=Path, help="TOML configuration (default: $SHOWDOWN_CONFIG)"
    )
    add_db_argument(parser)
    parser.add_argument(
        "--sim", action="store_true",
        help="use the simulated unit with virtual players; its games go to a journal of their "
        "own beside the table's (showdown-simulated.db) unless --db names one",
    )
    parser.add_argument(
        "--headless", action="store_true", help="no scoreboard: a live status in the terminal"
    )
    parser.add_argument(
        "--size", default="800x480",
        help="scoreboard window size WxH (default 800x480; a Raspberry Pi's panel is always "
        "filled); with --interactive the unit's panel is added at the right, and both are "
        "scaled down to fit a smaller screen")
    parser.add_argument(
        "--interactive", action="store_true",
        help="with --sim: no virtual players; the simulated unit is drawn beside the scoreboard "
        "and played from the keyboard (A left paddle, L right paddle, Space timer button)",
    )
    event = parser.add_argument_group("game night (docs/event.md)")
    event.add_argument(
        "--event", metavar="CODE@HOST",
        help="join the event whose code the host's screen shows (CODE@HOST[:PORT]; CODE alone "
        "finds the host on the LAN by mDNS); a journal that joined before reconnects by itself")
    event.add_argument("--table-name", default="", type=table_name,
                       help="this table's name at the event")
    event.add_argument("--event-keepalive", type=int_in_range(2, 600), default=30,
                       help=argparse.SUPPRESS)
    event.add_argument("--event-resend-s", type=float, default=10.0, help=argparse.SUPPRESS)
    add_http_arguments(parser)
    sim = parser.add_argument_group("simulated table (with --sim or off a Pi)")
    sim.add_argument(
        "--games", type=int_in_range(0, GAMES_MAX), default=0,
        help="stop after this many games (0: never)"
    )
    sim.add_argument("--players", type=int, default=4, help="virtual players, 2-10 (default 4)")
    sim.add_argument("--seed", type=seed, default=1, help="seed for shuffles, bots and players")
    sim.add_argument(
        "--preset", default="showdown", help=f"rules: {', '.join(PRESETS)} (default showdown)"
    )
    sim.add_argument(
        "--scoring", default="standard", choices=[str(m) for m in ScoringMode], metavar="MODE",
        help=f"scoring mode: {', '.join(ScoringMode)} (default standard); hero and mean "
        "(002's pigs) need --pigs, --rounds or both",
    )
    sim.add_argument("--pigs", type=int_in_range(1, PIGS_MAX),
                     help="hero and mean scoring: the game ends when a player has this many pigs")
    sim.add_argument("--rounds", type=int_in_range(1, ROUNDS_MAX),
                     help="the game ends after this many rounds (with a target: whichever first)")
    sim.add_argument(
        "--fast", action="store_true", help="skip the countdown's waiting (the unit's clock jumps)"
    )
    sim.add_argument(
        "--speed", type=float, default=1.0,
        help="the simulated unit's time runs this many times faster than real time (default 1; "
        "make run uses 2, so a round is scored within about a minute)",
    )


def run(args: argparse.Namespace) -> int:
    """Build the parts, run the main loop, shut down in order."""
    # A stop signal from here on is only noted until the service runs: the parts being built are
    # then closed in order (outputs safe first) instead of being left half made by an exception.
    stop_signals.route(lambda _signum: None)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    stats = StatsLogger()
    running: list[Service] = []
    if threading.current_thread() is threading.main_thread():  # only there can it handle signals
        signal.signal(signal.SIGUSR1, _stats_on_signal(stats, running))
    try:
        stop_signals.check()
        return _run(args, stats, running)
    except Stopped as stopped:
        log.info("%s received while starting: stopped; every output is safe", stopped.name)
        return 0
    finally:
        stop_signals.route(None)


def _run(args: argparse.Namespace, stats: StatsLogger, running: list[Service]) -> int:
    """The composition root: the parts opened onto one shutdown, the loop run, the shutdown's
    phases closed in their order however the loop ended (or the start failed)."""
    heartbeat = ServiceHeartbeat.from_environ()  # systemd: READY, WATCHDOG per tick, STOPPING
    # each phase of the start tells systemd it goes on (systemctl status names it), and once
    # ready one line says how long each took (showdown.app.startup)
    start = StartTimes.of_this_process(
        on_phase=lambda phase: heartbeat.starting(phase, within_s=STALL_S))
    start.phase("the configuration")
    plan = _plan(args)
    stop_signals.check()  # a stop signal meanwhile: unwind here
    with Shutdown() as shutdown:
        start.phase("the journal")
        table = open_table(plan.path, plan.settings.storage, shutdown)
        parts = _assemble(args, plan, table, stats, shutdown, heartbeat=heartbeat, start=start)
        running.append(parts.service)
        code = _serve(args, plan, parts)
    log.info("stopped; every output is safe and the journal is closed")
    if parts.service.problem is not None:
        print(f"showdown: error: {parts.service.problem}", file=sys.stderr, flush=True)
    return code


@dataclass(frozen=True)
class _Plan:
    """What the command line and the configuration chose, checked before any file is made."""

    settings: Settings
    use_sim: bool
    why: str
    """Why this unit (the one log line about the back end says it)."""
    scoring: ScoringSettings
    path: Path


@dataclass(frozen=True)
class _Parts:
    """The service put together, and what its start says once it runs."""

    service: Service
    heartbeat: ServiceHeartbeat
    start: StartTimes
    status: StatusPrinter
    output: _OutputWatch
    scoreboard: ScoreboardFront | None
    phone: PhonePage | None


def _plan(args: argparse.Namespace) -> _Plan:
    """Every check of the command line that needs no file, in the order they always ran (the
    first mistake is the one said)."""
    _check_simulated_table(args)
    scoring = simulated_scoring(args)
    if args.event is not None and _own_scoring(args):
        raise UserError(TOURNAMENT_SCORING)
    args.size = window_size(args.size)
    if args.interactive and args.headless:
        raise UserError("--interactive plays on the scoreboard: leave out --headless")
    if args.interactive:  # before any file is made: no screen, nothing to play on
        window_or_refuse()
    settings = load_settings(args.config)
    use_sim, why = choose_backend(args.sim or args.interactive, backend=settings.unit.backend)
    if use_sim and not args.interactive:  # virtual players: before any file is made
        _simulable_or_refuse(settings.unit.timing)
    # A simulated game is nobody's game: it never goes into the table's journal by default.
    path = (simulated_path if use_sim else db_path)(args.db, settings.storage)
    return _Plan(settings, use_sim, why, scoring, path)


def _check_simulated_table(args: argparse.Namespace) -> None:
    """``--players``, ``--preset`` and ``--speed``, each refused in one line naming it."""
    if not 2 <= args.players <= 10:
        raise UserError(f"--players must be 2-10, not {args.players}")
    if args.preset not in PRESETS:
        raise UserError(f"unknown preset {args.preset!r}: choose one of {', '.join(PRESETS)}")
    if not 0.1 <= args.speed <= 100:
        raise UserError(f"--speed must be 0.1-100, not {args.speed}")


def _assemble(args: argparse.Namespace, plan: _Plan, table: Table, stats: StatsLogger,
              shutdown: Shutdown, *, heartbeat: ServiceHeartbeat, start: StartTimes) -> _Parts:
    """The event link, the unit source, the front ends and the loop over them, in the order
    they open (each a phase of the start); each says under which shutdown phase it closes."""
    start.phase("the tournament link")
    event = open_tournament_link(table, shutdown, address=args.event, name=args.table_name,
                                 keepalive=args.event_keepalive, resend_s=args.event_resend_s,
                                 own_scoring=_own_scoring(args))
    table.say_open_game(args.players, args.preset, plan.scoring)
    output = _OutputWatch()
    status = StatusPrinter(sys.stdout, on_lost=output.lost)
    table.session.subscribe(status.session_event)
    stop = threading.Event()
    stop_signals.check()  # a stop signal meanwhile: unwind here
    start.phase("the unit")
    unit = _open_unit(args, plan, table, shutdown, stop)
    stats.link = unit.link
    unit.machine.subscribe(status.unit_event)
    stop_signals.check()  # a stop signal meanwhile: unwind here
    model: TableModel[TournamentSource] = TableModel(table.session)  # both front ends draw it
    unit.machine.subscribe(model.unit_event)
    if event.link is not None:
        model.join(event.link)
    address, asked = http_address(args, plan.settings.web)
    start.phase("the phone page")
    phone = open_phone_page(model, shutdown, address=address, asked=asked,
                            trusted=plan.settings.web.trusted_proxies)
    start.phase("the scoreboard")
    scoreboard = open_scoreboard(model, unit, shutdown, headless=args.headless,
                                 size=args.size, touch=plan.settings.scoreboard.touch_matrix,
                                 phone=phone, door=event.door(model),
                                 first_game=first_game(args, plan.scoring))
    worker = None if unit.referee is None else bot_worker(
        table.session, unit.referee, _bots(args, plan.scoring), event.link, plan.path)
    service = Service(table.session, worker=worker, frontend=scoreboard, stop=stop,
                      tick=_ticks(heartbeat.tick, stats.tick, unit.retry))
    shutdown.add(Phase.TABLE, service.stop_table, "stopping the table")
    return _Parts(service, heartbeat, start, status, output, scoreboard, phone)


def _open_unit(args: argparse.Namespace, plan: _Plan, table: Table, shutdown: Shutdown,
               stop: threading.Event) -> UnitSource:
    """The unit source the command line chose: the keyboard, the virtual players, or the unit."""
    unit = plan.settings.unit
    if args.interactive:
        return open_keyboard(unit, table.session, shutdown)
    if plan.use_sim:
        return open_simulated(unit, shutdown, why=plan.why, seed=args.seed, fast=args.fast,
                              speed=args.speed, stop=stop)
    return open_real(unit, table.session, shutdown, why=plan.why)


def _serve(args: argparse.Namespace, plan: _Plan, parts: _Parts) -> int:
    """Hand the stop signals to the loop, say what runs, run it; the loop's exit status."""
    service = parts.service
    stop_signals.route(service.signal_stop)
    if stop_signals.received is not None:  # it came while the parts were being built
        service.signal_stop(stop_signals.received)
    parts.output.attach(service)
    # The watchdog test's debug hook: SIGUSR2 freezes the main loop (docs/deploy.md).
    signal.signal(signal.SIGUSR2, _freeze_on_signal(service))
    window = parts.scoreboard is not None
    parts.status.line(banner(args, plan.use_sim, window, plan.path,
                             table_journal=db_path(None, plan.settings.storage)))
    if parts.phone is not None:
        parts.status.line(phone_line(parts.phone, window, sys.stdout.isatty()))
    took = parts.start.done()
    parts.heartbeat.started("scoreboard up" if window else "keeping score")
    stop_watching_imports()
    log.info("%s", took)
    try:
        return service.run()
    finally:
        parts.heartbeat.stopping()


class _OutputWatch:
    """Standard output lost (a closed pipe, a full disk): noted while the parts are built, then
    the service stops with exit status 1."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.service: Service | None = None

    def lost(self, error: OSError) -> None:
        """The status printer could not write: stop the service, or note it for when it runs."""
        problem = f"standard output cannot be written ({error.strerror or error}): stopped"
        if self.service is not None:
            self.service.fail(problem)
        else:
            self.problems.append(problem)

    def attach(self, service: Service) -> None:
        """From now on a lost output stops ``service`` (and one lost meanwhile stops it now)."""
        self.service = service
        for problem in self.problems:
            service.fail(problem)


def _bots(args: argparse.Namespace, scoring: ScoringSettings) -> Bots:
    return Bots(seed=args.seed, players=args.players, preset=args.preset, scoring=scoring,
                games=args.games)


def _simulable_or_refuse(timing: TimingConfig) -> None:
    """Refuse timings no virtual player can play (a person at the keyboard may yet try)."""
    referee = importlib.import_module("showdown.playtest.referee")
    try:
        referee.check_timings(timing)
    except TableError as error:
        raise UserError(f"the simulated table cannot play: {error}") from None


def _ticks(*steps: Callable[[], None]) -> Callable[[], None]:
    """One main-loop tick doing each step in turn (the watchdog ping first)."""

    def tick() -> None:
        for step in steps:
            step()

    return tick


def banner(args: argparse.Namespace, use_sim: bool, window: bool, path: Path,
           table_journal: Path | None = None) -> str:
    """What a newcomer reads first: what is running, where the score goes, how to stop; on the
    simulator, that the table's own journal (``table_journal``) is not touched."""
    where = "on the scoreboard" if window else "below"
    if args.interactive:
        what = "the simulated unit, played from the keyboard (A, L, Space) beside the scoreboard"
    elif use_sim:
        scored = "" if args.scoring == "standard" else f", {args.scoring} scoring"
        what = (f"{args.players} virtual players play UNO Showdown ({args.preset} rules{scored}) "
                f"on the simulated unit; each showdown and round is scored {where}")
    else:
        what = f"the unit at this table; each showdown and round is scored {where}"
    if use_sim and table_journal is not None and path != table_journal:
        where_kept = (f"The simulated games are kept in {path}, apart from the table's journal "
                      f"({table_journal}).")
    else:
        where_kept = f"The score is kept in {path}."
    return (f"UNO Showdown is running: {what}.\n"
            f"{where_kept} Ctrl-C stops it; the game resumes next time.")


def first_game(args: argparse.Namespace, scoring: ScoringSettings) -> SetUpGame:
    """The game the command line asks for (``--players``, ``--preset``, ``--scoring``,
    ``--pigs``, ``--rounds``), for Set-up to start from: the virtual players set up their own,
    but the table at the scoreboard (``--interactive``, the real unit) sets up its game there,
    and Set-up's own defaults would drop what was asked without a word."""
    return SetUpGame(players=[default_name(seat) for seat in range(args.players)],
                     preset=args.preset, scoring=scoring)


def _own_scoring(args: argparse.Namespace) -> bool:
    """Whether the command line asks for a scoring of its own (an event's host sets it)."""
    return bool(args.scoring != "standard" or args.rounds is not None)


def simulated_scoring(args: argparse.Namespace) -> ScoringSettings:
    """The scoring the simulated table plays (``--scoring``, ``--pigs``, ``--rounds``): the
    preset's target, or in hero and mean scoring the mode's own (500, 100), where the game ends
    at the agreed pigs or rounds. A mistake is one line naming the option."""
    mode = ScoringMode(args.scoring)
    if mode in PIG_MODES and args.pigs is None and args.rounds is None:
        raise UserError(f"{mode} scoring ends at an agreed number of pigs or rounds: give "
                        "--pigs, --rounds or both")
    if mode not in PIG_MODES and args.pigs is not None:
        raise UserError("--pigs counts the pigs of hero and mean scoring: add --scoring hero or "
                        "--scoring mean")
    chosen: dict[str, object] = {"mode": mode, "pigs": args.pigs, "rounds": args.rounds}
    if mode not in PIG_MODES:
        chosen["target"] = preset(args.preset).target_score
    try:
        return ScoringSettings.model_validate(chosen)
    except ValidationError as error:
        problem = error.errors()[0]["msg"].removeprefix("Value error, ")
        raise UserError(f"--scoring {mode}: {problem}") from None


def phone_line(phone: PhonePage, scoreboard: bool, terminal: bool) -> str:
    """Where phones follow the table, and where the PIN for corrections is shown: on the
    scoreboard, or on a terminal (never into a log: a service's standard output is one)."""
    if scoreboard:
        where = "the PIN for corrections is on the scoreboard (Settings, Phones)"
    elif terminal:
        where = f"the PIN for corrections from a phone is {phone.pin()}"
    else:
        where = "corrections from a phone need the PIN a scoreboard shows"
    return f"Phones follow the table at {phone.url}; {where}."


def _stats_on_signal(
    stats: StatsLogger, running: list[Service]
) -> Callable[[int, FrameType | None], None]:
    """SIGUSR1: a stats line at the main loop's next iteration (the handler only asks)."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        stats.request()
        for service in running:
            service.wake()

    return handler


def _freeze_on_signal(service: Service) -> Callable[[int, FrameType | None], None]:
    """The watchdog test's debug hook: SIGUSR2 freezes the main loop (see Service.frozen)."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        service.frozen.set()

    return handler

