"""Entries arriving as JSON (a touch, a file, a retry) parse or fail with a message, never a trace;
and whatever sequence of entries arrives, the journal's fold is the live state."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import (
    Command,
    CommandError,
    EditRound,
    EntryRejected,
    HandEntry,
    RecordRound,
    RecordShowdown,
    SetUpGame,
    UndoLast,
    parse_command,
    to_json,
)
from showdown.game.session import Session, fold

NAMES = ["Ann", "Bob", "Cy", "Zed"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=12,
)

KINDS = ["set_up_game", "record_showdown", "record_round", "undo_last", "edit_round", "nope"]
FIELDS = ["players", "winner", "loser", "cards_loaded", "went_out", "hands", "round", "reason",
          "points", "cards", "preset", "showdown_id"]


@st.composite
def command_like(draw: st.DrawFn) -> dict[str, Any]:
    """Objects that look like commands: a known or unknown kind with plausible or junk fields."""
    data: dict[str, Any] = {"kind": draw(st.sampled_from(KINDS))}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=5, unique=True)):
        data[name] = draw(json_values | st.sampled_from(NAMES))
    return data


@given(command_like() | json_values)
def test_any_json_is_a_command_or_a_clear_message(data: Any) -> None:
    text = json.dumps(data)
    try:
        command = parse_command(text)
    except CommandError as error:
        assert str(error).startswith("not a valid command")
        assert "\n" not in str(error)
    else:
        assert parse_command(to_json(command)) == command


@given(st.binary(max_size=40))
def test_any_bytes_are_a_command_or_a_clear_message(data: bytes) -> None:
    try:
        parse_command(data)
    except CommandError as error:
        assert "not a valid command" in str(error)


hands = st.dictionaries(
    st.sampled_from(NAMES),
    st.builds(HandEntry, points=st.integers(-20, 400))
    | st.builds(HandEntry, cards=st.dictionaries(
        st.sampled_from(["0", "7", "9", "skip", "draw-two", "wild", "joker"]),
        st.integers(-1, 9), min_size=1, max_size=3)),
    max_size=4,
)
commands = st.one_of(
    st.builds(RecordRound, went_out=st.sampled_from(NAMES), hands=hands),
    st.builds(
        RecordShowdown, winner=st.sampled_from(NAMES), loser=st.sampled_from(NAMES),
        cards_loaded=st.integers(1, 3), showdown_id=st.none() | st.sampled_from(["1", "2", "3"]),
    ),
    st.builds(EditRound, round=st.integers(1, 4), went_out=st.sampled_from(NAMES), hands=hands),
    st.just(UndoLast()),
)


@settings(max_examples=60)
@given(st.lists(commands, max_size=14))
def test_rejected_entries_store_nothing_and_the_fold_is_the_live_state(
    sequence: list[Command],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "s.db"
        session = Session(Journal.open(db))
        session.handle(SetUpGame(players=NAMES[:3], scoring=ScoringSettings(target=300)))
        for command in sequence:
            state = session.state
            assert state is not None
            before = len(session.journal.entries(state.game_id))
            answer = session.handle(command)
            after = len(session.journal.entries(state.game_id))
            if isinstance(answer[0], EntryRejected):
                assert after == before
                assert session.state is state
            else:
                assert after == before + 1
            live = session.state
            assert live is not None
            assert sum(live.totals.values()) >= 0
        live = session.state
        assert live is not None
        session.journal.close()
        with Journal.open(db) as journal:
            resumed = fold(live.game_id, journal.entries(live.game_id))
            assert journal.integrity_check() == "ok"
        assert resumed is not None
        assert resumed.totals == live.totals
        assert resumed.rounds == live.rounds
        assert resumed.showdowns == live.showdowns
        assert resumed.is_over == live.is_over
