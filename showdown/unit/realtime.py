"""Keep the press-to-launch path fast on a busy Pi.

Two process-level measures, both applied by the service and the simulator, both optional:

- :func:`favour_edge_thread`: the thread that delivers edges (lgpio's callback thread, a serial
  reader, the simulator's feeder) asks for real-time scheduling (``SCHED_FIFO``) the first time it
  delivers one, so drawing the scoreboard on every core cannot keep it waiting for a CPU. It needs
  root or ``CAP_SYS_NICE`` (the systemd unit grants it); without, it logs once and carries on.
- :func:`shorten_gil_switch_interval`: Python hands the GIL to a waiting thread after the switch
  interval (5 ms by default); a shorter one bounds how long pure-Python drawing can hold up a press.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

__all__ = ["favour_edge_thread", "shorten_gil_switch_interval"]

log = logging.getLogger(__name__)
_favoured: set[int] = set()
_warned = False
_lock = threading.Lock()


def favour_edge_thread(priority: int) -> None:
    """Give the calling thread ``SCHED_FIFO`` at *priority* (1-99; 0: leave it alone), once.

    Never the main thread: edges reach it only in tests and the simulator's driver, and a
    real-time main thread competing with a real-time edge thread was seen to stall the simulator.
    """
    global _warned  # noqa: PLW0603 - one warning per process
    if priority <= 0 or not hasattr(os, "sched_setscheduler"):
        return
    if threading.current_thread() is threading.main_thread():
        return
    ident = threading.get_ident()
    with _lock:
        if ident in _favoured:
            return
        _favoured.add(ident)
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (OSError, AttributeError) as exc:
        if not _warned:
            _warned = True
            log.warning("edge thread keeps normal scheduling (%s): presses may wait for a CPU", exc)


def shorten_gil_switch_interval(interval_ms: float) -> None:
    """Set Python's GIL switch interval to *interval_ms* (0: leave the default)."""
    if interval_ms > 0:
        sys.setswitchinterval(interval_ms / 1000)
