"""Scoring modes with the seeds' worked examples (rules.md, "Scoring the game")."""

import doctest

import pytest
from pydantic import ValidationError

import engine.scoring
from engine.error_text import ErrorText
from engine.scoring import (
    RoundResult,
    Scoresheet,
    ScoringError,
    ScoringSettings,
    Table,
    two_table_seating,
)


def result(went_out: int, *points: int) -> RoundResult:
    return RoundResult(went_out=went_out, hand_points=points)


def test_docstring_examples_run() -> None:
    assert doctest.testmod(engine.scoring).failed == 0


# -- seed 003: the five-round plus/minus sheet, reproduced line by line ----------------------

SEED_003_ROUNDS = [
    # A, B, C, D ; B goes out in 1, 3, 5; C in 2 and 4
    result(1, 40, 0, 70, 8),
    result(2, 9, 28, 0, 36),
    result(1, 30, 0, 15, 33),
    result(2, 9, 21, 0, 11),
    result(1, 33, 0, 10, 28),
]
SEED_003_TOTALS = [
    (-40, 118, -70, -8),
    (-49, 90, 3, -44),
    (-79, 168, -12, -77),
    (-88, 147, 29, -88),
    (-121, 218, 19, -116),
]


def test_seed_003_plus_minus_sheet_five_rounds() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus", rounds=5, target=None), 4)
    for entry, totals in zip(SEED_003_ROUNDS, SEED_003_TOTALS, strict=True):
        assert not sheet.is_over
        assert sheet.record(entry).totals == totals
    assert sheet.is_over
    assert sheet.winners == (1,)  # B: 1st with +218
    assert sheet.totals == SEED_003_TOTALS[-1]
    assert sheet.ranking == (1, 2, 3, 0)  # B, C, D, A as the seed's 順位 column
    with pytest.raises(ScoringError, match="game is over"):
        sheet.record(result(0, 0, 1, 1, 1))


def test_seed_003_plus_minus_international_first_to_500() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus"), 3)
    sheet.record(result(0, 0, 250, 200))
    assert sheet.totals == (450, -250, -200) and not sheet.is_over
    score = sheet.record(result(0, 0, 10, 40))
    assert score.totals == (500, -260, -240)
    assert sheet.is_over and sheet.winners == (0,)


# -- standard (000, 001, 003) ---------------------------------------------------------------


def test_seed_000_standard_winner_scores_opponents_cards_first_to_500() -> None:
    sheet = Scoresheet(ScoringSettings(), 4)
    line = sheet.record(result(2, 35, 60, 0, 5))
    assert line.deltas == (0, 0, 100, 0)
    for _ in range(3):
        sheet.record(result(2, 100, 0, 0, 0))
    assert sheet.totals == (0, 0, 400, 0) and not sheet.is_over
    sheet.record(result(3, 50, 49, 0, 0))
    assert not sheet.is_over
    sheet.record(result(2, 1, 99, 0, 0))
    assert sheet.totals == (0, 0, 500, 99)
    assert sheet.is_over and sheet.winners == (2,)


def test_seed_001_agreed_target_score() -> None:
    sheet = Scoresheet(ScoringSettings(target=150), 2)
    sheet.record(result(0, 0, 149))
    assert not sheet.is_over
    sheet.record(result(1, 1, 0))
    assert not sheet.is_over  # 1 point to seat 1
    sheet.record(result(0, 0, 1))
    assert sheet.totals == (150, 1)
    assert sheet.is_over and sheet.winners == (0,)


# -- running tally (000, 001) ---------------------------------------------------------------


def test_seed_000_running_tally_lowest_total_wins_when_someone_reaches_500() -> None:
    sheet = Scoresheet(ScoringSettings(mode="running-tally"), 3)
    sheet.record(result(0, 0, 200, 120))
    sheet.record(result(1, 80, 0, 300))
    assert sheet.totals == (80, 200, 420) and not sheet.is_over
    sheet.record(result(0, 0, 90, 85))
    assert sheet.totals == (80, 290, 505)
    assert sheet.is_over and sheet.winners == (0,)


# -- Challenge UNO (001, 003) ---------------------------------------------------------------


