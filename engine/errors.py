"""The one error a rule-breaking command raises."""

from __future__ import annotations

__all__ = ["RuleError"]


class RuleError(Exception):
    """A command broke a rule. The round's state is exactly as it was before the command.

    ``rule`` is a short stable identifier (``"not-your-turn"``, ``"card-does-not-match"``, ...);
    the message names the rule in words. ``seat`` is the player the refusal is about, where one
    is (the seat a front end points at), else None.
    """

    def __init__(self, rule: str, message: str, seat: int | None = None) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.seat = seat
