"""Every piece of scoreboard text goes through here: gettext catalogues, chosen at call time.

The scoreboard calls :func:`_` (and :func:`ngettext`, :func:`pgettext`) every time it draws, never
at import time, so :func:`set_language` can change the language mid-game: the next frame is drawn in
the new language and nothing in the game changes. Tables of labels defined at import time mark their
strings with :func:`N_` (so the extractor finds them) and translate them with :func:`_` when drawn.

Message ids are English, the source language, which has no catalogue of its own. The other
languages' sources are ``showdown/locale/<code>/LC_MESSAGES/showdown.po``; ``make catalogues``
(which ``make run`` and ``make test`` depend on) compiles them into ``.mo`` files with Babel, and
``make messages`` extracts the messages from the code and updates the ``.po`` files. When a compiled
catalogue is missing or older than its source (an install that skipped the step), the ``.po`` is
compiled in memory with a logged warning; with no catalogue at all the messages stay English.

Placeholders use :meth:`str.format` names, so a translation may reorder them::

    _("False start: {name}").format(name=player.name)

>>> set_language("id")
>>> _("Skip")
'Lompatan'
>>> set_language("en")
>>> _("Skip")
'Skip'
"""

from __future__ import annotations

import gettext
import io
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "UnknownLanguageError",
    "_",
    "catalogue_text",
    "current_language",
    "language_name",
    "ngettext",
    "on_language_change",
    "pgettext",
    "reload_catalogues",
    "set_language",
    "use_language",
]

log = logging.getLogger(__name__)

DOMAIN = "showdown"
"""The gettext domain: the catalogues are ``<code>/LC_MESSAGES/showdown.mo``."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
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
_current = DEFAULT_LANGUAGE
_translations: dict[str, gettext.NullTranslations] = {}
_listeners: list[Callable[[str], None]] = []


def _load(code: str) -> gettext.NullTranslations:
    """The catalogue for ``code``, loaded once; English or a missing one passes msgids through."""
    found = _translations.get(code)
    if found is not None:
        return found
    translation = gettext.NullTranslations() if code == DEFAULT_LANGUAGE else _read_catalogue(code)
    _translations[code] = translation
    return translation


def _read_catalogue(code: str) -> gettext.NullTranslations:
    """The compiled catalogue; failing that, the ``.po`` source compiled in memory; failing that,
    English. Each fallback is logged, so a missing build step is seen, and nothing is lost."""
    folder = _locale_dir() / code / "LC_MESSAGES"
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


def _locale_dir() -> Path:
    # Read at load time (not bound at import) so a test can point it at an empty folder.
    return LOCALE_DIR


def _check(code: str) -> str:
    if code not in LANGUAGES:
        raise UnknownLanguageError(code)
    return code


def set_language(code: str) -> None:
    """Make ``code`` the language of every message drawn from now on.

    Raises :class:`UnknownLanguageError` (a :class:`ValueError`) for a code not in
    :data:`LANGUAGES`, leaving the current language as it was. Listeners registered with
    :func:`on_language_change` are told after the change, so screens can redraw.
    """
    global _current  # noqa: PLW0603 - one process-wide choice, read at every call of _()
    with _lock:
        _load(_check(code))
        changed = code != _current
        _current = code
        listeners = list(_listeners)
    if changed:
        for listener in listeners:
            listener(code)


def current_language() -> str:
    """The code of the language messages are drawn in now."""
    return _current


def language_name(code: str) -> str:
    """The language's name in its own language, for the language picker."""
    return LANGUAGES[_check(code)]


def on_language_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(code)`` after every change of language; returns a function that unsubscribes.

    The scoreboard redraws only what changed, so it uses this to mark every screen dirty.
    """
    with _lock:
        _listeners.append(listener)

    def unsubscribe() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return unsubscribe


@contextmanager
def use_language(code: str) -> Iterator[None]:
    """Draw in ``code`` inside the block, then restore the previous language (tests, previews)."""
    previous = current_language()
    set_language(code)
    try:
        yield
    finally:
        set_language(previous)


def reload_catalogues() -> None:
    """Forget the loaded catalogues, so the next message reads the ``.mo`` files again.

    For a process that outlives a ``make catalogues`` (a developer's session) and for tests.
    """
    with _lock:
        _translations.clear()


def _translation() -> gettext.NullTranslations:
    code = _current
    found = _translations.get(code)
    if found is not None:
        return found
    with _lock:
        return _load(code)


def catalogue_text(code: str) -> str:
    """Every translation of ``code``'s catalogue, run together: the characters its screens draw
    besides names and figures (the font chooser checks a font has them all). English: ``""``."""
    with _lock:
        translation = _load(_check(code))
    catalogue: dict[object, str] = getattr(translation, "_catalog", {})
    return "".join(text for key, text in catalogue.items() if key)


def _(message: str) -> str:
    """``message`` (an English msgid) in the current language; the msgid itself if untranslated."""
    return _translation().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the current language (Chinese, Japanese: one)."""
    return _translation().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart by ``context`` (``"colour mark"``)."""
    return _translation().pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 - the gettext convention the extractor looks for
    """Mark ``message`` for extraction without translating it (tables built at import time)."""
    return message
