"""The page's HTML: Jinja templates, autoescaped, in the reader's language.

Everything a player typed (a name, a table's name) reaches the page only through a template,
and Jinja escapes it there: a player called ``<script>`` is shown as that name. Each name is also
isolated there (the ``bdi`` filter: ``<bdi>``), so its writing direction stays its own: a name in
Arabic or Hebrew, or one still holding a direction override from before the name rule
(:mod:`showdown.game.names`), never reorders the words and the other names beside it. For that
the templates' ``_``, ``ngettext`` and ``pgettext`` give the translation already escaped
(:class:`~markupsafe.Markup`): its ``format`` then escapes a plain value and keeps an isolated
name's ``<bdi>`` as markup (a table's name from a macro, too, is escaped once, not twice).

The live parts of a page are rendered once per version and language and kept
(:class:`Fragments`), so fifty phones in two languages cost two renders per change, not fifty.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from engine.error_text import ErrorText
from showdown.locale.lists import listed
from showdown.web.words import LANGUAGES, Words

__all__ = ["STATIC_DIR", "TEMPLATES_DIR", "Fragments", "compile_templates", "environment", "render",
           "translate"]

HERE = Path(__file__).resolve().parent
TEMPLATES_DIR = HERE / "templates"
STATIC_DIR = HERE / "static"


def _ms(value: float | None) -> str:
    return "" if value is None else f"{value:.0f}"


def _bdi(name: object) -> Markup:
    """A name isolated from the text around it (``<bdi>``), escaped."""
    return Markup("<bdi>{}</bdi>").format(name)


def _listed(names: Iterable[object], words: Words) -> Markup:
    """Names, each isolated (:func:`_bdi`), listed as ``words``' language lists them ("Ben and
    Dev"): the list's own words are the CLDR's, never a player's, so the whole is markup."""
    return Markup(listed([str(_bdi(name)) for name in names], words.code))


def _clock(stamp: float) -> str:
    return datetime.fromtimestamp(stamp).astimezone().strftime("%H:%M:%S")


def environment() -> Environment:
    """The templates, autoescaped (``.html``), failing loudly on a name they do not know."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(["html"], default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["ms"] = _ms
    env.filters["clock"] = _clock
    env.filters["bdi"] = _bdi
    env.globals["LANGUAGES"] = LANGUAGES
    return env


_ENV = environment()


def compile_templates() -> None:
    """Compile every template now (the page's process, before it serves), so the first update
    a phone waits for is not also the one that compiles its template."""
    for name in _ENV.list_templates(extensions=["html"]):
        _ENV.get_template(name)


def render(template: str, words: Words, **values: Any) -> str:
    """``template`` rendered in ``words``' language with ``values``."""
    return _ENV.get_template(template).render(
        _=lambda message: Markup.escape(words._(message)),
        ngettext=lambda singular, plural, count: Markup.escape(
            words.ngettext(singular, plural, count)),
        pgettext=lambda context, message: Markup.escape(words.pgettext(context, message)),
        listed=lambda names: _listed(names, words),
        words=words, **values)


def translate(text: ErrorText | str, words: Words) -> str:
    """A refusal's words in ``words``' language: the template through the catalogue, nested
    texts the same way, lists joined by commas."""
    if isinstance(text, str):
        return words._(text)

    def value(item: object) -> object:
        if isinstance(item, ErrorText):
            return translate(item, words)
        if isinstance(item, tuple):
            return ", ".join(str(value(part)) for part in item)
        return item

    try:
        return words._(text.template).format(**{k: value(v) for k, v in text.params.items()})
    except (KeyError, IndexError, ValueError):  # a translation naming other placeholders
        return str(text)


class Fragments:
    """Rendered live parts, kept by (part, version, language) until the part moves on."""

    def __init__(self, render_part: Callable[[str, Words], str]) -> None:
        self._render = render_part
        self._lock = threading.Lock()
        self._kept: dict[tuple[str, str], tuple[int, str]] = {}

    def get(self, part: str, version: int, words: Words) -> str:
        """``part`` at ``version`` in ``words``' language."""
        key = (part, words.code)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None and kept[0] == version:
            return kept[1]
        html = self._render(part, words)
        with self._lock:
            self._kept[key] = (version, html)
        return html

    def all(self, versions: Mapping[str, int], words: Words) -> dict[str, str]:
        """Every part named in ``versions``."""
        return {part: self.get(part, v, words) for part, v in versions.items()}
