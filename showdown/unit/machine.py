"""The showdown state machine: load, arm, countdown, go, race or false start, launch, count, result.

It listens to a :class:`~showdown.unit.hardware.UnitHardware` (any back end), runs every step of
``unit.md`` on the unit's clock, and publishes :mod:`showdown.unit.events` to subscribers.

Threads: edges arrive on the back end's thread (lgpio's callback thread, a serial reader, the
simulator's feeder), timers on the clock's thread. One lock serialises them. The winning press
fires the launcher from the thread that delivered it, before anything else is done with it, so a
busy scoreboard never delays a launch; the side counts run from the launcher's own report of
firing, which a serial line may bring late. Events are published after the lock is released, in
order; a subscriber that raises is logged and skipped. Any fault inside the machine puts every
output in its safe state and ends the showdown with a ``fault`` result (still exactly one result).

When the back end loses contact with the unit (a microcontroller reset or a pulled cable), a
showdown in progress is void: some of its edges may never arrive, so it is not decided on those
that did. The result says ``void``, the arrow blinks both ways, nothing more is launched and the
cards stay loaded for the replay.
"""

from __future__ import annotations

import enum
import logging
import random
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from showdown.unit.clock import Timer, ms
from showdown.unit.config import ToneConfig, UnitSettings
from showdown.unit.countdown import plan_countdown, tone_steps
from showdown.unit.events import (
    Armed,
    CountdownBeat,
    Counting,
    FalseStart,
    Go,
    Launching,
    PaddleHeld,
    ShowdownEvent,
    ShowdownOutcome,
)
from showdown.unit.hardware import Edge, InputLine, Light, Side, UnitHardware
from showdown.unit.launcher import LauncherInterlock
from showdown.unit.listeners import Listeners
from showdown.unit.verdict import Reason, Verdict, decide

__all__ = ["MachinePhase", "ShowdownBusyError", "ShowdownMachine"]

log = logging.getLogger(__name__)

Subscriber = Callable[[ShowdownEvent], None]


def _failed(subscriber: Callable[[ShowdownEvent], object], event: ShowdownEvent) -> None:
    """A subscriber raised: logged, naming it and the event, and the others are still told."""
    log.exception("showdown subscriber %r failed on %r", subscriber, event)


class ShowdownBusyError(RuntimeError):
    """A request that only makes sense between showdowns (loading) came during one."""


class MachinePhase(enum.Enum):
    """Where the machine is."""

    IDLE = "idle"  #: waiting for the timer button
    COUNTDOWN = "countdown"  #: beats and hold; any press now is a false start
    RACE = "race"  #: green is on; the first press wins
    FALSE_START = "false_start"  #: waiting briefly for late-delivered earlier presses
    COUNTING = "counting"  #: launched; the side-count lines count the cards


