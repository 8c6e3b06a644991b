"""Draw one wiring diagram per launcher motor driver board (docs/drivers/<driver>.png) from its
example configuration (deploy/examples/launcher-<driver>.toml), so each board's picture shows the
pins and the way of driving it that the software uses.

    python -m tools.diagrams.drivers [--driver tb6612] [--out-dir docs/drivers]
    (make diagram-drivers)

The Pi's header pins come from the example's ``[unit.pins]``, the board's inputs and how it is
driven from ``showdown/unit/drivers.py``. Change either, run this again, commit the pictures.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pygame

from showdown.unit.config import UnitSettings
from showdown.unit.drivers import DRIVER_NAMES, DRIVERS, LauncherDriver
from showdown.unit.wiring import physical_pin
from tools.offscreen import DOCS, REPO, parser, save

WIDTH, HEIGHT = 1400, 900
ROW_TOP, ROW_STEP = 230, 62
PI_BOX = pygame.Rect(40, 150, 380, 560)
BOARD_BOX = pygame.Rect(620, 150, 360, 560)
MOTOR_CENTRE = (1230, 300)
SUPPLY_BOX = pygame.Rect(1100, 510, 260, 130)
BACKGROUND = (250, 250, 246)
INK = (30, 30, 30)
GREY = (120, 120, 120)
PI_GREEN = (30, 110, 60)
BOARD_BLUE = (25, 70, 140)
WIRES = [(0, 120, 120), (60, 60, 160), (140, 90, 40), (160, 40, 110)]
POWER = {"3V3": (230, 140, 20), "GND": (20, 20, 20), "VM": (200, 30, 30)}
GND_PIN, LOGIC_PIN = 20, 17  # GND and 3V3 on the header, near the launcher's pins


@dataclass(frozen=True)
class Board:
    """What a builder sees on one board beyond its logic inputs."""

    title: str
    logic: str | None
    """The board's logic supply pin fed from the Pi's 3V3, if it has one."""
    extras: tuple[tuple[str, str], ...]
    """Board pins with no wire to the Pi: (label, what to do with it)."""
    outputs: tuple[str, str]
    supply: str
    """The motor supply's input on the board."""
    notes: tuple[str, ...]
    """What the picture says under it (``{brake_ms}``: the driver's brake time)."""


BOARDS: dict[str, Board] = {
    "dir-enable": Board(
        title="a DIR/EN motor driver (a DRV8838, a DRV8835 in PH/EN mode)",
        logic="VCC", extras=(("SLP / nSLEEP", "high to run: pulled up on most boards"),),
        outputs=("OUT1", "OUT2"), supply="VIN / VM",
        notes=("The pulse ends with EN low: the board's own stop (a DRV8838 brakes, both "
               "outputs low).",
               "At rest (start, close, after each pulse) both inputs are low: EN off.")),
    "drv8833": Board(
        title="a DRV8833 dual H-bridge breakout, bridge A",
        logic=None, extras=(("SLP / nSLEEP", "high to run: pulled up on most boards"),),
        outputs=("AOUT1", "AOUT2"), supply="VM",
        notes=("The pulse ends by coasting (AIN1 = AIN2 = 0, outputs off): its brake (both high) "
               "has no way back to rest but through a drive pattern.",
               "At rest (start, close, after each pulse) both inputs are low: coast; the chip's "
               "own pull-downs hold them so.")),
    "tb6612": Board(
        title="a TB6612FNG dual H-bridge breakout, bridge A",
        logic="VCC", extras=(),
        outputs=("AO1", "AO2"), supply="VM",
        notes=("The pulse ends with PWMA low: short brake, held {brake_ms} ms; then STBY low "
               "(standby) and every input low.",
               "At rest (start, close, after each pulse) every input is low: standby, "
               "outputs off.")),
    "l298n": Board(
        title="an L298N dual full-bridge module, bridge A (ENA jumper removed)",
        logic=None, extras=(("+5V", "own regulator (5V-EN jumper on)"),),
        outputs=("OUT1", "OUT2"), supply="+12V (VS)",
        notes=("The pulse ends with IN1 = IN2 and ENA high: fast motor stop, held {brake_ms} ms; "
               "then ENA low (free running) and every input low.",
               "Remove the ENA jumper, or ENA is always high and the board ignores the Pi's ENA. "
               "Brake current must stay under 2 A.")),
}


def example(name: str) -> Path:
    """The example configuration of the driver called *name*."""
    return REPO / "deploy" / "examples" / f"launcher-{name}.toml"


def read_settings(config: Path) -> UnitSettings:
    """The ``[unit]`` section of a configuration file, validated."""
    return UnitSettings(**tomllib.loads(config.read_text(encoding="utf-8")).get("unit", {}))


