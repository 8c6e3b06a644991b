"""Every screen in every language: no text overflows its box, and the language can change
mid-game without losing anything."""

from __future__ import annotations

import pytest

from engine.scoring import ScoringSettings
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES, current_language
from showdown.scoreboard.view import ShowdownView, Side, Stage
from tests.showdown.scoreboard.helpers import (
    choose,
    keypad,
    record_unit_showdown,
    shot,
    touch,
    widget,
)

NAMES = ["Ana", "Budi", "Chen", "Daisuke", "Eko", "Fumiko"]

SHOWDOWN_STATES = {
    "countdown": ShowdownView(Stage.COUNTDOWN, "Ana", "Chen", 2, beat=1, beats=3),
    "go": ShowdownView(Stage.GO, "Ana", "Chen", 2),
    "release": ShowdownView(Stage.RELEASE, "Ana", "Chen", 2, false_start_side=Side.LEFT),
    "false-start": ShowdownView(Stage.FALSE_START, "Ana", "Chen", 2,
                                false_start_side=Side.LEFT),
    "launching": ShowdownView(Stage.LAUNCHING, "Ana", "Chen", 2, loser="Chen",
                              launch_toward=Side.RIGHT),
    "result": ShowdownView(Stage.RESULT, "Ana", "Chen", 2, winner="Ana", loser="Chen",
                           left_ms=212.0, right_ms=305.0, launch_toward=Side.RIGHT),
    "no-contest": ShowdownView(Stage.NO_CONTEST, "Ana", "Chen", 2),
}


def populate(table: SessionPort) -> None:
    """A game under way: six players, three rounds, two showdowns."""
    session = table.session
    session.handle(SetUpGame(players=NAMES, preset="showdown",
                             scoring=ScoringSettings(target=500)))
    for out in range(3):
        hands = {name: HandEntry(points=5 + 11 * i) for i, name in enumerate(NAMES)
                 if i != out}
        session.handle(RecordRound(went_out=NAMES[out], hands=hands))
    record_unit_showdown(table, "Ana", "Chen", Side.LEFT, left_ms=212.0, right_ms=305.0)
    record_unit_showdown(table, "Budi", "Eko", Side.RIGHT, left_ms=420.0, right_ms=198.0)


def every_screen(board: Scoreboard, table: SessionPort) -> dict[str, list[str]]:
    """Render each screen (and each showdown state); the overflowing texts of each."""
    found: dict[str, list[str]] = {}
    board.refresh()

    def render(name: str) -> None:
        board.painter.invalidate()
        board.text.overflows.clear()
        board.frame()
        found[name] = [o.text for o in board.text.overflows]

    for screen in ("setup", "names", "table", "round", "history", "chart", "stats", "settings"):
        board.go(screen)
        render(screen)
    board.go("setup")
    for button in ("preset", "mode"):  # the lists of rules and scoring, each choice explained
        touch(board, button)
        render(f"choose-{button}")
        touch(board, "cancel")
    choose(board, "mode", "hero")  # Set-up's pig rows, "Pig at" explained under its row
    render("setup-hero")
    choose(board, "mode", "standard")
    board.go("round")
    touch(board, "player1")
    keypad(board, "1234")
    touch(board, "cards-mode")
    for kind in ("draw-two", "wild-showdown"):
        touch(board, f"kind:{kind}")
    render("round-cards")
    board.go("showdown")
    for name, state in SHOWDOWN_STATES.items():
        table.unit_changed(state)
        board.refresh()
        render(f"showdown-{name}")
    board.go("gameover")
    render("gameover")
    return found


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_no_text_overflows_on_any_screen(board: Scoreboard, table: SessionPort,
                                         code: str) -> None:
    populate(table)
    board.set_language(code)
    overflowing = {name: texts for name, texts in every_screen(board, table).items() if texts}
    assert overflowing == {}
    board.go("table")
    shot(board, f"table-{code}")


def test_language_changes_mid_game_without_losing_the_entry(board: Scoreboard,
                                                            table: SessionPort) -> None:
    populate(table)
    board.refresh()
    board.go("round")
    touch(board, "player2")
    keypad(board, "42")
    before = table.view()
    board.go("setup")
    touch(board, "language")
    touch(board, "choice:id")
    assert current_language() == "id"
    board.go("round")
    assert table.view() == before
    assert "42" in board.screens["round"].totals.values()  # type: ignore[attr-defined]


def test_a_language_changed_elsewhere_redraws_the_whole_screen(board: Scoreboard,
                                                              table: SessionPort) -> None:
    from showdown.scoreboard.i18n import set_language

    populate(table)
    board.refresh()
    board.go("table")
    board.frame()
    set_language("id")  # e.g. from the configuration, not from the set-up screen
    board.pump()
    assert widget(board, "nav:history").text != "History"  # type: ignore[attr-defined]
    assert board.frame() == []  # and drawn already, in full


def _banner(board: Scoreboard) -> str:
    found = [w for w in board.widgets() if w.id == "banner"]
    assert found, "no refusal banner is shown"
    return str(found[0].text)  # type: ignore[attr-defined]


def test_a_refused_round_end_entry_is_explained_in_japanese(board: Scoreboard,
                                                             table: SessionPort) -> None:
    from tests.showdown.scoreboard.helpers import start_game

    start_game(board, players=2)
    board.set_language("ja")
    board.go("round")
    touch(board, "player1")
    touch(board, "player0")
    keypad(board, "9999")  # more than the whole deck is worth
    touch(board, "save")
    banner = _banner(board)
    # the tally's refusal, as said to the players, the name (the seat's default name in
    # Japanese, as on every screen) and the figures filled in
    assert banner == "プレイヤー1が9999点を持つことはできません。残りの手札は1440点しかありません"
    shot(board, "refused-ja")
    assert table.view().rounds == ()
    board.set_language("en")  # the banner follows a change of language while it shows
    assert _banner(board) == ("Player 1 can't hold 9999 points: only 1440 are left in the other "
                              "hands")


def test_refused_showdowns_are_explained_in_the_language(board: Scoreboard,
                                                         table: SessionPort) -> None:
    from tests.showdown.scoreboard.helpers import start_game

    start_game(board, players=2)  # recorded as "Player 1", shown in the language in use
    board.set_language("zh_HK")
    # one player on both paddles
    assert not board.command(board.port.record_showdown_by_hand, 0, 0, 2)
    assert _banner(board) == "玩家 1 不能和自己對決並獲勝"
    assert not board.command(board.port.load_showdown, 1, 1, 2)
    assert _banner(board) == "請為兩個拍板選擇兩名不同的玩家"
    assert not board.command(board.port.record_round, 5, {})
    assert _banner(board) == "沒有座位 6"
    state = table.session.state
    assert state is not None and state.showdowns == () and state.rounds == ()


def test_a_reminder_banner_follows_a_change_of_language(board: Scoreboard) -> None:
    from tests.showdown.scoreboard.helpers import start_game

    start_game(board, players=2)
    board.go("round")
    touch(board, "save")  # nobody went out yet
    assert _banner(board) == "Tap who went out"
    board.set_language("ja")
    assert _banner(board) == "上がった人をタップ"
