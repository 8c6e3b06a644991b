"""The disk fills during a game: the trial that ``test_full_disk.py`` runs, also by hand.

Each moment is one real ``showdown run --sim --headless --fast`` on a journal alone on a small
file system, logging every entry it acknowledges (``storage.log_entries``). Once it has
acknowledged the moment's number of entries, a filler file takes every byte left; the service
stops when an entry cannot be stored. Then the filler goes, and the journal is looked at as a user
would: ``showdown export --list`` must read it, a writer must open it, every acknowledged entry
must be there, and SQLite's integrity check must say ok. Prints one JSON object per moment.

``--mount DIR``: DIR is the small file system (a tmpfs of a few MB, mounted by the caller, in a
mount namespace of its own). ``--limit-bytes N``: no file system of its own; the service may
grow no file past N bytes (RLIMIT_FSIZE), the nearest a process can come to a full disk.

    unshare --user --map-root-user --mount sh -c 'mount -t tmpfs -o size=3m tmpfs /tmp/disk &&
        .venv/bin/python -m tests.showdown.app.full_disk --mount /tmp/disk --moments 1,5,10'
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from showdown.game.journal import Journal, JournalError

SHOWDOWN = [sys.executable, "-m", "showdown"]
ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
       "PYTHONUNBUFFERED": "1", "SHOWDOWN_STORAGE__LOG_ENTRIES": "true"}
ACKNOWLEDGED = re.compile(r"journal entry on disk: game (\d+) seq (\d+) ")
GIVE_UP_S = 120
"""A service that neither stops nor acknowledges for this long has hung: the trial says so."""


def fill(folder: Path) -> int:
    """Take every byte left on *folder*'s file system; how many were taken."""
    taken = 0
    with (folder / "filler").open("wb", buffering=0) as filler:
        for size in (1 << 16, 4096, 512, 1):
            block = b"\x00" * size
            while True:
                try:
                    taken += filler.write(block)
                except OSError as error:
                    if error.errno not in (errno.ENOSPC, errno.EFBIG):
                        raise
                    break
    return taken


def one_moment(folder: Path, moment: int, limit_bytes: int | None) -> dict[str, Any]:
    """Fill the disk once *moment* entries are acknowledged; what was found after."""
    for leftover in folder.iterdir():
        leftover.unlink()
    db = folder / "j.db"

    def limited() -> None:
        if limit_bytes is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails instead
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    child = subprocess.Popen(
        [*SHOWDOWN, "run", "--sim", "--headless", "--fast", "--db", str(db)], env=ENV,
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        preexec_fn=limited,  # noqa: PLW1509 - this driver starts no threads
    )
    assert child.stderr is not None
    acknowledged: list[int] = []
    lines: list[str] = []
    filled = 0
    guard = _Guard(child)
    try:
        for line in child.stderr:
            guard.alive()
            lines.append(line.rstrip("\n"))
            if (match := ACKNOWLEDGED.search(line)) is not None:
                acknowledged.append(int(match.group(2)))
                if limit_bytes is None and len(acknowledged) == moment:
                    filled = fill(folder)
        code = child.wait(timeout=GIVE_UP_S)
    finally:
        guard.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    with contextlib.suppress(FileNotFoundError):
        (folder / "filler").unlink()
    return {"moment": moment if limit_bytes is None else limit_bytes, "filled_bytes": filled,
            "exit": code, "said": lines[-1] if lines else "",
            "tracebacks": sum("Traceback" in line for line in lines),
            "acknowledged": len(acknowledged), **after(db, acknowledged)}


def after(db: Path, acknowledged: list[int]) -> dict[str, Any]:
    """The journal once space is back: read as ``export --list`` reads it, opened to write."""
    listing = subprocess.run([*SHOWDOWN, "export", "--list", "--db", str(db)], env=ENV,
                             capture_output=True, text=True, timeout=GIVE_UP_S, check=False)
    found: dict[str, Any] = {"export_exit": listing.returncode,
                             "export_said": listing.stderr.strip()[-300:]}
    if not db.exists():  # the disk filled before the service made it: nothing to look at
        found.update(opened=False, refused="no journal", found=0, entries=0, integrity="")
        return found
    try:
        with Journal.open(db, writable=True) as journal:
            seqs = {e.seq for game in journal.games() for e in journal.entries(game.id)}
            found.update(opened=True, entries=len(seqs),
                         found=sum(seq in seqs for seq in acknowledged),
                         integrity=journal.integrity_check())
    except JournalError as error:
        found.update(opened=False, refused=str(error), found=0, entries=0, integrity="")
    return found


class _Guard:
    """Kills a service that goes silent for :data:`GIVE_UP_S` (a hang fails the trial instead
    of stopping the test run)."""

    def __init__(self, child: subprocess.Popen[str]) -> None:
        signal.signal(signal.SIGALRM, lambda *_: child.kill())
        signal.alarm(GIVE_UP_S)

    def alive(self) -> None:
        signal.alarm(GIVE_UP_S)

    def cancel(self) -> None:
        signal.alarm(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--mount", type=Path, help="a small file system of its own")
    where.add_argument("--limit-bytes", type=int, nargs="+",
                       help="no file may grow past each of these (one trial each)")
    parser.add_argument("--moments", default="1,10,40",
                        help="with --mount: fill after this many entries (comma-separated)")
    parser.add_argument("--folder", type=Path, help="with --limit-bytes: where the journal goes")
    args = parser.parse_args()
    if args.mount is not None:
        trials = [(args.mount, int(m), None) for m in args.moments.split(",")]
    else:
        assert args.folder is not None, "--limit-bytes needs --folder"
        trials = [(args.folder, 0, limit) for limit in args.limit_bytes]
    for folder, moment, limit in trials:
        print(json.dumps(one_moment(folder, moment, limit)), flush=True)


if __name__ == "__main__":
    main()
