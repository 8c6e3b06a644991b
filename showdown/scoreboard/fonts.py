"""The fonts each language is drawn in, checked to have what it draws, and a fallback chain.

pygame draws an empty box for a glyph its font lacks, and says nothing. So a font is never taken
on its name: a candidate is checked to cover what the language draws (Latin letters, digits and
the symbols every screen uses, plus every character of the language's catalogue), and the chooser
goes on down the list when it does not. The candidates, best first:

1. ``SHOWDOWN_FONT``: a font file named by the environment (a warning if it does not exist);
2. Debian's CJK fonts: Noto Sans CJK (``fonts-noto-cjk``, installed by the Pi install script),
   WenQuanYi Micro Hei, Droid Sans Fallback. Droid Sans Fallback has no Latin letters at all;
3. the Noto Sans CJK file of the PyPI package ``cvttf-notosanscjk-regular`` (a dev dependency:
   the tests and the documentation's screenshots are drawn with it, :func:`pinned_font`);
4. Debian's DejaVu Sans (``fonts-dejavu-core``), Latin only;
5. pygame's own font, Latin only, without the arrows.

The first candidate that covers everything draws the language alone (one look whatever the
language: a CJK font covers English too). Where none does, the fewest candidates that cover it
together form a chain, one for Latin and one for CJK, and each character is drawn in the first
font of the chain that has it (:class:`showdown.scoreboard.face.Face`, which builds on this
module and never the other way round); the other candidates
follow in the chain, so a player's name in another script still shows. A language that even
the chain cannot draw is warned about once, in the log and by ``showdown check``, saying what to
install.
"""

from __future__ import annotations

import logging
import os
import string
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pygame
import pygame.freetype

from showdown.scoreboard.i18n import LANGUAGES, catalogue_text, current_language

__all__ = [
    "CJK_LANGUAGES",
    "CJK_SAMPLE",
    "DEBIAN_CJK_FONTS",
    "DEBIAN_LATIN_FONTS",
    "ENV_VARIABLE",
    "LATIN_TEXT",
    "FontChoice",
    "FontSet",
    "candidates",
    "choose_font",
    "choose_fonts",
    "current_fonts",
    "font_problems",
    "forget_choices",
    "has_glyph",
    "load_font",
    "missing_glyphs",
    "pinned_font",
    "required_text",
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

DEBIAN_LATIN_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),  # fonts-dejavu-core
)
"""Debian's Latin font (on Raspberry Pi OS from the start): Latin with the arrows the screens
draw, which pygame's own font lacks."""

LATIN_TEXT = string.ascii_letters + string.digits + string.punctuation + "−–—·…“”‘’←→"
"""What every language draws besides its catalogue: Latin letters (player names, English
fallbacks), digits (scores), ASCII punctuation and the symbols the screens use themselves."""

CJK_SAMPLE = "日本語简体繁體中文ひらがなカタカナ"
"""A few Chinese and Japanese characters: :attr:`FontChoice.covers_cjk` checks a font has them."""

_PYPI_FONT_PACKAGE = "cvttf_NotoSansCJK_Regular"
_FONT_SUFFIXES = (".otf", ".ttf", ".ttc")
_BUNDLED = "pygame's bundled font (Latin only)"


@dataclass(frozen=True)
class FontChoice:
    """A font file, where it came from, and whether it has Chinese and Japanese glyphs."""

    path: Path | None
    """The font file, or ``None`` for pygame's bundled Latin-only font."""
    source: str
    """Where it was found, for logs and ``showdown check``."""
    covers_cjk: bool
    """Whether it has the characters of :data:`CJK_SAMPLE`."""


