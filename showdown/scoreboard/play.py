"""Running the scoreboard for real: over a session, with the unit's state machine wired in.

The service (``showdown run``) calls :func:`play` on the main thread once it has built the
session and the unit; ``--interactive`` adds the simulated unit drawn beside the scoreboard and
played from the keyboard (:mod:`showdown.scoreboard.interactive`).
"""

from __future__ import annotations

from collections.abc import Callable

from showdown.scoreboard.adapter import SessionTable
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.interactive import PANEL_WIDTH, SimulatedUnit, UnitPanel, wire
from showdown.scoreboard.layout import DESIGN_SIZE
from showdown.session import Session
from showdown.showdown_machine import ShowdownMachine


def play(
    session: Session,
    *,
    machine: ShowdownMachine | None = None,
    interactive: bool = False,
    size: tuple[int, int] = DESIGN_SIZE,
    fullscreen: bool = False,
    record_results: bool = True,
    ready: Callable[[Scoreboard], None] | None = None,
) -> None:
    """Show the scoreboard until its window is closed (or Esc, or :meth:`Scoreboard.stop`).

    ``machine`` is the unit's showdown state machine (mirrored on the showdown screen, and its
    results recorded unless ``record_results`` is off because the service records them itself).
    ``interactive`` builds a simulated unit played from the keyboard instead. ``ready`` is
    called with the scoreboard before the loop starts (to keep a handle for stopping it).
    """
    unit = SimulatedUnit() if interactive else None
    if unit is not None:
        machine = unit.machine
    table = SessionTable(session)
    board = Scoreboard(table, size, fullscreen=fullscreen and unit is None,
                       beside=PANEL_WIDTH if unit is not None else 0,
                       hide_cursor=unit is None)
    unsubscribe_session = session.subscribe(lambda _event: board.notify())
    unsubscribe_unit = None
    if machine is not None:
        unsubscribe_unit = wire(table, machine, board.notify, record=record_results, unit=unit)
    if unit is not None:
        board.extras.append(UnitPanel(unit, table, board.window))
        unit.watch(board.notify)
    if ready is not None:
        ready(board)
    try:
        board.run()
    finally:
        unsubscribe_session()
        if unsubscribe_unit is not None:
            unsubscribe_unit()
        if unit is not None:
            unit.close()
        board.close()
