"""A back end watched from outside: every output command it is given, in order and with the time,
and a driver error on demand.

:class:`WatchedHardware` wraps any :class:`~showdown.unit.hardware.UnitHardware` and passes every
call through, so the real back end still drives its pins (or its microcontroller) and reports to
the machine as usual. It records each command the machine gave (one that failed is not recorded),
so a test can say "nothing was switched on after the showdown ended" without sampling the pins at
every instant, and each launcher report the back end gave, so a test can give one again as a
serial line may. :meth:`WatchedHardware.fail_next` makes the next call of one output raise, as a
driver whose bus failed would: the fault then happens inside the machine, at a moment the test
chooses.

:func:`watched_rig` builds any rig of ``conftest.BACKENDS`` on watched hardware.
"""

from __future__ import annotations

from dataclasses import dataclass

from showdown.unit.clock import Clock
from showdown.unit.config import UnitSettings
from showdown.unit.hardware import Edge, Light, Side, UnitHardware, UnitListener
from tests.showdown.rigs import UnitRig

OUTPUTS = ("countdown_light", "buzzer", "arrow", "launch", "stop_launch")


class DriverError(RuntimeError):
    """The failure :meth:`WatchedHardware.fail_next` injects."""


@dataclass(frozen=True)
class Command:
    """One output command: when, which output, and its argument (None for ``stop_launch``)."""

    at_ns: int
    output: str
    value: object

    @property
    def switches_on(self) -> bool:
        """True if this command lights, sounds or energises something."""
        if self.output == "countdown_light":
            return self.value is not Light.OFF
        return self.output == "launch" or (self.output != "stop_launch" and self.value is not None)


class WatchedHardware(UnitHardware):
    """*inner* with every output command recorded and failures on demand (module docstring)."""

    def __init__(self, inner: UnitHardware) -> None:
        self.inner = inner
        self.commands: list[Command] = []
        self.launcher_reports: list[tuple[Side | None, int]] = []
        """Every ``launcher_changed`` the back end gave its listener: (toward or None, at_ns)."""
        self.edges_handled: list[Edge] = []
        """Every edge the listener has finished handling."""
        self.failed_at_ns: int | None = None
        """When the failure asked for with :meth:`fail_next` happened."""
        self._failing: set[str] = set()

    def fail_next(self, output: str) -> None:
        """The next call of *output* (one of :data:`OUTPUTS`) raises :class:`DriverError`."""
        assert output in OUTPUTS, output
        self._failing.add(output)

    @property
    def failure_pending(self) -> bool:
        """True while a failure asked for has not happened yet."""
        return bool(self._failing)

    def _command(self, output: str, value: object) -> None:
        if output in self._failing:
            self._failing.discard(output)
            self.failed_at_ns = self.inner.clock.now_ns()
            raise DriverError(f"{output} failed")
        self.commands.append(Command(self.inner.clock.now_ns(), output, value))

    def commands_since(self, at_ns: int) -> list[Command]:
        """Every command given at *at_ns* or later."""
        return [command for command in self.commands if command.at_ns >= at_ns]

    # -- UnitHardware, passed through ----------------------------------------------------------

    @property
    def clock(self) -> Clock:
        return self.inner.clock

    def start(self, listener: UnitListener) -> None:
        self.inner.start(_ReportTap(listener, self))

    def countdown_light(self, light: Light) -> None:
        self._command("countdown_light", light)
        self.inner.countdown_light(light)

    def buzzer(self, tone_hz: float | None) -> None:
        self._command("buzzer", tone_hz)
        self.inner.buzzer(tone_hz)

    def arrow(self, toward: Side | None) -> None:
        self._command("arrow", toward)
        self.inner.arrow(toward)

    def launch(self, toward: Side, pulse_ns: int) -> None:
        self._command("launch", toward)
        self.inner.launch(toward, pulse_ns)

    def stop_launch(self) -> None:
        self._command("stop_launch", None)
        self.inner.stop_launch()

    def paddle_held(self, side: Side) -> bool:
        return self.inner.paddle_held(side)

    def close(self) -> None:
        self.inner.close()


class _ReportTap:
    """The listener the back end sees: passes everything on, noting each launcher report and
    each edge handled."""

    def __init__(self, listener: UnitListener, hardware: WatchedHardware) -> None:
        self._listener = listener
        self._reports = hardware.launcher_reports
        self._edges = hardware.edges_handled

    def edge(self, edge: Edge) -> None:
        self._listener.edge(edge)
        self._edges.append(edge)

    def light_changed(self, light: Light, at_ns: int) -> None:
        self._listener.light_changed(light, at_ns)

    def launcher_changed(self, toward: Side | None, at_ns: int) -> None:
        self._reports.append((toward, at_ns))
        self._listener.launcher_changed(toward, at_ns)

    def contact_lost(self, at_ns: int, *, restarted: bool) -> None:
        self._listener.contact_lost(at_ns, restarted=restarted)


def watched_rig(
    rig_class: type[UnitRig], settings: UnitSettings | None = None, seed: int | None = 1
) -> UnitRig:
    """A rig of *rig_class* whose machine drives :class:`WatchedHardware` around its back end."""

    class Watched(rig_class):  # type: ignore[valid-type,misc]
        def make_hardware(self) -> UnitHardware:
            return WatchedHardware(super().make_hardware())

    Watched.__name__ = f"Watched{rig_class.__name__}"
    return Watched(settings, seed)
