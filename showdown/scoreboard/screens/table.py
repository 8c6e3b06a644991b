"""The live table: every player's total, a bar toward the target, the dealer, the direction of
play and who is at a paddle; in 002's hero and mean scoring each player's pigs too. This is what
the scoreboard shows most of the evening. Penalty, under the players, opens the picker of the
table penalties the game's rules have (:mod:`.penalty`)."""

from __future__ import annotations

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.screens.base import CONTENT_BOTTOM, Screen, Ui
from showdown.scoreboard.view import Stage, TableView
from showdown.scoreboard.vocabulary import pig_count, player_name
from showdown.scoreboard.widgets import Bar, Button, Canvas, Custom, Label, Widget

HEADER = 52
FOOTER = 56
"""Under the players: the Penalty button, and how the game ends where it is agreed."""


def game_end(view: TableView) -> str:
    """How the game ends, where a number of pigs or rounds was agreed ("" otherwise)."""
    pigs, rounds = view.pig_limit, view.round_limit
    if pigs is not None and rounds is not None:
        return _("The game ends at {pigs} or after {rounds}").format(
            pigs=pig_count(pigs),
            rounds=ngettext("{count} round", "{count} rounds", rounds).format(count=rounds))
    if pigs is not None:
        return ngettext("The game ends at {count} pig", "The game ends at {count} pigs",
                        pigs).format(count=pigs)
    if rounds is not None:
        return ngettext("The game ends after {count} round", "The game ends after {count} rounds",
                        rounds).format(count=rounds)
    return ""


