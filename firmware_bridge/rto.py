"""The retransmission timeout from measured round trips, as TCP computes it (RFC 6298).

A fixed timeout fails both ways: shorter than the line's round trip (a slow USB hub, a loaded Pi)
it resends every command again and again and the link never settles; much longer, a lost frame
waits for nothing. So the host measures the round trip and keeps a smoothed mean (SRTT) and mean
deviation (RTTVAR): ``RTO = SRTT + max(G, 4 * RTTVAR)``, with the RFC's gains 1/8 and 1/4.

Only unambiguous round trips are measured (Karn's rule): a heartbeat's reply echoes its token, and
a command acknowledged after being sent once; a command sent twice could be answered for either.
The timeout never goes below ``floor_s`` (the protocol's ``RETRANSMIT_MS``, where the RFC says one
second: this is a wire, not the Internet) nor above ``ceiling_s``; before the first measurement it
is ``initial_s`` (the link passes the floor: see ``PROTOCOL.md``). There is no backoff on expiry
(the RFC's 5.5): it spares a congested network, but a serial line does not congest, a frame lost
to noise is best sent again at once (backing off made commands four times slower with 10 % of
bytes damaged), and the heartbeats measure a round trip that grew ten times a second without it.

    >>> rto = RetransmitTimeout(floor_s=0.03, ceiling_s=2.0)
    >>> rto.timeout_s
    1.0
    >>> rto.sample(0.3)
    >>> round(rto.timeout_s, 3)  # 0.3 + 4 * 0.15
    0.9
"""

from __future__ import annotations

__all__ = ["RetransmitTimeout"]

ALPHA = 1 / 8
BETA = 1 / 4
K = 4


class RetransmitTimeout:
    """SRTT, RTTVAR and the timeout derived from them (see the module docstring)."""

    def __init__(
        self,
        *,
        floor_s: float,
        ceiling_s: float,
        initial_s: float = 1.0,
        granularity_s: float = 0.001,
    ) -> None:
        self.floor_s = floor_s
        self.ceiling_s = ceiling_s
        self.initial_s = initial_s
        self.granularity_s = granularity_s
        self.srtt_s: float | None = None
        self.rttvar_s = 0.0
        self.samples = 0

    @property
    def timeout_s(self) -> float:
        """How long the oldest unacknowledged command waits before everything is sent again."""
        if self.srtt_s is None:
            base = self.initial_s
        else:
            base = self.srtt_s + max(self.granularity_s, K * self.rttvar_s)
        return min(max(base, self.floor_s), self.ceiling_s)

    def sample(self, rtt_s: float) -> None:
        """One measured round trip (never of a retransmitted message): update the estimate."""
        rtt_s = max(rtt_s, 0.0)
        if self.srtt_s is None:
            self.srtt_s = rtt_s
            self.rttvar_s = rtt_s / 2
        else:
            self.rttvar_s = (1 - BETA) * self.rttvar_s + BETA * abs(self.srtt_s - rtt_s)
            self.srtt_s = (1 - ALPHA) * self.srtt_s + ALPHA * rtt_s
        self.samples += 1
