"""The rule set: one typed model whose defaults are the default column of ``docs/rules.md``.

Every option of rules.md is a field here; the engine reads these fields through a few named
hooks instead of asking which preset is in play. Presets are named rule sets (:data:`PRESETS`,
:func:`preset`). Each field's docstring names the seeds it comes from.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["PRESETS", "CustomEffect", "RuleSet", "UnknownPresetError", "preset"]


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


class RuleSet(BaseModel):
    """Every switch of rules.md; the defaults are its default column (seeds in each docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    deck: str = "modern"
    """Built-in deck name: classic (002), modern (000, 003), swap (001), showdown (004)."""
    target_score: int = Field(default=500, ge=1)
    """Game target; 500 by default, any agreed number (001)."""
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
    wd4_legality: Literal["no-current-colour", "no-playable-card"] = "no-current-colour"
    """Wild Draw 4 is legal with no card of the current colour (000, 001), or only with no
    playable card at all (003's stricter reading)."""
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
    """Deflect a pending draw with a Skip (passes it on) or Reverse (sends it back) of the current
    colour (002)."""
    uno_penalty: int = Field(default=2, ge=0)
    """Cards drawn when caught without calling UNO: 2 (000, 003, 004) or 4 (001)."""
    false_call_penalty: int = Field(default=0, ge=0)
    """Cards drawn for calling UNO without being at one card; 0 switches it off (001 option)."""
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


PRESETS: dict[str, RuleSet] = {
    "official": RuleSet(deck="modern"),
    "classic": RuleSet(deck="classic"),
    "edition-2018": RuleSet(
        deck="swap", uno_penalty=4, first_wild="return", first_reverse="right_of_dealer"
    ),
    "showdown": RuleSet(deck="showdown", first_wild="return", first_reverse="right_of_dealer"),
    "party": RuleSet(
        deck="modern",
        draw="until-playable",
        stack_draw_two=True,
        stack_draw_four=True,
        stack_draw_two_on_four=True,
        stack_draw_four_on_two=True,
        stack_deflect=True,
    ),
}
"""Named rule sets: ``official`` (modern deck, defaults), ``classic`` (108 cards),
``edition-2018`` (swap deck, UNO penalty 4; at the start a Wild is returned and a Reverse lets
the dealer's right begin), ``showdown`` (showdown deck; the same two starting rules), ``party``
(every stacking switch, draw until playable). A preset differs from the defaults where its own seed
does: ``edition-2018`` follows 001, ``showdown`` 004."""


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
