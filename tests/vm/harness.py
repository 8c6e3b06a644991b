"""Pi in a box, the host's side: boot a real Debian in QEMU and run the product there as a Pi would.

``make vm-test`` (5 power cuts) and ``make vm-soak`` (50) run this file with the project's venv.
It is the checklist of what a real install must do; each step's evidence lands in the run folder
(console logs, the guest's exports), and one JSON line at the end gives the verdicts:

1. the image (``build-image.sh``, cached) and the guest's wheels (``pip download``, cached);
2. boot ``main`` (``guest.sh``): ``deploy/install.sh``, the unit reaching ``active`` as
   ``Type=notify`` with its STATUS line, ``showdown check``, the watchdog (SIGUSR2 freezes the main
   loop), the udev rule naming the board, showdowns played through QEMU's FTDI ``usb-serial``
   against the simulated microcontroller running the real firmware *here on the host*;
3. the event host (``install.sh --event-host``): Mosquitto and ``showdown-event`` under the
   guest's systemd; a simulated table *here on the host* (``showdown run --sim --event``) joins
   with the code the guest hands over, through QEMU's user network, which forwards one loopback
   port of this host to the guest's 1883 and nothing else (``restrict=on``);
4. power cuts: the service scores a simulated game at a fast pace and logs each journal entry it
   has on disk to the serial console, while the host's table sends its event entries; the host
   kills QEMU at a random moment, boots again, and checks the guest's ``showdown export`` holds
   every such entry exactly once and that SQLite's ``integrity_check`` is ok; the last boot
   exports the event journal too (every entry the host acknowledged to the table there once,
   its integrity ok), then runs ``deploy/uninstall.sh`` and compares.

The disk is raw with ``cache=none`` (O_DIRECT): what the guest has not flushed is in its own
RAM, and a killed QEMU takes it along, as a power cut does on a Pi's SD card.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hw_sim.mcu import SimulatedMcu
from showdown.game.journal import Journal
from showdown.tournament.brokers import free_port
from showdown.tournament.outbox import Outbox, journal_identity, tournament_entries, tournament_file

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

MARK = re.compile(r"@@VM (\S+) ?(.*)")
ACK = re.compile(r"journal entry on disk: game (\d+) seq (\d+) (\S+) key (\S+)")
VERDICT = re.compile(r"showdown (\d+): (left|right) won, but the unit was not told who played")
KERNEL_START = "Linux version"
# journald forwards with the guest's uptime in brackets: the freeze and systemd's kill, timed
FROZEN = re.compile(r"\[\s*([\d.]+)\] .*main loop frozen \(debug hook\)")
WATCHDOG_KILL = re.compile(r"\[\s*([\d.]+)\] .*showdown\.service: Watchdog timeout")
WATCHDOG_SEC = 10.0  # deploy/showdown.service


def log(text: str) -> None:
    """Progress for the person watching (stderr; the JSON line alone goes to stdout)."""
    print(f"[vm {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "showdown-vm"


# -- the guest's ingredients ------------------------------------------------------------------


def build_image(cache: Path) -> float:
    started = time.monotonic()
    subprocess.run(["bash", str(HERE / "build-image.sh"), str(cache)], check=True,
                   stdout=sys.stderr)
    return time.monotonic() - started


def wheels(cache: Path) -> Path:
    """Every package the install needs, for the guest's offline pip (same Python, 3.11)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    wanted = [
        *project["project"]["dependencies"],
        *project["build-system"]["requires"],
        "lgpio>=0.2",  # install.sh's fallback where apt has no python3-lgpio
        "wheel",
    ]
    wanted = [w.split("#")[0].strip() for w in wanted]
    folder = cache / "wheels"
    stamp = folder / ".wanted"
    if stamp.exists() and stamp.read_text(encoding="utf-8") == "\n".join(sorted(wanted)):
        wheel_sdists(folder)  # a folder downloaded before the guest got wheels only
        return folder
    log(f"downloading the guest's Python packages into {folder}")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
         "--dest", str(folder), *wanted],
        check=True,
    )
    wheel_sdists(folder)
    stamp.write_text("\n".join(sorted(wanted)), encoding="utf-8")
    return folder


