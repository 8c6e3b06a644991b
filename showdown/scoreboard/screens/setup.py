"""Game set-up: players and their seats, the first dealer, rule preset, scoring mode, target and
language. Everything is a tap: names come from an on-screen keyboard (:mod:`.names`)."""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import LANGUAGES, _, current_language, ngettext
from showdown.scoreboard.port import GameSetup
from showdown.scoreboard.screens.base import Question, Screen, Ui
from showdown.scoreboard.view import TableView
from showdown.scoreboard.vocabulary import (
    default_name,
    player_name,
    preset_name,
    scoring_mode_name,
)
from showdown.scoreboard.widgets import Button, Label, Widget

MIN_PLAYERS = 2
MAX_PLAYERS = 10
TARGET_STEP = 50


class SetupScreen(Screen):
    """Choose everything a new game needs, then start it."""

    name = "setup"
    nav = False
    banner_area = pygame.Rect(0, 0, 404, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.names: list[str] = []
        self.count = 4
        self.selected = 0
        self.dealer = 0
        self.preset = 0
        self.mode = 0
        self.target = 500
        self.saved = 0
        """How many saved games could be taken up again or read (counted when shown)."""

    def entered(self, view: TableView) -> None:
        """Count the saved games once, not at every frame (each is read from the journal). A
        table that has played starts from its last players' names and seats, not "Player 1..4";
        names typed here since stay as typed."""
        self.saved = len(self.ui.port.games())
        if view.started and not any(self.names):
            self.names = [player.name for player in view.players]
            self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, len(self.names)))
            self.selected = min(self.selected, self.count - 1)
            self.dealer = min(self.dealer, self.count - 1)

    def recorded_name(self, seat: int) -> str:
        """The name the game will record for a seat: the one typed, else the default in
        English ("Player 4"), which every screen shows in the language in use."""
        if seat < len(self.names) and self.names[seat]:
            return self.names[seat]
        return default_name(seat)

    def name_of(self, seat: int) -> str:
        """The name typed for a seat, or the translated default."""
        return player_name(self.recorded_name(seat))

    def rename(self, seat: int, name: str) -> None:
        """Set a seat's name (from the keyboard screen)."""
        while len(self.names) <= seat:
            self.names.append("")
        self.names[seat] = name.strip()

    def _change_count(self, delta: int) -> None:
        self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, self.count + delta))
        self.selected = min(self.selected, self.count - 1)
        self.dealer = min(self.dealer, self.count - 1)

    def _move(self, delta: int) -> None:
        other = self.selected + delta
        if not 0 <= other < self.count:
            return
        names = [self.names[i] if i < len(self.names) else "" for i in range(self.count)]
        names[self.selected], names[other] = names[other], names[self.selected]
        self.names = names
        if self.dealer in (self.selected, other):
            self.dealer = other if self.dealer == self.selected else self.selected
        self.selected = other

    def _cycle_language(self) -> None:
        codes = list(LANGUAGES)
        now = current_language()
        index = codes.index(now) if now in codes else 0
        self.ui.set_language(codes[(index + 1) % len(codes)])

    def _toggle_cues(self) -> None:
        self.ui.cues = self.ui.cues.toggled()

    def start(self) -> None:
        """Start the new game; a game still being played is left only after the table says so
        (it stays saved, to be taken up again from the saved games)."""
        view = self.ui.port.view()
        if not view.started or view.finished:
            self._start()
            return
        self.ui.ask(Question(
            text=lambda: _("Leave the game at round {number}? It stays saved: take it up again "
                           "from Saved games.").format(number=len(view.rounds) + 1),
            yes=lambda: _("Start a new game"),
            on_yes=self._start,
            no=lambda: _("Keep playing"),
        ))

    def _start(self) -> None:
        presets = self.ui.port.presets()
        modes = self.ui.port.modes()
        setup = GameSetup(
            players=tuple(self.recorded_name(i) for i in range(self.count)),
            preset=presets[self.preset % len(presets)],
            mode=modes[self.mode % len(modes)],
            target=self.target,
            first_dealer=self.dealer,
        )
        if self.ui.send("start_game", setup):
            self.ui.go("table")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 384, 48), _("New game"), 32, theme.ACCENT,
                  bold=True, align="left"),
            Button("fewer", pygame.Rect(8, 56, 64, 56), "−",
                   lambda: self._change_count(-1), enabled=self.count > MIN_PLAYERS, size=34),
            Label("count", pygame.Rect(76, 56, 136, 56),
                  ngettext("{count} player", "{count} players", self.count).format(
                      count=self.count), 28, bold=True),
            Button("more", pygame.Rect(216, 56, 64, 56), "+",
                   lambda: self._change_count(1), enabled=self.count < MAX_PLAYERS, size=34),
            # TRANSLATORS: Set-up: the list of players who come back, to seat with one tap.
            Button("players", pygame.Rect(288, 56, 104, 56), _("Players"),
                   lambda: self.ui.go("players"), colour=theme.PANEL_LIGHT, size=22),
        ]
        for seat in range(self.count):
            col, row = divmod(seat, 5)
            rect = pygame.Rect(8 + col * 192, 120 + row * 58, 184, 52)
            label = self.name_of(seat)
            if seat == self.dealer:
                label = _("{name} (deals)").format(name=label)
            found.append(Button(f"seat{seat}", rect, label,
                                partial(setattr, self, "selected", seat),
                                selected=seat == self.selected, colour=theme.PANEL_LIGHT,
                                size=22))
        found += [
            Button("up", pygame.Rect(8, 412, 90, 60), _("Earlier"), lambda: self._move(-1),
                   enabled=self.selected > 0, size=20),
            Button("down", pygame.Rect(102, 412, 90, 60), _("Later"), lambda: self._move(1),
                   enabled=self.selected < self.count - 1, size=20),
            Button("rename", pygame.Rect(196, 412, 96, 60), _("Name"),
                   lambda: self.ui.go("names"), size=20),
            Button("dealer", pygame.Rect(296, 412, 96, 60), _("Deals first"),
                   lambda: setattr(self, "dealer", self.selected), size=20),
        ]
        presets = self.ui.port.presets()
        modes = self.ui.port.modes()
        native = LANGUAGES.get(current_language(), current_language())
        rows: list[tuple[str, str, str]] = [
            ("preset", _("Rules"), preset_name(presets[self.preset % len(presets)])),
            ("mode", _("Scoring"), scoring_mode_name(
                modes[self.mode % len(modes)].replace("-", "_"))),
            ("language", _("Language"), native),
            ("cues", _("Shapes and words"), _("On") if self.ui.cues.countdown_words else _("Off")),
        ]
        actions = {
            "preset": lambda: setattr(self, "preset", (self.preset + 1) % len(presets)),
            "mode": lambda: setattr(self, "mode", (self.mode + 1) % len(modes)),
            "language": self._cycle_language,
            "cues": self._toggle_cues,
        }
        for i, (key, caption, value) in enumerate(rows):
            top = 8 + i * 64
            found.append(Label(f"{key}:caption", pygame.Rect(408, top, 192, 56), caption, 22,
                               theme.TEXT_DIM, align="left"))
            found.append(Button(key, pygame.Rect(604, top, 188, 56), value, actions[key],
                                size=24))
        top = 8 + len(rows) * 64
        found += [
            Label("target:caption", pygame.Rect(408, top, 192, 56), _("Target"), 22,
                  theme.TEXT_DIM, align="left"),
            Button("target-", pygame.Rect(604, top, 60, 56), "−",
                   lambda: setattr(self, "target", max(TARGET_STEP, self.target - TARGET_STEP)),
                   size=34),
            Label("target", pygame.Rect(666, top, 64, 56), str(self.target), 30, bold=True),
            Button("target+", pygame.Rect(732, top, 60, 56), "+",
                   lambda: setattr(self, "target", self.target + TARGET_STEP), size=34),
            Button("start", pygame.Rect(408, 400, 384, 72), _("Start game"), self.start,
                   colour=theme.OK, size=32),
        ]
        # A way back to the game being played, or to the finished game's Game over.
        back = view.started
        if back:
            found.append(Button("back", pygame.Rect(408, 336, 188 if self.saved else 384, 56),
                                _("Back to the game") if not view.finished else _("Back"),
                                lambda: self.ui.go("table"), colour=theme.PANEL_LIGHT, size=24))
        if self.saved:
            left = 600 if back else 408
            found.append(Button("saved", pygame.Rect(left, 336, 792 - left, 56),
                                _("Saved games ({count})").format(count=self.saved),
                                lambda: self.ui.go("games"), colour=theme.PANEL_LIGHT, size=24))
        return found
