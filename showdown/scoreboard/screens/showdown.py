"""The showdown screen, so the table sets up a showdown and sees what the unit decided: who sits
at which paddle with how many cards, the unit's light mirrored, the false-start arrow, and the
result with both reaction times.

Waiting and go never differ by colour alone (issue 9): waiting is a red *octagon* with the word
"Waiting", go is a green *circle* with "GO!". The false-start arrow points at the player and says so
in words. With cues turned off only the coloured circle remains, as on the unit itself.
"""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.accessibility import (
    CountdownPhase,
    CueSettings,
    countdown_word,
    false_start_message,
    release_paddle_message,
)
from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.news import showdown_words
from showdown.scoreboard.screens.base import Question, Screen, Ui
from showdown.scoreboard.view import ShowdownView, Side, Stage, TableView
from showdown.scoreboard.vocabulary import player_name
from showdown.scoreboard.widgets import Button, Canvas, Custom, Label, Widget

MAX_CARDS = 10
LIGHT = pygame.Rect(250, 134, 300, 240)
HINT_X = {False: 560, True: 8}
"""The design x of the hint column, by whether a false start points right (then the story,
which names the offender, takes the right column and the hint the left)."""
_SETTABLE = {Stage.IDLE, Stage.LOADED, Stage.RESULT, Stage.NO_CONTEST}


def octagon(centre: tuple[int, int], size: int) -> list[tuple[int, int]]:
    """The corners of a stop-sign octagon ``size`` pixels across."""
    half = size / 2
    cx, cy = centre
    left, right, top, bottom = cx - half, cx + half, cy - half, cy + half
    cut = size * (1 - 1 / (1 + 2**0.5)) / 2
    points = [
        (left + cut, top), (right - cut, top), (right, top + cut), (right, bottom - cut),
        (right - cut, bottom), (left + cut, bottom), (left, bottom - cut), (left, top + cut),
    ]
    return [(round(x), round(y)) for x, y in points]


