"""Names that misbehave, in headless Chromium at phone size: a 250-character name with no space
(an event set up before the name rule took it) and a name holding a right-to-left override
(U+202E, from a journal written before the rule) neither widen the page past the phone nor turn
the words and the other names after them round.

Before, the 250-character name made the event's page 4,474 px wide, and the override reversed
the rest of its line: the seating read "Eko, Bob, aweD ,nehC" and a showdown "taeb".
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.types import ASGIApp

from engine.scoring import ScoringSettings
from showdown.game.journal import Journal
from showdown.game.messages import GameStarted, HandEntry, RecordRound, RecordShowdown
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.view import TournamentSource
from showdown.web.app import table_app, tournament_app
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.server import WebServer
from showdown.web.table import PARTS, TableSource
from showdown.web.tournament import TOURNAMENT_PARTS, TournamentWatch
from tests.showdown.web.browser import PHONE, chromium, why_not
from tests.showdown.web.conftest import PIN
from tests.showdown.web.sample_tournament import Host, evening

REASON = why_not()
if REASON is not None:
    if os.environ.get("SHOWDOWN_BROWSER_TESTS") == "required":  # .ci/run: they must run there
        pytest.fail(f"the browser tests cannot run: {REASON}", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

RLO = "\u202e"
LONG = "W" * 250
TURNED = f"Bo{RLO}b"

READING = """([root, word]) => {
  // each time the word is shown under root: where its first and its last letter are drawn
  const found = [];
  for (const box of document.querySelectorAll(root)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      for (let i = node.data.indexOf(word); i >= 0; i = node.data.indexOf(word, i + 1)) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const first = range.getBoundingClientRect();
        range.setStart(node, i + word.length - 1); range.setEnd(node, i + word.length);
        const last = range.getBoundingClientRect();
        found.push([first.left, last.left, first.top, last.top]);
      }
    }
  }
  return found;
}"""


@contextmanager
def _served(app: ASGIApp, hub: Hub) -> Iterator[str]:
    server = WebServer(app, "127.0.0.1", 0, before_stop=hub.close)
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}/"
    finally:
        server.stop()


def _reads_left_to_right(page: Any, root: str, word: str) -> None:
    """``word`` is shown under ``root``, each time with its first letter left of its last on
    the same line: not turned round by a name before it."""
    shown = page.evaluate(READING, [root, word])
    assert shown, f"{word!r} is not shown under {root}"
    for first, last, first_top, last_top in shown:
        assert first_top == last_top and first < last, (root, word, shown)


def _fits_the_phone(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"


def test_the_events_page_keeps_a_long_name_and_an_override_in_their_place() -> None:
    players = ("Ana", LONG, "Chen", "Dewi", "Eko", TURNED, "Gita", "Hiro")
    host = Host(evening((120, 0, 35, 0), (0, 210, 0, 64), players=players))
    hub = Hub(TOURNAMENT_PARTS)
    with _served(tournament_app(TournamentWatch(host, hub.changed), hub), hub) as url, \
            chromium() as browser:
        page = browser.new_page()
        for path in ("", "standings"):
            page.goto(url + path)
            _fits_the_phone(page)
            assert LONG in page.inner_text("main")  # the whole name, wrapped, not cut
        page.goto(url)
        for word in ("Gita", "Hiro", "Chen", "Dewi"):  # after the override, after the long one
            _reads_left_to_right(page, ".seating", word)
        _reads_left_to_right(page, ".event-standings", "Hiro")


def test_the_tables_page_keeps_names_from_before_the_rule_in_their_place(tmp_path: Path
                                                                         ) -> None:
    names = ["Al", "X" * 40, TURNED, "Cy"]
    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        # set up as an older showdown did, before the name rule refused the override
        journal.start_game("set_up", lambda game: [GameStarted(
            game_id=game, players=names, preset="showdown", scoring=ScoringSettings(target=500),
            first_dealer="Al").model_dump(mode="json")])
        session = Session(journal)
        session.handle(RecordShowdown(winner=TURNED, loser="Al", cards_loaded=2, source="unit",
                                      left=TURNED, right="Al",
                                      reaction_ms={TURNED: 201.0, "Al": 263.0}))
        session.handle(RecordRound(went_out=names[1], hands={
            name: HandEntry(points=10) for name in names if name != names[1]}))
        hub = Hub(PARTS)
        model: TableModel[TournamentSource] = TableModel(session)
        unsubscribe = model.subscribe(hub.changed)
        source = TableSource(model)
        try:
            with _served(table_app(source, hub, PinGuard(lambda: PIN)), hub) as url, \
                    chromium() as browser:
                page = browser.new_page()
                for path in ("", "standings"):
                    page.goto(url + path)
                    _fits_the_phone(page)
                page.goto(url)
                for word in ("beat", "takes", "cards"):
                    _reads_left_to_right(page, ".showdowns", word)
        finally:
            unsubscribe()
            model.close()
