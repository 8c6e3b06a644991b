"""``showdown run --sim`` plays the seeds' house rules end to end on the scoreboard: the bots play
002's Killer UNO (``--preset killer``) in its hero or mean scoring (``--scoring``, ``--pigs``,
``--rounds``), the table's penalties and the pigs reach the journal, the terminal and the
screens. Seed: ``002_2cf2187f47789488.txt``."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.rules import PenaltyReason
from engine.scoring import ScoringMode, ScoringSettings
from showdown.app.cli import main
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.widgets import Label
from showdown.tournament.outbox import tournament_file


def test_killer_uno_in_hero_scoring_plays_on_the_scoreboard_to_its_pigs_seed_002(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # a window the tests can open, on purpose
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    db = tmp_path / "sim.db"
    code = main(["run", "--sim", "--fast", "--games", "1", "--players", "4", "--seed", "5",
                 "--preset", "killer", "--scoring", "hero", "--pigs", "2", "--db", str(db)])
    assert code == 0
    out = capsys.readouterr().out
    assert "(killer rules, hero scoring)" in out and "on the scoreboard" in out
    assert "  penalty: " in out and "; pigs: " in out.splitlines()[-1]
    with Journal.open(db) as journal:
        session = Session(journal)
        state = session.state
        assert state is not None and state.is_over and state.preset == "killer"
        assert state.scoring == ScoringSettings(mode=ScoringMode.HERO, target=500, pigs=2)
        assert max(state.pigs.values()) == 2
        reasons = {penalty.reason for penalty in state.penalties}
        assert {PenaltyReason.SILENCE, PenaltyReason.SLAP} <= reasons
        # The scoreboard opened over that journal shows what was played: Game over by pigs.
        board = Scoreboard(SessionPort(session))
        try:
            assert board.current == "gameover"
            board.frame()
            shown = {w.id: w.text for w in board.widgets() if isinstance(w, Label)}
            fewest = min(state.pigs.values())
            assert shown["pigs0"] == f"{fewest} pig" + ("" if fewest == 1 else "s")
            board.go("history")
            rows = [w.text for w in board.widgets()  # type: ignore[attr-defined]
                    if w.id.startswith("row")]
            assert any(row.startswith("Penalty: ") for row in rows), rows
        finally:
            board.close()


def test_mean_scoring_to_a_number_of_rounds_seed_002(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sim.db"
    assert main(["run", "--sim", "--headless", "--fast", "--games", "1", "--players", "3",
                 "--preset", "house", "--scoring", "mean", "--rounds", "2", "--db",
                 str(db)]) == 0
    capsys.readouterr()
    with Journal.open(db) as journal:
        state = Session(journal).state
        assert state is not None and state.is_over and len(state.rounds) == 2
        assert state.scoring == ScoringSettings(mode=ScoringMode.MEAN, target=100, rounds=2)


@pytest.mark.parametrize(("arguments", "said"), [
    (["--scoring", "hero"], "hero scoring ends at an agreed number of pigs or rounds: give "
                            "--pigs, --rounds or both"),
    (["--pigs", "3"], "--pigs counts the pigs of hero and mean scoring: add --scoring hero or "
                      "--scoring mean"),
    (["--scoring", "heroic", "--pigs", "3"], "argument --scoring: invalid choice: 'heroic'"),
    (["--scoring", "mean", "--pigs", "0"], "argument --pigs"),
    (["--scoring", "mean", "--rounds", "1" + "0" * 30], "argument --rounds"),
    (["--scoring", "challenge", "--rounds", "5"], "--scoring challenge: Challenge UNO is played "
                                                  "until one player is left, not for rounds"),
    (["--event", "K7QD3MPA@127.0.0.1", "--scoring", "hero", "--pigs", "2"],
     "an event's games are scored the way its host set the event up: leave out --scoring and "
     "--rounds with --event"),
])
def test_a_scoring_the_table_cannot_play_is_one_line_and_nothing_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], said: str
) -> None:
    db = tmp_path / "sim.db"
    try:
        code = main(["run", "--sim", "--headless", "--fast", "--games", "1", "--db", str(db),
                     *arguments])
    except SystemExit as stopped:  # argparse's own refusal
        code = stopped.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert not db.exists()


def test_a_journal_that_joined_an_event_refuses_a_scoring_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A table that joined an event reconnects by itself: --scoring would be silently ignored
    there, so it is refused in one line naming the journal, and the journal is left as it was."""
    db = tmp_path / "sim.db"
    Journal.open(db).close()
    tournament_file(db).write_text("{}")
    before = db.read_bytes()
    code = main(["run", "--sim", "--headless", "--fast", "--games", "1", "--db", str(db),
                 "--scoring", "mean", "--rounds", "2"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"{db} is a table of an event: an event's games are scored the way its host set " \
           "the event up" in err and "Traceback" not in err
    assert db.read_bytes() == before and tournament_file(db).read_text() == "{}"
