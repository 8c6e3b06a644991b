"""Cues that never rely on colour alone: the words and switches the scoreboard draws them with.

About one man in twelve cannot tell the unit's red light from its green one. So, besides colour, the
countdown changes word and shape between waiting and go, every card colour carries a mark
(:func:`showdown.scoreboard.vocabulary.colour_mark`), and a false start is announced in words
naming the player
and the side. Each cue is a switch in :class:`CueSettings`, all on by default. The unit's own cue,
a "go" tone that differs from the countdown beeps in pitch and pattern, is the unit configuration's
``go_tone`` (``showdown.unit.config``), which refuses a go tone equal to the beat tone.

>>> from showdown.scoreboard.i18n import use_language
>>> with use_language("zh_CN"):
...     print(countdown_word(CountdownPhase.GO), false_start_message("Ana", Side.LEFT))
开始！ 抢跑：Ana ← 左侧
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from showdown.scoreboard.i18n import _
from showdown.unit.hardware import Side

__all__ = [
    "CountdownPhase",
    "CueSettings",
    "countdown_word",
    "false_start_message",
    "release_paddle_message",
    "side_arrow",
]


class CountdownPhase(Enum):
    """What the countdown light says: wait (red, flashing with beeps) or go (green)."""

    WAITING = "waiting"
    GO = "go"


@dataclass(frozen=True)
class CueSettings:
    """Which non-colour cues are on; all of them are, unless the table turns one off at set-up."""

    countdown_words: bool = True
    """Write "Waiting" and "GO!" on the countdown light, not only red and green."""
    countdown_shapes: bool = True
    """Draw waiting and go as different shapes (an octagon "stop", a circle), not colour alone."""
    colour_marks: bool = True
    """Draw each card colour's mark (R, Y, G, B or the language's own) on its swatch."""
    false_start_words: bool = True
    """Announce a false start in words (who, and on which side) beside the arrow."""

    def toggled(self) -> CueSettings:
        """Every cue on or off together, as the scoreboard's one switch sets them (each can
        also be set alone in the configuration)."""
        on = not self.countdown_words
        return replace(self, countdown_words=on, countdown_shapes=on, colour_marks=on,
                       false_start_words=on)


def countdown_word(phase: CountdownPhase) -> str:
    """The word written on the countdown light for ``phase`` in the current language."""
    if phase is CountdownPhase.GO:
        return _("GO!")
    return _("Waiting")


def side_arrow(side: Side) -> str:
    """An arrow and the side's name, pointing the way the unit's false-start arrow points."""
    if side is Side.LEFT:
        return _("← left")
    return _("right →")


def false_start_message(name: str, side: Side) -> str:
    """The words that announce a false start: who pressed too soon, and the arrow's side."""
    return _("False start: {name}").format(name=name) + " " + side_arrow(side)


def release_paddle_message() -> str:
    """Shown when a paddle is still held as a countdown is about to start."""
    return _("Release the paddle")
