"""``showdown check --report PATH``: a support bundle, one archive a builder can send to a helper.

What it holds, one text file each (``README.txt`` lists them and what could not be read):

- ``versions.txt``: this program, Python, the packages, the OS, the kernel, the Pi's model and
  firmware;
- ``settings.txt``: the settings in force (file, environment overrides and the service's
  environment file), with anything named like a password, token, secret or key replaced;
- ``log.txt``: the service's last log lines (``journalctl -u showdown``, or ``--log FILE``);
- ``kernel.txt``: the kernel's lines about under-voltage, USB disconnects and serial ports;
- ``journal.txt``: the game journal's integrity check and size;
- ``health.txt``: throttling, temperature, load and memory now (:mod:`showdown.app.health`);
- ``link.txt``: the serial link's figures, from the service's last stats lines;
- ``wiring.txt``: the unit as configured: the back end, the devices present, every line's GPIO
  and header pin.

Player names are replaced by ``player 1``, ``player 2``, ... (the names read from the journal)
unless ``--include-names``; when the journal cannot be read, the names are not known, so the log
lines are left out instead. It touches nothing of the unit, so the service may keep running; it
opens the journal as ``showdown export`` does, and writes only the archive, which appears whole
or not at all. Every source is optional: one that is absent (no ``journalctl``, no
Pi, no journal) is named in ``README.txt`` and the bundle is written all the same.
"""

from __future__ import annotations

import io
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from engine import build
from showdown import __version__
from showdown.app.config import Settings
from showdown.app.errors import UserError
from showdown.app.health import PiHealth, read_health
from showdown.app.stats import LINE_PREFIX
from showdown.game.journal import Journal, JournalError, check_file
from showdown.game.mark import MarkFile
from showdown.game.session import fold
from showdown.tournament.store import StoreError
from showdown.tournament.store import check as check_tournament_journal
from showdown.unit.wiring import wired_lines

__all__ = ["SUFFIXES", "Bundle", "archive_kind", "gather", "write_bundle"]

SUFFIXES = (".tar.gz", ".tgz", ".zip")
SERVICE = "showdown"
"""The systemd unit whose log is read."""
LOG_LINES = 400
COMMAND_TIMEOUT_S = 10.0
PACKAGES = ("uno-showdown", "pygame-ce", "gpiozero", "lgpio", "pyserial", "pydantic",
            "pydantic-settings", "cobs", "babel")
SECRET_WORDS = frozenset({"password", "passwd", "passphrase", "secret", "token", "key", "apikey",
                          "credential", "credentials", "auth"})
KERNEL_WORDS = re.compile(r"voltage|throttl|usb \S+: USB disconnect|ttyACM|ttyUSB|cdc_acm",
                          re.IGNORECASE)
ENVIRONMENT_FILE = "etc/showdown/environment"
REDACTED = "<redacted>"


@dataclass
class Bundle:
    """The files of a bundle (name -> text) and what could not be read (source -> why)."""

    files: dict[str, str] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)
    names: str = ""
    """What became of the player names, in one line."""


def archive_kind(path: Path) -> str:
    """``"tar"`` or ``"zip"`` from *path*'s name; :class:`UserError` for any other name."""
    name = path.name.lower()
    if name.endswith((".tar.gz", ".tgz")):
        return "tar"
    if name.endswith(".zip"):
        return "zip"
    raise UserError(f"--report {path}: the bundle's name must end in .tar.gz or .zip")


def gather(
    *,
    settings: Settings | None,
    settings_error: str | None,
    config: Path | None,
    db: Path,
    include_names: bool = False,
    log_file: Path | None = None,
    root: Path = Path("/"),
    tournament_db: Path | None = None,
) -> Bundle:
    """Read every source (see the module docstring). *settings* is ``None`` when the
    configuration could not be read (*settings_error* says why); *root* is where ``/proc``,
    ``/sys``, ``/etc`` and ``/dev`` are read (a test passes a fake tree)."""
    bundle = Bundle()
    names = _player_names(db, bundle)
    bundle.files["versions.txt"] = _versions(root, bundle)
    bundle.files["settings.txt"] = _settings(settings, settings_error, config, root)
    log = _log(log_file, bundle)
    stats = [line for line in log if LINE_PREFIX in line]
    if include_names:
        bundle.names = "player names: included (--include-names)"
    elif names is None:
        bundle.names = ("player names: unknown (the journal could not be read), so the log lines "
                        "were left out; add --include-names to keep them")
        log = [line for line in log if LINE_PREFIX in line]
    else:
        log = _without_names(log, names)
        bundle.names = f"player names: left out ({len(names)} replaced by 'player N')"
    bundle.files["log.txt"] = "\n".join(log) + "\n" if log else "(no log lines)\n"
    bundle.files["kernel.txt"] = _kernel(bundle)
    bundle.files["journal.txt"] = _journal(db, bundle) + _tournament_journal(tournament_db, bundle)
    health = read_health(root)
    for figure, why in health.missing.items():
        bundle.missing[figure] = why
    bundle.files["health.txt"] = _health_text(health)
    bundle.files["link.txt"] = _link(stats, settings, bundle)
    bundle.files["wiring.txt"] = _wiring(settings, root)
    bundle.files["README.txt"] = _readme(bundle)
    summary = {"created": _now(), "version": __version__, "names": bundle.names,
               "could_not_read": bundle.missing, "files": sorted(bundle.files)}
    bundle.files["summary.json"] = json.dumps(summary, indent=2) + "\n"
    return bundle


