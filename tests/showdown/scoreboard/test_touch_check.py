"""``showdown check --screen``: four taps tell a matching, turned, mirrored or offset touch panel,
and the ``touch_matrix`` printed puts every tap on its target, as the scoreboard then reads it.
Taps are synthetic pygame finger events, as SDL delivers them, on the dummy video driver."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from showdown.app import cli
from showdown.app.config import load_settings
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.touch import corrected, finger_event, to_press
from showdown.scoreboard.touch_check import (
    SYMMETRIES,
    TARGETS,
    TOLERANCE,
    TouchCheck,
    compose,
    diagnose,
    matrix_text,
)
from showdown.scoreboard.touch_matrix import IDENTITY, TouchMatrix
from tests.showdown.scoreboard.helpers import ARTIFACTS

ROT180: TouchMatrix = (-1.0, 0.0, 1.0, 0.0, -1.0, 1.0)


def inverse(matrix: TouchMatrix) -> TouchMatrix:
    a, b, c, d, e, f = matrix
    det = a * e - b * d
    ia, ib, id_, ie = e / det, -b / det, -d / det, a / det
    return (ia, ib, -(ia * c + ib * f), id_, ie, -(id_ * c + ie * f))


def panel(wrong: TouchMatrix) -> list[tuple[float, float]]:
    """Where a panel whose touch needs *wrong* to be corrected reports taps on the targets."""
    undo = inverse(wrong)
    return [corrected(undo, x, y) for x, y in TARGETS]


def lands_on_targets(fix: TouchMatrix, raw: list[tuple[float, float]]) -> bool:
    return all(abs(cx - tx) <= TOLERANCE and abs(cy - ty) <= TOLERANCE
               for (cx, cy), (tx, ty) in zip((corrected(fix, x, y) for x, y in raw), TARGETS,
                                             strict=True))


@pytest.mark.parametrize("symmetry", SYMMETRIES, ids=lambda s: s.overlay or "none")
def test_each_turn_and_mirror_is_named_with_its_fix(symmetry: object) -> None:
    fix = symmetry.matrix  # type: ignore[attr-defined]
    verdict = diagnose(panel(fix))
    if fix == IDENTITY:
        assert verdict.ok and verdict.matrix is None and verdict.worst_px < 1
        return
    assert verdict.kind == "turned"
    assert verdict.what == f"the touch is {symmetry.what}"  # type: ignore[attr-defined]
    assert verdict.matrix == fix
    assert verdict.overlay == symmetry.overlay  # type: ignore[attr-defined]
    assert lands_on_targets(verdict.matrix, panel(fix))


def test_the_kernels_overlay_order_is_invert_then_swap() -> None:
    """touchscreen_apply_prop_to_x_y inverts x and y first, then swaps: so 'invx,swapxy' maps a
    raw (x, y) to (y, 1 - x), which is the matrix named with it."""
    by_overlay = {s.overlay: s.matrix for s in SYMMETRIES}
    for overlay, matrix in by_overlay.items():
        for x, y in ((0.1, 0.3), (0.7, 0.2)):
            kx, ky = (1 - x if "invx" in overlay else x), (1 - y if "invy" in overlay else y)
            if "swapxy" in overlay:
                kx, ky = ky, kx
            assert corrected(matrix, x, y) == pytest.approx((kx, ky))


def test_an_offset_panel_gets_a_calibration() -> None:
    wrong: TouchMatrix = (1.25, 0.0, -0.12, 0.0, 0.8, 0.14)
    verdict = diagnose(panel(wrong))
    assert verdict.kind == "offset" and verdict.matrix is not None
    assert verdict.matrix == pytest.approx(wrong, abs=1e-3)
    assert lands_on_targets(verdict.matrix, panel(wrong))
    assert verdict.worst_px > 20


def test_the_fix_replaces_the_matrix_already_configured() -> None:
    """A panel turned 180 degrees with only x corrected so far: the line printed corrects both."""
    current: TouchMatrix = (-1.0, 0.0, 1.0, 0.0, 1.0, 0.0)
    raw = panel(ROT180)
    verdict = diagnose(raw, current)
    assert verdict.kind == "turned" and verdict.matrix == ROT180
    assert verdict.overlay == ""  # the kernel's overlay would stack on top of the matrix
    assert diagnose(raw, ROT180).ok


def test_taps_that_fit_nothing_are_not_given_a_fix() -> None:
    raw = [TARGETS[0], TARGETS[2], TARGETS[1], TARGETS[3]]  # a bowtie: targets tapped out of order
    verdict = diagnose(raw)
    assert verdict.kind == "unclear" and verdict.matrix is None
    assert diagnose([(0.5, 0.5)] * 4).kind == "unclear"


def test_matrix_text_is_what_toml_and_the_settings_take(tmp_path: Path) -> None:
    assert matrix_text(ROT180) == "[-1, 0, 1, 0, -1, 1]"
    assert matrix_text((1.1234, 0.0, -0.0701, 0.0, 0.9, 0.06)) == \
        "[1.1234, 0, -0.0701, 0, 0.9, 0.06]"
    config = tmp_path / "showdown.toml"
    config.write_text(f"[scoreboard]\ntouch_matrix = {matrix_text(ROT180)}\n")
    assert load_settings(config).scoreboard.touch_matrix == ROT180


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(SYMMETRIES),
    st.tuples(st.floats(0.85, 1.15), st.floats(0.85, 1.15), st.floats(-0.08, 0.08),
              st.floats(-0.08, 0.08)),
    st.lists(st.tuples(st.floats(-0.01, 0.01), st.floats(-0.01, 0.01)), min_size=4, max_size=4),
)
def test_any_turn_with_any_small_calibration_error_gets_a_fix_that_lands(
    symmetry: object, calibration: tuple[float, float, float, float],
    jitter: list[tuple[float, float]],
) -> None:
    """A panel turned or mirrored, scaled by up to 15 % and shifted by up to 8 %, tapped a little
    off each target: the fix printed (or none, when none is needed) lands every tap."""
    sx, sy, ox, oy = calibration
    wrong = compose((sx, 0.0, ox, 0.0, sy, oy), symmetry.matrix)  # type: ignore[attr-defined]
    raw = [(x + jx, y + jy) for (x, y), (jx, jy) in zip(panel(wrong), jitter, strict=True)]
    verdict = diagnose(raw)
    if verdict.matrix is None:
        assert verdict.ok
        assert lands_on_targets(IDENTITY, raw)
    else:
        assert verdict.kind in ("turned", "offset")
        assert lands_on_targets(verdict.matrix, raw)


def test_the_scoreboard_reads_a_finger_through_the_matrix() -> None:
    layout = Layout(800, 480)
    event = finger_event(pygame.FINGERDOWN, 0.9, 0.75)
    press = to_press(event, layout, (800, 480), touch=ROT180)
    assert press is not None and press.pos == pytest.approx((80.0, 120.0))
    untouched = to_press(event, layout, (800, 480))
    assert untouched is not None and untouched.pos == pytest.approx((720.0, 360.0))


@pytest.mark.parametrize("bad", ["[1, 0, 0, 0, 1]", "[1, 0, 0, 2, 0, 0]", "[1, 0, 0, 0, true, 0]",
                                 "[1, 0, 0, 0, 1, inf]", "[1, 0, 0, 0, 1e9, 0]", '"rotate"'])
def test_a_bad_touch_matrix_is_one_line_naming_the_setting(
    tmp_path: Path, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "showdown.toml"
    config.write_text(f"[scoreboard]\ntouch_matrix = {bad}\n")
    assert cli.main(["check", "--screen", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"showdown: error: {config}:2: scoreboard.touch_matrix: ")
    assert "\n" not in err


@pytest.fixture
def window() -> Iterator[pygame.Surface]:
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    pygame.display.init()
    surface = pygame.display.set_mode((800, 480))
    pygame.event.clear()
    yield surface
    pygame.display.quit()


def post_taps(raw: list[tuple[float, float]]) -> None:
    for finger, (x, y) in enumerate(raw, start=3):
        pygame.event.post(finger_event(pygame.FINGERDOWN, x, y, finger))
        pygame.event.post(finger_event(pygame.FINGERUP, x, y, finger))


def test_four_taps_on_a_turned_panel_through_the_event_loop(window: pygame.Surface) -> None:
    raw = panel(ROT180)
    check = TouchCheck(window)
    post_taps(raw[:2])
    pygame.event.post(finger_event(pygame.FINGERDOWN, 0.5, 0.5, 1))  # a second finger...
    for x, y in raw[2:]:
        pygame.event.post(finger_event(pygame.FINGERDOWN, x, y, 9))  # ...held: these are not taps
    pygame.event.post(finger_event(pygame.FINGERUP, 0.5, 0.5, 1))
    post_taps(raw[2:])
    verdict = check.run()
    assert check.taps == [raw[0], raw[1], (0.5, 0.5), raw[2]]
    assert verdict.kind == "unclear"  # the held finger's tap was taken for target 3

    pygame.event.clear()
    again = TouchCheck(window)
    post_taps(raw[:2])
    for _ in range(4):  # two taps: down and up each
        assert again.handle(pygame.event.poll())
    assert len(again.taps) == 2
    again.draw()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(window, str(ARTIFACTS / "touch-check-target-3.png"))
    assert window.get_at((round(0.85 * 800), round(0.8 * 480)))[:3] == (250, 200, 40)
    post_taps(raw[2:])
    verdict = again.run()
    assert verdict.kind == "turned" and verdict.matrix == ROT180


def test_no_tap_within_the_timeout_says_so(window: pygame.Surface) -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 30.0  # every look at the clock is half a minute later
        return now[0]

    verdict = TouchCheck(window, timeout_s=20, clock=clock).run()
    assert verdict.kind == "no touch"
    assert verdict.what.startswith("no tap came within 20 s of target 1: is the touch panel "
                                   "connected")


def test_escape_stops_and_a_mouse_click_is_not_a_tap(window: pygame.Surface) -> None:
    check = TouchCheck(window)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(100, 100), button=1,
                                         touch=False))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0))
    verdict = check.run()
    assert verdict.kind == "stopped" and check.taps == []
    assert check.note == "that was a mouse click: tap the target with a finger"


def test_check_screen_prints_the_setting_that_fixes_a_turned_panel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    config = tmp_path / "showdown.toml"
    config.write_text("[unit]\nbuzzer_kind = \"plain\"\n")
    pygame.display.init()  # so the taps can wait in SDL's queue for the check
    post_taps(panel(ROT180))
    code = cli.main(["check", "--screen", "--config", str(config)])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[0].startswith("touch: the touch is turned 180 degrees (x and y inverted) (the "
                             "worst tap landed ")
    assert out[1:4] == [f"fix: in {config}, set (the scoreboard applies it to every touch):",
                        "  [scoreboard]", "  touch_matrix = [-1, 0, 1, 0, -1, 1]"]
    assert "dtoverlay=vc4-kms-dsi-7inch,invx,invy" in out[-1]
    assert not pygame.display.get_init()

    config.write_text(f"[scoreboard]\ntouch_matrix = {matrix_text(ROT180)}\n")
    pygame.display.init()
    post_taps(panel(ROT180))
    assert cli.main(["check", "--screen", "--config", str(config)]) == 0
    assert capsys.readouterr().out.startswith("touch: the touch matches the screen")


def test_no_screen_here_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    """Over SSH to a machine without a display (no DISPLAY, no Wayland, no KMS console)."""
    if Path("/dev/dri").is_dir() and any(Path("/dev/dri").glob("card*")):
        pytest.skip("this machine has a KMS console: a screen could open")
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    config = tmp_path / "showdown.toml"
    config.write_text("")
    assert cli.main(["check", "--screen", "--config", str(config)]) == 2
    assert capsys.readouterr().err.strip() == (
        "showdown: error: --screen cannot open the screen: no DISPLAY or WAYLAND_DISPLAY and no "
        "KMS console (/dev/dri)")
