"""The command line speaks to people: help lists the groups, bad usage is a message not a trace."""

import pytest

from showdown.app.cli import main


def test_help_lists_groups(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "bench" in out
    assert "sim" in out


def test_group_without_subcommand_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 2
    assert "usage: showdown bench" in capsys.readouterr().out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