def test_seed_001_challenge_eliminates_at_target_then_head_to_head() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4)
    line = sheet.record(result(0, 0, 100, 30, 20))
    assert line.eliminated == (1,)
    assert sheet.active_seats == (0, 2, 3) and not sheet.head_to_head
    with pytest.raises(ScoringError, match="seat 2 is eliminated"):
        sheet.record(result(1, 5, 0, 5, 5))
    with pytest.raises(ScoringError, match="seat 2 is eliminated, so holds 0"):
        sheet.record(result(0, 0, 5, 5, 5))
    sheet.record(result(2, 10, 0, 0, 90))
    assert sheet.eliminated == (1, 3)
    assert sheet.active_seats == (0, 2) and sheet.head_to_head
    sheet.record(result(0, 0, 0, 60, 0))
    assert not sheet.is_over  # 30 + 60 = 90: the head-to-head goes on
    sheet.record(result(0, 0, 0, 10, 0))
    assert sheet.is_over
    assert sheet.winners == (0,)  # won the final hand
    assert sheet.totals == (10, 100, 100, 110)
    assert sheet.ranking == (0, 2, 3, 1)  # the later a player went out, the better


def test_challenge_ranks_players_eliminated_together_by_their_totals() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4)
    sheet.record(result(0, 0, 150, 40, 120))
    assert sheet.ranking == (0, 2, 3, 1)
    assert repr(sheet).startswith("Scoresheet(ScoringSettings(mode=<ScoringMode.CHALLENGE")


def test_seed_003_challenge_two_reach_target_in_one_hand_leaves_the_winner() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=500), 3)
    sheet.record(result(2, 500, 600, 0))
    assert sheet.is_over and sheet.winners == (2,)


def test_challenge_settings_need_a_target() -> None:
    with pytest.raises(ValidationError, match="target"):
        ScoringSettings(mode="challenge", target=None, rounds=3)


# -- partners (001) -------------------------------------------------------------------------


def test_seed_001_partners_team_scores_both_opponents_hands() -> None:
    sheet = Scoresheet(ScoringSettings(mode="partners", target=200), 4)
    line = sheet.record(result(2, 30, 45, 0, 25))
    assert line.deltas == (70, 0, 70, 0)  # partner's own 30 does not count
    assert sheet.team_totals == {(0, 2): 70, (1, 3): 0}
    sheet.record(result(0, 0, 80, 10, 50))
    assert sheet.totals == (200, 0, 200, 0)
    assert sheet.is_over and sheet.winners == (0, 2)


def test_partners_need_four_players() -> None:
    with pytest.raises(ScoringError, match="exactly 4 players"):
        Scoresheet(ScoringSettings(mode="partners"), 5)


def test_seed_001_rotating_partners_twelve_hands_each_partner_four_times() -> None:
    settings = ScoringSettings(mode="partners", partners="rotating")
    assert settings.rounds == 12 and settings.target is None
    sheet = Scoresheet(settings, 4)
    partners_of_0 = []
    for _ in range(12):
        (table,) = sheet.tables
        partners_of_0.append(table.team_of(0)[1])
        a, b, c, d = table.seats
        assert table.teams == ((a, c), (b, d))  # partners sit opposite
        sheet.record(result(0, 0, 10, 20, 30))
    assert partners_of_0 == [2] * 4 + [1] * 4 + [3] * 4
    assert sheet.is_over
    # seat 0 always won: 4 hands each with 2, 1, 3 as partner
    assert sheet.totals[0] == 4 * (10 + 30) + 4 * (20 + 30) + 4 * (10 + 20)
    assert sheet.winners == (0,)


def test_seed_001_eight_players_two_tables_28_hands() -> None:
    settings = ScoringSettings(mode="partners", partners="two-tables")
    assert settings.rounds == 28
    sheet = Scoresheet(settings, 8)
    partnered: dict[frozenset[int], int] = {}
    while not sheet.is_over:
        tables = sheet.tables
        if len(tables) == 2:  # a new hand: everyone is at one of the two tables
            assert sorted(s for t in tables for s in t.seats) == list(range(8))
        table = tables[-1]  # the second table may report first
        for team in table.teams:
            partnered[frozenset(team)] = partnered.get(frozenset(team), 0) + 1
        points = [0] * 8
        for seat in table.seats[1:]:
            points[seat] = 5
        sheet.record(RoundResult(went_out=table.seats[0], hand_points=tuple(points)))
    assert sheet.hands_played == 28 and len(sheet.history) == 56
    assert len(partnered) == 28 and set(partnered.values()) == {4}


