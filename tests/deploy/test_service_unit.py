"""The systemd unit and the udev rule: what systemd and udev will make of them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "deploy" / "showdown.service"
RULE = REPO / "deploy" / "99-showdown-unit.rules"
EXEC = "/opt/showdown/venv/bin/showdown"


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Key`` -> every value it is given in the unit (keys such as Environment= repeat)."""
    settings: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        settings.setdefault(key, []).append(value)
    return settings


def environment(settings: dict[str, list[str]]) -> dict[str, str]:
    """The ``Environment=`` assignments as a mapping."""
    return dict(value.split("=", 1) for value in settings["Environment"])


def test_unit_is_a_watched_notify_service_that_restarts() -> None:
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["Type"] == ["notify"]
    assert settings["Restart"] == ["on-failure"]
    assert re.fullmatch(r"\d+s?", settings["WatchdogSec"][0])
    assert settings["User"] == ["showdown"]
    env = environment(settings)
    assert env["PYTHONFAULTHANDLER"] == "1"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    # lgpio's pipes go to LG_WD: it must be the writable runtime directory systemd creates.
    assert env["LG_WD"] == "/run/" + settings["RuntimeDirectory"][0]


def test_unit_uses_absolute_paths_everywhere() -> None:
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["ExecStart"][0].split()[0] == EXEC
    assert settings["WorkingDirectory"][0].startswith("/")
    env = environment(settings)
    for name in ("LG_WD", "XDG_RUNTIME_DIR", "SHOWDOWN_CONFIG"):
        assert env[name].startswith("/"), name
    for word in settings["ExecStart"][0].split():
        if "/" in word:
            assert word.startswith("/"), word


def test_hardening_leaves_the_devices_reachable() -> None:
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert "PrivateDevices" not in settings  # would hide /dev/gpiochip*, /dev/dri, /dev/input
    assert "DevicePolicy" not in settings
    assert "DeviceAllow" not in settings  # one allow-list entry closes every other device
    assert "ProtectClock" not in settings  # implies DeviceAllow=char-rtc r
    assert set(settings["SupplementaryGroups"][0].split()) == {
        "gpio",
        "dialout",
        "video",
        "render",
        "input",
    }
    assert settings["ProtectSystem"] == ["strict"]
    # sd_notify and ALSA, udev's hot-plug, then the phone page, the event's broker and mDNS: in
    # the VM, without the last two the page said "Address family not supported by protocol"
    assert set(settings["RestrictAddressFamilies"][0].split()) == {
        "AF_UNIX", "AF_NETLINK", "AF_INET", "AF_INET6"}


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not here")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    # verify insists the ExecStart binary exists: point a temporary copy at a stand-in.
    stand_in = tmp_path / "showdown"
    stand_in.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    stand_in.chmod(0o755)
    copy = tmp_path / "showdown.service"
    copy.write_text(UNIT.read_text(encoding="utf-8").replace(EXEC, str(stand_in)), "utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    # Unknown or misspelt keys are only warnings: any message at all is a failure here.
    messages = [
        line for line in result.stderr.splitlines() if str(copy) in line or "showdown" in line
    ]
    assert messages == []


def rule_lines(text: str) -> list[str]:
    """The rule file's rules, comments and blank lines dropped."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def test_udev_rule_names_the_pico_and_keeps_modemmanager_away() -> None:
    rules = rule_lines(RULE.read_text(encoding="utf-8"))
    tty = [r for r in rules if 'SUBSYSTEM=="tty"' in r]
    assert len(tty) == 2  # the Pico itself, and an FTDI USB-serial adapter to its UART
    for rule, (vendor, product) in zip(tty, [("2e8a", "0005"), ("0403", "6001")], strict=True):
        for needle in (
            f'ATTRS{{idVendor}}=="{vendor}"',
            f'ATTRS{{idProduct}}=="{product}"',
            'SYMLINK+="showdown-unit"',
            'ENV{ID_MM_DEVICE_IGNORE}="1"',
            'GROUP="dialout"',
            'MODE="0660"',
        ):
            assert needle in rule, needle


def test_udev_rule_syntax_is_key_op_value() -> None:
    assignment = re.compile(r'^[A-Z_]+(\{[A-Za-z_]+\})?(==|!=|=|\+=|-=|:=)"[^"]*"$')
    for rule in rule_lines(RULE.read_text(encoding="utf-8")):
        for part in (p.strip() for p in rule.split(",")):
            assert assignment.match(part), part


def test_udev_rule_agrees_with_the_serial_link() -> None:
    # The serial back end looks for the same name and USB id that the rule gives the board.
    protocol = pytest.importorskip("firmware_bridge.protocol")
    rule = RULE.read_text(encoding="utf-8")
    assert f'ATTRS{{idVendor}}=="{protocol.USB_VID:04x}"' in rule
    assert f'ATTRS{{idProduct}}=="{protocol.USB_PID:04x}"' in rule
    assert protocol.STABLE_PATH == "/dev/showdown-unit"
    assert 'SYMLINK+="showdown-unit"' in rule


def test_the_edge_thread_may_run_at_realtime_priority() -> None:
    # showdown/unit/realtime.py asks for SCHED_FIFO up to the config's ceiling (99) as the non-root
    # service user: it needs CAP_SYS_NICE as an ambient capability (NoNewPrivileges keeps those),
    # kept in the bounding set, and RestrictRealtime= would forbid it outright.
    settings = unit_settings(UNIT.read_text(encoding="utf-8"))
    assert settings["User"] != ["root"]
    assert "CAP_SYS_NICE" in settings["AmbientCapabilities"][0].split()
    for bounding in settings.get("CapabilityBoundingSet", []):
        assert "CAP_SYS_NICE" in bounding.split()
    assert settings["LimitRTPRIO"] == ["99"]
    assert settings.get("RestrictRealtime", ["no"]) == ["no"]
