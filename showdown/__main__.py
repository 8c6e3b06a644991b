"""The ``showdown`` command (``python -m showdown``, and the console script's entry point).

A stop signal can come before the command line is even read, while the modules it needs still
import (pydantic, pygame: a good part of a second on a Pi). So the first lines of showdown's own
code here, before any other import (even :mod:`signal`, whose enums take milliseconds to build),
put in a handler from the interpreter's built-in ``_signal`` that only notes a stop signal; the
entry point then installs the real one (:mod:`showdown.app.signals`) and hands it what was noted,
and the command stops before it begins. Before these lines the interpreter itself is starting
(``site``): the ``showdown`` command compiled from ``deploy/launcher.c`` starts it with the stop
signals blocked, so one sent then waits for these lines; where pip's script is the command (no C
compiler), a signal there is Python's: SIGINT a ``KeyboardInterrupt`` from its start-up, SIGTERM
and SIGHUP the end of a process that has touched nothing yet. Once the command is done,
the process is on its way out and a stop signal has nothing left to stop: it is ignored, rather
than ending the process by the signal after a clean stop.

Under systemd the imports that follow are the start's first and longest phase on a slow Pi, and
no code of the service's can speak while they run: each module imported then tells systemd the
start goes on (:func:`showdown.app.startup.watch_imports`, silent elsewhere).
"""

import _signal  # type: ignore[import-not-found]  # built in, loaded with the interpreter

_EARLY: list[int] = []


def _noted_early(signum: int, _frame: object) -> None:
    """Until the entry point's handler is in: note the signal, nothing else."""
    _EARLY.append(signum)


_STOPS = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP, _signal.SIGUSR1)
for _signum in _STOPS:
    _signal.signal(_signum, _noted_early)
# The compiled launcher (deploy/launcher.c) starts the interpreter with these blocked, so that one
# sent while it started is still pending: from here it is delivered to the handler above.
_signal.pthread_sigmask(_signal.SIG_UNBLOCK, _STOPS)

import signal  # noqa: E402 - after the early handler
import sys  # noqa: E402

from showdown.app.signals import STOP_SIGNALS, stop_signals  # noqa: E402


def main() -> None:
    """Run the command line and exit with its status."""
    stop_signals.install()
    for signum in _EARLY:  # came while the modules above imported: the command stops at once
        stop_signals.noted(signum)
    from showdown.app.startup import watch_imports  # noqa: PLC0415 - after the handler

    watch_imports()
    from showdown.app.cli import main as command_line  # noqa: PLC0415 - after the handler

    try:
        code = command_line()
    finally:  # done: ignored to the end (Python's own exit would give them back their default)
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    main()
