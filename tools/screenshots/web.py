"""Take the phone page's screenshots (docs/web/) with headless Chromium (Debian's), so the
page's documentation shows what a phone shows.

    python -m tools.screenshots.web [docs/web]     (make web-screenshots)

The sample game of the scoreboard's screenshots (four players, four rounds, showdowns and a
false start), and a sample evening at two tables for the event's page, served in this process;
each picture a phone's screen (360x640) or a tablet's. The browser is the browser tests' rig
(:mod:`tests.showdown.web.browser`), and the evening theirs too. It draws with the machine's
fonts, so these are looked at, never compared by pixel.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.scoreboard.sample import COUNTDOWN, FALSE_START, GO, RESULT, sample_game
from showdown.web.app import table_app, tournament_app
from showdown.web.hub import Hub
from showdown.web.pin import PinGuard
from showdown.web.server import WebServer
from showdown.web.table import PARTS, TableSource
from showdown.web.tournament import TOURNAMENT_PARTS, TournamentWatch
from tests.showdown.web.browser import chromium
from tests.showdown.web.sample_tournament import Host, evening
from tools.offscreen import DOCS, parser

EVENING = ("Ana", "Budi", "Chen", "Dewi", "Eko", "Fay", "Gita", "Hiro")

STAGES = {"countdown": COUNTDOWN, "go": GO, "false-start": FALSE_START, "result": RESULT}


def take(out: Path) -> None:
    """The table's page at each showdown stage and in three languages, then the event's."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.open(Path(scratch) / "sample.db", writable=True)
        session = Session(journal)
        sample_game(session)
        hub = Hub(PARTS)
        model: TableModel[Any] = TableModel(session)
        model.subscribe(hub.changed)
        source = TableSource(model)
        server = WebServer(table_app(source, hub, PinGuard(lambda: "4821")), "127.0.0.1", 0,
                           before_stop=hub.close)
        server.start()
        url = f"http://127.0.0.1:{server.port}/"
        try:
            with chromium() as browser:
                page = browser.new_page()
                for name, view in STAGES.items():
                    model.show(view)
                    page.goto(url + "?lang=en")
                    page.screenshot(path=str(out / f"showdown-{name}-en.png"))
                model.show(RESULT)
                for code in ("en", "ja", "zh_HK"):
                    page.goto(url + f"?lang={code}")
                    page.screenshot(path=str(out / f"table-{code}.png"))
                page.goto(url + "?lang=en")
                page.evaluate("document.querySelector('.chart').previousElementSibling"
                              ".scrollIntoView()")
                page.screenshot(path=str(out / "chart-history-en.png"))
                page.click("button.edit[data-round='2']")
                page.fill("#pin", "1111")
                page.click("#fix-save")
                page.wait_for_selector("#fix-answer.refused")
                page.screenshot(path=str(out / "correction-en.png"))
                with page.expect_download() as saved:
                    page.goto(url + "?lang=en")
                    page.click("button.save-png")
                saved.value.save_as(str(out / "standings-picture-en.png"))
                page.goto(url + "standings?lang=en")
                page.screenshot(path=str(out / "standings-print-en.png"), full_page=True)
                page.set_viewport_size({"width": 1024, "height": 768})
                page.goto(url + "?lang=en")
                page.screenshot(path=str(out / "tablet-en.png"))
        finally:
            server.stop()
            model.close()
            journal.close()
    tournament_pages(out)
    for path in sorted(out.glob("*.png")):
        print(path)


def tournament_pages(out: Path) -> None:
    """The event's page (``showdown event host``) on a phone, in English and Japanese."""
    host = Host(evening((212, 40, 95, 0), (0, 310, 64, 128), EVENING, "Friday game night"))
    hub = Hub(TOURNAMENT_PARTS)
    server = WebServer(tournament_app(TournamentWatch(host, hub.changed), hub), "127.0.0.1", 0,
                       before_stop=hub.close)
    server.start()
    url = f"http://127.0.0.1:{server.port}/"
    try:
        with chromium() as browser:
            page = browser.new_page()
            for code in ("en", "ja"):
                page.goto(url + f"?lang={code}")
                page.screenshot(path=str(out / f"event-{code}.png"), full_page=True)
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    """Command-line entry: the output folder (default ``docs/web``)."""
    command = parser(__doc__)
    command.add_argument("out", nargs="?", default=DOCS / "web", type=Path)
    take(command.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
