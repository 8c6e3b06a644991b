"""The simulated unit as a simulated table uses it: hw_sim's unit, the real state machine.

:class:`SimulatedReferee` is the referee of :class:`~showdown.playtest.bot_table.BotTable` when no
unit is
attached. It builds :mod:`hw_sim`'s unit (the gpiozero back end on simulated pins, edges delivered
from their own thread as lgpio does, and the physical launcher model whose cards fly with a spread,
now and then jam, and pulse the side-count lines), runs the real
:class:`~showdown.unit.machine.ShowdownMachine` on it, and plays each showdown with two of
:mod:`hw_sim.players`' virtual players: it loads the players and the cards, presses the timer
button, lets each player press after go (or jump the gun, or miss), and turns the machine's one
result into the session's entry. Ties, timeouts and faults are replayed, as at the table.

Time runs on a :class:`~showdown.unit.clock.ManualClock` that this referee advances from deadline to
deadline; with ``fast=False`` it waits the real time in between, so a person watching sees the
countdown as long as it is. Either way every decision is the state machine's, from the edges'
own timestamps.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace

from hw_sim.players import REACTION_CEILING_MS, REACTION_FLOOR_MS, VirtualPlayer, make_players
from hw_sim.sim_unit import GpioSimUnit
from showdown.game.messages import RecordShowdown
from showdown.game.recorder import entry_from_unit
from showdown.playtest.bot_table import ShowdownCall, TableError, TableStopped
from showdown.unit.clock import ManualClock, ms
from showdown.unit.config import TimingConfig, UnitSettings
from showdown.unit.events import Go, ShowdownEvent, ShowdownOutcome
from showdown.unit.hardware import InputLine, Side
from showdown.unit.machine import ShowdownMachine
from showdown.unit.verdict import Reason

__all__ = ["SimulatedReferee", "UnitTally", "check_timings"]

MAX_REPLAYS = 20
"""A showdown replayed this often means the simulation is broken, not unlucky."""

STRAY_CARD = 0.05
"""Share of launched cards that land on the winner's side instead (the launcher's spread)."""

JAM = 0.01
"""Chance that a throw leaves a card stuck in the launcher (counted short: a possible jam)."""


@dataclass
class UnitTally:
    """What the unit did over a run (the figures ``showdown sim games`` prints)."""

    showdowns: int = 0
    decided: int = 0
    false_starts: int = 0
    side_counts: int = 0
    replays: int = 0
    timeouts: int = 0
    possible_jams: int = 0
    reasons: dict[str, int] = field(default_factory=dict)


def _longest_showdown_ms(timing: TimingConfig) -> float:
    """How long one showdown can take on the unit, arm to result, with every wait at its
    longest (and a minute to spare): a showdown not over by then can never finish."""
    countdown = timing.beats * timing.beat_period_ms + timing.hold_max_ms
    race = timing.timeout_ms + timing.launch_wait_ms + timing.count_settle_ms
    after = timing.late_edge_grace_ms + timing.release_paddle_ms
    return countdown + race + after + 60_000


def check_timings(timing: TimingConfig) -> None:
    """Refuse a race that ends before any virtual player can press: legal for the unit (a
    person may be quicker), yet every simulated showdown would time out and be replayed."""
    if timing.timeout_ms <= REACTION_FLOOR_MS:
        raise TableError(
            f"unit.timing.timeout_ms: {timing.timeout_ms:g} ends every race before a virtual "
            f"player presses (they react {REACTION_FLOOR_MS:g} to {REACTION_CEILING_MS:g} ms "
            f"after go), so every simulated showdown would be replayed; simulate with more "
            f"than {REACTION_FLOOR_MS:g}"
        )


class SimulatedReferee:
    """The state machine on simulated pins, with virtual players; call it to settle a showdown."""

    def __init__(
        self,
        settings: UnitSettings | None = None,
        *,
        seed: int = 1,
        fast: bool = True,
        stop: threading.Event | None = None,
        speed: float = 1.0,
    ) -> None:
        """``speed`` (without ``fast``): the unit's time runs that many times faster than real
        time, so a demo scores a round within a minute and each showdown still reads."""
        self.settings = settings or UnitSettings()
        check_timings(self.settings.timing)
        self.fast = fast
        self.speed = speed
        self.stop = stop
        self.rng = random.Random(f"unit:{seed}")
        self.clock = ManualClock(ms(1_000))
        self.sim = GpioSimUnit(
            self.settings, clock=self.clock, seed=seed, spread=STRAY_CARD, jam_probability=JAM
        )
        self.factory = self.sim.factory
        self.hardware = self.sim.hardware
        self.machine = ShowdownMachine(
            self.hardware, self.settings, rng=random.Random(f"hold:{seed}")
        )
        self._lock = threading.Lock()
        self._events: list[ShowdownEvent] = []
        self.machine.subscribe(self._heard)
        self.players: dict[str, VirtualPlayer] = {}
        self.tally = UnitTally()
        self._seed = seed

    def _heard(self, event: ShowdownEvent) -> None:
        with self._lock:
            self._events.append(event)

    def _forget_events(self) -> None:
        """Drop the events of showdowns already settled: only the current one's are looked at,
        and a referee that plays for days must not grow (or slow down) with every showdown."""
        with self._lock:
            self._events.clear()
        self.sim.forget()

    def _seen(self, kind: type[ShowdownEvent], showdown_id: int) -> ShowdownEvent | None:
        with self._lock:
            for event in reversed(self._events):
                if isinstance(event, kind) and getattr(event, "showdown_id", None) == showdown_id:
                    return event
        return None

    def player(self, name: str) -> VirtualPlayer:
        """The virtual player called *name* (drawn once, from the seed and the name)."""
        if name not in self.players:
            (drawn,) = make_players(1, random.Random(f"{self._seed}:{name}"))
            self.players[name] = replace(drawn, name=name)
        return self.players[name]

    # -- wires --------------------------------------------------------------------------------

    def _edge(self, line: InputLine, active: bool, at_ns: int) -> None:
        self.clock.advance_to(max(at_ns, self.clock.now_ns()))
        self.sim.edge(line, active, at_ns)
        self._settle()

    def _settle(self) -> None:
        """Wait until the wiring's thread has delivered every edge (a paddle, a card's pulse)."""
        if not self.sim.wait_idle(5.0):
            raise TableError("the simulated unit stopped taking edges")
        if self.sim.feeder.errors:
            raise TableError(f"the simulated unit failed: {self.sim.feeder.errors[-1]!r}")

    def _advance_to(self, target_ns: int) -> None:
        """Let time pass to *target_ns*, timer by timer (waiting for real unless fast)."""
        while True:
            if self.stop is not None and self.stop.is_set():
                raise TableStopped
            now = self.clock.now_ns()
            deadline = self.clock.next_deadline_ns()
            step = target_ns if deadline is None else min(deadline, target_ns)
            if step > now and not self.fast:
                # Real time passes (scaled by speed); a stop request ends the wait at once.
                seconds = (step - now) / 1e9 / self.speed
                if self.stop is not None:
                    if self.stop.wait(seconds):
                        raise TableStopped
                else:
                    time.sleep(seconds)
            self.clock.advance_to(max(step, now))
            self._settle()
            if step >= target_ns:
                return

    def _next_deadline(self, limit_ns: int) -> int:
        deadline = self.clock.next_deadline_ns()
        if deadline is None or deadline > limit_ns:
            raise TableError("the simulated showdown can never finish")
        return deadline

    # -- one showdown -------------------------------------------------------------------------

    def __call__(self, call: ShowdownCall) -> RecordShowdown:
        """Settle *call* on the unit (replaying ties and timeouts); the entry to record."""
        left, right = call.challenger, call.opponent
        self.machine.load(left, right, call.cards_loaded)
        why: dict[str, int] = {}
        for _ in range(MAX_REPLAYS):
            # Loaded again before each try: after a tie the cards flew and were picked up.
            self.sim.load_launcher(call.cards_loaded)
            result = self._one(left, right, call.cards_loaded)
            self._count(result)
            entry = entry_from_unit(result, call.showdown_id)
            if entry is not None:
                return entry
            why[result.reason.value] = why.get(result.reason.value, 0) + 1
        reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(why.items()))
        timing = self.settings.timing
        cause = ("unit.timing.timeout_ms "
                 f"({timing.timeout_ms:g}) ends the race before most virtual players press "
                 f"({REACTION_FLOOR_MS:g} to {REACTION_CEILING_MS:g} ms after go)"
                 if set(why) == {Reason.TIMEOUT.value} and timing.timeout_ms < REACTION_CEILING_MS
                 else "these timings leave its players no way to decide it (unit.timing in the "
                 "configuration)")
        raise TableError(
            f"showdown {call.showdown_id} was replayed {MAX_REPLAYS} times ({reasons}, with "
            f"{call.cards_loaded} cards loaded): {cause}"
        )

    def referee(self, call: ShowdownCall) -> RecordShowdown:
        """The same as calling the unit (a name that reads well where it is passed)."""
        return self(call)

    def _one(self, left: str, right: str, cards: int) -> ShowdownOutcome:
        rng = self.rng
        timing = self.settings.timing
        self._forget_events()
        arm_ns = self.clock.now_ns() + ms(rng.uniform(300, 900))
        self._advance_to(arm_ns)
        self._edge(InputLine.TIMER_BUTTON, True, arm_ns)
        self._edge(InputLine.TIMER_BUTTON, False, arm_ns + ms(60))
        showdown_id = self.machine.showdown_id
        limit = arm_ns + ms(_longest_showdown_ms(timing))
        # A too-eager player presses somewhere in the countdown (if go has not come by then).
        sides = {Side.LEFT: self.player(left), Side.RIGHT: self.player(right)}
        countdown_ms = timing.beats * timing.beat_period_ms + timing.hold_min_ms
        early = {
            side: arm_ns + ms(rng.uniform(400, countdown_ms))
            for side, who in sides.items()
            if who.jumps_the_gun(rng)
        }
        presses: dict[Side, int] = {}
        while (go := self._seen(Go, showdown_id)) is None:
            if self._seen(ShowdownOutcome, showdown_id) is not None:
                break
            deadline = self._next_deadline(limit)
            due = [(at, side) for side, at in early.items() if at <= deadline]
            if due:
                at, side = min(due)
                self._advance_to(at)
                self._edge(InputLine.paddle(side), True, at)
                presses[side] = at
                del early[side]
                continue
            self._advance_to(deadline)
        if isinstance(go, Go) and not presses:
            go_ns = go.at_ns
            for side, who in sorted(sides.items(), key=lambda item: item[0].value):
                if not who.misses(rng):
                    presses[side] = go_ns + ms(who.reaction_ms(rng))
            for side, at in sorted(presses.items(), key=lambda item: item[1]):
                self._advance_to(at)
                self._edge(InputLine.paddle(side), True, at)
        while (result := self._seen(ShowdownOutcome, showdown_id)) is None:
            self._advance_to(self._next_deadline(limit))
        for side, at in presses.items():
            self._edge(InputLine.paddle(side), False, max(at, self.clock.now_ns()) + ms(80))
        assert isinstance(result, ShowdownOutcome)
        return result

    def _count(self, result: ShowdownOutcome) -> None:
        tally = self.tally
        tally.showdowns += 1
        tally.reasons[result.reason.value] = tally.reasons.get(result.reason.value, 0) + 1
        if result.possible_jam:
            tally.possible_jams += 1
        if result.replay:
            tally.replays += 1
            if result.reason is Reason.TIMEOUT:
                tally.timeouts += 1
            return
        tally.decided += 1
        if result.reason is Reason.FALSE_START:
            tally.false_starts += 1
        elif result.reason is Reason.SIDE_COUNT:
            tally.side_counts += 1

    def close(self) -> None:
        """Outputs safe, threads stopped."""
        self.machine.close()
        self.sim.close()
