"""``showdown bench seating``'s output: the figures are printed (no time is asserted)."""

from __future__ import annotations

import json

import pytest

from engine.tournament.swiss import SwissSearch
from showdown.app.cli import main
from showdown.app.subcommands.bench_seating import _unproved


def test_bench_seating_prints_both_fields_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "seating", "--players", "13", "--baseline-players", "8", "--rounds", "3",
            "--evenings", "2", "--seed", "4"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["baseline"]["players"], figures["scaled"]["players"]) == (8, 13)
    for field in ("baseline", "scaled"):
        measured = figures[field]
        assert measured["seatings"] == 6 and measured["rounds"] == 3
        assert measured["worst"]["round"] in (1, 2, 3) and measured["worst"]["seconds"] >= 0
        assert set(measured["change_ms"]) == {"remembered", "seated_again"}


def test_bench_seating_refuses_an_event_past_the_largest(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    with pytest.raises(SystemExit):
        main(["bench", "seating", "--players", "65"])
    assert "argument --players: must be 4 to 64" in capsys.readouterr().err


def test_a_rounds_line_says_what_its_seating_is_not_proved() -> None:
    """The log line of a round whose search ran out of work says what was not proved: the
    order only, or the fewest too (with the repeats proved unavoidable)."""
    assert _unproved(SwissSearch((), 5, 5, True)) == ""
    assert _unproved(SwissSearch((), 5, 5, False)) == \
        " (the fewest, not proved the first in ranking order)"
    assert _unproved(SwissSearch((), 6, 5, False)) == \
        " (not proved the fewest: 5 proved unavoidable)"
