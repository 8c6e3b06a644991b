"""The rp2 port's ``machine`` for the unix port: what the Showdown firmware uses, on ``board``.

Shadows the unix port's own ``machine`` (an extensible built-in: a file on ``sys.path`` wins, see
``py/builtinimport.c``). Names and behaviour follow ``ports/rp2`` of MicroPython: ``Pin`` with
hard interrupts, ``PWM`` raising "freq too small" below about 8 Hz, a one-shot ``Timer`` whose
callback runs as a hard IRQ at its deadline, ``WDT`` limited to 8388 ms.
"""

from board import BOARD, PWM_MAX_HZ, PWM_MIN_HZ, WDT_TIMEOUT_MAX_MS


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, gpio, mode=-1, pull=-1, *, value=None):
        self._line = BOARD.line(gpio)
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        line = self._line
        if mode != -1:
            line.mode = mode
        if value is not None and line.mode == 1:
            BOARD.output(line, value)
        if pull == 1:
            BOARD.pull_up(line)

    def value(self, level=None):
        line = self._line
        if level is None:
            if line.mode == 0:
                BOARD.preempt(BOARD.now())
            return line.level
        if line.mode == 1:
            BOARD.output(line, level)
        return None

    def irq(self, handler=None, trigger=12, *, hard=False):
        line = self._line
        line.handler = handler
        line.trigger = trigger
        line.pin = self


class PWM:
    def __init__(self, pin, *, freq=None, duty_u16=None):
        self._pin = pin
        self._freq = 0
        self._duty = 0
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        if value < PWM_MIN_HZ:
            raise ValueError("freq too small")
        if value > PWM_MAX_HZ:
            raise ValueError("freq too large")
        self._freq = value
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        line = self._pin._line
        line.mode = 1
        BOARD.output(line, 1 if value else 0)
        return None

    def deinit(self):
        self.duty_u16(0)


class Timer:
    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id=-1, **kwargs):
        self.deadline = None
        self._callback = None
        if kwargs:
            self.init(**kwargs)

    def init(self, *, mode=PERIODIC, period=-1, tick_hz=1000, freq=None, callback=None,
             hard=False):
        if mode != Timer.ONE_SHOT:
            raise ValueError("only ONE_SHOT timers are simulated")
        self.deinit()
        self._callback = callback
        self.deadline = BOARD.now() + period * 1000000 // tick_hz
        BOARD.timers.append(self)

    def deinit(self):
        if self in BOARD.timers:
            BOARD.timers.remove(self)
        self.deadline = None

    def fire(self):
        deadline, callback = self.deadline, self._callback
        self.deinit()
        if callback is not None:
            BOARD.interrupt(callback, self, deadline)


class WDT:
    def __init__(self, id=0, timeout=5000):
        if timeout > WDT_TIMEOUT_MAX_MS:
            raise ValueError("timeout exceeds 8388")
        BOARD.wdt_timeout_us = timeout * 1000
        BOARD.wdt_fed_at = BOARD.now()

    def feed(self):
        BOARD.wdt_fed_at = BOARD.now()


def unique_id():
    return BOARD.unique


def reset():
    import sys

    sys.exit(BOARD.RESET_EXIT if hasattr(BOARD, "RESET_EXIT") else 76)


def disable_irq():
    return 0


def enable_irq(state=0):
    return None


def freq(hz=None):
    return 125000000
