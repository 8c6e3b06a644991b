"""The service's stats line: the serial link and the Pi's health, once a minute and on SIGUSR1.

A unit that misbehaves now and then is diagnosed afterwards from the journal of systemd alone,
so the service logs one line a minute (and one at start, and one whenever SIGUSR1 asks:
``systemctl kill -s USR1 showdown``)::

    stats: link /dev/showdown-unit up, rtt 2.1 ms (rto 30 ms), retransmits 0, damaged 0, ...;
    pi 48.3 C, throttling now: none; since boot: under-voltage, load 0.42 0.30 0.25, ...

Counters are totals since the service started, with the change since the previous line in
brackets when there was one (``retransmits 14 (+3)``). A source that is absent (no ``vcgencmd``,
no serial link) is named briefly in the line; gathering the figures never stops the service.

The line is written from the main loop (:meth:`StatsLogger.tick`): SIGUSR1's handler only sets a
flag (:meth:`StatsLogger.request`), since a signal handler must take no lock and write no log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from firmware_bridge.link import LinkFigures
from showdown.app.health import PiHealth, read_health

__all__ = ["LINE_PREFIX", "PERIOD_S", "LinkSource", "StatsLogger", "link_text"]

log = logging.getLogger("showdown.stats")

PERIOD_S = 60.0
"""Seconds between two stats lines."""

LINE_PREFIX = "stats: "
"""How every stats line begins (``journalctl -u showdown -g '^stats:'`` finds them)."""

LinkSource = Callable[[], tuple[LinkFigures, int] | str]
"""The link's figures and the microcontroller's fault reports so far, or why there is no link
(``"none (gpio back end)"``)."""

_COUNTERS = (
    ("retransmits", "retransmit_rounds"),
    ("damaged", "damaged_frames"),
    ("dropped", "dropped_commands"),
    ("duplicates", "duplicates_dropped"),
    ("reconnects", "reconnects"),
)


def link_text(figures: LinkFigures, faults: int,
              before: tuple[LinkFigures, int] | None = None) -> str:
    """The link's part of the line; *before*: the previous line's figures, for the changes."""

    def counted(name: str, now: int, then: int | None) -> str:
        change = "" if then is None or now == then else f" ({now - then:+d})"
        return f"{name} {now}{change}"

    state = "up" if figures.connected else "DOWN"
    rtt = ("rtt n/a (not measured yet)" if figures.srtt_ms is None
           else f"rtt {figures.srtt_ms:.1f} ms (rto {figures.rto_ms:.0f} ms)")
    parts = [f"link {figures.path or '(no port)'} {state}", rtt]
    for label, name in _COUNTERS:
        then = None if before is None else int(getattr(before[0], name))
        parts.append(counted(label, int(getattr(figures, name)), then))
        if name == "damaged_frames" and figures.protocol_errors:  # said only once there is one
            parts.append(counted("protocol errors", figures.protocol_errors,
                                 None if before is None else before[0].protocol_errors))
    # The first session is the first handshake: each later one is a restart of the MCU.
    restarts = max(figures.fresh_sessions - 1, 0)
    parts.append(counted("mcu restarts", restarts,
                         None if before is None else max(before[0].fresh_sessions - 1, 0)))
    parts.append(counted("faults", faults, None if before is None else before[1]))
    return ", ".join(parts)


class StatsLogger:
    """Writes the stats line from the main loop: at start, every :data:`PERIOD_S` after, and when
    asked (see the module docstring). *clock* is in seconds (tests pass one they move)."""

    def __init__(
        self,
        *,
        link: LinkSource | None = None,
        health: Callable[[], PiHealth] = read_health,
        clock: Callable[[], float] = time.monotonic,
        period_s: float = PERIOD_S,
        logger: logging.Logger = log,
    ) -> None:
        self.link = link
        """Where the link's figures come from; ``None`` until the unit is open."""
        self._health = health
        self._clock = clock
        self._period_s = period_s
        self._log = logger
        self._next: float | None = None
        self._asked = False
        self._before: tuple[LinkFigures, int] | None = None
        self.lines = 0
        """How many lines were written."""

    def request(self) -> None:
        """Ask for a line at the next tick: safe inside a signal handler (it only sets a flag)."""
        self._asked = True

    def tick(self) -> None:
        """From the main loop: write the line if one is due or was asked for."""
        now = self._clock()
        if not self._asked and self._next is not None and now < self._next:
            return
        self._asked = False
        self._next = now + self._period_s
        try:
            text = self.line()
        except Exception as error:  # a figure we cannot read must never stop the service
            text = f"{LINE_PREFIX}could not be gathered ({type(error).__name__}: {error})"
        self._log.info("%s", text)
        self.lines += 1

    def line(self) -> str:
        """The whole line now (and remember the link's figures for the next one's changes)."""
        source = self.link
        if source is None:
            link = "link none (the unit is not open yet)"
        else:
            got = source()
            if isinstance(got, str):
                link = f"link {got}"
            else:
                link = link_text(*got, before=self._before)
                self._before = got
        return f"{LINE_PREFIX}{link}; pi {self._health().line()}"
