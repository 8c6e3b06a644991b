"""The message catalogues: complete in every language, switchable mid-game, safe when missing."""

from __future__ import annotations

import doctest
import gettext
import logging
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

import engine
import showdown
from showdown.locale import catalogues
from showdown.scoreboard import accessibility, i18n, vocabulary
from showdown.scoreboard.i18n import (
    LANGUAGES,
    _,
    current_language,
    ngettext,
    pgettext,
    set_language,
)

PACKAGE_DIR = Path(showdown.__file__).resolve().parent
ENGINE_DIR = Path(engine.__file__).resolve().parent
REFUSAL_KEYWORDS = {**DEFAULT_KEYWORDS, "ErrorText": None, "refuse": None}
"""Refusals are written as ``ErrorText("template", ...)`` (and the tally's ``refuse(...)``): their
templates are message ids the scoreboard translates, like ``make messages`` extracts them."""
TRANSLATED = [code for code in LANGUAGES if code != i18n.DEFAULT_LANGUAGE]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

MessageKey = tuple[str | None, str]


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    yield
    i18n.reload_catalogues()
    set_language("en")


def _code_messages() -> dict[MessageKey, str]:
    """Every message the code passes to _(), N_(), ngettext() or pgettext(), and every refusal
    template (``ErrorText``) of the session and the engine, with where it is."""
    found: dict[MessageKey, str] = {}
    for folder in (PACKAGE_DIR, ENGINE_DIR):
        extracted = extract_from_dir(str(folder), keywords=REFUSAL_KEYWORDS)
        for filename, _lineno, message, _comments, context in extracted:
            msgid = message if isinstance(message, str) else message[0]
            found[(context, msgid)] = f"{folder.name}/{filename}"
    return found


def _catalogue(code: str) -> dict[MessageKey, object]:
    path = i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=code)
    assert not catalogue.fuzzy, f"{path} is marked fuzzy: pybabel would not compile it"
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalogue if m.id}


def test_the_code_has_messages_to_translate() -> None:
    messages = _code_messages()
    assert (None, "GO!") in messages
    assert ("colour mark", "R") in messages
    # the refusals the session and the engine's tally send to the scoreboard
    assert (None, "{who}: points cannot be negative ({points})") in messages
    assert (None, "{role} {name!r} is not playing in this game ({players})") in messages
    assert (None, "showdown {id} already has a result") in messages


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_in_the_code_is_translated(code: str) -> None:
    catalogue = _catalogue(code)
    problems = []
    for key, filename in sorted(_code_messages().items(), key=str):
        entry = catalogue.get(key)
        if entry is None:
            problems.append(f"missing {key} (from {filename}): run `make messages`")
            continue
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)  # type: ignore[attr-defined]
        if not all(strings):
            problems.append(f"untranslated {key}")
        if "fuzzy" in entry.flags:  # type: ignore[attr-defined]
            problems.append(f"fuzzy {key}")
        wanted = set(PLACEHOLDER.findall(key[1]))
        for string in strings:
            if set(PLACEHOLDER.findall(string)) != wanted:
                problems.append(f"placeholders differ in {key}: {string!r}")
    assert not problems, f"{code}: " + "; ".join(problems)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalogue_matches_its_source(code: str) -> None:
    """A stale .mo would show old words: what gettext loads equals what the .po says."""
    compiled = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=[code])
    for (context, msgid), entry in _catalogue(code).items():
        string = entry.string  # type: ignore[attr-defined]
        if not isinstance(string, str) or not string:
            continue
        got = compiled.gettext(msgid) if context is None else compiled.pgettext(context, msgid)
        assert got == string, f"{code}: {msgid!r} compiled as {got!r}; run `make catalogues`"


def test_the_language_changes_mid_game_at_the_next_call() -> None:
    label = vocabulary.KINDS["draw_two"]
    assert _(label) == "Draw Two"
    set_language("ja")
    assert _(label) == "ドロー2"
    assert current_language() == "ja"
    set_language("zh_HK")
    assert _(label) == "罰抽兩張"
    set_language("en")
    assert _(label) == "Draw Two"


def test_listeners_hear_each_change_once_and_can_leave() -> None:
    heard: list[str] = []
    unsubscribe = i18n.on_language_change(heard.append)
    set_language("id")
    set_language("id")
    set_language("zh_CN")
    unsubscribe()
    set_language("en")
    assert heard == ["id", "zh_CN"]


def test_an_unknown_language_is_refused_with_the_choices_and_nothing_changes() -> None:
    set_language("ja")
    with pytest.raises(i18n.UnknownLanguageError, match=r"unknown language 'fr'.*zh_HK"):
        set_language("fr")
    assert current_language() == "ja"
    assert _("Skip") == "スキップ"


def test_a_missing_catalogue_falls_back_to_english_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    i18n.reload_catalogues()
    with caplog.at_level(logging.WARNING, logger="showdown.locale.catalogues"):
        set_language("ja")
    assert _("Skip") == "Skip"
    assert ngettext("{count} card", "{count} cards", 2) == "{count} cards"
    assert pgettext("colour mark", "R") == "R"
    assert "no catalogue for ja" in caplog.text


def test_use_language_restores_the_previous_one_even_after_an_error() -> None:
    set_language("id")
    with pytest.raises(RuntimeError), i18n.use_language("ja"):
        assert _("Reverse") == "リバース"
        raise RuntimeError
    assert current_language() == "id"
    assert _("Reverse") == "Kebalikan"


def test_every_language_has_its_own_name() -> None:
    assert set(LANGUAGES) == {"en", "zh_CN", "zh_HK", "id", "ja"}
    assert i18n.language_name("ja") == "日本語"
    assert len(set(LANGUAGES.values())) == len(LANGUAGES)


@pytest.mark.parametrize("module", [i18n, vocabulary, accessibility])
def test_docstring_examples_run(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0


def test_an_uncompiled_source_is_compiled_in_memory_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An install that skipped `make catalogues` still shows the translations."""
    folder = tmp_path / "ja" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(i18n.LOCALE_DIR / "ja" / "LC_MESSAGES" / "showdown.po", folder)
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    i18n.reload_catalogues()
    with caplog.at_level(logging.WARNING, logger="showdown.locale.catalogues"):
        set_language("ja")
    assert _("Skip") == "スキップ"
    assert pgettext("colour mark", "R") == "赤"
    assert "not compiled" in caplog.text


def test_a_catalogue_older_than_its_source_is_not_trusted(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "id" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source = i18n.LOCALE_DIR / "id" / "LC_MESSAGES"
    shutil.copy(source / "showdown.mo", folder)
    text = (source / "showdown.po").read_text(encoding="utf-8")
    edited = text.replace('msgstr "Lompatan"', 'msgstr "Lewati"')
    assert edited != text
    (folder / "showdown.po").write_text(edited, encoding="utf-8")
    os.utime(folder / "showdown.mo", (1_000_000, 1_000_000))
    monkeypatch.setattr(catalogues, "LOCALE_DIR", tmp_path)
    i18n.reload_catalogues()
    with caplog.at_level(logging.WARNING, logger="showdown.locale.catalogues"):
        set_language("id")
    assert _("Skip") == "Lewati"
    assert "older than its source" in caplog.text
