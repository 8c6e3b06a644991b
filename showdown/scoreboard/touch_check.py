"""``showdown check --screen``: tap four targets; is the touch panel where its picture is?

A panel whose touch is turned, mirrored or offset against its picture makes the scoreboard press
the wrong buttons. The check shows four targets near the corners, one at a time, and takes the
first finger of each tap as SDL delivers it (positions 0..1), corrected by the configured
``touch_matrix`` exactly as the scoreboard corrects them. Then :func:`diagnose` compares where the
taps landed with where the targets were:

- within :data:`TOLERANCE` of every target: the touch matches;
- one of the eight turns and mirrors of the panel (a signed permutation of the axes) puts every
  tap on its target: the touch is turned or mirrored, and that matrix fixes it (for the official
  7-inch DSI display the kernel's overlay parameters can do the same for the whole system);
- an affine fit of the four taps puts every tap on its target: the touch is offset or scaled,
  and the fitted matrix (a calibration) fixes it;
- nothing fits: the taps were not on the targets; try again.

Each suggested matrix already includes the one configured, so the line printed replaces it.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pygame

from showdown.scoreboard import display
from showdown.scoreboard.app import configure_sdl
from showdown.scoreboard.touch import corrected
from showdown.scoreboard.touch_matrix import IDENTITY, MAX_COEFFICIENT, TouchMatrix

__all__ = ["TARGETS", "TOLERANCE", "PanelError", "TouchCheck", "TouchVerdict", "diagnose", "fit",
           "open_panel"]

TARGETS: tuple[tuple[float, float], ...] = ((0.15, 0.2), (0.85, 0.2), (0.85, 0.8), (0.15, 0.8))
"""Top left, top right, bottom right, bottom left: where each target stands (0..1)."""

TOLERANCE = 0.06
"""How far (a share of the panel's width or height) a tap may land from its target: 48 by 29
pixels on an 800x480 panel, about 9 mm on the official 7-inch display, a finger's width."""

TARGET_RADIUS = 28
BACKGROUND = (20, 24, 32)
INK = (235, 235, 235)
TARGET = (250, 200, 40)
TAP = (90, 200, 250)


@dataclass(frozen=True)
class Symmetry:
    """One of the eight ways a panel's axes can be turned or mirrored against its picture."""

    matrix: TouchMatrix
    """What corrects it (raw position -> screen position)."""
    what: str
    overlay: str
    """The ``vc4-kms-dsi-7inch`` parameters that correct it in the kernel (invert, then swap)."""


SYMMETRIES = (
    Symmetry(IDENTITY, "matches the screen", ""),
    Symmetry((-1.0, 0.0, 1.0, 0.0, 1.0, 0.0), "mirrored left to right (x inverted)", "invx"),
    Symmetry((1.0, 0.0, 0.0, 0.0, -1.0, 1.0), "mirrored top to bottom (y inverted)", "invy"),
    Symmetry((-1.0, 0.0, 1.0, 0.0, -1.0, 1.0), "turned 180 degrees (x and y inverted)",
             "invx,invy"),
    Symmetry((0.0, 1.0, 0.0, 1.0, 0.0, 0.0), "mirrored across its diagonal (x and y swapped)",
             "swapxy"),
    Symmetry((0.0, 1.0, 0.0, -1.0, 0.0, 1.0),
             "turned a quarter turn clockwise against the picture", "invx,swapxy"),
    Symmetry((0.0, -1.0, 1.0, 1.0, 0.0, 0.0),
             "turned a quarter turn anticlockwise against the picture", "invy,swapxy"),
    Symmetry((0.0, -1.0, 1.0, -1.0, 0.0, 1.0),
             "mirrored across its other diagonal (x and y swapped and inverted)",
             "invx,invy,swapxy"),
)


@dataclass(frozen=True)
class TouchVerdict:
    """What the four taps say (see the module docstring)."""

    kind: str
    """``"matches"``, ``"turned"``, ``"offset"``, ``"unclear"``, ``"no touch"`` or ``"stopped"``."""
    what: str
    """One line for the builder."""
    matrix: TouchMatrix | None = None
    """The ``touch_matrix`` that fixes it (``None`` when none is needed or none was found)."""
    overlay: str = ""
    """For the official DSI display: the overlay parameters that fix it in the kernel."""
    worst_px: float = 0.0
    """How far the worst tap landed from its target, as the scoreboard saw it, in pixels."""

    @property
    def ok(self) -> bool:
        return self.kind == "matches"


Point = tuple[float, float]


def compose(outer: TouchMatrix, inner: TouchMatrix) -> TouchMatrix:
    """The matrix doing *inner* first, then *outer*."""
    a, b, c, d, e, f = outer
    p, q, r, s, t, u = inner
    return (a * p + b * s, a * q + b * t, a * r + b * u + c,
            d * p + e * s, d * q + e * t, d * r + e * u + f)


def fit(taps: list[Point], targets: list[Point]) -> TouchMatrix | None:
    """The affine matrix taking each tap nearest its target (least squares); ``None`` when the
    taps are too close together to tell (all in a line)."""
    n = len(taps)
    sx = sum(x for x, _ in taps)
    sy = sum(y for _, y in taps)
    sxx = sum(x * x for x, _ in taps)
    syy = sum(y * y for _, y in taps)
    sxy = sum(x * y for x, y in taps)
    normal = ((sxx, sxy, sx), (sxy, syy, sy), (sx, sy, float(n)))
    det = _det3(normal)
    if abs(det) < 1e-9:
        return None
    rows = []
    for axis in (0, 1):
        rhs = (sum(x * t[axis] for (x, _), t in zip(taps, targets, strict=True)),
               sum(y * t[axis] for (_, y), t in zip(taps, targets, strict=True)),
               sum(t[axis] for t in targets))
        rows.append(tuple(_det3(_column(normal, col, rhs)) / det for col in range(3)))
    (a, b, c), (d, e, f) = rows
    return (a, b, c, d, e, f)


def _det3(m: tuple[tuple[float, ...], ...]) -> float:
    return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))


