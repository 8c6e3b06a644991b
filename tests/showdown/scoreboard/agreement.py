"""What a screen shows against what the journal holds: the check both tests that use the
screen as people do make after each step (the evening on a real X server, the random taps).

A frame is the scoreboard's own description of what it drew (:mod:`showdown.scoreboard.trace`:
read from the trace file of a running scoreboard, or :meth:`Scoreboard.described` in process);
the game is the journal's, folded by the session's own fold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from showdown.game.journal import Journal
from showdown.game.session import GameState, Session, fold
from showdown.scoreboard.i18n import _, use_language
from showdown.scoreboard.vocabulary import player_name

Frame = dict[str, Any]
"""One frame as the trace describes it."""


def journal_state(db: Path, game_id: int | None = None) -> GameState:
    """A game as the journal folds it, read as another process would: ``game_id``, else the
    game in play (the one a restart resumes)."""
    journal = Journal.open(db, read_only=True)
    try:
        if game_id is None:
            state = Session(journal).state
        else:
            state = fold(game_id, journal.entries(game_id))
    finally:
        journal.close()
    assert state is not None
    return state


def texts(frame: Frame, prefix: str) -> list[str]:
    """The words of the widgets ``prefix0``, ``prefix1``... in order."""
    found: dict[int, str] = {}
    for widget in frame["widgets"]:
        tail = widget["id"].removeprefix(prefix)
        if tail != widget["id"] and tail.isdigit():
            found[int(tail)] = widget["text"]
    return [found[i] for i in sorted(found)]


def problems(frame: Frame, state: GameState) -> list[str]:
    """Where a game's screen and the journal's game disagree (nothing: they agree): the live
    table's names, totals and round, Game over's winners and standings, the history's columns
    and running totals, the round end's players, the chart's legend. Other screens are not the
    game's own (Set-up, Saved games...) and agree with anything."""
    found: list[str] = []
    with use_language(frame["language"]):
        names = [player_name(name) for name in state.players]
        totals = [str(state.totals[name]) for name in state.players]
        screen = frame["screen"]
        if screen == "table":
            shown = list(zip(texts(frame, "name"), texts(frame, "total"), strict=False))
            if shown != list(zip(names, totals, strict=True)):
                found.append(f"the table shows {shown}, the journal {names} {totals}")
            number = _("Round {number}").format(number=state.current_round)
            if frame_text(frame, "round") != number:
                found.append(f"the table shows {frame_text(frame, 'round')!r}, not {number!r}")
        elif screen == "gameover":
            found += _game_over(frame, state)
        elif screen == "history":
            found += _history(frame, state, names)
        elif screen == "round":
            shown = texts(frame, "player")
            if len(shown) != len(names) or not all(name in text for text, name in
                                                   zip(shown, names, strict=True)):
                found.append(f"the round end names {shown}, the players {names}")
        elif screen == "chart":
            shown = list(zip(texts(frame, "legend-name"), texts(frame, "legend-total"),
                             strict=False))
            if shown != list(zip(names, totals, strict=True)):
                found.append(f"the chart's legend shows {shown}, the journal {names} {totals}")
    return found


def _game_over(frame: Frame, state: GameState) -> list[str]:
    """Game over: the game is over, its winners named, everyone's total in the final order
    (the best first; in hero and mean scoring the fewest pigs first)."""
    found: list[str] = []
    lowest = state.scoring.lowest_wins

    def rank(name: str) -> tuple[int, int]:
        total = state.totals[name] if lowest else -state.totals[name]
        return (state.pigs[name], total) if state.scoring.uses_pigs else (0, total)

    order = sorted(state.players, key=rank)
    shown = list(zip(texts(frame, "name"), texts(frame, "total"), strict=False))
    expected = [(player_name(name), str(state.totals[name])) for name in order]
    if shown != expected:
        found.append(f"game over shows {shown}, the journal {expected}")
    if not state.is_over:
        found.append("game over is up, but the journal's game is not over")
    winners = _("{name} wins!").format(
        name=", ".join(player_name(name) for name in state.winners) or "?")
    if frame_text(frame, "winner") != winners:
        found.append(f"game over says {frame_text(frame, 'winner')!r}, not {winners!r}")
    return found


def _history(frame: Frame, state: GameState, names: list[str]) -> list[str]:
    """History: a column per player of the game, and each round shown with the running totals
    the journal's score sheet has after it."""
    found: list[str] = []
    heads = [frame_text(frame, f"head:{i}") for i in range(len(names))]
    if heads != names or frame_text(frame, f"head:{len(names)}"):
        found.append(f"the history's columns are {heads}, the players {names}")
    sheet = state.sheet.history
    for widget in frame["widgets"]:
        row = widget["id"].removeprefix("row")
        shown = texts(frame, f"total{row}:")
        if not row.isdigit() or widget["kind"] != "button" or not shown:
            continue  # a showdown's, a penalty's or the pigs' row
        number = int(widget["text"].split(" ")[0])
        expected = [str(total) for total in sheet[number - 1].totals] \
            if number <= len(sheet) else []
        if shown != expected:
            found.append(f"the history's round {number} shows totals {shown}, the journal "
                         f"{expected}")
    return found


def frame_text(frame: Frame, widget_id: str) -> str:
    """A widget's words ('' when the frame has no such widget)."""
    return next((str(w["text"]) for w in frame["widgets"] if w["id"] == widget_id), "")


