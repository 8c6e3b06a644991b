"""Numbers on the command line: refused in one line before a command starts, the same everywhere."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import ScoringSettings
from showdown.app.arguments import SEED_MAX, chance, int_in_range, seed
from showdown.app.cli import main
from showdown.game.journal import Journal
from showdown.game.messages import SetUpGame
from showdown.game.session import Session


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run", "--sim", "--headless", "--games", "-1"], "argument --games: must be 0 to"),
        (["run", "--sim", "--games", str(10**30)], "argument --games: must be 0 to 100000"),
        (["sim", "games", "--count", str(10**30)], "argument --count: must be 1 to 100000"),
        (["sim", "games", "--count", "0"], "argument --count: must be 1 to"),
        (["sim", "games", "--target", str(10**30)], "argument --target: must be 1 to 5000"),
        (["sim", "games", "--players", "11"], "argument --players: must be 2 to 10"),
        (["sim", "duels", "--count", str(10**30)], "argument --count: must be 1 to 1000000"),
        (["sim", "duels", "--load-threads", "-1"], "argument --load-threads: must be 0 to 64"),
        (["demo", "--target", str(10**30)], "argument --target: must be 1 to 5000"),
        (["sim", "duels", "--load-nice", "99"], "argument --load-nice: must be 0 to 19"),
        (["sim", "duels", "--load-nice", "-1"], "argument --load-nice: must be 0 to 19"),
        (["bench", "engine", "--seed", "-3", "--json"], "argument --seed: must be 0 to"),
        (["bench", "engine", "--games", "0"], "argument --games: must be 1 to 1000000"),
        (["bench", "engine", "--repeat", "0"], "argument --repeat: must be 1 to 1000"),
        (["bench", "engine", "--players", "1"], "argument --players: must be 2 to 10"),
        (["bench", "scoreboard", "--frames", "0"], "argument --frames: must be 1 to 100000"),
        (["bench", "scoreboard", "--idle-seconds", "inf"], "argument --idle-seconds: must be"),
        (["bench", "scoreboard", "--idle-seconds", "-1"], "argument --idle-seconds: must be"),
        (["sim", "duels", "--seed", "-3"], "argument --seed"),
        (["sim", "games", "--seed", "-3"], "argument --seed"),
        (["demo", "--seed", "-3"], "argument --seed"),
        (["run", "--sim", "--seed", str(2**32)], "argument --seed"),
        (["demo", "--seed", "x"], "'x' is not a whole number"),
        (["sim", "duels", "--corrupt", "1"], "argument --corrupt: must be from 0 up to (not"),
        (["sim", "duels", "--drop", "-0.1"], "argument --drop: must be from 0 up to"),
        (["sim", "duels", "--drop", "nan"], "argument --drop: must be from 0 up to"),
        (["sim", "duels", "--corrupt", "5%"], "argument --corrupt: '5%' is not a number"),
        (["sim", "duels", "--delay-ms", "20000"], "argument --delay-ms: must be 0 to 10000"),
        (["sim", "duels", "--reset-every", "-1"], "argument --reset-every: must be 0 or more"),
        (["sim", "duels", "--replug-every", "2.5"], "argument --replug-every: '2.5' is not a"),
    ],
)
def test_bad_numbers_are_refused_in_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


@given(st.integers(min_value=-(2**40), max_value=2**40))
def test_seed_takes_exactly_what_every_random_source_accepts(value: int) -> None:
    if 0 <= value <= SEED_MAX:
        assert seed(str(value)) == value
    else:
        with pytest.raises(Exception, match="must be 0 to"):
            seed(str(value))


@given(st.text(max_size=12) | st.floats(allow_nan=True).map(str))
def test_a_chance_is_a_number_from_0_below_1_or_a_one_line_refusal(text: str) -> None:
    try:
        value = chance(text)
    except argparse.ArgumentTypeError as refusal:
        assert "\n" not in str(refusal)
    else:
        assert 0.0 <= value < 1.0


def test_an_open_range_has_no_upper_limit() -> None:
    assert int_in_range(0)("123456789012") == 123456789012


def test_resuming_an_open_game_says_its_own_players_and_rules_win(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "open.db"
    with Journal.open(db) as journal:
        Session(journal).handle(SetUpGame(
            players=["Ann", "Bob", "Cy", "Di"], preset="showdown",
            scoring=ScoringSettings(target=60),
        ))
    with caplog.at_level(logging.INFO):
        code = main(["run", "--sim", "--headless", "--fast", "--games", "1", "--players", "6",
                     "--preset", "party", "--db", str(db)])
    assert code == 0
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("open game 1 goes on with its own 4 players" in line and "--db" in line
               for line in said), said
    with Journal.open(db) as journal:
        state = Session(journal, game_id=1).state
        assert state is not None and len(state.players) == 4
