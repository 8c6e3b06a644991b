"""The ``showdown`` command (``python -m showdown``, and the console script's entry point).

A stop signal can come before the command line is even read, while the modules it needs still
import (pydantic, pygame: a good part of a second on a Pi). So the stop signals' handler is
installed by the first line of showdown's own code here, before any of them: a signal while they
import is noted, and the command stops before it begins (:mod:`showdown.app.signals`). Once the
command is done, the process is on its way out and a stop signal has nothing left to stop: it is
ignored, rather than ending the process by the signal after a clean stop.
"""

import signal
import sys

from showdown.app.signals import STOP_SIGNALS, stop_signals


def main() -> None:
    """Run the command line and exit with its status."""
    stop_signals.install()
    from showdown.app.cli import main as command_line  # noqa: PLC0415 - after the handler

    try:
        code = command_line()
    finally:  # done: ignored to the end (Python's own exit would give them back their default)
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
    sys.exit(code)


if __name__ == "__main__":
    main()
