"""Argument types shared by the subcommands: one check for one kind of number, everywhere.

Used as ``type=`` in ``add_argument``, so argparse refuses a bad value with its usual one-line
``error: argument --seed: ...`` (exit status 2) before a command starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from showdown.app.errors import UserError
from showdown.game.names import NameRuleError, check_name

__all__ = [
    "BENCH_GAMES_MAX", "FRAMES_MAX", "GAMES_MAX", "IDLE_SECONDS_MAX", "MAX_WINDOW", "MIN_WINDOW",
    "REPEAT_MAX", "SEED_MAX", "SHOWDOWNS_MAX", "TARGET_MAX", "chance", "float_in_range",
    "int_in_range", "number_in_range", "seed", "table_name", "window_size",
]

#: The largest seed: random sources with 32-bit seeds (numpy's, used by RLCard) take 0..2**32-1.
SEED_MAX = 2**32 - 1

#: The most games one command plays (``sim games --count``, ``run --games``): days of play.
GAMES_MAX = 100_000

#: The most showdowns ``sim duels --count`` runs (about a day of simulated showdowns).
SHOWDOWNS_MAX = 1_000_000

#: The highest target score: a game to it still ends within the table's round limit.
TARGET_MAX = 5_000

#: The most rounds ``bench engine --games`` plays per timed run (minutes of work).
BENCH_GAMES_MAX = 1_000_000

#: The most timed runs a benchmark repeats (``--repeat``): enough for any median.
REPEAT_MAX = 1_000

#: The most frames ``bench scoreboard --frames`` draws per screen.
FRAMES_MAX = 100_000

#: The largest scoreboard window (an 8K screen): the scoreboard draws on one surface of this size.
MAX_WINDOW = (7680, 4320)

#: The smallest scoreboard window its layout still fits.
MIN_WINDOW = (160, 96)

#: The longest idle spell ``bench scoreboard --idle-seconds`` measures: an hour.
IDLE_SECONDS_MAX = 3600.0


def int_in_range(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from *low* to *high* (no upper limit when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            limit = f"{low} or more" if high is None else f"{low} to {high}"
            raise argparse.ArgumentTypeError(f"must be {limit}, not {value}")
        return value

    parse.__name__ = "whole number"  # argparse names the type in its messages
    return parse


def number_in_range(low: float, high: float, *, below_high: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite decimal number from *low* to *high* (below it if
    *below_high*)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or not (
            low <= value < high if below_high else low <= value <= high
        ):
            limit = f"from {low:g} up to (not including) {high:g}" if below_high else (
                f"{low:g} to {high:g}")
            raise argparse.ArgumentTypeError(f"must be {limit}, not {text}")
        return value

    parse.__name__ = "number"
    return parse


def float_in_range(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from *low* to *high*."""
    return number_in_range(low, high)


chance = number_in_range(0.0, 1.0, below_high=True)
"""An argparse type for a probability per byte or per event: 0 <= p < 1 (0.05 is 5 %)."""

seed = int_in_range(0, SEED_MAX)
"""An argparse type for ``--seed``: 0 to 2**32-1, what every random source here accepts."""


def window_size(text: str) -> tuple[int, int]:
    """``--size WxH`` of the scoreboard's window (``run``, ``scoreboard``, ``bench scoreboard``),
    checked once for all three: a size no scoreboard can be drawn at is one line naming the option.

    Not an argparse type: the command checks it after the options it has always checked first,
    so the same mistake gives the same line it always gave.

    >>> window_size("1024X600")
    (1024, 600)
    """
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise UserError(f"--size {text!r}: give WIDTHxHEIGHT, e.g. 800x480") from None
    if width < MIN_WINDOW[0] or height < MIN_WINDOW[1]:
        raise UserError(f"--size {text!r}: too small for the scoreboard (at least "
                        f"{MIN_WINDOW[0]}x{MIN_WINDOW[1]})")
    if width > MAX_WINDOW[0] or height > MAX_WINDOW[1]:
        raise UserError(f"--size {text!r}: larger than any screen the scoreboard is made for "
                        f"(at most {MAX_WINDOW[0]}x{MAX_WINDOW[1]})")
    return width, height


def table_name(text: str) -> str:
    """An argparse type: a table's name by the name rule every door applies
    (:mod:`showdown.game.names`); empty is no name."""
    if text == "":
        return text
    try:
        return check_name(text, "table name")
    except NameRuleError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
