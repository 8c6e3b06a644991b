"""One command does not pay for every other: `showdown export` imports neither the event's host
and brokers nor the simulated event (every command imported all of it before it printed a
line)."""

from __future__ import annotations

import subprocess
import sys

PROBE = (
    "import sys; from showdown.app.cli import build_parser; build_parser({argv!r}); "
    "print(sorted(m for m in ('amqtt', 'showdown.tournament.host', "
    "'showdown.playtest.tournament_demo') "
    "if m in sys.modules))"
)


def _imported(argv: list[str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def test_export_imports_only_what_export_needs() -> None:
    assert _imported(["export", "--list"]) == "[]"


def test_help_without_a_command_still_lists_every_command() -> None:
    assert "showdown.playtest.tournament_demo" in _imported([])
    assert "showdown.playtest.tournament_demo" in _imported(["--help"])
