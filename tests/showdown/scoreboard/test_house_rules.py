"""The scoreboard plays the house rules of the seeds: Set-up offers 002's House rules and Killer
UNO and its hero and mean scoring with the agreed end, the penalty button records 002's and
003's table penalties, and the pigs show on the table, in History and at Game over.

Seeds: ``002_2cf2187f47789488.txt`` (Killer UNO's silence after a 2 and slap after a 9, hero and
mean scoring with pigs), ``003_ea5f156088150643.txt`` (advice to another player, a wrong card).
"""

from __future__ import annotations

import pytest

from engine.rules import PenaltyReason, RuleSet
from engine.scoring import ScoringMode, ScoringSettings
from showdown.game.messages import HandEntry, RecordPenalty, RecordRound, SetUpGame
from showdown.scoreboard import theme
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import LANGUAGES
from showdown.scoreboard.layout import MIN_TARGET
from showdown.scoreboard.port import GameSetup, RefusedError
from showdown.scoreboard.theme import MIN_TEXT
from showdown.scoreboard.widgets import Button, Choice, Label
from tests.showdown.scoreboard.helpers import (
    choose,
    play_round,
    shot,
    start_game,
    touch,
    widget,
)
from tests.showdown.scoreboard.test_finished_games import rows

ENGINE_NAMES = {"house", "killer", "hero", "mean"}


def text(board: Scoreboard, widget_id: str) -> str:
    found = widget(board, widget_id)
    assert isinstance(found, Label | Button), widget_id
    return found.text


def enabled(board: Scoreboard, widget_id: str) -> bool:
    found = widget(board, widget_id)
    assert isinstance(found, Button), widget_id
    return found.enabled


def offered(board: Scoreboard, button: str) -> list[str]:
    """The names of every choice a set-up button's list offers (then Cancel, back to Set-up)."""
    touch(board, button)
    names = [w.name for w in board.widgets() if isinstance(w, Choice)]
    touch(board, "cancel")
    return names


def banner(board: Scoreboard) -> tuple[str, tuple[int, int, int], str | None]:
    """The banner's words, its colour, and its button's words (None without one)."""
    board.frame()
    ids = {w.id: w for w in board.widgets()}
    label, button = ids["banner"], ids.get("banner-action")
    assert isinstance(label, Label)
    return label.text, label.background, None if not isinstance(button, Button) else button.text


def hero_by_touch(board: Scoreboard, *, pigs: int, rounds: int | None, players: int = 3) -> None:
    """Killer UNO in hero scoring, set up by touch: the pigs and rounds stepped to the values."""
    board.go("setup")
    setup = board.screens["setup"]
    while getattr(setup, "count") > players:  # noqa: B009
        touch(board, "fewer")
    choose(board, "preset", "killer")
    choose(board, "mode", "hero")
    while text(board, "rounds") != ("Off" if rounds is None else str(rounds)):
        touch(board, "rounds+")
    while text(board, "pigs") != str(pigs):
        touch(board, "pigs-" if int(text(board, "pigs")) > pigs else "pigs+")
    touch(board, "start")
    if board.question is not None:  # a game is being played: leave it (it stays saved)
        touch(board, "answer-yes")


# -- set-up -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_set_up_names_the_house_presets_and_pig_scoring_in_every_language_seed_002(
    board: Scoreboard, code: str
) -> None:
    """002 "Killer Uno", "Hero Scoring", "Mean score method": Set-up offers them in the
    table's language, never by the engine's names."""
    board.set_language(code)
    presets, modes = offered(board, "preset"), offered(board, "mode")
    assert len(presets) == 7 and len(modes) == 7
    assert not ENGINE_NAMES & {*presets, *modes}, (presets, modes)
    expected = {
        "en": ("House rules", "Killer UNO", "Hero (pigs)", "Mean (pigs)"),
        "ja": ("ハウスルール", "キラー・ウノ", "ヒーロー（ブタ）", "ケチ（ブタ）"),
        "zh_CN": ("自定规则", "杀手 UNO", "英雄（画猪）", "小气（画猪）"),
        "zh_HK": ("自訂規則", "殺手 UNO", "英雄（畫豬）", "小氣（畫豬）"),
        "id": ("Aturan rumah", "UNO Pembunuh", "Pahlawan (babi)", "Pelit (babi)"),
    }[code]
    assert set(expected[:2]) <= set(presets) and set(expected[2:]) <= set(modes)


