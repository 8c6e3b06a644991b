"""The journal's high-water mark: how many entries were acknowledged, kept apart from SQLite.

SQLite trusts its write-ahead log up to the first frame whose checksum fails and drops every
frame after it without a word, so one flipped bit in ``<journal>-wal`` (SD cards do that) can take
back entries that were acknowledged as on disk, and ``PRAGMA integrity_check`` still says ok.
The mark is what such a loss cannot reach: after every commit the journal writes the highest
sequence number and the number of entries it has acknowledged into ``<journal>.mark``, a small
file of its own, and on every open it checks that the journal still holds at least that much.

The file holds two copies written in turn, each with a CRC-32, so a write cut short by a power
cut leaves the other one whole; the newer good copy counts. Each copy names the journal file's
inode: a mark left by another file (a journal replaced by a copy) is not this one's, and is
started again rather than taken as a loss. A mark that is missing or unreadable knows nothing:
the check is skipped and the next write starts it again.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Mark", "MarkFile", "mark_path"]

_MAGIC = b"SDMK"
_LAYOUT = struct.Struct("<4sHHQQQQ")  # magic, version, reserved, generation, inode, seq, count
_SLOT = _LAYOUT.size + 4  # and a CRC-32 of the rest
_VERSION = 1


def mark_path(journal: Path) -> Path:
    """The mark of *journal*: beside the file itself (a symbolic link is followed), ``.mark``
    added to its name."""
    real = journal.resolve()
    return real.with_name(real.name + ".mark")


@dataclass(frozen=True, slots=True)
class Mark:
    """What was acknowledged: the highest entry sequence number and how many entries."""

    seq: int
    count: int


class MarkFile:
    """The mark of one journal file (see the module docstring)."""

    def __init__(self, journal: Path, inode: int) -> None:
        self.path = mark_path(journal)
        self._inode = inode
        self._fd: int | None = None
        self._generation = 0

    def read(self) -> Mark | None:
        """The newest good copy for this journal file, or None (no mark, damaged, another file)."""
        try:
            with self.path.open("rb") as file:
                data = file.read(2 * _SLOT)
        except OSError:
            return None
        best: tuple[int, Mark] | None = None
        for start in (0, _SLOT):
            slot = data[start:start + _SLOT]
            if len(slot) != _SLOT or zlib.crc32(slot[:-4]) != int.from_bytes(slot[-4:], "little"):
                continue
            magic, version, _, generation, owner, seq, count = _LAYOUT.unpack(slot[:-4])
            if magic != _MAGIC or version != _VERSION or owner != self._inode:
                continue
            if best is None or generation > best[0]:
                best = (generation, Mark(seq, count))
        if best is None:
            return None
        self._generation = max(self._generation, best[0])
        return best[1]

    def write(self, mark: Mark) -> None:
        """Record *mark* durably (written and synced before this returns), in the older slot.

        Raises ``OSError`` when it cannot: the caller decides what that means."""
        if self._fd is None:
            made = not self.path.exists()
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
            if made:  # its name on disk too, or a power cut could take the new file away
                folder = os.open(self.path.parent, os.O_RDONLY | os.O_CLOEXEC)
                try:
                    os.fsync(folder)
                finally:
                    os.close(folder)
        self._generation += 1
        body = _LAYOUT.pack(_MAGIC, _VERSION, 0, self._generation, self._inode, mark.seq,
                            mark.count)
        slot = body + zlib.crc32(body).to_bytes(4, "little")
        os.pwrite(self._fd, slot, (self._generation % 2) * _SLOT)
        os.fdatasync(self._fd)

    def close(self) -> None:
        """Let go of the file (safe to call twice)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
