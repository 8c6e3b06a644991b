"""Flipped bits in a write-ahead log, for the table's journal and the event's alike: where to
flip (every part of the log, each bit of each place) and how to judge what an open then made of
it (read whole, refused naming exactly what is missing, or read with entries missing unnoticed).

Each trial works on a copy of the killed journal in a folder of its own: a new inode, as a backup
or another card gives, which is how the loss went unnoticed before the mark named its journal by
its first entry."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WAL_HEADER = 32
FRAME_HEADER = 24
FRAMES = 6
"""How many frames :func:`log_offsets` picks places in: with the header, 49 places, 392 bits."""


def log_offsets(wal: bytes) -> list[int]:
    """Places spread over the whole log: its header (magic, page size, checkpoint number, both
    salts, its checksum), and in :data:`FRAMES` frames spread from the first to the last, its
    page number, commit size, salt, checksum, and the first, middle and last byte of its page
    (the last frame's last byte among them)."""
    page = int.from_bytes(wal[8:12], "big")
    frame = FRAME_HEADER + page
    frames = (len(wal) - WAL_HEADER) // frame
    assert frames >= 4 and len(wal) == WAL_HEADER + frames * frame, (len(wal), page)
    offsets = {0, 8, 12, 16, 20, 24, 28}
    for number in sorted({round(i * (frames - 1) / (FRAMES - 1)) for i in range(FRAMES)}):
        start = WAL_HEADER + number * frame
        offsets |= {start, start + 4, start + 8, start + 16, start + FRAME_HEADER,
                    start + FRAME_HEADER + page // 2, start + frame - 1}
    return sorted(offsets)


def flips(wal: bytes) -> Iterator[tuple[int, int]]:
    """Every bit of every place :func:`log_offsets` picks: (offset, bit)."""
    for offset in log_offsets(wal):
        for bit in range(8):
            yield offset, bit


def killed_child(work: Callable[[Callable[[], None]], object]) -> None:
    """Run *work* in a child and kill it with SIGKILL where it calls the function it is given
    (which tells the parent and waits): a process killed mid-game, whose files stay as it left
    them."""
    ready_r, ready_w = os.pipe()
    hold_r, hold_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child is killed
        os.close(ready_r)
        os.close(hold_w)

        def stop_here() -> None:
            os.write(ready_w, b"!")
            os.read(hold_r, 1)  # never answered: the parent kills this process

        try:
            work(stop_here)
        finally:
            os._exit(1)
    os.close(ready_w)
    os.close(hold_r)
    try:
        assert os.read(ready_r, 1) == b"!", "the child ended before it was killed"
        os.kill(pid, signal.SIGKILL)
    finally:
        _, status = os.waitpid(pid, 0)
        os.close(ready_r)
        os.close(hold_w)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@dataclass
class Figures:
    """What the trials found, for the assertion and for docs/reliability.md."""

    log_bytes: int = 0
    places: int = 0
    flips: int = 0
    whole: int = 0
    refused: int = 0
    silent: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (f"{self.flips} flipped bits at {self.places} places of a {self.log_bytes}-byte "
                f"log: {self.whole} read whole, {self.refused} refused naming what is missing, "
                f"{len(self.silent)} silent differences")


def put_copy(files: dict[str, bytes], folder: Path, flip: tuple[int, int] | None = None) -> None:
    """The journal's files written afresh into *folder* (new inodes), with the bit *flip* names
    (offset, bit) of its log flipped."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for name, data in files.items():
        written = bytearray(data)
        if name.endswith("-wal") and flip is not None:
            written[flip[0]] ^= 1 << flip[1]
        (folder / name).write_bytes(written)


def digest(folder: Path) -> dict[str, str]:
    """Each file's bytes, to show a refused journal was left untouched (a reader's -shm aside)."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if not p.name.endswith("-shm")}


MISSING = re.compile(
    r"(?:entry (?P<one>\d+) was acknowledged as stored and is missing"
    r"|entries (?P<first>\d+) to (?P<last>\d+) were acknowledged as stored and are missing)"
    r" \(its write-ahead log (?P<wal>\S+) is damaged\); the last of them was in game "
    r"(?P<game>\d+)")


def named_range(message: str) -> tuple[int, int, int] | None:
    """The entries a refusal names as missing, and the game of the last: (first, last, game)."""
    found = MISSING.search(message)
    if found is None:
        return None
    if found["one"] is not None:
        return int(found["one"]), int(found["one"]), int(found["game"])
    return int(found["first"]), int(found["last"]), int(found["game"])


def flip_trials(
    killed: dict[str, bytes], folder: Path, name: str, *,
    read: Callable[[Path], Any], last: Callable[[Path], tuple[int, int]],
    refusal: type[Exception],
) -> Figures:
    """Every flip of :func:`flips` on a copy of the killed journal *name* in *folder*: what
    *read* (as the program reads it) made of it, judged against the undamaged copy. A refusal
    (*refusal*) counts only when it is one line naming exactly the entries SQLite no longer
    reads (from *last*: the highest entry and its game) and every file is left as it was."""
    put_copy(killed, folder / "pristine")
    pristine = read(folder / "pristine" / name)
    last_seq, last_game = last(folder / "pristine" / name)
    (folder / "file-only").mkdir()
    (folder / "file-only" / name).write_bytes(killed[name])
    assert last(folder / "file-only" / name)[0] < last_seq, "the log must hold entries"
    log = killed[f"{name}-wal"]
    figures = Figures(log_bytes=len(log), places=len(log_offsets(log)))
    copy = folder / "copy"
    for offset, bit in flips(log):
        figures.flips += 1
        put_copy(killed, copy, (offset, bit))
        before = digest(copy)
        try:
            found = read(copy / name)
        except refusal as refused:
            said = str(refused)
            held, _ = last(copy / name)
            if (digest(copy) == before and "\n" not in said
                    and named_range(said) == (held + 1, last_seq, last_game)):
                figures.refused += 1
            else:
                figures.silent.append(f"{offset}:{bit} refused wrongly: {said}")
            continue
        if found == pristine:
            figures.whole += 1
        else:
            figures.silent.append(f"{offset}:{bit} read otherwise than undamaged")
    return figures


def last_entry(db: Path, query: str) -> tuple[int, int]:
    """What SQLite itself reads of a (damaged) journal, on a connection that writes nothing:
    *query* selects its highest entry's number and that entry's game."""
    raw = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
    try:
        seq, game = raw.execute(query).fetchone()
        return int(seq), int(game)
    finally:
        raw.close()


def none_silent(figures: Figures, journal: str) -> None:
    """Print the figures (for docs/reliability.md, with ``-s``) and hold the issue's bar: at
    least 200 flips, each read whole or refused naming what is missing."""
    print(f"\n{journal}: {figures.line()}")
    assert figures.flips >= 200
    assert figures.silent == [], figures.silent[:5]
    assert figures.refused + figures.whole == figures.flips, figures.line()
