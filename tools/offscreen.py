"""What every drawing driver shares, so each holds only its picture: the repository's folders,
its command line and saving what it drew.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pygame

REPO = Path(__file__).resolve().parents[1]
"""The repository's root: the drivers read its configuration examples and write into docs/."""
DOCS = REPO / "docs"


def parser(doc: str | None) -> argparse.ArgumentParser:
    """A command line described by the first paragraph of the driver's docstring."""
    first = (doc or "").strip().split("\n\n", 1)[0]
    return argparse.ArgumentParser(description=" ".join(first.split()))


def save(surface: pygame.Surface, out: Path) -> Path:
    """Write *surface* as a PNG at *out* (its folder made if need be) and say so."""
    out.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(out))
    print(f"wrote {out}")
    return out


def picture_main(doc: str | None, draw: Callable[[], pygame.Surface], default: Path,
                 argv: list[str] | None = None) -> int:
    """The whole command line of a driver that draws one picture: ``[--out PATH]``."""
    command = parser(doc)
    command.add_argument("--out", type=Path, default=default)
    save(draw(), command.parse_args(argv).out)
    return 0
