"""A simulated game never touches the table's journal: bots play into a journal of their own,
and the command says where."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.app.cli import main
from showdown.game.journal import Journal
from showdown.game.session import Session


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home with nothing configured: the default journal is the one under it."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_DATA_HOME", "SHOWDOWN_CONFIG", "SHOWDOWN_STORAGE__PATH"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def test_a_simulated_run_leaves_the_default_journal_without_a_game(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "--sim", "--headless", "--fast", "--games", "1", "--players", "3"]) == 0
    printed = capsys.readouterr()
    table = home / ".local" / "share" / "showdown" / "showdown.db"
    simulated = table.with_name("showdown-simulated.db")
    # It says where the bots' game went, and that the table's journal is another file.
    assert f"The simulated games are kept in {simulated}" in printed.out
    assert str(table) in printed.out
    assert main(["export", "--list"]) == 0
    assert capsys.readouterr().out == ""
    with Journal.open(simulated) as journal:
        state = Session(journal).state
        assert state is not None and state.is_over


def test_a_simulated_run_goes_where_db_says(home: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    chosen = home / "mine.db"
    assert main(["run", "--sim", "--headless", "--fast", "--games", "1", "--players", "2",
                 "--db", str(chosen)]) == 0
    assert f"The simulated games are kept in {chosen}" in capsys.readouterr().out
    assert main(["export", "--list", "--db", str(chosen)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "\tover\twon by " in line
