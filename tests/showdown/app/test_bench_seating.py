"""``showdown bench seating``'s output: the figures are printed (no time is asserted)."""

from __future__ import annotations

import json

import pytest

from showdown.app.cli import main


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
