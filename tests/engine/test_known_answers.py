"""Known-answer files in ``tests/engine/known/``: a position, commands and the expected events
and hands, readable and extendable by anyone. Cards are written as codes; a command's ``card``
code means the first card with that code in the player's hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.commands import COMMAND_ADAPTER
from engine.round import Round
from engine.rules import RuleSet
from tests.engine.scenario import card, codes

KNOWN = sorted((Path(__file__).parent / "known").glob("*.json"))


def _command(rnd: Round, raw: dict[str, Any]) -> Any:
    data = dict(raw)
    if isinstance(data.get("card"), str):
        data["card"] = card(rnd, data["player"], data["card"])
    return COMMAND_ADAPTER.validate_python(data)


@pytest.mark.parametrize("path", KNOWN, ids=[p.stem for p in KNOWN])
def test_known_answer(path: Path) -> None:
    known = json.loads(path.read_text(encoding="utf-8"))
    rules = RuleSet.model_validate(known["rules"])
    position = known["position"]
    rnd = Round.from_position(
        rules, position["hands"], position["discard"], position.get("draw", ())
    )
    events = []
    for raw in known["commands"]:
        events.extend(rnd.apply(_command(rnd, raw)))
    assert [e.type for e in events] == known["events"]
    assert [codes(rnd, seat) for seat in range(rnd.state.players)] == known["hands"]
    assert rnd.state.turn == known["turn"]


def test_known_answer_files_exist() -> None:
    assert len(KNOWN) >= 2
