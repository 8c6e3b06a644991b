"""Names listed as each language lists them ("Ben and Dev", "Ben、Dev", "Ben和Dev"), so that a
message naming several players ("{names} tie!") reads right in every language the scoreboard
and the phone page speak. The patterns are the Unicode CLDR's, which Babel ships (it reads the
catalogues already): no language's "and" is written by hand here.

>>> listed(["Ben", "Dev"], "en"), listed(["Ben", "Dev", "Eve"], "id")
('Ben and Dev', 'Ben, Dev, dan Eve')
>>> listed(["Ben", "Dev"], "ja"), listed(["Ben", "Dev"], "zh_CN")
('Ben、Dev', 'Ben和Dev')
"""

from __future__ import annotations

from collections.abc import Sequence

from babel.lists import format_list

__all__ = ["listed"]


def listed(names: Sequence[str], language: str) -> str:
    """``names`` joined as ``language`` (a code of :data:`~showdown.locale.catalogues.LANGUAGES`)
    joins a list: one name alone, two with its word for "and", more with its commas too."""
    return format_list(list(names), locale=language)
