"""Reading a language's catalogue: compiled, or its source compiled in memory, or English.

:func:`translation` loads each language once. When a compiled catalogue is missing or older
than its source (an install that skipped ``make catalogues``), the ``.po`` is compiled in memory
with a logged warning; with no catalogue at all the messages stay English, also said in the log.
"""

from __future__ import annotations

import gettext
import io
import logging
import threading
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "UnknownLanguageError",
    "check",
    "forget",
    "translation",
]

log = logging.getLogger(__name__)

DOMAIN = "showdown"
"""The gettext domain: the catalogues are ``<code>/LC_MESSAGES/showdown.mo``."""

LOCALE_DIR = Path(__file__).resolve().parent
"""Where the ``.po`` sources and the compiled ``.mo`` catalogues live."""

LANGUAGES: dict[str, str] = {
    "en": "English",
    "zh_CN": "简体中文",
    "zh_HK": "繁體中文（香港）",
    "id": "Bahasa Indonesia",
    "ja": "日本語",
}
"""The supported language codes (gettext locale names), each with its name in its own language."""

DEFAULT_LANGUAGE = "en"
"""The source language of the message ids; it needs no catalogue."""


class UnknownLanguageError(ValueError):
    """A language code that is not one of :data:`LANGUAGES`; the message lists the valid codes."""

    def __init__(self, code: str) -> None:
        choices = ", ".join(f"{c} ({name})" for c, name in LANGUAGES.items())
        super().__init__(f"unknown language {code!r}; choose one of: {choices}")
        self.code = code


_lock = threading.Lock()
_translations: dict[str, gettext.NullTranslations] = {}


def check(code: str) -> str:
    """``code`` if it is one of :data:`LANGUAGES`; :class:`UnknownLanguageError` otherwise."""
    if code not in LANGUAGES:
        raise UnknownLanguageError(code)
    return code


def translation(code: str) -> gettext.NullTranslations:
    """The catalogue for ``code``, loaded once; English or a missing one passes msgids through."""
    found = _translations.get(code)
    if found is not None:
        return found
    with _lock:
        found = _translations.get(code)
        if found is None:
            found = (gettext.NullTranslations() if check(code) == DEFAULT_LANGUAGE
                     else _read_catalogue(code))
            _translations[code] = found
        return found


def forget() -> None:
    """Forget the loaded catalogues, so the next look-up reads the files again (a process that
    outlives a ``make catalogues``, and tests)."""
    with _lock:
        _translations.clear()


def _read_catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue; failing that, the ``.po`` source compiled in memory; failing that,
    English. Each fallback is logged, so a missing build step is seen, and nothing is lost."""
    folder = LOCALE_DIR / code / "LC_MESSAGES"  # read at load time: a test may point it elsewhere
    compiled, source = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    source_time = source.stat().st_mtime if source.is_file() else None
    if compiled.is_file() and (source_time is None or compiled.stat().st_mtime >= source_time):
        with compiled.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if source_time is not None:
        log.warning(
            "the catalogue for %s (%s) is %s: compiling %s in memory; run `make catalogues`",
            code,
            LANGUAGES[code],
            "older than its source" if compiled.is_file() else "not compiled",
            source,
        )
        return _compile_in_memory(source, code)
    log.warning(
        "no catalogue for %s (%s) in %s: showing English; run `make catalogues`",
        code,
        LANGUAGES[code],
        folder,
    )
    return gettext.NullTranslations()


def _compile_in_memory(source: Path, code: str) -> gettext.NullTranslations:
    """Babel reads the ``.po`` and writes the ``.mo`` into a buffer that gettext then reads."""
    from babel.messages.mofile import write_mo  # noqa: PLC0415 - only on this fallback path
    from babel.messages.pofile import read_po  # noqa: PLC0415

    with source.open("rb") as handle:
        catalogue = read_po(handle, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalogue)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