def test_hero_by_touch_starts_killer_uno_to_the_agreed_pigs_and_rounds_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """002's hero scoring ends at an agreed number of pigs or rounds: Set-up asks for both,
    and the game starts with what was tapped, its pigs drawn at 500."""
    board.go("setup")
    assert {"pigs", "rounds"}.isdisjoint(w.id for w in board.widgets())  # standard: no pigs
    choose(board, "preset", "killer")
    choose(board, "mode", "hero")
    assert text(board, "target:caption") == "Pig at" and text(board, "target") == "500"
    assert (text(board, "pigs"), text(board, "rounds")) == ("3", "Off")
    shot(board, "setup-hero")
    touch(board, "pigs-")
    touch(board, "rounds+")
    touch(board, "rounds+")
    touch(board, "start")
    state = table.session.state
    assert state is not None and state.preset == "killer"
    assert state.scoring == ScoringSettings(mode=ScoringMode.HERO, target=500, pigs=2, rounds=2)
    assert board.current == "table"
    assert text(board, "target") == "Pig at 500"
    assert text(board, "game-end") == "The game ends at 2 pigs or after 2 rounds"
    assert [text(board, f"pigs{seat}") for seat in range(4)] == ["0 pigs"] * 4


def test_mean_plays_to_its_own_100_unless_the_table_changed_the_target_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """002: mean scoring's "first to 100 points": choosing it sets the target to 100, where a
    target the table chose stays as chosen."""
    board.go("setup")
    choose(board, "mode", "mean")
    assert text(board, "target") == "100"
    choose(board, "mode", "standard")
    assert text(board, "target") == "500"
    touch(board, "target+")  # the table's own target: 550
    choose(board, "mode", "mean")
    assert text(board, "target") == "550"
    while text(board, "target") != "100":
        touch(board, "target-")
    touch(board, "start")
    state = table.session.state
    assert state is not None
    assert (state.scoring.mode, state.scoring.target, state.scoring.pigs) == (
        ScoringMode.MEAN, 100, 3)


def test_the_agreed_end_can_never_be_switched_off_both_ways_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """Hero and mean are refused by the rules without pigs or rounds: Set-up keeps one of the
    two set, and the port refuses a set-up without either in words for the table."""
    board.go("setup")
    choose(board, "mode", "hero")
    touch(board, "pigs-")
    touch(board, "pigs-")
    assert text(board, "pigs") == "1" and not enabled(board, "pigs-")  # rounds are Off
    touch(board, "rounds+")
    touch(board, "pigs-")
    assert (text(board, "pigs"), text(board, "rounds")) == ("Off", "1")
    assert not enabled(board, "rounds-")
    with pytest.raises(RefusedError) as refused:
        table.start_game(GameSetup(players=("Ann", "Bob"), preset="killer", mode="mean",
                                   target=100))
    assert refused.value.text.template == (
        "hero and mean scoring end at an agreed number of pigs or rounds: choose one or both")
    assert table.session.state is None


