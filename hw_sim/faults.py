"""What goes wrong between the host and the simulated microcontroller during a run.

One :class:`FaultPlan` says it all, so a trial can be repeated from the command line
(``showdown sim duels --backend serial --corrupt P --drop P --delay-ms N --replug-every N
--reset-every N``) or from a test: bytes corrupted or lost at a rate per byte in both directions, a
delay on the way to the host, and replugs and resets of the microcontroller counted in input edges
(so they land in the middle of showdowns: between a press and the launch, during a countdown).
Kept free of the simulator's heavy imports: the command line checks a plan before it builds one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["MAX_DELAY_MS", "FaultAction", "FaultPlan"]

FaultAction = Literal["replug", "reset"]

MAX_DELAY_MS = 10_000.0
"""The longest delay toward the host a plan takes: beyond it no handshake could finish."""


@dataclass(frozen=True)
class FaultPlan:
    """Faults for one run (see the module docstring).

    ``corrupt`` and ``drop``: the chance that a byte is altered or lost, in both directions.
    ``delay_ms``: every byte toward the host is held this long. ``replug_every`` and
    ``reset_every``: after every N-th input edge (0: never) the cable is pulled and plugged back,
    or the microcontroller reboots (a reset wins when both fall on one edge). ``at_edges`` names
    further edges (1, 2, ...) explicitly. ``seed`` seeds which bytes are hit.
    """

    corrupt: float = 0.0
    drop: float = 0.0
    delay_ms: float = 0.0
    replug_every: int = 0
    reset_every: int = 0
    at_edges: Mapping[int, FaultAction] = field(default_factory=dict)
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("corrupt", "drop"):
            value = getattr(self, name)
            if not 0.0 <= value < 1.0:
                raise ValueError(f"{name} must be a chance from 0 up to (not including) 1, "
                                 f"not {value}")
        if not 0.0 <= self.delay_ms <= MAX_DELAY_MS:
            raise ValueError(f"delay_ms must be 0 to {MAX_DELAY_MS:g}, not {self.delay_ms}")
        for name in ("replug_every", "reset_every"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be 0 (never) or more, not {getattr(self, name)}")
        for edge, action in self.at_edges.items():
            if edge < 1 or action not in ("replug", "reset"):
                raise ValueError(f"unknown fault {action!r} at edge {edge} (replug, reset)")

    @property
    def active(self) -> bool:
        """True when anything at all goes wrong."""
        return bool(self.corrupt or self.drop or self.delay_ms or self.replug_every
                    or self.reset_every or self.at_edges)

    @property
    def damages_bytes(self) -> bool:
        """True when bytes are corrupted, lost or delayed."""
        return bool(self.corrupt or self.drop or self.delay_ms)

    def action(self, edge: int) -> FaultAction | None:
        """What happens right after input edge number *edge* (1, 2, ...) reached the board."""
        if self.at_edges.get(edge) == "reset" or (
            self.reset_every and edge % self.reset_every == 0
        ):
            return "reset"
        if edge in self.at_edges or (self.replug_every and edge % self.replug_every == 0):
            return "replug"
        return None
