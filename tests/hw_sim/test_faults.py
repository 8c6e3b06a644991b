"""A fault plan says which edges a replug or a reset follows, and refuses nonsense in one line."""

from __future__ import annotations

import pytest

from hw_sim.faults import FaultPlan


def test_every_nth_edge_and_named_edges_with_a_reset_winning_a_tie() -> None:
    plan = FaultPlan(replug_every=3, reset_every=5, at_edges={7: "replug", 9: "reset"})
    assert [plan.action(edge) for edge in range(1, 11)] == [
        None, None, "replug", None, "reset", "replug", "replug", None, "reset", "reset"]
    assert plan.active and not plan.damages_bytes
    assert not FaultPlan().active and FaultPlan(delay_ms=5).damages_bytes


@pytest.mark.parametrize(("changes", "says"), [
    ({"corrupt": 1.0}, "corrupt must be a chance from 0 up to"),
    ({"drop": -0.01}, "drop must be a chance"),
    ({"delay_ms": 10_001}, "delay_ms must be 0 to 10000"),
    ({"reset_every": -2}, "reset_every must be 0 (never) or more"),
    ({"at_edges": {0: "reset"}}, "unknown fault 'reset' at edge 0"),
    ({"at_edges": {4: "unplug"}}, "unknown fault 'unplug'"),
])
def test_nonsense_is_refused_in_one_line(changes: dict[str, object], says: str) -> None:
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")) as raised:
        FaultPlan(**changes)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value)
