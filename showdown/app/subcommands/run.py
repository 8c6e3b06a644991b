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
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from pydantic import ValidationError

from engine.rules import PRESETS, preset
from engine.scoring import PIG_MODES, ScoringMode, ScoringSettings
from showdown.app.arguments import GAMES_MAX, int_in_range, seed
from showdown.app.config import load_settings
from showdown.app.errors import UserError
from showdown.app.event_table import TableDoor, connect_table, event_worker
from showdown.app.phone_page import PhonePage, add_http_arguments, http_address, serve_table
from showdown.app.sd_notify import ServiceHeartbeat
from showdown.app.service import Frontend, Service
from showdown.app.signals import Stopped, stop_signals
from showdown.app.stats import LinkSource, StatsLogger
from showdown.app.status import StatusPrinter
from showdown.app.subcommands.bench_scoreboard import _size
from showdown.event.outbox import event_file
from showdown.event.table_link import TableLink
from showdown.event.view import EventSource
from showdown.game.journal import Entry, Journal, JournalError, check_file, check_writable
from showdown.game.lock import JournalLock
from showdown.game.recorder import UnitRecorder
from showdown.game.session import Session, SessionError
from showdown.game.storage import add_db_argument, db_path, simulated_path
from showdown.game.table_model import TableModel
from showdown.scoreboard.settings import TouchMatrix
from showdown.sim.bot_table import BotTable, TableError, TableStopped
from showdown.unit.backends import BACKENDS
from showdown.unit.backends.serial import SerialUnit
from showdown.unit.config import TimingConfig
from showdown.unit.hardware import UnitHardware
from showdown.unit.machine import ShowdownMachine

NAME = "run"
GROUP = None
HELP = "run the service: the unit (or its simulator), the session and the journal"

log = logging.getLogger("showdown.run")

PI_MODEL = Path("/proc/device-tree/model")
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
    event.add_argument("--table-name", default="", help="this table's name at the event")
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


def choose_backend(
    sim: bool, model_file: Path = PI_MODEL, backend: str = "gpio"
) -> tuple[bool, str]:
    """(use the simulator?, why) - the reason goes into the one log line about it.

    Only the ``gpio`` back end needs a Pi: a unit behind a microcontroller on USB (``serial``)
    can be run from any Linux machine."""
    if sim:
        return True, "--sim was given"
    factory = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    if factory.lower() == "mock":
        return True, "GPIOZERO_PIN_FACTORY=mock"
    if backend != "gpio":
        return False, f"unit.backend is {backend!r}"
    try:
        model = model_file.read_text(encoding="utf-8", errors="replace").strip("\x00\n ")
    except OSError:
        return True, f"no Raspberry Pi found ({model_file} is absent)"
    if "Raspberry Pi" not in model:
        return True, f"no Raspberry Pi found ({model_file} says {model!r})"
    return False, f"running on a {model}"


class _Scoreboard:
    """The scoreboard (``showdown.scoreboard``, when installed) as the service's front end."""

    def __init__(
        self, table: TableModel[EventSource], machine: ShowdownMachine, *, real_unit: bool,
        keyboard: Any = None, size: tuple[int, int] = (800, 480),
        touch: TouchMatrix | None = None, phone: PhonePage | None = None,
        door: TableDoor | None = None,
    ) -> None:
        play = importlib.import_module("showdown.app.scoreboard_main")
        # At a real table (or played by keyboard) the scoreboard says who is on the paddles;
        # the virtual players load the simulated unit themselves. The service records results.
        self.board: Any = play.build_scoreboard(
            table.session, machine=machine, unit=keyboard, fullscreen=real_unit, size=size,
            record_results=False, load_unit=real_unit or keyboard is not None, model=table,
            phone=None if phone is None else (phone.url, phone.pin),
            door=door,
            **({} if touch is None else {"touch": touch}),
        )

    def notify(self, note: object = None) -> None:
        self.board.notify(note)

    def pump(self, timeout_ms: int) -> bool:
        return bool(self.board.pump(timeout_ms))

    def close(self) -> None:
        self.board.close()


