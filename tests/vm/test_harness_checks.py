"""The Pi-in-a-box harness's own verdicts can fail: a lost entry, a duplicate, a late watchdog
(the VM run itself is `make vm-test`; these read files shaped like the guest's)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import SecretStr

from showdown.tournament.messages import TournamentInfo
from showdown.tournament.outbox import Membership, Outbox, tournament_file
from tests.vm.harness import (
    Console,
    Machine,
    check_event,
    check_exports,
    kvm_unusable,
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
