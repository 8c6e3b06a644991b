"""What every screen is: a builder of widgets from the view, with a little local state.

A screen holds only what the players are in the middle of entering (digits on a keypad, the
seat picked on the set-up screen); everything else comes from the :class:`TableView`. Taps run
the widget's action, which either changes that local state or sends a command through the
:class:`Ui`'s port.
"""

from __future__ import annotations

from typing import Protocol

from engine.error_text import ErrorText
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.port import TablePort
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Widget

CONTENT_BOTTOM = 412
"""Screens draw above this design y; the navigation bar sits below it."""


class Ui(Protocol):
    """What a screen may ask of the scoreboard around it."""

    port: TablePort
    cues: CueSettings
    screens: dict[str, Screen]

    def go(self, screen: str) -> None:
        """Show another screen."""
        ...

    def send(self, command: str, *args: object) -> bool:
        """Call a port command by name; a refusal is shown to the players. True if accepted."""
        ...

    def say(self, message: str | ErrorText) -> None:
        """Show a message to the players until their next tap (an :class:`ErrorText` is
        translated when drawn, so it follows a change of language)."""
        ...

    def set_language(self, code: str) -> None:
        """Switch every text to another language, keeping everything else."""
        ...


class Screen:
    """Base of every screen: a name, and widgets built from the view."""

    name = "screen"
    nav = True
    """Whether the navigation bar is shown under this screen."""

    def __init__(self, ui: Ui) -> None:
        self.ui = ui

    def widgets(self, view: TableView) -> list[Widget]:
        """The screen's widgets for this view (design coordinates, above the navigation bar)."""
        raise NotImplementedError

    def entered(self, view: TableView) -> None:
        """Called when the screen is shown; resets any half-finished local entry."""