def test_two_tables_refuses_points_for_a_player_at_the_other_table() -> None:
    sheet = Scoresheet(ScoringSettings(mode="partners", partners="two-tables"), 8)
    first, second = sheet.tables
    points = [0] * 8
    points[second.seats[0]] = 7
    with pytest.raises(ScoringError) as caught:
        sheet.record(RoundResult(went_out=first.seats[0], hand_points=tuple(points)))
    assert str(caught.value) == (
        f"seat {second.seats[0] + 1} is not in this hand, so holds 0 points, not 7")
    assert sheet.history == ()


def test_two_table_seating_of_the_first_hands() -> None:
    """001's eight players (seats 0-7): who sits where, partners opposite. The event prints
    these seats as its partners-8 seating (engine.tournament.seating), so they are pinned."""
    assert two_table_seating(0) == (
        Table(index=0, seats=(7, 1, 0, 6), teams=((7, 0), (1, 6))),
        Table(index=1, seats=(2, 3, 5, 4), teams=((2, 5), (3, 4))),
    )
    assert two_table_seating(3) == two_table_seating(0)  # four hands per pairing
    assert two_table_seating(4) == (
        Table(index=0, seats=(7, 2, 1, 0), teams=((7, 1), (2, 0))),
        Table(index=1, seats=(3, 4, 6, 5), teams=((3, 6), (4, 5))),
    )
    assert two_table_seating(24) == (
        Table(index=0, seats=(7, 0, 6, 5), teams=((7, 6), (0, 5))),
        Table(index=1, seats=(1, 2, 4, 3), teams=((1, 4), (2, 3))),
    )


def test_the_event_seating_is_the_two_table_sheet_and_repeats_after_28_hands() -> None:
    """The seating the event uses (two_table_seating) is the sheet's own, hand by hand; a table
    that agrees to play on past 28 hands starts the rotation again."""
    sheet = Scoresheet(ScoringSettings(mode="partners", partners="two-tables", rounds=56), 8)
    while not sheet.is_over:
        hand = sheet.hands_played
        assert sheet.tables == two_table_seating(hand)
        assert two_table_seating(hand + 28) == two_table_seating(hand)
        for table in two_table_seating(hand):
            points = [0] * 8
            for seat in table.seats[1:]:
                points[seat] = 5
            line = sheet.record(RoundResult(went_out=table.seats[0], hand_points=tuple(points)))
            assert (line.hand, line.table) == (hand, table.index)
    assert sheet.hands_played == 56 and len(sheet.history) == 112


def test_a_seat_at_the_other_table_has_no_team_here() -> None:
    first, second = two_table_seating(0)
    assert first.team_of(1) == (1, 6) and second.team_of(4) == (3, 4)
    with pytest.raises(KeyError) as caught:
        first.team_of(2)
    assert caught.value.args == (2,)  # names the seat asked about


@pytest.mark.parametrize(
    "settings",
    [
        ScoringSettings(),
        ScoringSettings(mode="challenge", target=100),
        ScoringSettings(mode="partners"),
        ScoringSettings(mode="partners", partners="rotating"),
    ],
)
def test_a_one_table_game_plays_every_hand_at_table_0(settings: ScoringSettings) -> None:
    """Tables are numbered from 0 as in the two-table game: a one-table game's lines say 0."""
    sheet = Scoresheet(settings, 4)
    (table,) = sheet.tables
    assert table.index == 0
    line = sheet.record(RoundResult(went_out=table.seats[0], hand_points=(0, 0, 0, 0)))
    assert line.table == 0 and sheet.tables[0].index == 0


