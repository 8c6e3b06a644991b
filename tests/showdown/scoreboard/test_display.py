"""No screen, no invisible window: the scoreboard says it cannot open (and the service runs
headless with its live status), instead of drawing into SDL's offscreen fallback unseen. A driver
asked for by name (``dummy`` in these tests, ``kmsdrm`` on the Pi) is always honoured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from showdown.app.cli import main
from showdown.scoreboard.display import NoWindowError, check_driver, check_environment

NO_SCREEN = {"PATH": "/usr/bin:/bin"}


def test_no_display_and_no_kms_console_means_no_window(tmp_path: Path) -> None:
    with pytest.raises(NoWindowError, match="DISPLAY"):
        check_environment(NO_SCREEN, dri=tmp_path / "dri", platform="linux")


@pytest.mark.parametrize("environ", [
    {"DISPLAY": ":0"}, {"WAYLAND_DISPLAY": "wayland-0"}, {"SDL_VIDEODRIVER": "dummy"},
    {"SDL_VIDEODRIVER": "kmsdrm"},
])
def test_a_screen_or_a_driver_asked_for_by_name_is_trusted(
    environ: dict[str, str], tmp_path: Path
) -> None:
    check_environment(environ, dri=tmp_path / "dri", platform="linux")


def test_a_kms_console_counts_as_a_screen(tmp_path: Path) -> None:
    (tmp_path / "dri").mkdir()
    (tmp_path / "dri" / "card0").touch()
    check_environment(NO_SCREEN, dri=tmp_path / "dri", platform="linux")


def test_sdl_falling_back_to_an_invisible_driver_by_itself_is_caught() -> None:
    pygame.display.init()  # the dummy driver, as this test directory asks
    try:
        check_driver({"SDL_VIDEODRIVER": "dummy"})  # asked for: fine
        with pytest.raises(NoWindowError, match="dummy"):
            check_driver({})  # SDL chose it by itself: nobody would see the window
    finally:
        pygame.display.quit()


def _without_screen() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in {"DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"}}
    return env


@pytest.mark.skipif(Path("/dev/dri").exists(), reason="this machine has a KMS console")
def test_run_without_a_screen_says_so_once_and_keeps_score_headless(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "showdown", "run", "--sim", "--fast", "--games", "1",
         "--db", str(tmp_path / "s.db")],
        env=_without_screen(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert process.stdout is not None
    seen = []
    for line in process.stdout:
        seen.append(line)
        if line.startswith("round 1:"):
            break
    process.terminate()
    rest, _ = process.communicate(timeout=30)
    output = "".join(seen) + rest
    assert output.count("no screen for the scoreboard") == 1
    assert "XDG_RUNTIME_DIR" not in output
    assert "Ctrl-C stops it" in output
    assert "round 1:" in output


@pytest.mark.skipif(Path("/dev/dri").exists(), reason="this machine has a KMS console")
def test_interactive_and_scoreboard_without_a_screen_refuse_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for key in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(key, raising=False)
    missing = tmp_path / "missing.db"
    assert main(["scoreboard", "--db", str(missing)]) == 2
    assert "needs a screen and none can open here" in capsys.readouterr().err
    assert not missing.exists()  # nothing made for a scoreboard that never opened
    assert main(["run", "--sim", "--interactive", "--db", str(tmp_path / "i.db")]) == 2
    assert "--interactive needs a window" in capsys.readouterr().err
    assert not (tmp_path / "i.db").exists()


def test_a_missing_journal_is_named_as_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.db"

    def play(*_args: object, **_kwargs: object) -> None:  # the window itself is tested elsewhere
        return None

    monkeypatch.setattr("showdown.app.scoreboard_main.play", play)
    assert main(["scoreboard", "--db", str(missing)]) == 0
    assert f"no journal at {missing}: starting a new one" in capsys.readouterr().err
