"""On-screen keyboard for a player's name: no physical keyboard is ever needed, and one plugged
in works too.

Three pages of big keys: letters with a row of digits, symbols, and accented Latin letters. A
name is kept as typed ("DJ McKay", "Friday Night UNO"): the keys have a Shift, which capitalises
the next letter, and tapped twice in a row locks the capitals (Caps lock) until tapped again; the
keys show the case they type. Like a phone's name field, the keys start each word with a
capital by themselves (Shift is on at the start of an empty name and after a space: tap it to
type a small letter instead); they never change a letter already typed. The length limit is
shown beside the name and the keys stop taking characters at it. A USB keyboard types through
SDL's text input, exactly as typed, so any script its input method writes (Chinese, Japanese,
...) arrives as the characters themselves; Backspace deletes, Enter is Done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import partial

import pygame

from showdown.game.names import NAME_MAX, allowed_in_name, name_problem
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import Screen, Ui, Words
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget

PAGES: dict[str, tuple[str, ...]] = {
    "letters": ("1234567890", "QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"),
    "symbols": ("-_.'&!?#@+", "()/:;*~=%$", "<>[]{}^|\"\\", ",`°§¿¡·"),
    "accents": ("ÀÁÂÄÃÅÆÇÈÉ", "ÊËÌÍÎÏÑÒÓÔ", "ÖÕØŒÙÚÛÜÝŸ", "ĆČĐŁŃŚŠŽß"),
}
"""The keyboard's pages, four rows each."""

MAX_NAME = min(12, NAME_MAX)
"""Longest name typed here, in characters: it still fits a column of the history at ten players
(the rule every door applies takes up to :data:`~showdown.game.names.NAME_MAX`)."""

DOUBLE_TAP_S = 0.5
"""Two taps of Shift at most this far apart (seconds), with no key between, lock the capitals."""


class Shift(Enum):
    """What the next letter typed on the keys will be."""

    OFF = "off"
    """Small letters."""
    ONCE = "once"
    """A capital, then small letters again."""
    LOCK = "lock"
    """Capitals until Shift is tapped again (Caps lock)."""


@dataclass(frozen=True)
class NameRequest:
    """A name the keyboard is asked for: what the title says, the name to start from, the
    longest it may be, what to do with it on Done, and where Done and Cancel go back to."""

    title: Words
    initial: str
    limit: int
    done: Callable[[str], object]
    back: str
    words: bool = True
    """Whether the keys start each word with a capital (a name; not a code or an address)."""


def _cased(char: str, shift: Shift) -> str:
    """A key's letter in the case Shift gives it (letters whose other case is two letters, such
    as ß, stay as they are)."""
    cased = char.lower() if shift is Shift.OFF else char.upper()
    return cased if len(cased) == 1 else char


