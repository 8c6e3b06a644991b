"""The phone page in a real browser: headless Chromium against ``showdown run --sim``.

Two runs, kept few and quick: a whole simulated game followed live to its end (the page's
totals are the journal's; how long each entry took to reach the screen is measured and kept in
``tests/_artifacts/web-latency.json``, never asserted); and a table that the reader switches to
Japanese, corrects with a wrong PIN and then the right one, and follows across a restart of its
service. And the event: ``showdown event demo`` at two tables, its page followed live to the end
of the evening, showing every player of both tables with the totals the evening ended with.
"""

from __future__ import annotations

import json
import os
import signal
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.game.table_pin import evening_pin
from showdown.tournament.view import TournamentSource
from showdown.web.app import SESSION_COOKIE
from tests.showdown.web.browser import (
    LATENCY_PROBE,
    Service,
    chromium,
    free_port,
    page_totals,
    why_not,
    write_figures,
)

REASON = why_not()
if REASON is not None:
    if os.environ.get("SHOWDOWN_BROWSER_TESTS") == "required":  # .ci/run: they must run there
        pytest.fail(f"the browser tests cannot run: {REASON}", pytrace=False)
    pytest.skip(REASON, allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402 - only where a browser can run

STAGES_PROBE = """
window.__stages = new Set();
new MutationObserver(() => {
  for (const box of document.querySelectorAll("[data-stage]")) {
    window.__stages.add(box.dataset.stage);
  }
}).observe(document, {subtree: true, childList: true});
"""


def _journal_state(db: Path) -> Session:
    return Session(Journal.open(db))


def test_the_page_follows_a_whole_game_live_and_shows_the_journals_totals(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    service = Service(db, free_port(), "--speed", "20", "--games", "1",
                      "--players", "3", "--seed", "3")
    with chromium() as browser:
        page = browser.new_page()
        page.add_init_script(LATENCY_PROBE)
        page.add_init_script(STAGES_PROBE)
        service.start()
        try:
            page.goto(service.url)
            page.wait_for_selector('.game[data-finished="yes"]', timeout=180_000)
            shown = page_totals(page)
            winners = page.inner_text(".winners")
            assert service.wait(60) == 0
            # the service ended with the game: the page says it is out of date
            expect(page.locator("#live")).to_have_class("live stale", timeout=30_000)
            assert "Not live since" in page.inner_text("#live")
        finally:
            service.stop()
        latencies = page.evaluate("window.__latencies")
        stages = set(page.evaluate("Array.from(window.__stages)"))
    state = _journal_state(db).state
    assert state is not None and state.is_over
    assert shown == state.totals
    assert winners == f"{', '.join(state.winners)} wins!"
    assert stages & {"launching", "result", "false_start"}, stages
    assert len(latencies) >= len(state.rounds)
    ordered = sorted(latencies)
    write_figures("web-latency", {
        "updates": len(ordered), "rounds": len(state.rounds),
        "showdowns": len(state.showdowns),
        "p50_ms": statistics.median(ordered),
        "p99_ms": ordered[min(len(ordered) - 1, round(0.99 * len(ordered)) - 1)],
        "max_ms": ordered[-1],
        "in_order_ms": [round(value) for value in latencies],
    })


def _wait_for_journals_totals(page: object, db: Path, timeout_s: float = 60.0) -> None:
    """The page and the journal agree (the bots play on meanwhile: ask again until then)."""
    deadline = time.monotonic() + timeout_s
    while True:
        journal = Journal.open(db)
        try:
            state = Session(journal).state
        finally:
            journal.close()
        shown = page_totals(page)
        if state is not None and shown == state.totals:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"page {shown} != journal {state and state.totals}")
        page.wait_for_timeout(250)  # type: ignore[attr-defined] - the browser's own clock


def test_a_reader_switches_language_corrects_with_the_pin_and_follows_a_restart(
        tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    port = free_port()
    service = Service(db, port, "--speed", "3", "--players", "3", "--seed", "5")
    with chromium() as browser:
        page = browser.new_page()
        service.start()
        try:
            page.goto(service.url)
            page.click('a[hreflang="ja"]')
            page.wait_for_selector('html[lang="ja"]')
            expect(page.locator(".facts .round")).to_contain_text("ラウンド")
            expect(page.locator("#live")).to_have_text("ライブ")
            page.wait_for_selector("button.undo", timeout=120_000)  # a first entry is in
            journal = Journal.open(db)
            pin = evening_pin(journal).code
            journal.close()
            wrong = f"{(int(pin) + 1) % 10_000:04d}"
            page.click("button.undo")
            expect(page.locator("#pin")).to_be_visible()  # no session yet: the PIN is asked for
            expect(page.locator("#fix-save")).to_be_hidden()  # an undo: no round to save
            page.fill("#pin", wrong)
            page.click("#fix-undo")
            expect(page.locator("#fix-answer")).to_contain_text("PIN が違います")
            undos = _undo_entries(db)
            page.fill("#pin", pin)
            with page.expect_request("**/api/undo") as sent:
                page.click("#fix-undo")
            expect(page.locator("#fix-answer")).to_have_text("最後の記録を取り消しました")
            assert _undo_entries(db) == undos + 1
            # The session is a cookie the page's script cannot read, sent to this site only.
            cookie = next(c for c in browser.cookies() if c["name"] == SESSION_COOKIE)
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            assert SESSION_COOKIE not in page.evaluate("document.cookie")
            # The same correction sent again (as a replay would) is refused, and undoes nothing.
            replayed = page.evaluate(REPLAY, sent.value.post_data)
            assert replayed == [403, "この訂正は送信済みです。何も変わりません"], replayed
            assert _undo_entries(db) == undos + 1
            # A second correction within the session asks for no PIN.
            expect(page.locator("#fix")).not_to_be_visible(timeout=10_000)
            page.wait_for_selector("button.undo", timeout=120_000)
            page.click("button.undo")
            expect(page.locator("#pin")).to_be_hidden()
            page.click("#fix-undo")
            expect(page.locator("#fix-answer")).to_have_text("最後の記録を取り消しました")
            assert _undo_entries(db) == undos + 2
        finally:
            assert service.stop() == 0
        expect(page.locator("#live")).to_have_class("live stale", timeout=30_000)
        assert "再接続中" in page.inner_text("#live")
        again = Service(db, port, "--speed", "3", "--players", "3", "--seed", "5")
        again.start()
        try:
            expect(page.locator("#live")).to_have_class("live", timeout=30_000)
            _wait_for_journals_totals(page, db)
        finally:
            assert again.stop() == 0, "".join(again.output)


REPLAY = """async (body) => {
  const reply = await fetch("/api/undo", {method: "POST", body: body,
    headers: {"Content-Type": "application/json", "Accept-Language": "ja"}});
  return [reply.status, (await reply.json()).message];
}"""
"""The page's own request sent again, from the page (its cookie goes with it)."""


def _undo_entries(db: Path) -> int:
    journal = Journal.open(db)
    try:
        game = journal.latest_game()
        return 0 if game is None else sum(e.kind == "undo" for e in journal.entries(game))
    finally:
        journal.close()


def test_the_event_demos_page_shows_every_player_of_both_tables_with_their_totals(
        tmp_path: Path) -> None:
    """The issue's Done-when: ``showdown event demo --tables 2 --format free --http ...``."""
    port = free_port()
    command = [sys.executable, "-m", "showdown", "event", "demo", "--tables", "2", "--format",
               "free", "--http", f"127.0.0.1:{port}", "--dir", str(tmp_path), "--json"]
    demo = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert demo.stderr is not None
    log: list[str] = []
    try:
        with chromium() as browser:
            page = browser.new_page()
            for line in demo.stderr:  # the host's page is up before the tables join
                log.append(line)
                if "all 2 tables joined" in line:
                    break
            url = (tmp_path / "host" / "page-url").read_text().strip()
            assert url == f"http://127.0.0.1:{port}/", "".join(log)
            page.goto(url)
            expect(page.locator("h1")).to_have_text("Game night")
            for line in demo.stderr:
                log.append(line)
                if "the evening is over; its page stays at" in line:
                    break
            else:
                raise AssertionError("the demo ended early:\n" + "".join(log))
            expect(page.locator("#live")).to_have_text("Live")  # still served: followed live
            with page.expect_download() as saved:  # final standings a phone can keep
                page.click("button.save-png")
            picture = tmp_path / "standings.png"
            saved.value.save_as(str(picture))
            printable = browser.new_page()
            printable.goto(url + "standings")
            expect(printable.locator("table.final tbody tr")).to_have_count(8)
            demo.send_signal(signal.SIGINT)
            out, _err = demo.communicate(timeout=120)
            shown = page_totals(page)  # what the page last showed, sent before the host stopped
            tables = dict(page.eval_on_selector_all(
                "#standings [data-name]", "rows => rows.map(r => [r.dataset.name, "
                "r.dataset.table])"))
            page.screenshot(path=str(tmp_path / "event.png"), full_page=True)
    finally:
        if demo.poll() is None:
            demo.kill()
            demo.wait()
    result = json.loads(out.strip().splitlines()[-1])
    assert demo.returncode == 0, "".join(log)
    assert result["lost"] == 0 and result["standings_match"], result
    expected = {line["name"]: line["points"] for line in result["standings"]}
    assert len(expected) == 8 and shown == expected
    assert tables == {line["name"]: line["table"] for line in result["standings"]}
    assert set(tables.values()) == {"t1", "t2"}
    assert sum(expected.values()) > 0
    png = picture.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (1080, 2 * (96 + 8 * 56 + 40))  # a line for each of the 8


def test_a_table_that_joins_an_event_later_shows_it_on_an_open_page(tmp_path: Path) -> None:
    """Set-up joins an event while a phone has the table's page open: the event's part appears
    on that page, without a reload and without restarting the service."""
    from showdown.app.phone_page import serve_table
    from tests.showdown.web.conftest import play
    from tests.showdown.web.sample_tournament import Host, evening

    with Journal.open(tmp_path / "table.db", writable=True) as journal:
        session = Session(journal)
        play(session, ["Ana", "Budi", "Chen"])
        table: TableModel[TournamentSource] = TableModel(session)
        served = serve_table(table, "127.0.0.1:0")
        assert served is not None
        try:
            with chromium() as browser:
                page = browser.new_page()
                page.goto(served.url)
                expect(page.locator("#live")).to_have_text("Live", timeout=30_000)
                expect(page.locator("#part-event")).to_be_hidden()
                expect(page.locator("#event-head")).to_be_hidden()
                expect(page.locator("#event-link")).to_be_hidden()  # no event to lead to yet
                table.join(Host(evening((120, 0, 35, 0), (0, 210, 0, 64))))
                expect(page.locator("#part-event")).to_be_visible(timeout=30_000)
                expect(page.locator("#event-head")).to_be_visible()
                expect(page.locator("#event-link")).to_be_visible()
                expect(page.locator('#part-event [data-total="210"]')).to_have_count(1)
        finally:
            served.stop()
