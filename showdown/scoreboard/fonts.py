"""The font each language is drawn in: one that covers Chinese and Japanese, or a stated fallback.

pygame's bundled font covers only Latin script, so Chinese and Japanese need a CJK font. The search
order is:

1. ``SHOWDOWN_FONT``: a font file named by the environment (a warning if it does not exist);
2. Debian's Noto Sans CJK (``fonts-noto-cjk``, installed by the Pi install script), then two smaller
   Debian CJK fonts (WenQuanYi Micro Hei, Droid Sans Fallback);
3. the Noto Sans CJK file of the PyPI package ``cvttf-notosanscjk-regular`` (a dev dependency, so
   tests on a fresh machine draw real CJK glyphs);
4. pygame's own font, Latin only: Chinese and Japanese text would show as empty boxes, so a warning
   saying what to install is logged (once) when a CJK language is chosen without a CJK font.

A CJK font found is used for every language, English and Indonesian too: one look whatever the
language, and player names in any script show. Debian's ``.ttc`` collection opens on its first face,
Noto Sans CJK JP, whose Chinese glyphs differ from the Chinese faces' only in a few shapes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pygame
import pygame.freetype

from showdown.scoreboard.i18n import LANGUAGES, current_language

__all__ = [
    "CJK_LANGUAGES",
    "DEBIAN_CJK_FONTS",
    "ENV_VARIABLE",
    "FontChoice",
    "choose_font",
    "ellipsize",
    "fit_font",
    "font",
    "load_font",
    "missing_glyphs",
]

log = logging.getLogger(__name__)

ENV_VARIABLE = "SHOWDOWN_FONT"
"""The environment variable that names a font file to use before any other."""

CJK_LANGUAGES = frozenset({"zh_CN", "zh_HK", "ja"})
"""The languages whose text needs a CJK font."""

DEBIAN_CJK_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),  # fonts-noto-cjk
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),  # fonts-wqy-microhei
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),  # fonts-droid-fallback
)
"""Debian's CJK fonts, best first (the Pi install script installs the first)."""

_PYPI_FONT_PACKAGE = "cvttf_NotoSansCJK_Regular"
_FONT_SUFFIXES = (".otf", ".ttf", ".ttc")


@dataclass(frozen=True)
class FontChoice:
    """Which font file a language is drawn with, where it came from, and whether it covers CJK."""

    path: Path | None
    """The font file, or ``None`` for pygame's bundled Latin-only font."""
    source: str
    """Where it was found, for logs and ``--help`` output."""
    covers_cjk: bool
    """Whether Chinese and Japanese text can be drawn with it."""


def _pypi_font() -> Path | None:
    try:
        package = resources.files(_PYPI_FONT_PACKAGE)
    except ModuleNotFoundError:
        return None
    for entry in package.iterdir():
        if entry.name.lower().endswith(_FONT_SUFFIXES):
            return Path(str(entry))
    return None


def _cjk_candidates(env: Mapping[str, str]) -> list[FontChoice]:
    found: list[FontChoice] = []
    named = env.get(ENV_VARIABLE, "").strip()
    if named:
        path = Path(named).expanduser()
        if path.is_file():
            found.append(FontChoice(path, f"${ENV_VARIABLE}", covers_cjk=True))
        else:
            log.warning("%s=%s is not a font file; looking for another", ENV_VARIABLE, named)
    found.extend(
        FontChoice(path, "Debian", covers_cjk=True) for path in DEBIAN_CJK_FONTS if path.is_file()
    )
    pypi = _pypi_font()
    if pypi is not None:
        found.append(FontChoice(pypi, "PyPI cvttf-notosanscjk-regular", covers_cjk=True))
    return found


_warned: set[str] = set()


def choose_font(language: str, env: Mapping[str, str] | None = None) -> FontChoice:
    """The font to draw ``language`` in (see the module docstring for the order).

    Without a CJK font, a CJK language gets pygame's font and a logged warning (once per
    language) that says how to install one.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    candidates = _cjk_candidates(os.environ if env is None else env)
    if candidates:
        return candidates[0]
    if language in CJK_LANGUAGES and language not in _warned:
        _warned.add(language)
        log.warning(
            "no CJK font found for %s: its text will show as empty boxes. Install Debian's "
            "fonts-noto-cjk (the Pi install script does) or set %s to a font file.",
            LANGUAGES[language],
            ENV_VARIABLE,
        )
    return FontChoice(None, "pygame's bundled font (Latin only)", covers_cjk=False)


_cache: dict[tuple[Path | None, int, bool], pygame.font.Font] = {}


def load_font(path: Path | None, size: int, bold: bool = False) -> pygame.font.Font:
    """A pygame font from ``path`` at ``size`` pixels, cached (opening a CJK font takes ~10 ms).

    Bold is synthesised when the file has no bold face (the CJK files here are regular only).
    The cache empties at ``pygame.quit()``, after which its fonts would be unusable.
    """
    if not pygame.font.get_init():
        pygame.font.init()
        _cache.clear()
        pygame.register_quit(_cache.clear)
    key = (path, size, bold)
    loaded = _cache.get(key)
    if loaded is None:
        loaded = pygame.font.Font(path, size)
        loaded.bold = bold
        _cache[key] = loaded
    return loaded


def font(size: int, bold: bool = False, language: str | None = None) -> pygame.font.Font:
    """The font for the current language (or ``language``) at ``size`` pixels: what screens call."""
    choice = choose_font(current_language() if language is None else language)
    return load_font(choice.path, size, bold)


def missing_glyphs(text: str, choice: FontChoice) -> str:
    """The characters of ``text`` that ``choice``'s font has no glyph for (drawn as empty boxes).

    pygame's font module draws a box for a missing glyph without saying so; its freetype module
    reports one, so this asks it. Whitespace is never missing.
    """
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    face = pygame.freetype.Font(None if choice.path is None else str(choice.path), 16)
    metrics = face.get_metrics(text)
    return "".join(
        dict.fromkeys(
            char
            for char, metric in zip(text, metrics, strict=True)
            if metric is None and not char.isspace()
        )
    )


def fit_font(
    text: str,
    box: tuple[int, int],
    max_size: int,
    *,
    min_size: int = 10,
    bold: bool = False,
    language: str | None = None,
) -> pygame.font.Font:
    """The largest font (``min_size`` to ``max_size`` px) in which ``text`` fits ``box`` (w, h).

    Translations run longer or shorter than English, so labels are fitted, not sized once. When
    even ``min_size`` is too big, that font is returned; :func:`ellipsize` then shortens the text.
    """
    width, height = box
    low, high = min_size, max(min_size, max_size)
    best = low
    while low <= high:
        middle = (low + high) // 2
        w, h = font(middle, bold, language).size(text)
        if w <= width and h <= height:
            best, low = middle, middle + 1
        else:
            high = middle - 1
    return font(best, bold, language)


def ellipsize(text: str, face: pygame.font.Font, width: int) -> str:
    """``text``, cut and ended with "…" if needed so that it fits ``width`` pixels in ``face``."""
    if face.size(text)[0] <= width:
        return text
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if face.size(text[:middle].rstrip() + "…")[0] <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"
