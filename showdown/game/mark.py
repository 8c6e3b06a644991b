"""A journal's high-water mark: what it acknowledged, kept where a damaged log cannot take it.

SQLite trusts its write-ahead log up to the first frame whose checksum fails and drops every
frame after it without a word, so one flipped bit in ``<journal>-wal`` (SD cards do that) can take
back entries that were acknowledged as on disk, and ``PRAGMA integrity_check`` still says ok.
The mark is what such a loss cannot reach: after every commit the journal writes, into
``<journal>.mark`` (a small file of its own), the highest sequence number it acknowledged, how
many entries that makes, and the checksum and game of that last entry; on every open it checks
that the journal still holds at least that much, and that same last entry.

Which journal a mark belongs to is told by the journal's first entry (its sequence number and
checksum), which a copy keeps: a journal copied with its log and mark to another folder or card
is checked like the original, and a mark left by another journal is not taken for a loss. A
journal that holds no entry at all is checked against any mark beside it (its first entries may be
what the damaged log took), so a journal made anew where one was deleted removes the old mark.

The file holds two copies written in turn, each with a CRC-32, so a write cut short by a power
cut leaves the other one whole; the newer good copy counts. A mark that is missing or unreadable
knows nothing: the check is skipped and the next write starts it again. Marks written before the
first entry named the journal (version 1) name the journal file's inode instead, and count only
for that file.
"""

from __future__ import annotations

import contextlib
import logging
import os
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Keeper", "Mark", "MarkFile", "Marks", "Origin", "loss", "mark_path"]

log = logging.getLogger(__name__)

_MAGIC = b"SDMK"
_V1 = struct.Struct("<4sHHQQQQ")  # magic, version, reserved, generation, inode, seq, count
_V1_SLOTS = (0, _V1.size + 4)
# magic, version, reserved, generation, origin seq, origin crc, seq, count, crc, game
_V2 = struct.Struct("<4sHHQQIQQIQ")
_V2_SLOTS = (128, 192)  # past version 1's (0 and 44), so the first version 2 write spoils neither


def mark_path(journal: Path) -> Path:
    """The mark of *journal*: beside the file itself (a symbolic link is followed), ``.mark``
    added to its name."""
    real = journal.resolve()
    return real.with_name(real.name + ".mark")


def loss(journal: Path, found: Mark, stored: Mark, noun: str, whose: str = "") -> str:
    """What a journal that holds *found* lost against its mark *stored*, in words: which entries
    (*noun* is the entry's name less its "y" or "ies": "journal entr"), where they went, and the
    game of the last (*whose* follows it: " of its table")."""
    if found.seq < stored.seq:
        first = found.seq + 1
        lost = stored.seq - found.seq
        which = (f"{noun}y {first}" if lost == 1 else f"{noun}ies {first} to {stored.seq}")
    else:
        lost = stored.count - found.count
        which = f"{lost} {noun}ies" if lost > 1 else f"a {noun}y"
    were = ("was acknowledged as stored and is" if lost == 1
            else "were acknowledged as stored and are")
    wal = Path(f"{journal}-wal")
    where = (f"its write-ahead log {wal.name} is damaged" if wal.exists()
             else "the file lost what was written last")
    last = (f"; the last of them was in game {stored.game}{whose}"
            if stored.game and found.seq < stored.seq else "")
    return f"{which} {were} missing ({where}){last}"


@dataclass(frozen=True, slots=True)
class Mark:
    """What was acknowledged, so that an open can tell what is missing: the highest entry
    sequence number, how many entries, and the last entry's checksum and game (0: unknown)."""

    seq: int
    count: int
    crc: int = 0
    game: int = 0


@dataclass(frozen=True, slots=True)
class Origin:
    """Which journal a mark belongs to, told the way a copy keeps it: its first entry's
    sequence number and checksum."""

    seq: int
    crc: int


@dataclass(frozen=True, slots=True)
class _Copy:
    generation: int
    mark: Mark
    origin: Origin | None  # version 2
    inode: int | None  # version 1


def _sealed(body: bytes) -> bytes:
    return body + zlib.crc32(body).to_bytes(4, "little")


def _unsealed(slot: bytes, size: int) -> bytes | None:
    if len(slot) != size + 4 or zlib.crc32(slot[:-4]) != int.from_bytes(slot[-4:], "little"):
        return None
    return slot[:-4]


