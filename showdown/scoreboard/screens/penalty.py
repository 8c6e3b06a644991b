"""The penalty picker: why, then who. The table penalises a player for breaking a table rule
(002's silence after a 2 and slap after a 9 in Killer UNO, 003's advice and wrong card, and a
missing UNO call caught, which costs the rules' UNO penalty); only the reasons the game's rules
have are offered. A tap on the player records it at once and goes
back to the table, where a banner says what was recorded, with Undo.
"""

from __future__ import annotations

from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.view import TableView
from showdown.scoreboard.vocabulary import penalty_name, player_name
from showdown.scoreboard.widgets import Button, Label, Widget

COLUMNS = 5
"""Players per row of the picker: ten players in two rows."""
REASON_ROWS = 2
"""Rows of reasons: two columns of up to four (each wide enough for its words), three beyond
that (Killer UNO's five), so the players keep their room under them."""


class PenaltyScreen(Screen):
    """Pick the reason, then the player who draws."""

    name = "penalty"
    nav = False
    banner_area = pygame.Rect(0, 0, 800, 52)
    """Over the title."""

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.reason: str | None = None

    def entered(self, view: TableView) -> None:
        """Nothing chosen yet (a single reason is chosen already)."""
        reasons = view.penalty_reasons
        self.reason = reasons[0][0] if len(reasons) == 1 else None

    def _record(self, seat: int) -> None:
        if self.reason is not None and self.ui.command(self.ui.port.record_penalty, seat,
                                                       self.reason):
            self.ui.go("table")

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        # TRANSLATORS: the title of the penalty picker (a table rule broken: a player draws).
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 48), _("Penalty"), 32, theme.ACCENT,
                  bold=True, align="left"),
            Label("why", pygame.Rect(8, 56, 784, 36), _("Why?"), 24, theme.TEXT_DIM,
                  align="left"),
        ]
        reasons = view.penalty_reasons
        cards = dict(reasons)
        columns = max(2, -(-len(reasons) // REASON_ROWS))
        pitch = 792 // columns
        for i, (reason, _count) in enumerate(reasons):
            row, col = divmod(i, columns)
            found.append(Button(f"reason:{reason}", pygame.Rect(8 + col * pitch, 96 + row * 64,
                                                                pitch - 8, 56),
                                penalty_name(reason), partial(setattr, self, "reason", reason),
                                selected=reason == self.reason, colour=theme.PANEL_LIGHT,
                                size=24))
        top = 96 + 64 * -(-len(reasons) // columns)
        if self.reason is None:
            ask = _("Who draws?")
        else:
            ask = ngettext("Who draws {count} card?", "Who draws {count} cards?",
                           cards.get(self.reason, 0)).format(count=cards.get(self.reason, 0))
        found.append(Label("who", pygame.Rect(8, top, 784, 36), ask, 24, theme.TEXT_DIM,
                           align="left"))
        players = view.players
        rows = max(1, -(-len(players) // COLUMNS))
        across = min(COLUMNS, max(1, len(players)))
        width = (784 - 8 * (across - 1)) // across
        top += 40
        height = (404 - top - 8 * (rows - 1)) // rows
        for seat, player in enumerate(players):
            row, col = divmod(seat, COLUMNS)
            rect = pygame.Rect(8 + col * (width + 8), top + row * (height + 8), width, height)
            found.append(Button(f"player{seat}", rect, player_name(player.name),
                                partial(self._record, seat),
                                enabled=self.reason is not None and not player.eliminated,
                                colour=theme.BUTTON, size=26))
        found.append(Button("cancel", pygame.Rect(592, 412, 200, 60), _("Cancel"),
                            lambda: self.ui.go("table"), colour=theme.PANEL_LIGHT, size=24))
        return found
