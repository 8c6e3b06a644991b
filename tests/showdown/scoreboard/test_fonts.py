"""Fonts: every translated message can be drawn without empty boxes; a font that lacks a script is
passed over or joined by one that has it; a clear warning where nothing can draw a language."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from showdown.scoreboard import face as faces
from showdown.scoreboard import fonts, i18n
from showdown.scoreboard.face import Face
from showdown.scoreboard.i18n import LANGUAGES
from tests.showdown.scoreboard.font_files import latin_font, latinless_font


@pytest.fixture(autouse=True)
def _fresh_warnings() -> Iterator[None]:
    fonts._warned.clear()
    yield
    fonts._warned.clear()
    i18n.set_language("en")


@pytest.fixture(scope="module")
def cut_fonts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A Latin-less CJK font and a CJK-less Latin font, cut from the pinned one."""
    folder = tmp_path_factory.mktemp("fonts")
    return latinless_font(folder), latin_font(folder)


def _no_cjk_fonts_installed(monkeypatch: pytest.MonkeyPatch, latin: Path | None = None) -> None:
    """The machine has no CJK font; ``latin`` (else nothing) stands for Debian's DejaVu Sans."""
    monkeypatch.setattr(fonts, "DEBIAN_CJK_FONTS", ())
    monkeypatch.setattr(fonts, "DEBIAN_LATIN_FONTS", () if latin is None else (latin,))
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
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, cut_fonts: tuple[Path, Path]
) -> None:
    _no_cjk_fonts_installed(monkeypatch, latin=cut_fonts[1])
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        choice = fonts.choose_font("id", env={})
        english = fonts.choose_font("en", env={})
    assert choice.path == english.path == cut_fonts[1]
    assert caplog.records == []
    assert faces.font(24, language="id").size("Lompatan")[0] > 0


