"""The Pi-in-a-box harness's own verdicts can fail: a lost entry, a duplicate, a late watchdog
(the VM run itself is `make vm-test`; these read files shaped like the guest's)."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from showdown.tournament.messages import TournamentInfo
from showdown.tournament.outbox import Membership, Outbox, tournament_file
from tests.vm.harness import (
    SETS,
    Console,
    Machine,
    broker_verdict,
    check_event,
    check_exports,
    choose_set,
    failures,
    fetch,
    kvm_unusable,
    launcher_verdict,
    page_verdict,
    parse_timespan,
    patience,
    starved_verdict,
    table_joined,
)


def _export(
    folder: Path, game: int, journal: list[dict[str, object]], integrity: str = "ok"
) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"game-{game}.json").write_text(json.dumps({"game": game, "journal": journal}))
    (folder / "integrity.txt").write_text(integrity + "\n")


def _entry(
    seq: int, kind: str, key: str | None, events: list[object] | None = None
) -> dict[str, object]:
    return {"seq": seq, "kind": kind, "key": key, "events": events or []}


def test_every_acknowledged_entry_found_once_passes(tmp_path: Path) -> None:
    _export(tmp_path, 1, [_entry(1, "set_up", "setup:1"), _entry(2, "showdown", "s:1")])
    verdict = check_exports(tmp_path, {(1, 1): ("set_up", "setup:1"), (1, 2): ("showdown", "s:1")})
    assert (verdict["lost"], verdict["duplicated"], verdict["integrity"]) == ([], [], "ok")


def test_a_missing_entry_is_lost_and_a_repeated_one_duplicated(tmp_path: Path) -> None:
    _export(tmp_path, 1, [
        _entry(1, "round", None, [{"round": 1}]),
        _entry(3, "round", None, [{"round": 1}]),  # the same round entered again after a restart
    ], integrity="*** in database main ***")
    verdict = check_exports(tmp_path, {(1, 1): ("round", "None"), (1, 2): ("showdown", "s:2")})
    assert verdict["lost"] == [(1, 2, "showdown", "s:2")]
    assert verdict["duplicated"] == [(1, 1, "round", "None")]
    assert verdict["integrity"] != "ok"


def test_an_empty_export_loses_everything(tmp_path: Path) -> None:
    tmp_path.joinpath("game-1.json").write_text("")
    assert check_exports(tmp_path, {(1, 1): ("set_up", "k")})["lost"] == [(1, 1, "set_up", "k")]


def test_the_console_yields_marks_acknowledgements_verdicts_and_the_watchdog_times(
    tmp_path: Path,
) -> None:
    log = tmp_path / "console.log"
    log.write_text(
        "[    0.000000] Linux version 6.1.0-50-amd64\n"
        "@@VM install_rc 0\n"
        "[  244.3] showdown[473]: 22:18:13 main loop frozen (debug hook): no more watchdog pings\n"
        "[  253.2] systemd[1]: showdown.service: Watchdog timeout (limit 10s)!\n"
        "[  300.1] showdown[480]: 22:19:00 journal entry on disk: game 2 seq 41 showdown key s:9\n"
        "[  301.0] showdown[480]: 22:19:01 showdown 3: left won, but the unit was not told who "
        "played; enter it by hand\n@@VM cuts_re"
    )
    console = Console(log)
    console.poll()
    assert console.kernel_seen and console.marks == {"install_rc": "0"}
    assert console.acks == [(2, 41, "showdown", "s:9")]
    assert console.verdicts == [(3, "left")]
    assert (console.frozen_at, console.killed_at) == (244.3, 253.2)
    with log.open("a") as more:
        more.write("ady 1\n")  # a line written in two pieces is read whole
    console.poll()
    assert console.marks["cuts_ready"] == "1"


def test_a_pvm_kvm_is_not_used_and_says_why(tmp_path: Path) -> None:
    # A cloud sandbox's /dev/kvm can be PVM, which hangs Debian's kernel after "Probing EDD":
    # the harness must not spend its boot on it, and CI must say why the VM test did not run.
    kvm, modules = tmp_path / "kvm", tmp_path / "module"
    assert kvm_unusable(kvm, modules) == f"no usable {kvm}"
    kvm.touch()
    (modules / "kvm").mkdir(parents=True)
    assert kvm_unusable(kvm, modules) == ""
    (modules / "kvm_pvm").mkdir()
    assert "PVM" in kvm_unusable(kvm, modules)


def test_an_event_entry_acknowledged_but_not_in_the_event_journal_is_lost(
        tmp_path: Path) -> None:
    (tmp_path / "event-entries.txt").write_text("t1 j1 1 set_up\nt1 j1 2 round\n")
    (tmp_path / "event-integrity.txt").write_text("ok\n")
    acked = {("t1", "j1", 1), ("t1", "j1", 2), ("t1", "j1", 3)}
    verdict = check_event(tmp_path, acked)
    assert verdict == {"stored": 2, "lost": [("t1", "j1", 3)], "duplicated": [],
                       "integrity": "ok"}
    assert check_event(tmp_path, acked - {("t1", "j1", 3)})["lost"] == []


def test_an_event_entry_stored_twice_is_duplicated_and_a_missing_export_loses_all(
        tmp_path: Path) -> None:
    (tmp_path / "event-entries.txt").write_text("t1 j1 1 set_up\nt1 j1 1 set_up\n")
    assert check_event(tmp_path, {("t1", "j1", 1)})["duplicated"] == [("t1", "j1", 1)]
    empty = check_event(tmp_path / "nowhere", {("t1", "j1", 1)})
    assert empty["lost"] == [("t1", "j1", 1)] and empty["integrity"] == "missing"


def test_the_guest_reaches_nothing_and_this_host_only_its_broker(tmp_path: Path) -> None:
    machine = Machine(tmp_path, tmp_path, "/dev/null", "tcg", event_port=41883)
    command = machine.command("main", "")
    nic = command[command.index("-nic") + 1]
    assert "restrict=on" in nic and "hostfwd=tcp:127.0.0.1:41883-:1883" in nic
    assert command.count("-nic") == 1


def test_a_table_counts_as_joined_only_once_its_membership_is_kept(tmp_path: Path) -> None:
    # the harness joins again only when the host never answered: a table that joined keeps its
    # credentials, and starting it again would not be a second join but the same table
    db = tmp_path / "event-table.db"
    assert not table_joined(db)
    outbox = Outbox(tournament_file(db))
    try:
        assert not table_joined(db)
        info = TournamentInfo(event="b4khx2", name="Pi-in-a-box", format="free",
                              players=["Ada", "Ben", "Cleo", "Dev"], tables=["t1"], rounds=1)
        outbox.join(Membership("b4khx2", "t1", "127.0.0.1", 41883, SecretStr("pw"),
                               SecretStr("key"), info))
    finally:
        outbox.close()
    assert table_joined(db)


# -- which set runs, and what fails it -----------------------------------------------------------


def test_plain_emulation_runs_the_shorter_set_and_says_so_in_one_line() -> None:
    plan, line = choose_set("auto", "tcg", "no usable /dev/kvm")
    assert plan == SETS["ci"] and plan.cuts == 1 and plan.duels == 0 and plan.starved >= 1
    assert "\n" not in line
    assert line == ("vm checks: the ci set (plain emulation: no usable /dev/kvm): install, "
                    "notify, launcher, phone pages, watchdog, the event host and its broker, "
                    "1 power cut, 1 starved start, uninstall; make vm-test runs the full set")
    full, line = choose_set("auto", "kvm")
    assert full == SETS["full"] and "the full set (KVM)" in line and "make vm-test" not in line
    assert "6 serial showdowns" in line and "5 power cuts" in line and "5 starved starts" in line
    soak, _line = choose_set("full", "tcg", cuts=50, duels=20)
    assert (soak.name, soak.cuts, soak.duels, soak.starved) == ("full", 50, 20, 5)


def _passing(plan_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    plan = SETS[plan_name]
    result: dict[str, Any] = {
        "install_ok": True, "notify_ready": True, "launcher_ok": True, "page_ok": True,
        "watchdog_restarts": 1, "udev_named": False, "serial_duels": 0,
        "serial_duels_correct": 0, "power_cuts": plan.cuts, "acknowledged": 40, "lost": 0,
        "duplicated": 0, "integrity_ok": True, "event_ready": True, "broker_ok": True,
        "event_acknowledged": 300, "event_lost": 0, "event_duplicated": 0,
        "event_integrity_ok": True, "starved_in_time": plan.starved,
        "starved_boots": plan.starved,
    }
    extra = {"check_ok": True, "watchdog_resumed": True, "watchdog_in_time": True,
             "uninstall_ok": True}
    return result, extra


def test_a_broken_install_fails_the_run_and_with_it_ci() -> None:
    result, extra = _passing("ci")
    assert failures(result, extra, SETS["ci"]) == []
    # the ci set plays no serial showdowns: the full set, which does, fails without them
    assert failures(result, extra, SETS["full"]) == ["power_cuts", "starved_in_time",
                                                     "udev_named", "serial_duels"]
    result["install_ok"] = False
    assert failures(result, extra, SETS["ci"]) == ["install_ok"]


def test_a_spent_budget_is_no_verdict_unless_the_install_finished_and_failed() -> None:
    """What a busy CI machine gets when the emulated guest outlasts ``.ci/run``'s budget."""
    result, extra = _passing("ci")
    result.update(install_ok=False, notify_ready=False, power_cuts=0)
    extra.update(budget_spent="deploy/install.sh (3300 s)", install_rc=None)
    assert failures(result, extra, SETS["ci"]) == []  # still installing: no verdict
    extra["install_rc"] = "0"  # installed, then spent during the later checks
    assert failures(result, extra, SETS["ci"]) == []
    extra["install_rc"] = "1"
    assert failures(result, extra, SETS["ci"]) == ["install_ok"]
    del extra["budget_spent"]  # the same run with time to spare fails every unmet check
    assert failures(result, extra, SETS["ci"])[:3] == ["install_ok", "notify_ready", "power_cuts"]


