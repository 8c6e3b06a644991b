"""What every screen is: a builder of widgets from the view, with a little local state.

A screen holds only what the players are in the middle of entering (digits on a keypad, the
seat picked on the set-up screen); everything else comes from the :class:`TableView`. Taps run
the widget's action, which either changes that local state or runs one of the :class:`Ui`'s
port's commands (:meth:`Ui.command`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, Protocol

import pygame

from engine.error_text import ErrorText
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.port import TablePort, TournamentDoor
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Widget

Args = ParamSpec("Args")
"""The arguments of the port command :meth:`Ui.command` runs, as that command declares them."""

CONTENT_BOTTOM = 412
"""Screens draw above this design y; the navigation bar sits below it."""


Words = Callable[[], str]
"""Text computed when drawn, so it follows a change of language."""


@dataclass(frozen=True)
class Question:
    """A choice the players confirm before something is lost or overruled: a modal panel with
    the question and two buttons (the safe one on the left)."""

    text: Words
    yes: Words
    on_yes: Callable[[], object]
    no: Words


class Ui(Protocol):
    """What a screen may ask of the scoreboard around it."""

    port: TablePort
    cues: CueSettings
    screens: dict[str, Screen]
    tournament_door: TournamentDoor | None
    """How this table joins an event from Set-up (None: it cannot, headless or at the host)."""
    clock: Callable[[], float]
    """The scoreboard's clock, in seconds (a test's own): how long since a tap, a banner."""

    def notify(self, note: object = None) -> None:
        """Something changed (from any thread): draw again soon. Never blocks."""
        ...

    def go(self, screen: str) -> None:
        """Show another screen."""
        ...

    def command(self, action: Callable[Args, None], *args: Args.args,
                **kwargs: Args.kwargs) -> bool:
        """Run ``action``, one of :attr:`port`'s commands (``ui.command(ui.port.undo)``), with
        its arguments, checked by mypy against the command's own signature; a refusal is shown
        to the players, an accepted command redraws. True if accepted."""
        ...

    def say(self, message: str | ErrorText) -> None:
        """Show a message to the players until their next tap (an :class:`ErrorText` is
        translated when drawn, so it follows a change of language)."""
        ...

    def set_language(self, code: str) -> None:
        """Switch every text to another language, keeping everything else."""
        ...

    def notice(self, text: Words, action: tuple[Words, Callable[[], object]] | None) -> None:
        """Tell the players what just happened, with a button (Redo) if ``action`` is given."""
        ...

    def ask(self, question: Question) -> None:
        """Ask before something is lost or overruled (a modal question)."""
        ...


class Screen:
    """Base of every screen: a name, and widgets built from the view."""

    name = "screen"
    nav = True
    """Whether the navigation bar is shown under this screen."""
    banner_area = pygame.Rect(0, 0, 800, 48)
    """Where a message banner goes on this screen: over words only, never over a control."""

    def __init__(self, ui: Ui) -> None:
        self.ui = ui

    def widgets(self, view: TableView) -> list[Widget]:
        """The screen's widgets for this view (design coordinates, above the navigation bar)."""
        raise NotImplementedError

    def entered(self, view: TableView) -> None:
        """Called when the screen is shown; resets any half-finished local entry."""

    def undone(self, before: TableView, after: TableView) -> None:
        """Called when the table took its last entry back (``before`` and ``after`` the undo):
        a screen that can bring the entry back to be put right does (Round end)."""

    def opened_from(self, screen: str) -> None:
        """Called by the screen that opens this one, before showing it: a screen whose Back
        goes to where it was opened from keeps it (Saved games, from Set-up or Settings)."""
