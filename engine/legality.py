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
from engine.errors import RuleError
from engine.rules import RuleSet
from engine.state import Phase, RoundState
from engine.tables import NO_KIND, DeckTables

__all__ = [
    "answer_allowed",
    "match_row",
    "may_go_out_with",
    "phase_refusal",
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
    ``card`` matches it. A spent draw card (002, ``RuleSet.spent_draw_colour_only``) matches
    by colour only."""
    kind = NO_KIND if state.spent else tables.top_kind[state.discard[-1]]
    return tables.match[state.colour * _K + kind]


def may_go_out_with(tables: DeckTables, rules: RuleSet, card: int) -> bool:
    """Whether ``card`` may be a player's last card (002: "the last card can not be a
    functional card", ``RuleSet.go_out_on_action``)."""
    return rules.go_out_on_action or tables.kind[card] <= _NINE


def answer_allowed(
    state: RoundState, tables: DeckTables, rules: RuleSet, card: int, kind: int
) -> bool:
    """Whether ``card`` (of ``kind``) is a permitted stack or deflect on the pending draw.

    A Draw Two stacks on a Draw Two (``stack_draw_two``) or on a Wild Draw 4
    (``stack_draw_two_on_four``) when it matches; a Wild Draw 4 on a Wild Draw 4
    (``stack_draw_four``) or on a Draw Two (``stack_draw_four_on_two``). A Skip or Reverse of the
    current colour deflects a pending Draw Two (``stack_deflect``), never a Wild Draw 4 (002:
    "Only +4 after +4 to avoid the +4"). Nothing answers Killer UNO's +10 (a red 0): the sheet
    gives it no answer.
    """
    top_kind = tables.kind[state.discard[-1]]
    if top_kind <= _NINE:
        return False
    if kind == _DRAW_TWO:
        allowed = rules.stack_draw_two_on_four if top_kind == _WD4 else rules.stack_draw_two
        return allowed and bool(match_row(state, tables)[card])
    if kind == _WD4:
        return rules.stack_draw_four if top_kind == _WD4 else rules.stack_draw_four_on_two
    if kind in (_SKIP, _REVERSE):
        return (
            rules.stack_deflect and top_kind != _WD4 and tables.colour[card] == state.colour
        )
    return False


def wild_draw_four_is_legal(
    state: RoundState, tables: DeckTables, rules: RuleSet, seat: int, card: int
) -> bool:
    """Whether ``seat`` may play the Wild Draw 4 ``card`` without bluffing (rules.md "Wild
    Draw 4 legality": no card of the current colour; strictly, no playable card at all; or, as
    002 has it, at any time)."""
    legality = rules.wd4_legality
    if legality == "any-time":
        return True
    hand = state.hands[seat]
    if legality == "no-current-colour":
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
        cards = [c for c in hand if answer_allowed(state, tables, rules, c, kinds[c])]
    else:
        row = match_row(state, tables)
        cards = [card for card in hand if row[card]]
    if len(hand) == 1 and not rules.go_out_on_action:
        return [card for card in cards if tables.kind[card] <= _NINE]
    return cards


_PHASE_RULE: Final = {
    Phase.OPENING: "opening-choice",
    Phase.PLAY: "not-after-drawing",
    Phase.DRAWN: "already-drew",
    Phase.SHOWDOWN: "showdown-pending",
    Phase.OVER: "round-over",
}
_PHASE_TEXT: Final = {
    Phase.OPENING: "the first player must first choose for the wild turned up",
    Phase.PLAY: "that is only possible after drawing a playable card",
    Phase.DRAWN: "you have drawn this turn: play that card or pass",
    Phase.SHOWDOWN: "a showdown is pending: only its result is accepted",
    Phase.OVER: "the round is over",
}


def phase_refusal(phase: Phase) -> RuleError:
    """The refusal of a command the round's phase does not allow (to raise)."""
    return RuleError(_PHASE_RULE[phase], _PHASE_TEXT[phase])
