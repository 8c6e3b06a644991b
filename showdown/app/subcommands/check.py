"""``showdown check``: the self-test a builder runs after wiring (see
:mod:`showdown.unit.self_test`); with ``--report PATH``, a support bundle instead
(:mod:`showdown.app.report`), which opens nothing of the unit and works beside the service."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from pathlib import Path

from engine import build
from showdown.app import report as bundle
from showdown.app.config import CONFIG_ENV, ConfigError, Settings, load_settings
from showdown.app.errors import UserError
from showdown.game.storage import db_path
from showdown.tournament.store import DEFAULT_FOLDER, INSTALLED_FOLDER
from showdown.unit.backends import BACKENDS
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import UnitHardware
from showdown.unit.self_test import SelfTest, report

NAME = "check"
GROUP = None
HELP = "self-test: light, sound and ask for every part of the unit, and report what was seen"

#: Where the install script puts the configuration; used when neither --config nor
#: $SHOWDOWN_CONFIG says otherwise, so `showdown check` on a Pi tests the service's own pins.
INSTALLED_CONFIG = Path("/etc/showdown/showdown.toml")


MAX_TIMEOUT_S = 3600
"""The longest wait for one press or card (an hour: longer is a typo, not a slow builder)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown check``."""
    parser.add_argument(
        "--config",
        type=Path,
        help=f"configuration file (default: ${CONFIG_ENV}, else {INSTALLED_CONFIG} if present)",
    )
    parser.add_argument(
        "--serial",
        nargs="?",
        const="auto",
        metavar="PORT",
        help="the unit is behind a microcontroller on USB: check through it (PORT: a path or "
        "pyserial URL; default: /dev/showdown-unit, else the Pico's USB id). Without it the "
        "configuration's unit.backend decides, as for the service",
    )
    parser.add_argument(
        "--no-launcher", action="store_true", help="skip the launcher (it is never fired unasked)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="how long to wait for each press or card before calling it missing (default 20)",
    )
    parser.add_argument(
        "--screen", action="store_true",
        help="instead of the unit, the touch panel: tap four targets; says whether the touch is "
        "turned, mirrored or offset against the picture, and the setting that fixes it (stop "
        "the service first: the screen has one owner)",
    )
    support = parser.add_argument_group("support bundle (instead of the self-test)")
    support.add_argument(
        "--report", type=Path, metavar="PATH",
        help="write a support bundle (.tar.gz or .zip): versions, settings without secrets, the "
        "service's last log lines, the journal's integrity check, throttling and link figures, "
        "the wiring as configured; the unit is not touched, so the service may keep running",
    )
    support.add_argument(
        "--include-names", action="store_true",
        help="keep the players' names in the bundle's log lines (left out by default)",
    )
    support.add_argument(
        "--log", type=Path, metavar="FILE",
        help="read the service's log from FILE instead of journalctl -u showdown",
    )
    support.add_argument(
        "--db", type=Path, metavar="PATH",
        help="the game journal to check (default: the configuration's storage.path)",
    )
    support.add_argument(
        "--event-dir", type=Path, metavar="DIR",
        help="the event host's folder, whose event journal is checked too (default: "
        f"{INSTALLED_FOLDER} where an installed host keeps it, else {DEFAULT_FOLDER})",
    )


def tournament_journal_path(given: Path | None) -> Path:
    """The event journal a support bundle checks: in the folder given, else an installed host's,
    else the one ``showdown event host`` uses by default."""
    if given is not None:
        return given / "event.db"
    installed = INSTALLED_FOLDER / "event.db"
    return installed if installed.exists() else DEFAULT_FOLDER / "event.db"


def config_path(given: Path | None) -> Path | None:
    """The file to read: the option, the environment, the installed file, or none (defaults)."""
    if given is not None:
        return given
    if os.environ.get(CONFIG_ENV):
        return Path(os.environ[CONFIG_ENV])
    return INSTALLED_CONFIG if INSTALLED_CONFIG.exists() else None


#: The hint after a failure to open the pins or the link, when nothing more specific fits.
_BUSY_HINT = "is the service running? `sudo systemctl stop showdown` first"
_NO_GPIO_HINT = (
    "no GPIO on this machine: check a unit behind a microcontroller with --serial, or try the "
    "check on the simulator with GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin"
)
_NO_PWM_HINT = (
    "these pins cannot do PWM for the tonal buzzer: with GPIOZERO_PIN_FACTORY=mock also set "
    "GPIOZERO_MOCK_PIN_CLASS=mockpwmpin, or set unit.buzzer_kind = \"plain\""
)


def open_unit(settings: UnitSettings, serial: str | None = None) -> UnitHardware:
    """The configured unit: on this machine's pins (gpiozero picks lgpio on a Pi), or behind the
    microcontroller on ``serial`` (``"auto"``: find it)."""
    if serial is not None and serial.startswith("/") and not Path(serial).exists():
        raise UserError(
            f"cannot open the microcontroller: {serial} does not exist (is the board plugged in? "
            "the udev rule names it /dev/showdown-unit)"
        )
    try:
        if serial is not None:
            return BACKENDS["serial"].open(settings, port=None if serial == "auto" else serial)
        return _open_pins(settings)
    except Exception as exc:  # many kinds (gpiozero, pyserial, the link); the message is the point
        reason = str(exc) or type(exc).__name__
        where = "the microcontroller" if serial is not None else "the unit's pins"
        raise UserError(f"cannot open {where}: {reason} ({_hint(exc)})") from None


def _open_pins(settings: UnitSettings) -> UnitHardware:
    # gpiozero warns once per pin factory it cannot load before giving up: the one-line error
    # below says it better, so those warnings are not printed.
    from gpiozero.exc import PinFactoryFallback  # noqa: PLC0415  (gpiozero only when needed)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PinFactoryFallback)
        return BACKENDS["gpio"].open(settings)


def _hint(exc: Exception) -> str:
    """What to do about *exc*: no GPIO here, no PWM on these pins, or the pins are busy."""
    from gpiozero.exc import BadPinFactory, PinPWMUnsupported  # noqa: PLC0415

    if isinstance(exc, BadPinFactory):
        return _NO_GPIO_HINT
    if isinstance(exc, PinPWMUnsupported):
        return _NO_PWM_HINT
    return _BUSY_HINT


_NO_INPUT = "showdown check needs answers on standard input (run it in a terminal)"


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except (EOFError, RuntimeError, OSError):  # end of input, or no standard input at all
        raise UserError(_NO_INPUT) from None


def font_warnings() -> list[str]:
    """The scoreboard's languages that no font here can draw, one warning line each: a builder
    sees it before a table sees empty boxes (nothing when the scoreboard is not installed)."""
    try:
        from showdown.scoreboard.fonts import font_problems  # noqa: PLC0415 (pygame only here)
    except ImportError:
        return []
    return [f"warning: scoreboard: {problem}" for problem in font_problems()]


def run(args: argparse.Namespace) -> int:
    """Walk through the unit; exit 0 when every part answered, 1 otherwise (or write the
    support bundle: exit 0 once it is written, whatever could not be read)."""
    if args.report is not None and args.screen:
        raise UserError("--report and --screen are two checks: run one, then the other")
    if args.report is not None:
        return write_report(args)
    if args.include_names or args.log is not None or args.db is not None:
        raise UserError("--include-names, --log and --db go with --report PATH")
    if not 0 < args.timeout <= MAX_TIMEOUT_S:  # also refuses inf and nan
        raise UserError(
            f"--timeout must be a positive number of seconds, at most {MAX_TIMEOUT_S}"
        )
    if args.screen:
        return check_screen(args)
    if sys.stdin is None or sys.stdin.closed:  # started with standard input closed (<&-)
        raise UserError(_NO_INPUT)
    print(build.describe(), flush=True)
    for line in font_warnings():
        print(line, flush=True)
    settings = load_settings(config_path(args.config)).unit
    serial = args.serial
    if serial is None and settings.backend == "serial":  # the service's own choice
        serial = settings.serial_port or "auto"
    with open_unit(settings, serial) as unit:
        test = SelfTest(
            unit,
            settings,
            say=lambda text: print(text, flush=True),
            ask=_ask,
            launcher=not args.no_launcher,
            timeout_s=args.timeout,
        )
        results = test.run()
    print()
    for line in report(results):
        print(line)
    return 0 if all(result.ok is not False for result in results) else 1


def write_report(args: argparse.Namespace) -> int:
    """``--report PATH``: gather the bundle and write it; one line per thing worth knowing."""
    bundle.archive_kind(args.report)  # a wrong name is refused before anything is read
    config = config_path(args.config)
    settings: Settings | None = None
    error: str | None = None
    try:
        settings = load_settings(config)
    except ConfigError as problem:
        error = str(problem)
    storage = settings.storage if settings is not None else None
    got = bundle.gather(settings=settings, settings_error=error, config=config,
                        db=db_path(args.db, storage), include_names=args.include_names,
                        log_file=args.log, tournament_db=tournament_journal_path(args.event_dir))
    size = bundle.write_bundle(got, args.report)
    print(f"wrote {args.report} ({len(got.files)} files, {size / 1024:.1f} KiB)")
    print(got.names)
    if error is not None:
        print(f"the configuration cannot be used: {error}")
    for source, why in sorted(got.missing.items()):
        print(f"could not read {source}: {why}")
    return 0


def check_screen(args: argparse.Namespace) -> int:
    """``--screen``: the touch test on the panel; exit 0 when the touch matches the picture."""
    config = config_path(args.config)
    current = load_settings(config).scoreboard.touch_matrix
    # pygame only here: the self-test and the bundle run where no scoreboard is installed
    from showdown.scoreboard.touch_check import (  # noqa: PLC0415
        PanelError,
        TouchCheck,
        matrix_text,
        open_panel,
    )

    try:
        with open_panel() as window:
            verdict = TouchCheck(window, current=current, timeout_s=args.timeout).run()
    except PanelError as error:
        hint = (" (the service owns the screen while it runs: sudo systemctl stop showdown first)"
                if error.maybe_busy else "")
        raise UserError(f"--screen cannot open the screen: {error}{hint}") from None
    worst = (f" (the worst tap landed {verdict.worst_px:.0f} px from its target)"
             if verdict.kind in ("matches", "turned", "offset", "unclear") else "")
    print(f"touch: {verdict.what}{worst}")
    if verdict.matrix is None:
        return 0 if verdict.ok else 1
    where = config or INSTALLED_CONFIG
    print(f"fix: in {where}, set (the scoreboard applies it to every touch):")
    print("  [scoreboard]")
    print(f"  touch_matrix = {matrix_text(verdict.matrix)}")
    print("then restart the service (sudo systemctl restart showdown) and run this check again.")
    if verdict.overlay:
        print(f"on the official 7-inch DSI display the kernel can turn the touch instead (for the "
              f"console and a desktop too): add dtoverlay=vc4-kms-dsi-7inch,{verdict.overlay} to "
              "/boot/firmware/config.txt, comment out display_auto_detect=1, reboot, and leave "
              "touch_matrix out")
    return 1
