"""The countdown's schedule: beats of red with a beep, a seeded random hold, then green.

:func:`plan_countdown` turns the timing settings and a random source into exact offsets from the
arm time, so a seeded generator replays the same countdown. :func:`tone_steps` turns a beep
pattern into buzzer on/off steps; the state machine schedules both on the unit's clock.

    >>> from showdown.unit.config import TimingConfig
    >>> import random
    >>> plan = plan_countdown(TimingConfig(beats=2, hold_min_ms=500, hold_max_ms=500),
    ...                       random.Random(1))
    >>> [beat / 1e6 for beat in plan.beat_offsets_ns], plan.go_offset_ns / 1e6
    ([0.0, 1000.0], 2500.0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from showdown.unit.clock import ms
from showdown.unit.config import TimingConfig, ToneConfig

__all__ = ["CountdownPlan", "plan_countdown", "tone_steps"]


@dataclass(frozen=True, slots=True)
class CountdownPlan:
    """Offsets from arming: when each beat starts, how long red flashes, when green comes."""

    beat_offsets_ns: tuple[int, ...]
    flash_ns: int
    hold_ns: int
    go_offset_ns: int


def plan_countdown(timing: TimingConfig, rng: random.Random) -> CountdownPlan:
    """The beats at every beat period, then a hold drawn uniformly from the configured range."""
    period = ms(timing.beat_period_ms)
    beats = tuple(i * period for i in range(timing.beats))
    hold = ms(rng.uniform(timing.hold_min_ms, timing.hold_max_ms))
    return CountdownPlan(beats, ms(timing.beat_flash_ms), hold, timing.beats * period + hold)


def tone_steps(tone: ToneConfig) -> list[tuple[int, float | None]]:
    """``(offset_ns, tone_hz or None)`` steps that play *tone*'s on/off pattern, ending silent."""
    steps: list[tuple[int, float | None]] = []
    offset = 0.0
    for index, length in enumerate(tone.pattern_ms):
        steps.append((ms(offset), tone.hz if index % 2 == 0 else None))
        offset += length
    steps.append((ms(offset), None))
    return steps
