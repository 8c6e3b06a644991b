"""The rule set: one typed model whose defaults are the default column of ``docs/rules.md``.

Every option of rules.md is a field here; the engine reads these fields through a few named
hooks instead of asking which preset is in play. Presets are named rule sets (:data:`PRESETS`,
:func:`preset`). Each field's docstring names the seeds it comes from.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "PRESETS",
    "PRESET_SUMMARIES",
    "CustomEffect",
    "PenaltyReason",
    "RuleSet",
    "UnknownPresetError",
    "preset",
]


class CustomEffect(StrEnum):
    """The house rule a Wild Customizable / Blank card carries, agreed before the game.

    The presets are the seeds' examples (000, 001, 003); ``NONE`` makes the card a plain Wild.
    """

    NONE = "none"
    NEXT_DRAWS_UNTIL_COLOUR = "next-draws-until-colour"
    """The next player draws until they draw a card of the colour the player chose."""
    OTHERS_DISCARD_WILDS = "others-discard-wilds"
    """Everyone but the player discards their wild cards (never their last card)."""
    EXTRA_TURN = "extra-turn"
    """The player takes another turn straight away."""
    NEXT_TO_SEVEN = "next-to-seven"
    """The next player draws, or discards their newest cards, until they hold exactly 7."""
    EVERYONE_TO_THREE = "everyone-to-three"
    """Every player draws, or discards their newest cards, until they hold exactly 3."""
    HANDS_FACE_UP = "hands-face-up"
    """Everyone plays with their hand face up until the player's next turn."""


class PenaltyReason(StrEnum):
    """Why the table makes a player draw: the seeds' table rules (a
    :class:`~engine.commands.Penalty` in a round, a penalty entry in the session)."""

    SILENCE = "silence"
    """002, Killer UNO "Quiet 2 cards": after a 2, whoever makes a sound draws."""
    SLAP = "slap"
    """002, Killer UNO "Grab 9": after a 9, the last to slap a hand down draws."""
    ADVICE = "advice"
    """003 (and 002's option): advising another player ("isn't that playable?") costs cards."""
    WRONG_CARD = "wrong-card"
    """003 (and 002's option): a card put down that does not match. In a round it is reported
    with :class:`~engine.commands.WrongCard`, which also takes the card back."""
    MISSED_UNO = "missed-uno"
    """000, 001, 002, 003, 004: a player caught not having called UNO draws
    :attr:`RuleSet.uno_penalty` cards (2; 4 in 001). In a round it is caught with
    :class:`~engine.commands.CatchUno`, inside the catch window; a table that plays with real
    cards records it as a penalty."""


