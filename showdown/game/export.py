"""Export a game from the journal: JSON for programs, CSV for a spreadsheet.

The JSON holds the game as it stands (set-up, every round with each player's points and totals,
and in hero and mean scoring the pigs, every showdown and table penalty, statistics, winners)
and, for an audit, every journal entry as stored, undone ones included. The CSV holds one row per
round (with each player's pigs in hero and mean scoring), per showdown or per penalty.
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from typing import Any

from showdown.game.journal import Entry
from showdown.game.session import GameState

__all__ = ["game_json", "penalties_csv", "rounds_csv", "showdowns_csv"]

EXPORT_FORMAT = 1
"""Bumped when the exported JSON changes shape."""


def game_json(state: GameState, entries: list[Entry]) -> dict[str, Any]:
    """The whole game as one JSON-ready object."""
    history = state.sheet.history
    pigs = state.scoring.uses_pigs
    rounds = []
    for played, line in zip(state.rounds, history, strict=True):
        row: dict[str, Any] = {
            "round": played.round,
            "went_out": played.went_out,
            "held": played.points,
            "scored": dict(zip(state.players, line.deltas, strict=True)),
            "totals": dict(zip(state.players, line.totals, strict=True)),
            "entered": {p: h.model_dump(exclude_none=True) for p, h in played.hands.items()},
        }
        if pigs:
            row["pigs_drawn"] = dict(zip(state.players, line.pigs_drawn, strict=True))
            row["pigs"] = dict(zip(state.players, line.pigs, strict=True))
        rounds.append(row)
    return {
        "format": EXPORT_FORMAT,
        "game": state.game_id,
        "players": list(state.players),
        "preset": state.preset,
        "scoring": state.scoring.model_dump(mode="json"),
        "first_dealer": state.first_dealer,
        "rounds": rounds,
        "showdowns": [s.model_dump(mode="json") for s in state.showdowns],
        "penalties": [p.model_dump(mode="json", exclude={"kind"}) for p in state.penalties],
        "totals": state.totals,
        **({"pigs": state.pigs} if pigs else {}),
        "over": state.is_over,
        "winners": list(state.winners),
        "stats": {name: asdict(line) for name, line in state.stats.items()},
        "journal": [
            {"seq": e.seq, "kind": e.kind, "key": e.key, "recorded_at": e.recorded_at,
             "events": e.events}
            for e in entries
        ],
    }


def rounds_csv(state: GameState) -> str:
    """One row per round: who went out, then each player's points held and total after it (and
    in hero and mean scoring each player's pigs after it)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    pigs = state.scoring.uses_pigs
    writer.writerow(
        ["round", "went_out"]
        + [f"{p} held" for p in state.players]
        + [f"{p} total" for p in state.players]
        + ([f"{p} pigs" for p in state.players] if pigs else [])
    )
    for played, line in zip(state.rounds, state.sheet.history, strict=True):
        writer.writerow(
            [played.round, played.went_out]
            + [played.points.get(p, 0) for p in state.players]
            + list(line.totals)
            + (list(line.pigs) if pigs else [])
        )
    return out.getvalue()


def penalties_csv(state: GameState) -> str:
    """One row per table penalty: round, player, reason, cards drawn."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "player", "reason", "cards"])
    for penalty in state.penalties:
        writer.writerow([penalty.round, penalty.player, str(penalty.reason), penalty.cards])
    return out.getvalue()


def showdowns_csv(state: GameState) -> str:
    """One row per showdown: round, paddles, winner, loser, cards, reason, reaction times."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["round", "showdown_id", "source", "left", "right", "winner", "loser", "cards_loaded",
         "reason", "winner_reaction_ms", "loser_reaction_ms", "left_count", "right_count"]
    )
    for s in state.showdowns:
        counts = s.side_counts or (None, None)
        writer.writerow(
            [s.round, s.showdown_id or "", s.source, s.left or "", s.right or "", s.winner,
             s.loser, s.cards_loaded, s.reason, _blank(s.reaction_ms.get(s.winner)),
             _blank(s.reaction_ms.get(s.loser)), _blank(counts[0]), _blank(counts[1])]
        )
    return out.getvalue()


def _blank(value: object) -> object:
    return "" if value is None else value
