"""``showdown bench host``'s output: the figures are printed (no time is asserted)."""

from __future__ import annotations

import json

import pytest

from showdown.app.cli import main


def test_bench_host_prints_each_change_now_and_before(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "host", "--players", "12", "--baseline-players", "8", "--rounds", "3"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert (figures["baseline"]["players"], figures["scaled"]["players"]) == (8, 12)
    for field in ("baseline", "scaled"):
        for when in ("now_ms", "before_ms"):
            changes = figures[field][when]
            assert set(changes) == {"entry", "correction", "round_complete"}
            assert all(ms >= 0 for ms in changes.values())
