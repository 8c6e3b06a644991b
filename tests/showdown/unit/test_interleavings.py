"""Any interleaving of what players, the back end and bad luck can do, checked by hypothesis.

Presses and releases of either paddle, the timer button, cards crossing the count lines, loading,
the back end's launcher reports (late, twice, or for nothing), lost contact and resets, a driver
that fails at its next command, and time passing, in any order: the launcher fires only inside a
showdown, after its go, at most once; every showdown gets one result; and once everyone stops,
every output goes off (the arrow may still point at the player who last pressed early).

The timings are short so that a few dozen steps play several showdowns. The gpio back end on
simulated pins, watched from outside (:mod:`tests.showdown.watched`).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, ToneConfig, UnitSettings
from showdown.unit.events import Armed, Go, Launching, PaddleHeld, ShowdownOutcome
from showdown.unit.hardware import Light, Side
from showdown.unit.machine import MachinePhase, ShowdownBusyError
from showdown.unit.verdict import Reason
from tests.showdown.rigs import GpioRig
from tests.showdown.watched import OUTPUTS, WatchedHardware, watched_rig

SHORT = UnitSettings(
    timing=TimingConfig(
        beats=2, beat_period_ms=300, beat_flash_ms=150, hold_min_ms=100, hold_max_ms=400,
        timeout_ms=1500, launcher_pulse_ms=100, launcher_cooldown_ms=400, count_settle_ms=300,
        launch_wait_ms=1000, late_edge_grace_ms=20, arrow_blink_ms=100, release_paddle_ms=500,
    ),
    beat_tone=ToneConfig(hz=440, pattern_ms=(60, 40, 60)),
    go_tone=ToneConfig(hz=880, pattern_ms=(50, 30, 50, 30, 200)),
)
QUIET_MS = 10_000
"""Longer than anything the machine schedules with SHORT: after it, only the outcome remains."""

sides = st.sampled_from(list(Side))
gaps = st.integers(min_value=6, max_value=400)  # apart from the last edge: never a bounce


class Interleavings(RuleBasedStateMachine):
    """One unit, driven by hypothesis's choice of steps (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.rig = watched_rig(GpioRig, SHORT)
        self.rig.load()
        self.held = dict.fromkeys(Side, False)

    @property
    def hardware(self) -> WatchedHardware:
        assert isinstance(self.rig.hardware, WatchedHardware)
        return self.rig.hardware

    # -- what can happen ------------------------------------------------------------------------

    @rule(side=sides, gap=gaps)
    def paddle(self, side: Side, gap: int) -> None:
        self.rig.advance(gap)
        if self.held[side]:
            self.rig.release(side)
        else:
            self.rig.press(side)
        self.held[side] = not self.held[side]

    @rule(gap=gaps)
    def timer_button(self, gap: int) -> None:
        self.rig.advance(gap)
        self.rig.arm()

    @rule(gap=gaps)
    def both_let_go(self, gap: int) -> None:
        self.rig.advance(gap)
        for side in Side:
            if self.held[side]:
                self.rig.release(side)
                self.held[side] = False

    # Not with a driver failure pending: it would end the countdown as a fault on the way, and
    # go would never come (the faults themselves still land mid-countdown through `wait`).
    @precondition(lambda self: self.rig.machine.phase is MachinePhase.COUNTDOWN
                  and not self.hardware.failure_pending)
    @rule(side=sides, reaction=st.integers(min_value=0, max_value=400))
    def react(self, side: Side, reaction: int) -> None:
        """Wait for go and press *reaction* ms after it (if that paddle is not held already)."""
        self.rig.run_to_go()
        if not self.held[side]:
            self.rig.press(side, after_go_ms=reaction)
            self.held[side] = True

    @rule(side=sides, cards=st.integers(min_value=1, max_value=4))
    def cards_cross(self, side: Side, cards: int) -> None:
        self.rig.cards_land(side, cards)

    @rule(milliseconds=st.integers(1, 100) | st.integers(100, 2500))
    def wait(self, milliseconds: int) -> None:
        self.rig.advance(milliseconds)

    @rule(cards=st.none() | st.integers(min_value=1, max_value=7))
    def load(self, cards: int | None) -> None:
        busy = self.rig.machine.phase is not MachinePhase.IDLE
        try:
            self.rig.machine.load("ann", "bob", cards)
        except ShowdownBusyError:
            assert busy, "loading refused between showdowns"
        else:
            assert not busy, "loading accepted during a showdown"

    @rule(toward=st.none() | sides)
    def launcher_report(self, toward: Side | None) -> None:
        """The back end says the launcher went on toward *toward* (None: off), whether or not it
        was asked to: a serial line may bring a report late, twice, or after a refusal."""
        self.rig.machine.launcher_changed(toward, self.rig.now_ns())

    @precondition(lambda self: bool(self.hardware.launcher_reports))
    @rule()
    def launcher_report_again(self) -> None:
        """The back end's last launcher report, delivered a second time, now."""
        toward, _ = self.hardware.launcher_reports[-1]
        self.rig.machine.launcher_changed(toward, self.rig.now_ns())

    @rule(restarted=st.booleans())
    def contact_lost(self, restarted: bool) -> None:
        self.rig.machine.contact_lost(self.rig.now_ns(), restarted=restarted)

    @precondition(lambda self: not self.hardware.failure_pending)
    @rule(output=st.sampled_from(OUTPUTS))
    def driver_fails(self, output: str) -> None:
        """The next command to *output* fails (one at a time: a transient driver error)."""
        self.hardware.fail_next(output)

    # -- what must always hold --------------------------------------------------------------------

    def _showdowns(self) -> dict[int, tuple[int, int | None, int | None]]:
        """``{showdown id: (armed at, go at or None, result at or None)}``."""
        events = self.rig.events
        go = {e.showdown_id: e.at_ns for e in events if isinstance(e, Go)}
        done = {e.showdown_id: e.at_ns for e in events if isinstance(e, ShowdownOutcome)}
        return {e.showdown_id: (e.at_ns, go.get(e.showdown_id), done.get(e.showdown_id))
                for e in events if isinstance(e, Armed)}

    @invariant()
    def the_launcher_fires_only_after_go_and_at_most_once_per_showdown(self) -> None:
        showdowns = self._showdowns()
        fired: Counter[int] = Counter()
        for command in self.hardware.commands:
            if command.output != "launch":
                continue
            inside = [n for n, (_, go, done) in showdowns.items()
                      if go is not None and go <= command.at_ns
                      and (done is None or command.at_ns <= done)]
            assert inside, f"the launcher fired outside a showdown's race: {command}"
            fired[inside[-1]] += 1
        assert all(count == 1 for count in fired.values()), f"fired twice: {fired}"
        launching = Counter(e.showdown_id for e in self.rig.events if isinstance(e, Launching))
        assert all(count == 1 for count in launching.values()), f"two launches: {launching}"

    @invariant()
    def between_showdowns_the_light_buzzer_and_launcher_are_off(self) -> None:
        if self.rig.machine.phase is not MachinePhase.IDLE:
            return
        out = self.rig.outputs()
        assert out.light is Light.OFF, f"the light is {out.light.value} between showdowns"
        assert not out.buzzing, "the buzzer sounds between showdowns"
        assert out.launcher is None, "the launcher is energised between showdowns"
        assert out.arrow in self._arrow_may_show(), f"the arrow points at {out.arrow}"

    @invariant()
    def every_showdown_has_at_most_one_result(self) -> None:
        results = Counter(r.showdown_id for r in self.rig.results())
        assert all(count == 1 for count in results.values()), results

    def teardown(self) -> None:
        try:
            self._everyone_stops()
        finally:
            self.rig.close()

    def _everyone_stops(self) -> None:
        """Paddles let go, then time runs out: one result each, and every output off."""
        for side in Side:
            if self.held[side]:
                self.rig.advance(10)
                self.rig.release(side)
        self.rig.advance(QUIET_MS)
        assert self.rig.machine.phase is MachinePhase.IDLE
        armed = sorted(self._showdowns())
        assert sorted(r.showdown_id for r in self.rig.results()) == armed, "one result each"
        out = self.rig.outputs()
        assert out.light is Light.OFF, f"the light stays {out.light.value}"
        assert not out.buzzing, "the buzzer keeps sounding"
        assert out.launcher is None, "the launcher stays energised"
        assert out.arrow in self._arrow_may_show(), f"the arrow stays at {out.arrow}"

    def _arrow_may_show(self) -> set[Side | None]:
        """Between showdowns: anything while a blink may still run (at a held paddle, or both
        ways after a void); then off, or at the player who last pressed early."""
        last = [e for e in self.rig.events if isinstance(e, ShowdownOutcome | Armed | PaddleHeld)]
        if not last:
            return {None}
        blinking = isinstance(last[-1], PaddleHeld) or last[-1].reason is Reason.VOID
        blink_ms = SHORT.timing.release_paddle_ms + SHORT.timing.arrow_blink_ms
        if blinking and self.rig.now_ns() - last[-1].at_ns <= ms(blink_ms):
            return {None, *Side}
        if isinstance(last[-1], ShowdownOutcome) and last[-1].reason is Reason.FALSE_START:
            return {None, last[-1].loser}
        return {None}


Interleavings.TestCase.settings = settings(
    Interleavings.TestCase.settings, max_examples=100, stateful_step_count=40
)
test_any_interleaving_ends_safe_with_at_most_one_launch_per_showdown = Interleavings.TestCase


def test_the_model_fires_the_launcher() -> None:
    """The rules above can play a whole race (so the invariants are not vacuous)."""
    machine = Interleavings()
    try:
        machine.timer_button(gap=10)
        machine.wait(milliseconds=1500)
        assert any(isinstance(e, Go) for e in machine.rig.events)
        machine.paddle(side=Side.LEFT, gap=100)
        assert [c.output for c in machine.hardware.commands].count("launch") == 1
        machine.the_launcher_fires_only_after_go_and_at_most_once_per_showdown()
        machine._everyone_stops()
    finally:
        machine.rig.close()
    assert [r.reason for r in machine.rig.results()] == [Reason.RACE]