def test_a_rotating_game_agreed_longer_starts_the_rotation_again() -> None:
    """001's rotation is 12 hands (four with each partner); a table that agrees 24 plays it
    twice: hands 13-16 are with the partner opposite again."""
    sheet = Scoresheet(ScoringSettings(mode="partners", partners="rotating", rounds=24), 4)
    partners_of_0 = []
    while not sheet.is_over:
        (table,) = sheet.tables
        partners_of_0.append(table.team_of(0)[1])
        sheet.record(result(0, 0, 1, 1, 1))
    assert partners_of_0 == ([2] * 4 + [1] * 4 + [3] * 4) * 2


# -- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (result(0, 0, -5, 3), "seat 2 (Bo): points cannot be negative (-5)"),
        (result(0, 0, 5), "expected points for 3 seats, got 2"),
        # The API's seat indices (0-based): the session names players, so never reaches this.
        (result(3, 0, 5, 5), "seat 3 does not exist (seats are 0 to 2)"),
        (result(-1, 0, 5, 5), "seat -1 does not exist (seats are 0 to 2)"),
        (result(1, 4, 2, 5), "seat 2 (Bo) went out, so holds 0 points, not 2"),
    ],
)
def test_impossible_entries_are_refused_and_change_nothing(
    entry: RoundResult, message: str
) -> None:
    """Each refusal in full, and as an :class:`ErrorText`: the scoreboard looks the template up
    in its catalogue (``.text.template``), so even a message without values carries one."""
    sheet = Scoresheet(ScoringSettings(), 3, names=["Ann", "Bo", "Cy"])
    sheet.record(result(0, 0, 5, 5))
    before = (sheet.history, sheet.totals)
    with pytest.raises(ScoringError) as caught:
        sheet.record(entry)
    assert str(caught.value) == message
    assert isinstance(caught.value.text, ErrorText) and str(caught.value.text) == message
    assert (sheet.history, sheet.totals) == before


def test_messages_name_the_player() -> None:
    sheet = Scoresheet(ScoringSettings(), 3, names=["Ann", "Bo", "Cy"])
    with pytest.raises(ScoringError, match=r"seat 2 \(Bo\): points cannot be negative"):
        sheet.record(result(0, 0, -1, 3))


def test_undo_and_edit_recompute_every_total() -> None:
    sheet = Scoresheet(ScoringSettings(mode="plus-minus", rounds=5, target=None), 4)
    for entry in SEED_003_ROUNDS[:3]:
        sheet.record(entry)
    assert sheet.undo_last() == SEED_003_ROUNDS[2]
    assert sheet.totals == SEED_003_TOTALS[1]
    sheet.replace(0, result(1, 40, 0, 70, 18))  # D held 18, not 8
    assert sheet.totals == (-49, 100, 3, -54)


def test_an_edit_that_makes_later_rounds_impossible_is_refused() -> None:
    """The refusals in the words the scoreboard looks up; the sheet is unchanged by each."""
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 3, names=["Ann", "Bo", "Cy"])
    sheet.record(result(0, 0, 50, 50))
    sheet.record(result(1, 10, 0, 10))
    with pytest.raises(ScoringError) as caught:
        sheet.replace(0, result(0, 0, 100, 50))
    assert str(caught.value) == "round 2: seat 2 (Bo) is eliminated"
    assert caught.value.text.template == "round {round}: {error}"
    bo = ErrorText("seat {seat} ({name})", {"seat": 2, "name": "Bo"})
    assert caught.value.text.params["error"] == ErrorText("{who} is eliminated", {"who": bo})
    assert sheet.totals == (10, 50, 60) and len(sheet.history) == 2
    with pytest.raises(ScoringError) as caught:
        sheet.replace(2, result(0, 0, 1, 1))
    assert str(caught.value) == "there is no round 3 to edit (2 recorded)"
    with pytest.raises(ScoringError) as caught:
        sheet.replace(-1, result(0, 0, 1, 1))
    assert str(caught.value) == "there is no round 0 to edit (2 recorded)"
    assert sheet.totals == (10, 50, 60) and len(sheet.history) == 2
    sheet.undo_last()
    sheet.undo_last()
    with pytest.raises(ScoringError) as caught:
        sheet.undo_last()
    assert str(caught.value) == "there is no round to undo"
    assert sheet.history == () and sheet.totals == (0, 0, 0)