def wheel_sdists(folder: Path) -> list[str]:
    """Turn the source archives among the downloads into wheels, here, once.

    A Pi's pip gets wheels from piwheels for packages PyPI has only as source; the guest, built
    without a compiler, would otherwise build each of them in its own isolated environment at
    every run (under plain emulation, minutes). Returns the wheels' file names."""
    sdists = sorted(p for p in folder.iterdir() if p.name.endswith((".tar.gz", ".zip")))
    if not sdists:
        return []
    before = {p.name for p in folder.glob("*.whl")}
    log(f"building wheels of {', '.join(p.name for p in sdists)} for the guest")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--wheel-dir", str(folder), *map(str, sdists)],
        check=True,
    )
    for sdist in sdists:
        sdist.unlink()
    return sorted({p.name for p in folder.glob("*.whl")} - before)


def copy_checkout(dest: Path) -> None:
    """The files a fresh clone has (tracked, plus new files not ignored): what a builder copies."""
    names = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True,
    ).stdout.decode().split("\0")
    shutil.rmtree(dest, ignore_errors=True)
    for name in filter(None, names):
        source = REPO / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


# -- the machine ------------------------------------------------------------------------------


@dataclass
class Console:
    """One boot's serial console, read as it is written: marks, acknowledged entries, verdicts."""

    path: Path
    marks: dict[str, str] = field(default_factory=dict)
    acks: list[tuple[int, int, str, str]] = field(default_factory=list)
    verdicts: list[tuple[int, str]] = field(default_factory=list)
    kernel_seen: bool = False
    frozen_at: float | None = None
    killed_at: float | None = None
    _offset: int = 0
    _partial: str = ""

    def poll(self) -> None:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self._offset)
                data = handle.read()
        except FileNotFoundError:
            return
        self._offset += len(data)
        text = self._partial + data.decode("utf-8", "replace")
        lines = text.split("\n")
        self._partial = lines.pop()
        for line in lines:
            self._line(line.replace("\r", ""))

    def _line(self, line: str) -> None:
        if KERNEL_START in line:
            self.kernel_seen = True
        if (mark := MARK.search(line)) is not None:
            self.marks[mark.group(1)] = mark.group(2).strip()
        if (ack := ACK.search(line)) is not None:
            self.acks.append((int(ack.group(1)), int(ack.group(2)), ack.group(3), ack.group(4)))
        if (frozen := FROZEN.search(line)) is not None:
            self.frozen_at = float(frozen.group(1))
        if (killed := WATCHDOG_KILL.search(line)) is not None:
            self.killed_at = float(killed.group(1))
        if (verdict := VERDICT.search(line)) is not None:
            self.verdicts.append((int(verdict.group(1)), verdict.group(2)))


