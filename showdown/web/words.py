"""The page's words in the reader's language: chosen from the browser's Accept-Language, or
picked on the page, and read from the scoreboard's own catalogues (:mod:`showdown.locale`).

Every reader gets their own language, so nothing here is process-wide: a :class:`Words` holds
one language's catalogue and is handed to the templates.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field

from showdown.locale.catalogues import DEFAULT_LANGUAGE, LANGUAGES, translation

__all__ = ["LANGUAGES", "Words", "language_of_tag", "negotiate"]

_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$")

_TRADITIONAL = ("zh-hk", "zh-mo", "zh-tw", "zh-hant")


def language_of_tag(tag: str) -> str | None:
    """The language of ours that a BCP 47 tag asks for (``zh-TW`` -> ``zh_HK``), or None.

    >>> language_of_tag("zh-Hant-TW"), language_of_tag("ja-JP"), language_of_tag("fr")
    ('zh_HK', 'ja', None)
    """
    low = tag.strip().lower().replace("_", "-")
    if not _TAG.match(low):
        return None
    main = low.split("-")[0]
    if main == "zh":
        return "zh_HK" if low.startswith(_TRADITIONAL) else "zh_CN"
    if main in ("id", "in"):  # "in" is Indonesian's withdrawn code, still sent by old phones
        return "id"
    return main if main in ("en", "ja") else None


def negotiate(header: str | None) -> str:
    """The language to answer an ``Accept-Language`` header in: its most wanted one that we
    have (q-values honoured, ``q=0`` refused), English otherwise. Never raises.

    >>> negotiate("fr-CH, fr;q=0.9, ja;q=0.8, en;q=0.7")
    'ja'
    """
    if not header:
        return DEFAULT_LANGUAGE
    wanted: list[tuple[float, int, str]] = []
    for index, item in enumerate(header.split(",")[:32]):
        tag, _sep, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
                if not 0.0 <= quality <= 1.0:  # also NaN
                    quality = 0.0
        code = language_of_tag(tag)
        if code is not None and quality > 0:
            wanted.append((-quality, index, code))
    return min(wanted)[2] if wanted else DEFAULT_LANGUAGE


@dataclass(frozen=True)
class Words:
    """One language's messages for the templates: ``_``, ``ngettext``, ``pgettext``."""

    code: str
    _catalogue: gettext.NullTranslations = field(repr=False, compare=False)

    @classmethod
    def of(cls, code: str) -> Words:
        """The words of ``code`` (one of :data:`LANGUAGES`; anything else is English)."""
        code = code if code in LANGUAGES else DEFAULT_LANGUAGE
        return cls(code, translation(code))

    def _(self, message: str) -> str:
        """``message`` (an English msgid) in this language."""
        return self._catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of a message for ``count``."""
        return self._catalogue.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` told apart by ``context``."""
        return self._catalogue.pgettext(context, message)

    @property
    def html_lang(self) -> str:
        """The page's ``lang`` attribute (BCP 47), so the phone picks fitting fonts."""
        return {"zh_CN": "zh-Hans-CN", "zh_HK": "zh-Hant-HK"}.get(self.code, self.code)