class NamesScreen(Screen):
    """Type the selected seat's name with big keys (or a keyboard)."""

    name = "names"
    nav = False
    banner_area = pygame.Rect(0, 0, 388, 60)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.buffer = ""
        self.page = "letters"
        self.composing = ""
        """Text an input method is still composing (shown, not yet typed)."""
        self.request: NameRequest | None = None
        """What the name is for; a seat of the set-up screen unless :meth:`ask_for` said."""
        self._asked: NameRequest | None = None
        self.shift = Shift.OFF
        """The case of the next letter typed on the keys."""
        self._shift_at: float | None = None
        """When Shift was last tapped, if no key was tapped since (a second tap locks)."""

    def ask_for(self, title: Words, initial: str, limit: int, done: Callable[[str], object],
                back: str, *, words: bool = True) -> None:
        """Type a name for something else than a seat (a game): shown at the next entry.
        ``words``: the keys start each word with a capital (off for a code or an address)."""
        self._asked = NameRequest(title, initial, limit, done, back, words)

    def _seat(self) -> NameRequest:
        """The selected seat of the set-up screen, from its current typed name."""
        setup = self._setup()
        names = setup.names
        seat = setup.selected
        return NameRequest(
            title=lambda: _("Name for seat {number}").format(number=seat + 1),
            initial=names[seat] if seat < len(names) else "", limit=MAX_NAME,
            done=partial(setup.rename, seat), back="setup")

    def entered(self, view: TableView) -> None:
        """Start from the name it is asked for (the seat's current typed name by default)."""
        self.request = self._asked or self._seat()
        self._asked = None
        self.buffer = self.request.initial
        self.page = "letters"
        self.composing = ""
        self.shift = Shift.OFF
        self._follow_words()

    @property
    def limit(self) -> int:
        """The longest name this one may be."""
        return MAX_NAME if self.request is None else self.request.limit

    def _setup(self) -> SetupScreen:
        screen = self.ui.screens["setup"]
        assert isinstance(screen, SetupScreen)
        return screen

    def type(self, text: str) -> None:
        """Characters typed (a keyboard's text input, a key's letter in the case it shows): as
        many as the limit takes, exactly as typed."""
        for char in text:
            if len(self.buffer) >= self.limit:
                break
            if allowed_in_name(char):
                self.buffer += char
        self._follow_words()

    def _key(self, char: str) -> None:
        """One of the keys: its letter in the case Shift gives it; a one-time Shift is used up."""
        self._shift_at = None
        self.type(_cased(char, self.shift) if char.isalpha() else char)
        if self.shift is Shift.ONCE and char.isalpha():
            self.shift = Shift.OFF

    def _tap_shift(self) -> None:
        """Shift: on for the next letter, off again; tapped twice in a row, Caps lock."""
        now = self.ui.clock()
        again = self._shift_at is not None and now - self._shift_at <= DOUBLE_TAP_S
        if self.shift is Shift.LOCK:
            self.shift = Shift.OFF
        elif again:
            self.shift = Shift.LOCK
        else:
            self.shift = Shift.OFF if self.shift is Shift.ONCE else Shift.ONCE
        self._shift_at = None if self.shift is Shift.LOCK or again else now

    def _follow_words(self) -> None:
        """At the start of a word (an empty name, after a space) Shift comes on by itself, as
        on a phone, for a name; elsewhere a one-time Shift the keys turned on goes off."""
        if self.shift is Shift.LOCK:
            return
        request = self.request
        words = request is None or request.words
        start = not self.buffer or self.buffer.endswith(" ")
        self.shift = Shift.ONCE if words and start else Shift.OFF

    def compose(self, text: str) -> None:
        """An input method's unfinished text (SDL's TEXTEDITING)."""
        self.composing = text

    def key(self, key: int) -> bool:
        """A keyboard's Backspace and Enter; True if the key was one of them."""
        if key == pygame.K_BACKSPACE:
            self._delete()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._done()
        else:
            return False
        return True

    def _delete(self) -> None:
        self.buffer = self.buffer[:-1]
        self._follow_words()

    def _clear(self) -> None:
        """The whole name at once (a seat taken by someone else)."""
        self.buffer = ""
        self._follow_words()

    def _takes(self) -> bool:
        """Whether Done takes the typed name: nothing typed (a seat's default name), or a name
        the rule every door applies takes (:mod:`showdown.game.names`)."""
        name = self.buffer.strip()
        return not name or name_problem(name, self.limit) is None

    def _done(self) -> None:
        if not self._takes():
            return
        request = self.request or self._seat()
        request.done(self.buffer.strip())
        self.ui.go(request.back)

    def _cancel(self) -> None:
        self.ui.go((self.request or self._seat()).back)

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        request = self.request or self._seat()
        setup = self._setup()
        placeholder = setup.name_of(setup.selected) if request.back == "setup" else ""
        shown = self.buffer + self.composing or placeholder
        full = len(self.buffer) >= self.limit
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 380, 56), request.title(), 26, theme.TEXT_DIM,
                  align="left"),
            Label("buffer", pygame.Rect(392, 4, 300, 56), shown, 36,
                  theme.TEXT if self.buffer else theme.TEXT_DIM, theme.PANEL, bold=True),
            Label("limit", pygame.Rect(696, 4, 96, 56),
                  _("{used}/{limit}").format(used=len(self.buffer), limit=self.limit), 24,
                  theme.ACCENT if full else theme.TEXT_DIM, bold=full),
        ]
        for r, row in enumerate(PAGES[self.page]):
            offset = 8 + (10 - len(row)) * 39
            for c, char in enumerate(row):
                rect = pygame.Rect(offset + c * 78, 66 + r * 64, 72, 58)
                face = _cased(char, self.shift) if char.isalpha() else char
                found.append(Button(f"key:{char}", rect, face, partial(self._key, char),
                                    enabled=not full, colour=theme.PANEL_LIGHT, size=30))
        pages = [("letters", "ABC"), ("symbols", "#+="), ("accents", "ÀÉÑ")]
        for i, (page, face) in enumerate(pages):
            found.append(Button(f"page:{page}", pygame.Rect(8 + i * 104, 326, 98, 66), face,
                                partial(setattr, self, "page", page),
                                selected=page == self.page, colour=theme.BUTTON, size=24))
        # TRANSLATORS: the name keyboard's Shift key: the next letter typed is a capital.
        shift = _("Shift")
        if self.shift is Shift.LOCK:
            # TRANSLATORS: the name keyboard's Shift key tapped twice: every letter a capital.
            shift = _("Caps lock")
        found += [
            Button("shift", pygame.Rect(320, 326, 128, 66), shift, self._tap_shift,
                   enabled=self.page != "symbols", selected=self.shift is not Shift.OFF,
                   colour=theme.BUTTON, size=24),
            Button("space", pygame.Rect(456, 326, 176, 66), _("Space"), lambda: self._key(" "),
                   enabled=not full and bool(self.buffer), colour=theme.PANEL_LIGHT, size=24),
            Button("delete", pygame.Rect(640, 326, 152, 66), _("Delete"), self._delete,
                   colour=theme.DANGER, size=24),
            Button("cancel", pygame.Rect(8, 400, 300, 72), _("Cancel"), self._cancel,
                   colour=theme.PANEL_LIGHT, size=26),
            Button("clear", pygame.Rect(316, 400, 168, 72), _("Clear"), self._clear,
                   enabled=bool(self.buffer), colour=theme.DANGER, size=24),
            Button("done", pygame.Rect(492, 400, 300, 72), _("Done"), self._done,
                   enabled=self._takes(), colour=theme.OK, size=28),
        ]
        return found
