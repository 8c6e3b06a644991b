"""The wiring pictures in docs/ are what their drivers draw now: one per launcher motor driver
(tools/diagrams/drivers.py, docs/drivers/<driver>.png) and the whole header
(tools/diagrams/wiring.py, docs/wiring.png). A changed pin, board or note fails here until the
picture is drawn again."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.unit.drivers import DRIVER_NAMES, DRIVERS
from tools.diagrams import drivers, wiring

REPO = Path(__file__).resolve().parents[2]


def assert_same_picture(drawn: object, committed_path: Path, command: str) -> None:
    """The committed PNG is the drawn surface, pixel for pixel (as the scoreboard's screenshots:
    a changed word is a few dozen pixels)."""
    import pygame

    assert committed_path.exists(), f"run: {command}"
    committed = pygame.image.load(str(committed_path))
    assert isinstance(drawn, pygame.Surface)
    assert committed.get_size() == drawn.get_size(), f"run: {command}"
    ours, theirs = (pygame.image.tobytes(s, "RGB") for s in (drawn, committed))
    if ours == theirs:
        return
    differing = sum(ours[i : i + 3] != theirs[i : i + 3] for i in range(0, len(ours), 3))
    assert differing == 0, f"{differing} pixels differ; run {command} and look at the picture"


@pytest.mark.parametrize("name", DRIVER_NAMES)
def test_each_drivers_committed_diagram_is_what_the_script_draws(name: str) -> None:
    config = drivers.example(name)
    drawn = drivers.draw(DRIVERS[name], drivers.read_settings(config),
                         config.relative_to(REPO).as_posix())
    assert_same_picture(drawn, REPO / "docs" / "drivers" / f"{name}.png",
                        "make diagram-drivers")


def test_every_driver_has_a_board_description_in_the_script() -> None:
    assert set(drivers.BOARDS) == set(DRIVER_NAMES)


def test_the_committed_header_diagram_is_what_the_script_draws() -> None:
    drawn = wiring.draw(wiring.wired_lines(wiring.read_pins(REPO / "deploy" / "showdown.toml")))
    assert_same_picture(drawn, REPO / "docs" / "wiring.png", "make diagram-wiring")
