"""A list to choose from, one tap: every choice by its name with a line on what it changes, the
current one marked. Set-up asks it for the rules and the scoring (:meth:`ChooseScreen.ask_for`),
so nobody cycles through seven values to find one, nor overshoots and goes round again.

Seven choices and Cancel fill a grid of two columns and four rows, each box about 390 by 100
design pixels (large targets): the name on top, its line under it on up to two lines, in every
language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _
from showdown.scoreboard.screens.base import Screen, Ui, Words
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Choice, Label, Widget

COLUMNS = 2
ROWS = 4
"""The grid: seven choices and Cancel (a list of more would need smaller boxes)."""
TOP = 56
"""Design y of the grid, under the title."""
GAP = 4


@dataclass(frozen=True)
class Option:
    """One choice: the key it is stored by, its name and its line, translated when drawn."""

    key: str
    name: Words
    line: Words


@dataclass(frozen=True)
class ChoiceRequest:
    """What the list is asked for: its title, the choices, the current one, what to do with the
    one tapped, and the screen to go back to (after a choice or Cancel)."""

    title: Words
    options: tuple[Option, ...]
    current: str
    done: Callable[[str], object]
    back: str


class ChooseScreen(Screen):
    """Choose one of a list with one tap, each choice explained."""

    name = "choose"
    nav = False
    banner_area = pygame.Rect(0, 0, 800, 52)
    """Over the title."""

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.request: ChoiceRequest | None = None

    def ask_for(self, request: ChoiceRequest) -> None:
        """Show this list (the caller then goes to this screen)."""
        self.request = request

    def _choose(self, key: str) -> None:
        request = self.request
        if request is None:
            return
        request.done(key)
        self.ui.go(request.back)

    def _cancel(self) -> None:
        self.ui.go(self.request.back if self.request is not None else "setup")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        request = self.request
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 48), "" if request is None else request.title(),
                  32, theme.ACCENT, bold=True, align="left"),
        ]
        options = () if request is None else request.options
        width = (784 - GAP * (COLUMNS - 1)) // COLUMNS
        height = (472 - TOP - GAP * (ROWS - 1)) // ROWS
        for index in range(COLUMNS * ROWS):
            row, col = divmod(index, COLUMNS)
            rect = pygame.Rect(8 + col * (width + GAP), TOP + row * (height + GAP), width,
                               height)
            if index < len(options):
                option = options[index]
                found.append(Choice(f"choice:{option.key}", rect, option.name(), option.line(),
                                    partial(self._choose, option.key),
                                    selected=request is not None
                                    and option.key == request.current))
            elif index == COLUMNS * ROWS - 1:
                found.append(Button("cancel", rect, _("Cancel"), self._cancel,
                                    colour=theme.PANEL, size=26))
        return found
