"""The scoreboard's window: the event loop, navigation, and the only place that touches SDL.

Rendering runs on the main thread. Other threads (the unit's callbacks, the session) never wait
for it: they call :meth:`Scoreboard.notify`, which puts a note on a thread-safe queue and returns
at once. The loop sleeps on that queue between looks at SDL's input (:data:`INPUT_POLL_S`), so an
idle scoreboard uses almost no CPU; it repaints only when an event or a note arrived, and then
only the widgets whose content changed (dirty rectangles).
"""

from __future__ import annotations

import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import pygame

from engine.error_text import ErrorText
from showdown.scoreboard import display, preferences, theme
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.i18n import N_, _, current_language, on_language_change, set_language
from showdown.scoreboard.layout import (
    DESIGN_HEIGHT,
    DESIGN_WIDTH,
    MIN_TARGET,
    Layout,
    place_beside,
)
from showdown.scoreboard.news import tell
from showdown.scoreboard.port import RefusedError, TablePort, TournamentDoor
from showdown.scoreboard.refusals import spoken
from showdown.scoreboard.screens import SCREENS
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Args, Question, Screen, Words
from showdown.scoreboard.screens.names import NamesScreen
from showdown.scoreboard.text import TextRenderer
from showdown.scoreboard.touch import Press, to_press
from showdown.scoreboard.touch_matrix import IDENTITY, TouchMatrix
from showdown.scoreboard.trace import Frame, Trace, words
from showdown.scoreboard.view import Stage, TableView
from showdown.scoreboard.widgets import Button, Canvas, Label, Painter, Widget, hit

log = logging.getLogger(__name__)

IDLE_TIMEOUT_MS = 1000
"""Longest one :meth:`Scoreboard.pump` waits with nothing happening."""

INPUT_POLL_S = 1 / 60
"""How often an idle loop looks at SDL's input queue: once a frame at 60 Hz. SDL's own
blocking wait polls every millisecond on the Pi's KMSDRM and the dummy driver; sleeping on the
note queue between looks keeps an idle scoreboard near zero CPU, and a touch waits at most
one frame. Notes from other threads wake the loop at once."""

NAV: tuple[tuple[str, str], ...] = (
    ("table", N_("Table")),
    ("showdown", N_("Showdown")),
    ("round", N_("Round end")),
    ("history", N_("History")),
    ("chart", N_("Chart")),
    ("stats", N_("Stats")),
    ("setup", N_("Set-up")),
)
"""The navigation bar: screen name and its message id, left to right."""

READING: tuple[tuple[str, str], ...] = (
    ("table", N_("Standings")),
    ("history", N_("History")),
    ("chart", N_("Chart")),
    ("stats", N_("Stats")),
    ("close", N_("Close")),
)
"""The navigation bar of a finished game opened to read: what it was, and the way out."""

NAV_TEXT = theme.READABLE_TEXT
"""Design size of the navigation labels, read from across the table."""
NAV_PADDINGS = (28, 20)
"""Room around a navigation label (design pixels): the second when eight tabs (Event shown)
would not fit with the first, as in Japanese; the button's own inner margin is 16."""

_COUNTDOWN_PHASES = {Stage.COUNTDOWN, Stage.GO, Stage.FALSE_START, Stage.LAUNCHING, Stage.RELEASE}
_SETTLED_PHASES = {Stage.RESULT, Stage.NO_CONTEST, Stage.IDLE}

FOLLOW_BACK_S = 6.0
"""A showdown the screen followed on its own: this long after it is settled, the screen goes
back to where the table was (the result stays told on a banner there)."""

HOLD_S = 30.0
"""After a tap on a tab, the screen does not follow a showdown on its own for this long: the
table chose what to look at."""

BANNER_S = 6.0
"""How long a message banner stays up; one with a button (Redo) stays :data:`ACTION_BANNER_S`."""

ACTION_BANNER_S = 10.0