@dataclass(frozen=True)
class FontSet:
    """The fonts one language is drawn with: each character in the first of them that has it."""

    language: str
    fonts: tuple[FontChoice, ...]
    """The chain: the font (or fonts) that cover the language, then the other candidates."""
    missing: str = ""
    """Characters the language draws that no font of the chain has (drawn as empty boxes)."""
    covering: int = 1
    """How many fonts at the head of the chain it takes to draw the language (1 where one
    font covers it; 2 for Droid Sans Fallback and a Latin font)."""

    def __hash__(self) -> int:
        """Computed once: every draw looks its text up by the fonts it is drawn in."""
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = hash((self.language, self.fonts, self.missing, self.covering))
            object.__setattr__(self, "_hash", known)
        return known

    @property
    def primary(self) -> FontChoice:
        """The first font of the chain: the one that draws the language where it can alone."""
        return self.fonts[0]

    @property
    def paths(self) -> tuple[Path | None, ...]:
        """The chain's font files (a cache key for rendered text)."""
        return tuple(choice.path for choice in self.fonts)

    def font_index(self, char: str) -> int:
        """Which font of the chain draws ``char``: the first that has it. If none has it (a
        player's name in a script no font here covers), the first, which draws a box, and a
        warning once per character."""
        if char.isspace():
            return 0
        for index, choice in enumerate(self.fonts):
            if has_glyph(choice.path, char):
                return index
        if char not in _boxed:
            _boxed.add(char)
            log.warning("no font here has %r (U+%04X): it shows as an empty box; set %s to a "
                        "font that has it", char, ord(char), ENV_VARIABLE)
        return 0

    def missing_glyphs(self, text: str) -> str:
        """The characters of ``text`` that no font of the chain has, each once."""
        return "".join(
            dict.fromkeys(
                char for char in text
                if not char.isspace()
                and not any(has_glyph(choice.path, char) for choice in self.fonts)
            )
        )


def pinned_font() -> Path:
    """The project's own font file (the dev dependency ``cvttf-notosanscjk-regular``): tests and
    the documentation's screenshots draw with it, so their pixels do not depend on the machine.
    """
    found = _pypi_font()
    if found is None:
        raise RuntimeError(
            "the pinned font is not installed: install the dev dependencies "
            "(pip install -e '.[dev]', as `make test` does)"
        )
    return found


def _pypi_font() -> Path | None:
    try:
        package = resources.files(_PYPI_FONT_PACKAGE)
    except ModuleNotFoundError:
        return None
    for entry in sorted(package.iterdir(), key=lambda entry: entry.name):
        if entry.name.lower().endswith(_FONT_SUFFIXES):
            return Path(str(entry))
    return None


def _bundled_path() -> Path:
    """pygame's own font file (loaded by path: ``Font(None, n)`` draws it at 0.69 of ``n``)."""
    return Path(pygame.__file__).parent / pygame.font.get_default_font()


_boxed: set[str] = set()
"""Characters already warned about: no font of the chain has them."""
_glyphs: dict[tuple[Path | None, str], bool] = {}
_faces: dict[Path | None, pygame.freetype.Font] = {}


def has_glyph(path: Path | None, char: str) -> bool:
    """Whether the font file (``None``: pygame's own) has a glyph for ``char`` (cached).

    pygame's font module draws a box for a missing glyph without saying so; its freetype module
    reports one, so this asks it.
    """
    key = (path, char)
    known = _glyphs.get(key)
    if known is None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
            _faces.clear()
        face = _faces.get(path)
        if face is None:
            face = pygame.freetype.Font(None if path is None else str(path), 16)
            _faces[path] = face
        known = face.get_metrics(char)[0] is not None
        _glyphs[key] = known
    return known


def missing_glyphs(text: str, choice: FontChoice) -> str:
    """The characters of ``text`` that ``choice``'s font has no glyph for (drawn as empty boxes),
    each once. Whitespace is never missing."""
    return "".join(
        dict.fromkeys(
            char for char in text if not char.isspace() and not has_glyph(choice.path, char)
        )
    )


def required_text(language: str) -> str:
    """Every character ``language`` draws apart from names: :data:`LATIN_TEXT`, its own name (the
    language button shows it) and its catalogue's translations."""
    return "".join(
        dict.fromkeys(LATIN_TEXT + LANGUAGES[language] + catalogue_text(language))
    )


def _choice(path: Path | None, source: str) -> FontChoice:
    return FontChoice(path, source, covers_cjk=not any(
        not has_glyph(path, char) for char in CJK_SAMPLE))


def candidates(env: Mapping[str, str] | None = None) -> list[FontChoice]:
    """Every font file found, best first (see the module docstring); pygame's own font last."""
    env = os.environ if env is None else env
    found: list[FontChoice] = []
    named = env.get(ENV_VARIABLE, "").strip()
    if named:
        path = Path(named).expanduser()
        if path.is_file():
            found.append(_choice(path, f"${ENV_VARIABLE}"))
        else:
            log.warning("%s=%s is not a font file; looking for another", ENV_VARIABLE, named)
    found.extend(_choice(path, "Debian") for path in DEBIAN_CJK_FONTS if path.is_file())
    pypi = _pypi_font()
    if pypi is not None:
        found.append(_choice(pypi, "PyPI cvttf-notosanscjk-regular"))
    found.extend(_choice(path, "Debian") for path in DEBIAN_LATIN_FONTS if path.is_file())
    found.append(FontChoice(None, _BUNDLED, covers_cjk=False))
    unique: dict[Path | None, FontChoice] = {}
    for choice in found:
        unique.setdefault(choice.path, choice)
    return list(unique.values())


