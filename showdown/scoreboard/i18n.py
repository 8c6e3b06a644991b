"""Every piece of scoreboard text goes through here: gettext catalogues, chosen at call time.

The scoreboard calls :func:`_` (and :func:`ngettext`, :func:`pgettext`) every time it draws, never
at import time, so :func:`set_language` can change the language mid-game: the next frame is drawn in
the new language and nothing in the game changes. Tables of labels defined at import time mark their
strings with :func:`N_` (so the extractor finds them) and translate them with :func:`_` when drawn.

Message ids are English, the source language, which has no catalogue of its own. The other
languages' sources are ``showdown/locale/<code>/LC_MESSAGES/showdown.po``; ``make catalogues``
(which ``make run`` and ``make test`` depend on) compiles them into ``.mo`` files with Babel, and
``make messages`` extracts the messages from the code and updates the ``.po`` files. The
catalogues are read by :mod:`showdown.locale.catalogues` (the phone page reads the same ones),
with its fallbacks for a catalogue not compiled.

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
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from showdown.locale import catalogues
from showdown.locale.catalogues import (
    DEFAULT_LANGUAGE,
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    UnknownLanguageError,
)
from showdown.unit.listeners import Listeners

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

_lock = threading.Lock()
_current = DEFAULT_LANGUAGE
_listeners: Listeners[[str]] = Listeners(lock=_lock)


def _load(code: str) -> gettext.NullTranslations:
    """The catalogue for ``code`` (:func:`showdown.locale.catalogues.translation`)."""
    return catalogues.translation(code)


def _check(code: str) -> str:
    return catalogues.check(code)


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
    if changed:
        _listeners.tell(code)


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
    return _listeners.subscribe(listener)


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
    catalogues.forget()


def _translation() -> gettext.NullTranslations:
    return catalogues.translation(_current)


def catalogue_text(code: str) -> str:
    """Every translation of ``code``'s catalogue, run together: the characters its screens draw
    besides names and figures (the font chooser checks a font has them all). English: ``""``."""
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
