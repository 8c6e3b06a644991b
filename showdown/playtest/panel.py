"""The interactive simulated unit: the unit drawn beside the scoreboard, played from the keyboard.

For developers without the hardware (``showdown run --sim --interactive``): the gpiozero back end
runs on the simulator's mock pins (:mod:`hw_sim.pins`) against the REAL showdown state machine, on
real time. Keys become edges on the mock pins, delivered from a feeder thread as lgpio delivers
them; the panel draws the unit's outputs as the pins show them (countdown light, false-start
arrow, launcher direction) and the cards loaded on each side.

Keys: ``A`` left paddle, ``L`` right paddle (held as long as the key is), ``Space`` the timer
button, ``Esc`` quits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from hw_sim.pins import EdgeFeeder, SimFactory, SimPin
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.i18n import _
from showdown.scoreboard.layout import Layout
from showdown.scoreboard.screens.showdown import paint_arrow
from showdown.scoreboard.text import TextRenderer
from showdown.scoreboard.widgets import Canvas, Custom, Label, Painter, Widget
from showdown.unit.backends.gpio import GpioUnit
from showdown.unit.clock import Clock, MonotonicClock, ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import InputLine, Light, Side
from showdown.unit.machine import ShowdownMachine

PANEL_WIDTH = 320
PANEL_DESIGN = (320, 480)

KEYS: dict[int, InputLine] = {
    pygame.K_a: InputLine.PADDLE_LEFT,
    pygame.K_l: InputLine.PADDLE_RIGHT,
    pygame.K_SPACE: InputLine.TIMER_BUTTON,
}

@dataclass(frozen=True)
class UnitOutputs:
    """What the unit shows, read from its output pins."""

    light: Light
    arrow: Side | None
    launcher: Side | None


class KeyboardUnit:
    """The gpiozero back end on mock pins plus the real state machine, on real time."""

    def __init__(self, settings: UnitSettings | None = None, clock: Clock | None = None) -> None:
        self.settings = settings or UnitSettings()
        self.clock = clock or MonotonicClock()
        self.factory = SimFactory(self.clock)
        self.feeder = EdgeFeeder("keyboard-edges")
        self.hardware = GpioUnit(self.settings, clock=self.clock, pin_factory=self.factory)
        self.machine = ShowdownMachine(self.hardware, self.settings)
        self._cards = 0
        self._launcher_was: Side | None = None
        for line in self.settings.driver.lines:
            pin, _high = self._pin(line)
            pin.observers.append(lambda *_args: self._launcher_moved())

    def load(self, left: str, right: str, cards: int) -> None:
        """Load the machine and remember how many cards sit in the clip."""
        self.machine.load(left, right, cards)
        self._cards = cards

    def _launcher_moved(self) -> None:
        """The cards fly: each crosses the count line on the side thrown at, 30 ms apart."""
        outputs = self.outputs()
        started = outputs.launcher is not None and outputs.launcher is not self._launcher_was
        self._launcher_was = outputs.launcher
        if not started or outputs.launcher is None or not self._cards:
            return
        line = InputLine.count(outputs.launcher)
        now = self.clock.now_ns()
        for card in range(self._cards):
            at = now + ms(30 * (card + 1))
            self.clock.call_at(at, partial(self._pulse, line, at))
        self._cards = 0

    def _pulse(self, line: InputLine, at_ns: int) -> None:
        pin, active_high = self._pin(line.value)
        self.feeder.post(pin, active_high, at_ns)
        self.feeder.post(pin, not active_high, at_ns + ms(2))

    def _pin(self, name: str) -> tuple[SimPin, bool]:
        line = getattr(self.settings.pins, name)
        return self.factory.sim_pin(line.pin), bool(line.active_high)

    def drive(self, line: InputLine, active: bool) -> None:
        """Put an edge on an input, stamped now, delivered from the feeder thread (never waits)."""
        pin, active_high = self._pin(line.value)
        self.feeder.post(pin, active == active_high, self.clock.now_ns())

    def _on(self, name: str) -> bool:
        pin, active_high = self._pin(name)
        return bool(pin.state) == active_high

    def outputs(self) -> UnitOutputs:
        """The countdown light, the arrow and the launcher as the pins show them now."""
        light = Light.GREEN if self._on("light_green") else (
            Light.RED if self._on("light_red") else Light.OFF)
        arrow = Side.LEFT if self._on("arrow_left") else (
            Side.RIGHT if self._on("arrow_right") else None)
        driver = self.settings.driver
        launcher = driver.toward({line: self._on(line) for line in driver.lines})
        return UnitOutputs(light, arrow, launcher)

    def watch(self, changed: Callable[[], None]) -> None:
        """Call ``changed`` (from whatever thread drives the pin) whenever an output changes."""
        for name in ("light_red", "light_green", "arrow_left", "arrow_right",
                     *self.settings.driver.lines):
            pin, _active = self._pin(name)
            pin.observers.append(lambda *_args: changed())

    def close(self) -> None:
        """Outputs safe, threads stopped."""
        self.machine.close()
        self.hardware.close()
        self.feeder.close()
        self.clock.close()


class UnitPanel:
    """The simulated unit drawn at the right of the window, fed by the keyboard."""

    def __init__(self, unit: KeyboardUnit, table: SessionPort, window: pygame.Surface,
                 area: pygame.Rect | None = None) -> None:
        """``area``: where in ``window`` the panel goes (default: its right ``PANEL_WIDTH``);
        the panel's design scales to it."""
        self.unit = unit
        self.table = table
        if area is None:
            area = pygame.Rect(window.get_width() - PANEL_WIDTH, 0, PANEL_WIDTH,
                               window.get_height())
        self.area = area
        surface = window.subsurface(area)
        layout = Layout(area.width, area.height, PANEL_DESIGN)
        self.canvas = Canvas(surface, layout, TextRenderer(layout))
        self.painter = Painter(self.canvas)
        self._lock = threading.Lock()

    def handle(self, event: pygame.event.Event) -> bool:
        """Keys for the paddles and the timer button; True if the key was one of them."""
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return False
        line = KEYS.get(event.key)
        if line is None:
            return False
        self.unit.drive(line, event.type == pygame.KEYDOWN)
        return True

    def widgets(self) -> list[Widget]:
        """The unit as it is now."""
        out = self.unit.outputs()
        sd = self.table.view().showdown
        light_colour = {Light.OFF: theme.PANEL, Light.RED: theme.WAITING_RED,
                        Light.GREEN: theme.GO_GREEN}[out.light]

        def light(canvas: Canvas, box: pygame.Rect) -> None:
            real = canvas.rect(box)
            canvas.surface.fill(theme.BACKGROUND, real)
            pygame.draw.circle(canvas.surface, light_colour, real.center,
                               min(real.width, real.height) // 2 - 4)

        def arrow(canvas: Canvas, box: pygame.Rect, side: Side | None,
                  colour: theme.Colour) -> None:
            real = canvas.rect(box)
            canvas.surface.fill(theme.BACKGROUND, real)
            if side is not None:
                paint_arrow(canvas.surface, real.inflate(-8, -8), side, colour)

        loaded = sd.cards if sd.left or sd.right else 0
        left_count = right_count = _("{count} loaded").format(count=loaded)
        if sd.counts is not None:
            left_count = _("{count} landed").format(count=sd.counts[0])
            right_count = _("{count} landed").format(count=sd.counts[1])
        return [
            Label("title", pygame.Rect(8, 4, 304, 36), _("Simulated unit"), 24, theme.ACCENT,
                  theme.PANEL, bold=True),
            Custom("light", pygame.Rect(90, 48, 140, 140), out.light, light),
            Label("light-word", pygame.Rect(8, 190, 304, 30),
                  {Light.OFF: _("Light off"), Light.RED: _("Red: wait"),
                   Light.GREEN: _("Green: go")}[out.light], 22),
            Label("arrow-caption", pygame.Rect(8, 224, 150, 28), _("Arrow"), 18, theme.TEXT_DIM),
            Custom("arrow", pygame.Rect(8, 252, 150, 70), out.arrow,
                   lambda c, r: arrow(c, r, out.arrow, theme.WAITING_RED)),
            Label("launcher-caption", pygame.Rect(162, 224, 150, 28), _("Launcher"), 18,
                  theme.TEXT_DIM),
            Custom("launcher", pygame.Rect(162, 252, 150, 70), out.launcher,
                   lambda c, r: arrow(c, r, out.launcher, theme.ACCENT)),
            Label("left-name", pygame.Rect(8, 328, 150, 26), sd.left or _("Left paddle"), 20,
                  theme.TEXT, theme.PANEL, bold=True),
            Label("left-cards", pygame.Rect(8, 354, 150, 26), left_count, 18, theme.TEXT,
                  theme.PANEL),
            Label("right-name", pygame.Rect(162, 328, 150, 26), sd.right or _("Right paddle"),
                  20, theme.TEXT, theme.PANEL, bold=True),
            Label("right-cards", pygame.Rect(162, 354, 150, 26), right_count, 18, theme.TEXT,
                  theme.PANEL),
            Label("keys", pygame.Rect(8, 384, 304, 92),
                  _("Keys: A left paddle, L right paddle, Space timer button"), 18,
                  theme.TEXT_DIM, wrap=True),
        ]

    def paint(self) -> list[pygame.Rect]:
        """Repaint what changed; window rectangles."""
        with self._lock:
            dirty = self.painter.paint(self.widgets())
        return [r.move(self.area.topleft) for r in dirty]
