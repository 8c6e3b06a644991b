"""The interactive simulated unit: keys drive the real state machine, the scoreboard follows."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from showdown.app.cli import build_parser
from showdown.app.parts.unit_source import record_outcomes
from showdown.app.scoreboard_main import build_scoreboard
from showdown.app.subcommands.run import first_game, simulated_scoring
from showdown.game.session import Session
from showdown.playtest.panel import KeyboardUnit
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.view import Stage
from showdown.unit.clock import ManualClock, ms
from showdown.unit.events import Go
from tests.showdown.scoreboard.helpers import shot, start_game, touch, widget


@pytest.fixture
def unit() -> Iterator[KeyboardUnit]:
    simulated = KeyboardUnit(clock=ManualClock(ms(10_000)))
    yield simulated
    simulated.close()


@pytest.fixture
def sim_board(session: Session, unit: KeyboardUnit) -> Iterator[Scoreboard]:
    record_outcomes(session, unit.machine)  # as the service does, for the keys' showdowns
    board = build_scoreboard(session, unit=unit)
    board.frame()
    yield board
    board.close()


@pytest.fixture
def table(sim_board: Scoreboard) -> SessionPort:
    port = sim_board.port
    assert isinstance(port, SessionPort)
    return port


def key(board: Scoreboard, unit: KeyboardUnit, code: int, down: bool) -> None:
    """A key goes down or up; wait until the unit has taken the edge, then let the board draw."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN if down else pygame.KEYUP, key=code,
                                         mod=0, unicode="", scancode=0))
    board.pump()
    assert unit.feeder.wait_idle(5.0)
    board.pump()


def run_to_go(unit: KeyboardUnit, go_seen: list[Go]) -> None:
    clock = unit.clock
    assert isinstance(clock, ManualClock)
    for _ in range(200):
        if go_seen:
            return
        deadline = clock.next_deadline_ns()
        assert deadline is not None, "go can never come"
        clock.advance_to(deadline)
    raise AssertionError("no go")


def test_keys_play_a_showdown_that_the_session_records(
    sim_board: Scoreboard, table: SessionPort, unit: KeyboardUnit
) -> None:
    start_game(sim_board, players=2)
    sim_board.go("showdown")
    touch(sim_board, "load")
    gos: list[Go] = []
    unit.machine.subscribe(lambda e: gos.append(e) if isinstance(e, Go) else None)
    key(sim_board, unit, pygame.K_SPACE, True)
    key(sim_board, unit, pygame.K_SPACE, False)
    assert table.view().showdown.phase is Stage.COUNTDOWN
    shot(sim_board, "interactive-countdown")
    run_to_go(unit, gos)
    sim_board.pump()
    assert table.view().showdown.phase is Stage.GO
    shot(sim_board, "interactive-go")
    assert isinstance(unit.clock, ManualClock)
    unit.clock.advance(ms(240))
    key(sim_board, unit, pygame.K_l, True)
    key(sim_board, unit, pygame.K_l, False)
    clock = unit.clock
    for _ in range(100):
        if table.view().showdown.phase in (Stage.RESULT, Stage.NO_CONTEST):
            break
        deadline = clock.next_deadline_ns()
        assert deadline is not None
        clock.advance_to(deadline)
        assert unit.feeder.wait_idle(5.0)  # the cards' pulses, delivered as lgpio would
    sim_board.pump()
    view = table.view()
    assert view.showdown.phase is Stage.RESULT
    assert view.showdown.winner == "Player 2"
    assert view.showdown.right_ms == pytest.approx(240, abs=1)
    assert view.showdown.counts == (2, 0)  # both cards flew at the loser, on the left
    state = table.session.state
    assert state is not None
    assert [(s.winner, s.loser, s.source, s.cards_loaded) for s in state.showdowns] == [
        ("Player 2", "Player 1", "unit", 2)]
    # Recorded through the one unit-to-session translation: the entry names the unit's showdown,
    # so the same outcome offered again is refused instead of scored twice.
    recorded = state.showdowns[0].showdown_id
    assert recorded is not None and recorded.endswith("#1")
    shot(sim_board, "interactive-result")


