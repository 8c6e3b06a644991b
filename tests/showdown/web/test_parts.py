"""The page's parts without a server: languages, addresses, the PIN, colours, the hub."""

from __future__ import annotations

import asyncio
import re
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import segno
from hypothesis import given
from hypothesis import strategies as st

from showdown.game.journal import Journal
from showdown.game.live import ShowdownView, Stage
from showdown.game.table_pin import PIN_SETTING, evening_pin
from showdown.scoreboard import theme
from showdown.scoreboard.screens.phones import QUIET, qr_modules
from showdown.unit.hardware import Side
from showdown.web.address import page_url
from showdown.web.hub import Hub
from showdown.web.render import STATIC_DIR, render
from showdown.web.server import WebError, parse_address
from showdown.web.words import LANGUAGES, Words, language_of_tag, negotiate
from tests.showdown.web.conftest import shown_text

TOKYO = timezone(timedelta(hours=9))


@given(st.text(max_size=200))
def test_any_accept_language_header_gives_one_of_our_languages(header: str) -> None:
    assert negotiate(header) in LANGUAGES


@pytest.mark.parametrize(("header", "code"), [
    ("ja;q=0.2, id;q=0.8", "id"),
    ("zh-Hant", "zh_HK"), ("zh-HK", "zh_HK"), ("zh", "zh_CN"), ("zh-Hans-SG", "zh_CN"),
    ("in-ID", "id"), ("ja;q=0, en", "en"), ("de, fr", "en"), ("", "en"), ("ja;q=nan", "en"),
    ("*", "en"), ("ja;q=2", "en"),
])
def test_accept_language_is_read_as_browsers_send_it(header: str, code: str) -> None:
    assert negotiate(header) == code


def test_a_tag_that_is_not_a_tag_asks_for_nothing() -> None:
    assert language_of_tag("ja<script>") is None
    assert language_of_tag("   ") is None


@given(st.text(max_size=60))
def test_any_address_text_is_an_address_or_one_clear_refusal(text: str) -> None:
    try:
        host, port = parse_address(text)
    except WebError as error:
        assert "\n" not in str(error) and ("address" in str(error) or "port" in str(error))
    else:
        assert 0 <= port <= 65535 and host and not any(c.isspace() for c in host)


def test_the_page_address_prefers_the_mdns_name() -> None:
    assert page_url("0.0.0.0", 8080, mdns=lambda: True, hostname=lambda: "uno-table",
                    addresses=lambda: ["192.168.1.7"]) == "http://uno-table.local:8080/"
    assert page_url("0.0.0.0", 8080, mdns=lambda: False, hostname=lambda: "uno-table",
                    addresses=lambda: ["192.168.1.7"]) == "http://192.168.1.7:8080/"
    assert page_url("127.0.0.1", 80) == "http://127.0.0.1/"
    assert page_url("::1", 8080) == "http://[::1]:8080/"


def test_the_evening_pin_survives_a_restart_and_changes_the_next_morning(tmp_path: Path
                                                                         ) -> None:
    journal = Journal.open(tmp_path / "t.db", writable=True)
    evening = datetime(2026, 11, 21, 20, 15, tzinfo=TOKYO)
    draws = iter([4821, 7])
    first = evening_pin(journal, evening, draw=lambda _n: next(draws))
    journal.close()
    journal = Journal.open(tmp_path / "t.db", writable=True)
    later = evening_pin(journal, evening + timedelta(hours=9), draw=lambda _n: 99)
    assert first.code == later.code == "4821"
    assert first.until == datetime(2026, 11, 22, 6, 0, tzinfo=TOKYO)
    morning = evening_pin(journal, datetime(2026, 11, 22, 6, 0, 1, tzinfo=TOKYO),
                          draw=lambda _n: next(draws))
    assert morning.code == "0007"
    assert "4821" not in repr(first) and "0007" not in repr(morning)
    journal.set_setting(PIN_SETTING, "{damaged")
    assert evening_pin(journal, evening, draw=lambda _n: 1234).code == "1234"
    journal.close()


