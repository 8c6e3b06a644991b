"""Stopping: every stop signal stops the service cleanly, at any moment, whatever the scoreboard is
doing, within one short wait; a signal while the service is still starting too. (SIGUSR1 asks a
running service for a stats line instead: tests/showdown/app/test_stats_line.py.)"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pygame
import pytest

from showdown.app.parts.front_ends import ScoreboardFront
from showdown.app.service import Service
from showdown.app.signals import STOP_SIGNALS, StopSignals
from showdown.game.journal import Journal
from showdown.game.session import Session
from showdown.game.table_model import TableModel
from showdown.playtest.panel import KeyboardUnit
from showdown.unit.config import UnitSettings

KEYS = (pygame.K_a, pygame.K_l, pygame.K_SPACE)


def test_a_stop_signal_ends_the_loop_at_once_whatever_the_scoreboard_is_doing(
    tmp_path: Path,
) -> None:
    """200 start/stop cycles of the main loop with the scoreboard and the keyboard unit open. The
    loop's waits are an hour long, so only the signal handler's wake-up can end them: a cycle
    that is not woken is reported as hung (by a watchdog thread) instead of passing slowly."""
    rng = random.Random(15)
    with Journal.open(tmp_path / "stop.db") as journal:
        session = Session(journal)
        hung: list[int] = []
        for cycle in range(200):
            keyboard = KeyboardUnit(UnitSettings())
            frontend = ScoreboardFront(TableModel(session), keyboard.machine, keyboard=keyboard)
            ticked = threading.Event()
            closed: list[str] = []

            def tick(frontend: ScoreboardFront = frontend,
                     ticked: threading.Event = ticked) -> None:
                for _ in range(rng.randrange(4)):  # keys for the scoreboard to handle meanwhile
                    code = rng.choice(KEYS)
                    for kind in (pygame.KEYDOWN, pygame.KEYUP):
                        pygame.event.post(pygame.event.Event(kind, key=code, mod=0, unicode="",
                                                             scancode=0))
                ticked.set()

            def close_unit(keyboard: KeyboardUnit = keyboard, closed: list[str] = closed) -> None:
                keyboard.close()
                closed.append("unit")

            service = Service(session, frontend=frontend, tick=tick,
                              on_stop=[close_unit, frontend.close])
            service.IDLE_WAIT_S = 3600.0
            signals = StopSignals()
            signals.install()
            signals.route(service.signal_stop)
            signum = rng.choice(STOP_SIGNALS)
            returned = threading.Event()
            delay = rng.choice((0.0, rng.uniform(0, 0.02)))

            sender = threading.Thread(target=_send, daemon=True, kwargs={
                "signum": signum, "delay": delay, "ticked": ticked, "returned": returned,
                "service": service, "on_hang": lambda cycle=cycle: hung.append(cycle),
            })
            sender.start()
            try:
                code = service.run()
            finally:
                returned.set()
                signals.restore()
                sender.join()
            assert code == 0
            assert service.signalled == signum
            assert closed == ["unit"], "the unit was not closed on the way out"
            assert not hung, f"cycle {hung[0]}: the loop was not woken by the signal"


def _send(
    *, signum: int, delay: float, ticked: threading.Event, returned: threading.Event,
    service: Service, on_hang: object,
) -> None:
    """Signal the main thread at a moment of its loop; if the loop does not end, say so and end
    it by force (so a failure is reported rather than hanging the run)."""
    main_thread = threading.main_thread().ident
    assert main_thread is not None
    ticked.wait()
    if delay:
        returned.wait(delay)  # a random moment of the pump (not waiting for a result)
    signal.pthread_kill(main_thread, signum)
    if not returned.wait(20.0):
        on_hang()  # type: ignore[operator]
        service.stop.set()
        if service.frontend is not None:
            service.frontend.notify()


def _caught(pid: int) -> int:
    """The signal mask the process catches (``SigCgt`` in /proc), 0 once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_starting_or_running_stops_cleanly(
    tmp_path: Path, signum: signal.Signals
) -> None:
    """The service run for real, stopped by a signal at a random moment of its first 0.3 s (from
    the moment its handler is in place): no traceback, and either it had built its parts and
    says the outputs are safe (exit 0), or it had not started anything yet and says it was
    stopped (exit 128 + the signal); the journal opens again."""
    rng = random.Random(int(signum))
    mask = 1 << (signal.SIGHUP - 1)
    db = tmp_path / "early.db"
    for _ in range(3):
        child = subprocess.Popen(
            [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--fast",
             "--speed", "100", "--db", str(db)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        while child.poll() is None and not _caught(child.pid) & mask:
            threading.Event().wait(0.002)  # the handlers are the first thing main() installs
        threading.Event().wait(rng.uniform(0, 0.3))  # a random moment of the start
        child.send_signal(signum)
        out, err = child.communicate(timeout=60)
        assert "Traceback" not in err + out, err
        if child.returncode == 0:
            assert "every output is safe" in err
        else:
            assert child.returncode == 128 + signum
            assert err.strip() == f"showdown: stopped by {signum.name}"
        if not db.exists():
            continue
        with Journal.open(db) as journal:
            assert journal.integrity_check() == "ok"
