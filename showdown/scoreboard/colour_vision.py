"""Colour-vision-deficiency simulation and a contrast measure, to check the scoreboard's cues.

Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of
Color Vision Deficiency", IEEE TVCG 15(6):1291-1298, with the published matrices at severity 1.0
(protanopia, deuteranopia and tritanopia). As the model is linear in cone space, the matrices are
applied to linear-light sRGB: decode the sRGB transfer curve, multiply, clip to [0, 1], encode.

Contrast measure: CIEDE2000 colour difference (Sharma, Wu & Dalal 2005 formulation) between
CIELAB colours (sRGB, D65 white). A difference of about 2.3 is just noticeable side by side; the
thresholds below ask for far more, because the countdown is read at a glance across a table:

- :data:`CUE_MIN_DELTA_E` = 20 for the countdown's waiting and go colours;
- :data:`CARD_MIN_DELTA_E` = 12 between any two of the four card colours;
- :data:`MARK_MIN_CONTRAST` = 3.0, WCAG 2 contrast ratio of a mark (text) on its colour, the
  level WCAG asks for large text.

Pure Python over pygame surfaces: a scoreboard image has few distinct colours, so each distinct
colour is simulated once and the pixels are mapped through that table (no numpy needed).

>>> round(delta_e_2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
2.0425
>>> simulate_colour((255, 255, 255), Deficiency.DEUTERANOPIA)
(255, 255, 255)
"""

from __future__ import annotations

import math
from collections import Counter
from enum import Enum

import pygame

__all__ = [
    "CARD_MIN_DELTA_E",
    "CUE_MIN_DELTA_E",
    "MACHADO_2009",
    "MARK_MIN_CONTRAST",
    "TEXT_MIN_CONTRAST",
    "Deficiency",
    "colour_difference",
    "contrast_ratio",
    "delta_e_2000",
    "differing_fraction",
    "dominant_colours",
    "readable_ink",
    "relative_luminance",
    "simulate_colour",
    "simulate_surface",
    "srgb_to_lab",
]

RGB = tuple[int, int, int]
Lab = tuple[float, float, float]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

CUE_MIN_DELTA_E = 20.0
"""Least CIEDE2000 difference between the countdown's waiting and go colours, as simulated."""

CARD_MIN_DELTA_E = 12.0
"""Least CIEDE2000 difference between any two card colours, as simulated."""

PLAYER_MIN_DELTA_E = 11.0
"""Any two colours of the players' palette (:data:`showdown.game.colours.PLAYER_PALETTE`),
under every simulated dichromacy and with normal vision."""

MARK_MIN_CONTRAST = 3.0
"""Least WCAG 2 contrast ratio between a colour's mark and the colour it is drawn on."""

TEXT_MIN_CONTRAST = 4.5
"""Least WCAG 2 contrast ratio of words on a colour a player chose (AA for normal text): the
figures on a player's bar, the colour's name on its swatch."""

BLACK: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)


class Deficiency(Enum):
    """The dichromacies simulated; red-green (protan, deutan) are the common ones."""

    PROTANOPIA = "protanopia"
    DEUTERANOPIA = "deuteranopia"
    TRITANOPIA = "tritanopia"


