"""docs/event.md names every topic and message the code has."""

from __future__ import annotations

from pathlib import Path

from showdown.tournament import messages
from showdown.tournament.messages import Topics

CLIENT = "join-0123456789abcdef"
DOC = (Path(__file__).resolve().parents[3] / "docs" / "event.md").read_text(encoding="utf-8")


def test_every_message_is_specified() -> None:
    names = [n for n in messages.__all__ if n.endswith(("Message", "Status", "Info", "Request",
                                                         "Reply"))]
    assert len(names) >= 9
    assert [n for n in names if f"`{n}`" not in DOC] == []


def test_every_topic_is_specified() -> None:
    topics = Topics("abc123")
    named = [topics.info, topics.host, topics.standings, topics.seating, topics.tables,
             topics.entry("t1"), topics.status("t1"), topics.ack("t1"),
             Topics.join_request(CLIENT), Topics.join_reply(CLIENT)]
    written = [t.replace("abc123", "<event>").replace("/t1/", "/<table>/")
               .replace(CLIENT, "<client>") for t in named]
    assert [t for t in written if f"`{t}`" not in DOC] == []
