"""The pin tables of docs/unit.md, the diagram and the example configuration agree."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from showdown.unit.wiring import HEADER, physical_pin, wired_lines

REPO = Path(__file__).resolve().parents[2]
CONFIG = REPO / "deploy" / "showdown.toml"
ROW = re.compile(r"^\| `(\w+)` \| (GPIO\d+) \| (\d+) \| (high|low) \|")


def example_pins() -> dict[str, tuple[str, str]]:
    """``line -> (gpio, active)`` from the shipped example configuration."""
    table = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["unit"]["pins"]
    return {name: (line["pin"], line["active"]) for name, line in table.items()}


def documented_rows() -> dict[str, tuple[str, int, str]]:
    """``line -> (gpio, header pin, active)`` from the wiring tables of docs/unit.md."""
    text = (REPO / "docs" / "unit.md").read_text(encoding="utf-8")
    section = text.split("\n## Wiring\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, int, str]] = {}
    for line in section.splitlines():
        match = ROW.match(line)
        if match:
            name, gpio, pin, active = match.groups()
            assert name not in rows, f"{name} appears twice in the pin tables of docs/unit.md"
            rows[name] = (gpio, int(pin), active)
    return rows


def test_documented_pin_tables_match_the_example_configuration() -> None:
    expected = {
        name: (gpio, physical_pin(gpio), active) for name, (gpio, active) in example_pins().items()
    }
    assert documented_rows() == expected


def test_header_map_is_the_40_pin_header() -> None:
    assert sorted(HEADER) == list(range(1, 41))
    gpios = [name for name in HEADER.values() if name.startswith("GPIO")]
    assert sorted(gpios) == sorted(f"GPIO{n}" for n in range(28))
    assert physical_pin("GPIO17") == 11


def test_wired_lines_come_in_header_order_with_a_part_for_each() -> None:
    rows = wired_lines(example_pins())
    assert [row.header_pin for row in rows] == sorted(row.header_pin for row in rows)
    assert all(row.part and row.how for row in rows)
    assert {row.line for row in rows if row.direction == "in"} == {
        "timer_button",
        "paddle_left",
        "paddle_right",
        "count_left",
        "count_right",
    }


def test_diagram_script_draws_the_picture(tmp_path: Path) -> None:
    out = tmp_path / "wiring.png"
    result = subprocess.run(
        [sys.executable, "-m", "tools.diagrams.wiring", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (REPO / "docs" / "wiring.png").exists()
