"""What may be played now: one reading of each rule for the round, which refuses a command, and
for the legal-action generator, which lists the commands.

Everything here is a function of a round's data alone: its state
(:class:`~engine.state.RoundState`), its deck's tables (:class:`~engine.tables.DeckTables`) and its
rule set. The generator (:mod:`engine.actions`) does not import the round (:mod:`engine.round`);
both import this, so a rule is written once.
"""

from __future__ import annotations

from typing import Final

from engine.cards import CardKind
from engine.rules import RuleSet
from engine.state import Phase, RoundState
from engine.tables import NO_KIND, DeckTables

__all__ = [
    "answer_allowed",
    "match_row",
    "playable_cards",
    "wild_draw_four_is_legal",
]

_SKIP: Final = int(CardKind.SKIP)
_REVERSE: Final = int(CardKind.REVERSE)
_DRAW_TWO: Final = int(CardKind.DRAW_TWO)
_WD4: Final = int(CardKind.WILD_DRAW_FOUR)
_NINE: Final = int(CardKind.NINE)
_K: Final = NO_KIND + 1
_PLAY: Final = Phase.PLAY
_DRAWN: Final = Phase.DRAWN


def match_row(state: RoundState, tables: DeckTables) -> bytes:
    """The match row for the discard pile's top as things stand: ``row[card]`` is 1 when
    ``card`` matches it."""
    return tables.match[state.colour * _K + tables.top_kind[state.discard[-1]]]


def answer_allowed(
    state: RoundState, tables: DeckTables, rules: RuleSet, card: int, kind: int
) -> bool:
    """Whether ``card`` (of ``kind``) is a permitted stack or deflect on the pending draw.

    A Draw Two stacks on a Draw Two (``stack_draw_two``) or on a Wild Draw 4
    (``stack_draw_two_on_four``) when it matches; a Wild Draw 4 on a Wild Draw 4
    (``stack_draw_four``) or on a Draw Two (``stack_draw_four_on_two``). A Skip or Reverse of the
    current colour deflects the pending draw (``stack_deflect``).
    """
    top_kind = tables.kind[state.discard[-1]]
    if kind == _DRAW_TWO:
        allowed = rules.stack_draw_two_on_four if top_kind == _WD4 else rules.stack_draw_two
        return allowed and bool(match_row(state, tables)[card])
    if kind == _WD4:
        return rules.stack_draw_four if top_kind == _WD4 else rules.stack_draw_four_on_two
    if kind in (_SKIP, _REVERSE):
        return rules.stack_deflect and tables.colour[card] == state.colour
    return False


def wild_draw_four_is_legal(
    state: RoundState, tables: DeckTables, rules: RuleSet, seat: int, card: int
) -> bool:
    """Whether ``seat`` may play the Wild Draw 4 ``card`` without bluffing (rules.md "Wild
    Draw 4 legality": no card of the current colour; or, strictly, no playable card at all)."""
    hand = state.hands[seat]
    if rules.wd4_legality == "no-current-colour":
        colours = tables.colour
        return not any(colours[c] == state.colour for c in hand if c != card)
    row = match_row(state, tables)
    kinds = tables.kind
    return not any(row[c] and kinds[c] != _WD4 for c in hand if c != card)


def playable_cards(state: RoundState, tables: DeckTables, rules: RuleSet) -> list[int]:
    """Card ids the current player may play now (before choosing colours or targets)."""
    phase = state.phase
    if phase is not _PLAY:
        if phase is _DRAWN:
            return [state.drawn_card] if state.drawn_card is not None else []
        return []
    hand = state.hands[state.turn]
    if state.pending_draw:
        kinds = tables.kind
        return [c for c in hand if answer_allowed(state, tables, rules, c, kinds[c])]
    row = match_row(state, tables)
    return [card for card in hand if row[card]]