def _joined(on_stop: list[Callable[[], None]], table: TableModel[EventSource],
            link: TableLink) -> None:
    """Set-up joined an event: the link stops with the rest, and the table's read model holds
    it (the Event screen and the phone page read it there)."""
    on_stop.insert(0, link.stop)
    table.join(link)


def _frontend(
    args: argparse.Namespace, table: TableModel[EventSource], machine: ShowdownMachine,
    real_unit: bool, keyboard: Any = None, *, touch: TouchMatrix | None = None,
    phone: PhonePage | None = None, door: TableDoor | None = None,
) -> Frontend | None:
    """The scoreboard, when this installation has one and a window can open; else headless."""
    if args.headless:
        return None
    try:
        importlib.import_module("showdown.scoreboard.app")
    except ImportError:
        log.info("no scoreboard in this installation: running headless")
        return None
    display = importlib.import_module("showdown.scoreboard.display")
    try:
        return _Scoreboard(table, machine, real_unit=real_unit, keyboard=keyboard,
                           size=args.size, touch=touch, phone=phone, door=door)
    except display.NoWindowError as error:  # no screen here: SDL would draw an invisible window
        if keyboard is not None:
            raise UserError(f"--interactive needs a window for the scoreboard, and none can open "
                            f"here: {error}") from None
        log.info("no screen for the scoreboard (%s): running headless, the live status below",
                 error)
        return None
    except Exception as error:  # no video driver: the service still keeps score
        log.warning("the scoreboard cannot open (%s): running headless", error)
        return None


def _window_or_refuse() -> None:
    """Refuse ``--interactive`` at once where no screen can be reached (nothing is created)."""
    display = importlib.import_module("showdown.scoreboard.display")
    try:
        display.check_environment()
    except display.NoWindowError as error:
        raise UserError(f"--interactive needs a window for the scoreboard, and none can open "
                        f"here: {error}") from None