def direction_arrow(canvas: Canvas, box: pygame.Rect, clockwise: bool) -> None:
    """A drawn arrow (fonts differ in their arrow glyphs): right for clockwise, left otherwise."""
    canvas.surface.fill(theme.BACKGROUND, canvas.rect(box.inflate(0, 20)))
    real = canvas.rect(box)
    mid = real.centery
    shaft = canvas.layout.px(6)
    head = real.height // 2
    if clockwise:
        pygame.draw.rect(canvas.surface, theme.ACCENT,
                         (real.left, mid - shaft // 2, real.width - head, shaft))
        tip = [(real.right, mid), (real.right - head, mid - head), (real.right - head, mid + head)]
    else:
        pygame.draw.rect(canvas.surface, theme.ACCENT,
                         (real.left + head, mid - shaft // 2, real.width - head, shaft))
        tip = [(real.left, mid), (real.left + head, mid - head), (real.left + head, mid + head)]
    pygame.draw.polygon(canvas.surface, theme.ACCENT, tip)


class TableScreen(Screen):
    """Totals, progress, dealer, direction, showdown seats.

    The direction of play is the table's to tell (a Reverse card is played on the table, not
    on the unit): tapping it flips it, and each new round starts clockwise again.
    """

    name = "table"
    banner_area = pygame.Rect(0, 0, 466, 52)
    """Over the target and the round number: news comes after every entry, and the totals
    stay in sight while it is up."""

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.clockwise = True
        self._round: tuple[int, int] | None = None
        """The game and round the direction was set for: another starts from the view's."""

    def _flip(self) -> None:
        self.clockwise = not self.clockwise

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        found: list[Widget] = []
        if view.uses_pigs:
            # TRANSLATORS: hero and mean scoring: reaching this total draws pigs.
            target_text = _("Pig at {target}").format(target=view.target)
        else:
            target_text = _("Target {target}").format(target=view.target) if view.target else ""
        round_text = _("Round {number}").format(number=len(view.rounds) + 1)
        found.append(Label("target", pygame.Rect(8, 4, 250, 44), target_text, 28,
                           theme.ACCENT, bold=True, align="left"))
        found.append(Label("round", pygame.Rect(262, 4, 200, 44), round_text, 28, theme.TEXT))
        if (view.game_id, len(view.rounds)) != self._round:
            self._round = (view.game_id, len(view.rounds))
            self.clockwise = view.clockwise
        clockwise = self.clockwise
        word = _("Clockwise") if clockwise else _("Counter-clockwise")
        found.append(Custom("arrow", pygame.Rect(470, 4, 60, 48), clockwise,
                            lambda c, r: direction_arrow(c, r.inflate(0, -20), clockwise),
                            action=self._flip))
        found.append(Button("direction", pygame.Rect(536, 4, 256, 48), word, self._flip,
                            colour=theme.PANEL_LIGHT, size=24))
        count = max(1, len(view.players))
        area = CONTENT_BOTTOM - HEADER - FOOTER - 4
        row_h = min(72, area // count)
        size = max(20, min(34, int(row_h * 0.62)))
        sd = view.showdown
        at_paddle = {}
        if sd.phase not in (Stage.IDLE, Stage.RESULT, Stage.NO_CONTEST):
            if sd.left:
                at_paddle[sd.left] = _("Left paddle")
            if sd.right:
                at_paddle[sd.right] = _("Right paddle")
        best = max((p.total for p in view.players), default=0)
        leader = (min if view.lowest_wins else max)((p.total for p in view.players), default=0)
        for i, player in enumerate(view.players):
            top = HEADER + i * row_h
            h = row_h - 4
            if i == view.dealer:
                found.append(Label(f"dealer{i}", pygame.Rect(8, top, 88, h), _("Dealer"),
                                   min(size, 22), theme.BACKGROUND, theme.ACCENT, bold=True))
            else:
                found.append(Label(f"dealer{i}", pygame.Rect(8, top, 88, h), "", 20))
            found.append(Label(f"name{i}", pygame.Rect(104, top, 210, h),
                               player_name(player.name), size,
                               theme.TEXT_DIM if player.eliminated else theme.TEXT, bold=True,
                               align="left"))
            found.append(Label(f"total{i}", pygame.Rect(318, top, 110, h), str(player.total),
                               size + 4, theme.ACCENT if player.total == leader and best else
                               theme.TEXT, bold=True, align="right"))
            if player.eliminated:
                fraction, bar_text = 1.0, ""
            elif view.target:
                fraction = player.total / view.target
                bar_text = _("{points} to go").format(points=max(0, view.target - player.total))
            else:  # played for a number of rounds: the bar compares with the leader
                fraction = player.total / best if best > 0 else 0.0
                bar_text = ""
            # A bar two thirds of its row, but never too low for its words (16 px text is 23
            # px high): at ten players it takes nearly the whole row. The pigs take its end.
            bar_h = max(h - h // 3, min(h, 28))
            found.append(Bar(f"bar{i}", pygame.Rect(440, top + (h - bar_h) // 2,
                                                    108 if view.uses_pigs else 200, bar_h),
                             fraction, player.colour or theme.PLAYER_COLOURS[
                                 i % len(theme.PLAYER_COLOURS)],
                             bar_text))
            if view.uses_pigs:
                found.append(Label(f"pigs{i}", pygame.Rect(552, top, 88, h),
                                   pig_count(player.pigs), min(size, 22),
                                   theme.TEXT if player.pigs else theme.TEXT_DIM, bold=True))
            if player.eliminated:
                found.append(Label(f"paddle{i}", pygame.Rect(646, top, 146, h),
                                   _("Eliminated"), min(size, 22), theme.TEXT_DIM, bold=True))
                continue
            found.append(Label(f"paddle{i}", pygame.Rect(646, top, 146, h),
                               at_paddle.get(player.name, ""), min(size, 22), theme.BACKGROUND,
                               theme.OK if player.name in at_paddle else theme.BACKGROUND,
                               bold=True))
        top = CONTENT_BOTTOM - FOOTER
        found.append(Label("game-end", pygame.Rect(8, top, 576, FOOTER - 4), game_end(view), 22,
                           theme.TEXT_DIM, align="left"))
        if view.penalty_reasons:
            # TRANSLATORS: the live table's button to record a table penalty (a player draws).
            found.append(Button("penalty", pygame.Rect(592, top, 200, FOOTER - 4), _("Penalty"),
                                lambda: self.ui.go("penalty"), colour=theme.PANEL_LIGHT,
                                size=24))
        return found
