"""The Pi's health: CPU temperature, under-voltage and throttling, load and memory.

A flaky unit is most often a Pi short of power: the firmware drops the clock, USB and the SD card
misbehave, and it looks like a bug in whatever was running. So the service logs these figures
once a minute (:mod:`showdown.app.stats`) and ``showdown check --report`` puts them in its bundle.

Sources, each optional (a figure whose source is absent says why, briefly; nothing here raises):

- throttling: ``vcgencmd get_throttled`` (Raspberry Pi OS's ``raspi-utils``), whose bits are the
  firmware's: 0 under-voltage, 1 ARM frequency capped, 2 throttled, 3 soft temperature limit,
  each "now"; bits 16 to 19 the same "since boot". Without it, the kernel's ``rpi_volt`` hardware
  monitor (``/sys/class/hwmon/hwmon*/in0_lcrit_alarm``) still tells under-voltage. The older
  ``soc:firmware/get_throttled`` file is not read: newer kernels print a deprecation warning with a
  backtrace into the kernel log when it is.
- temperature: the CPU's thermal zone in ``/sys/class/thermal`` (millidegrees Celsius);
- load: ``/proc/loadavg``; memory: ``MemTotal`` and ``MemAvailable`` of ``/proc/meminfo``.

Every path is read under *root* and ``vcgencmd`` is found on ``PATH``, so tests give a fake tree
and a fake executable, as they would find them on a Pi.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["THROTTLE_BITS", "PiHealth", "Throttling", "parse_throttled", "read_health"]

THROTTLE_BITS: dict[int, str] = {
    0: "under-voltage",
    1: "ARM frequency capped",
    2: "throttled",
    3: "soft temperature limit",
}
"""``get_throttled``'s "now" bits; the same condition "since boot" is the bit 16 places up."""

SINCE_BOOT_SHIFT = 16
VCGENCMD_TIMEOUT_S = 2.0
"""``vcgencmd`` answers in milliseconds; one that hangs must not hold up the service."""


@dataclass(frozen=True)
class Throttling:
    """The firmware's throttling flags, or only the under-voltage of the kernel's monitor."""

    source: str
    """``"vcgencmd"`` (every flag) or ``"rpi_volt"`` (under-voltage now only)."""
    flags: int
    """``get_throttled``'s value (from ``rpi_volt``: bit 0 only)."""

    def now(self) -> list[str]:
        """The conditions in force now, by name."""
        return [name for bit, name in THROTTLE_BITS.items() if self.flags & (1 << bit)]

    def since_boot(self) -> list[str] | None:
        """The conditions seen since boot (``None`` when the source cannot tell)."""
        if self.source != "vcgencmd":
            return None
        return [name for bit, name in THROTTLE_BITS.items()
                if self.flags & (1 << (bit + SINCE_BOOT_SHIFT))]

    @property
    def under_voltage_now(self) -> bool:
        return bool(self.flags & 1)

    @property
    def under_voltage_since_boot(self) -> bool | None:
        if self.source != "vcgencmd":
            return None
        return bool(self.flags & (1 << SINCE_BOOT_SHIFT))


@dataclass(frozen=True)
class PiHealth:
    """One reading of every figure; ``None`` where the source is absent (see :attr:`missing`)."""

    temperature_c: float | None = None
    throttling: Throttling | None = None
    load: tuple[float, float, float] | None = None
    memory_mb: tuple[int, int] | None = None
    """(available, total) in MiB."""
    missing: dict[str, str] = field(default_factory=dict)
    """Figure -> why it could not be read (``"throttling": "no vcgencmd, no rpi_volt sensor"``)."""

    def line(self) -> str:
        """The figures in one short line, as the stats line and the bundle show them."""
        parts = []
        if self.temperature_c is not None:
            parts.append(f"{self.temperature_c:.1f} C")
        else:
            parts.append(f"temperature n/a ({self.missing.get('temperature', 'absent')})")
        throttling = self.throttling
        if throttling is None:
            parts.append(f"throttling n/a ({self.missing.get('throttling', 'absent')})")
        else:
            now = ", ".join(throttling.now()) or "none"
            since = throttling.since_boot()
            text = f"throttling now: {now}"
            if since is not None:
                text += f"; since boot: {', '.join(since) or 'none'}"
            else:
                text += f" (from {throttling.source}: under-voltage only)"
            parts.append(text)
        if self.load is not None:
            parts.append("load " + " ".join(f"{value:.2f}" for value in self.load))
        else:
            parts.append(f"load n/a ({self.missing.get('load', 'absent')})")
        if self.memory_mb is not None:
            available, total = self.memory_mb
            parts.append(f"memory {available}/{total} MiB free")
        else:
            parts.append(f"memory n/a ({self.missing.get('memory', 'absent')})")
        return ", ".join(parts)