class Extra(Protocol):
    """Something else in the scoreboard's window, drawn and fed events by the same loop."""

    def handle(self, event: pygame.event.Event) -> bool:
        """Take an event (a key); True if it was this extra's."""
        ...

    def paint(self) -> list[pygame.Rect]:
        """Repaint what changed; the window rectangles to update."""
        ...


def _desktop() -> tuple[int, int] | None:
    """The size of the screen the window opens on, if SDL knows it."""
    sizes = pygame.display.get_desktop_sizes()
    return sizes[0] if sizes else None


def configure_sdl() -> None:
    """SDL hints set before the display opens: no fake touches from the mouse."""
    os.environ.setdefault("SDL_MOUSE_TOUCH_EVENTS", "0")


class Scoreboard:
    """The touchscreen scoreboard drawn from a :class:`TablePort`."""

    def __init__(
        self,
        port: TablePort,
        size: tuple[int, int] = (DESIGN_WIDTH, DESIGN_HEIGHT),
        *,
        cues: CueSettings | None = None,
        fullscreen: bool = False,
        hide_cursor: bool = True,
        beside: int = 0,
        settings: preferences.SettingsStore | None = None,
        screen: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        touch: TouchMatrix = IDENTITY,
    ) -> None:
        """``cues`` are the defaults; ``settings`` (the game's journal), when given, supplies the
        language and cues the table chose last time and keeps every new choice. ``beside``: the
        width of a panel drawn at the scoreboard's right (:attr:`beside_area`); both fit
        ``screen`` (default: the desktop's size), scaled down together when it is too small.
        ``clock`` times the banners (seconds); ``touch`` corrects the touch panel's positions
        (:mod:`showdown.scoreboard.touch`)."""
        configure_sdl()
        display.check_environment()
        pygame.display.init()
        try:
            display.check_driver()
        except display.NoWindowError:
            pygame.display.quit()
            raise
        pygame.font.init()
        self.beside_area = pygame.Rect(size[0], 0, 0, size[1])
        """Where something drawn beside the scoreboard goes (the simulated unit's panel)."""
        if fullscreen:  # the panel's own resolution (KMSDRM on a Pi); the layout scales to it
            self.window = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
            size = self.window.get_size()
        elif beside:
            placed = place_beside(size, beside, screen or _desktop())
            self.window = pygame.display.set_mode(placed.window)
            size, self.beside_area = placed.board.size, placed.beside
        else:
            self.window = pygame.display.set_mode(size)
        self.surface = self.window.subsurface(pygame.Rect((0, 0), size))
        self.on_close: list[Callable[[], object]] = []
        """Clean-up steps run (last added first) when the window closes."""
        self.extras: list[Extra] = []
        """Other things drawn in the window and fed its events (the simulated unit's panel)."""
        pygame.display.set_caption("UNO Showdown")
        if hide_cursor:
            # Only the pointer image goes: touch positions come from finger events, not the cursor.
            pygame.mouse.set_visible(False)
        pygame.event.set_blocked([pygame.MOUSEMOTION, pygame.FINGERMOTION])
        self.port = port
        self.touch = touch
        self._settings = settings
        self._cues = cues or CueSettings()
        if settings is not None:
            self._restore(settings)
        self.layout = Layout(*self.surface.get_size())
        self.text = TextRenderer(self.layout)
        self._nav_cache: dict[tuple[float, tuple[str, ...]], list[int]] = {}
        self.canvas = Canvas(self.surface, self.layout, self.text)
        self.painter = Painter(self.canvas)
        self.inbox: queue.SimpleQueue[object] = queue.SimpleQueue()
        self.clock = clock
        self._message: str | ErrorText | Words = ""
        self._message_until = 0.0
        self._news = False
        """The banner says what was recorded (not what was refused)."""
        self.message_action: tuple[Words, Callable[[], object]] | None = None
        """The banner's button (label, action), such as Redo after an undo."""
        self.question: Question | None = None
        """The choice on screen, if any: everything else waits until it is answered."""
        self.tournament_door: TournamentDoor | None = None
        """How this table joins an event from Set-up (the service sets it when it can)."""
        self.screens: dict[str, Screen] = {name: cls(self) for name, cls in SCREENS.items()}
        self.view: TableView = port.view()
        # A journal whose game is finished opens on Game over, not on its next round.
        self.current = ("gameover" if self.view.finished else "table") if self.view.started \
            else "setup"
        self.screens[self.current].entered(self.view)
        self._widgets: list[Widget] = []
        self._pressed: dict[int, tuple[Widget | None, list[Widget]]] = {}
        """Per finger down: the widget under it and the frame the players saw then."""
        self._revealing: str | None = None
        """The control just tapped: if its words are drawn cut short, they are told whole."""
        self._stop = threading.Event()
        self._last_phase = self.view.showdown.phase
        self._finished = self.view.finished
        self._stale = True
        self._came_from: str | None = None
        """The screen a followed showdown was shown over, to go back to once it is settled."""
        self._back_at: float | None = None
        self._held_until = float("-inf")
        self._language = current_language()
        self.on_close.append(on_language_change(self._language_changed))
        self.frames = 0
        self.trace = Trace.from_environment()
        """Where each changed frame is described for a test driving the window
        (:mod:`showdown.scoreboard.trace`), if the environment asks."""

    # -- the table's choices, kept with the game --------------------------------------------

    def _restore(self, settings: preferences.SettingsStore) -> None:
        try:
            stored = settings.settings()
        except Exception as error:  # a journal that cannot be read: defaults, nothing lost
            log.warning("the scoreboard settings cannot be read (%s): using the defaults", error)
            return
        code = preferences.stored_language(stored)
        if code is not None:
            set_language(code)
        self._cues = preferences.stored_cues(stored, self._cues)

    def _keep(self, name: str, value: str) -> None:
        if self._settings is None:
            return
        try:
            self._settings.set_setting(name, value)
        except Exception as error:  # the choice still applies now; only keeping it failed
            log.warning("cannot keep the scoreboard setting %s=%s: %s", name, value, error)

    def _language_changed(self, code: str) -> None:
        """Any change of language (the set-up screen or elsewhere): keep it, then redraw."""
        self._keep(preferences.LANGUAGE, code)
        self.notify()

    @property
    def cues(self) -> CueSettings:
        """The non-colour cues drawn now; setting them keeps them with the game."""
        return self._cues

    @cues.setter
    def cues(self, value: CueSettings) -> None:
        self._cues = value
        self._keep(preferences.CUES, preferences.to_text(value))
        self.painter.invalidate()
        self._stale = True

    @property
    def message(self) -> str | ErrorText | Words:
        """The banner: words, a refusal translated when drawn, or text made when drawn; it goes
        away by itself after :data:`BANNER_S` (or with the next tap)."""
        return self._message

    @message.setter
    def message(self, value: str | ErrorText | Words) -> None:
        self._message = value
        self.message_action = None
        self._message_until = self.clock() + BANNER_S
        self._news = False
        self._stale = True

    def notice(self, text: Words, action: tuple[Words, Callable[[], object]] | None) -> None:
        """What just happened, in the confirmation colour (never the error colour), with a
        button on it (Undo, Redo) if ``action`` is given; up for :data:`ACTION_BANNER_S`."""
        self.message = text
        self.message_action = action
        self._news = True
        self._message_until = self.clock() + (ACTION_BANNER_S if action else BANNER_S)

    def ask(self, question: Question) -> None:
        """Show a question that must be answered before anything else is tapped."""
        self.question = question
        self.painter.invalidate()
        self._stale = True

    def _answer(self, yes: bool) -> None:
        question = self.question
        self.question = None
        self.painter.invalidate()
        self._stale = True
        if yes and question is not None:
            question.on_yes()

    def _expire(self) -> None:
        if self._message and self.clock() >= self._message_until:
            self._message = ""
            self.message_action = None
            self._stale = True
        if self._back_at is not None and self.clock() >= self._back_at:
            back, self._came_from, self._back_at = self._came_from, None, None
            if back is not None and self.current == "showdown":
                self.go(back)

    def _tab(self, name: str) -> None:
        """A tab tapped: the table chose what to look at; a showdown does not take the screen
        away for :data:`HOLD_S`. Set-up, once a game is on the table, is its settings (the
        language, the cues) with the way to a new game."""
        self._held_until = self.clock() + HOLD_S
        self._came_from = self._back_at = None
        self.go("settings" if name == "setup" and self.view.started else name)

    # -- called from any thread ------------------------------------------------------------

    def notify(self, note: object = None) -> None:
        """Something changed (a unit event, a session event): repaint soon. Never blocks."""
        self.inbox.put(note)

    def stop(self) -> None:
        """Ask the loop to end (from any thread)."""
        self._stop.set()
        self.notify()

    # -- the Ui protocol used by screens ----------------------------------------------------

    def go(self, screen: str) -> None:
        """Show another screen (the live table of a finished game is its game-over screen)."""
        if screen == "table" and self.view.finished:
            screen = "gameover"
        if screen != self.current:
            self.current = screen
            self.screens[screen].entered(self.view)
            self.painter.invalidate()
            # A plugged-in keyboard (and its input method) types only while a name is typed.
            if screen == "names":
                pygame.key.start_text_input()
            else:
                pygame.key.stop_text_input()
        self._stale = True

    def command(self, action: Callable[Args, None], *args: Args.args,
                **kwargs: Args.kwargs) -> bool:
        """Run ``action``, one of :attr:`port`'s commands, with its arguments (mypy checks them
        against the command's own signature); a refusal becomes the message banner, an accepted
        command redraws. True if accepted."""
        try:
            action(*args, **kwargs)
        except RefusedError as exc:
            self.message = exc.text
            return False
        self._message = ""
        self.message_action = None
        self.refresh()
        return True

    def say(self, message: str | ErrorText) -> None:
        """Show a message banner for a while (or until the next tap); an :class:`ErrorText` is
        translated when drawn, so the banner follows a change of language."""
        self.message = message

    def set_language(self, code: str) -> None:
        """Switch language; only the text changes, the game and half-entered values stay."""
        set_language(code)
        self.painter.invalidate()
        self._stale = True

    # -- main thread -------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read the view again, say what was recorded, and follow the game to the screen that
        matters."""
        self.view = self.port.view()
        for fact in self.port.news():
            tell(self, fact)
        phase = self.view.showdown.phase
        if phase != self._last_phase and phase in _COUNTDOWN_PHASES and self._news:
            self._message = ""  # news gives way: the players watch the light now
            self.message_action = None
        if (phase != self._last_phase and phase in _COUNTDOWN_PHASES
                and self.current != "showdown" and self.clock() >= self._held_until):
            if self.view.read_only:  # a showdown on the unit: back from the game being read
                self.port.close_game()
                self.view = self.port.view()
            self._came_from = self.current
            self._back_at = None
            self.go("showdown")
        if phase != self._last_phase and phase in _SETTLED_PHASES and self._came_from:
            self._back_at = self.clock() + FOLLOW_BACK_S
        self._last_phase = phase
        # Only the moment a game ends moves the table to Game over: a later change of language,
        # a refusal or any other note leaves the players where they are.
        if self.view.finished and not self._finished and self.current != "gameover":
            self.go("gameover")
        # Game over is up only while the game is over: an undo of the round that ended it
        # opens the game again, and the table is where it goes on.
        if not self.view.finished and self.current == "gameover":
            self.go("table")
        self._finished = self.view.finished
        self._stale = True

    def widgets(self) -> list[Widget]:
        """Every widget of the current screen, its navigation bar and the message banner."""
        if self.question is not None:
            return self._question(self.question)
        screen = self.screens[self.current]
        found = list(screen.widgets(self.view))
        if screen.nav and self.view.started:
            found.extend(self._nav())
        if self._message:
            found.extend(self._banner(screen.banner_area))
        return found

    def _banner(self, area: pygame.Rect) -> list[Widget]:
        """The message in the screen's own banner area, where no control lies (each screen
        names it; a test checks every screen), with its button if it has one."""
        words = self._message
        if isinstance(words, ErrorText):
            words = spoken(words)
        elif callable(words):
            words = words()
        found: list[Widget] = []
        text_area = area.copy()
        colour = theme.NEWS if self._news else theme.DANGER
        # In a window scaled down to fit a small screen (the simulated unit beside it), the
        # words keep 16 real pixels: the banner grows downwards rather than shrink them.
        floor = math.ceil(theme.MIN_TEXT / self.layout.scale) if self.layout.scale < 1 else 0
        # A tall banner (a column beside the showdown's light) has its button under the words,
        # across its width; a wide one at its right end.
        tall = area.height >= 3 * MIN_TARGET
        button = pygame.Rect(0, 0, 0, 0)
        if self.message_action is not None:
            if tall:
                button = pygame.Rect(area.x, area.bottom - MIN_TARGET, area.width, MIN_TARGET)
                text_area.height -= MIN_TARGET
            else:
                width = 150 if area.width > 500 else 120  # a narrow banner keeps room for words
                button = pygame.Rect(area.right - width, area.y, width,
                                     max(MIN_TARGET, area.height))
                text_area.width -= width
        if floor:
            width = text_area.width
            text_area.height = max(text_area.height, self.text.wrapped_height(
                words, text_area, max(24, floor), bold=True, floor=floor))
            text_area.width = width
            if tall:
                button.top = max(button.top, text_area.bottom)
        if self.message_action is not None:
            label, action = self.message_action
            found.append(Button("banner-action", button, label(), partial(self._banner_action,
                                                                          action),
                                colour=theme.OK, size=24, background=colour))
        found.insert(0, Label("banner", text_area, words, max(24, floor), theme.TEXT, colour,
                              bold=True, wrap=True, floor=floor))
        return found

    def _banner_action(self, action: Callable[[], object]) -> None:
        self._message = ""
        self.message_action = None
        action()

    def _question(self, question: Question) -> list[Widget]:
        return [
            Label("question-panel", pygame.Rect(40, 60, 720, 200), "", 16, theme.TEXT,
                  theme.PANEL),
            Label("question", pygame.Rect(64, 72, 672, 176), question.text(), 30, theme.TEXT,
                  theme.PANEL, bold=True, wrap=True),
            Button("answer-no", pygame.Rect(40, 300, 340, 80), question.no(),
                   partial(self._answer, False), colour=theme.PANEL_LIGHT, size=26),
            Button("answer-yes", pygame.Rect(420, 300, 340, 80), question.yes(),
                   partial(self._answer, True), colour=theme.DANGER, size=26),
        ]

    def _nav_entries(self) -> tuple[tuple[str, str], ...]:
        """The navigation bar's buttons: Event too (before Set-up) while the table is in one."""
        if "event" not in self.screens or self.port.tournament() is None:
            return NAV
        return (*NAV[:-1], ("event", N_("Event")), NAV[-1])

    def _close_game(self) -> None:
        """Leave a finished game opened to read, back to the list it was opened from."""
        self.command(self.port.close_game)
        self.go("games")

    def _nav(self) -> list[Widget]:
        top = CONTENT_BOTTOM + 4
        tabs = READING if self.view.read_only else self._nav_entries()
        labels = tuple(_(msgid) for _name, msgid in tabs)
        found: list[Widget] = []
        left = 0
        # A finished game has no showdown to load and no round to end: those tabs rest, and
        # Table is its Game over.
        resting = {"showdown", "round"} if self.view.finished else set()
        shown = {"gameover": "table", "settings": "setup"}.get(self.current, self.current)
        for (name, _msgid), label, width in zip(tabs, labels, self._nav_widths(labels),
                                                strict=True):
            found.append(Button(
                f"nav:{name}",
                pygame.Rect(left + 2, top, width - 4, 480 - top - 4),
                label,
                action=self._close_game if name == "close" else partial(self._tab, name),
                enabled=name not in resting,
                selected=name == shown,
                colour=theme.PANEL_LIGHT,
                size=NAV_TEXT,
            ))
            left += width
        return found

    def _nav_widths(self, labels: tuple[str, ...]) -> list[int]:
        """Design widths of the navigation buttons: each label's own width at full size plus an
        equal share of what is left, so "Showdown" or "ラウンド終了" is not shrunk to fit a
        seventh of the bar while "Chart" has room to spare (shares in proportion if nothing fits
        even with the smaller padding)."""
        key = (self.text.layout.scale, labels)
        known = self._nav_cache.get(key)
        if known is None:
            font = self.text.font(NAV_TEXT, bold=True)
            widths = [int(font.size(label)[0] / self.text.layout.scale) for label in labels]
            for padding in NAV_PADDINGS:  # less room around each label before any label wraps
                natural = [width + padding for width in widths]
                spare = DESIGN_WIDTH - sum(natural)
                if spare >= 0:
                    break
            else:  # each a share of the bar in proportion: a long word shrinks, never breaks
                scale = DESIGN_WIDTH / sum(natural)
                natural, spare = [int(width * scale) for width in natural], 0
            known = [width + spare // len(labels) for width in natural]
            known[-1] += DESIGN_WIDTH - sum(known)
            self._nav_cache[key] = known
        return known

    def frame(self) -> list[pygame.Rect]:
        """Repaint what changed; the window rectangles updated (empty when nothing did)."""
        self._expire()
        self._stale = False
        if current_language() != self._language:  # changed here or by anyone else
            self._language = current_language()
            self.painter.invalidate()
        self._widgets = self.widgets()
        dirty = self.painter.paint(self._widgets)
        tapped, self._revealing = self._revealing, None
        if tapped is not None and not self._message and self.question is None:
            self._reveal(tapped)  # its words as they are drawn now, after what the tap did
        for extra in self.extras:
            dirty.extend(extra.paint())
        if dirty:
            pygame.display.update(dirty)
            self.frames += 1
            if self.trace is not None:
                self.trace.write(self.described())
        return dirty

    def described(self) -> Frame:
        """The frame drawn last as the trace describes it (:mod:`showdown.scoreboard.trace`)."""
        banner = next((w for w in self._widgets if w.id == "banner"), None)
        return Frame(
            number=self.frames, screen=self.current, language=current_language(),
            widgets=self._widgets, layout=self.layout, size=self.window.get_size(),
            banner=None if banner is None else words(banner), news=self._news,
            question=self.question is not None,
            overflows=list(dict.fromkeys(o.text for o in self.text.overflows)))

    def press(self, press: Press) -> None:
        """A finger or the mouse went down or up: a tap fires on release over the widget it went
        down on. Both are found in the frame the players saw when the finger went down, so a
        banner that expires or a note that redraws the screen meanwhile never loses the tap."""
        if press.down:
            self._pressed[press.pointer] = (hit(self._widgets, press.pos), self._widgets)
            return
        target, seen = self._pressed.pop(press.pointer, (None, []))
        if target is None and hit(seen, press.pos) is None:
            self._reveal(self._cut_short_at(press.pos))
            return
        if target is None or hit(seen, press.pos) is not target or target.action is None:
            return
        if self._message and target.id != "banner-action":
            self._message = ""
            self.message_action = None
        target.action()
        self._revealing = target.id
        self._stale = True

    def _cut_short_at(self, pos: tuple[float, float]) -> str | None:
        """The widget nearest a tap on no control whose words are drawn cut short ("…"), within
        a fingertip's reach (:data:`MIN_TARGET` each way, however small the widget)."""
        near = []
        for found in self._widgets:
            rect = found.rect
            reach = rect.inflate(max(0, MIN_TARGET - rect.width), max(0, MIN_TARGET - rect.height))
            if (reach.collidepoint(pos) and not found.id.startswith("banner")
                    and self.text.whole(found.id) is not None):
                near.append((math.dist(pos, rect.center), found.id))
        return min(near)[1] if near else None

    def _reveal(self, owner: str | None) -> None:
        """Tell the words a widget draws cut short, whole, on the banner (a name too long for
        its place: its whole is a tap away)."""
        whole = None if owner is None else self.text.whole(owner)
        if whole is not None:
            self.notice(lambda: whole, None)

    def tap(self, pos: tuple[float, float]) -> None:
        """A whole tap at a design point (down then up), as a finger would make it."""
        if self._stale:
            self.frame()
        self.press(Press(0, pos, True))
        self.press(Press(0, pos, False))

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event."""
        if event.type == pygame.QUIT:
            self._stop.set()
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self._stop.set()  # a developer's keyboard; the touchscreen never needs it
            return
        if self._typed(event):
            self._stale = True
            return
        if any(extra.handle(event) for extra in self.extras):
            self._stale = True
            return
        press = to_press(event, self.layout, self.window.get_size(), touch=self.touch)
        if press is not None:
            if self._stale:
                self.frame()
            self.press(press)
        elif event.type == pygame.WINDOWEXPOSED:
            self.painter.invalidate()
            self._stale = True

    def _typed(self, event: pygame.event.Event) -> bool:
        """A keyboard typing a name (SDL text input: any script an input method writes); the
        keys go to the name, not to anything else in the window. True if it was taken."""
        screen = self.screens[self.current]
        if not isinstance(screen, NamesScreen) or self.question is not None:
            return False
        if event.type == pygame.TEXTINPUT:
            screen.compose("")
            screen.type(event.text)
            return True
        if event.type == pygame.TEXTEDITING:
            screen.compose(event.text)
            return True
        if event.type == pygame.KEYDOWN:
            return screen.key(event.key) or bool(getattr(event, "unicode", ""))
        return event.type == pygame.KEYUP

    def pump(self, timeout_ms: int = 0) -> bool:
        """Handle input and notes from other threads, waiting up to ``timeout_ms`` for the first,
        and repaint if anything changed. False once stopped."""
        deadline = time.monotonic() + timeout_ms / 1000
        noted = False
        while True:
            events = pygame.event.get()
            for event in events:
                self.handle(event)
            noted = self._drain() or noted
            self._expire()
            remaining = deadline - time.monotonic()
            if events or noted or self._stale or self._stop.is_set() or remaining <= 0:
                break
            try:  # sleep on the note queue: a note from another thread wakes us at once
                self.inbox.get(timeout=min(INPUT_POLL_S, remaining))
            except queue.Empty:
                continue
            noted = True
        if noted:
            self.refresh()
        if self._stale:
            self.frame()
        return not self._stop.is_set()

    def _drain(self) -> bool:
        """Take every waiting note; True if there was one."""
        found = False
        while True:
            try:
                self.inbox.get_nowait()
            except queue.Empty:
                return found
            found = True

    def run(self) -> None:
        """The loop: wait for something, repaint what changed, until stopped or closed."""
        pygame.event.set_allowed(
            [pygame.QUIT, pygame.FINGERDOWN, pygame.FINGERUP, pygame.MOUSEBUTTONDOWN,
             pygame.MOUSEBUTTONUP, pygame.KEYDOWN, pygame.KEYUP, pygame.WINDOWEXPOSED,
             pygame.TEXTINPUT, pygame.TEXTEDITING]
        )
        self.frame()
        while self.pump(IDLE_TIMEOUT_MS):
            pass

    def screenshot(self, path: Path) -> None:
        """Save the window as a PNG (after bringing it up to date)."""
        if self._stale:
            self.frame()
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.window, str(path))

    def close(self) -> None:
        """Run the clean-up steps (unsubscribe from the session and unit), close the window."""
        while self.on_close:
            self.on_close.pop()()
        self.port.close()
        pygame.display.quit()