def test_rematch_carries_the_pig_scoring_and_its_agreed_end_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """A hero game to 1 pig or 3 rounds, set up by touch, ends when Player 1 passes 500; one
    tap on Rematch starts the next with the same rules, scoring, target, pigs and rounds."""
    hero_by_touch(board, pigs=1, rounds=3)
    before = table.session.state
    assert before is not None
    play_round(board, went_out=0, held={1: "300", 2: "250"})
    assert board.current == "gameover"
    assert text(board, "name0") == "Player 1" and text(board, "pigs0") == "0 pigs"
    assert [text(board, f"pigs{i}") for i in (1, 2)] == ["1 pig", "1 pig"]
    touch(board, "rematch")
    after = table.session.state
    assert after is not None and after.game_id != before.game_id and after.rounds == ()
    assert after.preset == "killer"
    assert after.scoring == ScoringSettings(mode=ScoringMode.HERO, target=500, pigs=1, rounds=3)
    assert text(board, "game-end") == "The game ends at 1 pig or after 3 rounds"


# -- the penalty button -----------------------------------------------------------------------


def reasons_offered(board: Scoreboard) -> list[str]:
    return [w.id.removeprefix("reason:") for w in board.widgets() if w.id.startswith("reason:")]


def test_the_penalty_picker_offers_only_the_reasons_the_rules_have_seed_002_003(
    board: Scoreboard, table: SessionPort
) -> None:
    """003's advice and wrong card and every sheet's missing UNO call are in every preset;
    002's silence and slap only in Killer UNO; rules without a wrong-card (or UNO) penalty
    offer none."""
    start_game(board, players=3)  # the Showdown preset
    touch(board, "penalty")
    assert board.current == "penalty"
    assert reasons_offered(board) == ["advice", "wrong-card", "missed-uno"]
    touch(board, "cancel")
    hero_by_touch(board, pigs=3, rounds=None)
    touch(board, "penalty")
    assert reasons_offered(board) == ["silence", "slap", "advice", "wrong-card", "missed-uno"]
    from showdown.game.table_view import penalty_reasons

    assert penalty_reasons(RuleSet(wrong_card_penalty=0, uno_penalty=0)) == (("advice", 2),)
    assert penalty_reasons(RuleSet(wrong_card_penalty=3, table_penalty_cards=4, uno_penalty=4,
                                   table_penalties=(PenaltyReason.SLAP,))) == (
        ("slap", 4), ("wrong-card", 3), ("missed-uno", 4))


@pytest.mark.parametrize(("preset", "cards"), [("showdown", 2), ("edition-2018", 4)])
def test_the_picker_offers_a_missing_uno_call_with_its_cards_seed_000_001_004(
    board: Scoreboard, table: SessionPort, preset: str, cards: int
) -> None:
    """Issue 37, item 16. 000 and 004: "If you don't yell "UNO" and you are caught ..., you
    must draw two cards"; 001: "you must pick FOUR more cards"."""
    board.go("setup")
    choose(board, "preset", preset)
    touch(board, "start")
    touch(board, "penalty")
    assert text(board, "reason:missed-uno") == "Forgot to call UNO"
    touch(board, "reason:missed-uno")
    assert text(board, "who") == f"Who draws {cards} cards?"
    touch(board, "player1")
    assert board.current == "table"
    state = table.session.state
    assert state is not None
    assert [(p.player, p.reason, p.cards) for p in state.penalties] == [
        ("Player 2", PenaltyReason.MISSED_UNO, cards)]
    assert banner(board) == (f"Player 2 forgot to call UNO: draws {cards} cards", theme.NEWS,
                             "Undo")


def test_a_penalty_by_touch_is_recorded_told_with_undo_and_listed_apart_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """002 Killer 5, "Vocal people have to fine touch 2 cards": why, then who; the table says
    it in words with Undo, and History lists it apart from the showdowns."""
    hero_by_touch(board, pigs=3, rounds=None)
    touch(board, "penalty")
    assert not enabled(board, "player1")  # why first
    touch(board, "reason:silence")
    assert text(board, "who") == "Who draws 2 cards?"
    shot(board, "penalty-picker")
    touch(board, "player1")
    assert board.current == "table"
    state = table.session.state
    assert state is not None
    assert [(p.player, p.reason, p.cards) for p in state.penalties] == [
        ("Player 2", PenaltyReason.SILENCE, 2)]
    assert banner(board) == ("Player 2 made a sound after a 2: draws 2 cards", theme.NEWS,
                             "Undo")
    touch(board, "banner-action")
    assert table.session.state is not None and table.session.state.penalties == ()
    assert banner(board) == ("Undone: the penalty on Player 2 (Silence after a 2)", theme.NEWS,
                             "Redo")
    touch(board, "banner-action")
    board.go("history")
    rows = [w for w in board.widgets() if w.id.startswith("row")]
    assert isinstance(rows[0], Label)
    assert rows[0].text == "Penalty: Player 2 made a sound after a 2: draws 2 cards"
    assert rows[0].background == theme.PANEL_LIGHT  # apart from a showdown's row


