"""A test's eyes on a running scoreboard: what each changed frame shows, as JSON in a file.

A test that drives the real window with a real pointer (an X server and ``xdotool``) must know
where each control is and what the screen says, without reading pixels back. When the
environment names a file in :data:`ENV_VARIABLE`, the scoreboard writes there, after every frame
that changed, the screen shown, its language, the window's size and X11 window id, and every
widget drawn: its id, its rectangle in window pixels, its words, whether a tap does anything;
the banner and whether it tells news or a refusal; and every text that did not fit its box
since the window opened. The file is replaced whole (written beside it, then renamed), so a reader
never sees half a frame. Without the variable nothing is written and nothing else changes: the
frame drawn is the same either way.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame

from showdown.scoreboard.layout import Layout
from showdown.scoreboard.widgets import Bar, Button, Choice, Custom, Label, Widget

ENV_VARIABLE = "SHOWDOWN_UI_TRACE"
"""The environment variable naming the trace file (unset: no trace)."""


def words(widget: Widget) -> str:
    """What a widget writes: a label's, button's or bar's text; a choice's name and its line;
    a custom painter's strings (those its state holds, one a line: a saved game's two lines, a
    card's name)."""
    if isinstance(widget, Label | Button | Bar):
        return widget.text
    if isinstance(widget, Choice):
        return "\n".join(part for part in (widget.name, widget.line) if part)
    if isinstance(widget, Custom):
        return "\n".join(_strings(widget.state))
    return ""


def _strings(state: Hashable) -> Iterator[str]:
    if isinstance(state, str):
        if state:
            yield state
    elif isinstance(state, tuple):
        for part in state:
            yield from _strings(part)


def tappable(widget: Widget) -> bool:
    """Whether a tap on the widget does something (a disabled button does nothing)."""
    if widget.action is None:
        return False
    return not isinstance(widget, Button) or widget.enabled


@dataclass(frozen=True)
class Frame:
    """What one frame showed, as the trace writes it."""

    number: int
    screen: str
    language: str
    widgets: list[Widget]
    layout: Layout
    size: tuple[int, int]
    """The window's size in pixels."""
    banner: str | None
    """The banner's words, if one is up."""
    news: bool
    """The banner tells what was recorded (not a refusal)."""
    question: bool
    """A question is up (everything else waits for its answer)."""
    overflows: list[str]
    """Every text that did not fit its box since the window opened."""

    def record(self, window: int | None) -> dict[str, Any]:
        """The frame as JSON-ready values, with the window's X11 id."""
        return {
            "frame": self.number,
            "screen": self.screen,
            "language": self.language,
            "window": window,
            "size": list(self.size),
            "question": self.question,
            "banner": None if self.banner is None else {"text": self.banner, "news": self.news},
            "widgets": [self._widget(widget) for widget in self.widgets],
            "overflows": self.overflows,
        }

    def _widget(self, widget: Widget) -> dict[str, Any]:
        real = self.layout.rect(widget.rect)
        return {
            "id": widget.id,
            "kind": type(widget).__name__.lower(),
            "rect": [real.x, real.y, real.width, real.height],
            "text": words(widget),
            "tappable": tappable(widget),
            "selected": bool(getattr(widget, "selected", False)),
        }


class Trace:
    """The trace file, written after each changed frame."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._spare = path.with_name(f".{path.name}.new")

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Trace | None:
        """The trace the environment asks for, if it asks for one."""
        named = environ.get(ENV_VARIABLE, "").strip()
        return cls(Path(named)) if named else None

    def write(self, frame: Frame) -> None:
        """Replace the file with this frame (never half written)."""
        window = pygame.display.get_wm_info().get("window")
        self._spare.write_text(json.dumps(frame.record(
            window if isinstance(window, int) else None), ensure_ascii=False), encoding="utf-8")
        os.replace(self._spare, self.path)
