"""Argument types shared by the subcommands: one check for one kind of number, everywhere.

Used as ``type=`` in ``add_argument``, so argparse refuses a bad value with its usual one-line
``error: argument --seed: ...`` (exit status 2) before a command starts.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["SEED_MAX", "int_in_range", "seed"]

#: The largest seed: random sources with 32-bit seeds (numpy's, used by RLCard) take 0..2**32-1.
SEED_MAX = 2**32 - 1


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


seed = int_in_range(0, SEED_MAX)
"""An argparse type for ``--seed``: 0 to 2**32-1, what every random source here accepts."""