def choose_fonts(language: str, env: Mapping[str, str] | None = None) -> FontSet:
    """The fonts to draw ``language`` in: the first candidate that covers it alone, else the
    fewest that cover it together, then the rest as fallbacks for names in other scripts.

    A language that not even all the candidates can draw gets a logged warning (once) that
    says what to install.
    """
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}")
    found = candidates(env)
    needed = required_text(language)
    chain: list[FontChoice] = []
    whole = next((choice for choice in found if not missing_glyphs(needed, choice)), None)
    if whole is not None:
        chain.append(whole)
    else:  # greedily: the candidate that covers most of what is left, until nothing is
        left = set(needed) - set(string.whitespace)
        while left:
            best = max(found, key=lambda c: sum(has_glyph(c.path, ch) for ch in left))
            covered = {char for char in left if has_glyph(best.path, char)}
            if not covered:
                break
            chain.append(best)
            left -= covered
    covering = max(1, len(chain))
    chain += [choice for choice in found if choice not in chain]
    fonts = FontSet(language, tuple(chain), covering=covering)
    fonts = FontSet(language, fonts.fonts, fonts.missing_glyphs(needed), covering)
    _warn(fonts)
    return fonts


_warned: set[str] = set()


def _warn(fonts: FontSet) -> None:
    """Once per language: a warning when it cannot be drawn, a note when it takes a chain."""
    language = fonts.language
    covering = fonts.covering
    if language in _warned or (covering == 1 and not fonts.missing):
        return
    _warned.add(language)
    if fonts.missing:
        log.warning("%s", _problem(fonts))
    else:
        log.info("no single font draws %s: drawn with %s", LANGUAGES[language],
                 " and ".join(_name(choice) for choice in fonts.fonts[:covering]))


def _name(choice: FontChoice) -> str:
    return choice.source if choice.path is None else f"{choice.path.name} ({choice.source})"


def _problem(fonts: FontSet) -> str:
    shown = fonts.missing[:12] + ("…" if len(fonts.missing) > 12 else "")
    return (
        f"no font found draws {LANGUAGES[fonts.language]} ({fonts.language}): "
        f"{len(fonts.missing)} of its characters ({shown}) will show as empty boxes. "
        f"Install Debian's fonts-noto-cjk (the Pi install script does) or set {ENV_VARIABLE} "
        "to a font file."
    )


def font_problems(env: Mapping[str, str] | None = None) -> list[str]:
    """One line per language that cannot be drawn (what ``showdown check`` prints); none when
    every language can."""
    problems: list[str] = []
    for language in LANGUAGES:
        fonts = choose_fonts(language, env)
        if fonts.missing:
            problems.append(_problem(fonts))
    return problems


def choose_font(language: str, env: Mapping[str, str] | None = None) -> FontChoice:
    """The first font of :func:`choose_fonts`: the one that draws ``language`` where one can."""
    return choose_fonts(language, env).primary


_chosen: dict[tuple[str, str], FontSet] = {}


def current_fonts(language: str | None = None) -> FontSet:
    """The fonts of the language in use (or ``language``): :func:`choose_fonts` over this
    process's environment, chosen once per language and ``SHOWDOWN_FONT`` (every label asks,
    and checking touches the file system)."""
    code = current_language() if language is None else language
    key = (code, os.environ.get(ENV_VARIABLE, ""))
    fonts = _chosen.get(key)
    if fonts is None:
        fonts = choose_fonts(code)
        _chosen[key] = fonts
    return fonts


def forget_choices() -> None:
    """Choose again at the next draw (after fonts were installed, or in tests)."""
    _chosen.clear()
    _glyphs.clear()
    _faces.clear()


_cache: dict[tuple[Path | None, int, bool], pygame.font.Font] = {}


def load_font(path: Path | None, size: int, bold: bool = False) -> pygame.font.Font:
    """A pygame font from ``path`` (``None``: pygame's own) at ``size`` pixels, cached (opening a
    CJK font takes ~10 ms).

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
        loaded = pygame.font.Font(_bundled_path() if path is None else path, size)
        loaded.bold = bold
        _cache[key] = loaded
    return loaded