def _simulable_or_refuse(timing: TimingConfig) -> None:
    """Refuse timings no virtual player can play (a person at the keyboard may yet try)."""
    referee = importlib.import_module("showdown.sim.referee")
    try:
        referee.check_timings(timing)
    except TableError as error:
        raise UserError(f"the simulated table cannot play: {error}") from None


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
    if not 2 <= args.players <= 10:
        raise UserError(f"--players must be 2-10, not {args.players}")
    if args.preset not in PRESETS:
        raise UserError(f"unknown preset {args.preset!r}: choose one of {', '.join(PRESETS)}")
    if not 0.1 <= args.speed <= 100:
        raise UserError(f"--speed must be 0.1-100, not {args.speed}")
    scoring = simulated_scoring(args)
    if args.event is not None and _own_scoring(args):
        raise UserError(EVENT_SCORING)
    args.size = _size(args.size)
    if args.interactive and args.headless:
        raise UserError("--interactive plays on the scoreboard: leave out --headless")
    if args.interactive:  # before any file is made: no screen, nothing to play on
        _window_or_refuse()
    settings = load_settings(args.config)
    use_sim, why = choose_backend(args.sim or args.interactive, backend=settings.unit.backend)
    if use_sim and not args.interactive:  # virtual players: before any file is made
        _simulable_or_refuse(settings.unit.timing)
    # A simulated game is nobody's game: it never goes into the table's journal by default.
    path = (simulated_path if use_sim else db_path)(args.db, settings.storage)
    stop_signals.check()  # a stop signal meanwhile: unwind here
    try:
        check_file(path)  # not a journal, or not writable: say that, not that it cannot be locked
        check_writable(path)
        lock = JournalLock.acquire(path)
    except JournalError as error:
        raise UserError(str(error)) from None
    on_stop: list[Callable[[], None]] = [lock.release]
    try:
        journal = Journal.open(path, writable=True)
        on_stop.insert(0, journal.close)
        if settings.storage.log_entries:
            journal.on_append = _log_entry
        session = Session(journal)
    except (JournalError, SessionError) as error:
        _close(on_stop)
        raise UserError(str(error)) from None
    except BaseException:
        _close(on_stop)
        raise
    link = None
    if args.event is not None or event_file(path).exists():
        if _own_scoring(args):  # the journal joined an event before: its games are the event's
            _close(on_stop)
            raise UserError(f"{path} is a table of an event: {EVENT_SCORING}")
        try:
            link = connect_table(args.event, journal, args.table_name,
                                 keepalive=args.event_keepalive, resend_s=args.event_resend_s)
        except BaseException:
            _close(on_stop)
            raise
        on_stop.insert(0, link.stop)
    state = session.state
    if state is None or state.is_over:
        log.info("journal %s: no open game", path)
    else:
        log.info("journal %s: resuming game %d at round %d", path, state.game_id,
                 state.current_round)
        if (len(state.players) != args.players or state.preset != args.preset
                or state.scoring != scoring):
            log.warning(
                "the open game %d goes on with its own %d players, rules %r and %s scoring; "
                "--players %d --preset %s --scoring %s apply to a new game (finish this one, or "
                "start one with another --db)", state.game_id, len(state.players), state.preset,
                state.scoring.mode, args.players, args.preset, scoring.mode,
            )
    service: Service | None = None
    lost: list[str] = []

    def output_lost(error: OSError) -> None:
        problem = f"standard output cannot be written ({error.strerror or error}): stopped"
        if service is not None:
            service.fail(problem)
        else:
            lost.append(problem)

    status = StatusPrinter(sys.stdout, on_lost=output_lost)
    session.subscribe(status.session_event)
    worker = None
    keyboard = None
    recorder: UnitRecorder | None = None
    stop = threading.Event()
    try:
        stop_signals.check()  # a stop signal meanwhile: unwind here
        if args.interactive:
            interactive = importlib.import_module("showdown.sim.panel")
            keyboard = interactive.KeyboardUnit(settings.unit)
            on_stop.insert(0, keyboard.close)
            log.info("unit back end: the simulated unit played from the keyboard (--interactive)")
            stats.link = _no_link("none (the simulated unit, played from the keyboard)")
            machine = keyboard.machine
            started = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f")
            recorder = UnitRecorder(session, started)
            machine.subscribe(recorder)
            machine.subscribe(status.unit_event)
        elif use_sim:
            from showdown.sim.referee import SimulatedReferee  # noqa: PLC0415 - only when simulating

            unit = SimulatedReferee(settings.unit, seed=args.seed, fast=args.fast, stop=stop,
                                    speed=args.speed)
            on_stop.insert(0, unit.close)
            log.info("unit back end: the simulated unit with virtual players (%s)", why)
            stats.link = _no_link("none (the simulated unit)")
            unit.machine.subscribe(status.unit_event)
            machine = unit.machine
            worker = (_table_worker(session, unit.referee, args, scoring) if link is None else
                      event_worker(session, unit.referee, link, seed=args.seed,
                                   players=args.players, preset_name=args.preset,
                                   games=args.games, path=path))
        else:
            backend = BACKENDS[settings.unit.backend]
            try:
                hardware = backend.open(settings.unit, port=settings.unit.serial_port)
            except Exception as error:  # no lgpio, pins busy, link down: say so, no trace
                hint = "; use --sim to simulate" if backend.name == "gpio" else ""
                raise UserError(f"cannot drive the unit through {backend.describe} ({error}){hint}"
                                ) from None
            on_stop.insert(0, hardware.close)
            log.info("unit back end: %s (%s)", backend.describe, why)
            stats.link = link_source(hardware)
            machine = ShowdownMachine(hardware, settings.unit)
            on_stop.insert(0, machine.close)
            started = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f")
            recorder = UnitRecorder(session, started)
            machine.subscribe(recorder)
            machine.subscribe(status.unit_event)
        stop_signals.check()  # a stop signal meanwhile: unwind here
        address, asked = http_address(args, settings.web)
        table: TableModel[EventSource] = TableModel(session)  # what the scoreboard and phones draw
        machine.subscribe(table.unit_event)
        if link is not None:
            table.join(link)
        phone = None if address is None else serve_table(table, address, asked=asked)
        if phone is not None:  # stopped before the journal closes: a phone's undo needs it
            on_stop.insert(on_stop.index(journal.close), phone.stop)
        # Not in an event: Set-up can join one (the link is then stopped with the rest).
        door = None if link is not None else TableDoor(
            journal, args.table_name, partial(_joined, on_stop, table),
            keepalive=args.event_keepalive, resend_s=args.event_resend_s)
        frontend = _frontend(args, table, machine, real_unit=not use_sim, keyboard=keyboard,
                             touch=settings.scoreboard.touch_matrix, phone=phone, door=door)
        if keyboard is not None and frontend is None:
            raise UserError("--interactive needs a window for the scoreboard, and none could open")
    except BaseException:
        _close(on_stop)
        raise
    heartbeat = ServiceHeartbeat.from_environ()  # systemd: READY, WATCHDOG per tick, STOPPING
    steps = [heartbeat.tick, stats.tick] + ([] if recorder is None else [recorder.retry])
    service = Service(session, worker=worker, frontend=frontend, tick=_ticks(*steps),
                      on_stop=on_stop, stop=stop)
    running.append(service)
    stop_signals.route(service.signal_stop)
    if stop_signals.received is not None:  # it came while the parts were being built
        service.signal_stop(stop_signals.received)
    for problem in lost:
        service.fail(problem)
    # The watchdog test's debug hook: SIGUSR2 freezes the main loop (docs/deploy.md).
    signal.signal(signal.SIGUSR2, _freeze_on_signal(service))
    status.line(banner(args, use_sim, frontend is not None, path,
                       table_journal=db_path(None, settings.storage)))
    if phone is not None:
        status.line(phone_line(phone, frontend is not None, sys.stdout.isatty()))
    heartbeat.started("keeping score" if frontend is None else "scoreboard up")
    try:
        code = service.run()
    finally:
        heartbeat.stopping()
    log.info("stopped; every output is safe and the journal is closed")
    if service.problem is not None:
        print(f"showdown: error: {service.problem}", file=sys.stderr, flush=True)
    return code


