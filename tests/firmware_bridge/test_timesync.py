"""MCU microseconds to host nanoseconds: unwrapping, the shortest round trip, a bounded slew."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.timesync import ClockSync

PERIOD = 2**30


def test_unwrap_follows_the_counter_across_its_wraparound() -> None:
    sync = ClockSync(30)
    assert sync.unwrap(PERIOD - 10) == PERIOD - 10
    assert sync.unwrap(5) == PERIOD + 5
    assert sync.unwrap(PERIOD - 20) == PERIOD - 20  # a slightly older event, before the wrap
    assert sync.unwrap(100) == PERIOD + 100


def test_the_shortest_round_trip_gives_the_offset() -> None:
    sync = ClockSync(30)
    sync.sample(sent_ns=1_000_000, received_ns=1_900_000, mcu_us=500)  # 0.9 ms round trip
    sync.sample(sent_ns=2_000_000, received_ns=2_100_000, mcu_us=1_550)  # 0.1 ms: better
    assert sync.ready
    # First sample's offset: 1_450_000 - 500_000; best: 2_050_000 - 1_550_000 = 500_000.
    # The applied offset slews from 950_000 toward 500_000 by at most 500 ppm of 1_050 us.
    assert sync.to_host_ns(1_550) == 1_550_000 + 950_000 - 525


def test_an_event_maps_to_the_host_time_it_happened() -> None:
    sync = ClockSync(30)
    host_offset_ns = 7_000_000_000
    for step in range(10):
        mcu_us = 1000 + step * 100_000
        sent = mcu_us * 1000 + host_offset_ns - 50_000
        sync.sample(sent, sent + 100_000, mcu_us)
    assert sync.to_host_ns(950_000) == 950_000_000 + host_offset_ns


@given(
    gaps=st.lists(st.integers(1, 10_000), min_size=2, max_size=40),
    rtts=st.lists(st.integers(0, 3_000_000), min_size=40, max_size=40),
)
def test_the_mapping_is_monotone_and_nearly_rigid(gaps: list[int], rtts: list[int]) -> None:
    sync = ClockSync(30)
    mcu_us = 123
    mapped = []
    for index, gap in enumerate(gaps):
        host = mcu_us * 1000 + 55_000_000
        sync.sample(host - rtts[index] // 2, host + rtts[index] - rtts[index] // 2, mcu_us)
        mapped.append((mcu_us, sync.to_host_ns(mcu_us)))
        mcu_us += gap
    for (us_a, ns_a), (us_b, ns_b) in itertools.pairwise(mapped):
        elapsed_ns = (us_b - us_a) * 1000
        assert ns_b - ns_a >= elapsed_ns - elapsed_ns * 500 // 1_000_000 - 1
        assert ns_b - ns_a <= elapsed_ns + elapsed_ns * 500 // 1_000_000 + 1
