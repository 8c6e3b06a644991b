"""The front ends: the scoreboard (when this installation has one and a window can open) and the
phone page (when an address is free or asked for), both drawing the table's one read model
(:class:`~showdown.game.table_model.TableModel`).

Both are closed in the shutdown's front-ends phase: after the unit's outputs are safe, before the
journal closes (a last tap, or a phone's undo, still reaches an open journal).
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING

from showdown.app.errors import UserError
from showdown.app.parts.shutdown import Phase, Shutdown
from showdown.app.parts.unit_source import Kind, UnitSource
from showdown.app.phone_page import PhonePage, serve_table
from showdown.game.messages import SetUpGame
from showdown.game.table_model import TableModel
from showdown.scoreboard.touch_matrix import TouchMatrix
from showdown.tournament.view import TournamentSource
from showdown.unit.machine import ShowdownMachine

if TYPE_CHECKING:
    from showdown.playtest.panel import KeyboardUnit
    from showdown.scoreboard.app import Scoreboard
    from showdown.scoreboard.port import TournamentDoor

__all__ = ["NO_WINDOW", "ScoreboardFront", "open_phone_page", "open_scoreboard",
           "window_or_refuse"]

log = logging.getLogger("showdown.run")

NO_WINDOW = "--interactive needs a window for the scoreboard, and none can open here"


class ScoreboardFront:
    """The scoreboard (``showdown.scoreboard``, when installed) as the service's front end
    (:class:`showdown.app.service.Frontend`)."""

    def __init__(
        self, model: TableModel[TournamentSource], machine: ShowdownMachine, *,
        fullscreen: bool = False, load_unit: bool = True, keyboard: KeyboardUnit | None = None,
        size: tuple[int, int] = (800, 480), touch: TouchMatrix | None = None,
        phone: PhonePage | None = None, door: TournamentDoor | None = None,
        first_game: SetUpGame | None = None,
    ) -> None:
        play = importlib.import_module("showdown.app.scoreboard_main")
        self.board: Scoreboard = play.build_scoreboard(
            model.session, machine=machine, unit=keyboard, fullscreen=fullscreen, size=size,
            load_unit=load_unit, model=model,
            phone=None if phone is None else (phone.url, phone.pin),
            door=door, first_game=first_game,
            **({} if touch is None else {"touch": touch}),
        )

    def notify(self, note: object = None) -> None:
        """Something changed: redraw soon (from any thread, or a signal handler)."""
        self.board.notify(note)

    def pump(self, timeout_ms: int) -> bool:
        """Handle input and redraw for up to ``timeout_ms``; False once the window closed."""
        return bool(self.board.pump(timeout_ms))

    def close(self) -> None:
        """Close the window (and unsubscribe from the session and the unit)."""
        self.board.close()


def open_phone_page(model: TableModel[TournamentSource], shutdown: Shutdown, *,
                    address: str | None, asked: bool,
                    trusted: tuple[str, ...] = ()) -> PhonePage | None:
    """The phone page at ``address`` (None: none), showing the event when the table is in one;
    ``trusted``: the proxies whose forwarded headers name a client. The service's start does not
    wait for the page's process (on a busy Pi the slowest part of it): the address is had at
    once, and the page serves once its process has started."""
    if address is None:
        return None
    phone = serve_table(model, address, asked=asked, trusted=trusted, wait=False)
    if phone is not None:
        shutdown.add(Phase.FRONT_ENDS, phone.stop, "stopping the phone page")
    return phone


def open_scoreboard(model: TableModel[TournamentSource], unit: UnitSource, shutdown: Shutdown, *,
                    headless: bool, size: tuple[int, int], touch: TouchMatrix,
                    phone: PhonePage | None, door: TournamentDoor | None,
                    first_game: SetUpGame | None = None) -> ScoreboardFront | None:
    """The scoreboard, when this installation has one and a window can open; else None
    (headless: the live status in the terminal), which ``--interactive`` refuses.
    ``first_game``: what the command line asked for, Set-up's starting point."""
    front = None if headless else _scoreboard(model, unit, size=size, touch=touch,
                                              phone=phone, door=door, first_game=first_game)
    if front is None and unit.keyboard is not None:
        raise UserError("--interactive needs a window for the scoreboard, and none could open")
    if front is not None:
        shutdown.add(Phase.FRONT_ENDS, front.close, "closing the scoreboard")
    return front


def _scoreboard(model: TableModel[TournamentSource], unit: UnitSource, *, size: tuple[int, int],
                touch: TouchMatrix, phone: PhonePage | None, door: TournamentDoor | None,
                first_game: SetUpGame | None) -> ScoreboardFront | None:
    try:
        importlib.import_module("showdown.scoreboard.app")
    except ImportError:
        log.info("no scoreboard in this installation: running headless")
        return None
    display = importlib.import_module("showdown.scoreboard.display")
    try:
        # At a real table (or played by keyboard) the scoreboard says who is on the paddles;
        # the virtual players load the simulated unit themselves.
        return ScoreboardFront(model, unit.machine, fullscreen=unit.kind is Kind.REAL,
                               load_unit=unit.loaded_by_people, keyboard=unit.keyboard,
                               size=size, touch=touch, phone=phone, door=door,
                               first_game=first_game)
    except display.NoWindowError as error:  # no screen here: SDL would draw an invisible window
        if unit.keyboard is not None:
            raise UserError(f"{NO_WINDOW}: {error}") from None
        log.info("no screen for the scoreboard (%s): running headless, the live status below",
                 error)
        return None
    except Exception as error:  # no video driver: the service still keeps score
        log.warning("the scoreboard cannot open (%s): running headless", error)
        return None


def window_or_refuse() -> None:
    """Refuse ``--interactive`` at once where no screen can be reached (nothing is created)."""
    display = importlib.import_module("showdown.scoreboard.display")
    try:
        display.check_environment()
    except display.NoWindowError as error:
        raise UserError(f"{NO_WINDOW}: {error}") from None
