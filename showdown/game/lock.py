"""One writer per journal: an operating-system lock on a file beside it.

Two services writing one journal would both append to the same open game, each from its own
idea of it. So a process that writes a journal first takes an exclusive ``flock`` on
``<journal>.lock`` and keeps it while it runs. The kernel drops the lock when its holder dies,
however it dies (SIGKILL, a pulled cable): no stale lock is ever left to clean up by hand. The
holder writes its process id and command line into the lock file, so a second writer is refused
in one line that says which process to stop.

Readers (``showdown export``) take no lock: SQLite lets them read while the service writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import time
from pathlib import Path

from showdown.game.journal import JournalError

__all__ = ["JournalBusyError", "JournalLock", "lock_path"]


class JournalBusyError(JournalError):
    """Another process holds the journal's lock."""


def lock_path(journal: Path) -> Path:
    """The lock file of *journal*: beside it, with ``.lock`` added to its name."""
    return journal.with_name(journal.name + ".lock")


class JournalLock:
    """An exclusive lock on one journal, held until :meth:`release` or the process ends."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, journal: Path | str) -> JournalLock:
        """Take the lock of *journal*, or raise :class:`JournalBusyError` naming its holder.

        Raises :class:`JournalError` when the lock file cannot be made (a read-only or missing
        folder that cannot be created): the journal could not be written there either.
        """
        journal = Path(journal)
        path = lock_path(journal)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as error:
            raise JournalError(
                f"cannot lock {journal}: {path}: {error.strerror or error}"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            who = f"process {holder}" if holder else "another process"
            raise JournalBusyError(
                f"{journal} is in use by {who}; one journal has one service: stop that one "
                "first, or choose another file (--db)"
            ) from None
        except OSError as error:  # a file system without locks: say so rather than risk it
            os.close(fd)
            raise JournalError(f"cannot lock {journal}: {error.strerror or error}") from None
        with contextlib.suppress(OSError):  # who holds it: only a courtesy for the refusal
            text = f"{os.getpid()} ({' '.join(['showdown', *sys.argv[1:]])[:200]})\n"
            os.ftruncate(fd, 0)
            os.pwrite(fd, text.encode("utf-8", "replace"), 0)
        return cls(path, fd)

    @property
    def held(self) -> bool:
        """True until released."""
        return self._fd is not None

    def release(self) -> None:
        """Let another process write the journal (safe to call twice)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        os.close(fd)

    def __enter__(self) -> JournalLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _holder(fd: int, patience_s: float = 1.0) -> str:
    """The holder's name, waiting up to *patience_s* for it: a holder writes it just after it
    took the lock, so a process started at the same moment can find the file still empty."""
    deadline = time.monotonic() + patience_s
    while not (holder := _read(fd)) and time.monotonic() < deadline:
        time.sleep(0.01)
    return holder


def _read(fd: int) -> str:
    """The holder as it wrote itself into the lock file ("1234 (showdown run --sim)")."""
    try:
        return os.pread(fd, 300, 0).decode("utf-8", "replace").strip()
    except OSError:
        return ""
