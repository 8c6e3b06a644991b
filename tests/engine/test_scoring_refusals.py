"""What the scorekeeper refuses, in the words the scoreboard shows: who went out must be at a table
still playing the hand (partners at two tables, Challenge UNO's eliminated), Challenge UNO
eliminates at the target and only once, and every refusal names the seat as players count it,
with the player's name ("seat 1 (Ada)")."""

from __future__ import annotations

import pytest

from engine.deck import builtin_deck
from engine.scoring import RoundResult, Scoresheet, ScoringError, ScoringSettings
from engine.tally import DeckValues, HandTally, TallyError, tally_for, tally_round

NAMES = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def result(went_out: int, *points: int) -> RoundResult:
    return RoundResult(went_out=went_out, hand_points=points)


def refused(sheet: Scoresheet, entry: RoundResult) -> str:
    """The refusal's words; the sheet must be unchanged by it."""
    before = (sheet.history, sheet.totals, sheet.eliminated, sheet.tables, sheet.is_over)
    with pytest.raises(ScoringError) as caught:
        sheet.record(entry)
    assert (sheet.history, sheet.totals, sheet.eliminated, sheet.tables, sheet.is_over) == before
    return str(caught.value)


def two_tables_after_the_first_reported() -> tuple[Scoresheet, tuple[int, ...]]:
    """Eight partners at two tables; the first table has reported hand 1. Returns the sheet and
    the first table's seats."""
    sheet = Scoresheet(ScoringSettings(mode="partners", partners="two-tables"), 8, names=NAMES)
    first, second = sheet.tables
    points = [0] * 8
    for seat in first.seats[1:]:
        points[seat] = 5
    sheet.record(RoundResult(went_out=first.seats[0], hand_points=tuple(points)))
    assert sheet.tables == (second,)
    return sheet, first.seats


def test_who_went_out_must_be_at_a_table_still_playing_the_hand() -> None:
    sheet, done = two_tables_after_the_first_reported()
    for seat in done:
        words = refused(sheet, RoundResult(went_out=seat, hand_points=(0,) * 8))
        assert words == f"seat {seat + 1} ({NAMES[seat]}) is not at a table still playing hand 1"
    (playing,) = sheet.tables
    points = [0] * 8
    for seat in playing.seats[1:]:
        points[seat] = 3
    line = sheet.record(RoundResult(went_out=playing.seats[0], hand_points=tuple(points)))
    assert (line.hand, line.table) == (0, 1) and len(sheet.tables) == 2  # hand 2 begins


def test_hands_entered_by_hand_go_out_only_at_a_table_still_playing() -> None:
    """The same through the hand entry (tally): named, and with every seat counted from 1."""
    sheet, done = two_tables_after_the_first_reported()
    deck = DeckValues.of(builtin_deck("classic"))
    (playing,) = sheet.tables
    for seat in done:
        with pytest.raises(TallyError) as caught:
            tally_for(sheet, deck, seat, {s: HandTally(points=5) for s in playing.seats})
        assert str(caught.value) == (
            f"seat {seat + 1} ({NAMES[seat]}) is not at a table still playing hand 1")
    hands = {s: HandTally(points=5) for s in playing.seats[1:]}
    assert tally_for(sheet, deck, playing.seats[0], hands).went_out == playing.seats[0]
    with pytest.raises(TallyError) as caught:
        tally_round(deck, done[0], hands, players=8, seats=playing.seats, names=NAMES)
    assert str(caught.value) == (
        f"seat {done[0] + 1} ({NAMES[done[0]]}) did not play this hand, so cannot have gone out")


def test_an_eliminated_player_cannot_go_out() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4, names=NAMES[:4])
    sheet.record(result(1, 100, 0, 99, 20))
    assert refused(sheet, result(0, 0, 0, 5, 5)) == "seat 1 (Ada) is eliminated"
    assert refused(sheet, result(2, 7, 0, 0, 5)) == (
        "seat 1 (Ada) is eliminated, so holds 0 points, not 7")


def test_challenge_uno_eliminates_at_the_target_exactly_and_once() -> None:
    sheet = Scoresheet(ScoringSettings(mode="challenge", target=100), 4)
    assert sheet.record(result(1, 99, 0, 0, 10)).eliminated == ()  # one short of the target
    assert sheet.record(result(1, 1, 0, 0, 10)).eliminated == (0,)  # 100: out
    line = sheet.record(result(1, 0, 0, 50, 10))
    assert line.eliminated == () and sheet.eliminated == (0,)  # seat 1 is not out again
    assert sheet.active_seats == (1, 2, 3) and not sheet.is_over
    assert sheet.record(result(2, 0, 100, 0, 80)).eliminated == (1, 3)
    assert sheet.is_over and sheet.winners == (2,)


@pytest.mark.parametrize(
    "settings",
    [ScoringSettings(target=100), ScoringSettings(mode="running-tally", target=100),
     ScoringSettings(mode="plus-minus", target=100)],
)
def test_only_challenge_uno_eliminates(settings: ScoringSettings) -> None:
    """Reaching the target ends the other games; no one is shown as out of them (the scoreboard
    greys out, and the all-time statistics count, the eliminated)."""
    sheet = Scoresheet(settings, 3, names=NAMES[:3])
    line = sheet.record(result(1, 120, 0, 130))
    assert sheet.is_over and line.eliminated == () and sheet.eliminated == ()


def test_partners_at_two_tables_reaching_the_target_are_not_eliminated() -> None:
    """The two-table game with an agreed target: a team reaching it at the first table to
    report is not out; the game ends when the hand is complete, at both tables."""
    settings = ScoringSettings(mode="partners", partners="two-tables", target=50)
    sheet = Scoresheet(settings, 8, names=NAMES)
    first, second = sheet.tables
    points = [0] * 8
    for seat in first.seats[1:]:
        points[seat] = 30
    line = sheet.record(RoundResult(went_out=first.seats[0], hand_points=tuple(points)))
    assert line.eliminated == () and sheet.eliminated == () and not sheet.is_over
    sheet.record(RoundResult(went_out=second.seats[0], hand_points=(0,) * 8))
    assert sheet.is_over and sheet.eliminated == ()


@pytest.mark.parametrize(("names", "who"), [(NAMES[:3], "seat 1 (Ada)"), (None, "seat 1")])
def test_a_refusal_about_the_first_seat_names_it_as_players_count(
    names: tuple[str, ...] | None, who: str
) -> None:
    sheet = Scoresheet(ScoringSettings(), 3, names=names)
    assert refused(sheet, result(1, -4, 0, 3)) == f"{who}: points cannot be negative (-4)"
    assert refused(sheet, result(0, 6, 0, 3)) == f"{who} went out, so holds 0 points, not 6"
