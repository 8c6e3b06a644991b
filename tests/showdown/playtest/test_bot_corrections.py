"""A simulated table whose hand was corrected at the table: the bots replay the hand from its
seed, and a showdown recorded by a person between two other players no longer fits the replayed
deal. The table says so in one line (before, the engine's refusal "this showdown is between
players 0 and 1" crashed it); the event's bots then wait for a person to record the hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.messages import RecordShowdown, UndoLast
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, TableError, coin_referee


def test_a_showdown_recorded_by_hand_that_the_replay_does_not_fit_is_said_not_crashed(
        tmp_path: Path) -> None:
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        bots = BotTable(session, coin_referee(3), seed=3, players=4)
        bots.set_up()
        bots.play_round()
        state = session.state
        assert state is not None
        showdowns = [s for s in state.showdowns if s.round == 1]
        assert showdowns, "the seed's first hand has a showdown"
        last = showdowns[-1]
        session.handle(UndoLast())  # the hand taken back...
        session.handle(UndoLast())  # ...and its last showdown
        others = [name for name in state.players if name not in (last.winner, last.loser)]
        answer = session.handle(RecordShowdown(winner=others[0], loser=others[1],
                                               cards_loaded=2))  # entered by a person
        assert answer[0].kind == "showdown_recorded", answer
        with pytest.raises(TableError, match="the round was corrected at the table") as raised:
            bots.play_round()
        assert f"recorded between {others[0]} and {others[1]}" in str(raised.value)