def test_pygames_own_font_lacks_the_arrows_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """With nothing but pygame's font, even English has two boxes: the false-start arrows."""
    _no_cjk_fonts_installed(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        english = fonts.choose_fonts("en", env={})
    assert english.primary.path is None
    assert english.missing == "←→"
    assert "English (en): 2 of its characters (←→) will show as empty boxes" in caplog.text


def test_a_latinless_cjk_font_named_first_is_passed_over(cut_fonts: tuple[Path, Path]) -> None:
    """Droid Sans Fallback's case: a CJK font with no Latin letters comes first in the list.
    Every language goes on down the list to a font that draws all it needs."""
    latinless, _latin = cut_fonts
    env = {fonts.ENV_VARIABLE: str(latinless)}
    assert fonts.candidates(env)[0].path == latinless  # listed first...
    for code in LANGUAGES:
        chosen = fonts.choose_fonts(code, env)
        assert chosen.primary.path != latinless, code  # ...but not chosen
        assert chosen.covering == 1
        assert chosen.missing == ""
        assert fonts.missing_glyphs(fonts.required_text(code), chosen.primary) == ""


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


@pytest.mark.parametrize("code", ["ja", "zh_CN", "zh_HK"])
def test_with_no_font_covering_everything_a_chain_draws_every_string(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    cut_fonts: tuple[Path, Path], code: str,
) -> None:
    """Only a Latin-less CJK font and a Latin font: each draws its own script, no boxes."""
    latinless, latin = cut_fonts
    _no_cjk_fonts_installed(monkeypatch, latin=latin)
    env = {fonts.ENV_VARIABLE: str(latinless)}
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        chosen = fonts.choose_fonts(code, env)
    assert chosen.paths[: chosen.covering] == (latinless, latin)
    assert chosen.missing == ""
    assert caplog.records == []
    for text in [*_translations(code), "Ana", "Player 10", "Daisuke 205"]:
        assert chosen.missing_glyphs(text) == "", text
    pygame.font.init()
    face = Face(chosen, 24)
    alone = {path: fonts.load_font(path, 24) for path in (latinless, latin)}
    white = (255, 255, 255)
    # Latin is drawn by the Latin font and CJK by the CJK font, pixel for pixel...
    assert _pixels(face.render("Chen", True, white)) == _pixels(alone[latin].render(
        "Chen", True, white))
    with i18n.use_language(code):
        word = i18n._("Went out")
    assert _pixels(face.render(word, True, white)) == _pixels(alone[latinless].render(
        word, True, white))
    # ...and a mixed text is both, side by side: as wide as its parts, and not a box in it.
    mixed = f"Chen：{word}77"
    assert [text for _index, text in face.runs(mixed)] == ["Chen", f"：{word}", "77"]
    width = face.size(mixed)[0]
    assert width == (alone[latin].size("Chen")[0] + alone[latinless].size(f"：{word}")[0]
                     + alone[latin].size("77")[0])
    drawn = face.render(mixed, True, white)
    assert drawn.get_width() == width
    assert pygame.mask.from_surface(drawn).count() > 200


def test_the_chooser_warns_once_when_a_language_cannot_be_drawn(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    cut_fonts: tuple[Path, Path],
) -> None:
    _no_cjk_fonts_installed(monkeypatch, latin=cut_fonts[1])
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        problems = fonts.font_problems(env={})
        again = fonts.choose_fonts("zh_CN", env={})
    assert again.missing
    assert [line.split(":")[0] for line in problems] == [
        f"no font found draws {LANGUAGES[code]} ({code})" for code in ("zh_CN", "zh_HK", "ja")]
    assert all("fonts-noto-cjk" in line for line in problems)
    assert len(caplog.records) == 3  # once per language, though asked twice for zh_CN


def test_the_current_languages_font_draws_its_text() -> None:
    pygame.font.init()
    i18n.set_language("ja")
    japanese = faces.font(32)
    assert japanese is faces.font(32)
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
        fitted = faces.fit_font(text, box, max_size=60)
        width, height = fitted.size(text)
        assert width <= box[0]
        assert height <= box[1]
        bigger = faces.font(fitted.point_size + 1)
        assert bigger.size(text)[0] > box[0] or bigger.size(text)[1] > box[1]


def test_a_name_too_long_for_its_box_is_cut_with_an_ellipsis() -> None:
    face = faces.font(24, language="en")
    name = "Bartholomew Fitzgerald-Montgomery"
    short = faces.ellipsize(name, face, 150)
    assert short.endswith("…")
    assert face.size(short)[0] <= 150
    assert name.startswith(short[:-1])
    assert faces.ellipsize("Ana", face, 150) == "Ana"


def test_a_name_in_another_script_is_drawn_by_a_font_that_has_it(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    cut_fonts: tuple[Path, Path],
) -> None:
    """English is drawn in the Latin font; a name typed in Chinese still shows, in the CJK font
    further down the chain. A character no font has is a box, and the log says so once."""
    latinless, latin = cut_fonts
    _no_cjk_fonts_installed(monkeypatch, latin=latin)
    english = fonts.choose_fonts("en", {fonts.ENV_VARIABLE: str(latinless)})
    assert english.primary.path == latin
    pygame.font.init()
    face = Face(english, 24)
    assert [english.fonts[index].path for index, _text in face.runs("Ana 的")] == [
        latin, latinless]
    assert english.missing_glyphs("Ana 的") == ""
    monkeypatch.setattr(fonts, "_boxed", set())
    with caplog.at_level(logging.WARNING, logger="showdown.scoreboard.fonts"):
        face.render("Ana \U00013000", True, (255, 255, 255))
        Face(english, 30).size("\U00013000")
    assert english.missing_glyphs("Ana \U00013000") == "\U00013000"
    assert [r.getMessage() for r in caplog.records] == [
        "no font here has '\U00013000' (U+13000): it shows as an empty box; set SHOWDOWN_FONT "
        "to a font that has it"]