def _column(m: tuple[tuple[float, ...], ...], col: int,
            values: tuple[float, float, float]) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(values[r] if c == col else m[r][c] for c in range(3)) for r in range(3))


def _misses(matrix: TouchMatrix, taps: list[Point], targets: list[Point]) -> float:
    """The largest miss on either axis (a share of the panel) once *matrix* corrects the taps."""
    worst = 0.0
    for (x, y), (tx, ty) in zip(taps, targets, strict=True):
        cx, cy = corrected(matrix, x, y)
        worst = max(worst, abs(cx - tx), abs(cy - ty))
    return worst


def _worst_px(matrix: TouchMatrix, taps: list[Point], targets: list[Point],
              size: tuple[int, int]) -> float:
    worst = 0.0
    for (x, y), (tx, ty) in zip(taps, targets, strict=True):
        cx, cy = corrected(matrix, x, y)
        worst = max(worst, math.hypot((cx - tx) * size[0], (cy - ty) * size[1]))
    return worst


def diagnose(raw: list[Point], current: TouchMatrix = IDENTITY,
             size: tuple[int, int] = (800, 480),
             targets: tuple[Point, ...] = TARGETS) -> TouchVerdict:
    """What the taps at *raw* (as SDL delivered them, one per target) say, with *current* the
    configured correction and *size* the panel's pixels (for the misses in pixels)."""
    aims = list(targets[: len(raw)])
    seen = [corrected(current, x, y) for x, y in raw]
    worst_px = _worst_px(IDENTITY, seen, aims, size)
    if _misses(IDENTITY, seen, aims) <= TOLERANCE:
        return TouchVerdict("matches", "the touch matches the screen", worst_px=worst_px)
    for symmetry in SYMMETRIES[1:]:
        if _misses(symmetry.matrix, seen, aims) <= TOLERANCE:
            return TouchVerdict(
                "turned", f"the touch is {symmetry.what}",
                matrix=_tidy(compose(symmetry.matrix, current)),
                overlay=symmetry.overlay if current == IDENTITY else "", worst_px=worst_px)
    fitted = fit(seen, aims)
    if fitted is not None and _misses(fitted, seen, aims) <= TOLERANCE / 2:
        a, b, _c, d, e, _f = whole = compose(fitted, current)
        if abs(a * e - b * d) >= 0.01 and all(abs(v) <= MAX_COEFFICIENT for v in whole):
            return TouchVerdict("offset", "the touch is offset or scaled against the screen",
                                matrix=_tidy(whole), worst_px=worst_px)
    return TouchVerdict("unclear", "the taps fit no turn, mirror or calibration of the panel: "
                        "tap the centre of each target once, in the order shown",
                        worst_px=worst_px)


def _tidy(matrix: TouchMatrix) -> TouchMatrix:
    """Rounded to 4 places, with no negative zeros (it is printed for a configuration file)."""
    a, b, c, d, e, f = (round(v, 4) + 0.0 for v in matrix)
    return (a, b, c, d, e, f)


def matrix_text(matrix: TouchMatrix) -> str:
    """``[-1, 0, 1, 0, -1, 1]``: as TOML takes it, whole numbers without a point."""
    return "[" + ", ".join(f"{v:g}" for v in matrix) + "]"


