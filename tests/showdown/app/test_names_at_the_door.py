"""A name the rule refuses (:mod:`showdown.game.names`) is refused where it is typed, by the real
``showdown`` process, in one line naming the name and the rule, before anything starts.

Before: ``event host --players`` took a 250-character name that a table's game refused (the
table seated with it stopped with a traceback, the event waited for ever), and a
``--table-name`` over 40 characters ended in a pydantic traceback.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from showdown.game.names import NAME_RULE
from tests.showdown.app.test_no_tracebacks import _one_line, _run

LONG = "x" * 250
RLO = "\u202e"


def test_bad_names_are_refused_in_one_line_before_anything_starts(tmp_path: Path) -> None:
    host = ["event", "host", "--dir", str(tmp_path / "event"), "--headless", "--no-http",
            "--no-mdns", "--port", "1"]
    table = ["run", "--sim", "--headless", "--fast", "--db", str(tmp_path / "t1.db"),
             "--event", "ABCDEFGH@127.0.0.1:1"]
    cases = [
        ([*host, "--players", f"Ada,{LONG},Cleo,Dev"],
         f"--players: player name '{'x' * 40}…' (250 characters): longer than 40 characters"),
        ([*host, "--players", f"Ada,Be{RLO}n,Cleo,Dev"],
         "--players: player name 'Be\\u202en': it holds a writing-direction character (U+202E)"),
        ([*host, "--players", "Ada,Ben\tBo,Cleo,Dev"],
         "player name 'Ben\\u0009Bo': it holds a control character (U+0009)"),
        ([*host, "--name", "y" * 81], "--name: the event's name"),
        ([*table, "--table-name", "z" * 41],
         f"argument --table-name: table name '{'z' * 40}…' (41 characters): longer than 40"),
        ([*table, "--table-name", f"Window{RLO}"],
         "argument --table-name: table name 'Window\\u202e': it holds a writing-direction"),
    ]

    def attempt(case: tuple[list[str], str]) -> None:
        argv, says = case
        code, err = _run(argv, timeout=60)
        _one_line(code, err, says)
        last = err.strip().splitlines()[-1]
        assert RLO not in last and "\t" not in last  # the refusal's own line stays as written
        if "--name" not in argv:
            assert last.endswith(f"({NAME_RULE})"), err

    with ThreadPoolExecutor(3) as pool:
        list(pool.map(attempt, cases))
    assert not (tmp_path / "event").exists() and not (tmp_path / "t1.db").exists()
