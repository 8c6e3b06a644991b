"""Running the scoreboard for real: over a session, with the unit's state machine wired in.

:func:`build_scoreboard` makes the window the service drives (``Service(frontend=...)`` calls its
``pump`` and ``notify``); :func:`play` builds one and runs its own loop. With a
:class:`~showdown.playtest.panel.KeyboardUnit`, the unit is drawn beside the scoreboard
and played from the keyboard (``showdown run --sim --interactive``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine.error_text import ErrorText
from showdown.app.parts.unit_source import record_outcomes
from showdown.game.messages import SetUpGame
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.playtest.panel import PANEL_WIDTH, KeyboardUnit, UnitPanel
from showdown.scoreboard.accessibility import CueSettings
from showdown.scoreboard.adapter import SessionPort
from showdown.scoreboard.app import Scoreboard
from showdown.scoreboard.layout import DESIGN_SIZE
from showdown.scoreboard.port import RefusedError, TournamentDoor
from showdown.scoreboard.screens.phones import PhonesScreen
from showdown.scoreboard.screens.setup import SetupScreen
from showdown.scoreboard.touch_matrix import IDENTITY, TouchMatrix
from showdown.tournament.view import TournamentSource
from showdown.unit.machine import ShowdownBusyError, ShowdownMachine


def build_scoreboard(
    session: Session,
    *,
    machine: ShowdownMachine | None = None,
    unit: KeyboardUnit | None = None,
    size: tuple[int, int] = DESIGN_SIZE,
    fullscreen: bool = False,
    load_unit: bool = True,
    cues: CueSettings | None = None,
    screen: tuple[int, int] | None = None,
    touch: TouchMatrix = IDENTITY,
    phone: tuple[str, Callable[[], str]] | None = None,
    event: TournamentSource | None = None,
    door: TournamentDoor | None = None,
    model: TableModel[TournamentSource] | None = None,
    first_game: SetUpGame | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Scoreboard:
    """The scoreboard over ``session``, mirroring ``machine`` (or the keyboard ``unit``'s).

    ``screen``: the size of the screen to fit (default: the desktop's); with ``unit`` the
    scoreboard and the unit's panel are scaled down together when ``size`` plus the panel is
    wider than the screen. The scoreboard mirrors the machine and never records its outcomes:
    whoever opened the unit subscribed its one recorder. ``load_unit``: the showdown screen loads
    the machine (off when virtual players load it). Closing the scoreboard unsubscribes it.
    The language and cues chosen on the scoreboard are kept in the session's journal and come
    back with it after a restart (:mod:`showdown.scoreboard.preferences`). ``touch`` corrects
    the touch panel (the configuration's ``[scoreboard] touch_matrix``). ``phone``: the phone
    page's address and this evening's PIN, for the Phones screen (its QR code). ``event``: the
    event this table is in (the Event screen); else ``door``, how Set-up joins one (its join
    gives the event to ``model``). ``model``: the table's read model, shared with the phone page
    and fed the machine's steps by whoever built it; without one the scoreboard builds and feeds
    its own. ``first_game``: the game the command line asked for, which Set-up starts from
    (:meth:`~showdown.scoreboard.screens.setup.SetupScreen.propose`). ``clock`` times the banners
    and the following of showdowns (seconds).
    """
    if unit is not None:
        machine = unit.machine
    own = model is None
    if model is None:
        model = TableModel(session, unit=machine is not None)
    table = SessionPort(session, unit=machine is not None, model=model)
    board = Scoreboard(table, size, fullscreen=fullscreen and unit is None, cues=cues,
                       beside=PANEL_WIDTH if unit is not None else 0, hide_cursor=unit is None,
                       settings=session.journal, screen=screen, touch=touch, clock=clock)
    if own:  # closed with the scoreboard, after everything that reads it
        board.on_close.append(model.close)
        if machine is not None:
            board.on_close.append(machine.subscribe(model.unit_event))
    board.on_close.append(model.subscribe(lambda _part: board.notify()))
    phones = board.screens["phones"]
    assert isinstance(phones, PhonesScreen)
    phones.link = phone
    if first_game is not None:
        setup = board.screens["setup"]
        assert isinstance(setup, SetupScreen)
        setup.propose(first_game)
    if event is not None:  # the Event screen; the model tells of every change of the event
        model.join(event)
    else:
        board.tournament_door = door
    if machine is not None and load_unit:
        wire(table, machine, unit=unit)
    if unit is not None:
        board.extras.append(UnitPanel(unit, table, board.window, board.beside_area))
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
    if unit is not None:
        record_outcomes(session, unit.machine)
    board = build_scoreboard(session, machine=machine, unit=unit, size=size,
                             fullscreen=fullscreen)
    try:
        board.run()
    finally:
        board.close()
        if unit is not None:
            unit.close()


def wire(table: SessionPort, machine: ShowdownMachine, *,
         unit: KeyboardUnit | None = None) -> None:
    """Let the showdown screen's "load the unit" load ``machine`` (or the keyboard ``unit``);
    leave it unwired when something else loads it, such as the simulated table's virtual
    players. The scoreboard never records an outcome: whoever opened the unit subscribed its one
    recorder (:func:`showdown.app.parts.unit_source.record_outcomes`); the table's read model
    mirrors the steps (see :func:`build_scoreboard`)."""
    loader = machine.load if unit is None else unit.load

    def load_machine(left: str, right: str, cards: int) -> None:
        try:
            loader(left, right, cards)
        except ShowdownBusyError:
            raise RefusedError(ErrorText("Wait until this showdown is over")) from None

    table.on_load = load_machine
