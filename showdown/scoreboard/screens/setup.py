"""Game set-up: players and their seats, the first dealer, rule preset, scoring mode, target and
language. Everything is a tap: names come from an on-screen keyboard (:mod:`.names`).

At an event, Set-up is also the way in (Event: Join, :mod:`.join`), and in a format whose host
seats every round (partners-8, Swiss) it takes the round's players, their seats and the event's
scoring from the seating: the table picks only the rules and who deals first, and the game is
keyed for the round, so Start tapped twice sets the round up once."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from engine.scoring import ScoringMode
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import LANGUAGES, _, current_language, ngettext
from showdown.scoreboard.port import GameSetup
from showdown.scoreboard.screens.base import Question, Screen, Ui
from showdown.scoreboard.screens.event import SeatedRound, event_view, seated_round
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
        self.seated: SeatedRound | None = None
        """The event round this table is seated for, read afresh whenever the screen is drawn."""

    def entered(self, view: TableView) -> None:
        """Count the saved games once, not at every frame (each is read from the journal). A
        table that has played starts from its last players' names and seats, not "Player 1..4";
        names typed here since stay as typed."""
        self.saved = len(self.ui.port.games())
        self._follow_event()
        if view.started and not any(self.names):
            self.names = [player.name for player in view.players]
            self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, len(self.names)))
            self.selected = min(self.selected, self.count - 1)
            self.dealer = min(self.dealer, self.count - 1)

    def _follow_event(self) -> None:
        """Seat the event's round when the host seated this table (the seating may change
        while the screen is shown: a round ends at the other table)."""
        view = event_view(self.ui)
        self.seated = None if view is None else seated_round(view)
        if self.seated is not None:
            self.count = len(self.seated.players)
            self.selected = min(self.selected, self.count - 1)
            self.dealer = min(self.dealer, self.count - 1)

    def recorded_name(self, seat: int) -> str:
        """The name the game will record for a seat: the event's seating, the one typed, else
        the default in English ("Player 4"), which every screen shows in the language in use."""
        if self.seated is not None and seat < len(self.seated.players):
            return self.seated.players[seat]
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
        seated = self.seated
        setup = GameSetup(
            players=tuple(self.recorded_name(i) for i in range(self.count)),
            preset=presets[self.preset % len(presets)],
            mode=modes[self.mode % len(modes)],
            target=self.target,
            first_dealer=self.dealer,
            scoring=None if seated is None else seated.scoring,
            key=None if seated is None else seated.key,
        )
        if self.ui.send("start_game", setup):
            self.ui.go("table")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        self._follow_event()
        seated = self.seated
        free = seated is None  # the table chooses its own players
        title = _("New game") if seated is None else _("Round {round} of {rounds}").format(
            round=seated.round, rounds=seated.rounds)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 384, 48), title, 32, theme.ACCENT,
                  bold=True, align="left"),
            Button("fewer", pygame.Rect(8, 56, 64, 56), "−",
                   lambda: self._change_count(-1), enabled=free and self.count > MIN_PLAYERS,
                   size=34),
            Label("count", pygame.Rect(76, 56, 136, 56),
                  ngettext("{count} player", "{count} players", self.count).format(
                      count=self.count), 28, bold=True),
            Button("more", pygame.Rect(216, 56, 64, 56), "+",
                   lambda: self._change_count(1), enabled=free and self.count < MAX_PLAYERS,
                   size=34),
            # TRANSLATORS: Set-up: the list of players who come back, to seat with one tap.
            Button("players", pygame.Rect(288, 56, 104, 56), _("Players"),
                   lambda: self.ui.go("players"), colour=theme.PANEL_LIGHT, size=22,
                   enabled=free),
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
        if seated is not None:
            found.append(Label("seated", pygame.Rect(8, 120 + len(seated.players) * 58, 384,
                                                     52 + (4 - len(seated.players)) * 58),
                               self._seated_words(seated), 20, theme.TEXT_DIM, wrap=True))
        found += [
            Button("up", pygame.Rect(8, 412, 90, 60), _("Earlier"), lambda: self._move(-1),
                   enabled=free and self.selected > 0, size=20),
            Button("down", pygame.Rect(102, 412, 90, 60), _("Later"), lambda: self._move(1),
                   enabled=free and self.selected < self.count - 1, size=20),
            Button("rename", pygame.Rect(196, 412, 96, 60), _("Name"),
                   lambda: self.ui.go("names"), size=20, enabled=free),
            Button("dealer", pygame.Rect(296, 412, 96, 60), _("Deals first"),
                   lambda: setattr(self, "dealer", self.selected), size=20),
        ]
        found += self._choices(seated)
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

    @staticmethod
    def _seated_words(seated: SeatedRound) -> str:
        """Who plays with whom this round, as the host seated them."""
        players = seated.players
        if seated.scoring.mode is ScoringMode.PARTNERS and len(players) == 4:
            return _("{a} & {b} against {c} & {d}").format(
                a=players[0], b=players[2], c=players[1], d=players[3])
        return _("Seated by the event")

    def _event_row(self) -> tuple[str, Callable[[], None]] | None:
        """Set-up's Event row: the event this table is in (its screen), or Join."""
        view = event_view(self.ui)
        if view is not None:
            name = view.info.name if view.info is not None else _("Event")
            return name, lambda: self.ui.go("event")
        if self.ui.event_door is not None:
            return _("Join"), lambda: self.ui.go("join")
        return None

    def _choices(self, seated: SeatedRound | None) -> list[Widget]:
        """The right column: rules, scoring, language, cues, the event, the target, Start."""
        presets = self.ui.port.presets()
        modes = self.ui.port.modes()
        native = LANGUAGES.get(current_language(), current_language())
        mode = modes[self.mode % len(modes)] if seated is None else str(seated.scoring.mode)
        rows: list[tuple[str, str, str]] = [
            ("preset", _("Rules"), preset_name(presets[self.preset % len(presets)])),
            ("mode", _("Scoring"), scoring_mode_name(mode.replace("-", "_"))),
            ("language", _("Language"), native),
            ("cues", _("Shapes and words"), _("On") if self.ui.cues.countdown_words else _("Off")),
        ]
        actions: dict[str, Callable[[], None]] = {
            "preset": lambda: setattr(self, "preset", (self.preset + 1) % len(presets)),
            "mode": lambda: setattr(self, "mode", (self.mode + 1) % len(modes)),
            "language": self._cycle_language,
            "cues": self._toggle_cues,
        }
        event = self._event_row()
        if event is not None:
            rows.append(("event", _("Event"), event[0]))
            actions["event"] = event[1]
        step, height = (64, 56) if event is None else (54, 50)
        found: list[Widget] = []
        for i, (key, caption, value) in enumerate(rows):
            top = 8 + i * step
            found.append(Label(f"{key}:caption", pygame.Rect(408, top, 192, height), caption, 22,
                               theme.TEXT_DIM, align="left"))
            found.append(Button(key, pygame.Rect(604, top, 188, height), value, actions[key],
                                size=24, enabled=key != "mode" or seated is None))
        top = 8 + len(rows) * step
        hands = None if seated is None else seated.scoring.rounds
        if hands is not None:
            found += [
                Label("target:caption", pygame.Rect(408, top, 192, height), _("Hands"), 22,
                      theme.TEXT_DIM, align="left"),
                Label("target", pygame.Rect(604, top, 188, height), str(hands), 30, bold=True),
            ]
        else:
            found += [
                Label("target:caption", pygame.Rect(408, top, 192, height), _("Target"), 22,
                      theme.TEXT_DIM, align="left"),
                Button("target-", pygame.Rect(604, top, 60, height), "−",
                       lambda: setattr(self, "target",
                                       max(TARGET_STEP, self.target - TARGET_STEP)), size=34),
                Label("target", pygame.Rect(666, top, 64, height), str(self.target), 30,
                      bold=True),
                Button("target+", pygame.Rect(732, top, 60, height), "+",
                       lambda: setattr(self, "target", self.target + TARGET_STEP), size=34),
            ]
        found.append(Button("start", pygame.Rect(408, 400, 384, 72), _("Start game"), self.start,
                            colour=theme.OK, size=32))
        return found
