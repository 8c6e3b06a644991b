"""The retransmission timeout follows measured round trips as RFC 6298 says (SRTT, RTTVAR)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.rto import RetransmitTimeout


def make() -> RetransmitTimeout:
    return RetransmitTimeout(floor_s=0.03, ceiling_s=2.0, initial_s=0.2)


def test_before_any_round_trip_the_initial_timeout() -> None:
    assert make().timeout_s == 0.2


def test_the_first_round_trip_sets_srtt_and_half_of_it_as_rttvar() -> None:
    rto = make()
    rto.sample(0.3)
    assert (rto.srtt_s, rto.rttvar_s) == (0.3, 0.15)
    assert rto.timeout_s == pytest.approx(0.3 + 4 * 0.15)


def test_later_round_trips_are_smoothed_with_the_rfc_gains() -> None:
    rto = make()
    rto.sample(0.3)
    rto.sample(0.1)
    # RTTVAR = 3/4 * 0.15 + 1/4 * |0.3 - 0.1|, then SRTT = 7/8 * 0.3 + 1/8 * 0.1
    assert rto.rttvar_s == pytest.approx(0.1625)
    assert rto.srtt_s == pytest.approx(0.275)
    assert rto.timeout_s == pytest.approx(0.275 + 4 * 0.1625)


def test_a_steady_slow_line_gets_a_timeout_just_above_its_round_trip() -> None:
    rto = make()
    for _ in range(100):
        rto.sample(0.3)
    assert 0.3 < rto.timeout_s < 0.31


def test_a_fast_wire_keeps_the_protocols_floor() -> None:
    rto = make()
    for _ in range(20):
        rto.sample(0.0002)
    assert rto.timeout_s == 0.03


@given(st.lists(st.floats(min_value=0, max_value=60), max_size=40))
def test_the_timeout_stays_between_floor_and_ceiling(round_trips: list[float]) -> None:
    rto = make()
    for rtt in round_trips:
        rto.sample(rtt)
        assert 0.03 <= rto.timeout_s <= 2.0
