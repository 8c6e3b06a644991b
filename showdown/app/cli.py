"""The ``showdown`` command line: subcommands discovered from :mod:`showdown.app.subcommands`."""

from __future__ import annotations

import argparse
import contextlib
import errno
import importlib
import os
import pkgutil
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import cast

from showdown import __version__
from showdown.app import subcommands
from showdown.app.errors import UserError
from showdown.app.signals import Stopped, stop_signals

GROUPS: dict[str, str] = {
    "bench": "benchmarks: print measured figures (never part of the tests)",
    "sim": "run the simulated unit, players and tables",
    "event": "game night across tables: host an event, or play a simulated one (docs/event.md)",
}

Runner = Callable[[argparse.Namespace], int]


def _command_modules(argv: Sequence[str] | None = None) -> list[ModuleType]:
    """The subcommands' modules: only the asked command's (``run``, or a group's, ``sim_*``)
    when the first argument names one, else all of them. A module imports what its command
    needs (Starlette, the brokers, the engine's bots), so one command does not pay for all."""
    names = sorted(info.name for info in pkgutil.iter_modules(subcommands.__path__)
                   if not info.name.startswith("_"))
    first = argv[0] if argv else ""
    asked = [name for name in names
             if first and (name == first or (first in GROUPS and name.startswith(f"{first}_")))]
    found = []
    for name in asked or names:
        module = importlib.import_module(f"{subcommands.__name__}.{name}")
        if hasattr(module, "NAME") and hasattr(module, "run"):
            found.append(module)
    return found


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with every discovered subcommand in its group (only the one ``argv`` asks
    for, when it names one)."""
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
    for module in _command_modules(argv):
        group_name = getattr(module, "GROUP", None)
        target = top if group_name is None else group_parsers[group_name]
        help_text = getattr(module, "HELP", "")
        sub = target.add_parser(module.NAME, help=help_text, description=help_text)
        module.add_arguments(sub)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``showdown`` console command.

    Whatever happens, the answer is one line and an exit status: a stop signal (handled from the
    very start, :mod:`showdown.app.signals`), a user's mistake, or an output that cannot be
    written (a closed pipe, a full disk).
    """
    installed = stop_signals.install()
    _fill_closed_descriptors()
    if sys.stdout is None:  # started with it closed (`showdown export >&-`)
        _say("showdown: error: standard output is closed: give it somewhere to go "
             "(> /dev/null to throw away what it prints)")
        if installed:
            stop_signals.restore()
        return 1
    try:
        code = _main(argv)
    except Stopped as stop:
        code = 128 + stop.signum
        _say(f"showdown: stopped by {stop.name}")
    except KeyboardInterrupt:
        code = 130
    except ImportError as error:
        if error.name != "engine":
            raise
        # engine.build refuses a compiled engine older than its sources; its message says what
        # to run (make build), so one line and no traceback
        code = 1
        _say(f"showdown: error: {error}")
    except OSError as error:
        if error.filename is not None or not _stdout_lost(error):
            raise
        _flush_stdout()
        _say(f"showdown: error: cannot write to standard output: {error.strerror}")
        return 1
    finally:
        if installed:  # else the entry point keeps them until the process ends
            stop_signals.restore()
    problem = _flush_stdout()
    if problem is not None:
        _say(f"showdown: error: cannot write to standard output: {problem}")
        return code or 1
    return code


def _main(argv: Sequence[str] | None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(arguments)
    args = parser.parse_args(arguments)
    runner = cast("Runner | None", getattr(args, "_run", None))
    if runner is None:
        group = getattr(args, "_group_parser", None)
        (group or parser).print_help()
        return 2
    stop_signals.check()  # a signal while reading the command line: stop before it starts
    stop_signals.route(None)  # from here a stop signal unwinds the command (outputs made safe)
    try:
        return runner(args)
    except UserError as exc:
        _say(f"showdown: error: {exc}")
        return 2


def _fill_closed_descriptors() -> None:
    """Put /dev/null on standard input, output or error if the process started with one
    closed: else the next file opened (the journal) would take its number, and whatever writes
    there (a library's banner) would write into that file."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            with contextlib.suppress(OSError):
                spare = os.open(os.devnull, mode)
                if spare != fd:
                    os.dup2(spare, fd)
                    os.close(spare)


def _stdout_lost(error: OSError) -> bool:
    """Whether *error* is what writing a lost standard output raises (a closed pipe, a full
    disk, an I/O error)."""
    return isinstance(error, BrokenPipeError) or error.errno in (errno.ENOSPC, errno.EIO)


def _say(text: str) -> None:
    """One line on standard error (never raising: it may be gone too)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(text, file=sys.stderr, flush=True)


def _flush_stdout() -> str | None:
    """Flush standard output now; if it cannot be written, point it at /dev/null (so Python's
    own flush at exit prints no traceback) and return why."""
    stream = sys.stdout
    if stream is None:
        return None
    try:
        stream.flush()
        return None
    except OSError as error:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        return error.strerror or type(error).__name__
    except ValueError:  # closed
        return None
