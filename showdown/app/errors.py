"""The one error a subcommand raises for a mistake the user can fix.

It lives apart from :mod:`showdown.app.cli` so that the subcommands, which the command line
discovers and imports, never import the command line back.
"""

from __future__ import annotations

__all__ = ["UserError"]


class UserError(Exception):
    """A problem the user can fix (bad option, bad file): printed as one line, no traceback."""