def test_every_reason_is_worded_apart_in_history_seed_002_003(
    board: Scoreboard, table: SessionPort
) -> None:
    """Each table penalty in its own words, between the showdowns, in the order entered."""
    table.session.handle(SetUpGame(players=["Ann", "Bob", "Cy"], preset="killer"))
    for player, reason in (("Ann", "silence"), ("Bob", "slap"), ("Cy", "advice"),
                           ("Ann", "wrong-card")):
        table.session.handle(RecordPenalty(player=player, reason=PenaltyReason(reason)))
    board.refresh()
    board.go("history")
    rows = [w.text for w in board.widgets()  # type: ignore[attr-defined]
            if w.id.startswith("row")]
    assert rows == [
        "Penalty: Ann made a sound after a 2: draws 2 cards",
        "Penalty: Bob was the last to slap a 9: draws 2 cards",
        "Penalty: Cy gave advice to another player: draws 2 cards",
        "Penalty: Ann played a wrong card: takes it back, draws 2 cards",
    ]


def test_undo_in_history_says_which_penalty_went_seed_003(
    board: Scoreboard, table: SessionPort
) -> None:
    """A penalty recorded elsewhere (the simulated table, another screen) is what History's
    Undo takes back, and the banner says so."""
    table.session.handle(SetUpGame(players=["Ann", "Bob", "Cy"]))
    table.session.handle(RecordPenalty(player="Bob", reason=PenaltyReason.ADVICE))
    board.refresh()
    assert banner(board)[0] == "Bob gave advice to another player: draws 2 cards"
    board.go("history")
    touch(board, "undo")
    assert banner(board) == ("Undone: the penalty on Bob (Advice to another player)",
                             theme.NEWS, "Redo")


def test_a_penalty_on_a_player_out_of_the_game_is_refused_naming_them_seed_003(
    board: Scoreboard, table: SessionPort
) -> None:
    """Challenge UNO: a player eliminated cannot be penalised; their button rests, and the
    port's refusal names them. A reason the rules do not have is refused by its name."""
    table.session.handle(SetUpGame(players=["Ann", "Bob", "Cy"],
                                   scoring=ScoringSettings(mode=ScoringMode.CHALLENGE,
                                                           target=100)))
    table.session.handle(RecordRound(went_out="Ann", hands={"Bob": HandEntry(points=120),
                                                             "Cy": HandEntry(points=20)}))
    board.refresh()
    board.go("table")
    touch(board, "penalty")
    touch(board, "reason:advice")
    assert [enabled(board, f"player{seat}") for seat in range(3)] == [True, False, True]
    with pytest.raises(RefusedError) as refused:
        table.record_penalty(1, "advice")
    assert refused.value.text.template == "{name} is not in this round"
    assert refused.value.text.params == {"name": "Bob"}
    with pytest.raises(RefusedError) as refused:
        table.record_penalty(2, "silence")
    assert refused.value.text.template == "{reason} is not a table rule of the {preset} rules"
    assert refused.value.text.params == {"reason": "silence", "preset": "official"}
    state = table.session.state
    assert state is not None and state.penalties == ()


# -- pigs ---------------------------------------------------------------------------------------


