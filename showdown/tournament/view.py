"""What the event looks like from anywhere: :class:`TournamentView`, drawn by the scoreboard and,
later, the phone page. The host builds it from its own state, a table from the retained
messages it received; both hold the same messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from showdown.tournament.messages import SeatingMessage, StandingLine, TableLine, TournamentInfo

__all__ = ["StillTournament", "TournamentSource", "TournamentView"]


@dataclass(frozen=True)
class TournamentView:
    """The event now: what it is, the leaderboard, the tables, the seating."""

    info: TournamentInfo | None = None
    standings: tuple[StandingLine, ...] = ()
    tables: tuple[TableLine, ...] = ()
    seating: SeatingMessage | None = None
    host_online: bool = False
    me: str | None = None
    """The table this view is seen from (None at the host)."""
    join_code: str | None = field(default=None, repr=False)
    """The host's current join code (only in the host's own view, to show on its screen)."""
    join_expires: float | None = None
    join_address: str | None = None
    """Where the tables reach the host (``HOST`` or ``HOST:PORT``), shown with the join code
    and in its QR code as ``CODE@HOST[:PORT]``, what ``showdown run --event`` takes."""

    @property
    def join_text(self) -> str | None:
        """``CODE@HOST[:PORT]``: the join code with the host's address, when both are known."""
        if not self.join_code or not self.join_address:
            return None
        return f"{self.join_code}@{self.join_address}"

    def table(self, table: str) -> TableLine | None:
        """One table's line."""
        return next((line for line in self.tables if line.table == table), None)


class TournamentSource(Protocol):
    """Where a screen gets the event from: the host, or a table's link."""

    def view(self) -> TournamentView:
        """The event now."""
        ...

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the view changed."""
        ...


@dataclass(frozen=True, eq=False)
class StillTournament:
    """An :class:`TournamentSource` that never changes: one view to draw (the screenshots, a table's
    screen in a test)."""

    shown: TournamentView

    def view(self) -> TournamentView:
        """The one view."""
        return self.shown

    def subscribe(self, listener: Callable[[], None]) -> None:
        """Nothing to tell: the view never changes."""
