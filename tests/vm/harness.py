"""Pi in a box, the host's side: boot a real Debian in QEMU and run the product there as a Pi would.

``make vm-test`` (the full set: 5 power cuts, 5 starved starts) and ``make vm-soak`` (50 cuts) run
this file with the project's venv; ``make vm-ci`` runs ``--set auto``: the full set where KVM
boots the guest, the shorter ``ci`` set under plain emulation (:data:`SETS`), saying which in one
line. It is the checklist of what a real install must do; each step's evidence lands in the run
folder (console logs, the guest's exports), and one JSON line at the end gives the verdicts:

1. the image (``build-image.sh``, cached) and the guest's wheels (``pip download``, cached);
2. boot ``main`` (``guest.sh``): ``deploy/install.sh``, the unit reaching ``active`` as
   ``Type=notify`` with its STATUS line, ``showdown check``, the installed command being the
   compiled launcher (a stop signal while Python starts ends it in one line), the phone pages
   fetched *here on the host* through forwarded ports, the watchdog (SIGUSR2 freezes the main
   loop), and in the full set the udev rule naming the board and showdowns played through QEMU's
   FTDI ``usb-serial`` against the simulated microcontroller running the real firmware *here*;
3. the event host (``install.sh --event-host``): Mosquitto and ``showdown-event`` under the
   guest's systemd, the broker stopping with the host; a simulated table *here on the host*
   (``showdown run --sim --event``) joins with the code the guest hands over, through QEMU's user
   network, which forwards loopback ports of this host to the guest's 1883 and its two pages and
   nothing else (``restrict=on``);
4. power cuts: the service scores a simulated game at a fast pace and logs each journal entry it
   has on disk to the serial console, while the host's table sends its event entries; the host
   kills QEMU at a random moment, boots again, and checks the guest's ``showdown export`` holds
   every such entry exactly once and that SQLite's ``integrity_check`` is ok; the last boot
   exports the event journal too (every entry the host acknowledged to the table there once,
   its integrity ok), then runs ``deploy/uninstall.sh`` and compares;
5. starved starts, before that last boot: one emulated core and 512 MB, a CPU hog started
   before the service; the service must send READY=1 within its ``TimeoutStartSec`` with no
   restart, and the JSON keeps how long it took and what took long (its own start-up line).

``--budget`` (or ``SHOWDOWN_VM_BUDGET_S``, which ``.ci/run`` sets to what is left of 75 minutes)
bounds the whole run: when it is spent, the run stops where it is and says so in one line, and
only a finished install that failed fails it (an emulated guest on a busy machine can take most
of an hour to install; the checks it did not reach are no verdict, not a pass).

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
import signal
import subprocess
import sys
import threading
import time
import tomllib
import urllib.error
import urllib.request
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
STARTED = re.compile(r"started in ([\d.]+) s: (.*)")
"""The service's start-up line (showdown.app.startup): its total and each phase's seconds."""
PROBE = "import time; t = time.perf_counter(); sum(i * i for i in range(1_000_000)); " \
        "print(round(time.perf_counter() - t, 3))"
"""The same Python work timed on this host and in the starved guest (the share's probe.py)."""


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


class BudgetSpentError(Exception):
    """The run's ``--budget`` ran out while waiting for what the message names."""


class Machine:
    """QEMU with the Debian kernel booted directly, the disk, two shares and the FTDI adapter."""

    def __init__(self, run: Path, cache: Path, mcu_tty: str, accel: str, *,
                 event_port: int = 0, page_ports: tuple[int, int] = (0, 0)) -> None:
        self.event_port = event_port
        """This host's loopback port that QEMU forwards to the guest's Mosquitto (1883)."""
        self.page_ports = page_ports
        """This host's loopback ports forwarded to the table's page (8080) and the event's
        (8081) in the guest."""
        self.run = run
        self.cache = cache
        self.mcu_tty = mcu_tty
        self.accel = accel
        self.process: subprocess.Popen[bytes] | None = None
        self.console: Console | None = None
        self.boots = 0
        self.deadline: float | None = None
        """When the run's budget is spent (``time.monotonic()``), if it has one."""

    def command(self, stage: str, extra: str, *, starved: bool = False) -> list[str]:
        """QEMU's command line; ``starved``: one core and 512 MB (a Pi Zero 2 W's memory), with
        the guest's CPU hog asked for on the kernel's command line."""
        # -cpu max under emulation: the wheels (numpy's, pygame's) need more than qemu64's SSE2
        accel = (["-accel", "kvm", "-cpu", "host"] if self.accel == "kvm"
                 else ["-accel", "tcg,thread=multi", "-cpu", "max"])
        console = self.run / f"console-{self.boots}.log"
        size = ["-m", "512", "-smp", "1"] if starved else ["-m", "1024", "-smp", "2"]
        if starved:
            extra = f"{extra} showdown_vm.hog=1".strip()
        table_page, event_page = self.page_ports
        return [
            "qemu-system-x86_64", *accel, "-machine", "q35", *size,
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
            # host reaches only its broker and its two pages, at loopback ports
            "-nic", f"user,model=virtio-net-pci,restrict=on,"
                    f"hostfwd=tcp:127.0.0.1:{self.event_port}-:1883,"
                    f"hostfwd=tcp:127.0.0.1:{table_page}-:8080,"
                    f"hostfwd=tcp:127.0.0.1:{event_page}-:8081",
            "-display", "none", "-vga", "none", "-no-reboot",
        ]

    def boot(self, stage: str, extra: str = "", *, starved: bool = False) -> Console:
        self.boots += 1
        command = self.command(stage, extra, starved=starved)
        self.console = Console(self.run / f"console-{self.boots}.log")
        log(f"boot {self.boots}: stage {stage} ({self.accel}{', starved' if starved else ''})")
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

    def check_budget(self, label: str) -> None:
        """Raise :class:`BudgetSpentError` (naming *label*, what was awaited) once the run's
        budget is spent."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetSpentError(label)

    def wait_for(
        self, what: Callable[[Console], bool], timeout: float, label: str, *, in_stage: bool = True
    ) -> bool:
        """Poll the console until *what* holds; False on timeout, when QEMU ended, or (for a
        step of the guest's script, *in_stage*) when that script has ended without it."""
        assert self.console is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_budget(label)
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


def patience(accel: str, load: float | None = None, cpus: int | None = None) -> float:
    """How many times longer than under KVM a step may take before it counts as hung: plain
    emulation runs the guest about four times slower on a quiet host, and slower again on a busy
    one (``install.sh`` took 15 min at a load average of 10 on two cores, and over 40 min at 14),
    in proportion to the runnable processes per core past three."""
    if accel == "kvm":
        return 1.0
    load = os.getloadavg()[0] if load is None else load
    cpus = cpus or os.cpu_count() or 1
    return 4.0 * max(1.0, load / cpus / 3)


def choose_accel(requested: str) -> str:
    if requested != "auto":
        return requested
    why = kvm_unusable()
    if why:
        log(f"plain emulation: {why}")
        return "tcg"
    return "kvm"


# -- which checks: the full set, or CI's shorter one under plain emulation -------------------


@dataclass(frozen=True)
class CheckSet:
    """What one run checks. Every set installs, checks the running install (notify, the
    launcher, the pages, the watchdog), hosts the event, cuts the power and uninstalls."""

    name: str
    cuts: int
    duels: int
    """Serial showdowns; with none, the udev and serial checks are left out (minutes under
    emulation)."""
    starved: int
    """Starved starts (one core, a CPU hog): each must reach READY=1 in time."""

    def describe(self) -> str:
        """The checks in words, for the one line that says which set runs."""
        parts = ["install", "notify", "launcher", "phone pages", "watchdog"]
        if self.duels:
            parts += ["udev", f"{self.duels} serial showdowns"]
        parts += ["the event host and its broker",
                  f"{self.cuts} power cut{'s' * (self.cuts != 1)}",
                  f"{self.starved} starved start{'s' * (self.starved != 1)}", "uninstall"]
        return ", ".join(parts)


SETS = {
    "full": CheckSet("full", cuts=5, duels=6, starved=5),
    # Plain emulation on CI's loaded two cores: the full set took 78 min there, past what
    # .ci/run may spend after make test (docs/deploy.md has the figures of both).
    "ci": CheckSet("ci", cuts=1, duels=0, starved=1),
}


def choose_set(requested: str, accel: str, why_not_kvm: str = "", *, cuts: int | None = None,
               duels: int | None = None, starved: int | None = None) -> tuple[CheckSet, str]:
    """The set to run and the one line that says which, and why: ``auto`` is the full set
    under KVM and the shorter ``ci`` set under plain emulation (``why_not_kvm``); ``cuts``,
    ``duels`` and ``starved`` change the chosen set's figures (``make vm-soak``)."""
    if requested == "auto":
        requested = "full" if accel == "kvm" else "ci"
        why = "KVM" if accel == "kvm" else f"plain emulation: {why_not_kvm or accel}"
    else:
        why = f"--set {requested}"
    chosen = SETS[requested]
    chosen = CheckSet(chosen.name, chosen.cuts if cuts is None else cuts,
                      chosen.duels if duels is None else duels,
                      chosen.starved if starved is None else starved)
    line = f"vm checks: the {chosen.name} set ({why}): {chosen.describe()}"
    if chosen.name != "full":
        line += "; make vm-test runs the full set"
    return chosen, line


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


# -- the launcher, the pages, the broker, the starved starts: verdicts from the guest's marks ---


def launcher_verdict(marks: dict[str, str]) -> bool:
    """The installed command is the compiled launcher, and every stop signal sent while it
    started ended it cleanly (one line, or done), at least one of them during its start."""
    trials = (marks.get("launcher_trials") or "").split()
    if marks.get("launcher_compiled") != "1" or len(trials) != 5 or trials[1] != "clean":
        return False
    count, clean, stopped = int(trials[0]), int(trials[2]), int(trials[4])
    return count > 0 and clean == count and stopped >= 1


def fetch(port: int, timeout: float) -> tuple[int, str]:
    """(HTTP status, body) of ``http://127.0.0.1:PORT/``, fetched here; (0, why) when none came
    within *timeout* (QEMU accepts on the forwarded port even when nothing in the guest does)."""
    deadline = time.monotonic() + timeout
    why = "not tried"
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as answer:
                return int(answer.status), answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return int(error.code), ""
        except (OSError, urllib.error.URLError) as error:
            why = str(error)
        time.sleep(2)
    return 0, why


def page_verdict(status: int, body: str, kind: str) -> bool:
    """The page a phone gets: the table's (its standings' part) or the event's (no table)."""
    if status != 200:
        return False
    if kind == "table":
        return 'id="part-table"' in body
    return 'id="part-event"' in body and 'id="part-table"' not in body


def broker_verdict(marks: dict[str, str]) -> bool:
    """Mosquitto stopped with the event host (nothing on 1883) and came back with it."""
    return (marks.get("broker_after_host_stop") == "inactive listening 0"
            and marks.get("broker_after_host_start") == "active listening 1")


def started_phases(line: str) -> tuple[float | None, dict[str, float]]:
    """The service's start-up line: its total seconds and each phase's (None: no line)."""
    found = STARTED.search(line)
    if found is None:
        return None, {}
    phases = {name.strip(): float(seconds) for name, seconds
              in re.findall(r"([^,]+?) ([\d.]+) s(?=,|$)", found.group(2))}
    return float(found.group(1)), phases


def starved_verdict(marks: dict[str, str]) -> dict[str, Any]:
    """One starved boot: when READY=1 came (from the unit's activation, restarts included).
    In time means active before systemd's start timeout stopped it (``TimeoutStartSec``, which
    the service's own word extends while its start goes on: ``extended`` says it had to), with
    no restart (neither the start timeout's nor the watchdog's, up to the stop), then a clean
    stop within TimeoutStopSec, the hog still running."""
    unit = dict(item.split("=", 1) for item in (marks.get("starved_unit") or "").split()
                if "=" in item)

    def seconds(key: str) -> float:
        return int(unit.get(key) or 0) / 1e6

    hog = (marks.get("starved_hog") or "").split()
    ready_s = None
    if unit.get("ActiveState") == "active" and seconds("ActiveEnterTimestampMonotonic") > 0:
        ready_s = round(seconds("ActiveEnterTimestampMonotonic")
                        - seconds("InactiveExitTimestampMonotonic"), 1)
    timeout_s = parse_timespan(unit.get("TimeoutStartUSec", ""))
    total, phases = started_phases(marks.get("starved_line") or "")
    restarts = int(unit.get("NRestarts") or 0)
    stop = (marks.get("starved_stop") or "").split()
    stop_s = _float(stop[0]) if stop else None
    stop_limit = parse_timespan(stop[stop.index("limit") + 1]) if "limit" in stop[:-1] else None
    # still no restart when the stop began (a watchdog kill meanwhile), and a stop of its own
    stopped = (stop[1:5] == ["result", "success", "restarts", "0"] and stop_s is not None
               and stop_limit is not None and stop_s <= stop_limit)
    return {
        "ready_s": ready_s, "timeout_s": timeout_s, "restarts": restarts,
        "result": unit.get("Result"), "stop_s": stop_s, "stopped": stopped,
        "extended": (ready_s is not None and timeout_s is not None and ready_s > timeout_s),
        "in_time": ready_s is not None and restarts == 0 and stopped,
        "hog": hog[:1] == ["active"], "cpus": hog[hog.index("cpus") + 1] if "cpus" in hog else "",
        "service_start_s": total, "phases": phases,
        "boot": marks.get("starved_boot"), "jobs_left": marks.get("starved_jobs"),
        "python_s": _float(marks.get("starved_python_s")),
    }


def parse_timespan(text: str) -> float | None:
    """systemd's time span as ``systemctl show`` prints it (``1min 30s``, ``90s``, ``500ms``)."""
    units = {"min": 60.0, "s": 1.0, "ms": 0.001, "us": 1e-6, "h": 3600.0}
    total, found = 0.0, False
    for number, unit in re.findall(r"([\d.]+)\s*(min|ms|us|h|s)", text):
        total += float(number) * units[unit]
        found = True
    return total if found else None


def _float(text: str | None) -> float | None:
    try:
        return float(text) if text else None
    except ValueError:
        return None


def failures(result: dict[str, Any], extra: dict[str, Any], plan: CheckSet) -> list[str]:
    """The checks of *plan* the run failed, by their JSON field (none: it passed). A broken
    install fails every one after it: ``make vm-ci``, and with it CI, fails. A run whose budget
    was spent fails only on an install that finished and failed."""
    if "budget_spent" in extra:
        return ["install_ok"] if extra.get("install_rc") not in (None, "0") else []
    checks = {
        "error": "error" not in extra,
        "install_ok": result["install_ok"],
        "notify_ready": result["notify_ready"],
        "check_ok": bool(extra.get("check_ok")),
        "launcher_ok": result["launcher_ok"],
        "page_ok": result["page_ok"],
        "watchdog_restarts": result["watchdog_restarts"] >= 1
        and bool(extra.get("watchdog_resumed")) and bool(extra.get("watchdog_in_time")),
        "power_cuts": result["power_cuts"] == plan.cuts and result["acknowledged"] > 0,
        "lost": result["lost"] == 0 and result["duplicated"] == 0 and result["integrity_ok"],
        "event_ready": result["event_ready"] and result["event_acknowledged"] > 0,
        "broker_ok": result["broker_ok"],
        "event_lost": result["event_lost"] == 0 and result["event_duplicated"] == 0
        and result["event_integrity_ok"],
        "starved_in_time": result["starved_boots"] == plan.starved
        and result["starved_in_time"] == plan.starved,
        "uninstall_ok": bool(extra.get("uninstall_ok")),
    }
    if plan.duels:
        checks["udev_named"] = result["udev_named"] and bool(extra.get("check_serial_ok"))
        checks["serial_duels"] = (result["serial_duels"] == plan.duels
                                  and result["serial_duels_correct"] == plan.duels)
    return [name for name, passed in checks.items() if not passed]


def python_probe() -> float:
    """:data:`PROBE` timed on this host, to set beside the starved guest's figure."""
    out = subprocess.run([sys.executable, "-c", PROBE], check=True, capture_output=True,
                         text=True).stdout
    return float(out.strip())


# -- the run ----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=("auto", *SETS), default="full",
                        help="full (make vm-test), ci (the shorter set), or auto: full under "
                             "KVM, ci under plain emulation (make vm-ci)")
    parser.add_argument("--cuts", type=int, help="power cuts (the set's, at least 1)")
    parser.add_argument("--duels", type=int, help="serial showdowns (0: no udev or serial checks)")
    parser.add_argument("--starved", type=int, help="starved starts")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--accel", choices=("auto", "kvm", "tcg"), default="auto")
    parser.add_argument("--budget", type=float, default=os.environ.get("SHOWDOWN_VM_BUDGET_S"),
                        help="seconds the whole run may take: spent, it stops where it is, and "
                             "only an install that finished and failed fails it (default "
                             "$SHOWDOWN_VM_BUDGET_S, else none)")
    args = parser.parse_args()
    if args.cuts is not None and args.cuts < 1:
        parser.error("--cuts must be at least 1")
    started = time.monotonic()
    rng = random.Random(args.seed)
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    accel = choose_accel(args.accel)
    plan, line = choose_set(args.set, accel, kvm_unusable() if args.accel == "auto" else "",
                            cuts=args.cuts, duels=args.duels, starved=args.starved)
    log(line)
    result: dict[str, Any] = {
        "set": plan.name, "install_ok": False, "notify_ready": False, "launcher_ok": False,
        "page_ok": False, "watchdog_restarts": 0, "udev_named": False,
        "serial_duels": 0, "serial_duels_correct": 0, "power_cuts": 0, "acknowledged": 0,
        "lost": 0, "duplicated": 0, "integrity_ok": False, "event_ready": False,
        "broker_ok": False, "event_acknowledged": 0, "event_lost": 0, "event_duplicated": 0,
        "event_integrity_ok": False, "starved_in_time": 0, "starved_boots": 0, "seconds": 0.0,
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
    (run / "share" / "probe.py").write_text(PROBE + "\n", encoding="utf-8")
    extra["host_python_s"] = python_probe()
    subprocess.run(["cp", "--sparse=always", str(cache / "rootfs.raw"), str(run / "disk.raw")],
                   check=True)
    log(f"run folder {run} (console logs, the guest's exports); seed {args.seed}")

    mcu = SimulatedMcu(link_path=run / "board", seed=args.seed).start()
    table = HostTable(mcu, rng)
    machine = Machine(run, cache, os.path.realpath(mcu.port), accel,
                      event_port=free_port(), page_ports=(free_port(), free_port()))
    tournament_table: TournamentTable | None = None
    event_acked: set[tuple[str, str, int]] = set()
    extra["accel"] = machine.accel
    if args.budget is not None:
        machine.deadline = started + args.budget
        extra["budget_s"] = args.budget
    acks: dict[tuple[int, int], tuple[str, str]] = {}
    lost: set[tuple[int, int, str, str]] = set()
    duplicated: set[tuple[int, int, str, str]] = set()
    integrity_all = True
    fresh_games: set[int] = set()
    fresh_acks: set[tuple[int, int]] = set()

    def slow() -> float:  # plain emulation runs the guest several times slower
        return patience(machine.accel)

    def mark(name: str) -> str | None:
        assert machine.console is not None
        machine.console.poll()
        return machine.console.marks.get(name)

    def main_boot() -> Console:
        return machine.boot("main", f"showdown_vm.duels={plan.duels} "
                                    f"showdown_vm.serial={int(plan.duels > 0)}")

    def starved_boot() -> None:
        """One starved start (guest.sh's stage starved), then the guest powers off."""
        machine.boot("starved", starved=True)
        machine.wait_for(lambda c: "starved_done" in c.marks, 1800 * slow(), "a starved start")
        assert machine.console is not None
        verdict = starved_verdict(machine.console.marks)
        if not machine.wait_exit(120 * slow()):
            machine.cut_power()
        result["starved_boots"] += 1
        result["starved_in_time"] += bool(verdict["in_time"])
        extra.setdefault("starved", []).append(verdict)
        log(f"starved start {result['starved_boots']}: READY=1 after {verdict['ready_s']} s "
            f"(TimeoutStartSec {verdict['timeout_s']} s, restarts {verdict['restarts']}), "
            f"stopped in {verdict['stop_s']} s ({verdict['stopped']}); the service's own "
            f"start {verdict['service_start_s']} s: {verdict['phases']}")

    def serial_checks() -> None:
        """The udev rule named the board; showdowns played through it (the full set)."""
        assert machine.console is not None
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
            while result["serial_duels"] < plan.duels and attempts < 3 * plan.duels:
                attempts += 1
                before = len(machine.console.verdicts)
                expected = table.duel()
                if expected is None:
                    log("serial duel: no green light from the service; again after a pause")
                    time.sleep(15)
                    continue
                if machine.wait_for(lambda c, n=before: len(c.verdicts) > n, 30 * slow(),
                                    "the service's verdict"):
                    result["serial_duels"] += 1
                    got = machine.console.verdicts[before][1]
                    result["serial_duels_correct"] += got == expected
                    log(f"serial duel: expected {expected}, the service said {got}")
                else:
                    time.sleep(15)
                time.sleep(2.5)  # the launcher's cool-down
            extra["serial_duel_attempts"] = attempts

    try:
        # -- boot 1: install and every check of a running install
        console = main_boot()
        if machine.accel == "kvm" and not machine.wait_for(
                lambda c: c.kernel_seen, 30, "the kernel's first line under KVM"):
            log("KVM is there but did not boot the kernel (nested KVM?): plain emulation instead")
            machine.cut_power()
            machine.accel = extra["accel"] = "tcg (kvm failed to boot)"
            if args.set == "auto":
                plan, line = choose_set("auto", "tcg", "KVM did not boot the kernel",
                                        cuts=args.cuts, duels=args.duels, starved=args.starved)
                result["set"] = plan.name
                log(line)
            machine.boots = 0
            console = main_boot()
        machine.wait_for(lambda c: "install_rc" in c.marks, 600 * slow(), "deploy/install.sh")
        result["install_ok"] = mark("install_rc") == "0"
        extra["install_rc"] = mark("install_rc")
        if (install_s := mark("install_s")) is not None and install_s.isdigit():
            extra["install_s"] = int(install_s)  # deploy/install.sh, timed by the guest
        machine.wait_for(lambda c: "check_traceback" in c.marks, 180 * slow(), "the unit's start")
        extra["unit_status_text"] = mark("unit_status_text")
        first_s, first_phases = started_phases(mark("first_start") or "")
        extra["first_start"] = {"service_start_s": first_s, "phases": first_phases}
        result["notify_ready"] = (mark("unit_type") == "notify" and mark("unit_state") == "active"
                                  and mark("status_line_shown") == "1")
        extra["check_ok"] = mark("check_traceback") == "0" and mark("check_rc") in ("0", "1", "2")
        machine.wait_for(lambda c: "launcher_trials" in c.marks, 180 * slow(), "the launcher")
        extra["launcher_command"] = mark("launcher_command")
        extra["launcher_trials"] = mark("launcher_trials")
        result["launcher_ok"] = launcher_verdict(console.marks)
        # -- the phone pages, from here: the table's and the event's, through forwarded ports
        machine.wait_for(lambda c: "page_listening" in c.marks, 360 * slow(), "the pages")
        extra["page_listening"] = mark("page_listening")
        pages = {}
        for kind, port in zip(("table", "event"), machine.page_ports, strict=True):
            status, body = fetch(port, 60 * slow())
            (run / f"page-{kind}.html").write_text(body, encoding="utf-8")
            pages[kind] = page_verdict(status, body, kind)
            extra[f"{kind}_page_status"] = status
        result["page_ok"] = all(pages.values())
        (run / "out" / "page-fetched").touch()
        machine.wait_for(lambda c: "watchdog_resumed" in c.marks, 180 * slow(), "the watchdog")
        result["watchdog_restarts"] = int(mark("watchdog_restarts") or 0)
        extra["watchdog_resumed"] = mark("watchdog_resumed") == "1"
        # systemd pings are WatchdogSec/2 apart: the kill must come within WatchdogSec of the
        # freeze (the console's timestamps are the guest's own uptime)
        if console.frozen_at is not None and console.killed_at is not None:
            extra["watchdog_kill_after_s"] = round(console.killed_at - console.frozen_at, 2)
        kill_after = extra.get("watchdog_kill_after_s", -1.0)
        extra["watchdog_in_time"] = 0 <= kill_after <= WATCHDOG_SEC + 0.5
        if plan.duels:
            serial_checks()
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
        extra["broker"] = [mark("broker_after_host_stop"), mark("broker_after_host_start")]
        result["broker_ok"] = broker_verdict(console.marks)
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
                machine.check_budget("the host's table")
                time.sleep(2)
            extra["event_joins"] = joins
            extra["event_first_ack"] = bool(tournament_table.figures()[1])

        # -- power cuts, then the final boot: verify, uninstall
        for cut in range(1, plan.cuts + 2):
            assert machine.console is not None
            if cut > 1:
                final = cut == plan.cuts + 1
                if final:  # starved starts, the first of them after the last cut
                    for _ in range(plan.starved):
                        starved_boot()
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
                        machine.check_budget("the host's table")
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
    except BudgetSpentError as spent:
        extra["budget_spent"] = f"{spent} ({time.monotonic() - started:.0f} s)"
        log(f"vm checks: the budget ({args.budget:.0f} s) was spent waiting for {spent}: "
            f"what came before stands, the rest is no verdict")
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
    failed = failures(result, extra, plan)
    if failed:
        log(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    # SIGTERM (a CI job cancelled) unwinds as Ctrl-C does: QEMU and the host's table are stopped
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(143))
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
    sys.exit(130)