def write_bundle(bundle: Bundle, path: Path) -> int:
    """Write *bundle* as *path* (whole or not at all); its size in bytes. An existing file is
    never replaced."""
    kind = archive_kind(path)
    if path.exists():
        raise UserError(f"--report {path}: the file exists; choose another name (nothing written)")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"--report {path}: no folder {folder}")
    top = "showdown-report-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    except OSError as error:
        raise UserError(f"--report {path}: cannot write in {folder}: {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            if kind == "tar":
                _tar(out, top, bundle.files)
            else:
                _zip(out, top, bundle.files)
        os.chmod(temporary, 0o644)
        _place(Path(temporary), path)
    except OSError as error:
        raise UserError(f"--report {path}: cannot write the bundle: {error.strerror}") from None
    finally:
        Path(temporary).unlink(missing_ok=True)
    return path.stat().st_size


def _place(temporary: Path, path: Path) -> None:
    """Give the finished archive its name without replacing a file made meanwhile (a hard link
    fails if the name is taken; where links are not allowed, a FAT stick, the name is checked
    just before)."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise UserError(f"--report {path}: the file exists; choose another name") from None
    except OSError:
        if path.exists():
            raise UserError(f"--report {path}: the file exists; choose another name") from None
        os.replace(temporary, path)


def _tar(out: Any, top: str, files: dict[str, str]) -> None:
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, text in sorted(files.items()):
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
            archive.addfile(info, io.BytesIO(data))


def _zip(out: Any, top: str, files: dict[str, str]) -> None:
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in sorted(files.items()):
            archive.writestr(f"{top}/{name}", text)


# -- the sources -------------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _run(command: list[str]) -> tuple[str, str]:
    """(standard output, the reason it failed or ''), never raising. A command that answers
    nothing says why on standard error (journalctl: "No journal files were found."): that
    becomes the reason."""
    executable = shutil.which(command[0])
    if executable is None:
        return "", f"no {command[0]}"
    try:
        done = subprocess.run([executable, *command[1:]], capture_output=True, text=True,
                              errors="replace", timeout=COMMAND_TIMEOUT_S, check=False,
                              env={**os.environ, "LC_ALL": "C", "SYSTEMD_COLORS": "0"})
    except subprocess.TimeoutExpired:
        return "", f"{command[0]} gave no answer in {COMMAND_TIMEOUT_S:g} s"
    except OSError as error:
        return "", f"{command[0]} failed: {error}"
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}")
        return done.stdout, f"{command[0]} failed: {said.splitlines()[0][:120]}"
    if not [line for line in done.stdout.splitlines() if line.strip() != "-- No entries --"]:
        hint = done.stderr.strip().splitlines()
        return "", f"{command[0]} found nothing" + (f" ({hint[0][:120]})" if hint else "")
    return done.stdout, ""


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip("\x00\n ")
    except OSError:
        return None


def _versions(root: Path, bundle: Bundle) -> str:
    lines = [f"showdown {__version__}", f"python {sys.version.split()[0]} ({sys.executable})",
             build.describe()]
    for name in PACKAGES:
        try:
            lines.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{name} not installed")
    try:
        import pygame  # noqa: PLC0415  (SDL's version, only here)

        lines.append("SDL {}.{}.{}".format(*pygame.get_sdl_version()))
    except ImportError:
        pass
    os_release = _read(root / "etc/os-release") or ""
    pretty = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', os_release, re.M)
    lines.append(f"os {pretty[1] if pretty else 'unknown (no /etc/os-release)'}")
    lines.append(f"kernel {platform.release()} {platform.machine()}")
    model = _read(root / "proc/device-tree/model")
    if model is None:
        bundle.missing["pi model"] = "no /proc/device-tree/model (not a Raspberry Pi)"
    lines.append(f"board {model or 'not a Raspberry Pi (no /proc/device-tree/model)'}")
    firmware, why = _run(["vcgencmd", "version"])
    if why:
        bundle.missing["pi firmware"] = why
    lines.append("pi firmware " + (" / ".join(firmware.split("\n")[:2]).strip() or f"n/a ({why})"))
    return "\n".join(lines) + "\n"


def _secret(name: str) -> bool:
    words = set(re.split(r"[_\W]+", name.lower()))
    return bool(words & SECRET_WORDS)


def _redacted(value: Any, name: str = "") -> Any:
    if _secret(name) and value not in (None, ""):
        return REDACTED
    if isinstance(value, dict):
        return {key: _redacted(item, str(key)) for key, item in value.items()}
    if isinstance(value, list):
        return [_redacted(item, name) for item in value]
    return value


def _settings(settings: Settings | None, error: str | None, config: Path | None,
              root: Path) -> str:
    lines = [f"configuration file: {config or '(none: the defaults)'}"]
    if error is not None:
        lines.append(f"THE CONFIGURATION CANNOT BE USED: {error}")
    overrides = sorted(n for n in os.environ if n.upper().startswith("SHOWDOWN_"))
    lines.append("environment: " + (", ".join(
        f"{n}={REDACTED if _secret(n) else os.environ[n]}" for n in overrides) or "no overrides"))
    environment = _read(root / ENVIRONMENT_FILE)
    if environment is not None:
        lines.append(f"/{ENVIRONMENT_FILE}:")
        for row in environment.splitlines():
            key, sep, _value = row.partition("=")
            lines.append(f"  {key}={REDACTED}" if sep and _secret(key) else f"  {row}")
    if settings is not None:
        lines.append("settings in force:")
        lines.append(json.dumps(_redacted(settings.model_dump(mode="json")), indent=2))
    return "\n".join(lines) + "\n"


def _log(log_file: Path | None, bundle: Bundle) -> list[str]:
    if log_file is not None:
        try:
            text = log_file.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            bundle.missing["log"] = f"cannot read {log_file}: {error.strerror}"
            return []
        return text.splitlines()[-LOG_LINES:]
    out, why = _run(["journalctl", "-u", SERVICE, "-n", str(LOG_LINES), "--no-pager",
                     "-o", "short-iso"])
    if why.startswith("journalctl found nothing"):
        bundle.missing["log"] = (f"{why}: is the service installed here? Read the log as root or "
                                 "a member of systemd-journal, or give it with --log FILE")
        return []
    if why:
        bundle.missing["log"] = f"{why} (give the service's output with --log FILE)"
        return []
    return [line for line in out.splitlines() if line.strip()]


def _without_names(lines: list[str], names: list[str]) -> list[str]:
    if not names:
        return lines
    stand_in = {name: f"player {index}" for index, name in enumerate(names, start=1)}
    pattern = re.compile(r"(?<!\w)(" + "|".join(
        re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")(?!\w)")
    return [pattern.sub(lambda m: stand_in[m[1]], line) for line in lines]


def _player_names(db: Path, bundle: Bundle) -> list[str] | None:
    """Every player name in the journal, first seen first ([] without a journal; ``None`` when
    it cannot be read)."""
    if not db.exists():
        return []
    try:
        check_file(db)
        with Journal.open(db, read_only=True) as journal:
            names: list[str] = []
            for game in journal.games():
                state = fold(game.id, journal.entries(game.id))
                for name in () if state is None else state.players:
                    if name not in names:
                        names.append(name)
            return names
    except Exception as error:  # a journal this version cannot read: names unknown, no trace
        bundle.missing["player names"] = f"the journal cannot be read: {error}"
        return None


def _kernel(bundle: Bundle) -> str:
    out, why = _run(["journalctl", "-k", "-b", "--no-pager", "-o", "short-iso"])
    if why:
        bundle.missing["kernel log"] = why
        return f"(not read: {why})\n"
    lines = [line for line in out.splitlines() if KERNEL_WORDS.search(line)]
    header = "the kernel's lines of this boot about voltage, throttling and USB serial ports:\n"
    return header + ("\n".join(lines[-200:]) + "\n" if lines else "(none)\n")


def _journal(db: Path, bundle: Bundle) -> str:
    lines = [f"journal: {db}"]
    if not db.exists():
        bundle.missing["journal"] = f"no journal at {db}"
        return "\n".join([*lines, "not there (no game was played with this configuration)"]) + "\n"
    lines.append(f"size: {db.stat().st_size} bytes")
    lines.append(MarkFile(db, db.stat().st_ino).load().describe())
    try:
        check_file(db)
        with Journal.open(db, read_only=True) as journal:
            games = journal.games()
            entries = sum(len(journal.entries(game.id)) for game in games)
            lines.append(f"games: {len(games)}, entries: {entries}")
            lines.append(f"integrity check: {journal.integrity_check()}")
    except Exception as error:  # whatever is wrong with the file is what the helper must see
        bundle.missing["journal"] = str(error) or type(error).__name__
        lines.append(f"integrity check: cannot open it: {error}")
        if isinstance(error, JournalError) and error.details:
            lines += ["SQLite's report:", error.details]
    return "\n".join(lines) + "\n"


def _tournament_journal(db: Path | None, bundle: Bundle) -> str:
    """An event host's journal, where this machine has one: its mark and whether it holds every
    entry the tables were told is stored (read only, as the host's open checks it)."""
    if db is None or not db.exists():
        return ""
    lines = ["", f"event journal: {db}", f"size: {db.stat().st_size} bytes",
             MarkFile(db, db.stat().st_ino).load().describe()]
    try:
        check_tournament_journal(db)
        lines.append("high-water check: ok (every acknowledged entry is there)")
    except StoreError as error:
        bundle.missing["event journal"] = str(error)
        lines.append(f"high-water check: {error}")
    return "\n".join(lines) + "\n"


def _health_text(health: PiHealth) -> str:
    lines = [health.line()]
    throttling = health.throttling
    if throttling is not None:
        lines.append(f"get_throttled: {throttling.flags:#x} (from {throttling.source})")
    return "\n".join(lines) + "\n"


def _link(stats: list[str], settings: Settings | None, bundle: Bundle) -> str:
    backend = settings.unit.backend if settings is not None else "unknown"
    head = f"back end: {backend}\n"
    if not stats:
        bundle.missing["link figures"] = "no stats line in the service's log"
        return head + "(no stats line in the log: the service logs one a minute)\n"
    return head + "the service's last stats lines:\n" + "\n".join(stats[-10:]) + "\n"


def _wiring(settings: Settings | None, root: Path) -> str:
    if settings is None:
        return "(the configuration cannot be used: see settings.txt)\n"
    unit = settings.unit
    lines = [f"back end: {unit.backend}"]
    if unit.backend == "serial":
        port = unit.serial_port or "/dev/showdown-unit"
        lines.append(f"serial port: {port} ({'present' if _exists(root, port) else 'ABSENT'})")
    chips = sorted(p.name for p in (root / "dev").glob("gpiochip*"))
    lines.append("GPIO chips: " + (", ".join(chips) or "none (no GPIO on this machine)"))
    by_id = sorted((root / "dev/serial/by-id").glob("*"))
    lines.append("USB serial devices: " + (", ".join(p.name for p in by_id) or "none"))
    named = _exists(root, "/dev/showdown-unit")
    lines.append(f"/dev/showdown-unit (the udev rule's name): {'present' if named else 'absent'}")
    lines.append("")
    lines.append(f"{'setting':<20} {'GPIO':<7} {'pin':>3}  {'active':<6} part: how")
    pins = {name: (line.pin, str(line.active)) for name, line in unit.pins.lines().items()}
    for row in wired_lines(pins):
        lines.append(f"{row.line:<20} {row.gpio:<7} {row.header_pin:>3}  {row.active:<6} "
                     f"{row.part}: {row.how}")
    others = unit.model_dump(mode="json", exclude={"pins", "timing"})
    lines.append("")
    lines.append("other [unit] settings: " + json.dumps(_redacted(others)))
    timing = unit.timing
    lines.append(f"launcher pulse {timing.launcher_pulse_ms:g} ms, cool-down "
                 f"{timing.launcher_cooldown_ms:g} ms")
    return "\n".join(lines) + "\n"


def _exists(root: Path, device: str) -> bool:
    return (root / device.lstrip("/")).exists()


def _readme(bundle: Bundle) -> str:
    lines = [
        "UNO Showdown support bundle",
        f"made {_now()} by showdown {__version__}",
        "",
        "files: versions.txt, settings.txt, log.txt, kernel.txt, journal.txt, health.txt, "
        "link.txt, wiring.txt, summary.json",
        bundle.names,
        "",
        "could not read:" if bundle.missing else "every source was read.",
    ]
    lines += [f"  {source}: {why}" for source, why in sorted(bundle.missing.items())]
    lines += ["", "What each symptom looks like in these files: docs/troubleshooting.md"]
    return "\n".join(lines) + "\n"