def _ticks(*steps: Callable[[], None]) -> Callable[[], None]:
    """One main-loop tick doing each step in turn (the watchdog ping first)."""

    def tick() -> None:
        for step in steps:
            step()

    return tick


def _close(steps: list[Callable[[], None]]) -> None:
    """Run the shutdown steps of a start that did not complete (outputs safe first)."""
    for step in steps:
        try:
            step()
        except Exception:
            log.exception("a shutdown step failed; continuing with the next")


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


EVENT_SCORING = ("an event's games are scored the way its host set the event up: leave out "
                 "--scoring and --rounds with --event")


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


def _table_worker(
    session: Session, referee: Callable[..., object], args: argparse.Namespace,
    scoring: ScoringSettings,
) -> Callable[[threading.Event], None]:
    def play(stop: threading.Event) -> None:
        table = BotTable(
            session, referee,  # type: ignore[arg-type]
            seed=args.seed, players=args.players, preset_name=args.preset, scoring=scoring,
            stop=stop,
        )
        played = 0
        try:
            while not stop.is_set() and (args.games == 0 or played < args.games):
                table.play_game(game_number=len(session.journal.games()))
                played += 1
        except TableStopped:
            return

    return play


def _log_entry(entry: Entry) -> None:
    """``storage.log_entries``: one line per journal entry once it is on disk (a power-cut test
    reads them from the console and checks each is still there after the cut)."""
    log.info("journal entry on disk: game %d seq %d %s key %s", entry.game_id, entry.seq,
             entry.kind, entry.key)


def link_source(hardware: UnitHardware) -> LinkSource:
    """Where the stats line takes the serial link's figures from (a unit on the Pi's own pins
    has no link)."""
    if isinstance(hardware, SerialUnit):
        unit = hardware
        return lambda: (unit.link.figures(), len(unit.faults))
    return _no_link("none (the unit is on the Pi's own pins)")


def _no_link(why: str) -> LinkSource:
    return lambda: why


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

