"""The engine's two builds: its Python sources, or its hot modules compiled to C by mypyc.

``setup.py`` compiles the modules in :data:`COMPILED` into ``engine/_compiled/`` (``make build``,
``make run``, ``make test`` and ``deploy/install.sh`` do it wherever a C compiler and the Python
headers are present) and writes :data:`RECORD` there: which build it made and why, the modules,
and a SHA-256 of every engine source at that moment. When :mod:`engine` is imported,
:func:`select` compares those digests with the sources beside it. Fresh, ``engine/_compiled``
(the layout is under :data:`GROUP`) goes ahead of the sources on ``engine.__path__``, so
``engine.round`` loads compiled; stale (a
source edited, added or removed since), the import is refused with a line that says what to run:
an edit is never shadowed by machine code built from older sources. The compiled modules live in
their own directory, never beside the sources, so one environment variable can choose the sources
without deleting anything: ``SHOWDOWN_ENGINE=python`` runs the sources whatever is built (the
tests and ``make bench`` compare the builds this way), ``SHOWDOWN_ENGINE=mypyc`` refuses to run
anything but the compiled build.

Reading the sources at import is the one place the engine does I/O. This module imports nothing
of ours, because ``setup.py`` loads it by its path (the digest and the module list are shared,
not copied) and :mod:`engine` imports it before anything else; it is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal

__all__ = [
    "CANNOT_COMPILE",
    "COMPILED",
    "ENV",
    "INTERPRETED",
    "RECORD",
    "EngineBuild",
    "StaleBuildError",
    "describe",
    "running",
    "select",
    "source_digests",
]

COMPILED: Final = (
    "round",
    "bots",
    "actions",
    "legality",
    "tables",
    "rng",
    "interned",
    "state",
    "effects",
    "uno_call",
    "jump_in",
    "hand_passing",
    "penalties",
)
"""The modules mypyc compiles: the round's inner loop, what it calls per command (Killer UNO's
``jump_in``, ``hand_passing`` and ``penalties`` under the rules that use them), and the classes
it reads per command (``tables``, ``state``). A test fails when a module the round calls
per command is neither here nor in :data:`CANNOT_COMPILE`."""

CANNOT_COMPILE: Final = {
    "commands": "pydantic's TypeAdapter inspects its dataclasses at run time: compiled, the "
    "`type: Literal[...]` fields lose their Literal and COMMAND_ADAPTER cannot be built",
    "events": "the same as commands: EVENT_ADAPTER inspects the dataclasses",
    "rules": "pydantic models",
    "deck": "pydantic models",
    "build": "it decides, before any compiled module can load, whether they may",
}
"""Modules that stay interpreted because mypyc cannot compile them (or must not), and why."""

INTERPRETED: Final = {
    "card_facts": "worked out once per deck and rule set, then cached",
    "cards": "card codes and points: read once per deck, not per command",
    "dealer": "once per game (the first dealer's draw)",
    "error_text": "the messages of refusals",
    "errors": "one exception class",
    "game": "once per round (scores and the deal passing)",
    "places": "places in a game's final standings and the event's: after a round, not per command",
    "scoring": "once per round; its pydantic settings do not compile (mypyc 2.4.1: "
    "'CPyModule_pydantic___main' undeclared)",
    "stats": "after the game",
    "tally": "once per round entered by hand",
}
"""Modules left interpreted because a round does not run them per command: compiling them would
cost build time (minutes on a Pi) and gain nothing measurable."""

ENV: Final = "SHOWDOWN_ENGINE"
"""``python``: run the sources even when a compiled build is there; ``mypyc``: run the compiled
build or refuse to start."""

GROUP: Final = "engine.native"
"""mypyc's name for the compiled group: its shared library ``engine/_compiled/native__mypyc``
holds the code; each compiled module is a small extension in ``engine/_compiled/engine/`` that
loads it. Both directories go on ``engine.__path__``, laid out so that the ``__file__`` mypyc
derives from the library's place (its directory, then ``engine/round...``) is the real file."""

PACKAGE_DIR: Final = Path(__file__).resolve().parent
COMPILED_DIR: Final = PACKAGE_DIR / "_compiled"
MODULES_DIR: Final = COMPILED_DIR / "engine"
RECORD: Final = "build.json"
"""The build record in ``engine/_compiled/``, written by ``setup.py`` (:func:`record`)."""

Kind = Literal["mypyc", "python"]


class StaleBuildError(ImportError):
    """The compiled modules were built from other sources than those beside them (or for another
    Python), or ``SHOWDOWN_ENGINE=mypyc`` asked for a compiled build that is not there. Its
    ``name`` is ``engine``: the import that failed, as the command line reports it."""

    def __init__(self, message: str) -> None:
        super().__init__(message, name="engine")


@dataclass(frozen=True, slots=True)
class EngineBuild:
    """Which build :func:`select` chose: ``kind``, ``why`` in words, and the compiled
    ``modules`` (empty for the sources)."""

    kind: Kind
    why: str
    modules: tuple[str, ...] = ()


