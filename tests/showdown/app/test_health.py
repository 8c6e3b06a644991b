"""The Pi's health as the stats line and the support bundle read it: from fake sysfs and proc
trees and a fake ``vcgencmd`` on ``PATH`` (the edges of the world), as a Pi would present them."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.app import health
from showdown.app.health import parse_throttled, read_health


def write(root: Path, relative: str, text: str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def pi_tree(root: Path, *, temp_milli: str = "48312", under_voltage: str | None = None) -> Path:
    """What a Pi 4 shows: a CPU thermal zone, load and memory (and the rpi_volt monitor)."""
    write(root, "sys/class/thermal/thermal_zone0/type", "cpu-thermal\n")
    write(root, "sys/class/thermal/thermal_zone0/temp", f"{temp_milli}\n")
    write(root, "proc/loadavg", "0.42 0.30 0.25 1/180 1234\n")
    write(root, "proc/meminfo", "MemTotal:        1893000 kB\nMemFree:  1000 kB\n"
                                "MemAvailable:    1250000 kB\n")
    if under_voltage is not None:
        write(root, "sys/class/hwmon/hwmon0/name", "cpu_thermal\n")
        write(root, "sys/class/hwmon/hwmon1/name", "rpi_volt\n")
        write(root, "sys/class/hwmon/hwmon1/in0_lcrit_alarm", f"{under_voltage}\n")
    return root


def fake_vcgencmd(folder: Path, script: str) -> Path:
    """An executable called ``vcgencmd`` in *folder* running *script* (sh)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "vcgencmd"
    path.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder first on PATH (where a fake vcgencmd goes), and nothing else called vcgencmd."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin{os.pathsep}/bin")
    return folder


def test_an_under_volted_pi_says_so_now_and_since_boot(tmp_path: Path, on_path: Path) -> None:
    fake_vcgencmd(on_path, 'test "$1" = get_throttled && echo "throttled=0x50005"')
    reading = read_health(pi_tree(tmp_path / "root"))
    assert reading.temperature_c == pytest.approx(48.312)
    assert reading.throttling is not None
    assert reading.throttling.under_voltage_now and reading.throttling.under_voltage_since_boot
    assert reading.throttling.now() == ["under-voltage", "throttled"]
    assert reading.memory_mb == (1220, 1848)
    assert reading.line() == (
        "48.3 C, throttling now: under-voltage, throttled; since boot: under-voltage, "
        "throttled, load 0.42 0.30 0.25, memory 1220/1848 MiB free")


def test_a_healthy_pi_that_once_capped_its_clock(tmp_path: Path, on_path: Path) -> None:
    fake_vcgencmd(on_path, 'echo "throttled=0x20000"')
    line = read_health(pi_tree(tmp_path / "root")).line()
    assert "throttling now: none; since boot: ARM frequency capped" in line


def test_without_vcgencmd_the_kernel_monitor_still_tells_under_voltage(
    tmp_path: Path, on_path: Path
) -> None:
    reading = read_health(pi_tree(tmp_path / "root", under_voltage="1"))
    assert reading.throttling is not None and reading.throttling.source == "rpi_volt"
    assert reading.throttling.under_voltage_since_boot is None
    assert "throttling now: under-voltage (from rpi_volt: under-voltage only)" in reading.line()
    calm = read_health(pi_tree(tmp_path / "calm", under_voltage="0"))
    assert "throttling now: none (from rpi_volt" in calm.line()


def test_a_machine_without_any_source_says_what_is_missing(tmp_path: Path, on_path: Path) -> None:
    reading = read_health(tmp_path / "empty")
    assert reading.line() == (
        "temperature n/a (no thermal zone), throttling n/a (no vcgencmd, no rpi_volt sensor), "
        "load n/a (no /proc/loadavg), memory n/a (no MemAvailable in /proc/meminfo)")


def test_a_failing_vcgencmd_is_named_and_the_kernel_monitor_used(
    tmp_path: Path, on_path: Path
) -> None:
    """vcgencmd run by a user outside the video group cannot open /dev/vcio."""
    fake_vcgencmd(on_path, 'echo "VCHI initialization failed" >&2; exit 255')
    reading = read_health(pi_tree(tmp_path / "root"))
    assert reading.throttling is None
    assert "throttling n/a (vcgencmd failed: VCHI initialization failed, no rpi_volt sensor)" \
        in reading.line()
    with_monitor = read_health(pi_tree(tmp_path / "other", under_voltage="0"))
    assert with_monitor.throttling is not None
    assert with_monitor.throttling.source == "rpi_volt"


def test_a_vcgencmd_that_hangs_is_given_up(
    tmp_path: Path, on_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(health, "VCGENCMD_TIMEOUT_S", 0.2)
    fake_vcgencmd(on_path, "exec sleep 30")
    line = read_health(pi_tree(tmp_path / "root")).line()
    assert "vcgencmd gave no answer in 0.2 s" in line


def test_unreadable_figures_are_named_not_raised(tmp_path: Path, on_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "sys/class/thermal/thermal_zone0/temp", "hot\n")
    write(root, "proc/loadavg", "\n")
    write(root, "proc/meminfo", "MemTotal: lots\n")
    fake_vcgencmd(on_path, 'echo "throttled=maybe"')
    line = read_health(root).line()
    assert line.startswith("temperature n/a (thermal zone unreadable), throttling n/a "
                           "(vcgencmd failed: throttled=maybe, no rpi_volt sensor)")


@given(st.text(max_size=40))
def test_parse_throttled_takes_only_vcgencmds_answer(answer: str) -> None:
    value = parse_throttled(answer)
    assert value is None or (answer.strip().startswith("throttled=0x") and 0 <= value < 2**32)


def test_parse_throttled_examples() -> None:
    assert parse_throttled("throttled=0x50005\n") == 0x50005
    assert parse_throttled("throttled=0x0") == 0
    assert parse_throttled("throttled=50005") is None
    assert parse_throttled("error=1 error_msg=\"Command not registered\"") is None


@settings(max_examples=40, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30), st.text(max_size=60), st.text(max_size=20))
def test_any_file_contents_give_a_line_and_never_an_error(
    temp: str, kind: str, meminfo: str, loadavg: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        write(root, "sys/class/thermal/thermal_zone3/temp", temp)
        write(root, "sys/class/thermal/thermal_zone3/type", kind)
        write(root, "sys/class/hwmon/hwmon0/name", "rpi_volt")
        write(root, "sys/class/hwmon/hwmon0/in0_lcrit_alarm", temp)
        write(root, "proc/meminfo", meminfo)
        write(root, "proc/loadavg", loadavg)
        reading = read_health(root, vcgencmd=str(root / "no-such-vcgencmd"))
        assert reading.line()