def _text(surface: pygame.Surface, font: pygame.font.Font, words: str, at: tuple[int, int],
          colour: tuple[int, int, int] = INK, *, right: bool = False) -> None:
    image = font.render(words, True, colour)
    x = at[0] - image.get_width() if right else at[0]
    surface.blit(image, (x, at[1] - image.get_height() // 2))


def _pin(surface: pygame.Surface, at: tuple[int, int], colour: tuple[int, int, int]) -> None:
    pygame.draw.circle(surface, colour, at, 9)
    pygame.draw.circle(surface, (255, 255, 255), at, 9, 2)


def draw(driver: LauncherDriver, settings: UnitSettings, source: str) -> pygame.Surface:
    """The whole diagram of one board on one surface."""
    pygame.font.init()
    title = pygame.font.Font(None, 42)
    text = pygame.font.Font(None, 27)
    small = pygame.font.Font(None, 22)
    board = BOARDS[driver.name]
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    surface.blit(title.render(f"UNO Showdown launcher: {board.title}", True, INK), (40, 30))
    surface.blit(text.render(
        f'launcher_driver = "{driver.name}". Pins from {source}; numbers are physical header pins.',
        True, INK), (40, 85))

    for box, colour, name in ((PI_BOX, PI_GREEN, "Raspberry Pi, 40-pin header"),
                              (BOARD_BOX, BOARD_BLUE, driver.name.upper() + " board")):
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=12)
        pygame.draw.rect(surface, colour, box, 4, border_radius=12)
        _text(surface, text, name, (box.left + 18, box.top + 30), colour)

    # One row per wire from the Pi: the driver's inputs in the configuration's order, then the
    # board's logic supply and ground.
    lines = settings.launcher_lines()
    ordered = sorted(lines, key=lambda line: physical_pin(lines[line].pin))
    rows: list[tuple[str, str, str, tuple[int, int, int]]] = []
    for index, line in enumerate(ordered):
        config = lines[line]
        pi_side = f"{config.pin}, pin {physical_pin(config.pin)}"
        rows.append((pi_side, line, driver.labels[line], WIRES[index % len(WIRES)]))
    if board.logic is not None:
        rows.append((f"3V3, pin {LOGIC_PIN}", "logic supply", board.logic, POWER["3V3"]))
    rows.append((f"GND, pin {GND_PIN}", "ground, joined", "GND", POWER["GND"]))
    for index, (pi_side, line, label, colour) in enumerate(rows):
        y = ROW_TOP + index * ROW_STEP
        start, end = (PI_BOX.right, y), (BOARD_BOX.left, y)
        pygame.draw.line(surface, colour, start, end, 5)
        _pin(surface, start, colour)
        _pin(surface, end, colour)
        _text(surface, text, pi_side, (PI_BOX.right - 20, y - 11), INK, right=True)
        _text(surface, small, line, (PI_BOX.right - 20, y + 12), GREY, right=True)
        _text(surface, text, label, (BOARD_BOX.left + 20, y), INK)
    y = ROW_TOP + len(rows) * ROW_STEP
    for label, what in board.extras:
        _pin(surface, (BOARD_BOX.left, y), GREY)
        _text(surface, text, label, (BOARD_BOX.left + 20, y - 11), INK)
        _text(surface, small, what, (BOARD_BOX.left + 20, y + 12), GREY)
        y += ROW_STEP

    # The motor on the board's outputs, and its own supply.
    mx, my = MOTOR_CENTRE
    for index, label in enumerate(board.outputs):
        y = my - 40 + index * 80
        pygame.draw.lines(surface, INK, False,
                          [(BOARD_BOX.right, y), (mx - 90, y), (mx - 90, my - 20 + index * 40),
                           (mx - 60, my - 20 + index * 40)], 4)
        _pin(surface, (BOARD_BOX.right, y), INK)
        _text(surface, text, label, (BOARD_BOX.right - 20, y), INK, right=True)
    pygame.draw.circle(surface, (255, 255, 255), MOTOR_CENTRE, 60)
    pygame.draw.circle(surface, INK, MOTOR_CENTRE, 60, 4)
    _text(surface, title, "M", (mx - 12, my), INK)
    for index, (words, colour) in enumerate((("launcher motor", INK),
                                             ("wrong way? swap its two wires", GREY))):
        image = small.render(words, True, colour)
        surface.blit(image, (mx - image.get_width() // 2, my + 72 + index * 24))

    pygame.draw.rect(surface, (255, 255, 255), SUPPLY_BOX, border_radius=8)
    pygame.draw.rect(surface, POWER["VM"], SUPPLY_BOX, 4, border_radius=8)
    _text(surface, text, "motor supply", (SUPPLY_BOX.left + 50, SUPPLY_BOX.top + 45), INK)
    _text(surface, small, "its own, not the Pi's 5V", (SUPPLY_BOX.left + 50,
                                                       SUPPLY_BOX.top + 85), GREY)
    for index, (label, sign, colour) in enumerate(((board.supply, "+", POWER["VM"]),
                                                   ("GND", "-", POWER["GND"]))):
        y = SUPPLY_BOX.top + 35 + index * 60
        board_y = SUPPLY_BOX.top + 35 + index * 60
        pygame.draw.line(surface, colour, (BOARD_BOX.right, board_y), (SUPPLY_BOX.left, y), 4)
        _pin(surface, (BOARD_BOX.right, board_y), colour)
        _text(surface, text, label, (BOARD_BOX.right - 20, board_y), INK, right=True)
        _text(surface, title, sign, (SUPPLY_BOX.left + 16, y), colour)

    for index, note in enumerate(board.notes):
        words = note.format(brake_ms=driver.brake_ms)
        _text(surface, small, words, (40, HEIGHT - 120 + index * 30), INK)
    pico = ", ".join(f"{driver.labels[line]} to GP{gpio}"
                     for line, gpio in sorted(driver.pico_gpio.items(), key=lambda item: item[1]))
    _text(surface, small, f"Never a motor on a GPIO pin. Behind a Pico instead: {pico} "
          "(docs/drivers.md).", (40, HEIGHT - 60), INK)
    return surface


def main(argv: list[str] | None = None) -> int:
    """Draw the diagrams and save them as PNGs."""
    command = parser(__doc__)
    command.add_argument("--driver", choices=DRIVER_NAMES, action="append",
                         help="only this driver (repeatable; default: every one)")
    command.add_argument("--out-dir", type=Path, default=DOCS / "drivers")
    args = command.parse_args(argv)
    for name in args.driver or DRIVER_NAMES:
        config = example(name)
        surface = draw(DRIVERS[name], read_settings(config), config.relative_to(REPO).as_posix())
        save(surface, args.out_dir / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