def test_a_finished_game_refuses_another_round_in_the_words_the_scoreboard_looks_up() -> None:
    sheet = Scoresheet(ScoringSettings(target=100), 2, results=[result(0, 0, 100)])
    assert sheet.is_over
    with pytest.raises(ScoringError) as caught:
        sheet.record(result(1, 5, 0))
    assert str(caught.value) == "the game is over: no more rounds can be recorded"
    assert len(sheet.history) == 1 and sheet.totals == (100, 0)


@pytest.mark.parametrize(
    ("settings", "players", "names", "message", "text"),
    [
        (ScoringSettings(mode="partners"), 5, None,
         "partners (fixed) needs exactly 4 players, not 5",
         ErrorText("{mode} ({partners}) needs exactly {required} players, not {players}",
                   {"mode": "partners", "partners": "fixed", "required": 4, "players": 5})),
        (ScoringSettings(mode="partners", partners="two-tables"), 4, None,
         "partners (two-tables) needs exactly 8 players, not 4", None),
        (ScoringSettings(), 1, None, "a game has 2 to 10 players, not 1",
         ErrorText("a game has {least} to {most} players, not {players}",
                   {"least": 2, "most": 10, "players": 1})),
        (ScoringSettings(), 11, None, "a game has 2 to 10 players, not 11", None),
        (ScoringSettings(), 3, ["Ann", "Bo"], "3 players but 2 names", None),
    ],
)
def test_a_sheet_for_the_wrong_table_is_refused_in_words(
    settings: ScoringSettings, players: int, names: list[str] | None, message: str,
    text: ErrorText | None,
) -> None:
    """The set-up screen shows these (translated by template, with the values filled in)."""
    with pytest.raises(ScoringError) as caught:
        Scoresheet(settings, players, names=names)
    assert str(caught.value) == message
    assert isinstance(caught.value.text, ErrorText)
    if text is not None:
        assert caught.value.text == text


def test_a_sheet_prints_as_the_call_that_rebuilds_it() -> None:
    """A sheet's repr is what pytest shows in a failing assertion and a log line shows: the
    settings, seats, names (only when it has them) and results, the arguments that rebuild it."""
    settings = ScoringSettings(target=100)
    entries = [result(1, 40, 0, 7)]
    named = Scoresheet(settings, 3, names=["Ann", "Bo", "Cy"], results=entries)
    assert repr(named) == (
        f"Scoresheet({settings!r}, players=3, names=['Ann', 'Bo', 'Cy'], results={entries!r})")
    unnamed = Scoresheet(settings, 3, results=entries)
    assert repr(unnamed) == f"Scoresheet({settings!r}, players=3, results={entries!r})"
    assert repr(Scoresheet(settings, 2)) == f"Scoresheet({settings!r}, players=2, results=[])"


@pytest.mark.parametrize(
    ("spelled", "mode"),
    [
        ("Running tally", "running-tally"),
        ("running_tally", "running-tally"),
        (" Plus / Minus ", "plus-minus"),
        ("CHALLENGE", "challenge"),
    ],
)
def test_modes_as_people_spell_them(spelled: str, mode: str) -> None:
    assert ScoringSettings(mode=spelled).mode == mode  # type: ignore[arg-type]


@pytest.mark.parametrize("spelled", ["two tables", "two_tables", "Two-Tables"])
def test_two_tables_spelled_freely_still_gets_its_28_hands(spelled: str) -> None:
    settings = ScoringSettings.model_validate({"mode": "Partners", "partners": spelled})
    assert settings.partners == "two-tables"
    assert settings.rounds == 28 and settings.target is None


@pytest.mark.parametrize(("field", "value"), [("mode", 3), ("mode", None), ("partners", 2.5)])
def test_a_mode_that_is_not_a_word_is_refused_naming_the_field(field: str, value: object) -> None:
    """A damaged settings file (a number where a mode's name belongs) gets pydantic's message
    naming the field, not a traceback from the spelling clean-up."""
    with pytest.raises(ValidationError) as caught:
        ScoringSettings.model_validate({field: value})
    assert caught.value.errors()[0]["loc"] == (field,)


def test_unknown_mode_names_the_field() -> None:
    with pytest.raises(ValidationError, match="mode"):
        ScoringSettings(mode="hero")  # type: ignore[arg-type]
