"""docs/rules.md tells the truth about the rule set: its traced-rules table names every switch of
``engine.rules.RuleSet`` with each preset's value as ``PRESETS`` has it, and every test it names
exists; its preset and scoring tables name every preset and scoring mode."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path

import pytest

from engine.rules import PRESETS, RuleSet
from engine.scoring import ScoringMode

REPO = Path(__file__).resolve().parents[2]
RULES_MD = REPO / "docs" / "rules.md"


def section(title: str) -> str:
    text = RULES_MD.read_text(encoding="utf-8")
    start = text.index(f"\n## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def rows(text: str) -> list[list[str]]:
    """The body rows of every Markdown table in ``text``, as stripped cells."""
    found = []
    for line in text.splitlines():
        if not line.startswith("| ") or set(line) <= set("|- "):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] in ("rule", "preset", "mode", "card", "deck", "no."):
            continue  # a header
        found.append(cells)
    return found


def spans(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def shown(value: object) -> str:
    """A switch's value as the table writes it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ", ".join(shown(item) for item in value) or "none"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def preset_cell(field: str) -> str:
    """The "default per preset" cell for ``field``: the defaults' value, then each other value
    with the presets that have it."""
    base = shown(getattr(RuleSet(), field))
    others: dict[str, list[str]] = {}
    for name, rules in PRESETS.items():
        value = shown(getattr(rules, field))
        if value != base:
            others.setdefault(value, []).append(name)
    return "; ".join([f"`{base}`"] + [f"`{v}`: {', '.join(n)}" for v, n in others.items()])


TRACED = rows(section("Every rule, traced"))


def test_the_traced_table_has_a_row_for_every_switch() -> None:
    named = {span for cells in TRACED for span in spans(cells[2])}
    assert set(RuleSet.model_fields) - named == set()


@pytest.mark.parametrize("cells", TRACED, ids=lambda cells: cells[0])
def test_each_rows_preset_values_are_the_presets(cells: list[str]) -> None:
    fields = [span for span in spans(cells[2]) if span in RuleSet.model_fields]
    assert len(fields) <= 1, "one switch per row"
    if fields:
        assert cells[3] == preset_cell(fields[0])
    elif cells[2] == "—":
        assert cells[3] == "every preset"


def test_every_test_the_table_names_exists_once() -> None:
    defined: dict[str, int] = {}
    for path in (REPO / "tests").rglob("test_*.py"):
        for name in re.findall(r"^def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M):
            defined[name] = defined.get(name, 0) + 1
    named = {span for cells in TRACED for span in spans(cells[4]) if span.startswith("test_")}
    assert named and {name for name in named if defined.get(name) != 1} == set()
    for cells in TRACED:  # a rule is traced to a test, or says why it is left out
        assert any(s.startswith("test_") for s in spans(cells[4])) or "left out" in cells[2]


def test_the_preset_and_scoring_tables_name_every_preset_and_mode() -> None:
    presets = {spans(cells[0])[0] for cells in rows(section("Presets"))}
    assert presets == set(PRESETS)
    modes = {spans(cells[0])[0] for cells in rows(section("Scoring the game"))}
    assert {str(mode) for mode in ScoringMode} <= modes


def test_the_checker_reads_a_wrong_row_as_wrong() -> None:
    assert preset_cell("jump_in") == "`off`; `on`: killer"
    assert preset_cell("jump_in") != "`off`"
    assert shown(("advice", "slap")) == "advice, slap" and shown(()) == "none"