def test_the_page_uses_the_scoreboards_colours() -> None:
    css = (STATIC_DIR / "page.css").read_text(encoding="utf-8")
    found = {name: tuple(int(v) for v in rgb.split()) for name, rgb in
             re.findall(r"--([a-z-]+): rgb\((\d+ \d+ \d+)\);", css)}
    for name in ("background", "panel", "panel-light", "text", "text-dim", "accent", "button",
                 "danger", "news", "waiting-red", "go-green"):
        assert found[name] == getattr(theme, name.upper().replace("-", "_")), name


def test_the_qr_code_is_segnos_with_its_quiet_zone() -> None:
    url = "http://uno-table.local:8080/"
    modules = qr_modules(url)
    side = segno.make(url, error="m", micro=False).symbol_size(border=0)[0]
    assert len(modules) == len(modules[0]) == side + 2 * QUIET
    assert not any(modules[0]) and not any(row[0] for row in modules)
    # the three finder patterns: a dark 7x7 ring in three corners
    for top, left in ((QUIET, QUIET), (QUIET, side + QUIET - 7), (side + QUIET - 7, QUIET)):
        assert all(modules[top][left + i] for i in range(7))


def test_a_change_on_any_thread_wakes_the_waiting_stream() -> None:
    hub = Hub(("table", "showdown"), clock=lambda: 5.0)

    async def scenario() -> tuple[int, int]:
        hub.attach(asyncio.get_running_loop())
        seen = hub.versions
        threading.Thread(target=hub.changed, args=("table",)).start()
        now = await hub.wait(seen, timeout_s=30)
        idle = await hub.wait(now, timeout_s=0.01)
        return now.version("table"), idle.version("table")

    assert asyncio.run(scenario()) == (2, 2)
    assert hub.versions.stamp("table") == 5.0


@pytest.mark.parametrize(("view", "shown"), [
    (ShowdownView(Stage.COUNTDOWN, "Ana", "Chen", 2, beat=2, beats=3),
     ["Waiting", "Beat 2 of 3", "<polygon", "2 cards"]),
    (ShowdownView(Stage.GO, "Ana", "Chen", 2), ["GO!", "<circle", "Slam your paddle!"]),
    (ShowdownView(Stage.FALSE_START, "Ana", "Chen", 2, false_start_side=Side.RIGHT),
     ["False start: Chen", "right →", "arrow right"]),
    (ShowdownView(Stage.RESULT, "Ana", "Chen", 2, winner="Ana", loser="Chen", reason="race",
                  left_ms=231.0, right_ms=289.4, counts=(0, 2)),
     ["Ana wins!", "Cards fly at Chen", "231 ms", "289 ms", "Counted: 0 left, 2 right"]),
    (ShowdownView(Stage.RESULT, "Ana", "Chen", 2, winner="Chen", loser="Ana",
                  reason="false-start", false_start_side=Side.LEFT),
     ["False start: Ana", "← left", "Ana started too soon, takes 2 cards"]),
    (ShowdownView(Stage.NO_CONTEST, "Ana", "Chen", 2, reason="void"),
     ["No contest: replay", "Replay the showdown"]),
])
def test_the_showdown_in_progress_is_shown_in_words_and_shapes(
        view: ShowdownView, shown: list[str]) -> None:
    html = render("_showdown.html", Words.of("en"), live=view)
    for words in shown:  # the words as read, the shapes as drawn
        assert words in shown_text(html) or words in html


def test_the_showdown_speaks_the_readers_language() -> None:
    view = ShowdownView(Stage.FALSE_START, "Ana", "Chen", 2, false_start_side=Side.LEFT)
    html = shown_text(render("_showdown.html", Words.of("zh_CN"), live=view))
    assert "抢跑：Ana" in html and "← 左侧" in html
