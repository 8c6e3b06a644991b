"""The unit's self-test: every part in turn, with a person answering, and a report of what was seen.

A builder who has just wired a unit wants to know, part by part, whether each wire goes where the
configuration says. :class:`SelfTest` lights each output and asks whether it was seen, sounds both
tones and asks whether they were heard, then asks for each input in turn (timer button, paddles,
side-count lines) and reports the edge it saw: on which line, how long after the prompt, and how
long it was held, from the edges' own timestamps. A press on another line than the one asked for is
named, since swapped wires are the commonest mistake. The launcher is pulsed, toward each side in
turn, only after the person types ``yes``; its pulse is bounded by the back end.

It talks to the unit only through :class:`~showdown.unit.hardware.UnitHardware`, so the same walk
runs
on the Pi's pins, on the serial back end and on the simulator; and to the person only through the
``say`` and ``ask`` callables, so a test (or the simulator) can answer the prompts.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from showdown.unit.clock import ms, to_ms
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Edge, InputLine, Light, Side, UnitHardware
from showdown.unit.wiring import physical_pin

__all__ = ["INPUT_PROMPTS", "SelfTest", "StepResult"]

Say = Callable[[str], None]
Ask = Callable[[str], str]

#: What the person is asked to do for each input, in the order they are asked.
INPUT_PROMPTS: dict[InputLine, tuple[str, str]] = {
    InputLine.TIMER_BUTTON: ("timer button", "press and release the timer button"),
    InputLine.PADDLE_LEFT: ("left paddle", "press and release the LEFT paddle"),
    InputLine.PADDLE_RIGHT: ("right paddle", "press and release the RIGHT paddle"),
    InputLine.COUNT_LEFT: ("left side-count line", "pass one card through the LEFT side line"),
    InputLine.COUNT_RIGHT: ("right side-count line", "pass one card through the RIGHT side line"),
}


@dataclass
class StepResult:
    """One part's outcome: ``ok`` (True, False, or None when skipped) and what was observed."""

    part: str
    ok: bool | None
    detail: str
    notes: list[str] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        """``ok``, ``FAIL`` or ``skipped``."""
        return {True: "ok", False: "FAIL", None: "skipped"}[self.ok]


class _Recorder:
    """The listener: edges into a queue, launcher changes into an event (any thread)."""

    def __init__(self) -> None:
        self.edges: queue.Queue[Edge] = queue.Queue()
        self.launcher_on: list[tuple[Side, int]] = []
        self.launcher_off = threading.Event()
        self.launcher_off_ns = 0

    def edge(self, edge: Edge) -> None:
        self.edges.put(edge)

    def light_changed(self, light: Light, at_ns: int) -> None:
        pass

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        if toward is None:
            self.launcher_off_ns = at_ns
            self.launcher_off.set()
        else:
            self.launcher_on.append((toward, at_ns))

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        if restarted:  # the unit rebooted: its launcher is off, whatever was reported
            self.launcher_changed(None, at_ns)

    def drain(self) -> None:
        """Forget edges from before the current prompt (bounces, the last step's release)."""
        while True:
            try:
                self.edges.get_nowait()
            except queue.Empty:
                return


