"""The table's link to an event: joined at start (``--event``, or a journal that joined before),
or later from the scoreboard's Set-up through the door; stopped in the shutdown's own phase
either way, once the front ends are closed and before the journal closes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from showdown.app.errors import UserError
from showdown.app.parts.shutdown import Phase, Shutdown
from showdown.app.parts.table import Table
from showdown.game.table_model import TableModel
from showdown.tournament.join import JoinError
from showdown.tournament.membership import TableDoor, open_link
from showdown.tournament.outbox import tournament_file
from showdown.tournament.table_link import TableLink
from showdown.tournament.view import TournamentSource

__all__ = ["TOURNAMENT_SCORING", "TournamentLink", "open_tournament_link"]

TOURNAMENT_SCORING = ("an event's games are scored the way its host set the event up: leave out "
                      "--scoring and --rounds with --event")


@dataclass
class TournamentLink:
    """The link when the table is in an event (:attr:`link`), and how to join one when not."""

    table: Table
    shutdown: Shutdown
    name: str
    keepalive: int
    resend_s: float
    link: TableLink | None = field(default=None)
    """The link to the event the table is in, or None."""

    def door(self, model: TableModel[TournamentSource]) -> TableDoor | None:
        """How Set-up joins an event when the table is in none yet (then the link stops with
        the rest, and the table's read model holds it: the Event screen and the phone page read
        it there)."""
        if self.link is not None:
            return None

        def on_link(link: TableLink) -> None:
            self.joined(link)
            model.join(link)

        return TableDoor(self.table.journal, self.name, on_link, keepalive=self.keepalive,
                         resend_s=self.resend_s)

    def joined(self, link: TableLink) -> None:
        """The table is in the event of ``link`` from now on: it stops with the rest."""
        self.link = link
        self.shutdown.add(Phase.TOURNAMENT_LINK, link.stop, "stopping the event link")


def open_tournament_link(table: Table, shutdown: Shutdown, *, address: str | None, name: str,
                         keepalive: int, resend_s: float, own_scoring: bool) -> TournamentLink:
    """Connect to the event when ``--event`` asks or the journal joined one before (its games
    are then scored the host's way: ``own_scoring`` from the command line is refused)."""
    event = TournamentLink(table, shutdown, name, keepalive, resend_s)
    if address is None and not tournament_file(table.path).exists():
        return event
    if own_scoring:  # the journal joined an event before: its games are the event's
        raise UserError(f"{table.path} is a table of an event: {TOURNAMENT_SCORING}")
    try:
        event.joined(open_link(address, table.journal, name, keepalive, resend_s))
    except JoinError as error:
        raise UserError(str(error)) from None
    return event