class TouchCheck:
    """The four targets on *surface*, one at a time, read from pygame's event queue."""

    def __init__(
        self,
        surface: pygame.Surface,
        *,
        current: TouchMatrix = IDENTITY,
        timeout_s: float = 20.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.surface = surface
        self.current = current
        self.timeout_s = timeout_s
        self.clock = clock
        self.taps: list[Point] = []
        """Each tap's first finger, as SDL delivered it (before any correction)."""
        self._held: int | None = None
        pygame.font.init()
        self._big = pygame.font.Font(None, 40)
        self._small = pygame.font.Font(None, 28)
        self.note = ""

    def run(self) -> TouchVerdict:
        """Until four taps, Esc, or no tap within the timeout; then the verdict."""
        deadline = self.clock() + self.timeout_s
        self.draw()
        while len(self.taps) < len(TARGETS):
            event = pygame.event.wait(200)
            if event.type == pygame.NOEVENT:
                if self.clock() >= deadline:
                    return TouchVerdict(
                        "no touch", f"no tap came within {self.timeout_s:g} s of target "
                        f"{len(self.taps) + 1}: is the touch panel connected (a USB touch: "
                        "lsusb; the DSI display: its ribbon cable)?")
                continue
            count = len(self.taps)
            if not self.handle(event):
                return TouchVerdict("stopped", "stopped before the four taps")
            if len(self.taps) != count:
                deadline = self.clock() + self.timeout_s
            self.draw()
        return diagnose(self.taps, self.current, self.surface.get_size())

    def handle(self, event: pygame.event.Event) -> bool:
        """One event; False when the check is stopped (Esc, the window closed)."""
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                         and event.key in (pygame.K_ESCAPE, pygame.K_q)):
            return False
        if event.type == pygame.FINGERDOWN and self._held is None:
            self._held = int(event.finger_id)
            self.taps.append((float(event.x), float(event.y)))
            self.note = ""
        elif event.type == pygame.FINGERUP and int(event.finger_id) == self._held:
            self._held = None
        elif event.type == pygame.MOUSEBUTTONDOWN and not getattr(event, "touch", False):
            self.note = "that was a mouse click: tap the target with a finger"
        return True

    def draw(self) -> None:
        """The current target, the taps so far (where the scoreboard would see them), help."""
        surface = self.surface
        width, height = surface.get_size()
        surface.fill(BACKGROUND)
        for x, y in self.taps:
            cx, cy = corrected(self.current, x, y)
            pygame.draw.circle(surface, TAP, (round(cx * width), round(cy * height)), 8)
        index = len(self.taps)
        if index < len(TARGETS):
            tx, ty = TARGETS[index]
            centre = (round(tx * width), round(ty * height))
            pygame.draw.circle(surface, TARGET, centre, TARGET_RADIUS, 4)
            pygame.draw.circle(surface, TARGET, centre, 6)
            for dx, dy in ((1, 0), (0, 1)):
                reach = TARGET_RADIUS + 14
                pygame.draw.line(surface, TARGET, (centre[0] - dx * reach, centre[1] - dy * reach),
                                 (centre[0] + dx * reach, centre[1] + dy * reach), 2)
            lines = [(self._big, f"Tap the centre of the target ({index + 1} of {len(TARGETS)})"),
                     (self._small, "showdown check --screen: Esc stops")]
        else:
            lines = [(self._big, "Done: the answer is in the terminal")]
        if self.taps:
            lines.append((self._small, "blue dots: where your taps landed"))
        if self.note:
            lines.append((self._small, self.note))
        top = height // 2 - 30
        for font, text in lines:
            image = font.render(text, True, INK)
            surface.blit(image, ((width - image.get_width()) // 2, top))
            top += image.get_height() + 10
        pygame.display.flip()


class PanelError(Exception):
    """The panel cannot be opened; the message says why in one line. ``maybe_busy``: SDL failed to
    open a screen that is there (another program, such as the service, may hold it)."""

    def __init__(self, message: str, *, maybe_busy: bool) -> None:
        super().__init__(message)
        self.maybe_busy = maybe_busy


@contextlib.contextmanager
def open_panel() -> Iterator[pygame.Surface]:
    """The whole panel, as the service's scoreboard opens it on a Pi (full screen, the panel's
    own resolution), closed again on the way out."""
    configure_sdl()
    try:
        display.check_environment()
        pygame.display.init()
        display.check_driver()
        window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    except display.NoWindowError as error:
        pygame.display.quit()
        raise PanelError(str(error), maybe_busy=False) from None
    except pygame.error as error:
        pygame.display.quit()
        raise PanelError(str(error) or "SDL could not open it", maybe_busy=True) from None
    pygame.display.set_caption("showdown check --screen")
    pygame.event.set_blocked([pygame.MOUSEMOTION, pygame.FINGERMOTION])
    try:
        yield window
    finally:
        pygame.display.quit()