MACHADO_2009: dict[Deficiency, Matrix] = {
    Deficiency.PROTANOPIA: (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    Deficiency.DEUTERANOPIA: (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    Deficiency.TRITANOPIA: (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
"""Machado et al. (2009) simulation matrices at severity 1.0, for linear RGB."""


def _to_linear(channel: int) -> float:
    c = channel / 255.0
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(linear: float) -> int:
    c = min(1.0, max(0.0, linear))
    encoded = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(encoded * 255)


def simulate_colour(rgb: RGB, deficiency: Deficiency) -> RGB:
    """How an sRGB colour looks to someone with ``deficiency`` (Machado 2009, severity 1.0)."""
    linear = [_to_linear(c) for c in rgb]
    m = MACHADO_2009[deficiency]
    r, g, b = (sum(row[i] * linear[i] for i in range(3)) for row in m)
    return (_to_srgb(r), _to_srgb(g), _to_srgb(b))


def simulate_surface(surface: pygame.Surface, deficiency: Deficiency) -> pygame.Surface:
    """A copy of ``surface`` as seen with ``deficiency``: every pixel passed through the model."""
    width, height = surface.get_size()
    data = pygame.image.tobytes(surface, "RGB")
    table: dict[bytes, bytes] = {}
    out = bytearray(len(data))
    for i in range(0, len(data), 3):
        pixel = data[i : i + 3]
        mapped = table.get(pixel)
        if mapped is None:
            mapped = bytes(simulate_colour((pixel[0], pixel[1], pixel[2]), deficiency))
            table[pixel] = mapped
        out[i : i + 3] = mapped
    return pygame.image.frombytes(bytes(out), (width, height), "RGB")


def srgb_to_lab(rgb: RGB) -> Lab:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_to_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def delta_e_2000(lab1: Lab, lab2: Lab) -> float:
    """CIEDE2000 difference between two CIELAB colours (kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0

    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    elif h2p - h1p > 180:
        dh = h2p - h1p - 360
    else:
        dh = h2p - h1p + 360
    d_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))

    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_bar - 30))
        + 0.24 * math.cos(math.radians(2 * hp_bar))
        + 0.32 * math.cos(math.radians(3 * hp_bar + 6))
        - 0.20 * math.cos(math.radians(4 * hp_bar - 63))
    )
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2 + (dc / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (dc / s_c) * (d_h / s_h)
    )


def colour_difference(rgb1: RGB, rgb2: RGB) -> float:
    """CIEDE2000 difference between two sRGB colours: the project's contrast measure."""
    return delta_e_2000(srgb_to_lab(rgb1), srgb_to_lab(rgb2))


def relative_luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0 black to 1 white)."""
    r, g, b = (_to_linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(rgb1: RGB, rgb2: RGB) -> float:
    """WCAG 2 contrast ratio, 1 (none) to 21 (black on white)."""
    light, dark = sorted((relative_luminance(rgb1), relative_luminance(rgb2)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_ink(fill: RGB, inks: tuple[RGB, ...]) -> RGB:
    """The ink of ``inks`` (the theme's) that reads best on ``fill``; black or white where none
    reaches :data:`TEXT_MIN_CONTRAST`, one of which always does (their two ratios on any colour
    multiply to 21, so the better is at least 4.58).

    >>> readable_ink((120, 90, 200), ((18, 22, 30), (240, 240, 235)))
    (255, 255, 255)
    """
    best = max(inks, key=lambda ink: contrast_ratio(ink, fill))
    if contrast_ratio(best, fill) >= TEXT_MIN_CONTRAST:
        return best
    return max((BLACK, WHITE), key=lambda ink: contrast_ratio(ink, fill))


def dominant_colours(surface: pygame.Surface, count: int = 1) -> list[RGB]:
    """The ``count`` most frequent pixel colours of ``surface``, most frequent first."""
    data = pygame.image.tobytes(surface, "RGB")
    counts = Counter(data[i : i + 3] for i in range(0, len(data), 3))
    return [(p[0], p[1], p[2]) for p, _n in counts.most_common(count)]


def differing_fraction(first: pygame.Surface, second: pygame.Surface, threshold: float) -> float:
    """The share of pixels whose colours differ by at least ``threshold`` (CIEDE2000)."""
    if first.get_size() != second.get_size():
        raise ValueError(f"sizes differ: {first.get_size()} and {second.get_size()}")
    a = pygame.image.tobytes(first, "RGB")
    b = pygame.image.tobytes(second, "RGB")
    memo: dict[tuple[bytes, bytes], bool] = {}
    differing = 0
    for i in range(0, len(a), 3):
        pa, pb = a[i : i + 3], b[i : i + 3]
        if pa == pb:
            continue
        key = (pa, pb)
        far = memo.get(key)
        if far is None:
            far = colour_difference((pa[0], pa[1], pa[2]), (pb[0], pb[1], pb[2])) >= threshold
            memo[key] = far
        differing += far
    return differing / (len(a) // 3)
