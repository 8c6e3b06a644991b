"""The end of a round: who went out, and for every other player the points they hold, typed on
a keypad or tapped card by card (with the running sum shown). Also used to edit a past round.

Who went out is asked first and answered with one tap on the player: while nobody is marked as
out, a tap on a player marks them (a banner says so, with Undo) and moves on to the next player
who needs a number. Afterwards a tap selects a player, and Went out moves the mark to them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import pygame

from engine.error_text import ErrorText
from showdown.scoreboard import theme
from showdown.scoreboard.cards import card_text, paint_card
from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.port import HandInput
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.theme import CARD_COLOURS
from showdown.scoreboard.view import CardKind, RoundView, TableView
from showdown.scoreboard.vocabulary import colour_name, kind_name, player_name
from showdown.scoreboard.widgets import Button, Custom, Label, Widget

MAX_DIGITS = 4
WORD_ROWS = 2
"""Rows of word cards (Skip, Wild, ...) between the number cards and Save: as many columns as
the deck's kinds need, at least three, so the cards are as wide as they can be."""
COLOURS = tuple(CARD_COLOURS)


@dataclass(frozen=True)
class Draft:
    """A round's end being entered: who went out, the seat selected, what was typed and
    tapped, and how many rounds the game had when it was begun."""

    went_out: int | None
    selected: int
    totals: dict[int, str]
    tallies: dict[int, list[tuple[str | None, str]]]
    rounds: int


