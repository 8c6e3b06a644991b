"""The trace a test reads the running scoreboard by (``SHOWDOWN_UI_TRACE``): after each frame
that changed, the screen, its controls where the window has them, and their words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.i18n import set_language
from showdown.scoreboard.trace import ENV_VARIABLE
from tests.showdown.scoreboard.helpers import touch


def read(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def shown(frame: dict[str, Any], widget_id: str) -> dict[str, Any]:
    found: dict[str, Any] = next(w for w in frame["widgets"] if w["id"] == widget_id)
    return found


@pytest.fixture
def traced(table: SessionPort, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
           ) -> Iterator[tuple[Scoreboard, Path]]:
    path = tmp_path / "trace.json"
    monkeypatch.setenv(ENV_VARIABLE, str(path))
    set_language("en")
    board = Scoreboard(table, (400, 240))
    board.frame()
    yield board, path
    board.close()


def test_each_changed_frame_is_traced_with_its_controls_where_the_window_draws_them(
        traced: tuple[Scoreboard, Path]) -> None:
    board, path = traced
    first = read(path)
    assert first["screen"] == "setup" and first["size"] == [400, 240]
    seat = shown(first, "seat0")
    # design (8, 120, 184, 52) in a window of half the design size
    assert seat["rect"] == [4, 60, 92, 26] and seat["text"] == "Player 1 (deals)"
    assert seat["tappable"] and seat["selected"] and seat["kind"] == "button"
    assert not shown(first, "up")["tappable"]  # Earlier, with the first seat chosen
    touch(board, "more")
    after = read(path)
    assert after["frame"] > first["frame"]
    assert shown(after, "count")["text"] == "5 players"
    assert after["banner"] is None and not after["question"] and after["overflows"] == []


def test_a_refusal_is_traced_as_a_banner_that_is_not_news(
        traced: tuple[Scoreboard, Path]) -> None:
    board, path = traced
    touch(board, "start")
    board.go("round")
    touch(board, "save")  # nobody went out yet: refused
    frame = read(path)
    assert frame["screen"] == "round"
    assert frame["banner"] == {"text": "Tap who went out, then Went out", "news": False}


def test_without_the_variable_nothing_is_written(table: SessionPort, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    board = Scoreboard(table)
    try:
        board.frame()
        touch(board, "more")
        assert board.trace is None
        assert not list(tmp_path.glob("*.json"))
    finally:
        board.close()
