"""``showdown check --report PATH``: the support bundle, opened and read as a helper would.

On this machine (no Pi, no unit, no journalctl for the service) it says what it could not read;
after a game on the simulator it holds the journal's check, the stats lines and the log without
the players' names; on a Pi (a fake tree under a root, a fake ``journalctl`` and ``vcgencmd`` on
PATH: the edges of the world) it shows the under-voltage and the wiring as configured."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from showdown.app import cli
from showdown.app.config import load_settings
from showdown.app.report import gather, write_bundle
from tests.showdown.app.test_health import fake_vcgencmd, pi_tree, write

FILES = {"README.txt", "versions.txt", "settings.txt", "log.txt", "kernel.txt", "journal.txt",
         "health.txt", "link.txt", "wiring.txt", "summary.json"}


def opened(path: Path) -> dict[str, str]:
    """Every file of a bundle by its name (the top folder dropped)."""
    files: dict[str, str] = {}
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                files[name.split("/", 1)[1]] = archive.read(name).decode("utf-8")
    else:
        with tarfile.open(path, "r:gz") as archive:
            for member in archive.getmembers():
                data = archive.extractfile(member)
                assert data is not None
                files[member.name.split("/", 1)[1]] = data.read().decode("utf-8")
    tops = {name.split("/")[0] for name in _names(path)}
    assert len(tops) == 1 and next(iter(tops)).startswith("showdown-report-")
    return files


def _names(path: Path) -> list[str]:
    if path.name.endswith(".zip"):
        with zipfile.ZipFile(path) as archive:
            return archive.namelist()
    with tarfile.open(path, "r:gz") as archive:
        return archive.getnames()


@pytest.fixture
def bare(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This machine as a stranger to the unit: nothing on PATH, no configuration, no journal."""
    folder = tmp_path / "bin"
    folder.mkdir()
    monkeypatch.setenv("PATH", str(folder))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in list(os.environ):
        if name.upper().startswith("SHOWDOWN_"):
            monkeypatch.delenv(name)
    return folder


