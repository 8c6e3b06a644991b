"""The rules of who wins, checked for every press timing hypothesis can think of."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason, Verdict, decide

GO = 10_000_000
TIE = 1_000_000

offsets = st.integers(min_value=-3_000_000_000, max_value=3_000_000_000)


@given(st.dictionaries(st.sampled_from(list(Side)), offsets), st.integers(0, 5), st.integers(0, 5))
def test_verdict_invariants(
    presses_after_go: dict[Side, int], left_count: int, right_count: int
) -> None:
    presses = {side: GO + offset for side, offset in presses_after_go.items()}
    counts = {Side.LEFT: left_count, Side.RIGHT: right_count}
    verdict = decide(presses, GO, counts, tie_window_ns=TIE)
    early = {side: at for side, at in presses.items() if at < GO}
    if verdict.winner is not None:
        assert verdict.loser is verdict.winner.other
    if early:
        assert verdict.reason is Reason.FALSE_START
        if verdict.loser is not None:
            assert presses[verdict.loser] == min(early.values()), "the earlier early press loses"
    elif not presses:
        assert verdict.reason is Reason.TIMEOUT and verdict.replay
    elif len(presses) == 2 and abs(presses[Side.LEFT] - presses[Side.RIGHT]) < TIE:
        assert verdict.reason in (Reason.SIDE_COUNT, Reason.TIE)
        if left_count == right_count:
            assert verdict.replay
        else:
            more = Side.LEFT if left_count > right_count else Side.RIGHT
            assert verdict.loser is more, "more cards on your side: you lose"
    else:
        assert verdict.reason is Reason.RACE
        assert presses[verdict.winner] == min(presses.values()), "never the slower player"  # type: ignore[index]


def test_no_go_means_every_press_is_a_false_start() -> None:
    verdict = decide({Side.RIGHT: 5}, None, {}, tie_window_ns=TIE)
    assert (verdict.loser, verdict.reason) == (Side.RIGHT, Reason.FALSE_START)


def test_anticipation_window() -> None:
    verdict = decide(
        {Side.LEFT: GO + 50, Side.RIGHT: GO + 200}, GO, {}, tie_window_ns=1, anticipation_ns=100
    )
    assert (verdict.loser, verdict.reason) == (Side.LEFT, Reason.FALSE_START)


def test_both_early_at_the_same_instant_is_a_false_start_without_a_loser() -> None:
    verdict = decide({Side.LEFT: GO - 5, Side.RIGHT: GO - 5}, GO, {}, tie_window_ns=TIE)
    assert verdict == Verdict(None, None, Reason.FALSE_START) and verdict.replay


def test_presses_exactly_the_tie_window_apart_are_a_race() -> None:
    verdict = decide({Side.LEFT: GO + TIE, Side.RIGHT: GO + 2 * TIE}, GO, {}, tie_window_ns=TIE)
    assert verdict == Verdict(Side.LEFT, Side.RIGHT, Reason.RACE)


def test_a_side_with_no_count_given_counted_no_card() -> None:
    """The counts may name only the sides that counted something."""
    presses = {Side.LEFT: GO + 100, Side.RIGHT: GO + 101}
    assert decide(presses, GO, {Side.RIGHT: 1}, tie_window_ns=TIE) == Verdict(
        Side.LEFT, Side.RIGHT, Reason.SIDE_COUNT)
    assert decide(presses, GO, {Side.LEFT: 1}, tie_window_ns=TIE) == Verdict(
        Side.RIGHT, Side.LEFT, Reason.SIDE_COUNT)
    assert decide(presses, GO, {}, tie_window_ns=TIE) == Verdict(None, None, Reason.TIE)