def test_a_false_start_by_key_points_the_arrow_and_says_who(
    sim_board: Scoreboard, table: SessionPort, unit: KeyboardUnit
) -> None:
    start_game(sim_board, players=3)
    sim_board.go("showdown")
    touch(sim_board, "load")
    key(sim_board, unit, pygame.K_SPACE, True)
    key(sim_board, unit, pygame.K_SPACE, False)
    key(sim_board, unit, pygame.K_a, True)
    key(sim_board, unit, pygame.K_a, False)
    assert unit.outputs().arrow is not None
    assert table.view().showdown.phase in (Stage.FALSE_START, Stage.RESULT)
    assert "Player 1" in widget(sim_board, "story").text  # type: ignore[attr-defined]
    shot(sim_board, "interactive-false-start")


@pytest.mark.parametrize(("screen", "window"), [((800, 480), (800, 343)),
                                                ((1920, 1080), (1120, 480))])
def test_the_unit_sits_beside_the_scoreboard_inside_the_screen(
    session: Session, unit: KeyboardUnit, screen: tuple[int, int], window: tuple[int, int]
) -> None:
    board = build_scoreboard(session, unit=unit, screen=screen)
    try:
        assert board.window.get_size() == window  # never wider than the screen
        panel = board.beside_area
        assert panel.right == window[0] and panel.left == board.surface.get_width()
        start_game(board, players=2)  # taps land where the scaled keys are drawn
        touch(board, "nav:showdown")
        touch(board, "load")
        assert table_of(board).view().showdown.phase is Stage.LOADED
        shot(board, f"interactive-{screen[0]}x{screen[1]}")
    finally:
        board.close()


def table_of(board: Scoreboard) -> SessionPort:
    port = board.port
    assert isinstance(port, SessionPort)
    return port


@pytest.mark.parametrize("message", [
    "Player 1 can't hold 3333 points: only 1351 are left in the other hands",
    "Round 4 saved",
])
def test_banner_words_keep_16_real_pixels_in_a_window_scaled_to_fit(
    session: Session, unit: KeyboardUnit, message: str
) -> None:
    board = build_scoreboard(session, unit=unit, screen=(800, 480))
    try:
        scale = board.layout.scale
        assert scale < 0.75  # the scoreboard and the unit's panel shrunk together
        start_game(board, players=2)
        for screen in ("table", "round", "setup", "history"):
            board.go(screen)
            board.say(message)
            board.text.sizes.clear()
            board.text.overflows.clear()
            board.painter.invalidate()
            board.frame()
            others = {getattr(w, "text", "") for w in board.widgets() if w.id != "banner"}
            drawn = {text: size for text, size in board.text.sizes.items()
                     if text and text in message and text not in others}
            assert drawn, screen
            assert min(drawn.values()) * scale >= 16, (screen, drawn, scale)
            assert board.text.overflows == [], screen
        shot(board, "interactive-banner-scaled")
    finally:
        board.close()


def test_set_up_starts_from_the_game_the_command_line_asked_for(
    session: Session, unit: KeyboardUnit
) -> None:
    """``showdown run --sim --interactive --preset killer --scoring hero --pigs 3``: Set-up
    showed Showdown, Standard and 500, and the options were lost without a word."""
    argv = ["run", "--sim", "--interactive", "--players", "3", "--preset", "killer",
            "--scoring", "hero", "--pigs", "3"]
    args = build_parser(argv).parse_args(argv)
    board = build_scoreboard(session, unit=unit,
                             first_game=first_game(args, simulated_scoring(args)))
    try:
        board.go("setup")
        shown = {w.id: getattr(w, "text", "") for w in board.widgets()}
        assert (shown["count"], shown["preset"], shown["mode"]) == (
            "3 players", "Killer UNO", "Hero (pigs)")
        assert (shown["target"], shown["pigs"], shown["rounds"]) == ("500", "3", "Off")
        touch(board, "start")
        state = session.state
        assert state is not None and len(state.players) == 3 and state.preset == "killer"
        assert (state.scoring.mode, state.scoring.pigs) == ("hero", 3)
    finally:
        board.close()
