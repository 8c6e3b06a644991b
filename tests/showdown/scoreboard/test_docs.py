"""The documentation's screenshots: the generator runs, and docs/ holds every one it makes."""

from __future__ import annotations

from pathlib import Path

from showdown.scoreboard.screenshots import LANGUAGES, render

DOCS = Path(__file__).resolve().parents[3] / "docs" / "scoreboard"


def test_the_generator_draws_every_main_screen(tmp_path: Path) -> None:
    written = render(tmp_path, ("en",))
    names = {path.name for path in written}
    assert {"table-en.png", "showdown-go-en.png", "round-en.png", "chart-en.png"} <= names
    assert all(path.stat().st_size > 5_000 for path in written)
    committed = {path.name for path in DOCS.glob("*-en.png")}
    assert committed == names, "run: .venv/bin/python -m showdown.scoreboard.screenshots"
    assert {path.name.replace("-en.", "-ja.") for path in written} <= {
        path.name for path in DOCS.glob("*.png")}
    assert LANGUAGES == ("en", "ja")