class RuleSet(BaseModel):
    """Every switch of rules.md; the defaults are its default column (seeds in each docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: str = "modern"
    """Built-in deck name: classic (002), modern (000, 003), swap (001), showdown (004)."""
    target_score: int = Field(default=500, ge=1)
    """Game target; 500 by default, any agreed number (001)."""
    max_players: int = Field(default=10, ge=2, le=10)
    """The most players a round seats: 10 (001's 2-10), or 8 (002's "2-8 players")."""
    first_dealer_by: Literal["number", "points"] = "number"
    """The draw for the first dealer: the highest number deals, symbols count 0 (000, 003), or
    the highest point value deals (001: a Wild's 50 beats a 9)."""
    next_dealer: Literal["left", "winner"] = "left"
    """Deal passes left each round (004), or the round's winner deals next (003)."""
    first_wild: Literal["choose", "return"] = "choose"
    """First card a plain Wild: first player chooses the colour (000, 003), or it is returned and
    another flipped (001, 004)."""
    first_reverse: Literal["dealer", "right_of_dealer"] = "dealer"
    """First card Reverse: the dealer plays first and play goes right (000, 003), or the player to
    the dealer's right plays first (001, 004)."""
    draw: Literal["one", "until-playable"] = "one"
    """Cannot or will not play: draw one, only that card may be played (001, 003); or draw until
    a playable card (004, 002 "Killer")."""
    draw_until_max: int | None = Field(default=None, ge=1)
    """With ``draw="until-playable"``: stop after this many cards (004 mentions 10).

    None: no cap."""
    play_drawn: Literal["any", "number"] = "any"
    """Which drawn card may be played at once: any that matches (000, 001, 003), or only a
    number card (002: "not a functional card"; so Killer UNO draws "until the card that can be
    released (non-functional card)")."""
    wd4_legality: Literal["no-current-colour", "no-playable-card", "any-time"] = (
        "no-current-colour"
    )
    """Wild Draw 4 is legal with no card of the current colour (000, 001), or only with no
    playable card at all (003's stricter reading), or at any time, with nothing to challenge
    (002: "+4: Can exit at any time")."""
    wd4_guilty_takes_back: bool = False
    """A guilty Wild Draw 4 player also takes the card back into their hand (003)."""
    stack_draw_two: bool = False
    """Stack +2 on +2 (002); 001 forbids all stacking."""
    stack_draw_four: bool = False
    """Stack +4 on +4 (002)."""
    stack_draw_two_on_four: bool = False
    """Stack +2 on a pending +4 (rules.md "+2 on +4")."""
    stack_draw_four_on_two: bool = False
    """Stack +4 on a pending +2 (002: two +2 and a +4 make 8)."""
    stack_deflect: bool = False
    """Deflect a pending Draw Two with a Skip (passes it on) or Reverse (sends it back) of the
    current colour (002); never a pending Wild Draw 4 ("Only +4 after +4")."""
    spent_draw_colour_only: bool = False
    """Once a draw's penalty is taken, its card (a Draw Two, or the Skip or Reverse that
    deflected it) matches by colour only (002: "Can not be other colors +2 or Skip /
    Reverse")."""
    go_out_on_action: bool = True
    """A player may go out on an action or wild card (000, 001, 003, 004), or may not and must
    draw instead (002: "the last card can not be a functional card")."""
    uno_penalty: int = Field(default=2, ge=0)
    """Cards drawn when caught without calling UNO: 2 (000, 003, 004) or 4 (001)."""
    uno_catch_window: Literal["next-turn", "next-discard"] = "next-turn"
    """How long a missing UNO can be caught: until the next player begins their turn by drawing
    or playing (001), or until the next card is discarded, so drawing does not close it (003:
    until the moment the next player discards)."""
    false_call_penalty: int = Field(default=0, ge=0)
    """Cards drawn for calling UNO without being at one card; 0 switches it off (a house option
    no sheet states)."""
    wrong_card_penalty: int = Field(default=2, ge=0)
    """A wrong card played is taken back, the player draws this many and the turn ends (003);
    0 switches it off."""
    custom_effect: CustomEffect = CustomEffect.NONE
    """The effect of Wild Customizable and Blank cards (000, 001, 003)."""
    customizable_value: int = Field(default=40, ge=0)
    """Points of a Wild Customizable (000)."""
    blank_value: int = Field(default=40, ge=0)
    """Points of a Blank: agreed (001 prints "?"), default 40."""
    swap_hands_value: int = Field(default=40, ge=0)
    """Points of a Wild Swap Hands: unpublished, default 40."""
    wild_showdown_value: int = Field(default=50, ge=0)
    """Points of a Wild Showdown: unpublished, default 50 like the other wilds."""
    showdown_every_go_out: bool = False
    """Published Showdown variant (004): every going-out triggers a one-card showdown."""
    jump_in: bool = False
    """Killer UNO (002): a player holding a card identical to the top card (same colour and the
    same number or symbol) may play it out of turn; play goes on from them."""
    zero_passes_hands: bool = False
    """Killer UNO (002): a 0 makes every player pass their hand to the next player in the
    direction of play (not when it is the last card)."""
    red_zero_draw: int = Field(default=0, ge=0, le=20)
    """Killer UNO (002): the red 0 is a +N (the sheet's +10): the next player draws N and loses
    the turn, and it passes no hands; 0 switches it off."""
    table_penalties: tuple[PenaltyReason, ...] = (PenaltyReason.ADVICE,)
    """The table rules a :class:`~engine.commands.Penalty` may name: advice (003) by default;
    Killer UNO adds silence and slap (002)."""
    table_penalty_cards: int = Field(default=2, ge=1, le=20)
    """Cards a table penalty costs (2 in every sheet that names one)."""

    @field_validator("table_penalties")
    @classmethod
    def _each_reason_once(cls, reasons: tuple[PenaltyReason, ...]) -> tuple[PenaltyReason, ...]:
        return tuple(dict.fromkeys(reasons))

    @property
    def stacking(self) -> bool:
        """True when any stacking or deflecting switch is on."""
        return (
            self.stack_draw_two
            or self.stack_draw_four
            or self.stack_draw_two_on_four
            or self.stack_draw_four_on_two
            or self.stack_deflect
        )


_HOUSE = RuleSet(
    deck="classic",
    max_players=8,
    play_drawn="number",
    wd4_legality="any-time",
    stack_draw_two=True,
    stack_draw_four=True,
    stack_draw_four_on_two=True,
    stack_deflect=True,
    spent_draw_colour_only=True,
    go_out_on_action=False,
)

PRESETS: dict[str, RuleSet] = {
    "official": RuleSet(deck="modern"),
    "classic": RuleSet(deck="classic"),
    "edition-2018": RuleSet(
        deck="swap",
        uno_penalty=4,
        first_wild="return",
        first_reverse="right_of_dealer",
        first_dealer_by="points",
    ),
    "showdown": RuleSet(
        deck="showdown",
        first_wild="return",
        first_reverse="right_of_dealer",
        first_dealer_by="points",
    ),
    "party": RuleSet(
        deck="modern",
        draw="until-playable",
        stack_draw_two=True,
        stack_draw_four=True,
        stack_draw_two_on_four=True,
        stack_draw_four_on_two=True,
        stack_deflect=True,
    ),
    "house": _HOUSE,
    "killer": RuleSet.model_validate(
        {
            **_HOUSE.model_dump(),
            "draw": "until-playable",
            "jump_in": True,
            "zero_passes_hands": True,
            "red_zero_draw": 10,
            "table_penalties": ("advice", "silence", "slap"),
        }
    ),
}
"""Named rule sets: ``official`` (modern deck, defaults), ``classic`` (108 cards),
``edition-2018`` (swap deck, UNO penalty 4; the highest point value deals first; at the start a
Wild is returned and a Reverse lets the dealer's right begin), ``showdown`` (showdown deck; the
same dealer draw and two starting rules), ``party`` (every stacking switch, draw until
playable), ``house`` (002's basic rules: 108 cards, 2-8 players, its stacking, Wild Draw 4 at
any time, no going out on an action card, only a drawn number card played at once), ``killer``
(``house`` and 002's Killer UNO: draw until a playable number card, jump-in, 0s pass hands, the
red 0 a +10, silence and slap penalties). A preset differs from the defaults where its own seed
does: ``edition-2018`` follows 001, ``showdown`` 004, ``house`` and ``killer`` 002."""

PRESET_SUMMARIES: dict[str, str] = {
    "official": "the 2017 edition (112 cards) as 000 and 003 write it",
    "classic": "the official rules with the 108-card deck",
    "edition-2018": "the 2018 edition (Swap Hands) as 001 writes it",
    "showdown": "UNO Showdown as 004 writes it",
    "party": "every stacking switch on, draw until playable",
    "house": "002's basic rules: stacking, Wild Draw 4 at any time, no going out on an action",
    "killer": "002's Killer UNO: the house rules, jump-in, 0s pass hands, the red 0 a +10",
}
"""One English line per preset, for a menu or ``--help`` (a front end translates its own)."""


class UnknownPresetError(ValueError):
    """No preset has that name; the message lists the names there are."""


def preset(name: str) -> RuleSet:
    """The rule set called ``name`` (see :data:`PRESETS`)."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPresetError(
            f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}"
        ) from None
