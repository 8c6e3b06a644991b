"""The disk fills during a game, on a real small file system: the service says "not stored" and
stops; once space is back the journal opens, holds every entry it acknowledged, and SQLite's
integrity check says ok. The trial itself is ``tests/showdown/app/full_disk.py``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.showdown.app.test_no_tracebacks import ENV

QUICK_MOMENTS = (1, 12, 60)
SOAK_MOMENTS = (1, 2, 3, 5, 8, 12, 17, 23, 30, 40, 50, 65, 80, 100, 120, 150, 180, 220, 260, 300)
LIMITS = (128 << 10, 192 << 10, 320 << 10)
"""Without a file system of its own: the largest file the service may write, one trial each."""


def _namespace_flags() -> list[str] | None:
    """unshare(1) flags that let this process mount a tmpfs of its own, or None."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    options = [["--user", "--map-root-user", "--mount"]]
    if os.geteuid() == 0:  # where user namespaces are off, root still has mount namespaces
        options.append(["--mount"])
    for flags in options:
        probe = subprocess.run([unshare, *flags, "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
                               capture_output=True, check=False)
        if probe.returncode == 0:
            return [unshare, *flags]
    return None


def _trials(folder: Path, moments: tuple[int, ...]) -> tuple[str, list[dict[str, Any]]]:
    """Run the trial on a 3 MB tmpfs of its own, else under a file-size limit; (how, results)."""
    disk = folder / "disk"
    disk.mkdir()
    driver = [sys.executable, "-m", "tests.showdown.app.full_disk"]
    prefix = _namespace_flags()
    if prefix is not None:
        script = (f"mount -t tmpfs -o size=3m tmpfs '{disk}' && exec "
                  + " ".join(f"'{part}'" for part in driver)
                  + f" --mount '{disk}' --moments {','.join(map(str, moments))}")
        argv, how = [*prefix, "sh", "-c", script], "a 3 MB tmpfs"
    else:
        try:
            import resource  # noqa: F401 - RLIMIT_FSIZE is POSIX
        except ImportError:
            pytest.skip("no way here to fill a disk: no mount namespace and no RLIMIT_FSIZE")
        argv = [*driver, "--folder", str(disk), "--limit-bytes", *map(str, LIMITS)]
        how = "a file-size limit (RLIMIT_FSIZE)"
    done = subprocess.run(argv, env=ENV, capture_output=True, text=True, timeout=1800,
                          check=False, cwd=Path(__file__).parents[3])
    assert done.returncode == 0, done.stderr
    return how, [json.loads(line) for line in done.stdout.splitlines()]


def _check(how: str, results: list[dict[str, Any]]) -> None:
    for trial in results:
        assert trial["tracebacks"] == 0 and trial["exit"] != 0, trial
        if how.startswith("a 3 MB"):
            assert "not stored" in trial["said"] and "the disk is full" in trial["said"], trial
            assert trial["acknowledged"] >= trial["moment"], trial
        if trial["acknowledged"]:
            assert trial["export_exit"] == 0 and trial["opened"], trial
            assert trial["found"] == trial["acknowledged"], trial
            assert trial["integrity"] == "ok", trial


def test_the_disk_filling_during_a_game_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    how, results = _trials(tmp_path, QUICK_MOMENTS)
    _check(how, results)


@pytest.mark.soak
def test_soak_the_disk_filling_at_20_moments(tmp_path: Path) -> None:
    how, results = _trials(tmp_path, SOAK_MOMENTS)
    print(f"\nthe disk filling on {how}:")
    for trial in results:
        print(f"after {trial['moment']:>3}: {trial['acknowledged']} acknowledged, "
              f"{trial['found']} found after, integrity {trial['integrity']}, "
              f"said {trial['said']!r}")
    _check(how, results)