class SelfTest:
    """Walks through every part of ``unit``; :meth:`run` returns one :class:`StepResult` each."""

    def __init__(
        self,
        unit: UnitHardware,
        settings: UnitSettings,
        *,
        say: Say,
        ask: Ask,
        launcher: bool = True,
        timeout_s: float = 20.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``timeout_s``: how long, in real seconds read from ``monotonic``, to wait for each input
        before calling it missing (a person's pace, not the unit's clock)."""
        self.unit = unit
        self.settings = settings
        self.say = say
        self.ask = ask
        self.launcher = launcher
        self.timeout_s = timeout_s
        self.monotonic = monotonic
        self._recorder = _Recorder()

    # -- helpers -------------------------------------------------------------------------------

    def _where(self, line: str) -> str:
        config = self.settings.pins.lines()[line]
        try:
            header = f", header pin {physical_pin(config.pin)}"
        except KeyError:
            header = ""
        return f"{config.pin}{header}, active {config.active}"

    def _yes_no(self, question: str) -> bool:
        """A y/n answer; Enter means yes. Anything else is asked again, up to three times."""
        for _ in range(3):
            answer = self.ask(f"{question} [Y/n] ").strip().lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("  please answer y or n")
        return False

    # -- the steps -----------------------------------------------------------------------------

    def _outputs(self) -> list[StepResult]:
        unit = self.unit
        outputs: list[tuple[str, str, Callable[[], None], Callable[[], None]]] = [
            ("red countdown light", "light_red",
             lambda: unit.countdown_light(Light.RED), lambda: unit.countdown_light(Light.OFF)),
            ("green countdown light", "light_green",
             lambda: unit.countdown_light(Light.GREEN), lambda: unit.countdown_light(Light.OFF)),
            ("arrow toward the left player", "arrow_left",
             lambda: unit.arrow(Side.LEFT), lambda: unit.arrow(None)),
            ("arrow toward the right player", "arrow_right",
             lambda: unit.arrow(Side.RIGHT), lambda: unit.arrow(None)),
        ]  # fmt: skip
        results = []
        for part, line, on, off in outputs:
            on()
            try:
                seen = self._yes_no(f"The {part} ({self._where(line)}) is on now. Is it lit?")
            finally:
                off()
            detail = "seen" if seen else f"NOT seen: check the wire on {self._where(line)}"
            results.append(StepResult(part, seen, detail))
        for name, tone in (("beat", self.settings.beat_tone), ("go", self.settings.go_tone)):
            part = f"buzzer, {name} tone ({tone.hz:g} Hz)"
            unit.buzzer(tone.hz)
            try:
                heard = self._yes_no(f"The {part} is sounding now. Do you hear it?")
            finally:
                unit.buzzer(None)
            where = self._where("buzzer")
            results.append(
                StepResult(part, heard, "heard" if heard else f"NOT heard: check {where}")
            )
        return results

    def _input(self, line: InputLine) -> StepResult:
        part, instruction = INPUT_PROMPTS[line]
        clock = self.unit.clock
        recorder = self._recorder
        recorder.drain()
        prompt_ns = clock.now_ns()
        self.say(f"Now {instruction} ({self._where(line.value)}).")
        notes: list[str] = []
        wrong: set[InputLine] = set()
        press: Edge | None = None
        release: Edge | None = None
        end = self.monotonic() + self.timeout_s
        while release is None:
            remaining = end - self.monotonic()
            if remaining <= 0:
                break
            try:
                edge = recorder.edges.get(timeout=remaining)
            except queue.Empty:
                break
            if edge.line is not line:
                if edge.active and edge.line not in wrong:
                    wrong.add(edge.line)
                    other = INPUT_PROMPTS[edge.line][0]
                    notes.append(
                        f"saw the {other} ({self._where(edge.line.value)}) instead: "
                        "are the two wires swapped?"
                    )
                    self.say(f"  that was the {other}, not the {part}")
                continue
            if edge.active and press is None:
                press = edge
                if line.is_count:
                    break  # one active edge per card: a count line need not report its end
            elif not edge.active and press is not None:
                release = edge
        if press is None:
            where = self._where(line.value)
            detail = f"nothing seen in {self.timeout_s:g} s: check the wire on {where}"
            return StepResult(part, False, detail, notes)
        after = to_ms(press.at_ns - prompt_ns)
        if line.is_count:
            return StepResult(part, True, f"card seen {after:.0f} ms after the prompt", notes)
        if release is None:
            detail = (
                f"active {after:.0f} ms after the prompt but never released: "
                f"is 'active' ({self.settings.pins.lines()[line.value].active}) the wrong level?"
            )
            return StepResult(part, False, detail, notes)
        held = to_ms(release.at_ns - press.at_ns)
        detail = f"pressed {after:.0f} ms after the prompt, held for {held:.1f} ms"
        return StepResult(part, True, detail, notes)

    def _launch(self, toward: Side) -> StepResult:
        part = f"launcher toward the {toward.value} player"
        pulse_ms = self.settings.timing.launcher_pulse_ms
        if not self.launcher:
            return StepResult(part, None, "skipped (--no-launcher)")
        answer = self.ask(
            f"Pulse the {part} for {pulse_ms:g} ms? Cards in it WILL fly. Type yes to fire: "
        )
        if answer.strip().lower() != "yes":
            return StepResult(part, None, "not fired (no 'yes')")
        recorder = self._recorder
        self._cool_down()
        recorder.launcher_off.clear()
        fired = len(recorder.launcher_on)
        # Green first, as in a showdown: a microcontroller back end only fires inside the arm
        # window that "go" opens.
        self.unit.countdown_light(Light.GREEN)
        try:
            self.unit.launch(toward, ms(pulse_ms))
            self.say(f"  launcher energised toward the {toward.value} player")
            off = recorder.launcher_off.wait(pulse_ms / 1000 + 5.0)
        finally:
            self.unit.stop_launch()
            self.unit.countdown_light(Light.OFF)
        if len(recorder.launcher_on) == fired:
            return StepResult(part, False, "the back end never reported the launcher on")
        on_ns = recorder.launcher_on[-1][1]
        if not off:
            return StepResult(part, False, "it did not switch itself off: stopped by hand")
        energised = to_ms(recorder.launcher_off_ns - on_ns)
        moved = self._yes_no(f"Did the launcher move toward the {toward.value} player?")
        driver = self.settings.driver
        inputs = "; ".join(f"{driver.labels[line]} on {self._where(line)}"
                           for line in driver.lines)
        detail = f"energised for {energised:.0f} ms; " + (
            "moved the right way"
            if moved
            else f"did NOT move that way: check the {driver.name} driver's inputs ({inputs}), "
            "and whether the motor's two wires are swapped"
        )
        return StepResult(part, moved, detail)

    def _cool_down(self) -> None:
        """Wait out the launcher's cool-down after the last pulse (the back end may enforce it)."""
        recorder = self._recorder
        if not recorder.launcher_off.is_set():
            return
        clock = self.unit.clock
        cooldown_ms = self.settings.timing.launcher_cooldown_ms
        remaining = recorder.launcher_off_ns + ms(cooldown_ms) - clock.now_ns()
        if remaining <= 0:
            return
        cooled = threading.Event()
        timer = clock.call_later(remaining, cooled.set)
        self.say(f"  the launcher cools down for {to_ms(remaining) / 1000:.1f} s")
        cooled.wait(to_ms(remaining) / 1000 + 5.0)
        timer.cancel()

    # -- the whole walk ------------------------------------------------------------------------

    def run(self) -> list[StepResult]:
        """Every step in order; outputs are left off whatever happens."""
        self.unit.start(self._recorder)
        results: list[StepResult] = []
        try:
            for side in Side:
                if self.unit.paddle_held(side):
                    line = InputLine.paddle(side).value
                    where = self._where(line)
                    self.say(
                        f"The {side.value} paddle reads as pressed before anyone touches it: the "
                        f"wrong 'active' level in the configuration, or a short ({where})."
                    )
            results.extend(self._outputs())
            results.extend(self._input(line) for line in INPUT_PROMPTS)
            results.extend(self._launch(side) for side in Side)
        finally:
            self.unit.stop_launch()
            self.unit.countdown_light(Light.OFF)
            self.unit.arrow(None)
            self.unit.buzzer(None)
        return results


def report(results: list[StepResult]) -> list[str]:
    """The summary lines: one per part, notes indented below it."""
    width = max((len(r.part) for r in results), default=0)
    lines = []
    for result in results:
        lines.append(f"{result.verdict:>7}  {result.part:<{width}}  {result.detail}")
        lines.extend(f"         {'':<{width}}  note: {note}" for note in result.notes)
    failed = sum(1 for r in results if r.ok is False)
    lines.append("all parts answered" if failed == 0 else f"{failed} part(s) failed")
    return lines