def test_one_late_starved_start_fails_the_run() -> None:
    result, extra = _passing("full")
    result.update(serial_duels=6, serial_duels_correct=6, udev_named=True)
    extra["check_serial_ok"] = True
    assert failures(result, extra, SETS["full"]) == []
    result["starved_in_time"] = 4
    assert failures(result, extra, SETS["full"]) == ["starved_in_time"]


# -- the launcher, the pages, the broker ---------------------------------------------------------


def test_the_launcher_passes_only_compiled_with_every_stop_in_one_line() -> None:
    good = {"launcher_compiled": "1", "launcher_trials": "6 clean 6 stopped 5"}
    assert launcher_verdict(good)
    assert not launcher_verdict({**good, "launcher_compiled": "0"})  # pip's script
    assert not launcher_verdict({**good, "launcher_trials": "6 clean 5 stopped 5"})  # a traceback
    assert not launcher_verdict({**good, "launcher_trials": "6 clean 6 stopped 0"})  # all too late
    assert not launcher_verdict({"launcher_compiled": "1"})  # the guest never got there


def test_each_page_is_the_one_a_phone_should_get() -> None:
    table = '<main><section id="part-showdown"></section><section id="part-table">'
    event = '<main><section id="part-event" class="part">'
    assert page_verdict(200, table, "table") and page_verdict(200, event, "event")
    assert not page_verdict(200, event, "table")  # the event's page took the table's port
    assert not page_verdict(200, table + event, "event")
    assert not page_verdict(0, "", "table") and not page_verdict(502, table, "table")