@dataclass(frozen=True, slots=True)
class Marks:
    """The good copies a mark file held when it was read, so the journal can be read after the
    mark (a writer marks after it commits) and the copy that belongs to it picked then."""

    copies: tuple[_Copy, ...]
    inode: int

    def for_journal(self, origin: Origin | None) -> Mark | None:
        """The newest copy that belongs to the journal whose first entry is *origin* (None: a
        journal with no entry), or None: no mark of this journal."""
        newest: _Copy | None = None
        for copy in self.copies:
            if copy.origin is not None:
                if origin is not None and copy.origin != origin and copy.mark.count:
                    continue  # another journal's
            elif copy.inode != self.inode:
                continue  # a version 1 copy of another file
            if newest is None or copy.generation > newest.generation:
                newest = copy
        return None if newest is None else newest.mark


    def describe(self) -> str:
        """The newest copy in words, whichever journal it names, for a support bundle."""
        if not self.copies:
            return "high-water mark: none (nothing to check the journal against)"
        newest = max(self.copies, key=lambda copy: copy.generation)
        mark = newest.mark
        last = f", the last entry {mark.seq}" + (f" (game {mark.game})" if mark.game else "")
        return (f"high-water mark: {mark.count} entries acknowledged"
                f"{last if mark.count else ''}")


class MarkFile:
    """The mark of one journal file (see the module docstring)."""

    def __init__(self, journal: Path, inode: int) -> None:
        self.path = mark_path(journal)
        self._inode = inode
        self._fd: int | None = None
        self._generation = 0

    def load(self) -> Marks:
        """Every good copy the file holds now (none: no file, or all damaged)."""
        try:
            with self.path.open("rb") as file:
                data = file.read(_V2_SLOTS[1] + _V2.size + 4)
        except OSError:
            data = b""
        copies: list[_Copy] = []
        for start in _V1_SLOTS:
            body = _unsealed(data[start:start + _V1.size + 4], _V1.size)
            if body is not None:
                magic, version, _, generation, inode, seq, count = _V1.unpack(body)
                if magic == _MAGIC and version == 1:
                    copies.append(_Copy(generation, Mark(seq, count), None, inode))
        for start in _V2_SLOTS:
            body = _unsealed(data[start:start + _V2.size + 4], _V2.size)
            if body is not None:
                (magic, version, _, generation, origin_seq, origin_crc, seq, count, crc,
                 game) = _V2.unpack(body)
                if magic == _MAGIC and version == 2:
                    copies.append(_Copy(generation, Mark(seq, count, crc, game),
                                        Origin(origin_seq, origin_crc), None))
        for copy in copies:
            self._generation = max(self._generation, copy.generation)
        return Marks(tuple(copies), self._inode)

    def read(self, origin: Origin | None) -> Mark | None:
        """The newest good copy for the journal whose first entry is *origin*, or None."""
        return self.load().for_journal(origin)

    def write(self, mark: Mark, origin: Origin | None) -> None:
        """Record *mark* of the journal whose first entry is *origin* durably (written and synced
        before this returns), in the older slot.

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
        first = origin or Origin(0, 0)
        body = _V2.pack(_MAGIC, 2, 0, self._generation, first.seq, first.crc, mark.seq,
                        mark.count, mark.crc, mark.game)
        os.pwrite(self._fd, _sealed(body), _V2_SLOTS[self._generation % 2])
        os.fdatasync(self._fd)

    def close(self) -> None:
        """Let go of the file (safe to call twice)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


class Keeper:
    """One writer's mark of its journal, moved up after each commit, so the table's journal and
    the event's keep it the same way. Starts from what the journal holds (*found*, first entry
    *origin*) and writes it at once where the mark on disk (*stored*) says otherwise. A mark that
    cannot be written is said once in the log: the entries are stored, only a later open's check
    of them is lost."""

    def __init__(self, journal: Path, inode: int, found: Mark, origin: Origin | None,
                 stored: Mark | None) -> None:
        self._file = MarkFile(journal, inode)
        self._journal = journal
        self._acknowledged = found
        self._origin = origin
        self._failed = False
        if stored != found:  # a version 1 mark lacks the entry: rewritten too
            self._write()

    def committed(self, seq: int, crc: int, game: int) -> None:
        """Entry *seq* (checksum *crc*, of *game*) is on disk: the mark says so before it is
        acknowledged."""
        self._acknowledged = Mark(seq, self._acknowledged.count + 1, crc, game)
        if self._origin is None:
            self._origin = Origin(seq, crc)
        self._write()

    def _write(self) -> None:
        try:
            self._file.write(self._acknowledged, self._origin)
        except OSError as error:
            if not self._failed:
                self._failed = True
                log.warning("%s: cannot write the high-water mark %s (%s): a damaged "
                            "write-ahead log could lose entries unnoticed until it can",
                            self._journal, self._file.path, error.strerror or error)

    def close(self) -> None:
        """Let go of the mark's file (safe to call twice)."""
        self._file.close()
