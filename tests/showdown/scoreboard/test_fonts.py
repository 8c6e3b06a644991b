"""Fonts: every translated message can be drawn without empty boxes; a clear fallback otherwise."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from showdown.scoreboard import fonts, i18n
from showdown.scoreboard.i18n import LANGUAGES


@pytest.fixture(autouse=True)
def _fresh_warnings() -> Iterator[None]:
    fonts._warned.clear()
    yield
    fonts._warned.clear()
    i18n.set_language("en")


def _no_cjk_fonts_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fonts, "DEBIAN_CJK_FONTS", ())
    monkeypatch.setattr(fonts, "_pypi_font", lambda: None)


def _translations(code: str) -> list[str]:
    path = i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=code)
    texts: list[str] = []
    for message in catalogue:
        if not message.id:
            continue
        texts.extend([message.string] if isinstance(message.string, str) else message.string)
    return texts


def test_a_cjk_font_is_found_on_this_machine() -> None:
    """make test installs one (the PyPI dev dependency) where Debian's is not installed."""
    choice = fonts.choose_font("ja", env={})
    assert choice.covers_cjk
    assert choice.path is not None
    assert choice.path.is_file()


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_translation_draws_without_empty_boxes(code: str) -> None:
    choice = fonts.choose_font(code, env={})
    texts = _translations(code) if code != i18n.DEFAULT_LANGUAGE else []
    missing = {text: fonts.missing_glyphs(text, choice) for text in texts}
    assert not {text: chars for text, chars in missing.items() if chars}


def test_pygames_own_font_would_show_boxes_for_japanese() -> None:
    """The check above can fail: the Latin-only fallback lacks the kana."""
    latin_only = fonts.FontChoice(None, "pygame", covers_cjk=False)
    assert fonts.missing_glyphs("ドロー2", latin_only) == "ドロー"
    assert fonts.missing_glyphs("Ambil Dua", latin_only) == ""


def test_the_environment_can_name_the_font(tmp_path: Path) -> None:
    real = fonts.choose_font("en", env={}).path
    assert real is not None
    choice = fonts.choose_font("zh_CN", env={fonts.ENV_VARIABLE: str(real)})
    assert choice.source == "$SHOWDOWN_FONT"
    assert choice.path == real


def test_a_wrong_font_path_is_reported_and_passed_over(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        choice = fonts.choose_font("ja", env={fonts.ENV_VARIABLE: "/nowhere/font.otf"})
    assert choice.covers_cjk
    assert "/nowhere/font.otf is not a font file" in caplog.text


def test_without_a_cjk_font_japanese_falls_back_with_one_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _no_cjk_fonts_installed(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        first = fonts.choose_font("ja", env={})
        fonts.choose_font("ja", env={})
    assert first.path is None
    assert not first.covers_cjk
    warnings = [r for r in caplog.records if "fonts-noto-cjk" in r.getMessage()]
    assert len(warnings) == 1
    assert "日本語" in warnings[0].getMessage()


def test_without_a_cjk_font_english_needs_no_warning(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _no_cjk_fonts_installed(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        choice = fonts.choose_font("id", env={})
    assert choice.path is None
    assert caplog.records == []
    assert fonts.font(24, language="id").size("Lompatan")[0] > 0


def test_the_current_languages_font_draws_its_text() -> None:
    pygame.font.init()
    i18n.set_language("ja")
    japanese = fonts.font(32)
    assert japanese is fonts.font(32)
    surface = japanese.render(i18n._("Draw Two"), True, (255, 255, 255))
    assert surface.get_width() > 32
    assert pygame.mask.from_surface(surface).count() > 50


def test_an_unknown_language_has_no_font() -> None:
    with pytest.raises(ValueError, match="unknown language 'xx'"):
        fonts.choose_font("xx")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_a_fitted_label_fits_its_box_and_uses_the_room(code: str) -> None:
    with i18n.use_language(code):
        text = i18n._("Wild Draw Four")
        box = (160, 48)
        fitted = fonts.fit_font(text, box, max_size=60)
        width, height = fitted.size(text)
        assert width <= box[0]
        assert height <= box[1]
        bigger = fonts.font(fitted.point_size + 1)
        assert bigger.size(text)[0] > box[0] or bigger.size(text)[1] > box[1]


def test_a_name_too_long_for_its_box_is_cut_with_an_ellipsis() -> None:
    face = fonts.font(24, language="en")
    name = "Bartholomew Fitzgerald-Montgomery"
    short = fonts.ellipsize(name, face, 150)
    assert short.endswith("…")
    assert face.size(short)[0] <= 150
    assert name.startswith(short[:-1])
    assert fonts.ellipsize("Ana", face, 150) == "Ana"
