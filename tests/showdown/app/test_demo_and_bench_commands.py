"""``showdown demo`` (what ``make run`` plays for now), ``showdown bench engine``'s and
``showdown bench event``'s output shape. No timing is asserted: benchmarks print figures, tests
only check they are printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from engine import build
from showdown.app.cli import main


def test_demo_plays_a_game_to_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "3", "--seed", "2", "--target", "150"]) == 0
    out = capsys.readouterr().out
    assert "Round  1:" in out and "Winner: " in out
    final = int(out.strip().splitlines()[-1].rsplit(" ", 1)[1])
    assert final >= 150


def test_demo_bad_preset_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--preset", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown preset 'nope'" in err and "Traceback" not in err


def test_bench_engine_prints_the_figures_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "bench",
            "engine",
            "--games",
            "3",
            "--players",
            "5",
            "--seed",
            "1",
            "--json",
            "--no-rlcard",
            "--repeat",
            "2",
        ]
    )
    assert code == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 3 and figures["players"] == 5 and figures["repeat"] == 2
    for key in ("seconds", "games_per_s", "actions_per_s", "median_games_per_s"):
        assert figures[key] > 0
    assert figures["games_per_s"] >= figures["median_games_per_s"]  # the fastest of the runs


def _bench_json(capsys: pytest.CaptureFixture[str], seed: int) -> dict[str, object]:
    args = ["bench", "engine", "--games", "4", "--players", "3", "--seed", str(seed)]
    assert main([*args, "--json", "--no-rlcard"]) == 0
    figures: dict[str, object] = json.loads(capsys.readouterr().out)
    return figures


def test_bench_engine_digest_names_the_rounds_played(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench`` compares the compiled and the pure engine by this digest: it must repeat
    for the same seed and change with the rounds. It names the build that ran (the one
    installed: tests/engine/test_build.py) and why."""
    first, again, other = (_bench_json(capsys, seed) for seed in (5, 5, 6))
    assert first["digest"] == again["digest"] != other["digest"]
    assert first["engine_build"] == build.running()
    assert first["engine_build_why"] == build.select()[1].why


def test_sim_duels_shows_progress_on_a_terminal_and_keeps_stdout_json() -> None:
    # A lossy serial line can take minutes a duel: whoever watches a terminal sees it moving,
    # while a script reading --json still gets one clean object.
    master, slave = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "showdown", "sim", "duels", "--count", "3", "--json"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, text=True,
            timeout=120, check=True,
        )
        os.set_blocking(master, False)
        shown = os.read(master, 4096).decode()
    finally:
        os.close(master)
        os.close(slave)
    assert json.loads(done.stdout)["duels"] == 3
    assert "3/3" in shown and "#" in shown


def test_bench_event_prints_the_swiss_seating_of_the_field_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Beside the tables' figures, the seating of a Swiss event of ``--swiss-players``: every
    round of its evenings, how many seatings were proved, the worst round and where."""
    args = ["bench", "event", "--tables", "3", "--speed", "50", "--swiss-players", "12",
            "--swiss-evenings", "2"]
    assert main(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["scaled"]["tables"] == 3 and figures["scaled"]["lost"] == 0
    seating = figures["swiss_seating"]
    assert (seating["players"], seating["evenings"], seating["seatings"]) == (12, 2, 20)
    assert (seating["not_proved"], seating["fewest_not_proved"]) == (0, 0)
    assert seating["worst"]["evening"] in (1, 2) and 1 <= seating["worst"]["round"] <= 10

