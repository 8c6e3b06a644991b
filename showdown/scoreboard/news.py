"""Saying what happened: every entry the table makes is told in words for a few seconds, with
Undo where an undo takes it back, and an undo is told with Redo.

The session's events become :class:`~showdown.scoreboard.view.Fact` values in the adapter,
whichever thread recorded them (a showdown the unit settled, a round saved by touch); the
scoreboard shows each as a banner in the confirmation colour, never the error colour. The words
are made when drawn, so they follow a change of language.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from showdown.scoreboard.i18n import _, ngettext
from showdown.scoreboard.view import Fact, PenaltyRow, ShowdownRow
from showdown.scoreboard.vocabulary import penalty_name, player_name

if TYPE_CHECKING:  # the screens use this module: the Ui they are given, for the types only
    from showdown.scoreboard.screens.base import Ui, Words

__all__ = [
    "UNDOABLE",
    "announce",
    "describe",
    "penalty_entry",
    "penalty_words",
    "redo_last",
    "showdown_words",
    "tell",
    "undo_last",
]

UNDOABLE = frozenset({"showdown", "round", "edit", "correct", "penalty"})
"""The kinds of news an Undo on the banner takes back."""


def describe(fact: Fact) -> str:
    """A recorded entry in the players' words (what Undo takes back, what Redo brings back)."""
    if fact.kind == "showdown":
        return _("showdown: {winner} beat {loser}").format(winner=player_name(fact.who),
                                                            loser=player_name(fact.other))
    if fact.kind == "edit":
        return _("the edit of round {number}").format(number=fact.round)
    if fact.kind == "penalty":
        return _("the penalty on {name} ({reason})").format(name=player_name(fact.who),
                                                            reason=penalty_name(fact.reason))
    return _("round {number}: {name} went out").format(number=fact.round,
                                                       name=player_name(fact.who))


def showdown_words(item: ShowdownRow) -> str:
    """A showdown in words: a race won, or a false start, and who takes how many cards."""
    if item.reason == "false-start":
        text = ngettext("False start: {loser} started too soon, takes {count} card",
                        "False start: {loser} started too soon, takes {count} cards",
                        item.cards).format(loser=player_name(item.loser), count=item.cards)
    else:
        text = ngettext("Showdown: {winner} beat {loser}, {loser} takes {count} card",
                        "Showdown: {winner} beat {loser}, {loser} takes {count} cards",
                        item.cards).format(winner=player_name(item.winner),
                                           loser=player_name(item.loser), count=item.cards)
    if item.by_hand:
        text = _("{entry} (by hand)").format(entry=text)
    return text


def penalty_words(name: str, reason: str, cards: int) -> str:
    """A table penalty in words: who did what, and the cards they draw for it."""
    who = player_name(name)
    if reason == "silence":
        text = ngettext("{name} made a sound after a 2: draws {count} card",
                        "{name} made a sound after a 2: draws {count} cards", cards)
    elif reason == "slap":
        text = ngettext("{name} was the last to slap a 9: draws {count} card",
                        "{name} was the last to slap a 9: draws {count} cards", cards)
    elif reason == "advice":
        text = ngettext("{name} gave advice to another player: draws {count} card",
                        "{name} gave advice to another player: draws {count} cards", cards)
    elif reason == "wrong-card":
        text = ngettext("{name} played a wrong card: takes it back, draws {count} card",
                        "{name} played a wrong card: takes it back, draws {count} cards", cards)
    elif reason == "missed-uno":
        text = ngettext("{name} forgot to call UNO: draws {count} card",
                        "{name} forgot to call UNO: draws {count} cards", cards)
    else:  # a reason this scoreboard does not know (a newer journal): say it as stored
        return ngettext("{name}: penalty ({reason}), draws {count} card",
                        "{name}: penalty ({reason}), draws {count} cards", cards).format(
            name=who, reason=reason, count=cards)
    return text.format(name=who, count=cards)


def penalty_entry(item: PenaltyRow) -> str:
    """A table penalty as History lists it, apart from the showdowns."""
    return _("Penalty: {what}").format(what=penalty_words(item.player, item.reason, item.cards))


def _showdown(fact: Fact) -> str:
    if fact.reason == "false-start":
        return ngettext("{loser} started too soon, takes {count} card",
                        "{loser} started too soon, takes {count} cards", fact.cards).format(
            loser=player_name(fact.other), count=fact.cards)
    return ngettext("{winner} won the showdown, {loser} takes {count} card",
                    "{winner} won the showdown, {loser} takes {count} cards", fact.cards).format(
        winner=player_name(fact.who), loser=player_name(fact.other), count=fact.cards)


def announce(fact: Fact) -> str:
    """What the banner says when an entry was recorded."""
    if fact.kind == "showdown":
        return _showdown(fact)
    if fact.kind == "correct":
        return _("Corrected: {what}").format(what=_showdown(fact))
    if fact.kind == "round":
        return _("Round {number} saved").format(number=fact.round)
    if fact.kind == "edit":
        return _("Round {number} corrected").format(number=fact.round)
    if fact.kind == "penalty":
        return penalty_words(fact.who, fact.reason, fact.cards)
    if fact.kind == "resumed":
        return _("Game {number} taken up again at round {round}").format(
            number=fact.game, round=fact.round)
    return _("Game {number} started").format(number=fact.game)


def tell(ui: Ui, fact: Fact) -> None:
    """Show what was recorded, with Undo when an undo takes it back."""
    action: tuple[Words, Callable[[], object]] | None = None
    if fact.kind in UNDOABLE:
        action = (lambda: _("Undo"), partial(_undo_if_last, ui, fact))
    ui.notice(partial(announce, fact), action)


def _undo_if_last(ui: Ui, fact: Fact) -> None:
    """The banner's Undo: only while what it announced is still the last entry."""
    last = ui.port.view().last
    if last is not None and (last.kind, last.round, last.who, last.other) == (
            _entry_kind(fact), fact.round, fact.who, fact.other):
        undo_last(ui)


def _entry_kind(fact: Fact) -> str:
    return "showdown" if fact.kind == "correct" else fact.kind


def undo_last(ui: Ui, after: Callable[[], object] | None = None) -> None:
    """Take back the last entry and say what went, with Redo; ``after`` runs once it went.
    Every screen hears of it (:meth:`~showdown.scoreboard.screens.base.Screen.undone`): a round
    taken back comes back in Round end's form, to be put right."""
    before = ui.port.view()
    fact = before.last
    if not ui.command(ui.port.undo):
        return
    now = ui.port.view()
    for screen in ui.screens.values():
        screen.undone(before, now)
    if after is not None:
        after()
    if fact is not None:
        ui.notice(lambda: _("Undone: {what}").format(what=describe(fact)),
                  (lambda: _("Redo"), partial(redo_last, ui, fact, after)))


def redo_last(ui: Ui, fact: Fact, after: Callable[[], object] | None = None) -> None:
    """Take back the last undo and say what stands again, with Undo."""
    if not ui.command(ui.port.redo):
        return
    if after is not None:
        after()
    ui.notice(lambda: _("Back again: {what}").format(what=describe(fact)),
              (lambda: _("Undo"), partial(undo_last, ui, after)))
