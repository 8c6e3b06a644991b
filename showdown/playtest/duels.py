"""Many showdowns between virtual players on a simulated unit, checked against ground truth.

The runner jumps the clock over the countdown's seconds but never over a race: each press is
posted with its own timestamp at that moment of the clock and delivered by the wiring's thread,
and the runner waits for it to be handled before it jumps again, so the latency from a press to the
launcher is real, measured while ``load_threads`` threads keep the CPU busy (a Pi drawing frames).
When waiting took longer than the simulated moments in between (a slow or lossy serial line), the
clock has run past them: the runner then takes what is due one at a time, earliest first, each
edge stamped when it was meant to happen, so late delivery never squeezes two presses into a tie.

Ground truth is the simulator's: the press times it injected and where the cards really landed.
A decided duel is correct when its winner is who the rules give it to from that truth. On the
serial back end a :class:`~hw_sim.faults.FaultPlan` damages the line and replugs or resets the
microcontroller mid-showdown; the report then also says how many showdowns the unit voided and
whether every launch belonged to a race it decided.
"""

from __future__ import annotations

import hashlib
import heapq
import os
import random
import statistics
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from hw_sim.faults import FaultPlan
from hw_sim.launcher_model import Throw
from hw_sim.players import VirtualPlayer, make_players
from hw_sim.sim_unit import SimulatedUnit, make_sim_unit
from showdown.unit.clock import ms, to_ms
from showdown.unit.config import UnitSettings
from showdown.unit.events import Armed, Go, PaddleHeld, ShowdownEvent, ShowdownOutcome
from showdown.unit.hardware import InputLine, Side
from showdown.unit.machine import ShowdownMachine
from showdown.unit.realtime import shorten_gil_switch_interval
from showdown.unit.verdict import Reason

__all__ = ["DuelReport", "busy_threads", "run_duels"]

PRESS_HOLD_MS = 120.0  # how long a paddle stays down
STEP_LIMIT = 100_000  # a duel needing more clock steps than this is stuck
LATE_NS = ms(1)  # an edge posted this long after it was meant to happen keeps its planned stamp
PATIENCE_S = 10.0  # real time for the unit to carry an edge through; more on a faulty line
FAULTY_PATIENCE_S = 300.0
MAX_REARMS = 3  # timer presses lost in a reset, pressed again
LAUNCHED_BY_RACE = (Reason.RACE, Reason.SIDE_COUNT)
"""The results whose showdown fires the launcher (a false start launches nothing)."""


@dataclass
class DuelReport:
    """The figures of a run (see :meth:`as_dict`).

    ``launches``: every throw of the launcher. ``missed_launches``: races decided with cards
    loaded whose launcher did not fire exactly once. ``stray_launches``: throws outside a
    launching showdown's go-to-result (0 is the safety rule). ``voided``: showdowns the unit voided
    because it lost contact with its inputs (nothing recorded: replay). ``rearms``: timer-button
    presses the unit never heard (lost in a reset), pressed again. ``results_missing`` and
    ``results_duplicated``: armed showdowns without exactly one result (0 and 0). ``line``: what
    the serial line went through (resets, replugs, reconnects, damaged bytes...); empty on gpio.
    """

    duels: int = 0
    decided: int = 0
    decided_correctly: int = 0
    false_starts: int = 0
    ties: int = 0
    replays: int = 0
    timeouts: int = 0
    jams: int = 0
    faults: int = 0
    voided: int = 0
    rearms: int = 0
    arm_refusals: int = 0
    launches: int = 0
    missed_launches: int = 0
    stray_launches: int = 0
    results_missing: int = 0
    results_duplicated: int = 0
    press_to_launch_ns: list[int] = field(default_factory=list)
    wrong: list[dict[str, Any]] = field(default_factory=list)
    launch_problems: list[dict[str, Any]] = field(default_factory=list)
    line: dict[str, int] = field(default_factory=dict)

    @property
    def wrong_winners(self) -> int:
        """Decided showdowns whose winner is not the one the ground truth gives."""
        return self.decided - self.decided_correctly

    def latency_ms(self) -> dict[str, float | None]:
        """p50, p99 and max of press-to-launch, in ms."""
        values = sorted(self.press_to_launch_ns)
        if not values:
            return {"p50": None, "p99": None, "max": None}
        p99_index = min(len(values) - 1, max(0, round(0.99 * len(values)) - 1))
        return {
            "p50": round(to_ms(round(statistics.median(values))), 4),
            "p99": round(to_ms(values[p99_index]), 4),
            "max": round(to_ms(values[-1]), 4),
        }

    def as_dict(self) -> dict[str, Any]:
        """The JSON object ``showdown sim duels --json`` prints."""
        return {
            "duels": self.duels,
            "decided": self.decided,
            "decided_correctly": self.decided_correctly,
            "false_starts": self.false_starts,
            "ties": self.ties,
            "replays": self.replays,
            "timeouts": self.timeouts,
            "jams": self.jams,
            "faults": self.faults,
            "voided": self.voided,
            "rearms": self.rearms,
            "wrong_winners": self.wrong_winners,
            "arm_refusals": self.arm_refusals,
            "launches": self.launches,
            "missed_launches": self.missed_launches,
            "stray_launches": self.stray_launches,
            "results_missing": self.results_missing,
            "results_duplicated": self.results_duplicated,
            "press_to_launch_ms": self.latency_ms(),
            "wrong": self.wrong[:10],
            "launch_problems": self.launch_problems[:10],
            "line": dict(self.line),
        }


