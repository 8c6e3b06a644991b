"""Draw the wiring diagram (docs/wiring.png) from the example configuration's pin map, so the
picture a builder wires from is always the pins the software reads.

    python -m tools.diagrams.wiring [--config deploy/showdown.toml] [--out docs/wiring.png]
    (make diagram-wiring)

Change a pin in ``deploy/showdown.toml``, run this again, commit both: a test fails while the
committed picture is not what this module draws.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pygame

from showdown.unit.wiring import HEADER, WiredLine, wired_lines
from tools.offscreen import DOCS, REPO, parser, save

WIDTH, HEIGHT = 1400, 1100
PIN_STEP = 40
HEADER_TOP = 150
HEADER_X = WIDTH // 2
BOX_W, BOX_H = 400, 84
BACKGROUND = (250, 250, 246)
INK = (30, 30, 30)
GREY = (150, 150, 150)
BOARD = (30, 110, 60)
POWER = {"3V3": (230, 140, 20), "5V": (200, 30, 30), "GND": (20, 20, 20)}
WIRE = {
    "timer_button": (120, 80, 180),
    "paddle_left": (30, 90, 200),
    "paddle_right": (30, 160, 200),
    "count_left": (90, 90, 90),
    "count_right": (140, 110, 60),
    "light_red": (210, 30, 30),
    "light_green": (20, 150, 40),
    "buzzer": (200, 120, 0),
    "arrow_left": (220, 60, 140),
    "arrow_right": (160, 40, 110),
    "launcher_direction": (0, 120, 120),
    "launcher_enable": (60, 60, 160),
}


def read_pins(config: Path) -> dict[str, tuple[str, str]]:
    """``line -> (gpio, active)`` from the ``[unit.pins]`` table of a configuration file."""
    table = tomllib.loads(config.read_text(encoding="utf-8"))["unit"]["pins"]
    return {name: (str(line["pin"]), str(line["active"])) for name, line in table.items()}


def pin_centre(pin: int) -> tuple[int, int]:
    """Where header pin ``pin`` is drawn: odd pins in the left column, even in the right."""
    row = (pin - 1) // 2
    x = HEADER_X - 16 if pin % 2 else HEADER_X + 16
    return x, HEADER_TOP + 20 + row * PIN_STEP


def draw_header(surface: pygame.Surface, used: dict[int, WiredLine]) -> pygame.Rect:
    """The 40-pin header as a board: pin numbers beside the pins, GPIO names outside them."""
    small = pygame.font.Font(None, 22)
    board = pygame.Rect(HEADER_X - 130, HEADER_TOP - 10, 260, 20 * PIN_STEP + 20)
    pygame.draw.rect(surface, BOARD, board, border_radius=10)
    for pin, name in HEADER.items():
        x, y = pin_centre(pin)
        colour = WIRE.get(used[pin].line, INK) if pin in used else POWER.get(name, (215, 215, 215))
        pygame.draw.circle(surface, colour, (x, y), 11)
        pygame.draw.circle(surface, (255, 255, 255), (x, y), 11, 1)
        number = small.render(str(pin), True, (255, 255, 255))
        nx = x - 20 - number.get_width() if pin % 2 else x + 20
        surface.blit(number, (nx, y - 7))
        shown = pin in used or name in POWER
        label = small.render(name, True, (255, 255, 255) if shown else (150, 190, 160))
        lx = board.left + 8 if pin % 2 else board.right - 8 - label.get_width()
        surface.blit(label, (lx, y - 7))
    return board


def draw(rows: list[WiredLine]) -> pygame.Surface:
    """The whole diagram on one surface."""
    pygame.font.init()
    title = pygame.font.Font(None, 44)
    text = pygame.font.Font(None, 26)
    small = pygame.font.Font(None, 22)
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    heading = title.render("UNO Showdown: wiring to the Raspberry Pi header", True, INK)
    surface.blit(heading, (40, 30))
    surface.blit(
        text.render(
            "Numbers are physical header pins (pin 1 is at the end nearest the microSD slot); "
            "names are Broadcom GPIOs, as in showdown.toml.",
            True,
            INK,
        ),
        (40, 80),
    )
    board = draw_header(surface, {row.header_pin: row for row in rows})

    for side in (1, 0):  # odd pins (left column) to the left, even pins to the right
        on_side = [row for row in rows if row.header_pin % 2 == side]
        if not on_side:
            continue
        gap = (20 * PIN_STEP - len(on_side) * BOX_H) / max(1, len(on_side))
        for index, row in enumerate(on_side):
            _, y = pin_centre(row.header_pin)
            colour = WIRE.get(row.line, INK)
            box = pygame.Rect(0, 0, BOX_W, BOX_H)
            box.top = int(HEADER_TOP + gap / 2 + index * (BOX_H + gap))
            # Wires to a box below their pin bend nearer the board the lower the pin is, wires
            # to a box above the other way round: then no two wires cross.
            rank = index if box.centery <= y else len(on_side) - index
            if side:
                box.left = 40
                edge, bend = board.left, board.left - 40 - 14 * rank
                end = box.right
            else:
                box.right = WIDTH - 40
                edge, bend = board.right, board.right + 40 + 14 * rank
                end = box.left
            path = [(edge, y), (bend, y), (bend, box.centery), (end, box.centery)]
            pygame.draw.lines(surface, colour, False, path, 4)
            pygame.draw.rect(surface, (255, 255, 255), box, border_radius=8)
            pygame.draw.rect(surface, colour, box, 4, border_radius=8)
            kind = "input" if row.direction == "in" else "output"
            lines = [
                (text, row.part),
                (small, f"{row.gpio}, header pin {row.header_pin}, {kind}, active {row.active}"),
                (small, row.how),
            ]
            top = box.top + 8
            for font, words in lines:
                surface.blit(font.render(words, True, INK), (box.left + 12, top))
                top += 26

    notes = [
        "Ground: any black pin (6, 9, 14, 20, 25, 30, 34, 39). Inputs use the Pi's internal "
        "pull resistors: buttons and paddles need no resistor.",
        "Launcher: a DIR/EN motor driver board (launcher_driver \"dir-enable\"); a DRV8833, TB6612 "
        "or L298N is wired as in docs/drivers.md. Motor on its own supply, grounds joined.",
        "Serial back end instead: only a USB cable to the microcontroller; it appears as "
        "/dev/showdown-unit (deploy/99-showdown-unit.rules).",
    ]
    for index, note in enumerate(notes):
        surface.blit(small.render(note, True, INK), (40, HEIGHT - 100 + index * 28))
    return surface


def main(argv: list[str] | None = None) -> int:
    """Draw the diagram and save it as a PNG."""
    command = parser(__doc__)
    command.add_argument("--config", type=Path, default=REPO / "deploy" / "showdown.toml")
    command.add_argument("--out", type=Path, default=DOCS / "wiring.png")
    args = command.parse_args(argv)
    save(draw(wired_lines(read_pins(args.config))), args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