def read_health(root: Path = Path("/"), vcgencmd: str | None = None) -> PiHealth:
    """Read every figure now; *vcgencmd* is the executable (default: found on ``PATH``)."""
    missing: dict[str, str] = {}
    temperature = _temperature(root, missing)
    throttling = _throttling(root, vcgencmd or shutil.which("vcgencmd"), missing)
    load = _load(root, missing)
    memory = _memory(root, missing)
    return PiHealth(temperature, throttling, load, memory, missing)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace").strip()


def _temperature(root: Path, missing: dict[str, str]) -> float | None:
    zones = sorted((root / "sys/class/thermal").glob("thermal_zone*"))
    if not zones:
        missing["temperature"] = "no thermal zone"
        return None

    def rank(zone: Path) -> int:  # the CPU's zone first (cpu-thermal on a Pi)
        try:
            kind = _text(zone / "type").lower()
        except OSError:
            return 2
        return 0 if "cpu" in kind or "soc" in kind else 1

    for zone in sorted(zones, key=rank):
        try:
            return int(_text(zone / "temp")) / 1000
        except (OSError, ValueError):
            continue
    missing["temperature"] = "thermal zone unreadable"
    return None


def _throttling(root: Path, vcgencmd: str | None, missing: dict[str, str]) -> Throttling | None:
    problems = []
    if vcgencmd is not None:
        try:
            done = subprocess.run(
                [vcgencmd, "get_throttled"], capture_output=True, text=True, check=False,
                timeout=VCGENCMD_TIMEOUT_S, env={**os.environ, "LC_ALL": "C"},
            )
            answer = done.stdout.strip()
            flags = parse_throttled(answer) if done.returncode == 0 else None
            if flags is not None:
                return Throttling("vcgencmd", flags)
            said = (done.stderr.strip() or answer or f"exit status {done.returncode}")
            problems.append(f"vcgencmd failed: {said.splitlines()[0][:80]}")
        except subprocess.TimeoutExpired:
            problems.append(f"vcgencmd gave no answer in {VCGENCMD_TIMEOUT_S:g} s")
        except (OSError, ValueError) as error:
            problems.append(f"vcgencmd failed: {error}")
    else:
        problems.append("no vcgencmd")
    for hwmon in sorted((root / "sys/class/hwmon").glob("hwmon*")):
        try:
            if _text(hwmon / "name") != "rpi_volt":
                continue
            return Throttling("rpi_volt", int(_text(hwmon / "in0_lcrit_alarm")) & 1)
        except (OSError, ValueError):
            continue
    problems.append("no rpi_volt sensor")
    missing["throttling"] = ", ".join(problems)
    return None


def parse_throttled(answer: str) -> int | None:
    """The value in ``vcgencmd get_throttled``'s answer (``throttled=0x50005``), ``None`` for
    anything else."""
    name, _, value = answer.strip().partition("=")
    if name != "throttled" or not value.startswith("0x"):
        return None
    try:
        flags = int(value, 16)
    except ValueError:
        return None
    return flags if 0 <= flags < 1 << 32 else None


def _load(root: Path, missing: dict[str, str]) -> tuple[float, float, float] | None:
    try:
        one, five, fifteen = (float(v) for v in _text(root / "proc/loadavg").split()[:3])
    except (OSError, ValueError):
        missing["load"] = "no /proc/loadavg"
        return None
    return one, five, fifteen


def _memory(root: Path, missing: dict[str, str]) -> tuple[int, int] | None:
    try:
        fields = {}
        for row in _text(root / "proc/meminfo").splitlines():
            name, _, rest = row.partition(":")
            fields[name.strip()] = int(rest.split()[0])
        return fields["MemAvailable"] // 1024, fields["MemTotal"] // 1024
    except (OSError, ValueError, KeyError, IndexError):
        missing["memory"] = "no MemAvailable in /proc/meminfo"
        return None