def paint_light(canvas: Canvas, box: pygame.Rect, sd: ShowdownView, cues: CueSettings) -> None:
    """The countdown light as the unit shows it, plus its shape and word.

    Waiting is a red octagon with "Waiting", go a green circle with "GO!" (each cue can be
    turned off; with both off, the light is a plain circle, red or green, as on the unit).
    """
    real = canvas.rect(box)
    surface = canvas.surface
    surface.fill(theme.BACKGROUND, real)
    size = min(real.width, real.height) - canvas.layout.px(20)
    centre = real.center
    word = ""
    ink = theme.TEXT
    ring = canvas.layout.px(5)
    if sd.phase is Stage.COUNTDOWN:
        if cues.countdown_shapes:
            pygame.draw.polygon(surface, theme.WAITING_RED, octagon(centre, size))
            pygame.draw.polygon(surface, theme.TEXT, octagon(centre, size), width=ring)
        else:
            pygame.draw.circle(surface, theme.WAITING_RED, centre, size // 2)
        if cues.countdown_words:
            word = countdown_word(CountdownPhase.WAITING)
    elif sd.phase is Stage.GO:
        pygame.draw.circle(surface, theme.GO_GREEN, centre, size // 2)
        if cues.countdown_shapes:
            pygame.draw.circle(surface, theme.TEXT, centre, size // 2, width=ring)
            pygame.draw.circle(surface, theme.TEXT, centre, size // 2 - 3 * ring, width=ring)
        if cues.countdown_words:
            word = countdown_word(CountdownPhase.GO)
            ink = theme.BACKGROUND  # dark on the light green: white would be too faint
    elif sd.phase is Stage.LAUNCHING:
        # The verdict is known: the winner's name under the arrow that shows where cards fly.
        if sd.launch_toward is not None:
            paint_arrow(surface, pygame.Rect(centre[0] - size // 2, real.top + ring,
                                             size, size // 2), sd.launch_toward, theme.ACCENT)
        if sd.winner:
            lower = pygame.Rect(box.x + 10, box.y + box.height // 2 + 8, box.width - 20,
                                box.height // 2 - 16)
            words = _("{name} wins!").format(name=player_name(sd.winner))
            canvas.text.draw(surface, words, lower, 40, theme.ACCENT, bold=True, wrap=True)
    elif sd.phase is Stage.FALSE_START or (
        sd.phase is Stage.RESULT and sd.false_start_side is not None
    ):
        side = sd.false_start_side
        if side is not None:
            paint_arrow(surface, pygame.Rect(centre[0] - size // 2, centre[1] - size // 2,
                                             size, size), side, theme.WAITING_RED)
    else:
        pygame.draw.circle(surface, theme.PANEL, centre, size // 2)
        pygame.draw.circle(surface, theme.PANEL_LIGHT, centre, size // 2,
                           width=canvas.layout.px(3))
        if sd.phase is Stage.RESULT and sd.winner:
            inner = pygame.Rect(0, 0, int(size * 0.7 / canvas.layout.scale),
                                int(size * 0.6 / canvas.layout.scale))
            inner.center = box.center
            words = _("{name} wins!").format(name=player_name(sd.winner))
            canvas.text.draw(surface, words, inner, 40, theme.ACCENT, bold=True, wrap=True)
    if word:
        fit = pygame.Rect(0, 0, int(size * 0.72 / canvas.layout.scale), 80)
        fit.center = box.center
        canvas.text.draw(surface, word, fit, 56, ink, bold=True)


def paint_arrow(
    surface: pygame.Surface, box: pygame.Rect, side: Side, colour: theme.Colour
) -> None:
    """A thick arrow pointing left or right, fitted inside ``box`` (window pixels)."""
    sign = -1 if side is Side.LEFT else 1
    cx, cy = box.center
    half_w, half_h = box.width // 2, box.height // 2
    shaft = max(2, box.height // 6)
    head = min(box.width // 2, box.height)
    tip = cx + sign * half_w
    base = tip - sign * head
    tail = cx - sign * half_w
    points = [
        (tail, cy - shaft), (base, cy - shaft), (base, cy - half_h), (tip, cy),
        (base, cy + half_h), (base, cy + shaft), (tail, cy + shaft),
    ]
    pygame.draw.polygon(surface, colour, points)

def _ms(value: float | None) -> str:
    return "" if value is None else _("{ms} ms").format(ms=f"{value:.0f}")


class ShowdownScreen(Screen):
    """Load a showdown, watch it run on the unit, read the result.

    The players and cards shown are always those of the showdown in progress or just settled
    (whoever loaded the unit): a new showdown replaces the table's pick, and the table's pick
    holds until the next one. Once a showdown is decided its result can only be corrected, after
    a question, never recorded a second time.
    """

    name = "showdown"

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.left = 0
        self.right = 1
        self.cards = 2
        self._hint_x = HINT_X[False]
        """Where the hint column was drawn last: the side the false-start arrow does not
        point at."""
        self._game: int | None = None
        """The game the seats were picked in: another game's seats are not this one's."""
        self._followed: tuple[str | None, str | None, int] | None = None

    @property
    def banner_area(self) -> pygame.Rect:  # type: ignore[override]
        """Over the hint, never over the light: the result in its circle and the false-start
        arrow stay in sight while the banner tells them (the story keeps its side too)."""
        return pygame.Rect(self._hint_x, 176, 232, 160)

    def entered(self, view: TableView) -> None:
        """Start from the showdown the unit has loaded, if any."""
        self._fit(view)
        self._follow(view)

    def _fit(self, view: TableView) -> None:
        """Drop a pick of seats that does not fit the game in play (another game's, a seat
        it has not, one player on both sides): the first two seats instead, so a tap on who
        won records two of this game's players."""
        count = len(view.players)
        if (view.game_id != self._game or not 0 <= self.left < count
                or not 0 <= self.right < count or self.left == self.right):
            self._game = view.game_id
            self.left, self.right = 0, 1

    def _follow(self, view: TableView) -> None:
        """Take the players and cards of a showdown the screen has not shown yet."""
        names = [p.name for p in view.players]
        sd = view.showdown
        seen = (sd.left, sd.right, sd.cards)
        if seen == self._followed or sd.left not in names or sd.right not in names:
            return
        self._followed = seen
        self.left = names.index(sd.left)
        self.right = names.index(sd.right)
        self.cards = max(1, sd.cards)

    def _cycle(self, side: str, view: TableView, step: int) -> None:
        count = len(view.players)
        if count < 2:
            return
        current = self.left if side == "left" else self.right
        other = self.right if side == "left" else self.left
        nxt = (current + step) % count
        if nxt == other:
            nxt = (nxt + step) % count
        setattr(self, side, nxt)

    def _set_cards(self, step: int) -> None:
        self.cards = max(1, min(MAX_CARDS, self.cards + step))

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        self._fit(view)
        self._follow(view)
        sd = view.showdown
        names = [p.name for p in view.players] or ["—", "—"]
        settable = sd.phase in _SETTABLE
        left_name = names[self.left % len(names)]
        right_name = names[self.right % len(names)]
        if not settable and sd.left and sd.right:
            left_name, right_name = sd.left, sd.right
        cards = self.cards if settable else sd.cards
        # The result on screen belongs to the pick shown: the same two players at the same
        # paddles with the same cards. Another pick is the next showdown.
        current = (left_name, right_name) == (sd.left, sd.right) and cards == sd.cards
        decided = current and sd.phase is Stage.RESULT and bool(sd.winner)
        # Names as shown: a default name ("Player 4") in the language in use.
        left_shown, right_shown = player_name(left_name), player_name(right_name)
        found: list[Widget] = []
        for side, x, who in (("left", 8, left_shown), ("right", 508, right_shown)):
            found += [
                Button(f"{side}-prev", pygame.Rect(x, 4, 52, 60), "<",
                       partial(self._cycle, side, view, -1), enabled=settable, size=30,
                       colour=theme.PANEL_LIGHT),
                Label(f"{side}-name", pygame.Rect(x + 56, 4, 172, 60), who, 28, bold=True),
                Button(f"{side}-next", pygame.Rect(x + 232, 4, 52, 60), ">",
                       partial(self._cycle, side, view, 1), enabled=settable, size=30,
                       colour=theme.PANEL_LIGHT),
            ]
        found += [
            Button("cards-", pygame.Rect(302, 4, 52, 60), "−", partial(self._set_cards, -1),
                   enabled=settable, size=30),
            Label("cards", pygame.Rect(356, 4, 88, 60),
                  ngettext("{count} card", "{count} cards", cards).format(count=cards), 22,
                  bold=True),
            Button("cards+", pygame.Rect(446, 4, 52, 60), "+", partial(self._set_cards, 1),
                   enabled=settable, size=30),
            Label("left-seat", pygame.Rect(8, 68, 232, 40), _("Left paddle"), 22,
                  theme.TEXT_DIM),
            Label("right-seat", pygame.Rect(560, 68, 232, 40), _("Right paddle"), 22,
                  theme.TEXT_DIM),
        ]
        if not view.has_unit:  # no unit at this table: the result is tapped in, nothing waits
            found = [w for w in found if w.id not in ("left-seat", "right-seat")]  # no paddles
            return found + self._by_hand_only(view, left_shown, right_shown)
        found += [
            Button("load", pygame.Rect(250, 72, 300, 56), _("Load the unit"), self._load,
                   enabled=settable, colour=theme.OK, size=26),
            Custom("light", LIGHT, (sd.phase, sd.false_start_side, sd.launch_toward, sd.winner,
                                    self.ui.cues, countdown_word(CountdownPhase.GO)),
                   lambda c, r: paint_light(c, r, sd, self.ui.cues)),
            Label("status", pygame.Rect(250, 376, 300, 34), self._status(sd), 24, theme.TEXT,
                  bold=True),
        ]
        for side, x, ms in (("left", 8, sd.left_ms), ("right", 560, sd.right_ms)):
            found.append(Label(f"{side}-ms", pygame.Rect(x, 112, 232, 56),
                               _ms(ms) if current or not settable else "", 34,
                               theme.ACCENT, bold=True))
        # The words sit on the side the arrow points at, the hint (and a banner) on the other.
        story_x = HINT_X[sd.false_start_side is not Side.RIGHT]
        hint_x = self._hint_x = HINT_X[sd.false_start_side is Side.RIGHT]
        found.append(Label("story", pygame.Rect(story_x, 176, 232, 160),
                           self._story(sd) if current or not settable else "", 24,
                           theme.TEXT, wrap=True))
        if decided:
            found.append(Button("correct", pygame.Rect(8, 348, 232, 60),
                                _("Correct the result"), partial(self._ask_correction, sd),
                                size=22, colour=theme.PANEL_LIGHT))
        else:
            found.append(Button("by-hand-left", pygame.Rect(8, 348, 232, 60),
                                _("{name} won").format(name=left_shown),
                                lambda: self._by_hand(True), enabled=settable, size=22,
                                colour=theme.PANEL_LIGHT))
            found.append(Button("by-hand-right", pygame.Rect(560, 348, 232, 60),
                                _("{name} won").format(name=right_shown),
                                lambda: self._by_hand(False), enabled=settable, size=22,
                                colour=theme.PANEL_LIGHT))
        found.append(Label("hint", pygame.Rect(hint_x, 176, 232, 160),
                           self._hint(sd) if current or not settable else
                           _("Choose the players and cards, then load the unit"), 22,
                           theme.TEXT_DIM, wrap=True))
        return found

    def _by_hand_only(self, view: TableView, left_shown: str, right_shown: str
                      ) -> list[Widget]:
        """Without a unit: who played, how many cards, and a tap on who won."""
        told = showdown_words(view.showdowns[-1]) if view.showdowns else ""
        return [
            Label("hint", pygame.Rect(250, 140, 300, 120),
                  _("No unit at this table: play the showdown, then tap who won"), 24,
                  theme.TEXT, wrap=True),
            Label("story", pygame.Rect(250, 268, 300, 72), told, 20, theme.TEXT_DIM,
                  wrap=True),
            Button("by-hand-left", pygame.Rect(8, 348, 380, 60),
                   _("{name} won").format(name=left_shown), lambda: self._by_hand(True),
                   size=24, colour=theme.OK),
            Button("by-hand-right", pygame.Rect(412, 348, 380, 60),
                   _("{name} won").format(name=right_shown), lambda: self._by_hand(False),
                   size=24, colour=theme.OK),
        ]

    def _ask_correction(self, sd: ShowdownView) -> None:
        """Overrule the recorded result, after the table confirms who really won."""
        winner, loser = sd.loser or "?", sd.winner or "?"
        names = [p.name for p in self.ui.port.view().players]
        if winner not in names or loser not in names:
            return
        self.ui.ask(Question(
            text=lambda: ngettext(
                "{winner} won this showdown, not {loser}? Then {loser} takes {count} card.",
                "{winner} won this showdown, not {loser}? Then {loser} takes the {count} cards.",
                sd.cards).format(winner=player_name(winner), loser=player_name(loser),
                                 count=sd.cards),
            yes=lambda: _("Yes, {name} won").format(name=player_name(winner)),
            on_yes=lambda: self.ui.command(self.ui.port.correct_showdown, names.index(winner),
                                           names.index(loser)),
            no=lambda: _("Keep the result"),
        ))

    def _status(self, sd: ShowdownView) -> str:
        if sd.phase is Stage.RESULT and sd.counts is not None:
            return _("Counted: {left} left, {right} right").format(left=sd.counts[0],
                                                                  right=sd.counts[1])
        if sd.phase is Stage.COUNTDOWN and sd.beats:
            return _("Beat {beat} of {beats}").format(beat=sd.beat, beats=sd.beats)
        if sd.phase is Stage.NO_CONTEST and sd.reason == "void":  # the unit lost contact
            return _("Replay the showdown")
        return {
            Stage.IDLE: "",
            Stage.LOADED: _("Loaded"),
            Stage.RELEASE: release_paddle_message(),
            Stage.COUNTDOWN: countdown_word(CountdownPhase.WAITING),
            Stage.GO: countdown_word(CountdownPhase.GO),
            Stage.FALSE_START: _("False start"),
            Stage.LAUNCHING: _("Counting the cards"),
            Stage.RESULT: _("Settled"),
            Stage.NO_CONTEST: _("No contest: replay"),
        }[sd.phase]

    def _story(self, sd: ShowdownView) -> str:
        """The words that say what the light and arrow say (never colour alone)."""
        if sd.phase in (Stage.FALSE_START, Stage.RESULT) and sd.false_start_side is not None:
            who = sd.left if sd.false_start_side is Side.LEFT else sd.right
            if not self.ui.cues.false_start_words:
                return ""
            # TRANSLATORS: {false_start} is "False start: Ana ←"; the offender takes the cards.
            return ngettext("{false_start}; {name} takes {count} card",
                            "{false_start}; {name} takes {count} cards", sd.cards).format(
                false_start=false_start_message(player_name(who or "?"), sd.false_start_side),
                name=player_name(who or "?"), count=sd.cards)
        if sd.phase is Stage.LAUNCHING and sd.loser:
            if sd.winner:
                return _("{winner} wins; cards fly at {loser}").format(
                    winner=player_name(sd.winner), loser=player_name(sd.loser))
            return _("Cards fly at {name}").format(name=player_name(sd.loser))
        if sd.phase is Stage.RESULT and sd.winner:
            return ngettext("{winner} wins; {loser} takes {count} card",
                            "{winner} wins; {loser} takes {count} cards", sd.cards).format(
                winner=player_name(sd.winner), loser=player_name(sd.loser or "?"),
                count=sd.cards)
        if sd.phase is Stage.RELEASE:
            return release_paddle_message()
        if sd.phase is Stage.GO:
            return _("Slam your paddle!")
        if sd.phase is Stage.COUNTDOWN:
            return _("Wait for green")
        return ""

    def _hint(self, sd: ShowdownView) -> str:
        if sd.phase is Stage.LOADED:
            return _("Press the timer button on the unit")
        if sd.phase in (Stage.IDLE, Stage.RESULT, Stage.NO_CONTEST):
            return _("Choose the players and cards, then load the unit")
        return ""

    def _load(self) -> None:
        self.ui.command(self.ui.port.load_showdown, self.left, self.right, self.cards)

    def _by_hand(self, left_won: bool) -> None:
        winner, loser = (self.left, self.right) if left_won else (self.right, self.left)
        if self.ui.command(self.ui.port.record_showdown_by_hand, winner, loser, self.cards):
            self.ui.go("table")
