"""``showdown scoreboard``: the touchscreen scoreboard on its own, over the game journal.

``--interactive`` draws a simulated unit beside it, played from the keyboard (``A`` left paddle,
``L`` right paddle, ``Space`` the timer button) against the real showdown state machine: a
developer's way to play showdowns by hand. The full service (``showdown run``) starts the
scoreboard with the real unit instead.
"""

from __future__ import annotations

import argparse
import sys

NAME = "scoreboard"
GROUP = None
HELP = "the touchscreen scoreboard over the journal (--interactive: with a simulated unit)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``showdown scoreboard``."""
    from showdown.game.storage import add_db_argument  # noqa: PLC0415

    add_db_argument(parser)
    parser.add_argument("--interactive", action="store_true",
                        help="draw a simulated unit beside the scoreboard, played by keyboard")
    parser.add_argument("--size", default="800x480", help="window size WxH (800x480)")
    parser.add_argument("--fullscreen", action="store_true",
                        help="fill the screen (the Pi's panel); ignored with --interactive")


def run(args: argparse.Namespace) -> int:
    """Open the journal, resume its game, show the scoreboard until it is closed."""
    from showdown.app.arguments import window_size  # noqa: PLC0415
    from showdown.app.errors import UserError  # noqa: PLC0415
    from showdown.app.scoreboard_main import play  # noqa: PLC0415
    from showdown.game.journal import (  # noqa: PLC0415
        Journal,
        JournalError,
        check_file,
        check_writable,
    )
    from showdown.game.lock import JournalLock  # noqa: PLC0415
    from showdown.game.session import Session, SessionError  # noqa: PLC0415
    from showdown.game.storage import db_path  # noqa: PLC0415
    from showdown.scoreboard.display import NoWindowError, check_environment  # noqa: PLC0415

    size = window_size(args.size)
    path = db_path(args.db)
    try:  # before any file is made: no screen, nothing to do
        check_environment()
    except NoWindowError as error:
        raise UserError(f"the scoreboard needs a screen and none can open here: {error}") from None
    if not path.exists():  # a mistyped --db must not pass for an empty game unnoticed
        print(f"showdown: no journal at {path}: starting a new one there", file=sys.stderr)
    try:  # the scoreboard writes the journal: one writer at a time, as for the service
        check_file(path)  # not a journal, or not writable: say that, not that it cannot be locked
        check_writable(path)
        lock = JournalLock.acquire(path)
    except JournalError as error:
        raise UserError(str(error)) from None
    with lock:
        try:
            journal = Journal.open(path, writable=True)
        except JournalError as error:
            raise UserError(str(error)) from None
        try:
            session = Session(journal)
            play(session, interactive=args.interactive, size=size, fullscreen=args.fullscreen)
        except (JournalError, SessionError) as error:
            raise UserError(str(error)) from None
        except NoWindowError as error:
            raise UserError(
                f"the scoreboard needs a screen and none can open here: {error}"
            ) from None
        finally:
            journal.close()
    return 0