HERO = (("Budi", {"Ana": 120, "Chen": 95, "Daisuke": 60}),
        ("Ana", {"Budi": 80, "Chen": 150, "Daisuke": 40}),
        ("Budi", {"Ana": 90, "Chen": 110, "Daisuke": 70}),
        ("Chen", {"Ana": 60, "Budi": 45, "Daisuke": 85}))
"""Budi banks 275, Ana 270, then Budi passes 500 (545) in round 3: a pig on each other."""


def hero_game(table: SessionPort, pigs: int) -> None:
    """Killer UNO in hero scoring to ``pigs`` pigs, recorded as the table enters it."""
    table.session.handle(SetUpGame(players=["Ana", "Budi", "Chen", "Daisuke"], preset="killer",
                                   scoring=ScoringSettings(mode=ScoringMode.HERO, pigs=pigs)))
    for out, held in HERO:
        state = table.session.state
        if state is None or state.is_over:
            return
        table.session.handle(RecordRound(went_out=out, hands={
            name: HandEntry(points=points) for name, points in held.items()}))


@pytest.fixture
def hero(board: Scoreboard, table: SessionPort) -> Scoreboard:
    """The Killer UNO game in hero scoring, four rounds in."""
    hero_game(table, pigs=3)
    board.refresh()
    return board


def test_the_table_shows_every_players_pigs_seed_002(hero: Scoreboard) -> None:
    """002 Hero Scoring: "the first 500 points can draw a pig for each of the other people":
    after Budi's 545 every other player has a pig, and every score went back to zero."""
    hero.go("table")
    assert [text(hero, f"name{i}") for i in range(4)] == ["Ana", "Budi", "Chen", "Daisuke"]
    assert [text(hero, f"pigs{i}") for i in range(4)] == ["1 pig", "0 pigs", "1 pig", "1 pig"]
    assert [text(hero, f"total{i}") for i in range(4)] == ["0", "0", "190", "0"]
    assert text(hero, "target") == "Pig at 500"
    hero.set_language("ja")
    assert text(hero, "pigs0") == "ブタ1匹" and text(hero, "target") == "500点でブタ"


def test_history_shows_the_pigs_a_round_drew_under_it_seed_002(hero: Scoreboard) -> None:
    """"Draw all the points after the pig zero": the round is followed by what each player
    drew and now has."""
    hero.go("history")
    labels = {w.id: w.text for w in hero.widgets()
              if isinstance(w, Label | Button)}
    pig_row = next(key for key, value in labels.items()
                   if value == "Pigs drawn, every score back to 0")
    row = pig_row.removeprefix("row")
    assert [labels[f"cell{row}:{i}"] for i in range(4)] == ["+1 pig", "", "+1 pig", "+1 pig"]
    assert [labels[f"total{row}:{i}"] for i in range(4)] == ["1 pig", "0 pigs", "1 pig",
                                                             "1 pig"]
    before = f"row{int(row) - 1}"
    assert labels[before] == "3 · Budi"


def test_the_chart_marks_where_pigs_are_drawn_seed_002(hero: Scoreboard) -> None:
    """The chart's dashed line is the score that draws a pig, and says so as the table does."""
    hero.go("chart")
    hero.painter.invalidate()
    hero.text.sizes.clear()
    hero.frame()
    assert "Pig at 500" in hero.text.sizes and "Target 500" not in hero.text.sizes


def test_stats_count_the_points_banked_though_pigs_set_scores_to_zero_seed_002(
    hero: Scoreboard,
) -> None:
    """Budi banked 275 and 270 before his pig round set every score to 0: Stats says 545, the
    table his score since (0)."""
    assert {line.name: line.points for line in hero.view.stats} == {
        "Ana": 270, "Budi": 545, "Chen": 190, "Daisuke": 0}
    assert [player.total for player in hero.view.players] == [0, 0, 190, 0]


