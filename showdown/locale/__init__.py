"""The translations' catalogues and the code that reads them, for every screen that draws words.

The scoreboard (one language at a time, :mod:`showdown.scoreboard.i18n`) and the phone page (a
language per reader, ``showdown.web``) draw from the same catalogues, ``<code>/LC_MESSAGES/
showdown.mo`` beside this file, compiled from the ``.po`` sources by ``make catalogues``;
neither imports the other, so the reading lives here, below both.
"""