@pytest.fixture
def page_server() -> Iterator[int]:
    """A real HTTP server on a free loopback port, answering / with a table's page."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b'<section id="part-table">'
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def test_the_host_fetches_a_page_through_a_port(page_server: int) -> None:
    status, body = fetch(page_server, timeout=30)
    assert page_verdict(status, body, "table")


def test_the_broker_must_stop_with_its_host_and_come_back_with_it() -> None:
    marks = {"broker_after_host_stop": "inactive listening 0",
             "broker_after_host_start": "active listening 1"}
    assert broker_verdict(marks)
    # the drop-in's PartOf= missing: the broker runs on without its host
    assert not broker_verdict({**marks, "broker_after_host_stop": "active listening 1"})
    assert not broker_verdict({**marks, "broker_after_host_start": "inactive listening 0"})


# -- the starved starts --------------------------------------------------------------------------


def _starved(**unit: str) -> dict[str, str]:
    fields = {"ActiveState": "active", "Result": "success", "NRestarts": "0",
              "TimeoutStartUSec": "1min", "InactiveExitTimestampMonotonic": "20000000",
              "ExecMainStartTimestampMonotonic": "20100000",
              "ActiveEnterTimestampMonotonic": "65000000", **unit}
    return {
        "starved_unit": " ".join(f"{k}={v}" for k, v in fields.items()) + " ",
        "starved_hog": "active 19500000 cpus 1 load 3.10 1.20 0.40",
        "starved_line": "started in 44.1 s: python and imports 21.0 s, the configuration 0.6 s, "
                        "the journal 1.5 s, the tournament link 0.0 s, the unit 2.0 s, the phone "
                        "page 17.0 s, the scoreboard 2.0 s",
        "starved_boot": "Startup finished in 3.1s (kernel) + 1min 20.2s (userspace) = 1min 23.3s",
        "starved_python_s": "4.2",
        "starved_stop": "3.25 result success restarts 0 limit 15s",
    }


def test_a_starved_start_in_time_keeps_what_took_long() -> None:
    verdict = starved_verdict(_starved())
    assert (verdict["ready_s"], verdict["timeout_s"], verdict["in_time"]) == (45.0, 60.0, True)
    assert not verdict["extended"]
    assert verdict["hog"] and verdict["cpus"] == "1"
    assert verdict["service_start_s"] == 44.1
    assert verdict["phases"]["python and imports"] == 21.0
    assert verdict["phases"]["the phone page"] == 17.0 and len(verdict["phases"]) == 7
    assert verdict["python_s"] == 4.2
    assert verdict["stop_s"] == 3.25 and verdict["stopped"]


def test_a_starved_start_stopped_by_its_timeout_or_restarted_fails() -> None:
    # past TimeoutStartSec on the service's own word that its start went on: in time
    late = starved_verdict(_starved(ActiveEnterTimestampMonotonic="81000000"))
    assert late["ready_s"] == 61.0 and late["extended"] and late["in_time"]
    # systemd's timeout killed the first try; the second came up: READY=1, but not in time
    again = starved_verdict(_starved(NRestarts="1"))
    assert again["restarts"] == 1 and not again["in_time"]
    failed = starved_verdict(_starved(ActiveState="failed", Result="timeout",
                                      ActiveEnterTimestampMonotonic="0"))
    assert failed["ready_s"] is None and not failed["in_time"]
    assert not starved_verdict({})["in_time"]  # the guest never said
    # in time, but the watchdog killed it afterwards, or its stop was cut short by SIGKILL
    for stop in ("3.2 result success restarts 1 limit 15s", "15.1 result timeout restarts 0 "
                 "limit 15s", "16.0 result success restarts 0 limit 15s"):
        assert not starved_verdict({**_starved(), "starved_stop": stop})["in_time"], stop


def test_systemd_time_spans_read_as_seconds() -> None:
    assert parse_timespan("1min 30s") == 90.0
    assert parse_timespan("2min") == 120.0
    assert parse_timespan("500ms") == 0.5
    assert parse_timespan("infinity") is None


def test_a_starved_guest_has_one_core_half_the_memory_and_the_hog() -> None:
    machine = Machine(Path("/run"), Path("/cache"), "/dev/null", "tcg", event_port=41883,
                      page_ports=(48080, 48081))
    starved = machine.command("starved", "", starved=True)
    assert starved[starved.index("-smp") + 1] == "1" and starved[starved.index("-m") + 1] == "512"
    assert "showdown_vm.hog=1" in starved[starved.index("-append") + 1]
    usual = machine.command("main", "")
    assert usual[usual.index("-smp") + 1] == "2"
    assert "hog" not in usual[usual.index("-append") + 1]
    nic = usual[usual.index("-nic") + 1]
    assert "hostfwd=tcp:127.0.0.1:48080-:8080" in nic
    assert "hostfwd=tcp:127.0.0.1:48081-:8081" in nic


def test_a_busy_host_waits_longer_before_calling_a_step_hung() -> None:
    assert patience("kvm", load=30.0, cpus=2) == 1.0
    assert patience("tcg", load=0.5, cpus=2) == 4.0
    assert patience("tcg", load=6.0, cpus=2) == 4.0
    assert patience("tcg", load=15.0, cpus=2) == 10.0  # 7.5 runnable a core
    assert patience("tcg (kvm failed to boot)", load=15.0, cpus=2) == 10.0