def test_on_a_machine_without_a_unit_it_says_what_it_could_not_read(
    tmp_path: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "bundle.tar.gz"
    assert cli.main(["check", "--report", str(out)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"wrote {out} (10 files, ")
    assert "could not read log: no journalctl (give the service's output with --log FILE)" in said
    assert "could not read throttling: no vcgencmd, no rpi_volt sensor" in said
    files = opened(out)
    assert set(files) == FILES
    readme = files["README.txt"]
    assert "could not read:\n" in readme and "  log: no journalctl" in readme
    assert "  journal: no journal at " in readme
    assert files["log.txt"] == "(no log lines)\n"
    assert "no stats line in the log" in files["link.txt"]
    assert "back end: gpio" in files["wiring.txt"]
    assert "paddle_left          GPIO17   11  low" in files["wiring.txt"]
    assert files["versions.txt"].startswith("showdown 0.1.0\npython 3.")


def test_the_bundle_of_a_game_on_the_simulator_leaves_the_names_out(
    tmp_path: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole game on the simulated unit, its output kept as the journal of systemd would keep
    it; then the bundle: journal ok, the stats line, the log with 'player N' for every name."""
    db, log = tmp_path / "sim.db", tmp_path / "service.log"
    with log.open("w") as output:
        done = subprocess.run(
            [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--fast", "--games",
             "1", "--players", "2", "--seed", "4", "--db", str(db)],
            stdout=output, stderr=subprocess.STDOUT, timeout=300, check=False,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    assert done.returncode == 0, log.read_text()
    text = log.read_text()
    names = {"Ada", "Ben"}
    assert all(name in text for name in names), text[-2000:]
    out = tmp_path / "sim.zip"
    assert cli.main(["check", "--report", str(out), "--db", str(db), "--log", str(log)]) == 0
    assert "player names: left out (2 replaced by 'player N')" in capsys.readouterr().out
    files = opened(out)
    assert "games: 1, entries: " in files["journal.txt"]
    assert "integrity check: ok" in files["journal.txt"]
    assert "stats: link none (the simulated unit); pi " in files["link.txt"]
    assert re.search(r"game over: player [12] won \(player 1 \d+, player 2 \d+\)",
                     files["log.txt"])
    everything = "\n".join(files.values())
    assert not any(name in everything for name in names)

    with_names = tmp_path / "named.tar.gz"
    assert cli.main(["check", "--report", str(with_names), "--db", str(db), "--log", str(log),
                     "--include-names"]) == 0
    assert re.search(r"game over: (Ada|Ben) won \(Ada \d+, Ben \d+\)",
                     opened(with_names)["log.txt"])


PREFIX = "2026-05-01T20:{} pi showdown[612]: "
SERVICE_LOG = "".join(PREFIX.format(stamp) + text + "\n" for stamp, text in [
    ("14:03+0100", "20:14:03 unit back end: the parts behind a Pico on USB"),
    ("14:03+0100", "20:14:03 stats: link /dev/showdown-unit up, rtt 2.3 ms (rto 30 ms), "
                   "retransmits 0, damaged 0, dropped 0, duplicates 0, reconnects 0, mcu "
                   "restarts 0, faults 0; pi 51.0 C"),
    ("31:40+0100", "20:31:40 serial link to the unit down: read failed"),
    ("31:41+0100", "showdown: Zoe O'Hara beat Max (race) - Max takes 3"),
    ("32:03+0100", "20:32:03 stats: link /dev/showdown-unit up, rtt 2.9 ms (rto 30 ms), "
                   "retransmits 41 (+41), damaged 12 (+12), dropped 1 (+1), duplicates 0, "
                   "reconnects 1 (+1), mcu restarts 1 (+1), faults 0"),
])
KERNEL_LOG = """\
2026-05-01T20:31:40+0100 pi kernel: hwmon hwmon1: Undervoltage detected!
2026-05-01T20:31:40+0100 pi kernel: usb 1-1.3: USB disconnect, device number 4
2026-05-01T20:31:41+0100 pi kernel: cdc_acm 1-1.3:1.0: ttyACM0: USB ACM device
2026-05-01T20:31:45+0100 pi kernel: hwmon hwmon1: Voltage normalised
2026-05-01T20:31:46+0100 pi kernel: brcmfmac: power management disabled
"""


def a_pi(tmp_path: Path, bin_folder: Path) -> Path:
    """A Pi 4 behind a weak supply, its unit behind a Pico, as the bundle's sources show it."""
    root = pi_tree(tmp_path / "root")
    write(root, "proc/device-tree/model", "Raspberry Pi 4 Model B Rev 1.5\x00")
    write(root, "etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    write(root, "etc/showdown/environment",
          "SDL_KMSDRM_DEVICE_INDEX=1\nMQTT_PASSWORD=hunter2\nSHOWDOWN_RUN_OPTIONS=--headless\n")
    write(root, "dev/gpiochip0", "")
    write(root, "dev/showdown-unit", "")
    write(root, "dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_e6614c3-if00", "")
    (tmp_path / "service.log").write_text(SERVICE_LOG)
    (tmp_path / "kernel.log").write_text(KERNEL_LOG)
    fake_vcgencmd(bin_folder, 'case "$1" in get_throttled) echo throttled=0x50005;; '
                              'version) echo "Mar 17 2025 10:50:39"; echo "version abc (clean)";; '
                              "esac")
    journalctl = bin_folder / "journalctl"
    cat = "/bin/cat"  # PATH holds only the fakes
    journalctl.write_text(f'#!/bin/sh\ncase "$*" in *-k*) {cat} {tmp_path / "kernel.log"};; '
                          f'*"-u showdown"*) {cat} {tmp_path / "service.log"};; esac\n')
    journalctl.chmod(0o755)
    return root


def test_on_a_pi_with_a_weak_supply_the_bundle_shows_it(tmp_path: Path, bare: Path) -> None:
    root = a_pi(tmp_path, bare)
    config = tmp_path / "showdown.toml"
    config.write_text('[unit]\nbackend = "serial"\n[storage]\npath = "/nowhere/showdown.db"\n')
    settings = load_settings(config)
    bundle = gather(settings=settings, settings_error=None, config=config,
                    db=tmp_path / "none.db", root=root)
    files = bundle.files
    assert "board Raspberry Pi 4 Model B Rev 1.5" in files["versions.txt"]
    assert "pi firmware Mar 17 2025 10:50:39 / version abc (clean)" in files["versions.txt"]
    assert "os Debian GNU/Linux 12 (bookworm)" in files["versions.txt"]
    assert "throttling now: under-voltage, throttled; since boot: under-voltage" \
        in files["health.txt"]
    assert "get_throttled: 0x50005 (from vcgencmd)" in files["health.txt"]
    kernel = files["kernel.txt"]
    assert "Undervoltage detected!" in kernel and "USB disconnect" in kernel
    assert "brcmfmac" not in kernel
    assert "retransmits 41 (+41), damaged 12 (+12)" in files["link.txt"]
    assert "serial port: /dev/showdown-unit (present)" in files["wiring.txt"]
    assert "GPIO chips: gpiochip0" in files["wiring.txt"]
    assert "usb-MicroPython_Board_in_FS_mode_e6614c3-if00" in files["wiring.txt"]
    settings_text = files["settings.txt"]
    assert "MQTT_PASSWORD=<redacted>" in settings_text and "hunter2" not in settings_text
    assert "SDL_KMSDRM_DEVICE_INDEX=1" in settings_text
    assert '"backend": "serial"' in settings_text
    # no journal here: no names are known, none to leave out; the log is whole
    assert "Zoe O'Hara beat Max" in files["log.txt"]
    assert bundle.names == "player names: left out (0 replaced by 'player N')"


def test_names_from_the_journal_are_replaced_wherever_they_stand(
    tmp_path: Path, bare: Path
) -> None:
    from showdown.game.journal import Journal
    from showdown.game.messages import SetUpGame
    from showdown.game.session import Session

    root = a_pi(tmp_path, bare)
    db = tmp_path / "showdown.db"
    with Journal.open(db) as journal:
        Session(journal).handle(SetUpGame(players=["Zoe O'Hara", "Max"], preset="showdown"))
    bundle = gather(settings=load_settings(None), settings_error=None, config=None, db=db,
                    root=root)
    log = bundle.files["log.txt"]
    assert "player 1 beat player 2 (race) - player 2 takes 3" in log
    assert "Zoe" not in log and "Max" not in log
    assert "games: 1, entries: 1" in bundle.files["journal.txt"]


def test_a_journal_that_cannot_be_read_keeps_the_log_out(tmp_path: Path, bare: Path) -> None:
    root = a_pi(tmp_path, bare)
    db = tmp_path / "broken.db"
    db.write_bytes(b"not a journal at all" * 10)
    bundle = gather(settings=load_settings(None), settings_error=None, config=None, db=db,
                    root=root)
    assert "Zoe" not in bundle.files["log.txt"]
    assert "stats: link /dev/showdown-unit up" in bundle.files["log.txt"]  # never a name in them
    assert "player names: unknown (the journal could not be read)" in bundle.names
    assert "integrity check: cannot open it: " in bundle.files["journal.txt"]
    assert "journal" in bundle.missing


def test_a_configuration_that_cannot_be_used_is_reported_not_refused(
    tmp_path: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text("[unit.pins]\npaddle_left = { pin = \"GPIO0\", active = \"low\" }\n")
    out = tmp_path / "b.zip"
    assert cli.main(["check", "--config", str(config), "--report", str(out)]) == 0
    said = capsys.readouterr().out
    assert "the configuration cannot be used: " in said and "GPIO0 is reserved" in said
    files = opened(out)
    assert "THE CONFIGURATION CANNOT BE USED: " in files["settings.txt"]
    assert files["wiring.txt"].startswith("(the configuration cannot be used")


@pytest.mark.parametrize("name", ["bundle.txt", "bundle.tar", "bundle"])
def test_a_bundle_name_without_its_kind_is_refused_before_anything_is_read(
    tmp_path: Path, bare: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    assert cli.main(["check", "--report", str(tmp_path / name)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"showdown: error: --report {tmp_path / name}: the bundle's name must end in .tar.gz "
        "or .zip")
    assert list(tmp_path.iterdir()) == [bare]


def test_an_existing_file_is_never_replaced(
    tmp_path: Path, bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "kept.tar.gz"
    out.write_bytes(b"an earlier bundle")
    assert cli.main(["check", "--report", str(out)]) == 2
    assert "the file exists; choose another name" in capsys.readouterr().err
    assert out.read_bytes() == b"an earlier bundle"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "kept.tar.gz"]


def test_the_options_of_the_bundle_need_report(
    bare: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["check", "--include-names"]) == 2
    assert "--include-names, --log and --db go with --report PATH" in capsys.readouterr().err


def test_write_bundle_makes_a_whole_archive(tmp_path: Path) -> None:
    from showdown.app.report import Bundle

    bundle = Bundle(files={"a.txt": "one\n", "b.txt": "two\n"})
    size = write_bundle(bundle, tmp_path / "x.tgz")
    data = (tmp_path / "x.tgz").read_bytes()
    assert size == len(data)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        assert sorted(m.name.split("/", 1)[1] for m in archive.getmembers()) == ["a.txt", "b.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["x.tgz"]  # no temporary file left
