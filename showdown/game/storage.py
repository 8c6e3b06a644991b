"""Where the journal lives: the ``[storage]`` configuration section and the ``--db`` option.

The path is chosen, first to last: ``--db`` on the command line, the configuration's
``storage.path`` (``[storage] path = ...`` in the TOML file, or ``SHOWDOWN_STORAGE__PATH`` in the
environment), then the per-user default (``$XDG_DATA_HOME/showdown/showdown.db``, usually
``~/.local/share/showdown/showdown.db``). On a Pi the example configuration sets
``/var/lib/showdown/showdown.db``.

A simulated game (bots on the simulated unit) never goes into that journal: without ``--db`` it
goes to its own journal beside it (:func:`simulated_path`, ``showdown-simulated.db``), so the
games a table kept by hand are never mixed with games nobody played.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

__all__ = [
    "StorageSettings", "add_db_argument", "checked_path", "db_path", "default_path",
    "journal_argument", "simulated_path",
]

NAME_MAX = 255
"""The longest file name (in bytes) Linux file systems take."""
PATH_MAX = 4096
"""The longest path (in bytes, with its ending NUL) the kernel takes."""


def checked_path(text: str | os.PathLike[str]) -> Path:
    """*text* as a journal's path, or ``ValueError`` saying why no file can have it (the
    operating system would refuse it later with an error naming no setting)."""
    raw = os.fspath(text)
    if not raw:
        raise ValueError("an empty path names no file")
    if "\x00" in raw:
        raise ValueError("a path cannot hold a NUL byte")
    size = len(os.fsencode(raw))
    if size >= PATH_MAX:
        raise ValueError(f"a path of {size} bytes is longer than any file system takes "
                         f"({PATH_MAX - 1})")
    for part in Path(raw).parts:
        if len(os.fsencode(part)) > NAME_MAX:
            raise ValueError(f"a name of {len(os.fsencode(part))} bytes in the path is longer "
                             f"than a file system takes ({NAME_MAX})")
    return Path(raw)


def journal_argument(text: str) -> Path:
    """An argparse type for a journal path (``--db``): :func:`checked_path`."""
    try:
        return checked_path(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None

def default_path() -> Path:
    """Per-user default: ``$XDG_DATA_HOME/showdown/showdown.db`` (``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "showdown" / "showdown.db"


def _checked_setting(value: object) -> object:
    return checked_path(value) if isinstance(value, str | os.PathLike) else value


class StorageSettings(BaseModel):
    """The ``[storage]`` section of the configuration.

    ``path`` unset means the per-user default (:func:`default_path`).
    """

    model_config = ConfigDict(extra="forbid")

    path: Annotated[Path, BeforeValidator(_checked_setting)] | None = Field(
        default=None, description="SQLite file of the game journal")
    log_entries: bool = Field(
        default=False,
        description="log one line per journal entry once it is on disk (game, seq, kind, key): "
        "under systemd it goes to the journal, and to a serial console if journald forwards there",
    )

    def resolved_path(self) -> Path:
        """The file to open: the configured one, else the per-user default."""
        return self.path if self.path is not None else default_path()


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--db PATH`` option every journal-reading command shares."""
    parser.add_argument(
        "--db",
        type=journal_argument,
        metavar="PATH",
        help=f"the journal file (default: the configuration's storage.path, or {default_path()})",
    )


def db_path(given: Path | None, settings: StorageSettings | None = None) -> Path:
    """The journal file to use, by the order in the module docstring."""
    if given is not None:
        return given
    return (settings or StorageSettings()).resolved_path()


SIMULATED_SUFFIX = "-simulated"
"""Added to the journal's name for the simulator's own journal beside it."""


def simulated_path(given: Path | None, settings: StorageSettings | None = None) -> Path:
    """The journal a simulated game goes to: ``--db`` when given (the user chose it), else a
    journal of its own beside the table's (``showdown.db`` -> ``showdown-simulated.db``)."""
    if given is not None:
        return given
    real = db_path(None, settings)
    return real.with_name(f"{real.stem}{SIMULATED_SUFFIX}{real.suffix}")
