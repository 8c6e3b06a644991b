"""The service as someone running it sees it: it says which unit it drives, plays and scores on the
simulator, stops cleanly on a signal with the outputs safe, and resumes the open game."""

from __future__ import annotations

import io
import logging
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.scoring import ScoringSettings
from showdown.app.cli import main
from showdown.app.service import Service
from showdown.app.status import StatusPrinter
from showdown.app.subcommands.run import choose_backend
from showdown.game.journal import Journal
from showdown.game.messages import HandEntry, RecordRound, SetUpGame
from showdown.game.recorder import UnitRecorder, entry_from_unit
from showdown.game.session import Session
from showdown.playtest.bot_table import BotTable, ShowdownCall
from showdown.playtest.referee import SimulatedReferee
from showdown.unit.events import ShowdownOutcome
from showdown.unit.hardware import Side
from showdown.unit.verdict import Reason


def _result(**changes: object) -> ShowdownOutcome:
    values: dict[str, object] = {
        "showdown_id": 4, "left_player": "Ann", "right_player": "Bob", "cards_loaded": 2,
        "winner": Side.LEFT, "loser": Side.RIGHT, "reason": Reason.RACE, "go_ns": 1_000_000_000,
        "press_ns": {Side.LEFT: 1_210_000_000, Side.RIGHT: 1_300_500_000},
        "counts": {Side.LEFT: 0, Side.RIGHT: 2},
    }
    values.update(changes)
    return ShowdownOutcome(**values)  # type: ignore[arg-type]


def test_a_unit_result_becomes_the_sessions_entry() -> None:
    entry = entry_from_unit(_result(), "s-4")
    assert entry is not None
    assert (entry.winner, entry.loser, entry.cards_loaded) == ("Ann", "Bob", 2)
    assert entry.reaction_ms == {"Ann": 210.0, "Bob": 300.5}
    assert entry.side_counts == (0, 2) and entry.source == "unit" and entry.reason == "race"
    # A false start's negative "reaction" is not a reaction time.
    early = entry_from_unit(
        _result(reason=Reason.FALSE_START, winner=Side.RIGHT, loser=Side.LEFT,
                press_ns={Side.LEFT: 900_000_000}), "s-5")
    assert early is not None and early.loser == "Ann" and early.reaction_ms == {}
    assert early.reason == "false-start"


@pytest.mark.parametrize("reason", [Reason.TIE, Reason.TIMEOUT, Reason.FAULT, Reason.VOID])
def test_replays_are_not_entries(reason: Reason) -> None:
    assert entry_from_unit(_result(reason=reason, winner=None, loser=None), "x") is None


def test_a_void_showdown_is_never_recorded(tmp_path: Path) -> None:
    # Left pressed at 210 ms, the unit reset, right's press at 1306 ms got through: void.
    session = Session(Journal.open(tmp_path / "s.db"))
    session.handle(SetUpGame(players=["Ann", "Bob"]))
    recorder = UnitRecorder(session, "20260101T000000")
    recorder(_result(reason=Reason.VOID, winner=None, loser=None,
                     press_ns={Side.RIGHT: 2_306_000_000}))
    assert session.state is not None and session.state.showdowns == ()
    assert recorder.unrecorded == []


def test_a_result_without_players_is_not_scored() -> None:
    assert entry_from_unit(_result(left_player=None, right_player=None), "x") is None


def test_recorder_records_each_unit_result_once(tmp_path: Path) -> None:
    session = Session(Journal.open(tmp_path / "s.db"))
    session.handle(SetUpGame(players=["Ann", "Bob", "Cy"]))
    recorder = UnitRecorder(session, "20260101T000000")
    recorder(_result())
    recorder(_result())  # the same showdown reported twice (a reconnect): one entry
    recorder(_result(showdown_id=5, left_player=None, right_player=None))
    assert session.state is not None
    assert [(s.winner, s.showdown_id) for s in session.state.showdowns] == [
        ("Ann", "20260101T000000#4")
    ]
    assert len(recorder.unrecorded) == 1


def test_backend_choice_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    model = tmp_path / "model"
    assert choose_backend(True, model) == (True, "--sim was given")
    use_sim, why = choose_backend(False, model)
    assert use_sim and "no Raspberry Pi found" in why
    model.write_text("Raspberry Pi 4 Model B Rev 1.4\x00")
    assert choose_backend(False, model) == (False, "running on a Raspberry Pi 4 Model B Rev 1.4")
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    assert choose_backend(False, model)[0]


