"""Draw the layers and a showdown's data flow (docs/layers.png), so a reader sees at a glance
which package may import which.

    python -m tools.diagrams.layers [--out docs/layers.png]     (make diagram-layers)

The layers are :data:`LAYERS` below; ``tests/architecture/test_docs.py`` checks that they are the
layers ``tests/architecture/test_layers.py`` enforces and that the committed PNG is what this
module draws: change a layer there, change it here, run this again, commit both.
"""

from __future__ import annotations

from typing import NamedTuple

import pygame

from tools.offscreen import DOCS, picture_main

WIDTH, HEIGHT = 1400, 1110
ROW_H, ROW_GAP = 96, 18
TOP = 130
LEFT, LAYER_W = 110, 730
FLOW_X, FLOW_W = 880, 490
BACKGROUND = (250, 250, 246)
INK = (30, 30, 30)
GREY = (120, 120, 120)


class Layer(NamedTuple):
    """One layer: its packages, its rank (imports go to lower ranks only), what it holds."""

    names: tuple[str, ...]
    rank: int
    holds: str
    colour: tuple[int, int, int]


LAYERS = (
    Layer(("showdown.app",), 7, "command line, subcommands, configuration, the service loop: "
          "wires the others together", (205, 190, 230)),
    Layer(("showdown.playtest",), 6, "simulated play: bots, referee, duels, the keyboard panel",
          (190, 215, 240)),
    Layer(("showdown.scoreboard", "showdown.web"), 5, "", (195, 230, 205)),
    Layer(("showdown.tournament",), 4, "the game night over MQTT: outbox, host, brokers, discovery",
          (240, 210, 225)),
    Layer(("showdown.game",), 3, "session, journal (SQLite), recorder, export, the read model",
          (245, 225, 180)),
    Layer(("hw_sim",), 2, "simulated pins, launcher, players, Pico: imports only showdown.unit",
          (230, 230, 230)),
    Layer(("showdown.unit",), 1, "hardware interface, clock, state machine, back ends, config",
          (245, 200, 190)),
    Layer(("engine", "firmware_bridge", "showdown.locale"), 0, "", (215, 215, 235)),
)
"""Top to bottom, as drawn."""

BOTTOM_HOLDS = {
    "engine": "UNO rules, scorekeeping",
    "firmware_bridge": "serial protocol, Pico",
    "showdown.locale": "translations, their reader",
    "showdown.scoreboard": "touchscreen: screens, touch, fonts, cues",
    "showdown.web": "phone page: ASGI app, SSE, PIN",
}
"""What a layer that shares its row holds (said in its own box)."""

FLOW = (
    ("paddle edge", "showdown.unit.backends", "its own timestamp"),
    ("state machine", "showdown.unit.machine", "decides, fires the launcher"),
    ("ShowdownOutcome", "showdown.unit.events", "one per showdown"),
    ("recorder", "showdown.game.recorder", "-> RecordShowdown entry"),
    ("session", "showdown.game.session", "checks, answers events"),
    ("journal", "showdown.game.journal", "on disk, then acknowledged"),
    ("read model", "showdown.game.table_model", "one for both front ends"),
    ("scoreboard, phone page", "showdown.scoreboard", "both draw the read model"),
)
"""The data flow of a showdown, first to last (drawn bottom up)."""


def rank_of(module: str) -> int:
    """The rank of the layer *module* belongs to."""
    for layer in LAYERS:
        if any(module == name or module.startswith(name + ".") for name in layer.names):
            return layer.rank
    raise KeyError(module)


def colour_of(module: str) -> tuple[int, int, int]:
    """The colour of the layer *module* belongs to."""
    rank = rank_of(module)
    return next(layer.colour for layer in LAYERS if layer.rank == rank)


def arrow(surface: pygame.Surface, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A straight vertical arrow from *start* to *end*, head at *end*."""
    pygame.draw.line(surface, INK, start, end, 3)
    x, y = end
    step = 12 if end[1] > start[1] else -12
    pygame.draw.polygon(surface, INK, [(x, y), (x - 8, y - step), (x + 8, y - step)])


def draw() -> pygame.Surface:
    """The whole picture on one surface."""
    pygame.font.init()
    title = pygame.font.Font(None, 44)
    bold = pygame.font.Font(None, 34)
    bold.set_bold(True)
    text = pygame.font.Font(None, 26)
    small = pygame.font.Font(None, 22)
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    surface.blit(title.render("UNO Showdown: layers and the data flow", True, INK), (40, 30))
    surface.blit(
        text.render(
            "Each layer imports only the layers below it (tests/architecture/test_layers.py).",
            True,
            INK,
        ),
        (40, 78),
    )

    for index, layer in enumerate(LAYERS):
        top = TOP + index * (ROW_H + ROW_GAP)
        parts = len(layer.names)
        width = (LAYER_W - (parts - 1) * 20) // parts
        for part, name in enumerate(layer.names):
            box = pygame.Rect(LEFT + part * (width + 20), top, width, ROW_H)
            pygame.draw.rect(surface, layer.colour, box, border_radius=10)
            pygame.draw.rect(surface, INK, box, 2, border_radius=10)
            label = bold.render(name, True, INK)
            if label.get_width() > box.width - 24:  # three to a row: the name in a smaller face
                label = text.render(name, True, INK)
            surface.blit(label, (box.left + 16, box.top + 16))
            holds = layer.holds or BOTTOM_HOLDS[name]
            surface.blit(small.render(holds, True, INK), (box.left + 16, box.top + 58))
    bottom = TOP + len(LAYERS) * (ROW_H + ROW_GAP) - ROW_GAP
    arrow(surface, (88, TOP + 10), (88, bottom - 10))
    label = pygame.transform.rotate(text.render("imports point down", True, INK), 90)
    surface.blit(label, (52, TOP + (bottom - TOP - label.get_height()) // 2))

    surface.blit(bold.render("a showdown's data flow", True, INK), (FLOW_X, TOP - 4))
    flow_top, flow_bottom = TOP + 50, bottom
    step = (flow_bottom - flow_top) // len(FLOW)
    box_h = step - 22
    previous: pygame.Rect | None = None
    for index, (what, module, why) in enumerate(FLOW):
        box = pygame.Rect(FLOW_X, flow_bottom - (index + 1) * step + 22, FLOW_W, box_h)
        pygame.draw.rect(surface, colour_of(module), box, border_radius=8)
        pygame.draw.rect(surface, INK, box, 2, border_radius=8)
        surface.blit(text.render(what, True, INK), (box.left + 12, box.top + 8))
        surface.blit(small.render(f"{module}: {why}", True, GREY), (box.left + 12, box.top + 36))
        if previous is not None:
            arrow(surface, (box.centerx, previous.top), (box.centerx, box.bottom + 2))
        previous = box

    note = (
        "Touches travel the other way: scoreboard -> command -> session -> journal -> events "
        "-> read model -> scoreboard and phone page."
    )
    surface.blit(small.render(note, True, INK), (40, bottom + 40))
    return surface


def main(argv: list[str] | None = None) -> int:
    """Draw the picture and save it as a PNG."""
    return picture_main(__doc__, draw, DOCS / "layers.png", argv)


if __name__ == "__main__":
    raise SystemExit(main())
