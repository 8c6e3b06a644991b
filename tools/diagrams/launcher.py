"""Draw how the launcher throws the cards and where the count lines sit (docs/launcher.png), so
a builder sees one way to make the unit the software expects.

    python -m tools.diagrams.launcher [--out docs/launcher.png]     (make diagram-launcher)

The timings on the picture are the defaults of ``showdown/unit/config.py`` and the pins those of
``deploy/showdown.toml``, read when it is drawn; ``tests/architecture/test_docs.py`` checks that
the committed PNG is what this module draws: change either, run this again, commit both.
"""

from __future__ import annotations

import math
import tomllib

import pygame

from showdown.unit.config import TimingConfig
from showdown.unit.wiring import physical_pin
from tools.offscreen import DOCS, REPO, picture_main

WIDTH, HEIGHT = 1400, 960
BACKGROUND = (250, 250, 246)
INK = (30, 30, 30)
GREY = (120, 120, 120)
BODY = (225, 222, 214)
RUBBER = (50, 50, 55)
BEAM = (200, 30, 30)
CARD_COLOURS = ((215, 40, 40), (240, 190, 20), (40, 150, 60), (30, 90, 200))
TABLE_Y = 640


def read_pins() -> dict[str, str]:
    """``line -> GPIO`` from the shipped example configuration."""
    table = tomllib.loads((REPO / "deploy" / "showdown.toml").read_text("utf-8"))["unit"]["pins"]
    return {name: str(line["pin"]) for name, line in table.items()}


def arrow(surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float],
          colour: tuple[int, int, int] = INK, width: int = 3) -> None:
    """A straight arrow from *start* to *end*, head at *end*."""
    pygame.draw.line(surface, colour, start, end, width)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = [end] + [(end[0] - 14 * math.cos(angle + turn), end[1] - 14 * math.sin(angle + turn))
                    for turn in (0.45, -0.45)]
    pygame.draw.polygon(surface, colour, head)


