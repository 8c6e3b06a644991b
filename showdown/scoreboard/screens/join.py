"""Join an event from Set-up: the events this network announces (mDNS), or a code and an
address typed on the on-screen keyboard, then Join.

Finding and joining wait on the network (seconds), so they run on a thread of their own; the
screen says what it is doing and, when a join fails, why, in the table's language (the
:class:`~showdown.tournament.join.JoinProblem` the join names: nothing at that address, a wrong or
expired code, every table joined). Once joined, the Event screen follows the event and Set-up
takes its seating.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial

import pygame

from showdown.scoreboard import theme
from showdown.scoreboard.i18n import N_, _
from showdown.scoreboard.screens.base import Screen, Ui
from showdown.scoreboard.screens.names import NamesScreen
from showdown.scoreboard.view import TableView
from showdown.scoreboard.widgets import Button, Label, Widget
from showdown.tournament.discovery import Found
from showdown.tournament.join import DEFAULT_PORT, JoinError, JoinProblem
from showdown.tournament.view import TournamentSource

__all__ = ["JoinScreen"]

log = logging.getLogger(__name__)

PROBLEMS: dict[JoinProblem, str] = {
    JoinProblem.BAD_ADDRESS: N_("That address cannot be read: type the host's address again"),
    JoinProblem.UNREACHABLE: N_("Nothing answers at that address: check it, and that the host "
                                "is on this network"),
    JoinProblem.WRONG_CODE: N_("That join code is not this event's: read the one on the host's "
                               "screen again"),
    JoinProblem.EXPIRED_CODE: N_("That join code has expired: the host's screen shows a new "
                                 "one"),
    JoinProblem.FULL: N_("Every table of this event has joined"),
    JoinProblem.NO_ANSWER: N_("The host did not answer: try again"),
    JoinProblem.NOT_FOUND: N_("No event found on this network: type the host's address"),
    JoinProblem.OTHER: N_("The host refused: {why}"),
}
"""What the table reads when a join fails, by its reason."""

CODE_LENGTH = 16
ADDRESS_LENGTH = 40
SHOWN_FOUND = 4


class JoinScreen(Screen):
    """Find or type the event, then join (see the module docstring)."""

    name = "join"
    nav = False
    banner_area = pygame.Rect(0, 0, 800, 52)

    def __init__(self, ui: Ui) -> None:
        super().__init__(ui)
        self.code = ""
        self.address = ""
        self.found: list[Found] = []
        self.busy: set[str] = set()
        """What the screen is waiting for ("finding", "joining"): a join need not wait for the
        search to end."""
        self.problem: str | None = None
        """Why the last join failed, in the table's language."""
        self._lock = threading.Lock()
        self._searched = False
        self._arrived: TournamentSource | None = None
        """The event just joined, taken up on the scoreboard's own thread at the next frame."""

    def entered(self, view: TableView) -> None:
        """Look for events on the network the first time the screen is shown."""
        if not self._searched:
            self.search()

    # -- work off the scoreboard's thread -----------------------------------------------------

    def _run(self, what: str, work: Callable[[], None]) -> None:
        with self._lock:
            if what in self.busy:
                return
            self.busy.add(what)

        def run() -> None:
            try:
                work()
            finally:
                with self._lock:
                    self.busy.discard(what)
                self.ui.notify()

        threading.Thread(target=run, name=f"scoreboard-{what}", daemon=True).start()

    def search(self) -> None:
        """Listen for events announced on this network (mDNS)."""
        door = self.ui.tournament_door
        if door is None:
            return
        self._searched = True

        def find() -> None:
            try:
                found = door.find()
            except Exception as error:  # no multicast here: the address is typed instead
                log.warning("cannot look for events on this network: %s", error)
                found = []
            self.found = found
            if len(found) == 1 and not self.address:
                self.choose(found[0])

        self._run("finding", find)

    def choose(self, found: Found) -> None:
        """Take an event found on the network: its host's address."""
        self.address = found.host if found.port == DEFAULT_PORT else f"{found.host}:{found.port}"
        self.problem = None

    def join(self) -> None:
        """Join with the code and address shown."""
        door = self.ui.tournament_door
        if door is None or not self.code or not self.address:
            return
        code, address = self.code, self.address
        self.problem = None

        def work() -> None:
            try:
                source = door.join(code, address)
            except JoinError as error:
                log.info("joining %s failed: %s", address, error)
                self.problem = _(PROBLEMS[error.problem]).format(why=str(error))
                return
            self._arrived = source

        self._run("joining", work)

    def _joined(self, source: TournamentSource) -> None:
        """On the scoreboard's thread: back to Set-up, which takes the event's seating (the
        door gave the event to the table's read model, which the Event screen reads)."""
        self.code = ""
        self.ui.go("setup")
        view = source.view()
        name = view.info.name if view.info is not None else ""
        self.ui.notice(lambda: _("Joined {event}").format(event=name), None)

    # -- typing ---------------------------------------------------------------------------------

    def _type(self, what: str) -> None:
        names = self.ui.screens["names"]
        assert isinstance(names, NamesScreen)
        if what == "code":
            names.ask_for(lambda: _("Join code"), self.code, CODE_LENGTH, self._set_code, "join",
                          words=False)
        else:
            names.ask_for(lambda: _("The host's address"), self.address, ADDRESS_LENGTH,
                          partial(setattr, self, "address"), "join", words=False)
        self.ui.go("names")

    def _set_code(self, typed: str) -> None:
        """The code as the host shows it: capitals, the dash and spaces left out."""
        self.code = typed.upper().replace("-", "").replace(" ", "")
        self.problem = None

    def widgets(self, view: TableView) -> list[Widget]:
        """See :meth:`Screen.widgets`."""
        arrived, self._arrived = self._arrived, None
        if arrived is not None:
            self._joined(arrived)
        busy = set(self.busy)
        found: list[Widget] = [
            Label("title", pygame.Rect(8, 4, 784, 44), _("Join an event"), 30, theme.ACCENT,
                  bold=True, align="left"),
            Label("found:head", pygame.Rect(8, 56, 384, 30), _("Events on this network"), 20,
                  theme.TEXT_DIM, bold=True, align="left"),
        ]
        for index, event in enumerate(self.found[:SHOWN_FOUND]):
            found.append(Button(f"found:{index}", pygame.Rect(8, 90 + index * 62, 384, 56),
                                f"{event.name} · {event.host}", partial(self.choose, event),
                                colour=theme.PANEL_LIGHT, size=20,
                                selected=self.address.split(":")[0] == event.host))
        if not self.found:
            words = (_("Looking for events…") if "finding" in busy else
                     _("None found: type the host's address"))
            found.append(Label("found:none", pygame.Rect(8, 90, 384, 56), words, 20,
                               theme.TEXT_DIM, wrap=True))
        found.append(Button("search", pygame.Rect(8, 340, 384, 52), _("Search again"),
                            self.search, enabled="finding" not in busy, colour=theme.PANEL_LIGHT,
                            size=22))
        found += [
            Label("code:caption", pygame.Rect(408, 56, 384, 30), _("Join code"), 20,
                  theme.TEXT_DIM, bold=True, align="left"),
            Button("code", pygame.Rect(408, 90, 384, 60),
                   self.code or _("Tap to type it"), partial(self._type, "code"),
                   colour=theme.PANEL, size=28 if self.code else 20),
            Label("address:caption", pygame.Rect(408, 158, 384, 30), _("The host's address"),
                  20, theme.TEXT_DIM, bold=True, align="left"),
            Button("address", pygame.Rect(408, 192, 384, 60),
                   self.address or _("Tap to type it"), partial(self._type, "address"),
                   colour=theme.PANEL, size=24 if self.address else 20),
        ]
        if "joining" in busy:
            found.append(Label("status", pygame.Rect(408, 260, 384, 132), _("Joining…"), 22,
                               theme.TEXT, wrap=True))
        elif self.problem:
            found.append(Label("status", pygame.Rect(408, 260, 384, 132), self.problem, 20,
                               theme.DANGER, wrap=True))
        found += [
            Button("cancel", pygame.Rect(8, 400, 384, 72), _("Back"),
                   lambda: self.ui.go("setup"), colour=theme.PANEL_LIGHT, size=26),
            Button("join", pygame.Rect(408, 400, 384, 72), _("Join"), self.join,
                   enabled="joining" not in busy and bool(self.code) and bool(self.address),
                   colour=theme.OK, size=30),
        ]
        return found
