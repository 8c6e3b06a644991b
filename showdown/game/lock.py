"""One writer per journal, whatever the path: an operating-system lock on the journal file itself.

Two services writing one journal would both append to the same open game, each from its own
idea of it, and through two names of one file (a hard link, a symbolic link) SQLite keeps two
write-ahead logs and damages the file. So a process that writes a journal first takes an
exclusive ``flock`` on the journal file and keeps it while it runs: the lock belongs to the file
(its inode), not to a name, so every path to it meets the same lock. ``flock`` locks are apart
from the POSIX record locks SQLite takes on the same file, so the two never meet. The kernel
drops the lock when its holder dies, however it dies (SIGKILL, a pulled cable): no stale lock is
ever left to clean up by hand. A second writer is refused in one line naming the holder, found
in the kernel's table of locks (``/proc/locks``) by the file's device and inode.

Readers (``showdown export``) take no lock: SQLite lets them read while the service writes.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

from showdown.game.journal import JournalError, create_journal

__all__ = ["JournalBusyError", "JournalLock"]

PROC_LOCKS = Path("/proc/locks")


class JournalBusyError(JournalError):
    """Another process holds the journal's lock."""


class JournalLock:
    """An exclusive lock on one journal file, held until :meth:`release` or the process ends."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def acquire(cls, journal: Path | str) -> JournalLock:
        """Take the lock of *journal* (made first, empty, if there is none yet), or raise
        :class:`JournalBusyError` naming its holder.

        Raises :class:`JournalError` when the journal cannot be made or opened, or its file
        system has no locks."""
        journal = Path(journal)
        for _ in range(10):  # the name pointed elsewhere once locked: lock what it names now
            create_journal(journal)
            try:
                fd = os.open(journal, os.O_RDONLY | os.O_CLOEXEC)
            except OSError as error:
                raise JournalError(f"cannot lock {journal}: {error.strerror or error}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = holder_of(os.fstat(fd))
                os.close(fd)
                raise JournalBusyError(
                    f"{journal} is in use by {holder}; one journal has one service: stop that "
                    "one first, or choose another file (--db)"
                ) from None
            except OSError as error:  # a file system without locks: say so rather than risk it
                os.close(fd)
                raise JournalError(
                    f"cannot lock {journal}: {error.strerror or error}") from None
            if _same_file(journal, fd):
                return cls(journal, fd)
            os.close(fd)
        raise JournalError(f"cannot lock {journal}: it keeps being replaced")

    @property
    def held(self) -> bool:
        """True until released."""
        return self._fd is not None

    def release(self) -> None:
        """Let another process write the journal (safe to call twice). Called once the journal
        is closed: closing this descriptor would also drop SQLite's own locks on the file."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        os.close(fd)

    def __enter__(self) -> JournalLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _same_file(journal: Path, fd: int) -> bool:
    try:
        named = os.stat(journal)
    except OSError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


def holder_of(stat: os.stat_result) -> str:
    """Who holds a ``flock`` on the file of *stat*: ``process 1234 (showdown run --sim)``, or
    ``another process`` where the kernel's table cannot say."""
    want = (os.major(stat.st_dev), os.minor(stat.st_dev), stat.st_ino)
    try:
        table = PROC_LOCKS.read_text(encoding="ascii", errors="replace")
    except OSError:
        return "another process"
    for line in table.splitlines():
        # "1: FLOCK  ADVISORY  WRITE 1234 08:02:131090 0 EOF" (a waiter's line has "->")
        fields = line.split()
        if len(fields) < 6 or fields[1] != "FLOCK" or "->" in fields:
            continue
        try:
            major, minor, inode = fields[5].split(":")
            found = (int(major, 16), int(minor, 16), int(inode))
            pid = int(fields[4])
        except ValueError:
            continue
        if found == want and pid > 0:
            return f"process {pid}{_command(pid)}"
    return "another process"


def _command(pid: int) -> str:
    """`` (showdown run --sim)``: the holder's command line from ``showdown`` on, if it can be
    read."""
    with contextlib.suppress(OSError):
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
        argv = [word for word in words.split("\x00") if word]
        start = next((i for i, word in enumerate(argv) if Path(word).name == "showdown"), None)
        shown = argv[start + 1:] if start is not None else argv[:1]
        prefix = ["showdown"] if start is not None else []
        return f" ({' '.join([*prefix, *shown])[:200]})"
    return ""
