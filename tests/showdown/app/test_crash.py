"""Pull the plug: SIGKILL the process keeping the score at random moments, hundreds of times.

Each run is a real child process (forked from this one, so a restart costs milliseconds instead
of a fresh interpreter's imports) that opens the journal, resumes the game and plays on with bots,
writing one line per acknowledged entry to a pipe. It dies by SIGKILL either at a seeded random
SQL statement (inside a transaction, between the commit and the acknowledgement, while opening
the file) or when the parent kills it after a number of acknowledgements (an arbitrary point in
its play). After every death the journal must pass ``PRAGMA integrity_check``, hold every
acknowledged entry exactly once, and resume the same game; at the end the games finish.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import traceback
from collections import Counter
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.messages import RoundRecorded, ShowdownRecorded
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, coin_referee
from showdown.playtest.referee import SimulatedReferee

SEED = 11
ENDLESS = 10**9


def _play(
    db: Path, seed: int, games: int, die_at_statement: int | None, ack_fd: int, *, on_unit: bool
) -> None:
    """The child's whole life: resume, play on, acknowledge, and maybe die mid-statement."""
    statements = 0

    def trace(_sql: str) -> None:
        nonlocal statements
        statements += 1
        if statements == die_at_statement:
            os.kill(os.getpid(), signal.SIGKILL)

    journal = Journal.open(db)
    journal._db.set_trace_callback(trace)  # the only peek inside: where to die
    session = Session(journal)

    def ack(key: str) -> None:
        os.write(ack_fd, f"ACK {key}\n".encode())

    # The quick run settles showdowns with a seeded coin; the soak runs each one on the
    # simulated unit through the real state machine, as ``showdown run --sim`` does.
    referee = SimulatedReferee(seed=seed) if on_unit else coin_referee(seed)
    table = BotTable(
        session, referee, seed=seed, players=3, on_ack=ack, scoring=None, preset_name="showdown",
    )
    while True:
        state = session.state
        finished = 0 if state is None else len(journal.games()) - (0 if state.is_over else 1)
        if finished >= games:
            break
        table.play_game(game_number=len(journal.games()))
    os.write(ack_fd, b"DONE\n")


def _run_child(
    db: Path,
    seed: int,
    games: int,
    die_at_statement: int | None,
    kill_after_acks: int | None,
    *,
    on_unit: bool = False,
) -> tuple[list[str], bool]:
    """Fork one service run; return the keys it acknowledged and whether it finished."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 0
        try:
            os.close(read_fd)
            _play(db, seed, games, die_at_statement, write_fd, on_unit=on_unit)
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    os.close(write_fd)
    acks: list[str] = []
    done = False
    buffered = b""
    with os.fdopen(read_fd, "rb", buffering=0) as pipe:
        while chunk := pipe.read(65536):
            buffered += chunk
            *lines, buffered = buffered.split(b"\n")
            for line in lines:
                text = line.decode()
                if text == "DONE":
                    done = True
                elif text.startswith("ACK "):
                    acks.append(text[4:])
            if kill_after_acks is not None and len(acks) >= kill_after_acks and not done:
                os.kill(pid, signal.SIGKILL)
                kill_after_acks = None
    _, status = os.waitpid(pid, 0)
    if os.WIFEXITED(status):
        assert os.WEXITSTATUS(status) == 0, "the child failed with an exception"
    else:
        assert os.WTERMSIG(status) == signal.SIGKILL
    return acks, done


def _check_journal(db: Path, acked: list[str]) -> tuple[int, bool]:
    """Integrity, each acknowledged entry exactly once, and a clean fold. Returns (game, over)."""
    raw = sqlite3.connect(db)
    try:
        assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = raw.execute("SELECT game_id, entry_key FROM entries WHERE entry_key NOT NULL")
        counts = Counter((row[0], row[1]) for row in rows)
    finally:
        raw.close()
    assert all(n == 1 for n in counts.values())
    keys = Counter(key for _game, key in counts)
    for key in set(acked):
        assert keys[key] == 1, f"acknowledged entry {key} is stored {keys[key]} times"
    with Journal.open(db) as journal:
        state = Session(journal).state
        assert state is not None
        # Every round once, numbered 1..n; every showdown once.
        live = [e for e in state.rounds if isinstance(e, RoundRecorded)]
        assert [r.round for r in live] == list(range(1, len(live) + 1))
        ids = [s.showdown_id for s in state.showdowns if isinstance(s, ShowdownRecorded)]
        assert len(ids) == len(set(ids))
        return state.game_id, state.is_over


def _crash_and_resume(tmp_path: Path, kills: int, seed: int, on_unit: bool = False) -> None:
    db = tmp_path / "showdown.db"
    rng = random.Random(seed)
    acked: list[str] = []
    deaths = 0
    open_game: int | None = None
    while deaths < kills:
        if rng.random() < 0.5:
            acks, done = _run_child(db, seed, ENDLESS, rng.randrange(1, 40), None, on_unit=on_unit)
        else:
            acks, done = _run_child(db, seed, ENDLESS, None, rng.randrange(0, 6), on_unit=on_unit)
        acked.extend(acks)
        if not db.exists():
            assert not acks
            deaths += 0 if done else 1
            continue
        game, over = _check_journal(db, acked)
        if open_game is not None and game != open_game:
            # A new game only starts once the one in progress has ended.
            with Journal.open(db) as journal:
                previous = Session(journal, game_id=open_game).state
                assert previous is not None and previous.is_over
        open_game = None if over else game
        assert not done
        deaths += 1
    # Let it finish the game in progress undisturbed: every game reaches its end.
    with Journal.open(db) as journal:
        games = len(journal.games())
    _acks, done = _run_child(db, seed, games, None, None, on_unit=on_unit)
    assert done
    with Journal.open(db) as journal:
        for row in journal.games():
            state = Session(journal, game_id=row.id).state
            assert state is not None and state.is_over and state.winners
    assert deaths >= kills


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    _crash_and_resume(tmp_path, kills=210, seed=SEED)


@pytest.mark.soak
def test_sigkill_soak(tmp_path: Path) -> None:
    _crash_and_resume(tmp_path, kills=1000, seed=SEED + 1, on_unit=True)
