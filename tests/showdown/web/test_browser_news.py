"""What the event's news is worth, in headless Chromium: how old it is, "Live" only while news
can come, the event's part reached from the top of a table's page, and the tables' names shown
as typed.

Before, with the broker dead, the event's page and the event below a table's game kept showing
"Live" and "T1 online, 6 hands"; the event's part sat some 3,000 px down the table's page; and
the names in the Tables list were said to be escaped twice (``&lt;img …&gt;``, "Ada&#39;s").
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from starlette.types import ASGIApp

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.tournament.messages import TableLine
from showdown.tournament.view import TournamentSource
from showdown.web.app import tournament_app
from showdown.web.hub import Hub
from showdown.web.server import WebServer
from showdown.web.tournament import TOURNAMENT_PARTS, TournamentWatch
from tests.showdown.web.browser import chromium, why_not
from tests.showdown.web.conftest import play
from tests.showdown.web.sample_tournament import Host, evening

REASON = why_not()
if REASON is not None:
    if os.environ.get("SHOWDOWN_BROWSER_TESTS") == "required":  # .ci/run: they must run there
        pytest.fail(f"the browser tests cannot run: {REASON}", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402 - only where a browser can run

IMG = '<img src=x onerror="alert(1)">'


@contextmanager
def _served(app: ASGIApp, hub: Hub) -> Iterator[str]:
    server = WebServer(app, "127.0.0.1", 0, before_stop=hub.close)
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}/"
    finally:
        server.stop()


def test_the_events_page_says_how_old_its_news_is_and_is_live_only_while_news_can_come(
        ) -> None:
    # The news came five minutes ago by the Pi's clock (the hub stamps each change).
    host = Host(evening((120, 0, 35, 0), (0, 210, 0, 64)))
    host.current = replace(host.current, tables=(
        TableLine(table="t1", name=IMG, online=True, since=1_700_000_000.0, hands=6),
        TableLine(table="t2", name="Ada's", online=True, since=1_700_000_000.0, hands=4)))
    news = time.time() - 300
    hub = Hub(TOURNAMENT_PARTS, clock=lambda: news)
    with _served(tournament_app(TournamentWatch(host, hub.changed), hub), hub) as url, \
            chromium() as browser:
        page = browser.new_page()
        page.goto(url)
        expect(page.locator("#live")).to_have_text("Live", timeout=30_000)
        shown = time.strftime("%H:%M:%S", time.localtime(news))
        expect(page.locator(".news")).to_have_text(f"Updated {shown} · 5 min ago")
        # the tables' names as they were typed, escaped once
        assert page.inner_text('.tables li[data-table="t1"] .state') == f"{IMG} online, 6 hands"
        assert page.inner_text('.tables li[data-table="t2"] .state') == "Ada's online, 4 hands"
        # the source stops: its link to the broker dropped
        host.publish(replace(host.current, host_online=False))
        expect(page.locator("#live")).to_have_text(re.compile(
            r"^Not live: no news from the event since \d\d:\d\d:\d\d$"), timeout=30_000)
        expect(page.locator("#part-event")).to_have_class(re.compile(r"\bstale\b"))
        expect(page.locator("#part-event .verdict")).to_contain_text(
            "The host is away: no news from the event since")
        # and back
        host.publish(replace(host.current, host_online=True))
        expect(page.locator("#live")).to_have_text("Live", timeout=30_000)
        expect(page.locator("#part-event")).not_to_have_class(re.compile(r"\bstale\b"))


def test_a_tables_page_leads_to_its_event_from_the_top_and_marks_its_old_news(
        tmp_path: Path) -> None:
    from showdown.app.phone_page import serve_table

    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen"], rounds=12)  # a long history: a long page
        table: TableModel[TournamentSource] = TableModel(session)
        host = Host(evening((120, 0, 35, 0), (0, 210, 0, 64)))
        table.join(host)
        served = serve_table(table, "127.0.0.1:0")
        assert served is not None
        try:
            with chromium() as browser:
                page = browser.new_page()
                page.goto(served.url)
                expect(page.locator("#live")).to_have_text("Live", timeout=30_000)
                link = page.locator("#event-link a")
                expect(link).to_be_visible()
                box = link.bounding_box()
                head = page.locator("#event-head").bounding_box()
                assert box is not None and head is not None
                assert box["y"] < 200 < head["y"], (box, head)  # at the top, the event far below
                link.click()
                expect(page.locator("#event-head")).to_be_in_viewport()
                expect(page.locator("#part-event .news")).to_have_text(re.compile(
                    r"^Updated \d\d:\d\d:\d\d · just now$"))
                host.publish(replace(host.current, host_online=False))
                expect(page.locator("#part-event")).to_have_class(re.compile(r"\bstale\b"),
                                                                  timeout=30_000)
                expect(page.locator("#part-event .verdict")).to_contain_text(
                    "The host is away: no news from the event since")
                expect(page.locator("#live")).to_have_text("Live")  # the table itself still is
        finally:
            served.stop()
