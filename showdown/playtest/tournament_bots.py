"""A simulated table at an event: bots play the seating the host publishes.

:class:`TournamentTable` waits for the round its table is seated in, sets the game up with those
players and the event's scoring (keyed by the event and the round, so a table restarted after a
crash never sets a round up twice), plays it to its end with :class:`BotTable`, and waits for the
next round, until the host says the event is over. A correction is news, never a crash: while
someone at the table reopens an earlier round's game (an undo, an edit) the bots wait, and when it
is recorded again they take up the seated round's game where it was; a command the session
refuses is logged and the table looks at the event again. In free play it plays ``games`` games
of its own (keyed by their number) with the players dealt to it, or with ``games`` 0 one game
after another until it is stopped (``showdown run --games 0``, "never stop").
"""

from __future__ import annotations

import itertools
import logging
import random
import threading

from engine.errors import RuleError
from engine.scoring import ScoringSettings
from engine.tournament import TournamentFormat
from showdown.game.messages import ResumeGame, SetUpGame
from showdown.game.session import GameState
from showdown.playtest.bot_table import BotTable, TableError, TableStopped
from showdown.tournament.games import setup_key, tournament_round
from showdown.tournament.host import settings_from_info
from showdown.tournament.table_link import TableLink

__all__ = ["TournamentTable"]

log = logging.getLogger("showdown.playtest.tournament")


class TournamentTable:
    """Bots at one table of an event (see the module docstring)."""

    def __init__(self, table: BotTable, link: TableLink, *, games: int = 1,
                 stop: threading.Event | None = None) -> None:
        self.table = table
        self.link = link
        self.games = games
        self.stop = stop or threading.Event()
        self._changed = threading.Event()
        link.subscribe(self._changed.set)
        link.hands = self.hands
        self._stalled: tuple[int, int] | None = None
        """The session's game and its count of entries when the bots could not play it on (a
        correction made at the table): they wait until a person changes it."""

    def hands(self) -> int:
        """Hands this table recorded in the event's games."""
        journal = self.table.session.journal
        total = 0
        for game in journal.games():
            state = self._tournament_game(game.id)
            if state is not None:
                total += len(state.rounds)
        return total

    def _tournament_game(self, game_id: int) -> GameState | None:
        from showdown.game.session import fold  # noqa: PLC0415 - only here

        entries = self.table.session.journal.entries(game_id)
        if not entries or not tournament_round(entries[0].key, self.link.member.event)[0]:
            return None
        return fold(game_id, entries)

    def _round_of_current(self) -> tuple[int | None, bool, bool]:
        """(the event round of the session's game, whether it is an event game, over)."""
        state = self.table.session.state
        if state is None:
            return None, False, True
        first = self.table.session.journal.entries(state.game_id)[0]
        belongs, round_ = tournament_round(first.key, self.link.member.event)
        return round_, belongs, state.is_over

    def _game_of(self, round_: int) -> GameState | None:
        """The session's game of the event's round ``round_`` (the last set up for it), if any."""
        journal = self.table.session.journal
        for game in reversed(journal.games()):
            entries = journal.entries(game.id)
            if entries and tournament_round(entries[0].key, self.link.member.event) == (
                    True, round_):
                return self._tournament_game(game.id)
        return None

    def _play_seated(self, game: GameState) -> None:
        """Play the seated round's ``game`` on, taking it up again first when the session shows
        another (an earlier round was just corrected here)."""
        state = self.table.session.state
        if state is None or state.game_id != game.game_id:
            log.info("table %s takes up round game %d again after a correction",
                     self.link.member.table, game.game_id)
            self.table.send(ResumeGame(game_id=game.game_id), None)
        self._play()

    def _where(self) -> tuple[int, int] | None:
        """(the session's game, how many entries it holds): what a correction changes."""
        state = self.table.session.state
        if state is None:
            return None
        return state.game_id, len(self.table.session.journal.entries(state.game_id))

    def _play(self) -> None:
        """One game played on; a refusal is news (a correction made at the table that the
        bots' replay of the round no longer fits), not a crash: they wait for a person to
        change the game (record the round, undo the correction) and look again."""
        if self._stalled is not None and self._stalled == self._where():
            self._wait()
            return
        try:
            self.table.play_game()
        except (RuleError, TableError) as error:
            self._stalled = self._where()
            log.warning("table %s: the bots cannot play this game on after a correction (%s); "
                        "waiting for it to be recorded at the table", self.link.member.table,
                        error)
            self._wait()

    def _wait(self) -> None:
        self._changed.wait(1.0)
        self._changed.clear()
        if self.stop.is_set():
            raise TableStopped

    def play(self) -> None:
        """Play the event until the host says it is over (or ``stop`` is set)."""
        info = self.link.member.info
        settings = settings_from_info(info)
        me = self.link.member.table
        if settings.format is TournamentFormat.FREE:
            self._free(settings.scoring())
            return
        while True:
            view = self.link.view()
            seating = view.seating
            if seating is None:
                self._wait()
                continue
            if seating.over or seating.round is None:
                log.info("the event is over")
                return
            players = seating.tables.get(me, [])
            round_, belongs, over = self._round_of_current()
            if belongs and round_ is not None and round_ < seating.round and not over:
                self._wait()  # an earlier round reopened here: someone is correcting it
                continue
            if not players:
                self._wait()  # a bye: wait for the next round
                continue
            game = self._game_of(seating.round)
            if game is not None:
                if game.is_over:
                    self._wait()  # this round is played here: wait for the next
                else:
                    self._play_seated(game)
                continue
            self._set_up(players, seating.round, settings.scoring(), None)
            self._play()

    def _free(self, scoring: ScoringSettings) -> None:
        view = self.link.view()
        while view.seating is None or not view.seating.tables.get(self.link.member.table):
            self._wait()
            view = self.link.view()
        assert view.seating is not None
        players = view.seating.tables[self.link.member.table]
        for number in itertools.count(1) if self.games == 0 else range(1, self.games + 1):
            key = setup_key(self.table.seed, self.link.member.event, None, number)
            done = [g for g in self.table.session.journal.games()
                    if (e := self.table.session.journal.entries(g.id)) and e[0].key == key]
            state = self.table.session.state
            if done and state is not None and state.game_id == done[-1].id and state.is_over:
                continue
            if not done:
                self._set_up(players, None, scoring, number)
            self.table.play_game()

    def _set_up(self, players: list[str], round_: int | None, scoring: ScoringSettings,
                number: int | None) -> None:
        key = setup_key(self.table.seed, self.link.member.event, round_, number or 0)
        dealer = players[random.Random(key).randrange(len(players))]
        command = SetUpGame(players=players, preset=self.table.preset_name, scoring=scoring,
                            first_dealer=dealer, command_id=key)
        self.table.send(command, key)