@contextmanager
def busy_threads(count: int, kind: str = "frames", nice: int = 0) -> Iterator[None]:
    """*count* daemon threads keeping the CPU busy until the block ends.

    ``"frames"`` models a scoreboard drawing frames: a little Python bookkeeping, then a long
    stretch of C work that releases the GIL (as pygame's blits and flips do), hashing a 1 MB
    buffer. ``"python"`` is the worst case: pure-Python loops that hold the GIL all the time.
    """
    if kind not in ("frames", "python"):
        raise ValueError(f"unknown load kind {kind!r} (frames, python)")
    stop = threading.Event()
    buffer = bytes(1 << 20)

    def spin() -> None:
        if nice:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        while not stop.is_set():
            total = 0
            for i in range(5_000 if kind == "python" else 50):
                total += i * i
            if kind == "frames":
                hashlib.sha256(buffer).digest()

    threads = [threading.Thread(target=spin, name=f"load-{i}", daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=5)


def expected_outcome(
    presses: dict[Side, int],
    go_ns: int | None,
    landed: dict[Side, int] | None,
    settings: UnitSettings,
) -> tuple[Side | None, Side | None]:
    """(winner, loser) that the rules give from the ground truth; (None, None) for a replay."""
    timing = settings.timing
    early = {
        side: at
        for side, at in presses.items()
        if go_ns is None or at - go_ns < ms(timing.anticipation_ms)
    }
    if early:
        ordered = sorted(early.items(), key=lambda item: item[1])
        if len(ordered) == 2 and ordered[0][1] == ordered[1][1]:
            return None, None
        return ordered[0][0].other, ordered[0][0]
    if not presses:
        return None, None
    if len(presses) == 2 and abs(presses[Side.LEFT] - presses[Side.RIGHT]) < ms(
        timing.tie_window_ms
    ):
        landed = landed or {}
        left, right = landed.get(Side.LEFT, 0), landed.get(Side.RIGHT, 0)
        if left == right:
            return None, None
        loser = Side.LEFT if left > right else Side.RIGHT
        return loser.other, loser
    first = min(presses, key=lambda side: presses[side])
    return first, first.other


class _Duel:
    """One showdown driven to its result."""

    def __init__(
        self,
        *,
        unit: SimulatedUnit,
        machine: ShowdownMachine,
        settings: UnitSettings,
        rng: random.Random,
        players: tuple[VirtualPlayer, VirtualPlayer],
        inbox: list[ShowdownEvent],
        patience_s: float = PATIENCE_S,
    ) -> None:
        self.unit = unit
        self.patience_s = patience_s
        self.go_ns: int | None = None
        self.machine = machine
        self.settings = settings
        self.rng = rng
        self.players = dict(zip(Side, players, strict=True))
        self.inbox = inbox
        self.pending: list[tuple[int, int, InputLine, bool]] = []
        self.truth: dict[Side, int] = {}
        self.rearms = 0
        self._seq = 0

    def _plan(self, at_ns: int, line: InputLine, active: bool) -> None:
        self._seq += 1
        heapq.heappush(self.pending, (at_ns, self._seq, line, active))

    def _plan_press(self, side: Side, at_ns: int) -> None:
        self._plan(at_ns, InputLine.paddle(side), True)
        self._plan(at_ns + ms(PRESS_HOLD_MS), InputLine.paddle(side), False)

    def _start(self, arm_at: int) -> None:
        """The timer button pressed at *arm_at*, and the presses of players who jump the gun."""
        timing = self.settings.timing
        self._plan(arm_at, InputLine.TIMER_BUTTON, True)
        self._plan(arm_at + ms(50), InputLine.TIMER_BUTTON, False)
        earliest_go_ms = timing.beats * timing.beat_period_ms + timing.hold_min_ms
        for side, player in self.players.items():
            if player.jumps_the_gun(self.rng):
                self._plan_press(side, arm_at + ms(self.rng.uniform(100, earliest_go_ms - 1)))

    def run(self) -> tuple[ShowdownOutcome | None, bool]:
        clock = self.unit.clock
        showdown_before = self.machine.showdown_id
        self._start(clock.now_ns())
        reactions_planned = False
        result: ShowdownOutcome | None = None
        refused = False
        for _ in range(STEP_LIMIT):
            if not self.unit.wait_idle(self.patience_s):
                raise RuntimeError("the simulated unit stopped delivering edges")
            for event in self._drain():
                if isinstance(event, ShowdownOutcome) and event.showdown_id > showdown_before:
                    result = event
                elif isinstance(event, PaddleHeld):
                    refused = True
                elif isinstance(event, Go) and not reactions_planned:
                    reactions_planned = True
                    self.go_ns = event.at_ns
                    for side, player in self.players.items():
                        if side not in self.truth and not player.misses(self.rng):
                            self._plan_press(side, event.at_ns + ms(player.reaction_ms(self.rng)))
            if result is not None or refused:
                break
            next_edge = self.pending[0][0] if self.pending else None
            next_timer = clock.next_deadline_ns()
            if next_edge is not None and (next_timer is None or next_edge <= next_timer):
                if next_edge > clock.now_ns():
                    clock.advance_to(next_edge)  # (when overrun, nothing else runs on the way)
                now = clock.now_ns()
                until = now if next_timer is None else min(now, next_timer)
                while self.pending and self.pending[0][0] <= until:
                    planned, _, line, active = heapq.heappop(self.pending)
                    # stamped as it is queued: the edge happens when the hand gets there (or
                    # when it was meant to, if waiting on the line made the clock overrun it)
                    late = now - planned > LATE_NS
                    stamp = self.unit.edge(line, active, planned if late else None)
                    pressed = line.side
                    if line.is_paddle and active and pressed is not None:
                        self.truth.setdefault(pressed, stamp)
            elif next_timer is not None and next_timer <= clock.now_ns():
                clock.run_next_due()
            elif next_timer is not None:
                clock.advance_to(next_timer)
            elif self.machine.showdown_id == showdown_before and self.rearms < MAX_REARMS:
                # The unit never heard the timer button (a reset lost the press before it was
                # sent): nothing happened, so the players press it again, as they would.
                self.rearms += 1
                self.truth.clear()
                self._start(clock.now_ns())
            else:
                raise RuntimeError("nothing can ever happen again in this duel")
        # let go of everything still held before the next duel
        while self.pending:
            at_ns, _, line, active = heapq.heappop(self.pending)
            if not active:
                clock.advance_to(at_ns)
                self.unit.edge(line, active, at_ns)
        self.unit.wait_idle(self.patience_s)
        self._drain()
        return result, refused

    def _drain(self) -> list[ShowdownEvent]:
        events, self.inbox[:] = list(self.inbox), []
        return events


def run_duels(
    count: int,
    seed: int,
    *,
    load_threads: int = 0,
    load_kind: str = "frames",
    load_nice: int = 19,
    backend: str = "gpio",
    settings: UnitSettings | None = None,
    progress: Callable[[int, int], None] | None = None,
    faults: FaultPlan | None = None,
    watch: Callable[[ShowdownMachine], object] | None = None,
) -> DuelReport:
    """Run *count* seeded duels on a simulated unit and check each against ground truth;
    *faults* (serial back end only) hit the line between the host and the microcontroller;
    *watch* is given the state machine before the first duel (a page that mirrors it)."""
    settings = settings or UnitSettings()
    rng = random.Random(seed)
    unit = make_sim_unit(backend, settings, seed=seed, faults=faults)
    patience_s = FAULTY_PATIENCE_S if faults is not None and faults.active else PATIENCE_S
    machine = ShowdownMachine(unit.hardware, settings, rng=random.Random(seed + 1))
    inbox: list[ShowdownEvent] = []
    lock = threading.Lock()
    armed: set[int] = set()
    outcomes: list[int] = []

    def receive(event: ShowdownEvent) -> None:
        with lock:
            inbox.append(event)
            if isinstance(event, Armed):
                armed.add(event.showdown_id)
            elif isinstance(event, ShowdownOutcome):
                outcomes.append(event.showdown_id)

    machine.subscribe(receive)
    if watch is not None:
        watch(machine)
    players = make_players(8, rng)
    switch_interval = sys.getswitchinterval()
    shorten_gil_switch_interval(settings.gil_switch_interval_ms)
    report = DuelReport()
    try:
        with busy_threads(load_threads, load_kind, load_nice):
            for index in range(count):
                pair = rng.sample(players, 2)
                cards = rng.randint(1, 4)
                machine.load(pair[0].name, pair[1].name, cards)
                unit.load_launcher(cards)
                throws_before = len(unit.throws())
                trouble_before = Counter(unit.launch_trouble())
                duel = _Duel(
                    unit=unit,
                    machine=machine,
                    settings=settings,
                    rng=rng,
                    players=(pair[0], pair[1]),
                    inbox=inbox,
                    patience_s=patience_s,
                )
                result, refused = duel.run()
                report.duels += 1
                report.rearms += duel.rearms
                if refused:
                    report.arm_refusals += 1
                throws = unit.throws()[throws_before:]
                trouble = list((Counter(unit.launch_trouble()) - trouble_before).elements())
                _count_launches(report, throws, duel.go_ns, result, trouble)
                if result is not None:
                    landed = throws[-1].landed if throws else None
                    _score(report, result, duel.truth, landed, settings)
                # past the launcher's cool-down before the next arm
                unit.clock.advance(ms(settings.timing.launcher_cooldown_ms))
                if progress is not None:
                    progress(index + 1, count)
        report.line = unit.line_figures()
    finally:
        machine.close()
        unit.close()
        sys.setswitchinterval(switch_interval)
    report.results_missing = len(armed - set(outcomes))
    report.results_duplicated = len(outcomes) - len(set(outcomes))
    return report


def _count_launches(
    report: DuelReport,
    throws: list[Throw],
    go_ns: int | None,
    result: ShowdownOutcome | None,
    trouble: list[str] | None = None,
) -> None:
    """Every throw of one duel must be its race's one launch: after go, before the result, in a
    showdown that launches; a race decided with cards loaded must have exactly one. A problem
    is kept with what the unit said meanwhile (*trouble*: refusals, withdrawn commands)."""
    report.launches += len(throws)
    launching = result is not None and (
        result.reason in (*LAUNCHED_BY_RACE, Reason.TIE, Reason.VOID, Reason.FAULT)
    )
    inside = [
        throw for throw in throws
        if launching and go_ns is not None and result is not None
        and go_ns <= throw.at_ns <= result.at_ns
    ]
    report.stray_launches += len(throws) - len(inside)
    missed = (result is not None and result.reason in LAUNCHED_BY_RACE
              and bool(result.cards_loaded) and len(inside) != 1)
    report.missed_launches += missed
    if missed or len(throws) != len(inside):
        report.launch_problems.append({
            "showdown_id": None if result is None else result.showdown_id,
            "reason": None if result is None else result.reason.value,
            "go_ns": go_ns,
            "result_ns": None if result is None else result.at_ns,
            "launcher_on_ns": None if result is None else result.launcher_on_ns,
            "throws_ns": [throw.at_ns for throw in throws],
            "unit_said": trouble or [],
        })


def _score(
    report: DuelReport,
    result: ShowdownOutcome,
    truth: dict[Side, int],
    landed: dict[Side, int] | None,
    settings: UnitSettings,
) -> None:
    if result.reason is Reason.FALSE_START:
        report.false_starts += 1
    if result.reason in (Reason.SIDE_COUNT, Reason.TIE):
        report.ties += 1
    if result.reason is Reason.TIMEOUT:
        report.timeouts += 1
    if result.reason is Reason.FAULT:
        report.faults += 1
    if result.reason is Reason.VOID:
        report.voided += 1
    if result.replay:
        report.replays += 1
    if result.possible_jam:
        report.jams += 1
    if result.press_to_launch_ns is not None:
        report.press_to_launch_ns.append(result.press_to_launch_ns)
    if result.winner is None:
        return
    report.decided += 1
    expected = expected_outcome(truth, result.go_ns, landed, settings)
    if expected == (result.winner, result.loser):
        report.decided_correctly += 1
    else:
        report.wrong.append(
            {
                "showdown_id": result.showdown_id,
                "reason": result.reason.value,
                "winner": result.winner.value,
                "expected_winner": None if expected[0] is None else expected[0].value,
                "truth_ms_after_go": {
                    side.value: None if result.go_ns is None else to_ms(at - result.go_ns)
                    for side, at in truth.items()
                },
            }
        )
