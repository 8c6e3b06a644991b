"""Real font files with a script missing, cut from the pinned Noto Sans CJK with fontTools'
subsetter: a CJK font without Latin letters (as Debian's Droid Sans Fallback is) and a Latin font
without CJK (as DejaVu Sans is), so the chooser's fallbacks are tested on this machine's fonts
whatever is installed."""

from __future__ import annotations

from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from showdown.scoreboard.fonts import LATIN_TEXT, pinned_font, required_text
from showdown.scoreboard.i18n import LANGUAGES


def _is_wide(char: str) -> bool:
    return ord(char) >= 0x2E80


def cjk_text() -> str:
    """Every CJK character any language draws (what the Latin-less font keeps)."""
    return "".join(sorted({c for code in LANGUAGES for c in required_text(code) if _is_wide(c)}))


def cut(characters: str, path: Path) -> Path:
    """The pinned font cut down to ``characters`` (and the spaces, .notdef), saved at ``path``."""
    options = subset.Options()
    options.layout_features = []
    options.notdef_outline = True
    font = TTFont(str(pinned_font()), lazy=True)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(char) for char in characters + " \u3000"})
    subsetter.subset(font)
    font.save(str(path))
    return path


def latinless_font(folder: Path) -> Path:
    """A CJK font with no Latin letters or digits (as Droid Sans Fallback)."""
    return cut(cjk_text(), folder / "latinless-cjk.otf")


def latin_font(folder: Path) -> Path:
    """A Latin font with the screens' symbols and no CJK (as DejaVu Sans)."""
    return cut(LATIN_TEXT, folder / "latin-only.otf")