def test_a_unit_behind_a_microcontroller_needs_no_pi(tmp_path: Path) -> None:
    # A Pico on USB can be driven from any Linux machine: no Raspberry Pi model file needed.
    assert choose_backend(False, tmp_path / "absent", backend="serial") == (
        False, "unit.backend is 'serial'")
    assert choose_backend(True, tmp_path / "absent", backend="serial")[0]


def test_the_freeze_hook_stops_the_watchdog_pings(tmp_path: Path) -> None:
    # What systemd's watchdog needs: once frozen, the main loop sends no more pings.
    session = Session(Journal.open(tmp_path / "s.db"))
    ticks: list[int] = []
    reached = threading.Event()
    service = Service(session, tick=lambda: ticks.append(1))
    service.IDLE_WAIT_S = 0.0

    class Seen(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if "frozen" in record.getMessage():
                reached.set()

    handler = Seen()
    logging.getLogger("showdown.app.service").addHandler(handler)
    try:
        service.frozen.set()
        thread = threading.Thread(target=service.run, daemon=True)
        thread.start()
        assert reached.wait(10)
        assert ticks == []  # frozen before its first ping
        service.stop.set()
        service.thaw.set()
        thread.join(10)
        assert not thread.is_alive()
    finally:
        logging.getLogger("showdown.app.service").removeHandler(handler)


def test_status_lines_tell_the_story(tmp_path: Path) -> None:
    out = io.StringIO()
    status = StatusPrinter(out, live=False)
    session = Session(Journal.open(tmp_path / "s.db"))
    session.subscribe(status.session_event)
    unit = SimulatedReferee(seed=2)
    try:
        BotTable(session, unit, seed=2, players=3).play_game()
    finally:
        unit.close()
    text = out.getvalue()
    assert text.startswith("game 1: Ada, Ben, Cleo;")
    assert "  showdown: " in text and "round 1: " in text and "  totals: " in text
    assert "game over: " in text.splitlines()[-1]


def test_the_status_line_says_a_tie(tmp_path: Path) -> None:
    out = io.StringIO()
    session = Session(Journal.open(tmp_path / "s.db"))
    session.subscribe(StatusPrinter(out, live=False).session_event)
    session.handle(SetUpGame(players=["Ben", "Dev", "Eve"],
                             scoring=ScoringSettings(target=500, rounds=2)))
    session.handle(RecordRound(went_out="Ben", hands={"Dev": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))
    session.handle(RecordRound(went_out="Dev", hands={"Ben": HandEntry(points=0),
                                                       "Eve": HandEntry(points=30)}))
    assert out.getvalue().splitlines()[-1] == "game over: Ben and Dev tie (Ben 30, Dev 30, Eve 0)"


@pytest.mark.parametrize(("scoring", "said"), [
    (ScoringSettings(target=500), "; showdown rules, standard to 500; Ada deals"),
    # an event's partners game: hands, no target (it said "standard to None")
    (ScoringSettings(target=None, rounds=4), "; showdown rules, standard for 4 rounds; Ada deals"),
    (ScoringSettings(mode="plus-minus", target=300, rounds=5),
     "; showdown rules, plus-minus to 300 or for 5 rounds; Ada deals"),
    (ScoringSettings(mode="hero", pigs=3), "; showdown rules, hero, a pig at 500, until 3 pigs;"),
])
def test_the_games_line_says_how_it_ends(tmp_path: Path, scoring: ScoringSettings,
                                         said: str) -> None:
    out = io.StringIO()
    session = Session(Journal.open(tmp_path / "s.db"))
    session.subscribe(StatusPrinter(out, live=False).session_event)
    session.handle(SetUpGame(players=["Ada", "Ben"], preset="showdown", scoring=scoring))
    line = out.getvalue().splitlines()[0]
    assert line.startswith("game 1: Ada, Ben; ") and said in line and "None" not in line, line


def test_sim_unit_settles_showdowns_through_the_state_machine() -> None:
    unit = SimulatedReferee(seed=5)
    try:
        for n in range(30):
            entry = unit(ShowdownCall(f"t{n}", "Ann", "Bob", 1 + n % 3))
            assert {entry.winner, entry.loser} == {"Ann", "Bob"}
            assert entry.source == "unit" and entry.left == "Ann" and entry.right == "Bob"
            times = entry.reaction_ms
            if entry.reason == "race" and entry.loser in times:  # a player may miss go entirely
                assert times[entry.winner] <= times[entry.loser]
        assert unit.tally.decided == 30
        # Every output is off between and after showdowns.
        pins = unit.settings.pins
        assert not unit.factory.sim_pin(pins.launcher_enable.pin).state
    finally:
        unit.close()
    assert not unit.factory.sim_pin(unit.settings.pins.light_green.pin).state


def test_tick_runs_every_iteration_and_shutdown_runs_in_order(tmp_path: Path) -> None:
    session = Session(Journal.open(tmp_path / "s.db"))
    ticks: list[int] = []
    steps: list[str] = []
    stop = threading.Event()

    def tick() -> None:
        ticks.append(1)
        if len(ticks) == 3:
            stop.set()

    service = Service(session, tick=tick, stop=stop,
                      on_stop=[lambda: steps.append("unit safe"), lambda: steps.append("journal")])
    service.IDLE_WAIT_S = 0.0
    assert service.run() == 0
    assert len(ticks) == 3
    assert steps == ["unit safe", "journal"]


def test_a_failing_table_stops_the_service_with_status_1(tmp_path: Path) -> None:
    session = Session(Journal.open(tmp_path / "s.db"))
    steps: list[str] = []

    def worker(_stop: threading.Event) -> None:
        raise RuntimeError("bot fell off its chair")

    service = Service(session, worker=worker, on_stop=[lambda: steps.append("safe")])
    assert service.run() == 1
    assert steps == ["safe"]


def test_run_plays_a_whole_game_on_the_simulator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # storage.log_entries: a line per entry on disk, which a power-cut test checks afterwards
    monkeypatch.setenv("SHOWDOWN_STORAGE__LOG_ENTRIES", "true")
    caplog.set_level(logging.INFO, logger="showdown")
    db = tmp_path / "s.db"
    code = main(["run", "--sim", "--headless", "--fast", "--games", "1", "--players", "3",
                 "--seed", "4", "--db", str(db)])
    assert code == 0
    assert "game over: " in capsys.readouterr().out
    logged = [r.getMessage() for r in caplog.records if "journal entry on disk" in r.getMessage()]
    with Journal.open(db) as journal:
        state = Session(journal).state
        assert state is not None and state.is_over and len(state.showdowns) > 0
        assert all(s.source == "unit" for s in state.showdowns)
        entries = journal.entries(state.game_id)
    assert logged == [
        f"journal entry on disk: game {e.game_id} seq {e.seq} {e.kind} key {e.key}" for e in entries
    ]


def test_run_refuses_a_corrupt_journal_without_touching_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.db"
    db.write_bytes(b"garbage" * 500)
    assert main(["run", "--sim", "--headless", "--db", str(db)]) == 2
    assert "not a readable database" in capsys.readouterr().err
    assert db.read_bytes() == b"garbage" * 500


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_service_cleanly_and_the_game_resumes(
    tmp_path: Path, signum: signal.Signals
) -> None:
    db = tmp_path / "s.db"
    quick = tmp_path / "quick.toml"  # a brisk countdown, so real time passes quickly
    quick.write_text(
        "[unit.timing]\nbeats = 1\nbeat_period_ms = 100\nbeat_flash_ms = 50\n"
        "hold_min_ms = 50\nhold_max_ms = 100\ncount_settle_ms = 100\n"
        "launcher_cooldown_ms = 50\n"
    )
    command = [sys.executable, "-m", "showdown", "run", "--sim", "--headless", "--db", str(db),
               "--players", "3", "--seed", "6", "--config", str(quick)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=env) as proc:
        assert proc.stdout is not None
        seen = []
        for line in proc.stdout:  # wait until the first showdown is scored (real time)
            seen.append(line)
            if line.startswith("  showdown: "):
                break
        proc.send_signal(signum)
        rest, _ = proc.communicate(timeout=30)
    output = "".join(seen) + rest
    assert proc.returncode == 0, output
    assert "stopping" in output and "every output is safe" in output
    assert "Traceback" not in output
    with Journal.open(db) as journal:
        assert journal.integrity_check() == "ok"
        state = Session(journal).state
        assert state is not None and not state.is_over and state.showdowns
    again = subprocess.run(
        [*command, "--fast", "--games", "1"], capture_output=True, text=True, timeout=120,
        env=env, check=False,
    )
    assert again.returncode == 0, again.stderr
    assert f"resuming game {state.game_id} at round" in again.stderr
    with Journal.open(db) as journal:
        games = journal.games()
        assert len(games) == 1
        final = Session(journal).state
        assert final is not None and final.is_over
        assert final.showdowns[: len(state.showdowns)] == state.showdowns
