"""The ``showdown`` command line: subcommands discovered from :mod:`showdown.app.subcommands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import cast

from showdown import __version__
from showdown.app import subcommands

GROUPS: dict[str, str] = {
    "bench": "benchmarks: print measured figures (never part of the tests)",
    "sim": "run the simulated unit, players and tables",
}

Runner = Callable[[argparse.Namespace], int]


class UserError(Exception):
    """A problem the user can fix (bad option, bad file): printed as one line, no traceback."""


def _command_modules() -> list[ModuleType]:
    found = []
    for info in sorted(pkgutil.iter_modules(subcommands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{subcommands.__name__}.{info.name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found.append(module)
    return found


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every discovered subcommand in its group."""
    parser = argparse.ArgumentParser(
        prog="showdown",
        description="UNO Showdown controller: the unit, its simulator, rules and scoreboard.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    top = parser.add_subparsers(dest="command", metavar="COMMAND")
    group_parsers: dict[str, argparse._SubParsersAction[argparse.ArgumentParser]] = {}
    for name, help_text in GROUPS.items():
        group = top.add_parser(name, help=help_text, description=help_text)
        group_parsers[name] = group.add_subparsers(dest=f"{name}_command", metavar="WHAT")
        group.set_defaults(_group_parser=group)
    for module in _command_modules():
        group_name = getattr(module, "GROUP", None)
        target = top if group_name is None else group_parsers[group_name]
        help_text = getattr(module, "HELP", "")
        sub = target.add_parser(module.NAME, help=help_text, description=help_text)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``showdown`` console command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    runner = cast("Runner | None", getattr(args, "_run", None))
    if runner is None:
        group = getattr(args, "_group_parser", None)
        (group or parser).print_help()
        return 2
    try:
        return runner(args)
    except UserError as exc:
        print(f"showdown: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
