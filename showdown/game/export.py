"""Export a game from the journal: JSON for programs, CSV for a spreadsheet.

The JSON holds the game as it stands (set-up, every round with each player's points and totals,
and in hero and mean scoring the pigs, every showdown and table penalty, statistics, winners)
and, for an audit, every journal entry as stored, undone ones included. The CSV holds one row per
round (with each player's pigs in hero and mean scoring), per showdown or per penalty.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from typing import Any

from showdown.game.alltime import PlayerRecord
from showdown.game.journal import Entry
from showdown.game.messages import ShowdownRecorded
from showdown.game.session import GameState

__all__ = [
    "game_json",
    "list_line",
    "penalties_csv",
    "players_csv",
    "players_json",
    "rounds_csv",
    "showdown_reason",
    "showdowns_csv",
]

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
        "showdowns": [{**s.model_dump(mode="json"), "reason": showdown_reason(s)}
                      for s in state.showdowns],
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
             s.loser, s.cards_loaded, showdown_reason(s), _blank(s.reaction_ms.get(s.winner)),
             _blank(s.reaction_ms.get(s.loser)), _blank(counts[0]), _blank(counts[1])]
        )
    return out.getvalue()


def showdown_reason(showdown: ShowdownRecorded) -> str:
    """How a showdown was decided, as the export says it: the unit's reason (``race``,
    ``false-start``, ``side-count``), or ``hand`` for a result the table entered by tapping who
    won (its stored reason is the entry's default, a race nobody timed)."""
    if showdown.source == "hand" and showdown.reason == "race":
        return "hand"
    return showdown.reason


def list_line(game_id: int, created_at: str, state: GameState | None) -> str:
    """One game of ``showdown export --list``, tab-separated: number, when it was made, ``over``
    (with the winner and the final scores, best first), ``open`` (with the round being played and
    the scores) or ``not set up``. In hero and mean scoring the fewest pigs come first, each
    score with its pigs (every score goes back to 0 at a pig)."""
    if state is None:
        return f"{game_id}\t{created_at}\tnot set up"
    if state.scoring.uses_pigs:
        order = [state.players[seat] for seat in state.sheet.ranking]
        scores = ", ".join(f"{name} {state.totals[name]} ({_pigs(state.pigs[name])})"
                           for name in order)
    else:
        order = sorted(state.players, key=lambda name: state.totals[name],
                       reverse=not state.scoring.lowest_wins)
        scores = ", ".join(f"{name} {state.totals[name]}" for name in order)
    if state.is_over:
        return (f"{game_id}\t{created_at}\tover\twon by {' and '.join(state.winners)}"
                f"\t{scores}")
    return f"{game_id}\t{created_at}\topen\tround {state.current_round}\t{scores}"


def _pigs(count: int) -> str:
    return f"{count} pig" if count == 1 else f"{count} pigs"


def players_json(records: list[PlayerRecord]) -> str:
    """The all-time figures as a JSON list, one object per player."""
    return json.dumps([record.as_dict() for record in records], indent=2,
                      ensure_ascii=False) + "\n"


def players_csv(records: list[PlayerRecord]) -> str:
    """The all-time figures, one row per player (an empty cell where nothing was measured)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(PlayerRecord("").as_dict()))
    for record in records:
        writer.writerow([_blank(value) for value in record.as_dict().values()])
    return out.getvalue()


def _blank(value: object) -> object:
    return "" if value is None else value