class RoundEndScreen(Screen):
    """Enter (or edit) a round's end."""

    name = "round"

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.editing: int | None = None
        self._game: int | None = None
        """The game the entry is for: another game's is dropped."""
        self._rounds = -1
        self.went_out: int | None = None
        self.selected = 0
        self.cards_mode = False
        self.colour = COLOURS[0]
        self.totals: dict[int, str] = {}
        self.tallies: dict[int, list[tuple[str | None, str]]] = {}
        """Per seat, the cards tapped in order: (colour or None for a wild, kind key)."""
        self._set_aside: Draft | None = None
        """The round being entered, kept while a past round is edited: back after the edit."""

    @property
    def banner_area(self) -> pygame.Rect:  # type: ignore[override]
        """Over the entry line, beside the Undo card button when it shows."""
        return pygame.Rect(308, 60, 330 if self.cards_mode else 484, 54)

    def entered(self, view: TableView) -> None:
        """Keep a half-finished entry while the table looks at other screens; start afresh
        once a round was recorded (here or elsewhere) since it was begun."""
        self._fit(view)

    def _fit(self, view: TableView) -> None:
        """Drop what no longer fits the game in play: another game's entry, an entry begun
        before a round was recorded or undone since, the edit of a round undone since."""
        if view.game_id != self._game:  # another game: nothing typed for this one fits it
            self._game = view.game_id
            self._set_aside = None
            self.clear()
            self._rounds = len(view.rounds)
            return
        if self.editing is not None and self.editing > len(view.rounds):
            self._end_edit()  # the round being edited was undone: back to the entry set aside
        if self.editing is None and self._rounds != len(view.rounds):
            self.clear()
            self._rounds = len(view.rounds)

    def undone(self, before: TableView, after: TableView) -> None:
        """The round an undo took back, back in the form as it was entered, so one number can
        be put right and the round saved again (ten players need not type nine numbers again);
        an edit under way goes on, and the round comes back after it."""
        if before.game_id != after.game_id or len(after.rounds) != len(before.rounds) - 1:
            return  # not a round taken back (a showdown, a penalty, an edit)
        if after.game_id != self._game:
            self._game, self._set_aside = after.game_id, None
            self.clear()
        draft = self._draft_of(before.rounds[-1], after, len(after.rounds))
        if self.editing is None:
            self._restore(draft)
        else:
            self._set_aside = draft

    def clear(self) -> None:
        """Forget anything half-entered."""
        self.editing = None
        self.went_out = None
        self.selected = 0
        self.totals = {}
        self.tallies = {}

    def edit(self, rnd: RoundView, view: TableView) -> None:
        """Prefill with a recorded round, to be changed and saved over it; the round being
        entered is set aside, to come back when the edit is saved or cancelled."""
        if view.game_id != self._game:  # nothing typed for another game is kept
            self._game, self._set_aside = view.game_id, None
            self.clear()
            self._rounds = len(view.rounds)
        elif self.editing is None:
            self._set_aside = Draft(self.went_out, self.selected, self.totals, self.tallies,
                                    self._rounds)
        self._restore(self._draft_of(rnd, view, self._rounds))
        self.editing = rnd.number

    @staticmethod
    def _draft_of(rnd: RoundView, view: TableView, rounds: int) -> Draft:
        """A recorded round as the form shows it: who went out, each other hand's points."""
        names = [p.name for p in view.players]
        went_out = names.index(rnd.went_out) if rnd.went_out in names else None
        totals = {seat: str(held) for seat, held in enumerate(rnd.hands) if seat != went_out}
        return Draft(went_out, 1 if went_out == 0 else 0, totals, {}, rounds)

    def _restore(self, draft: Draft) -> None:
        """Show ``draft`` in the form (nothing being edited)."""
        self.clear()
        self.went_out, self.selected = draft.went_out, draft.selected
        self.totals, self.tallies, self._rounds = draft.totals, draft.tallies, draft.rounds

    # -- values ------------------------------------------------------------------------------

    def kinds(self) -> dict[str, CardKind]:
        """Card kinds of this game's deck, by key."""
        return {kind.key: kind for kind in self.ui.port.card_kinds()}

    def tally_sum(self, seat: int) -> int:
        """Points of the cards tapped for a seat."""
        kinds = self.kinds()
        return sum(kinds[key].points for _colour, key in self.tallies.get(seat, []))

    def value(self, seat: int) -> int | None:
        """The points entered for a seat, if any."""
        if self.tallies.get(seat):
            return self.tally_sum(seat)
        text = self.totals.get(seat)
        return int(text) if text else None

    # -- actions -----------------------------------------------------------------------------

    def _digit(self, digit: str) -> None:
        self.tallies.pop(self.selected, None)
        text = self.totals.get(self.selected, "")
        if len(text) < MAX_DIGITS:
            self.totals[self.selected] = (text + digit).lstrip("0") or "0"

    def _clear_entry(self) -> None:
        self.totals.pop(self.selected, None)

    def _cancel_edit(self) -> None:
        self._end_edit()
        self.ui.go("history")

    def _end_edit(self) -> None:
        """The edit is done (saved or cancelled): back to the round being entered before it,
        as it was typed (:meth:`entered` drops it if a round was recorded since)."""
        self.clear()
        draft, self._set_aside = self._set_aside, None
        if draft is not None:
            self._restore(draft)

    def _backspace(self) -> None:
        self.totals[self.selected] = self.totals.get(self.selected, "")[:-1]

    def _tap_card(self, kind: CardKind) -> None:
        self.totals.pop(self.selected, None)
        colour = self.colour if kind.coloured else None
        self.tallies.setdefault(self.selected, []).append((colour, kind.key))

    def _remove_card(self) -> None:
        cards = self.tallies.get(self.selected, [])
        if cards:
            cards.pop()

    def _went_out(self) -> None:
        self.went_out = self.selected
        self.totals.pop(self.selected, None)
        self.tallies.pop(self.selected, None)
        self._next()

    def _tap_player(self, seat: int) -> None:
        """Select a player; while nobody is marked as out, the tap answers "Who went out?"
        (one who is out of the game cannot have gone out: the tap only selects them)."""
        players = self.ui.port.view().players
        self.selected = seat
        if self.went_out is not None or seat >= len(players) or players[seat].eliminated:
            return
        before = (self.totals.get(seat), self.tallies.get(seat))
        self._went_out()
        name = players[seat].name
        self.ui.notice(lambda: _("{name} went out").format(name=player_name(name)),
                       (lambda: _("Undo"), partial(self._not_out, seat, *before)))

    def _not_out(self, seat: int, total: str | None,
                 tally: list[tuple[str | None, str]] | None) -> None:
        """Undo the tap that marked a player as out: nobody is out again, and what was typed
        for them before is back."""
        if self.went_out != seat:
            return
        self.went_out = None
        self.selected = seat
        if total is not None:
            self.totals[seat] = total
        if tally is not None:
            self.tallies[seat] = tally

    def _waiting(self) -> list[int]:
        """The seats that still need their points, in seat order from the one after the
        selected seat (who went out and who is out of the game need none)."""
        players = self.ui.port.view().players
        count = len(players)
        order = [(self.selected + step) % count for step in range(1, count + 1)]
        return [seat for seat in order if seat != self.went_out
                and not players[seat].eliminated and self.value(seat) is None]

    def _next(self) -> None:
        """On to the next player who still needs a number (the one who went out first)."""
        if self.went_out is None:
            self.ui.say(ErrorText("Tap who went out"))
            return
        waiting = self._waiting()
        if waiting:
            self.selected = waiting[0]

    def _save(self) -> None:
        view = self.ui.port.view()
        if self.went_out is None:
            self.ui.say(ErrorText("Tap who went out"))
            return
        entries: dict[int, HandInput] = {}
        for seat, player in enumerate(view.players):
            if seat == self.went_out or player.eliminated:
                continue
            if self.tallies.get(seat):
                counts: dict[str, int] = {}
                for _colour, key in self.tallies[seat]:
                    counts[key] = counts.get(key, 0) + 1
                entries[seat] = HandInput(tally=counts)
            elif self.totals.get(seat):
                entries[seat] = HandInput(total=int(self.totals[seat]))
            else:
                self.ui.say(ErrorText("Enter the points {name} holds", {"name": player.name}))
                self.selected = seat
                return
        if self.editing is None:
            ok = self.ui.command(self.ui.port.record_round, self.went_out, entries)
        else:
            ok = self.ui.command(self.ui.port.edit_round, self.editing, self.went_out, entries)
        if ok:
            self._end_edit()
            self.ui.go("table")

    # -- drawing -----------------------------------------------------------------------------

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        self._fit(view)
        found: list[Widget] = []
        count = len(view.players)
        two_columns = count > 6
        col_w = 146 if two_columns else 296
        rows = (count + 1) // 2 if two_columns else count
        row_h = min(68, 404 // max(1, rows))
        for seat, player in enumerate(view.players):
            col, row = divmod(seat, rows) if two_columns else (0, seat)
            rect = pygame.Rect(4 + col * (col_w + 4), 4 + row * row_h, col_w, row_h - 6)
            who = player_name(player.name)
            if seat == self.went_out:
                shown = _("{name}: out").format(name=who)
            elif player.eliminated:
                shown = _("{name} (out of the game)").format(name=who)
            else:
                value = self.value(seat)
                shown = f"{who}: {'?' if value is None else value}"
            found.append(Button(f"player{seat}", rect, shown, partial(self._tap_player, seat),
                                selected=seat == self.selected,
                                colour=theme.OK if seat == self.went_out else theme.PANEL_LIGHT,
                                size=22))
        x0 = 308
        found += [
            Button("keypad-mode", pygame.Rect(x0, 4, 116, 56), _("Keypad"),
                   lambda: setattr(self, "cards_mode", False), selected=not self.cards_mode,
                   size=22),
            Button("cards-mode", pygame.Rect(x0 + 120, 4, 116, 56), _("Cards"),
                   lambda: setattr(self, "cards_mode", True), selected=self.cards_mode,
                   size=22),
            Button("went-out", pygame.Rect(x0 + 240, 4, 244, 56), _("Went out"),
                   self._went_out, colour=theme.OK, size=24),
        ]
        name = player_name(view.players[self.selected].name) if self.selected < count else ""
        if self.went_out is None:  # asked first, until a tap on a player answers it
            line = _("Who went out? Tap them")
        elif self.selected == self.went_out:
            line = _("{name} went out").format(name=name)
        else:
            value = self.value(self.selected)
            line = ngettext("{name} holds {points} point", "{name} holds {points} points",
                            2 if value is None else value).format(
                name=name, points="?" if value is None else value)
            tapped = len(self.tallies.get(self.selected, []))
            if tapped and value is not None:
                # TRANSLATORS: {cards} is "3 cards", {points} is "77 points" (both translated).
                line = _("{name}: {cards}, {points}").format(
                    name=name,
                    cards=ngettext("{count} card", "{count} cards", tapped).format(count=tapped),
                    points=ngettext("{count} point", "{count} points", value).format(
                        count=value))
        entry_w = 330 if self.cards_mode else 484
        found.append(Label("entry", pygame.Rect(x0, 64, entry_w, 48), line, 26, theme.ACCENT,
                           theme.PANEL, bold=True))
        if self.cards_mode:
            found.append(Button("remove-card", pygame.Rect(x0 + 334, 64, 150, 48),
                                _("Undo card"), self._remove_card, colour=theme.DANGER, size=20,
                                enabled=bool(self.tallies.get(self.selected))))
        found += self._cards(x0) if self.cards_mode else self._keypad(x0)
        save_text = _("Save round") if self.editing is None else _(
            "Save round {number}").format(number=self.editing)
        found.append(Button("save", pygame.Rect(x0, 356, 484 if self.editing is None else 300,
                                                52), save_text, self._save, colour=theme.OK,
                            size=26))
        if self.editing is not None:
            found.append(Button("cancel-edit", pygame.Rect(x0 + 306, 356, 178, 52), _("Cancel"),
                                self._cancel_edit,
                                colour=theme.PANEL_LIGHT, size=24))
        return found

    def _keypad(self, x0: int) -> list[Widget]:
        """Digits as on a number pad, with Clear, Delete and Next (on to the next player who
        still needs a number) down the right."""
        keys: list[tuple[str, str, Callable[[], None], tuple[int, int, int, int]]] = [
            (d, d, partial(self._digit, d), (i % 3, i // 3, 1, 1))
            for i, d in enumerate("123456789")
        ]
        keys += [
            ("0", "0", lambda: self._digit("0"), (0, 3, 3, 1)),
            ("clear", _("Clear"), self._clear_entry, (3, 0, 1, 1)),
            ("back", _("Delete"), self._backspace, (3, 1, 1, 1)),
            # TRANSLATORS: the round end's keypad: on to the next player who needs a number.
            ("next", _("Next"), self._next, (3, 2, 1, 2)),
        ]
        found: list[Widget] = []
        for key, text, action, (col, row, cols, rows) in keys:
            rect = pygame.Rect(x0 + col * 121, 116 + row * 60, cols * 121 - 4, rows * 60 - 4)
            found.append(Button(f"key:{key}", rect, text, action,
                                colour=theme.OK if key == "next" else theme.BUTTON,
                                size=30 if len(text) == 1 else 22))
        return found

    def _cards(self, x0: int) -> list[Widget]:
        found: list[Widget] = []
        marks = self.ui.cues.colour_marks
        for i, colour in enumerate(COLOURS):
            rect = pygame.Rect(x0 + i * 122, 116, 118, 48)
            found.append(Custom(f"colour:{colour}", rect,
                                (colour, colour == self.colour, marks, colour_name(colour)),
                                partial(paint_card, colour=colour, face="", marks=marks,
                                        selected=colour == self.colour),
                                action=partial(setattr, self, "colour", colour)))
        kinds = list(self.ui.port.card_kinds())
        numbers = [k for k in kinds if k.key.isdigit()]
        words = [k for k in kinds if not k.key.isdigit()]
        for i, kind in enumerate(numbers):
            rect = pygame.Rect(x0 + i * 484 // 10, 168, 48, 48)
            found.append(Custom(f"kind:{kind.key}", rect, (self.colour, kind.key, marks),
                                partial(paint_card, colour=self.colour, face=kind.key,
                                        marks=marks),
                                action=partial(self._tap_card, kind)))
        columns = max(3, -(-len(words) // WORD_ROWS))
        width = 484 // columns
        fills = [self.colour if kind.coloured else None for kind in words]
        labels = [kind_name(kind.name) for kind in words]
        peers = tuple(card_text(fill, label, marks=marks, word=True)
                      for fill, label in zip(fills, labels, strict=True))
        for i, (kind, fill, label) in enumerate(zip(words, fills, labels, strict=True)):
            row, col = divmod(i, columns)
            rect = pygame.Rect(x0 + col * width, 220 + row * 64, width - 4, 60)
            found.append(Custom(f"kind:{kind.key}", rect, (fill, label, marks, peers),
                                partial(paint_card, colour=fill, face=label, marks=marks,
                                        peers=peers),
                                action=partial(self._tap_card, kind)))
        return found
