"""The documentation's screenshots are the screens as they are: drawn again, every one equals the
committed file pixel for pixel (pinned font, fixed sample games), and docs/ holds no other."""

from __future__ import annotations

from pathlib import Path

import pygame

from tools.screenshots.scoreboard import LANGUAGES, render

DOCS = Path(__file__).resolve().parents[3] / "docs" / "scoreboard"
REGENERATE = "run `make screenshots` and look at the changed pictures before committing them"


def _differing_pixels(drawn: Path, committed: Path) -> int:
    """How many pixels of the two pictures differ (all of them if the sizes differ)."""
    new, old = pygame.image.load(str(drawn)), pygame.image.load(str(committed))
    if new.get_size() != old.get_size():
        return new.get_width() * new.get_height()
    new_bytes = pygame.image.tobytes(new, "RGB")
    old_bytes = pygame.image.tobytes(old, "RGB")
    return sum(new_bytes[i:i + 3] != old_bytes[i:i + 3] for i in range(0, len(new_bytes), 3))


def test_every_committed_screenshot_is_what_the_screens_draw_now(tmp_path: Path) -> None:
    written = render(tmp_path)
    names = {path.name for path in written}
    assert LANGUAGES == ("en", "ja")
    assert {"table-en.png", "table-ja.png", "round-ja.png", "chart-en.png", "table-10-en.png",
            "round-10-en.png", "round-zh_CN.png", "gameover-ja.png"} <= names
    committed = {path.name for path in DOCS.glob("*.png")}
    assert committed == names, REGENERATE
    differing = {}
    for path in written:
        if path.read_bytes() != (DOCS / path.name).read_bytes():  # PNG bytes may differ alone
            count = _differing_pixels(path, DOCS / path.name)
            if count:
                differing[path.name] = count
    assert differing == {}, f"pixels differ: {differing}; {REGENERATE}"