def test_game_over_ranks_by_pigs_seed_002(board: Scoreboard, table: SessionPort) -> None:
    """The fewest pigs win: Budi, with none, above the others, who each drew one."""
    hero_game(table, pigs=1)
    board.refresh()
    assert board.current == "gameover"
    assert text(board, "winner") == "Budi wins!"
    assert [text(board, f"name{i}") for i in range(4)] == ["Budi", "Ana", "Chen", "Daisuke"]
    assert [text(board, f"pigs{i}") for i in range(4)] == ["0 pigs", "1 pig", "1 pig", "1 pig"]


def test_saved_games_list_pig_games_by_their_pigs_seed_002(
    board: Scoreboard, table: SessionPort
) -> None:
    """Every score goes back to 0 at a pig, so Saved games ranks a hero game by its pigs and
    says them: the finished one with Budi's win, the open one (left for a standard game) with
    its leader's pigs."""
    hero_game(table, pigs=1)
    hero_game(table, pigs=3)
    table.session.handle(SetUpGame(players=["Ana", "Budi"], preset="showdown"))
    table.session.handle(RecordRound(went_out="Ana", hands={"Budi": HandEntry(points=5)}))
    board.refresh()
    board.go("games")
    listed = [[*row[0].split(" · ", 2)[::2], row[1]] for row in rows(board)]
    assert listed == [
        ["Game 2", "round 5 · Budi leads (0 pigs)",
         "Budi 0 pigs · Chen 1 pig · Ana 1 pig · Daisuke 1 pig"],
        ["Game 1", "Budi won", "Budi 0 pigs · Ana 1 pig · Chen 1 pig · Daisuke 1 pig"],
    ]
    board.set_language("ja")
    assert rows(board)[0][1] == "Budi ブタ0匹 · Chen ブタ1匹 · Ana ブタ1匹 · Daisuke ブタ1匹"
    assert rows(board)[0][0].endswith("ラウンド5・Budiがトップ（ブタ0匹）")


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_pigs_and_penalties_stay_readable_for_ten_players(
    board: Scoreboard, table: SessionPort, code: str
) -> None:
    """Ten players in hero scoring, with long names: the set-up's pig rows, the table, the
    penalty picker, History and Game over draw nothing under 16 px, cut nothing, and every
    target is 48 px."""
    names = ["Ana", "Budi", "Chen", "Daisuke", "Eko", "Maximilianax", "Gita",
             "王小明王小明王小明王小明", "Player 9", "Player 10"]
    table.session.handle(SetUpGame(players=names, preset="killer",
                                   scoring=ScoringSettings(mode=ScoringMode.MEAN, pigs=9,
                                                           rounds=2)))
    table.session.handle(RecordPenalty(player="Maximilianax", reason=PenaltyReason.WRONG_CARD))
    hands = {name: HandEntry(points=12) for name in names if name != "Chen"}
    hands["Gita"] = HandEntry(points=100)  # mean: landing on 100 gives every other player a pig
    table.session.handle(RecordRound(went_out="Chen", hands=hands))
    board.set_language(code)
    board.refresh()
    found = {}
    for screen in ("table", "penalty", "history", "setup", "gameover"):
        if screen == "gameover":  # the second round ends the game
            table.session.handle(RecordRound(went_out="Eko", hands={
                name: HandEntry(points=5) for name in names if name != "Eko"}))
            board.refresh()
        board.go(screen)
        if screen == "penalty":
            touch(board, "reason:wrong-card")
        if screen == "setup":
            mean = [choice.mode for choice in table.modes()].index("mean")
            board.screens["setup"].mode = mean  # type: ignore[attr-defined]
        board.painter.invalidate()
        board.text.overflows.clear()
        board.text.sizes.clear()
        board.frame()
        small_targets = [w.id for w in board.widgets() if isinstance(w, Button) and w.enabled
                         and min(board.layout.rect(w.rect).size) < MIN_TARGET]
        found[screen] = ([o.text for o in board.text.overflows],
                         {t: s for t, s in board.text.sizes.items() if s < MIN_TEXT},
                         small_targets)
    assert board.current == "gameover"
    assert found == {screen: ([], {}, []) for screen in found}
    assert len(found) == 5