def source_digests(package_dir: Path = PACKAGE_DIR) -> dict[str, str]:
    """SHA-256 of every Python source of the engine, by its path inside the package. All of them,
    not only the compiled ones: mypyc compiles against the types of the modules they import."""
    digests = {}
    for path in sorted(package_dir.rglob("*.py")):
        name = path.relative_to(package_dir).as_posix()
        if name.startswith("_compiled/") or "__pycache__" in name:
            continue
        digests[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def record(kind: Kind, why: str, package_dir: Path = PACKAGE_DIR) -> str:
    """The build record's text, for ``setup.py`` to write into ``_compiled/`` with the build."""
    data = {
        "build": kind,
        "why": why,
        "modules": list(COMPILED) if kind == "mypyc" else [],
        "python": sys.implementation.cache_tag,
        "sources": source_digests(package_dir),
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def shared_library() -> str:
    """The module name, inside ``engine``, of the compiled group's shared library."""
    return GROUP.rsplit(".", 1)[-1] + "__mypyc"


def _rebuild_hint() -> str:
    """What to run: ``make build`` in a checkout, the install script for an installed copy."""
    if (PACKAGE_DIR.parent / "Makefile").exists() and (PACKAGE_DIR.parent / "setup.py").exists():
        return "run `make build` to compile it again"
    return "install again (deploy/install.sh, or pip install of the project)"


def _changed(recorded: dict[str, str]) -> list[str]:
    """The sources edited, added or removed since the record was written."""
    now = source_digests()
    return sorted(
        name for name in recorded.keys() | now.keys() if recorded.get(name) != now.get(name)
    )


def _extension_names(directory: Path) -> set[str]:
    """The module names of the extension files in ``directory`` this Python can load."""
    suffixes = sorted(importlib.machinery.EXTENSION_SUFFIXES, key=len, reverse=True)
    names = set()
    for path in directory.iterdir() if directory.is_dir() else ():
        suffix = next((end for end in suffixes if path.name.endswith(end)), None)
        if suffix is not None:
            names.add(path.name.removesuffix(suffix))
    return names


@cache
def select() -> tuple[list[str], EngineBuild]:
    """The directories to put ahead of the sources on ``engine.__path__``, and the build that
    makes; raises :class:`StaleBuildError` rather than run compiled code built from other
    sources. Decided once, at the engine's import: later calls give the same answer."""
    wanted = os.environ.get(ENV, "")
    if wanted not in {"", "python", "mypyc"}:
        raise StaleBuildError(f"{ENV}={wanted!r}: use python, mypyc, or leave it unset")
    if wanted == "python":
        return [], EngineBuild("python", f"{ENV}=python")
    try:
        data = json.loads((COMPILED_DIR / RECORD).read_text(encoding="utf-8"))
    except FileNotFoundError:
        data = {"build": "python", "why": "not compiled here (no engine/_compiled/build.json)"}
    except (OSError, ValueError) as error:
        raise StaleBuildError(f"engine/_compiled/{RECORD} is unreadable ({error}): "
                              f"{_rebuild_hint()}") from None
    if data.get("build") != "mypyc":
        if wanted == "mypyc":
            raise StaleBuildError(f"{ENV}=mypyc but the engine is not compiled: {data.get('why')}")
        return [], EngineBuild("python", str(data.get("why", "")))
    modules = [str(name) for name in data.get("modules", [])]
    changed = _changed(dict(data.get("sources", {})))
    if changed:
        shown = ", ".join(f"engine/{name}" for name in changed[:3])
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        raise StaleBuildError(
            f"the compiled engine is older than its sources ({shown}{more} changed since it was "
            f"built): {_rebuild_hint()}, or set {ENV}=python to run the sources"
        )
    if data.get("python") != sys.implementation.cache_tag:
        raise StaleBuildError(
            f"the compiled engine was built for {data.get('python')}, not for this Python "
            f"({sys.implementation.cache_tag}): {_rebuild_hint()}, or set {ENV}=python to run "
            "the sources"
        )
    libraries, found = _extension_names(COMPILED_DIR), _extension_names(MODULES_DIR)
    missing = sorted(set(modules) - found) + sorted({shared_library()} - libraries)
    if missing:
        raise StaleBuildError(
            f"engine/_compiled lacks modules its build made ({', '.join(missing)}): "
            f"{_rebuild_hint()}, or set {ENV}=python to run the sources"
        )
    extra = sorted((found - set(modules)) | (libraries - {shared_library()}))
    if extra:
        raise StaleBuildError(
            f"engine/_compiled holds modules its build did not make ({', '.join(extra)}): "
            f"{_rebuild_hint()}, or set {ENV}=python to run the sources"
        )
    chosen = EngineBuild("mypyc", str(data.get("why", "")), tuple(modules))
    return [str(MODULES_DIR), str(COMPILED_DIR)], chosen


def running() -> Kind:
    """What really runs: ``mypyc`` only when every compiled module was loaded from its
    extension file (imports them)."""
    chosen = select()[1]
    if chosen.kind != "mypyc":
        return "python"
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in chosen.modules:
        path = getattr(importlib.import_module(f"engine.{name}"), "__file__", None) or ""
        if not path.endswith(suffixes):
            return "python"
    return "mypyc"


def describe() -> str:
    """One line: which build runs and why, as ``make``, the install script, ``showdown check``
    and ``showdown bench engine`` print it."""
    chosen = select()[1]
    kind = running()
    if kind == "mypyc":
        return f"engine: compiled by mypyc ({len(chosen.modules)} modules; {chosen.why})"
    if chosen.kind == "mypyc":
        return "engine: pure Python (the compiled modules did not load)"
    return f"engine: pure Python ({chosen.why})"
