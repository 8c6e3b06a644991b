"""Taps at random on whatever the screen shows, across every screen, with the table's promises
checked after each one.

Hypothesis plays a scoreboard over a real journal (SDL's dummy driver, real pygame finger events
through the scoreboard's own loop, the scoreboard put together as ``showdown scoreboard`` puts
it): it taps any control the last frame drew, types a name on a keyboard, and lets the banners'
clock run on. After every step:

- every name a game's screen shows is a player of the game in play;
- no refusal shown names a seat number without the name of the player in that seat;
- the game-over screen is up only while the game is over, and the table of a finished game is
  its game over;
- no text leaves its widget;
- the journal, folded by the session's own fold and read as another process would, holds what
  the screen shows (:mod:`tests.showdown.scoreboard.agreement`).

The examples are the same at every run (``derandomize``), so a failure here is one anyone can
run again; ``make soak`` runs many more, and longer ones, at random.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pygame
import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from engine.error_text import ErrorText
from showdown.app.scoreboard_main import build_scoreboard
from showdown.game.journal import Journal
from showdown.game.session import GameState, Session
from showdown.scoreboard.i18n import set_language, use_language
from showdown.scoreboard.screens.round_end import RoundEndScreen
from showdown.scoreboard.screens.setup import MAX_PLAYERS, SetupScreen
from showdown.scoreboard.screens.stats import StatsScreen
from showdown.scoreboard.trace import Frame, tappable, words
from showdown.scoreboard.vocabulary import default_name, player_name
from tests.showdown.scoreboard.agreement import journal_state, problems
from tests.showdown.scoreboard.helpers import touch

NAMES = ("Ana", "Budi", "Chen", "Dewi", "Maximilianax", "王小明王小明王小明王小明", "Zoë")
"""Names a keyboard types (a USB keyboard's text input: any script)."""

GAME_SCREENS = frozenset({"table", "showdown", "round", "history", "chart", "stats", "gameover",
                          "penalty"})
"""The screens that show the game in play (not Set-up, Saved games, the players kept...)."""

ONWARDS = re.compile(r"start|answer-yes|went-out|save|key:next|player\d+|rematch|"
                     r"done|open|by-hand-(left|right)|nav:round|new-game|undo|edit|row\d+|"
                     r"banner-action|game\d+")
"""The controls :meth:`RandomTaps.tap_on` taps: those that move an evening on."""

SEAT = re.compile(r"\bseat (\d+)")


def whole(name: str) -> re.Pattern[str]:
    """``name`` as a whole name in a text: not inside a longer word ("Player 1" is not in
    "Player 10")."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


class RandomTaps(RuleBasedStateMachine):
    """A scoreboard and its journal, tapped at random (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.db = Path(self.folder.name) / "table.db"
        self.journal = Journal.open(self.db, writable=True)
        self.now = 1000.0
        set_language("en")
        self.board = build_scoreboard(Session(self.journal), clock=lambda: self.now)
        self.board.frame()
        self.names: set[str] = {default_name(seat) for seat in range(MAX_PLAYERS)} | set(NAMES)
        """Every name the table has had: the names shown must be the game's among them."""
        self.steps = 0
        """Steps taken: the game read from the journal is read again after each."""
        self._known: tuple[int, GameState | None] | None = None

    def teardown(self) -> None:
        from hypothesis import event
        state = self.game() if self.board.view.started else None
        event(f"rounds {0 if state is None else len(state.rounds)}")
        event(f"games {len(self.journal.games())}")
        event(f"over {state is not None and state.is_over}")

        self.board.close()
        self.journal.close()
        self.folder.cleanup()
        set_language("en")

    # -- what people do ----------------------------------------------------------------------

    @initialize(players=st.integers(min_value=2, max_value=MAX_PLAYERS),
                points=st.sampled_from((50, 100, 500)), start=st.booleans())
    def set_up(self, players: int, points: int, start: bool) -> None:
        """Most evenings start with a game: the players counted, the target set and Start,
        all by taps (or nothing yet, the set-up left to the random taps)."""
        self.steps += 1
        if not start:
            return
        setup = self.board.screens["setup"]
        assert isinstance(setup, SetupScreen)
        while setup.count != players:
            touch(self.board, "fewer" if setup.count > players else "more")
        while setup.target != points:  # the target
            touch(self.board, "target-" if setup.target > points else "target+")
        touch(self.board, "start")

    @rule(data=st.data())
    def tap(self, data: st.DataObject) -> None:
        """Tap any control the last frame drew that does something."""
        self.steps += 1
        targets = [w.id for w in self.board.described().widgets if tappable(w)]
        touch(self.board, data.draw(st.sampled_from(targets), label="tap"))

    @rule(data=st.data())
    def tap_on(self, data: st.DataObject) -> None:
        """Tap one of the controls that move an evening on (start, went out, a digit, save,
        rematch, yes...), so that a few dozen taps play rounds and end games."""
        self.steps += 1
        targets = [w.id for w in self.board.described().widgets if tappable(w)
                   and ONWARDS.fullmatch(w.id)]
        if targets:
            touch(self.board, data.draw(st.sampled_from(targets), label="tap"))

    @precondition(lambda self: any(w.id == "key:clear" for w in self.board.described().widgets))
    @rule(points=st.integers(min_value=0, max_value=120))
    def type_points(self, points: int) -> None:
        """On the round end's keypad, the points a player holds: Clear, then the digits."""
        self.steps += 1
        for key in ("clear", *str(points)):
            touch(self.board, f"key:{key}")

    @precondition(lambda self: self.board.current == "round" or any(
        w.id == "nav:round" and tappable(w) for w in self.board.described().widgets))
    @rule(went_out=st.integers(min_value=0, max_value=MAX_PLAYERS - 1),
          held=st.lists(st.integers(min_value=10, max_value=60), min_size=MAX_PLAYERS,
                        max_size=MAX_PLAYERS))
    def play_round(self, went_out: int, held: list[int]) -> None:
        """A whole round's end by taps: Round end, who went out, each other player's points on
        the keypad (Next on to the next), Save."""
        self.steps += 1
        if self.board.current != "round":
            touch(self.board, "nav:round")
        if not any(w.id == "key:clear" for w in self.board.described().widgets):
            touch(self.board, "keypad-mode")  # the cards were being tapped
        seats = len(self.board.view.players)
        touch(self.board, f"player{went_out % seats}")
        touch(self.board, "went-out")
        for seat in range(seats - 1):
            self.type_points(held[seat])
            touch(self.board, "key:next")
        touch(self.board, "save")

    @precondition(lambda self: self.board.current == "names")
    @rule(name=st.sampled_from(NAMES), enter=st.booleans())
    def type_name(self, name: str, enter: bool) -> None:
        """A keyboard types a whole name over the one there, and maybe presses Enter."""
        self.steps += 1
        keys = [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_BACKSPACE, mod=0, unicode="\b",
                                   scancode=0)] * 24
        keys.append(pygame.event.Event(pygame.TEXTINPUT, text=name))
        if enter:
            keys.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0,
                                           unicode="\r", scancode=0))
        for key in keys:
            pygame.event.post(key)
        self.board.pump()

    @rule(seconds=st.sampled_from((1.0, 6.5, 10.5, 31.0)))
    def time_passes(self, seconds: float) -> None:
        """The banners' clock runs on (a banner goes, a held screen is let go)."""
        self.steps += 1
        self.now += seconds
        self.board.pump()

    # -- what must hold after each -------------------------------------------------------------

    def shown(self) -> Frame:
        self.board.pump()
        return self.board.described()

    def game(self) -> GameState | None:
        """The game in play as the journal holds it: the finished game opened to read, else
        the one a restart resumes (None before the first); read once a step."""
        view = self.board.view
        if self._known is not None and self._known[0] == self.steps:
            return self._known[1]
        state = None
        if view.started or view.read_only:
            state = journal_state(self.db, view.game_id if view.read_only else None)
            self.names.update(state.players)
        self._known = (self.steps, state)
        return state

    @invariant()
    def every_name_shown_is_a_player_of_the_game(self) -> None:
        frame = self.shown()
        stats = self.board.screens["stats"]
        if frame.screen not in GAME_SCREENS or (
                frame.screen == "stats" and isinstance(stats, StatsScreen) and stats.all_time):
            return
        state = self.game()
        assert state is not None, f"the {frame.screen} screen is up before any game"
        with use_language(frame.language):
            players = sorted({player_name(name) for name in state.players}, key=len,
                             reverse=True)
            others = {player_name(name) for name in self.names} - set(players)
            for widget in frame.widgets:
                text = words(widget)
                for name in players:  # a player's own name may hold another's ("Ana B")
                    text = whole(name).sub(" ", text)
                strangers = sorted(name for name in others if len(name) > 2
                                   and any(c.isalpha() for c in name) and whole(name).search(text))
                assert not strangers, (f"{frame.screen} shows {strangers} in {widget.id} "
                                       f"({words(widget)!r}): the game's players are {players}")

    @invariant()
    def no_refusal_names_a_seat_without_its_player(self) -> None:
        frame = self.shown()
        message = self.board.message
        if frame.news or not isinstance(message, ErrorText) or frame.banner is None:
            return
        english = str(message)
        seats = [int(number) for number in SEAT.findall(english)]
        if not seats:
            return
        setup = self.board.screens["setup"]
        assert isinstance(setup, SetupScreen)
        state = self.game()
        if frame.screen == "setup" or state is None:
            names = [setup.recorded_name(seat) for seat in range(setup.count)]
        else:
            names = list(state.players)
        with use_language(frame.language):
            for seat in seats:
                name = names[seat - 1] if 1 <= seat <= len(names) else None
                assert name is not None and name in english and \
                    player_name(name) in frame.banner, (
                        f"the refusal {frame.banner!r} ({english!r}) names seat {seat} "
                        f"without its player ({name})")

    @invariant()
    def game_over_is_up_exactly_while_the_game_is_over(self) -> None:
        frame = self.shown()
        state = self.game()
        over = state is not None and state.is_over
        if frame.screen == "gameover":
            assert over, "game over is up, but the game is not over"
        round_end = self.board.screens["round"]
        assert isinstance(round_end, RoundEndScreen)
        if over:
            assert frame.screen not in ("table", "showdown", "penalty"), (
                f"the game is over, and {frame.screen} is up")
            assert frame.screen != "round" or round_end.editing is not None, (
                "the game is over, and its next round is being entered")

    @invariant()
    def no_text_leaves_its_widget(self) -> None:
        frame = self.shown()
        assert not frame.overflows, f"on {frame.screen}: {frame.overflows}"

    @invariant()
    def the_journal_holds_what_the_screen_shows(self) -> None:
        frame = self.shown()
        if frame.screen not in GAME_SCREENS:
            return
        state = self.game()
        assert state is not None
        wrong = problems(frame.record(None), state)
        assert not wrong, "; ".join(wrong)


QUICK = settings(max_examples=12, stateful_step_count=60, derandomize=True, deadline=None,
                 database=None, phases=(Phase.explicit, Phase.generate, Phase.shrink))
"""The same dozen runs at every run; a failure is shrunk to its fewest steps (not explained:
tracing every line makes a run of a scoreboard many times slower)."""
RandomTaps.TestCase.settings = QUICK
test_random_taps_keep_the_tables_promises = pytest.mark.timeout(900)(RandomTaps.TestCase)


@pytest.mark.soak
@pytest.mark.timeout(3 * 3600)
class SoakRandomTaps(RandomTaps.TestCase):
    """Many more taps, and longer runs of them, at random: ``make soak``."""

    settings = settings(QUICK, max_examples=300, stateful_step_count=150, derandomize=False)