class Machine:
    """QEMU with the Debian kernel booted directly, the disk, two shares and the FTDI adapter."""

    def __init__(self, run: Path, cache: Path, mcu_tty: str, accel: str,
                 event_port: int = 0) -> None:
        self.event_port = event_port
        """This host's loopback port that QEMU forwards to the guest's Mosquitto (1883)."""
        self.run = run
        self.cache = cache
        self.mcu_tty = mcu_tty
        self.accel = accel
        self.process: subprocess.Popen[bytes] | None = None
        self.console: Console | None = None
        self.boots = 0

    def command(self, stage: str, extra: str) -> list[str]:
        # -cpu max under emulation: the wheels (numpy's, pygame's) need more than qemu64's SSE2
        accel = (["-accel", "kvm", "-cpu", "host"] if self.accel == "kvm"
                 else ["-accel", "tcg,thread=multi", "-cpu", "max"])
        console = self.run / f"console-{self.boots}.log"
        return [
            "qemu-system-x86_64", *accel, "-machine", "q35", "-m", "1024", "-smp", "2",
            "-kernel", str(self.cache / "vmlinuz"), "-initrd", str(self.cache / "initrd.img"),
            "-append", f"root=/dev/vda ro console=ttyS0 quiet showdown_vm.stage={stage} "
                       f"showdown_vm.boot={self.boots} {extra}",
            "-drive", f"file={self.run / 'disk.raw'},format=raw,if=virtio,cache=none",
            "-virtfs", f"local,path={self.run / 'share'},mount_tag=host,security_model=none,"
                       "readonly=on",
            "-virtfs", f"local,path={self.run / 'out'},mount_tag=out,security_model=none",
            # the board: QEMU's usb-serial is an FTDI FT232 (0403:6001) on an xHCI controller,
            # its other end the simulated microcontroller's pseudo-terminal on this host
            "-device", "qemu-xhci", "-chardev", f"serial,id=mcu,path={self.mcu_tty}",
            "-device", "usb-serial,chardev=mcu",
            "-serial", f"file:{console}", "-monitor", "none",
            # the venue's LAN, as far as the box has one: the guest reaches nothing, and this
            # host reaches only its broker, at a loopback port
            "-nic", f"user,model=virtio-net-pci,restrict=on,"
                    f"hostfwd=tcp:127.0.0.1:{self.event_port}-:1883",
            "-display", "none", "-vga", "none", "-no-reboot",
        ]

    def boot(self, stage: str, extra: str = "") -> Console:
        self.boots += 1
        command = self.command(stage, extra)
        self.console = Console(self.run / f"console-{self.boots}.log")
        log(f"boot {self.boots}: stage {stage} ({self.accel})")
        self.process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=open(self.run / f"qemu-{self.boots}.err", "wb"),  # noqa: SIM115
        )
        return self.console

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def cut_power(self) -> None:
        """The plug pulled: QEMU is killed, the guest's RAM (its page cache too) is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.console is not None:
            self.console.poll()

    def wait_exit(self, timeout: float) -> bool:
        if self.process is None:
            return True
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def wait_for(
        self, what: Callable[[Console], bool], timeout: float, label: str, *, in_stage: bool = True
    ) -> bool:
        """Poll the console until *what* holds; False on timeout, when QEMU ended, or (for a
        step of the guest's script, *in_stage*) when that script has ended without it."""
        assert self.console is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.console.poll()
            if what(self.console):
                return True
            if in_stage and "stage_end" in self.console.marks:
                log(f"the guest's script ended ({self.console.marks['stage_end']}) before {label}")
                return False
            if not self.alive():
                self.console.poll()
                if what(self.console):
                    return True
                log(f"QEMU ended while waiting for {label}")
                return False
            time.sleep(0.1)
        log(f"timed out after {timeout:.0f} s waiting for {label}")
        return False


def kvm_unusable(kvm: Path = Path("/dev/kvm"), modules: Path = Path("/sys/module")) -> str:
    """Why this host's KVM cannot boot the guest's stock Debian kernel, or "" when it can.

    A PVM host (``kvm_pvm``: nested virtualisation by page tables, as in some cloud sandboxes)
    gives a ``/dev/kvm`` that runs only kernels built as PVM guests; Debian's hangs right after
    its set-up code ("Probing EDD"), so the harness goes straight to emulation there."""
    if not os.access(kvm, os.R_OK | os.W_OK):
        return f"no usable {kvm}"
    if (modules / "kvm_pvm").exists():
        return (f"{kvm} is PVM nested virtualisation (kvm_pvm), which boots only PVM-built guest "
                "kernels, not Debian's")
    return ""


def choose_accel(requested: str) -> str:
    if requested != "auto":
        return requested
    why = kvm_unusable()
    if why:
        log(f"plain emulation: {why}")
        return "tcg"
    return "kvm"


# -- the showdowns through the serial port --------------------------------------------------


class HostTable:
    """Two players at the simulated board on this host: the timer button, then paddles after
    the green light, with reactions far enough apart that the rules name one winner."""

    def __init__(self, mcu: SimulatedMcu, rng: random.Random) -> None:
        self.mcu = mcu
        self.rng = rng
        self.green = threading.Event()
        self.green_ns = 0
        mcu.pin("light_green").observers.append(self._light)

    def _light(self, _pin: object, level: int, at_ns: int) -> None:
        if level:
            self.green_ns = at_ns
            self.green.set()

    def _tap(self, name: str) -> int:
        at = time.monotonic_ns()
        self.mcu.press(name, at)
        time.sleep(0.12)
        self.mcu.release(name, time.monotonic_ns())
        return at

    def duel(self) -> str | None:
        """One showdown; returns the side the rules make the winner (None: nothing happened)."""
        self.green.clear()
        self._tap("timer_button")
        early = self.rng.random() < 0.2
        if early:  # a false start in the red phase: the other side wins
            time.sleep(self.rng.uniform(0.8, 1.8))
            side = self.rng.choice(["left", "right"])
            self._tap(f"paddle_{side}")
            return "right" if side == "left" else "left"
        if not self.green.wait(15):
            return None
        first, second = self.rng.sample(["left", "right"], 2)
        reaction = self.rng.uniform(0.15, 0.35)
        gap = self.rng.uniform(0.04, 0.2)  # far beyond the tie window: one side is first
        timeline = sorted([
            (reaction, self.mcu.press, first), (reaction + gap, self.mcu.press, second),
            (reaction + 0.12, self.mcu.release, first),
            (reaction + gap + 0.12, self.mcu.release, second),
        ], key=lambda step: step[0])
        for after_s, action, side in timeline:
            at_ns = self.green_ns + round(after_s * 1e9)
            time.sleep(max(0.0, (at_ns - time.monotonic_ns()) / 1e9))
            action(f"paddle_{side}", time.monotonic_ns())
        return first


# -- the event's table on this host -----------------------------------------------------------


class TournamentTable:
    """``showdown run --sim --headless --event CODE@127.0.0.1:PORT``: a simulated table here,
    its journal in the run folder, joined to the guest's event through the forwarded port."""

    def __init__(self, run: Path, port: int, code: str, seed: int) -> None:
        self.db = run / "event-table.db"
        showdown = Path(sys.executable).parent / "showdown"
        self.process = subprocess.Popen(
            # games enough to play through every cut: the harness stops it after the last.
            # Its unit's clock 20 times real time, without --fast's skipped waits: about two
            # entries a second, a busy table's pace many times over, which the guest's event
            # host stores as they come even under plain emulation (with --fast it is 30 a
            # second, and the outbox's backlog after each cut would outgrow the guest).
            [str(showdown), "run", "--sim", "--headless", "--speed", "20",
             "--games", "10000", "--seed", str(seed), "--db", str(self.db),
             "--table-name", "Host table", "--no-http",
             "--event", f"{code}@127.0.0.1:{port}", "--event-keepalive", "10",
             "--event-resend-s", "5"],
            stdin=subprocess.DEVNULL, stdout=open(run / "event-table.out", "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT)

    def joined(self) -> bool:
        return table_joined(self.db)

    def figures(self) -> tuple[set[tuple[str, str, int]], set[tuple[str, str, int]]]:
        """(the event entries the table made, those the host acknowledged), read from the
        table's journal and outbox as they are on disk now."""
        return table_entries(self.db)

    def stop(self) -> int | None:
        """A clean stop (SIGINT, as Ctrl-C): what is not acknowledged stays in the outbox."""
        if self.process.poll() is None:
            self.process.send_signal(2)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


def table_joined(db: Path) -> bool:
    """Whether a table's journal holds its event membership (the host answered its join)."""
    if not tournament_file(db).exists():
        return False
    outbox = Outbox(tournament_file(db))
    try:
        return outbox.membership() is not None
    finally:
        outbox.close()


def table_entries(db: Path) -> tuple[set[tuple[str, str, int]], set[tuple[str, str, int]]]:
    """(event entries in a table's journal, those its outbox marks acknowledged by the host)."""
    if not db.exists() or not tournament_file(db).exists():
        return set(), set()
    outbox = Outbox(tournament_file(db))
    try:
        member = outbox.membership()
        if member is None:
            return set(), set()
        with Journal.open(db) as journal:
            if not journal.games():
                return set(), set()
            identity = journal_identity(journal)
            made = {(member.table, identity, entry.seq)
                    for entry, _previous in tournament_entries(journal, member.event,
                                                               member.joined_seq)}
            acked = {(member.table, identity, seq) for seq in outbox.acked(identity)}
    finally:
        outbox.close()
    return made, acked


def check_event(folder: Path, acked: set[tuple[str, str, int]]) -> dict[str, Any]:
    """Every entry the host acknowledged to its table, once in the guest's event journal."""
    path = folder / "event-entries.txt"
    rows = [tuple(line.split()) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()] if path.exists() else []
    stored = [(row[0], row[1], int(row[2])) for row in rows if len(row) >= 3]
    counted: dict[tuple[str, str, int], int] = {}
    for key in stored:
        counted[key] = counted.get(key, 0) + 1
    integrity = folder / "event-integrity.txt"
    return {
        "stored": len(stored),
        "lost": sorted(acked - set(counted)),
        "duplicated": sorted(k for k, n in counted.items() if n > 1),
        "integrity": integrity.read_text(encoding="utf-8").strip() if integrity.exists()
        else "missing",
    }


# -- checking the exports after a cut ---------------------------------------------------------


def check_exports(folder: Path, acks: dict[tuple[int, int], tuple[str, str]]) -> dict[str, Any]:
    """Every acknowledged entry exactly once in the guest's export; SQLite's integrity."""
    entries: dict[int, list[dict[str, Any]]] = {}
    for path in sorted(folder.glob("game-*.json")):
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if text.strip() else {}
        if data:
            entries[int(data["game"])] = list(data["journal"])
    lost, duplicated = [], []
    for (game, seq), (kind, key) in sorted(acks.items()):
        stored = entries.get(game, [])
        same = [e for e in stored if e["seq"] == seq and e["kind"] == kind
                and str(e["key"]) == key]
        if not same:
            lost.append((game, seq, kind, key))
            continue
        entry = same[0]
        if entry["key"] is not None:
            twins = [e for e in stored if e["key"] == entry["key"]]
        else:
            twins = [e for e in stored
                     if e["key"] is None and e["kind"] == kind and e["events"] == entry["events"]]
        if len(twins) > 1:
            duplicated.append((game, seq, kind, key))
    integrity = (folder / "integrity.txt").read_text(encoding="utf-8").strip() \
        if (folder / "integrity.txt").exists() else "missing"
    return {"lost": lost, "duplicated": duplicated, "integrity": integrity,
            "entries": sum(len(v) for v in entries.values())}


# -- the run ----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=5)
    parser.add_argument("--duels", type=int, default=6)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--accel", choices=("auto", "kvm", "tcg"), default="auto")
    args = parser.parse_args()
    started = time.monotonic()
    rng = random.Random(args.seed)
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    result: dict[str, Any] = {
        "install_ok": False, "notify_ready": False, "watchdog_restarts": 0, "udev_named": False,
        "serial_duels": 0, "serial_duels_correct": 0, "power_cuts": 0, "acknowledged": 0,
        "lost": 0, "duplicated": 0, "integrity_ok": False, "event_ready": False,
        "event_acknowledged": 0, "event_lost": 0, "event_duplicated": 0,
        "event_integrity_ok": False, "seconds": 0.0,
    }
    extra: dict[str, Any] = {"seed": args.seed}
    image_s = build_image(cache)
    extra["image_build_s"] = round(image_s, 1)
    run = cache / "run"
    shutil.rmtree(run, ignore_errors=True)
    (run / "share").mkdir(parents=True)
    (run / "out").mkdir()
    (run / "out").chmod(0o777)
    copy_checkout(run / "share" / "src")
    shutil.copytree(wheels(cache), run / "share" / "wheels")
    subprocess.run(["cp", "--sparse=always", str(cache / "rootfs.raw"), str(run / "disk.raw")],
                   check=True)
    log(f"run folder {run} (console logs, the guest's exports); seed {args.seed}")

    mcu = SimulatedMcu(link_path=run / "board", seed=args.seed).start()
    table = HostTable(mcu, rng)
    machine = Machine(run, cache, os.path.realpath(mcu.port), choose_accel(args.accel),
                      event_port=free_port())
    tournament_table: TournamentTable | None = None
    event_acked: set[tuple[str, str, int]] = set()
    extra["accel"] = machine.accel
    acks: dict[tuple[int, int], tuple[str, str]] = {}
    lost: set[tuple[int, int, str, str]] = set()
    duplicated: set[tuple[int, int, str, str]] = set()
    integrity_all = True
    fresh_games: set[int] = set()
    fresh_acks: set[tuple[int, int]] = set()

    def slow() -> float:  # plain emulation runs the guest several times slower
        return 1.0 if machine.accel == "kvm" else 4.0

    def mark(name: str) -> str | None:
        assert machine.console is not None
        machine.console.poll()
        return machine.console.marks.get(name)

    try:
        # -- boot 1: install and every check of a running install
        console = machine.boot("main", f"showdown_vm.duels={args.duels}")
        if machine.accel == "kvm" and not machine.wait_for(
                lambda c: c.kernel_seen, 30, "the kernel's first line under KVM"):
            log("KVM is there but did not boot the kernel (nested KVM?): plain emulation instead")
            machine.cut_power()
            machine.accel = extra["accel"] = "tcg (kvm failed to boot)"
            machine.boots = 0
            console = machine.boot("main", f"showdown_vm.duels={args.duels}")
        machine.wait_for(lambda c: "install_rc" in c.marks, 600 * slow(), "deploy/install.sh")
        result["install_ok"] = mark("install_rc") == "0"
        if (install_s := mark("install_s")) is not None and install_s.isdigit():
            extra["install_s"] = int(install_s)  # deploy/install.sh, timed by the guest
        machine.wait_for(lambda c: "check_traceback" in c.marks, 180 * slow(), "the unit's start")
        extra["unit_status_text"] = mark("unit_status_text")
        result["notify_ready"] = (mark("unit_type") == "notify" and mark("unit_state") == "active"
                                  and mark("status_line_shown") == "1")
        extra["check_ok"] = mark("check_traceback") == "0" and mark("check_rc") in ("0", "1", "2")
        machine.wait_for(lambda c: "watchdog_resumed" in c.marks, 180 * slow(), "the watchdog")
        result["watchdog_restarts"] = int(mark("watchdog_restarts") or 0)
        extra["watchdog_resumed"] = mark("watchdog_resumed") == "1"
        # systemd pings are WatchdogSec/2 apart: the kill must come within WatchdogSec of the
        # freeze (the console's timestamps are the guest's own uptime)
        if console.frozen_at is not None and console.killed_at is not None:
            extra["watchdog_kill_after_s"] = round(console.killed_at - console.frozen_at, 2)
        kill_after = extra.get("watchdog_kill_after_s", -1.0)
        extra["watchdog_in_time"] = 0 <= kill_after <= WATCHDOG_SEC + 0.5
        machine.wait_for(lambda c: "serial_ready" in c.marks, 120 * slow(), "the udev checks")
        ftdi = mark("ftdi_named") or ""
        pico = mark("pico_named") or ""
        extra["ftdi_named"], extra["pico_named"] = ftdi, pico
        opened = (mark("serial_opened") or "").split()
        extra["serial_opened"] = " ".join(opened)
        result["udev_named"] = (ftdi.startswith("/dev/ttyUSB") and ftdi.endswith("dialout 660")
                                and pico == "dialout 660 1"
                                and opened[:1] == ["/dev/showdown-unit"]
                                and opened[2:] == ftdi.split()[:1])
        if mark("serial_ready") == "active":
            # A starved guest (plain emulation on a busy host) may miss a round: such an
            # attempt is retried after a pause long enough for the unit to time it out, and
            # counted in serial_duel_attempts; every verdict that does come is checked.
            attempts = 0
            while result["serial_duels"] < args.duels and attempts < 3 * args.duels:
                attempts += 1
                before = len(console.verdicts)
                expected = table.duel()
                if expected is None:
                    log("serial duel: no green light from the service; again after a pause")
                    time.sleep(15)
                    continue
                if machine.wait_for(lambda c, n=before: len(c.verdicts) > n, 30 * slow(),
                                    "the service's verdict"):
                    result["serial_duels"] += 1
                    got = console.verdicts[before][1]
                    result["serial_duels_correct"] += got == expected
                    log(f"serial duel: expected {expected}, the service said {got}")
                else:
                    time.sleep(15)
                time.sleep(2.5)  # the launcher's cool-down
            extra["serial_duel_attempts"] = attempts
        (run / "out" / "serial-done").touch()
        machine.wait_for(lambda c: "cuts_ready" in c.marks, 180 * slow(), "the power-cut set-up")
        # through the board: the lights answered over the link; nobody pressed, so exit 1
        report = run / "out" / "check-serial.txt"
        text = report.read_text(encoding="utf-8") if report.exists() else ""
        extra["check_serial_ok"] = (mark("check_serial_rc") == "1" and "Traceback" not in text
                                    and "ok  red countdown light" in text)

        # -- the event: Mosquitto and the event host in the guest, a table here joins them
        machine.wait_for(lambda c: "event_ready" in c.marks, 180 * slow(), "the event host")
        extra["mosquitto_state"] = mark("mosquitto_state")
        extra["mosquitto_persistence"] = mark("mosquitto_persistence")
        extra["event_state"] = mark("event_state")
        code_file = run / "out" / "join-code"
        result["event_ready"] = (mark("event_ready") == "1" and code_file.exists()
                                 and (mark("mosquitto_state") or "").startswith("active"))
        if result["event_ready"]:
            code = code_file.read_text(encoding="utf-8").strip()
            log(f"event: a table on this host joins through 127.0.0.1:{machine.event_port}")
            tournament_table = TournamentTable(run, machine.event_port, code, args.seed)
            deadline = time.monotonic() + 300 * slow()
            joins = 1
            while not tournament_table.figures()[1] and time.monotonic() < deadline:
                if tournament_table.process.poll() is not None:
                    # a join the starved guest did not answer in time ends the service (the
                    # code stays valid all run long): try again, as a person would
                    if joins >= 3 or tournament_table.joined():
                        log("event: the table's service ended (see event-table.out)")
                        break
                    joins += 1
                    log(f"event: the table did not join (event-table.out); join {joins}")
                    tournament_table = TournamentTable(run, machine.event_port, code, args.seed)
                time.sleep(2)
            extra["event_joins"] = joins
            extra["event_first_ack"] = bool(tournament_table.figures()[1])

        # -- power cuts, then the final boot: verify, uninstall
        for cut in range(1, args.cuts + 2):
            assert machine.console is not None
            if cut > 1:
                final = cut == args.cuts + 1
                # after a cut, the games with entries acknowledged since the last check: each
                # entry is checked after the first cut that follows its acknowledgement
                (run / "out" / "export-games").write_text(
                    " ".join(str(g) for g in sorted(fresh_games)), encoding="utf-8")
                machine.boot("final" if final else "verify")
                if final and tournament_table is not None:
                    # the broker and the event host back by themselves; the table delivers
                    # what it still holds, then stops, and the guest exports the event journal
                    machine.wait_for(lambda c: "event_back" in c.marks, 300 * slow(),
                                     "the event after the last cut")
                    extra["event_back_final"] = mark("event_back")
                    deadline = time.monotonic() + 120 * slow()
                    while time.monotonic() < deadline:
                        made, acked_now = tournament_table.figures()
                        if made and made <= acked_now:
                            break
                        time.sleep(2)
                    extra["event_table_rc"] = tournament_table.stop()
                    made, event_acked = tournament_table.figures()
                    extra["event_made"] = len(made)
                    extra["event_pending"] = len(made - event_acked)
                    (run / "out" / "event-drained").touch()
                done = "done" if final else "verified"
                machine.wait_for(lambda c, d=done: d in c.marks, 300 * slow(), f"stage {done}")
                checked = {k: v for k, v in acks.items() if k in fresh_acks}
                verdict = check_exports(run / "out" / f"boot-{machine.boots}", checked)
                lost |= set(verdict["lost"])
                duplicated |= set(verdict["duplicated"])
                integrity_all &= verdict["integrity"] == "ok"
                log(f"after cut {cut - 1}: {len(checked)} acknowledged (games "
                    f"{sorted({g for g, _ in checked})}), {verdict['entries']} in the "
                    f"export, lost {len(verdict['lost'])}, duplicated "
                    f"{len(verdict['duplicated'])}, integrity {verdict['integrity']}")
                if not final:
                    extra.setdefault("event_back", []).append(mark("event_back"))
                if final:
                    if tournament_table is not None:
                        ev = check_event(run / "out" / f"boot-{machine.boots}", event_acked)
                        result["event_acknowledged"] = len(event_acked)
                        result["event_lost"] = len(ev["lost"])
                        result["event_duplicated"] = len(ev["duplicated"])
                        result["event_integrity_ok"] = ev["integrity"] == "ok"
                        extra["event_stored"] = ev["stored"]
                        log(f"event: {len(event_acked)} acknowledged to the table, "
                            f"{ev['stored']} in the event journal, lost {len(ev['lost'])}, "
                            f"duplicated {len(ev['duplicated'])}, integrity {ev['integrity']}")
                    break
            seen = len(machine.console.acks)
            machine.wait_for(lambda c, s=seen: len(c.acks) > s, 120 * slow(),
                             "an acknowledged entry", in_stage=False)
            time.sleep(rng.uniform(0.0, 3.0))
            machine.cut_power()
            result["power_cuts"] += 1
            fresh_acks = {(game, seq) for game, seq, _kind, _key in machine.console.acks}
            fresh_games = {game for game, _seq in fresh_acks}
            for game, seq, kind, key in machine.console.acks:
                acks[(game, seq)] = (kind, key)
        machine.wait_exit(120 * slow())
        extra["uninstall"] = {k: mark(k) for k in
                              ("uninstall_rc", "unit_known", "process_left", "dev_link_left",
                               "journal_kept")}
        diff = run / "out" / "uninstall-diff.txt"
        leftovers = diff.read_text(encoding="utf-8").splitlines() if diff.exists() else ["?"]
        # Mosquitto is Debian's, there before the install and left running after it: its
        # store (the event's retained messages, the tables' sessions) is the broker's own
        kept = ("/etc/showdown", "/var/lib/showdown", "/etc/passwd-", "/etc/group-",
                "/etc/shadow-", "/etc/gshadow-", "/var/lib/mosquitto/")
        unexpected = [line for line in leftovers if line.startswith(("<", ">"))
                      and not line[2:].startswith(kept)]
        extra["uninstall_leftovers"] = unexpected[:10]
        extra["uninstall_ok"] = (mark("uninstall_rc") == "0" and mark("unit_known") == "0"
                                 and mark("process_left") == "0" and mark("dev_link_left") == "0"
                                 and mark("journal_kept") == "1" and not unexpected)
    except Exception as error:  # still the JSON line, with what went wrong: the run fails
        log(f"harness error: {error!r}")
        extra["error"] = repr(error)
    finally:
        machine.cut_power()
        mcu.close()
        if tournament_table is not None:
            tournament_table.stop()
    result["acknowledged"] = len(acks)
    result["lost"] = len(lost)
    result["duplicated"] = len(duplicated)
    result["integrity_ok"] = integrity_all and result["power_cuts"] > 0
    result["seconds"] = round(time.monotonic() - started, 1)
    result.update(extra)
    print(json.dumps(result), flush=True)
    ok = ("error" not in extra and result["install_ok"] and result["notify_ready"]
          and result["watchdog_restarts"] >= 1
          and extra.get("watchdog_resumed") and extra.get("watchdog_in_time")
          and extra.get("check_ok")
          and extra.get("check_serial_ok") and result["udev_named"]
          and result["serial_duels"] == args.duels
          and result["serial_duels_correct"] == args.duels
          and result["power_cuts"] == args.cuts and result["acknowledged"] > 0
          and result["lost"] == 0 and result["duplicated"] == 0 and result["integrity_ok"]
          and extra.get("uninstall_ok")
          and result["event_ready"] and result["event_acknowledged"] > 0
          and result["event_lost"] == 0 and result["event_duplicated"] == 0
          and result["event_integrity_ok"])
    return 0 if ok else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
    sys.exit(130)
