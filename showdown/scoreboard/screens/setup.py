"""Game set-up: players and their seats, the first dealer, rule preset, scoring mode, target and
language. Everything is a tap: names come from an on-screen keyboard (:mod:`.names`).

At an event, Set-up is also the way in (Event: Join, :mod:`.join`), and in a format whose host
seats every round (partners-8, Swiss) it takes the round's players, their seats and the event's
scoring from the seating: the table picks only the rules and who deals first, and the game is
keyed for the round, so Start tapped twice sets the round up once.

The rules and the scoring are chosen from a list (:mod:`.choose`) that names every choice and
says in a line what it changes (:mod:`showdown.scoreboard.vocabulary`); one tap chooses and comes
back. The colour-free cues and, in hero and mean scoring, the total that draws pigs have a line
under them saying what they do.

002's hero and mean scoring draw pigs at their target (500, 100) and end at an agreed number of
pigs or rounds: choosing one shows its target and two more rows for the pigs and the rounds,
one of which is always set (the engine refuses the two modes without one)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pygame

from engine.scoring import ScoringMode
from showdown.game.messages import SetUpGame
from showdown.scoreboard import theme
from showdown.scoreboard.i18n import LANGUAGES, _, current_language, language_name, ngettext
from showdown.scoreboard.port import GameSetup
from showdown.scoreboard.screens.base import Question, Screen, Ui
from showdown.scoreboard.screens.choose import ChoiceRequest, ChooseScreen, Option
from showdown.scoreboard.screens.tournament import SeatedRound, seated_round, tournament_view
from showdown.scoreboard.view import TableView
from showdown.scoreboard.vocabulary import (
    default_name,
    language_called,
    player_name,
    preset_explanation,
    preset_name,
    scoring_mode_explanation,
    scoring_mode_name,
)
from showdown.scoreboard.widgets import Button, Label, Widget

MIN_PLAYERS = 2
MAX_PLAYERS = 10
TARGET_STEP = 50
PIGS = 3
"""The pigs that end a hero or mean game unless the table agrees another number (002 names
none)."""
MAX_PIGS = 20
MAX_ROUNDS = 99
ROW = 72
"""The right column's rows: rules, scoring, language and cues side by side, and target."""
PIG_ROW = 52
"""The same rows, closer, with the pigs and the rounds under them (still 48 px to tap)."""
TOURNAMENT_ROW = 60
"""The same rows with the Event row under them (Join, or the event this table is in)."""
LINE = 26
"""The line under the cues (and under the total that draws pigs) saying what it does."""


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
        self.pigs: int | None = PIGS
        self.rounds: int | None = None
        self.saved = 0
        """How many saved games could be taken up again or read (counted when shown)."""
        self.seated: SeatedRound | None = None
        """The event round this table is seated for, read afresh whenever the screen is drawn."""

    def entered(self, view: TableView) -> None:
        """Count the saved games once, not at every frame (each is read from the journal). A
        table that has played starts from its last players' names and seats, not "Player 1..4";
        names typed here since stay as typed."""
        self.saved = len(self.ui.port.games())
        self._follow_tournament()
        if view.started and not any(self.names):
            self.names = [player.name for player in view.players]
            self.count = max(MIN_PLAYERS, min(MAX_PLAYERS, len(self.names)))
            self.selected = min(self.selected, self.count - 1)
            self.dealer = min(self.dealer, self.count - 1)

    def _follow_tournament(self) -> None:
        """Seat the event's round when the host seated this table (the seating may change
        while the screen is shown: a round ends at the other table)."""
        view = tournament_view(self.ui)
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

    def propose(self, game: SetUpGame) -> None:
        """Start from ``game`` (what the command line asked for: ``--players``, ``--preset``,
        ``--scoring``, ``--pigs``, ``--rounds``) instead of Set-up's own defaults; the table may
        still change any of it before Start. A table that has played still starts from its last
        players (:meth:`entered`)."""
        presets, modes = self.ui.port.presets(), self.ui.port.modes()
        scoring = game.scoring
        self._change_count(len(game.players) - self.count)
        if game.preset in presets:
            self.preset = presets.index(game.preset)
        self.mode = next((i for i, m in enumerate(modes) if m.mode == scoring.mode), self.mode)
        self.target = scoring.target or self.target
        if scoring.uses_pigs:
            self.pigs, self.rounds = scoring.pigs, scoring.rounds

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

    def _saved_games(self) -> None:
        """The saved games, with Back here."""
        self.ui.screens["games"].opened_from(self.name)
        self.ui.go("games")

    def _choose_language(self) -> None:
        """The list of languages, each by its own name with what the language in use calls it;
        one tap changes the scoreboard's language and comes back."""
        self._ask(ChoiceRequest(
            title=lambda: _("Language"),
            options=tuple(Option(code, partial(language_name, code),
                                 partial(language_called, code)) for code in LANGUAGES),
            current=current_language(),
            done=self.ui.set_language,
            back=self.name,
        ))

    def _toggle_cues(self) -> None:
        self.ui.cues = self.ui.cues.toggled()

    def start(self) -> None:
        """Start the new game; a game still being played is left only after the table says so
        (it stays saved, to be taken up again from the saved games). One with nothing entered
        yet is left without a question: it holds nothing to take up, and Saved games does not
        list it."""
        view = self.ui.port.view()
        if not view.started or view.finished or not (
                view.rounds or view.showdowns or view.penalties):
            self._start()
            return
        self.ui.ask(Question(
            text=lambda: _("Leave the game at round {number}? It stays saved: take it up again "
                           "from Saved games.").format(number=len(view.rounds) + 1),
            yes=lambda: _("Start a new game"),
            on_yes=self._start,
            no=lambda: _("Keep playing"),
        ))

    def _choose_rules(self) -> None:
        """The list of rule presets, each with its line; one tap chooses and comes back."""
        presets = self.ui.port.presets()
        self._ask(ChoiceRequest(
            title=lambda: _("Rules"),
            options=tuple(Option(key, partial(preset_name, key), partial(preset_explanation, key))
                          for key in presets),
            current=presets[self.preset % len(presets)],
            done=lambda key: setattr(self, "preset", presets.index(key)),
            back=self.name,
        ))

    def _choose_scoring(self) -> None:
        """The list of scoring modes, each with its line; one tap chooses and comes back."""
        modes = [choice.mode for choice in self.ui.port.modes()]
        self._ask(ChoiceRequest(
            title=lambda: _("Scoring"),
            options=tuple(Option(mode, partial(scoring_mode_name, mode),
                                 partial(scoring_mode_explanation, mode)) for mode in modes),
            current=modes[self.mode % len(modes)],
            done=lambda key: self._set_mode(modes.index(key)),
            back=self.name,
        ))

    def _ask(self, request: ChoiceRequest) -> None:
        chooser = self.ui.screens["choose"]
        assert isinstance(chooser, ChooseScreen)
        chooser.ask_for(request)
        self.ui.go("choose")

    def _set_mode(self, index: int) -> None:
        """A scoring mode chosen; a target left at the old mode's own follows the new one's."""
        modes = self.ui.port.modes()
        old = modes[self.mode % len(modes)]
        self.mode = index % len(modes)
        if self.target == old.target:
            self.target = modes[self.mode].target

    def _step_pigs(self, delta: int) -> None:
        """Pigs that end the game: 1 to :data:`MAX_PIGS`, or none while rounds are agreed."""
        value = (self.pigs or 0) + delta
        self.pigs = min(MAX_PIGS, value) if value > 0 else None

    def _step_rounds(self, delta: int) -> None:
        """Rounds that end the game: 1 to :data:`MAX_ROUNDS`, or none while pigs are agreed."""
        value = (self.rounds or 0) + delta
        self.rounds = min(MAX_ROUNDS, value) if value > 0 else None

    def _start(self) -> None:
        presets = self.ui.port.presets()
        modes = self.ui.port.modes()
        seated = self.seated
        choice = modes[self.mode % len(modes)]
        setup = GameSetup(
            players=tuple(self.recorded_name(i) for i in range(self.count)),
            preset=presets[self.preset % len(presets)],
            mode=choice.mode,
            target=self.target,
            first_dealer=self.dealer,
            pigs=self.pigs if choice.pigs else None,
            rounds=self.rounds if choice.pigs else None,
            scoring=None if seated is None else seated.scoring,
            key=None if seated is None else seated.key,
        )
        if self.ui.command(self.ui.port.start_game, setup):
            self.ui.go("table")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        self._follow_tournament()
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
        choices, below, height = self._choices(seated)
        found += choices
        # A way back to the game being played, or to the finished game's Game over.
        back = view.started
        if back:
            found.append(Button("back", pygame.Rect(408, below, 188 if self.saved else 384,
                                                    height),
                                _("Back to the game") if not view.finished else _("Back"),
                                lambda: self.ui.go("table"), colour=theme.PANEL_LIGHT, size=24))
        if self.saved:
            left = 600 if back else 408
            found.append(Button("saved", pygame.Rect(left, below, 792 - left, height),
                                _("Saved games ({count})").format(count=self.saved),
                                self._saved_games, colour=theme.PANEL_LIGHT, size=24))
        return found

    @staticmethod
    def _seated_words(seated: SeatedRound) -> str:
        """Who plays with whom this round, as the host seated them."""
        players = seated.players
        if seated.scoring.mode is ScoringMode.PARTNERS and len(players) == 4:
            return _("{a} & {b} against {c} & {d}").format(
                a=players[0], b=players[2], c=players[1], d=players[3])
        return _("Seated by the event")

    def _tournament_row(self) -> tuple[str, Callable[[], None]] | None:
        """Set-up's Event row: the event this table is in (its screen), or Join."""
        view = tournament_view(self.ui)
        if view is not None:
            name = view.info.name if view.info is not None else _("Event")
            return name, lambda: self.ui.go("event")
        if self.ui.tournament_door is not None:
            return _("Join"), lambda: self.ui.go("join")
        return None

    def _choices(self, seated: SeatedRound | None) -> tuple[list[Widget], int, int]:
        """The right column: rules and scoring (each opens its list), language and cues side
        by side with a line on the cues, the event (not beside hero and mean scoring's two
        more rows: Event is in the navigation bar, Join after choosing another scoring), the
        target (an event's hands; in hero and mean the total that draws pigs, with its line),
        Start; with where the row of Back and Saved games goes and its height."""
        presets = self.ui.port.presets()
        modes = self.ui.port.modes()
        choice = modes[self.mode % len(modes)]
        pig_rows = choice.pigs and seated is None
        mode = choice.mode if seated is None else str(seated.scoring.mode)
        event = None if pig_rows else self._tournament_row()
        pitch = PIG_ROW if pig_rows else TOURNAMENT_ROW if event is not None else ROW
        height = pitch - 4
        found: list[Widget] = []
        top = 8
        for key, caption, value, action in (
                ("preset", _("Rules"), preset_name(presets[self.preset % len(presets)]),
                 self._choose_rules),
                ("mode", _("Scoring"), scoring_mode_name(mode), self._choose_scoring)):
            found += [
                Label(f"{key}:caption", pygame.Rect(408, top, 192, height), caption, 22,
                      theme.TEXT_DIM, align="left"),
                Button(key, pygame.Rect(604, top, 188, height), value, action, size=24,
                       enabled=key != "mode" or seated is None),
            ]
            top += pitch
        native = language_name(current_language())
        on = self.ui.cues.countdown_words
        found += [
            Button("language", pygame.Rect(408, top, 164, height), native,
                   self._choose_language, size=24),
            Button("cues", pygame.Rect(576, top, 216, height),
                   _("Shapes and words: On") if on else _("Shapes and words: Off"),
                   self._toggle_cues, size=22),
            # TRANSLATORS: Set-up, under "Shapes and words": what the colour-free cues do.
            self._line("cues:line", top + height, _("Colours also told by marks, shapes "
                                                    "and words")),
        ]
        top += pitch + LINE
        if event is not None:
            found += [
                Label("event:caption", pygame.Rect(408, top, 192, height), _("Event"), 22,
                      theme.TEXT_DIM, align="left"),
                Button("event", pygame.Rect(604, top, 188, height), event[0], event[1],
                       size=24),
            ]
            top += pitch
        hands = None if seated is None else seated.scoring.rounds
        if hands is not None:
            found += [
                Label("target:caption", pygame.Rect(408, top, 192, height), _("Hands"), 22,
                      theme.TEXT_DIM, align="left"),
                Label("target", pygame.Rect(604, top, 188, height), str(hands), 30, bold=True),
            ]
        else:
            # TRANSLATORS: Set-up, hero and mean scoring: the total at which pigs are drawn.
            caption = _("Pig at") if pig_rows else _("Target")
            found += self._stepper("target", top, height, caption, value=str(self.target),
                                   actions=(lambda: setattr(self, "target", max(
                                       TARGET_STEP, self.target - TARGET_STEP)),
                                       lambda: setattr(self, "target",
                                                       self.target + TARGET_STEP)),
                                   enabled=(True, True))
        top += pitch
        if pig_rows:
            # TRANSLATORS: Set-up, hero and mean scoring, under "Pig at": what that total does.
            found.append(self._line("target:line", top - 4,
                                    _("Reaching it draws pigs; then every score is 0 again")))
            top += LINE
            pigs, rounds = self.pigs, self.rounds
            # TRANSLATORS: Set-up, hero and mean scoring: a player with this many pigs ends
            # the game.
            found += self._stepper("pigs", top, height, _("Ends at pigs"),
                                   value=_("Off") if pigs is None else str(pigs), actions=(
                                       lambda: self._step_pigs(-1), lambda: self._step_pigs(1)),
                                   enabled=(pigs is not None and (pigs > 1 or rounds is not None),
                                    pigs is None or pigs < MAX_PIGS))
            # TRANSLATORS: Set-up, hero and mean scoring: the game ends after this many rounds.
            found += self._stepper("rounds", top + pitch, height, _("Ends after rounds"),
                                   value=_("Off") if rounds is None else str(rounds), actions=(
                                       lambda: self._step_rounds(-1),
                                       lambda: self._step_rounds(1)),
                                   enabled=(rounds is not None and (rounds > 1 or pigs is not None),
                                    rounds is None or rounds < MAX_ROUNDS))
            top += 2 * pitch
        below, back = (top, height) if pig_rows else (336, 56)
        start_top = below + back + 4
        found.append(Button("start", pygame.Rect(408, start_top, 384, 472 - start_top),
                            _("Start game"), self.start, colour=theme.OK, size=32))
        return found, below, back

    @staticmethod
    def _line(key: str, top: int, text: str) -> Label:
        """A line under a row saying what its choice does (it spans the right column)."""
        return Label(key, pygame.Rect(408, top + 1, 384, LINE - 2), text, 18, theme.TEXT_DIM,
                     align="left")

    @staticmethod
    def _stepper(key: str, top: int, height: int, caption: str, *, value: str,
                 actions: tuple[Callable[[], None], Callable[[], None]],
                 enabled: tuple[bool, bool]) -> list[Widget]:
        """A caption, then − value + (the target, the pigs, the rounds)."""
        return [
            Label(f"{key}:caption", pygame.Rect(408, top, 192, height), caption, 22,
                  theme.TEXT_DIM, align="left"),
            Button(f"{key}-", pygame.Rect(604, top, 60, height), "−", actions[0],
                   enabled=enabled[0], size=34),
            Label(key, pygame.Rect(666, top, 64, height), value, 30, bold=True),
            Button(f"{key}+", pygame.Rect(732, top, 60, height), "+", actions[1],
                   enabled=enabled[1], size=34),
        ]
