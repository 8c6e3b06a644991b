"""Refusals keep their English words for logs and carry a template the scoreboard translates."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import engine.tally
import showdown.game.session
from engine.error_text import ErrorText
from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import (
    EntryRejected,
    HandEntry,
    RecordRound,
    RecordShowdown,
    SetUpGame,
    UndoLast,
)
from showdown.game.session import Session
from showdown.scoreboard.i18n import use_language
from showdown.scoreboard.refusals import translate


@pytest.fixture
def session(tmp_path: Path) -> Session:
    session = Session(Journal.open(tmp_path / "game.db"))
    session.handle(SetUpGame(players=["Ann", "Bob", "Cy"], scoring=ScoringSettings(target=500)))
    return session


def _refusal(session: Session, command: object) -> EntryRejected:
    events = session.handle(command)  # type: ignore[arg-type]
    assert len(events) == 1 and isinstance(events[0], EntryRejected), events
    assert events[0].text is not None
    return events[0]


def test_a_refusal_keeps_its_english_message_and_carries_the_template(session: Session) -> None:
    refused = _refusal(session, RecordRound(went_out="Ann", hands={
        "Bob": HandEntry(points=-3), "Cy": HandEntry(points=5)}))
    assert refused.message == "seat 2 (Bob): points cannot be negative (-3)"
    assert refused.text is not None
    assert str(refused.text) == refused.message
    assert refused.text.template == "{who}: points cannot be negative ({points})"
    with use_language("ja"):
        assert translate(refused.text) == "席2（Bob）：得点はマイナスにできません（-3）"


@pytest.mark.parametrize("command", [
    RecordShowdown(winner="Ann", loser="Zed", cards_loaded=2),
    RecordShowdown(winner="Ann", loser="Ann", cards_loaded=2),
    RecordRound(went_out="Ann", hands={"Bob": HandEntry(points=5)}),
    RecordRound(went_out="Ann", hands={"Bob": HandEntry(cards={"7": 9}),
                                       "Cy": HandEntry(points=1)}),
    RecordRound(went_out="Ann", hands={"Bob": HandEntry(cards={"moon": 1}),
                                       "Cy": HandEntry(points=1)}),
    UndoLast(),
], ids=["unknown-player", "against-themselves", "missing-hand", "too-many", "no-such-kind",
        "nothing-to-undo"])
def test_every_refusal_is_translated_for_the_table(session: Session, command: object) -> None:
    refused = _refusal(session, command)
    assert refused.text is not None
    assert str(refused.text) == refused.message
    for code in ("ja", "zh_CN", "zh_HK", "id"):
        with use_language(code):
            words = translate(refused.text)
        assert words != refused.message, f"{code}: {refused.message!r} is not translated"


def test_a_second_result_for_a_showdown_is_refused_in_the_language(session: Session) -> None:
    session.handle(RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2, showdown_id="s1"))
    refused = _refusal(session, RecordShowdown(winner="Ann", loser="Bob", cards_loaded=2,
                                               showdown_id="s1"))
    assert refused.duplicate and refused.message == "showdown s1 already has a result"
    with use_language("id"):
        assert translate(refused.text) == "Showdown s1 sudah punya hasil"  # type: ignore[arg-type]


def test_an_unknown_template_or_a_broken_translation_falls_back_to_english() -> None:
    assert translate(ErrorText("a word {x}", {"x": 1})) == "a word 1"
    with use_language("ja"):
        assert translate(ErrorText("{{not}} a msgid")) == "{not} a msgid"


@pytest.mark.parametrize("module", [showdown.game.session, engine.tally])
def test_no_refusal_is_written_as_a_bare_string(module: object) -> None:
    """A refusal written as an f-string would reach the scoreboard untranslatable."""
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    bare = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id in ("SessionError", "TallyError")
        and node.exc.args and isinstance(node.exc.args[0], ast.Constant | ast.JoinedStr)
    ]
    assert bare == []


def test_a_set_up_refusal_names_the_scoring_mode_in_the_language(tmp_path: Path) -> None:
    session = Session(Journal.open(tmp_path / "new.db"))
    refused = _refusal(session, SetUpGame(
        players=["Ann", "Bob", "Cy"], scoring=ScoringSettings(mode="partners", target=500)))
    assert refused.message == "partners (fixed) needs exactly 4 players, not 3"
    with use_language("ja"):
        assert translate(refused.text) == (  # type: ignore[arg-type]
            "パートナー戦（固定ペア）はちょうど4人必要です（3人ではなく）")