class ShowdownMachine:
    """Runs showdowns on *hardware* with the timings of *settings* (see the module docstring).

    *rng* draws the random hold; pass a seeded ``random.Random`` to replay a countdown.
    """

    # The current showdown, set afresh by _new_round (at arming, and before the first).
    _go_ns: int | None
    _presses: dict[Side, int]
    _counts: dict[Side, int]
    _winning_press_ns: int | None
    _launcher_on_ns: int | None
    _launched_toward: Side | None
    _count_until_ns: int | None
    _launch_pending: bool  # a fire is on its way; the count starts at its report

    def __init__(
        self,
        hardware: UnitHardware,
        settings: UnitSettings,
        *,
        rng: random.Random | None = None,
    ) -> None:
        self._hw = hardware
        self._clock = hardware.clock
        self._settings = settings
        self._timing = settings.timing
        self._rng = rng if rng is not None else random.Random(settings.hold_seed)
        self._lock = threading.RLock()
        self._depth = 0
        self._outbox: deque[ShowdownEvent] = deque()
        self._publish_lock = threading.RLock()  # a subscriber may call back in
        self._subscribers: Listeners[[ShowdownEvent]] = Listeners(lock=self._lock,
                                                                  failed=_failed)
        self.interlock = LauncherInterlock(
            hardware,
            self._clock,
            pulse_ns=ms(self._timing.launcher_pulse_ms),
            cooldown_ns=ms(self._timing.launcher_cooldown_ms),
        )
        self._phase = MachinePhase.IDLE
        self._showdown_id = 0
        self._players: tuple[str | None, str | None] = (None, None)
        self._cards: int | None = None
        self._timers: list[Timer] = []
        self._tone_timers: list[Timer] = []
        self._arrow_timers: list[Timer] = []
        self._blinking_at_held = False  # the arrow blinks at a held paddle (a release stops it)
        self._new_round()
        hardware.start(self)

    # -- public API ---------------------------------------------------------------------------

    @property
    def phase(self) -> MachinePhase:
        """The current phase."""
        return self._phase

    @property
    def showdown_id(self) -> int:
        """The number of the current (or last) showdown; 0 before the first."""
        return self._showdown_id

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call *subscriber* with every event; returns a function that unsubscribes."""
        return self._subscribers.subscribe(subscriber)

    def load(self, left_player: str | None, right_player: str | None, cards: int | None) -> None:
        """Say who is on each paddle and how many cards are clipped in (before arming)."""
        with self._lock:
            if self._phase is not MachinePhase.IDLE:
                raise ShowdownBusyError(f"cannot load during a showdown ({self._phase.value})")
            self._players = (left_player, right_player)
            self._cards = cards

    def arm(self) -> bool:
        """What the timer button does: start the countdown, or refuse if a paddle is held."""
        with self._guard():
            return self._arm(self._clock.now_ns())

    def close(self) -> None:
        """Stop every timer and put every output in its safe state, as a fault would, but with no
        result (the back end is closed by its owner)."""
        with self._guard():
            self._make_safe()
            self._phase = MachinePhase.IDLE

    # -- UnitListener -------------------------------------------------------------------------

    def edge(self, edge: Edge) -> None:
        """An edge from the back end (any thread)."""
        with self._guard():
            line = edge.line
            if line is InputLine.TIMER_BUTTON:
                if edge.active:
                    self._arm(edge.at_ns)
            elif line.is_paddle:
                side = line.side
                assert side is not None
                if edge.active:
                    self._press(side, edge.at_ns)
                else:
                    self._release()
            elif edge.active:
                side = line.side
                assert side is not None
                self._count(side, edge.at_ns)

    def light_changed(self, light: Light, at_ns: int) -> None:
        """The back end's report of the countdown light; GREEN is go."""
        with self._guard():
            if (light is Light.GREEN and self._phase is MachinePhase.COUNTDOWN
                    and self._go_ns is None):
                self._go(at_ns)

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        """The back end's report of the launcher going on or off."""
        with self._guard():
            self.interlock.changed(toward, at_ns)
            if (
                toward is not None
                and self._phase is MachinePhase.COUNTING
                and self._launcher_on_ns is None
                and self._winning_press_ns is not None
            ):
                self._launcher_on_ns = at_ns
                self._launched_toward = toward
                self._emit(Launching(self._showdown_id, toward, self._winning_press_ns, at_ns))
                if self._launch_pending:
                    self._launch_pending = False
                    self._cancel(self._timers)  # the wait's deadline
                    self._count_from(at_ns)
            elif toward is None and self._launch_pending and self._phase is MachinePhase.COUNTING:
                # the unit refused the fire: no cards will fly; the count keeps its usual length
                self._launch_pending = False
                self._cancel(self._timers)
                log.warning("showdown %d: the unit refused to fire the launcher",
                            self._showdown_id)
                self._count_from(self._clock.now_ns())

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        """The back end lost contact with the unit: a showdown in progress is void; after a
        restart the launcher is off, whatever was last reported (else every later fire would be
        refused as "already energised")."""
        with self._guard():
            if restarted:
                self.interlock.changed(None, at_ns)
            if self._phase is not MachinePhase.IDLE:
                log.warning("showdown %d is void: the unit lost contact (%s); replay it",
                            self._showdown_id, "it restarted" if restarted else "link down")
                self._end(Verdict(None, None, Reason.VOID))

    # -- the steps ----------------------------------------------------------------------------

    def _new_round(self) -> None:
        self._go_ns = None
        self._presses = {}
        self._counts = {Side.LEFT: 0, Side.RIGHT: 0}
        self._winning_press_ns = None
        self._launcher_on_ns = None
        self._launched_toward = None
        self._count_until_ns = None
        self._launch_pending = False

    def _arm(self, at_ns: int) -> bool:
        if self._phase is not MachinePhase.IDLE:
            log.info("timer button ignored during %s", self._phase.value)
            return False
        held = tuple(side for side in Side if self._hw.paddle_held(side))
        if held:
            self._blink_arrow(held[0])
            self._emit(PaddleHeld(held, at_ns))
            return False
        self._cancel(self._arrow_timers)
        self._hw.arrow(None)
        self._showdown_id += 1
        self._new_round()
        self._phase = MachinePhase.COUNTDOWN
        self._emit(Armed(self._showdown_id, at_ns, *self._players, self._cards))
        plan = plan_countdown(self._timing, self._rng)
        start = self._clock.now_ns()
        for index, offset in enumerate(plan.beat_offsets_ns):
            self._at(start + offset, partial(self._beat, index + 1))
            self._at(start + offset + plan.flash_ns, lambda: self._hw.countdown_light(Light.OFF))
        self._at(start + plan.go_offset_ns - plan.hold_ns, self._hold)
        self._at(start + plan.go_offset_ns, lambda: self._hw.countdown_light(Light.GREEN))
        return True

    def _beat(self, beat: int) -> None:
        self._hw.countdown_light(Light.RED)
        self._play(self._settings.beat_tone)
        self._emit(CountdownBeat(self._showdown_id, beat, self._timing.beats, self._clock.now_ns()))

    def _hold(self) -> None:
        self._hw.countdown_light(Light.RED)

    def _go(self, at_ns: int) -> None:
        self._go_ns = at_ns
        self._phase = MachinePhase.RACE
        self.interlock.permit_one()
        self._emit(Go(self._showdown_id, at_ns))
        self._play(self._settings.go_tone)
        self._at(at_ns + ms(self._timing.timeout_ms), self._finish)

    def _press(self, side: Side, at_ns: int) -> None:
        if self._phase is MachinePhase.IDLE or side in self._presses:
            return
        self._presses[side] = at_ns
        if self._phase is MachinePhase.COUNTDOWN:
            self._false_start(side, at_ns)
        elif self._phase is MachinePhase.RACE:
            assert self._go_ns is not None
            if at_ns - self._go_ns < ms(self._timing.anticipation_ms):
                self._false_start(side, at_ns)
            else:
                self._launch(side, at_ns)
        elif self._phase is MachinePhase.FALSE_START:
            first = min(self._presses.values())
            if at_ns == first:
                self._hw.arrow(side)
                self._emit(FalseStart(self._showdown_id, side, at_ns))
        # COUNTING: the other side's press is kept for the tie decision at the end.

    def _launch(self, side: Side, at_ns: int) -> None:
        """The winning press: fire, then count from the launcher's report of firing. A back end
        on the pins reports from inside the fire; over a serial line the ``Fire`` may need
        resending, and ending the showdown at a count measured from the press would withdraw it
        (the winner's cards would never fly), so the machine waits for the report, up to
        ``launch_wait_ms`` after the press."""
        self._winning_press_ns = at_ns
        self._phase = MachinePhase.COUNTING
        self._launch_pending = True
        race_timers, self._timers = self._timers, []
        fired = self.interlock.fire(side.other)  # first: nothing may delay the launch
        self._cancel(race_timers)
        if not fired:
            self._launch_pending = False
            self._count_from(self._clock.now_ns())
        elif self._launch_pending:
            self._at(at_ns + ms(self._timing.launch_wait_ms), self._launch_overdue)

    def _count_from(self, start_ns: int) -> None:
        """The side-count lines count for the settle time from *start_ns*; then the verdict."""
        self._count_until_ns = start_ns + ms(self._timing.count_settle_ms)
        self._emit(Counting(self._showdown_id, start_ns, self._count_until_ns))
        self._at(self._count_until_ns, self._finish)

    def _launch_overdue(self) -> None:
        """No report of firing within the wait: decided on the presses, the ``Fire`` withdrawn."""
        if not self._launch_pending:
            return
        self._launch_pending = False
        log.warning("showdown %d: the launcher did not report firing within %g ms of the "
                    "winning press; the cards stay loaded", self._showdown_id,
                    self._timing.launch_wait_ms)
        self._finish()

    def _false_start(self, side: Side, at_ns: int) -> None:
        self._cancel(self._timers)
        self._cancel(self._tone_timers)
        self.interlock.forbid()
        self._hw.buzzer(None)
        self._hw.countdown_light(Light.OFF)
        self._hw.arrow(side)
        self._phase = MachinePhase.FALSE_START
        self._emit(FalseStart(self._showdown_id, side, at_ns))
        self._at(self._clock.now_ns() + ms(self._timing.late_edge_grace_ms), self._finish)

    def _release(self) -> None:
        if (self._arrow_timers and self._blinking_at_held
                and not any(self._hw.paddle_held(s) for s in Side)):
            self._cancel(self._arrow_timers)
            self._hw.arrow(None)

    def _count(self, side: Side, at_ns: int) -> None:
        if (
            self._phase is MachinePhase.COUNTING
            and self._winning_press_ns is not None
            and self._count_until_ns is not None
            and self._winning_press_ns <= at_ns <= self._count_until_ns
        ):
            self._counts[side] += 1

    def _finish(self) -> None:
        if self._phase is MachinePhase.IDLE:
            return
        verdict = decide(
            self._presses,
            self._go_ns,
            self._counts,
            tie_window_ns=ms(self._timing.tie_window_ms),
            anticipation_ns=ms(self._timing.anticipation_ms),
        )
        self._end(verdict)

    def _end(self, verdict: Verdict) -> None:
        self._cancel(self._timers)
        self._cancel(self._tone_timers)
        self.interlock.forbid()
        self.interlock.stop()
        self._hw.buzzer(None)
        self._hw.countdown_light(Light.OFF)
        void = verdict.reason is Reason.VOID
        if void:
            self._blink_both_ways()
        else:
            self._hw.arrow(verdict.loser if verdict.reason is Reason.FALSE_START else None)
        launched = self._phase is MachinePhase.COUNTING
        if (launched and verdict.loser is not None and self._launched_toward is not None
                and self._launched_toward is not verdict.loser):
            log.warning(
                "showdown %d: the cards went toward %s but %s lost: a press arrived out of order",
                self._showdown_id,
                self._launched_toward.value,
                verdict.loser.value,
            )
        counted = sum(self._counts.values())
        jam = launched and not void and self._cards is not None and counted < self._cards
        if jam:
            log.warning("showdown %d: possible jam: %d of %d cards counted; look in the "
                        "launcher for a stuck card before the next showdown",
                        self._showdown_id, counted, self._cards)
        result = ShowdownOutcome(
            showdown_id=self._showdown_id,
            left_player=self._players[0],
            right_player=self._players[1],
            cards_loaded=self._cards,
            winner=verdict.winner,
            loser=verdict.loser,
            reason=verdict.reason,
            go_ns=self._go_ns,
            press_ns=dict(self._presses),
            counts=dict(self._counts) if launched and not void else {},
            possible_jam=jam,
            winning_press_ns=self._winning_press_ns,
            launcher_on_ns=self._launcher_on_ns,
            launched_toward=self._launched_toward,
            at_ns=self._clock.now_ns(),
        )
        self._phase = MachinePhase.IDLE
        if not verdict.replay:
            self._players, self._cards = (None, None), None  # the loser took the cards
        self._emit(result)

    def _make_safe(self) -> None:
        """Every timer stopped, the launcher forbidden, then every output off, each tried even
        when one before it fails."""
        self._cancel_all()
        self.interlock.forbid()
        for action in (
            self.interlock.stop,
            lambda: self._hw.buzzer(None),
            lambda: self._hw.countdown_light(Light.OFF),
            lambda: self._hw.arrow(None),
        ):
            try:
                action()
            except Exception:
                log.exception("could not reach a safe state")

    def _fault(self) -> None:
        """Something raised inside the machine: outputs safe, showdown over as a no contest. A
        fault while the showdown was ending (an output failing in :meth:`_end`) comes before its
        result was out, so the fault is its one result."""
        self._make_safe()
        if self._phase is not MachinePhase.IDLE:
            self._phase = MachinePhase.IDLE
            self._emit(
                ShowdownOutcome(
                    showdown_id=self._showdown_id,
                    left_player=self._players[0],
                    right_player=self._players[1],
                    cards_loaded=self._cards,
                    winner=None,
                    loser=None,
                    reason=Reason.FAULT,
                    go_ns=self._go_ns,
                    press_ns=dict(self._presses),
                    at_ns=self._clock.now_ns(),
                )
            )

    # -- helpers ------------------------------------------------------------------------------

    def _play(self, tone: ToneConfig) -> None:
        self._cancel(self._tone_timers)
        start = self._clock.now_ns()
        for offset, hz in tone_steps(tone):
            if offset == 0:
                self._hw.buzzer(hz)
            else:
                step = self._guarded(partial(self._hw.buzzer, hz))
                self._tone_timers.append(self._clock.call_at(start + offset, step))

    def _blink_arrow(self, side: Side) -> None:
        self._cancel(self._arrow_timers)
        self._blinking_at_held = True
        half = ms(self._timing.arrow_blink_ms)
        start = self._clock.now_ns()
        steps = max(2, round(ms(self._timing.release_paddle_ms) / half))
        self._hw.arrow(side)
        for step in range(1, steps + 1):
            toward = side if step % 2 == 0 and step < steps else None
            self._arrow_timers.append(
                self._clock.call_at(
                    start + step * half, self._guarded(partial(self._hw.arrow, toward))
                )
            )

    def _blink_both_ways(self) -> None:
        """The void sign: the arrow points left and right in turn, as long as the release-the-
        paddle blink, then goes off (a release does not stop it: it is not about a paddle)."""
        self._cancel(self._arrow_timers)
        self._blinking_at_held = False
        half = ms(self._timing.arrow_blink_ms)
        start = self._clock.now_ns()
        steps = max(2, round(ms(self._timing.release_paddle_ms) / half))
        self._hw.arrow(Side.LEFT)
        for step in range(1, steps + 1):
            toward = (Side.RIGHT if step % 2 else Side.LEFT) if step < steps else None
            self._arrow_timers.append(
                self._clock.call_at(
                    start + step * half, self._guarded(partial(self._hw.arrow, toward))
                )
            )

    def _at(self, deadline_ns: int, action: Callable[[], object]) -> None:
        """Run *action* at *deadline_ns* if this showdown is still the current one."""
        showdown_id = self._showdown_id

        def run() -> None:
            if showdown_id == self._showdown_id:
                action()

        self._timers.append(self._clock.call_at(deadline_ns, self._guarded(run)))

    def _guarded(self, action: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            with self._guard():
                action()

        return run

    def _cancel(self, timers: list[Timer]) -> None:
        for timer in timers:
            timer.cancel()
        timers.clear()

    def _cancel_all(self) -> None:
        for timers in (self._timers, self._tone_timers, self._arrow_timers):
            self._cancel(timers)

    def _emit(self, event: ShowdownEvent) -> None:
        self._outbox.append(event)

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Hold the lock; on an exception go safe; publish queued events once fully unlocked."""
        with self._lock:
            self._depth += 1
            try:
                yield
            except Exception:
                log.exception("showdown machine fault")
                self._fault()
            finally:
                self._depth -= 1
                outermost = self._depth == 0
        if outermost:
            self._publish()

    def _publish(self) -> None:
        with self._publish_lock:
            while True:
                with self._lock:
                    if not self._outbox:
                        return
                    event = self._outbox.popleft()
                self._subscribers.tell(event)
