"""Hypothesis invariants of the scoresheet, under every mode and partner variation: totals are
the rounds' deltas (since the last pigs, in the pig modes), pigs only grow, the winners follow the
mode's rule, and undo, edits and bad input keep the sheet consistent."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import (
    RoundResult,
    Scoresheet,
    ScoringError,
    ScoringMode,
    ScoringSettings,
)


@st.composite
def sheets(draw: st.DrawFn) -> tuple[ScoringSettings, int]:
    mode = draw(st.sampled_from(list(ScoringMode)))
    if mode is ScoringMode.PARTNERS:
        variation = draw(st.sampled_from(["fixed", "rotating", "two-tables"]))
        if variation == "fixed":
            settings = ScoringSettings(mode=mode, target=draw(st.integers(1, 400)))
        else:
            settings = ScoringSettings(mode=mode, partners=variation)  # type: ignore[arg-type]
        return settings, settings.players_required or 4
    players = draw(st.integers(2, 10))
    target = draw(st.integers(1, 600))
    if mode in (ScoringMode.HERO, ScoringMode.MEAN):
        pigs = draw(st.none() | st.integers(1, 4))
        rounds = draw(st.integers(1, 12) if pigs is None else st.none() | st.integers(1, 12))
        if draw(st.booleans()):  # the sheet's own target: 500 hero, 100 mean
            return ScoringSettings(mode=mode, pigs=pigs, rounds=rounds), players
        return ScoringSettings(mode=mode, target=target, pigs=pigs, rounds=rounds), players
    if mode is ScoringMode.CHALLENGE:
        return ScoringSettings(mode=mode, target=target), players
    rounds = draw(st.none() | st.integers(1, 8))
    if rounds is not None and draw(st.booleans()):
        return ScoringSettings(mode=mode, target=None, rounds=rounds), players
    return ScoringSettings(mode=mode, target=target, rounds=rounds), players


def valid_result(draw: st.DrawFn, sheet: Scoresheet) -> RoundResult:
    """A result the sheet must accept: someone at an open table went out, the others hold cards."""
    table = draw(st.sampled_from(sheet.tables))
    went_out = draw(st.sampled_from(table.seats))
    points = [0] * sheet.players
    for seat in table.seats:
        if seat != went_out:
            points[seat] = draw(st.integers(0, 250))
    return RoundResult(went_out=went_out, hand_points=tuple(points))


@st.composite
def games(draw: st.DrawFn) -> tuple[ScoringSettings, int, list[RoundResult]]:
    settings, players = draw(sheets())
    sheet = Scoresheet(settings, players)
    for _ in range(draw(st.integers(0, 25))):
        if sheet.is_over:
            break
        sheet.record(valid_result(draw, sheet))
    return settings, players, list(sheet.results)


def expected_deltas(mode: ScoringMode, result: RoundResult, seats: tuple[int, ...]) -> int:
    """What a round adds to all totals together, by the rules of each mode."""
    held = sum(result.hand_points)
    if mode in (
        ScoringMode.RUNNING_TALLY,
        ScoringMode.CHALLENGE,
        ScoringMode.STANDARD,
        ScoringMode.HERO,
        ScoringMode.MEAN,
    ):
        return held
    if mode is ScoringMode.PLUS_MINUS:
        return 0  # the winner's plus is everyone else's minus
    raise AssertionError(mode)


@given(games())
def test_totals_are_the_sum_of_the_recorded_rounds(
    game: tuple[ScoringSettings, int, list[RoundResult]],
) -> None:
    settings, players, results = game
    sheet = Scoresheet(settings, players, results=results)
    since = sheet.history
    if settings.uses_pigs:  # totals start again from zero after the last pigs
        resets = [line.index for line in sheet.history if line.reset]
        since = sheet.history[resets[-1] + 1 :] if resets else sheet.history
    for seat in range(players):
        assert sheet.totals[seat] == sum(line.deltas[seat] for line in since)
    for line in sheet.history:
        if settings.mode is ScoringMode.PARTNERS:
            winners = [s for s, d in enumerate(line.deltas) if d]
            assert len(winners) in (0, 2)  # both partners score the same, or nobody scored
            assert len({line.deltas[s] for s in winners}) <= 1
        else:
            assert sum(line.deltas) == expected_deltas(settings.mode, line.result, ())
        assert line.deltas[line.result.went_out] >= 0
    assert sheet.is_over == bool(sheet.winners)


@given(games())
def test_a_finished_game_has_winners_by_its_rule(
    game: tuple[ScoringSettings, int, list[RoundResult]],
) -> None:
    settings, players, results = game
    sheet = Scoresheet(settings, players, results=results)
    assert sorted(sheet.ranking) == list(range(players))
    if not sheet.is_over:
        return
    assert set(sheet.ranking[: len(sheet.winners)]) == set(sheet.winners)
    totals = sheet.totals
    if settings.mode is ScoringMode.CHALLENGE:
        assert len(sheet.winners) == 1 and len(sheet.eliminated) == players - 1
        assert sheet.winners[0] == results[-1].went_out  # won the final hand
    elif settings.uses_pigs:
        pigs = sheet.pigs
        assert {pigs[w] for w in sheet.winners} == {min(pigs)}
        assert settings.rounds == sheet.hands_played or max(pigs) >= (settings.pigs or 0)
    elif settings.lowest_wins:
        assert {totals[w] for w in sheet.winners} == {min(totals)}
    else:
        assert {totals[w] for w in sheet.winners} == {max(totals)}
    with pytest.raises(ScoringError, match="game is over"):
        sheet.record(results[-1])


@given(games())
def test_undo_then_record_again_gives_the_same_sheet(
    game: tuple[ScoringSettings, int, list[RoundResult]],
) -> None:
    settings, players, results = game
    sheet = Scoresheet(settings, players, results=results)
    before = sheet.history
    if not results:
        with pytest.raises(ScoringError):
            sheet.undo_last()
        return
    assert sheet.undo_last() == results[-1]
    assert sheet.history == before[:-1]
    sheet.record(results[-1])
    assert sheet.history == before


@given(games(), st.data())
def test_replace_equals_recording_the_edited_history(
    game: tuple[ScoringSettings, int, list[RoundResult]], data: st.DataObject
) -> None:
    settings, players, results = game
    if not results:
        return
    index = data.draw(st.integers(0, len(results) - 1))
    before = Scoresheet(settings, players, results=results[:index])
    edit = valid_result(data.draw, before)
    edited = [*results[:index], edit, *results[index + 1 :]]
    sheet = Scoresheet(settings, players, results=results)
    try:
        fresh = Scoresheet(settings, players, results=edited)
    except ScoringError:
        with pytest.raises(ScoringError):
            sheet.replace(index, edit)
        assert sheet.results == tuple(results)  # unchanged
        return
    assert sheet.replace(index, edit) == fresh.history[index]
    assert sheet.history == fresh.history and sheet.winners == fresh.winners


@st.composite
def bad_results(draw: st.DrawFn, sheet: Scoresheet) -> RoundResult:
    good = (
        valid_result(draw, sheet)
        if not sheet.is_over
        else RoundResult(went_out=0, hand_points=(0,) * sheet.players)
    )
    points = list(good.hand_points)
    kind = draw(st.sampled_from(["negative", "length", "seat", "went-out-holds", "absent"]))
    if kind == "negative":
        seat = draw(st.sampled_from([s for s in range(sheet.players) if s != good.went_out]))
        points[seat] = draw(st.integers(-500, -1))
    elif kind == "length":
        size = draw(st.integers(0, 12).filter(lambda n: n != sheet.players))
        points = (points * 2)[:size]
    elif kind == "seat":
        return RoundResult(
            went_out=draw(st.integers(sheet.players, 20)), hand_points=good.hand_points
        )
    elif kind == "went-out-holds":
        points[good.went_out] = draw(st.integers(1, 100))
    else:
        outside = [s for s in range(sheet.players) if s not in sheet.active_seats]
        if not outside:
            points[good.went_out] = -1
        else:
            points[draw(st.sampled_from(outside))] = draw(st.integers(1, 100))
    return RoundResult(went_out=good.went_out, hand_points=tuple(points))


@given(games(), st.data())
def test_bad_input_leaves_the_sheet_unchanged(
    game: tuple[ScoringSettings, int, list[RoundResult]], data: st.DataObject
) -> None:
    settings, players, results = game
    sheet = Scoresheet(settings, players, results=results)
    before = (sheet.history, sheet.totals, sheet.active_seats, sheet.is_over)
    bad = data.draw(bad_results(sheet))
    with pytest.raises(ScoringError):
        sheet.record(bad)
    assert (sheet.history, sheet.totals, sheet.active_seats, sheet.is_over) == before
    if results:  # an edit that can never be right changes nothing either
        index = data.draw(st.integers(0, len(results) - 1))
        points = list(results[index].hand_points)
        points[(results[index].went_out + 1) % players] = -1
        with pytest.raises(ScoringError, match=f"round {index + 1}: .*negative"):
            sheet.replace(
                index, RoundResult(went_out=results[index].went_out, hand_points=tuple(points))
            )
        assert (sheet.history, sheet.totals, sheet.active_seats, sheet.is_over) == before


@given(games())
def test_pigs_follow_the_target_and_only_grow(
    game: tuple[ScoringSettings, int, list[RoundResult]],
) -> None:
    """002's pig modes: a round that takes someone to the target draws pigs (hero: on every
    other player; mean: on that player, or on every other one when they land on it exactly),
    every total then goes back to zero, and no total stays at or over the target."""
    settings, players, results = game
    sheet = Scoresheet(settings, players, results=results)
    if not settings.uses_pigs:
        assert sheet.pigs == (0,) * players and all(not line.pigs for line in sheet.history)
        return
    assert settings.target is not None
    previous = (0,) * players
    totals = [0] * players
    for line in sheet.history:
        totals = [t + d for t, d in zip(totals, line.deltas, strict=True)]
        reached = [s for s in range(players) if totals[s] >= settings.target]
        expected = [0] * players
        for seat in reached:
            if settings.mode is ScoringMode.HERO or totals[seat] == settings.target:
                expected = [n + (s != seat) for s, n in enumerate(expected)]
            else:
                expected[seat] += 1
        assert list(line.pigs_drawn) == expected
        assert line.reset == bool(reached)
        if reached:
            totals = [0] * players
        assert list(line.totals) == totals and max(line.totals) < settings.target
        assert line.pigs == tuple(p + d for p, d in zip(previous, expected, strict=True))
        previous = line.pigs
    assert sheet.pigs == previous
