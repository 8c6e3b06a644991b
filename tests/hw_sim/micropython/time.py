"""The rp2 port's ``time`` for the unix port: 30-bit microsecond ticks on ``board``'s clock.

Shadows the unix port's ``time``, an extensible built-in (``utime`` cannot be shadowed: the unix
port resolves that alias to its built-in first, so the firmware imports ``time``). On a Pico
``ticks_us()`` and ``ticks_cpu()`` both read ``time_us_32()`` (ports/rp2/mphalport.h) and
``MICROPY_PY_TIME_TICKS_PERIOD`` is 2**30; the unix port's own ticks wrap at 2**62.
"""

from board import BOARD


def ticks_us():
    return BOARD.ticks()


def ticks_cpu():
    return BOARD.ticks()


def ticks_ms():
    return (BOARD.ticks() // 1000) & BOARD.mask


def ticks_add(ticks, delta):
    return (ticks + delta) & BOARD.mask


def ticks_diff(ticks1, ticks2):
    half = 1 << (BOARD.bits - 1)
    return ((ticks1 - ticks2 + half) & BOARD.mask) - half


def sleep_us(us):
    BOARD.sleep_us(us)


def sleep_ms(ms):
    BOARD.sleep_us(ms * 1000)


def sleep(seconds):
    BOARD.sleep_us(int(seconds * 1000000))
