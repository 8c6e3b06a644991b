"""``showdown sim games`` plays whole games through the unit and the session, and reports them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from showdown.app.cli import main
from showdown.game.journal import Journal
from showdown.game.session import Session


def test_games_reach_their_target_and_the_figures_add_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "games.db"
    code = main(["sim", "games", "--count", "2", "--players", "3", "--seed", "5",
                 "--target", "200", "--db", str(db), "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    assert figures["games"] == figures["games_reaching_target"] == 2
    assert figures["target"] == 200
    assert sum(figures["winners_by_seat"].values()) >= 2
    assert set(figures["winners_by_seat"]) == {"0", "1", "2"}
    assert figures["integrity_check"] == "ok"
    assert figures["showdowns"] > 0 and figures["rounds"] >= 2 and figures["seconds"] > 0
    with Journal.open(db) as journal:
        games = journal.games()
        assert len(games) == 2
        states = [Session(journal, game_id=g.id).state for g in games]
    assert all(s is not None and s.is_over for s in states)
    assert sum(len(s.showdowns) for s in states if s) == figures["showdowns"]
    assert all(sd.source == "unit" for s in states if s for sd in s.showdowns)


def test_same_seed_same_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for n in range(2):
        main(["sim", "games", "--count", "1", "--players", "2", "--seed", "9", "--target", "150",
              "--db", str(tmp_path / f"{n}.db"), "--json"])
        figures = json.loads(capsys.readouterr().out)
        del figures["seconds"]
        runs.append(figures)
    assert runs[0] == runs[1]


def test_readable_summary_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "games", "--count", "1", "--players", "2", "--target", "100"]) == 0
    out = capsys.readouterr().out
    assert "1 games (1 reached 100)" in out and "journal integrity: ok" in out


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--count", "0"], "argument --count: must be 1 to"),
        (["--players", "11"], "argument --players: must be 2 to 10"),
        (["--preset", "poker"], "unknown preset"),
        (["--target", "-5"], "argument --target: must be 1 to"),
    ],
)
def test_bad_options_are_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(["sim", "games", *argv])
    except SystemExit as exit_:  # refused by argparse, before the command starts
        code = exit_.code
    assert code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_table_resumed_with_another_seed_replays_the_open_round_as_it_was_dealt(
    tmp_path: Path,
) -> None:
    """`run --sim --seed 2` on a game started with seed 1: the open round is dealt again with the
    game's own seed, so the showdowns already recorded fit it and the game plays on to its end."""
    from showdown.game.journal import Journal
    from showdown.game.session import Session
    from showdown.playtest.bot_table import BotTable, ShowdownCall, TableStopped, coin_referee

    settle = coin_referee(1)
    settled: list[str] = []

    def stops_after_three(call: ShowdownCall) -> object:
        if len(settled) == 3:
            raise TableStopped
        settled.append(call.showdown_id)
        return settle(call)

    with Journal.open(tmp_path / "seeds.db") as journal:
        session = Session(journal)
        first = BotTable(session, stops_after_three, seed=1, players=3)  # type: ignore[arg-type]
        with pytest.raises(TableStopped):
            first.play_game()
        state = session.state
        assert state is not None and len(state.showdowns) == 3 and not state.is_over
        for other_seed in (2, 3):
            again = BotTable(Session(journal), coin_referee(other_seed), seed=other_seed,
                             players=3)
            assert again.game_seed(state.game_id) == 1
        final = BotTable(session, coin_referee(2), seed=2, players=3).play_game()
        assert final.is_over and final.winners
        assert [s.showdown_id for s in final.showdowns[:3]] == settled


def test_a_killer_uno_table_records_its_penalties(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """002's Killer UNO at a simulated table: the bots jump in and the table penalises silence
    after a 2 and the slowest slap after a 9, each recorded in the session like a person's tap;
    played again from the same seed, the same penalties."""
    runs = []
    for n in range(2):
        db = tmp_path / f"killer{n}.db"
        code = main(["sim", "games", "--count", "1", "--players", "3", "--seed", "5",
                     "--target", "150", "--preset", "killer", "--db", str(db), "--json"])
        assert code == 0 and json.loads(capsys.readouterr().out)["integrity_check"] == "ok"
        with Journal.open(db) as journal:
            state = Session(journal).state
        assert state is not None and state.is_over and state.preset == "killer"
        runs.append([(p.round, p.player, str(p.reason), p.cards) for p in state.penalties])
    assert runs[0] == runs[1]
    assert {reason for _round, _player, reason, _cards in runs[0]} == {"silence", "slap"}
    assert {cards for *_rest, cards in runs[0]} == {2}
