"""The ``[scoreboard]`` section of the configuration: what the panel needs that SDL cannot know.

``touch_matrix`` corrects a touch panel whose axes do not match its picture (see
:mod:`showdown.scoreboard.touch`); ``showdown check --screen`` measures it and prints the line
to put here, for example ``touch_matrix = [-1, 0, 1, 0, -1, 1]`` for a touch turned 180 degrees.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["IDENTITY", "MAX_COEFFICIENT", "ScoreboardSettings", "TouchMatrix"]

TouchMatrix = tuple[float, float, float, float, float, float]
"""``(a, b, c, d, e, f)``: a finger at ``(x, y)`` (0..1) is taken to be at
``(a*x + b*y + c, d*x + e*y + f)`` on the screen. Defined here, not beside the touch handling,
so that reading the configuration does not load pygame."""

IDENTITY: TouchMatrix = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)

MAX_COEFFICIENT = 10.0
"""A calibration maps the panel onto itself: a coefficient beyond this is a typo."""


class ScoreboardSettings(BaseModel):
    """The ``[scoreboard]`` section."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    touch_matrix: TouchMatrix = Field(
        default=IDENTITY,
        description="a, b, c, d, e, f: a finger at (x, y) (0..1 of the panel) is taken to be at "
        "(a*x + b*y + c, d*x + e*y + f); libinput's calibration matrix, first two rows",
    )

    @field_validator("touch_matrix", mode="before")
    @classmethod
    def _numbers(cls, value: object) -> object:
        if not isinstance(value, list | tuple) or len(value) != 6:
            raise ValueError("six numbers: [a, b, c, d, e, f] (no correction: [1, 0, 0, 0, 1, 0])")
        if any(isinstance(item, bool) or not isinstance(item, int | float) for item in value):
            raise ValueError("six numbers: [a, b, c, d, e, f] (no correction: [1, 0, 0, 0, 1, 0])")
        return value

    @field_validator("touch_matrix")
    @classmethod
    def _usable(cls, value: TouchMatrix) -> TouchMatrix:
        if not all(math.isfinite(item) and abs(item) <= MAX_COEFFICIENT for item in value):
            raise ValueError(f"each number must be finite and at most {MAX_COEFFICIENT:g} "
                             "either way")
        a, b, _c, d, e, _f = value
        if abs(a * e - b * d) < 0.01:
            raise ValueError("this matrix folds the panel onto a line: every touch would land "
                             "in one row; run `showdown check --screen` for the right one")
        return value
