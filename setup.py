"""Optional mypyc build of the engine's hot modules; pyproject.toml holds all the metadata.

Without ``SHOWDOWN_MYPYC=1`` this adds nothing: every install (the editable one in ``.venv``,
the Pi's) is pure Python, so no compiled module can ever shadow an edited source file.

With ``SHOWDOWN_MYPYC=1`` the modules in ``COMPILED`` are compiled to C extensions by mypyc
(it ships with mypy). ``make bench`` does this in its own ``.venv-bench``: it installs mypy there
first and then builds with ``pip install --no-build-isolation``, so the build uses that mypy and
ordinary installs never download mypy or need a C compiler. A compiled build is refused for an
editable install: the extensions would land beside the sources and shadow later edits.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

# The round's inner loop and what it calls per action. Left out on purpose: commands.py and
# events.py, whose dataclasses pydantic's TypeAdapters inspect at run time: compiled, the
# ``type: Literal[...]`` fields lose their Literal and building COMMAND_ADAPTER fails ("Dataclass
# 'PlayCard' needs field 'type' to be of type `Literal`", tried with mypy 2.4.1); rules.py and
# deck.py (pydantic models); and the modules a round does not touch per action (cards, scoring,
# game, card_facts, ...), where compiling would gain nothing measurable. Killer UNO's modules
# (jump_in, hand_passing, penalties) and uno_call run per command under the rules that use them.
COMPILED = [
    "engine/round.py",
    "engine/bots.py",
    "engine/actions.py",
    "engine/legality.py",
    "engine/tables.py",
    "engine/rng.py",
    "engine/interned.py",
    "engine/state.py",
    "engine/effects.py",
    "engine/uno_call.py",
    "engine/jump_in.py",
    "engine/hand_passing.py",
    "engine/penalties.py",
]


def _extensions() -> list[object]:
    if os.environ.get("SHOWDOWN_MYPYC") != "1":
        return []
    if {"editable_wheel", "develop"} & set(sys.argv):
        sys.exit("SHOWDOWN_MYPYC=1 needs a non-editable install (pip install --no-build-isolation)")
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 - only for the optional build
    except ImportError:
        sys.exit(
            "SHOWDOWN_MYPYC=1 needs mypy in the installing environment: pip install mypy, then "
            "pip install --no-build-isolation ."
        )
    return list(mypycify(COMPILED, opt_level="3", target_dir="build/mypyc"))


setup(ext_modules=_extensions())