def dashed(surface: pygame.Surface, colour: tuple[int, int, int], start: tuple[int, int],
           end: tuple[int, int], dash: int = 8) -> None:
    """A dashed straight line."""
    length = math.dist(start, end)
    steps = max(1, int(length // dash))
    for step in range(0, steps, 2):
        a, b = step / steps, min(steps, step + 1) / steps
        pygame.draw.line(surface, colour, (start[0] + (end[0] - start[0]) * a,
                                           start[1] + (end[1] - start[1]) * a),
                         (start[0] + (end[0] - start[0]) * b, start[1] + (end[1] - start[1]) * b),
                         3)


def label(surface: pygame.Surface, font: pygame.font.Font, text: str, at: tuple[int, int],
          colour: tuple[int, int, int] = INK) -> None:
    """One line of text with its top left at *at*."""
    surface.blit(font.render(text, True, colour), at)


def count_line(surface: pygame.Surface, x: int, chute_y: int, small: pygame.font.Font) -> None:
    """A break-beam pair across a chute: the emitter above, the receiver below."""
    pygame.draw.rect(surface, (250, 210, 210), (x - 12, chute_y - 52, 24, 26), border_radius=4)
    pygame.draw.rect(surface, INK, (x - 12, chute_y - 52, 24, 26), 2, border_radius=4)
    pygame.draw.rect(surface, (210, 210, 250), (x - 12, chute_y + 26, 24, 26), border_radius=4)
    pygame.draw.rect(surface, INK, (x - 12, chute_y + 26, 24, 26), 2, border_radius=4)
    dashed(surface, BEAM, (x, chute_y - 26), (x, chute_y + 26), 6)
    label(surface, small, "IR", (x - 8, chute_y - 46))
    label(surface, small, "rx", (x - 8, chute_y + 32))


def side_view(surface: pygame.Surface, fonts: dict[str, pygame.font.Font],
              pins: dict[str, str]) -> None:
    """The unit cut through its middle: tray, wheel, gates, chutes, count lines, a flying card."""
    text, small = fonts["text"], fonts["small"]
    pygame.draw.line(surface, GREY, (40, TABLE_Y), (1000, TABLE_Y), 3)
    label(surface, small, "table", (500, TABLE_Y + 6), GREY)
    body = pygame.Rect(300, 336, 440, TABLE_Y - 336)
    pygame.draw.rect(surface, BODY, body, border_radius=14)
    pygame.draw.rect(surface, INK, body, 3, border_radius=14)
    chute_y = 402
    for left, right in ((230, 446), (594, 810)):  # the chutes, out through each wall
        pygame.draw.rect(surface, BACKGROUND, (left, chute_y - 12, right - left, 24))
        pygame.draw.line(surface, INK, (left, chute_y - 12), (right, chute_y - 12), 2)
        pygame.draw.line(surface, INK, (left, chute_y + 12), (right, chute_y + 12), 2)
    # The tray (the clip): cards face down, resting on the wheel through a gap in its floor.
    pygame.draw.lines(surface, INK, False, [(446, 300), (446, chute_y - 12)], 4)
    pygame.draw.lines(surface, INK, False, [(594, 300), (594, chute_y - 12)], 4)
    for index, colour in enumerate(CARD_COLOURS):
        card = pygame.Rect(452, chute_y - 10 - 9 * (index + 1), 136, 8)
        pygame.draw.rect(surface, colour, card, border_radius=2)
        pygame.draw.rect(surface, INK, card, 1, border_radius=2)
    label(surface, text, "tray (the clip): the loaded cards", (380, 246))
    label(surface, small, "face down, the stack's weight on the wheel", (388, 272), GREY)
    # The gates: one card's thickness above the chute floor on each side.
    for x in (446, 594):
        pygame.draw.rect(surface, (160, 160, 160), (x - 6, chute_y - 40, 12, 28))
    label(surface, small, "gate: a little more than one card thick,", (620, 180), GREY)
    label(surface, small, "so the cards leave one at a time", (620, 200), GREY)
    pygame.draw.line(surface, GREY, (640, 220), (600, 358), 2)
    # The wheel, under the bottom card, and its motor.
    wheel = (520, chute_y + 48)
    pygame.draw.circle(surface, RUBBER, wheel, 46)
    pygame.draw.circle(surface, (160, 160, 160), wheel, 14)
    rim = pygame.Rect(0, 0, 130, 130)
    rim.center = wheel
    pygame.draw.arc(surface, (0, 120, 120), rim, math.radians(20), math.radians(160), 4)
    arrow(surface, (wheel[0] + 60, wheel[1] - 24), (wheel[0] + 64, wheel[1] - 6), (0, 120, 120))
    label(surface, small, "rubber wheel on the motor's shaft", (360, 512))
    label(surface, small, "clockwise: the bottom card goes RIGHT", (360, 534), (0, 120, 120))
    label(surface, small, "anticlockwise: it goes LEFT", (360, 556), (0, 120, 120))
    label(surface, small, "the motor driver powers it for one pulse", (360, 586), GREY)
    # The count lines at the chutes' mouths, and a card on its way to the right.
    count_line(surface, 270, chute_y, small)
    count_line(surface, 770, chute_y, small)
    left_pin, right_pin = pins["count_left"], pins["count_right"]
    label(surface, small, f"count_left ({left_pin}, pin {physical_pin(left_pin)})", (60, 330))
    label(surface, small, "one pulse per card", (60, 350), GREY)
    label(surface, small, f"count_right ({right_pin}, pin {physical_pin(right_pin)})",
          (820, 330))
    label(surface, small, "one pulse per card", (820, 350), GREY)
    flying = pygame.Surface((90, 8), pygame.SRCALPHA)
    flying.fill(CARD_COLOURS[0])
    flying = pygame.transform.rotate(flying, -18)
    surface.blit(flying, (836, 430))
    arrow(surface, (812, chute_y), (950, 560), CARD_COLOURS[0])
    card_on_table = pygame.Rect(900, TABLE_Y - 8, 90, 8)
    pygame.draw.rect(surface, CARD_COLOURS[3], card_on_table)
    label(surface, text, "the loser's side", (850, TABLE_Y + 8))
    label(surface, text, "the winner's side", (60, TABLE_Y + 8))


def sensor_view(surface: pygame.Surface, fonts: dict[str, pygame.font.Font],
                pins: dict[str, str]) -> None:
    """One count line seen along the chute, how it is wired, and the pulse a card makes."""
    text, small = fonts["text"], fonts["small"]
    left = 1040
    label(surface, fonts["bold"], "A count line, end on", (left, 130))
    slot = pygame.Rect(left + 70, 260, 180, 24)
    pygame.draw.rect(surface, BODY, slot.inflate(40, 120), border_radius=8)
    pygame.draw.rect(surface, BACKGROUND, slot)
    pygame.draw.rect(surface, INK, slot, 2)
    pygame.draw.rect(surface, (250, 210, 210), (slot.centerx - 16, slot.top - 56, 32, 34),
                     border_radius=5)
    pygame.draw.rect(surface, (210, 210, 250), (slot.centerx - 16, slot.bottom + 22, 32, 34),
                     border_radius=5)
    dashed(surface, BEAM, (slot.centerx, slot.top - 22), (slot.centerx, slot.bottom + 22), 6)
    pygame.draw.line(surface, CARD_COLOURS[1], (slot.left + 8, slot.centery),
                     (slot.right - 8, slot.centery), 4)
    label(surface, small, "IR emitter", (left + 178, 212))
    label(surface, small, "receiver", (left + 178, 318))
    label(surface, small, "a card in the chute breaks the beam", (left, 372))
    gpio = pins["count_right"]
    rows = [
        (text, "receiver powered from 3V3 (pin 1 or 17)"),
        (small, f"its output to {gpio} (pin {physical_pin(gpio)}), GND to GND"),
        (small, "output high while a card blocks the beam:"),
        (small, "active = \"high\" in showdown.toml"),
        (small, "never 5 V on a GPIO: a 5 V sensor's open"),
        (small, "collector is pulled up to 3V3, not to 5 V"),
    ]
    top = 404
    for font, words in rows:
        label(surface, font, words, (left, top))
        top += 26
    # The pulse train of three cards.
    base = 640
    trace = [(left, base)]
    for start in (30, 120, 205):
        trace += [(left + start, base), (left + start, base - 40), (left + start + 55, base - 40),
                  (left + start + 55, base)]
    trace.append((left + 300, base))
    pygame.draw.lines(surface, INK, False, trace, 3)
    label(surface, small, "three cards, three pulses", (left, base + 10))


def timeline(surface: pygame.Surface, fonts: dict[str, pygame.font.Font],
             timing: TimingConfig) -> None:
    """One throw in time: the pulse, the cards crossing, the count's settle time."""
    text, small = fonts["text"], fonts["small"]
    top, left, scale = 730, 300, 0.42  # pixels per millisecond
    label(surface, fonts["bold"], "One throw, in time", (40, top))
    pulse = timing.launcher_pulse_ms
    settle = timing.count_settle_ms
    rows = [
        ("launcher motor", pulse, (0, 120, 120),
         f"energised at most launcher_pulse_ms = {pulse:g} ms"),
        ("count line", settle, (200, 30, 30),
         f"cards counted for count_settle_ms = {settle:g} ms"),
    ]
    for index, (name, span, colour, words) in enumerate(rows):
        y = top + 50 + index * 60
        label(surface, small, name, (40, y + 4))
        pygame.draw.rect(surface, colour, (left, y, span * scale, 22), border_radius=4)
        label(surface, small, words, (left + int(span * scale) + 14, y + 2))
    for start in (40, 95, 150):
        x = left + start * scale + 20
        pygame.draw.rect(surface, BACKGROUND, (x, top + 110 + 4, 10, 14))
    label(surface, small, "(gaps: the cards crossing)", (left, top + 140), GREY)
    label(surface, text, "It fires only in a showdown, toward the slower player, once; then "
          f"it rests launcher_cooldown_ms = {timing.launcher_cooldown_ms:g} ms.",
          (40, top + 180))


def draw() -> pygame.Surface:
    """The whole picture on one surface."""
    pygame.font.init()
    fonts = {"title": pygame.font.Font(None, 44), "bold": pygame.font.Font(None, 32),
             "text": pygame.font.Font(None, 26), "small": pygame.font.Font(None, 22)}
    fonts["bold"].set_bold(True)
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    label(surface, fonts["title"], "UNO Showdown: how the launcher throws the cards", (40, 30))
    label(surface, fonts["text"], "The unit cut through its middle, seen from the front: one "
          "way to build it. Any launcher that throws toward the side its direction input selects "
          "will do.", (40, 80))
    label(surface, fonts["bold"], "Side view", (40, 130))
    pins = read_pins()
    side_view(surface, fonts, pins)
    pygame.draw.line(surface, GREY, (1015, 130), (1015, 700), 1)
    sensor_view(surface, fonts, pins)
    timeline(surface, fonts, TimingConfig())
    return surface


def main(argv: list[str] | None = None) -> int:
    """Draw the picture and save it as a PNG."""
    return picture_main(__doc__, draw, DOCS / "launcher.png", argv)


if __name__ == "__main__":
    raise SystemExit(main())
