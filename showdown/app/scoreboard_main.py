"""Running the scoreboard for real: over a session, with the unit's state machine wired in.

:func:`build_scoreboard` makes the window the service drives (``Service(frontend=...)`` calls its
``pump`` and ``notify``); :func:`play` builds one and runs its own loop. With a
:class:`~showdown.sim.panel.KeyboardUnit`, the unit is drawn beside the scoreboard
and played from the keyboard (``showdown run --sim --interactive``).
"""

from __future__ import annotations

from showdown.game.session import Session
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.adapter import SessionTable
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.layout import DESIGN_SIZE
from showdown.sim.panel import PANEL_WIDTH, KeyboardUnit, UnitPanel, wire
from showdown.unit.machine import ShowdownMachine


def build_scoreboard(
    session: Session,
    *,
    machine: ShowdownMachine | None = None,
    unit: KeyboardUnit | None = None,
    size: tuple[int, int] = DESIGN_SIZE,
    fullscreen: bool = False,
    record_results: bool = False,
    load_unit: bool = True,
    cues: CueSettings | None = None,
) -> Scoreboard:
    """The scoreboard over ``session``, mirroring ``machine`` (or the keyboard ``unit``'s).

    ``record_results`` also records the machine's results in the session; leave it off when the
    service records them itself (its ``UnitRecorder``). ``load_unit``: the showdown screen loads
    the machine (off when virtual players load it). Closing the scoreboard unsubscribes it.
    The language and cues chosen on the scoreboard are kept in the session's journal and come
    back with it after a restart (:mod:`showdown.scoreboard.preferences`).
    """
    if unit is not None:
        machine = unit.machine
    table = SessionTable(session)
    board = Scoreboard(table, size, fullscreen=fullscreen and unit is None, cues=cues,
                       beside=PANEL_WIDTH if unit is not None else 0, hide_cursor=unit is None,
                       settings=session.journal)
    board.on_close.append(session.subscribe(lambda _event: board.notify()))
    if machine is not None:
        board.on_close.append(wire(table, machine, board.notify, record=record_results,
                                   load=load_unit, unit=unit))
    if unit is not None:
        board.extras.append(UnitPanel(unit, table, board.window))
        unit.watch(board.notify)
    return board


def play(
    session: Session,
    *,
    machine: ShowdownMachine | None = None,
    interactive: bool = False,
    size: tuple[int, int] = DESIGN_SIZE,
    fullscreen: bool = False,
) -> None:
    """Show the scoreboard until its window is closed (or Esc); ``interactive`` adds a simulated
    unit played from the keyboard, whose results are recorded in the session."""
    unit = KeyboardUnit() if interactive else None
    board = build_scoreboard(session, machine=machine, unit=unit, size=size,
                             fullscreen=fullscreen, record_results=unit is not None)
    try:
        board.run()
    finally:
        board.close()
        if unit is not None:
            unit.close()
