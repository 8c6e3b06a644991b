"""A simulated Raspberry Pi Pico for the firmware under the real MicroPython interpreter.

The unix port has no GPIO, PWM, hardware timers or watchdog, and its ``ticks_us`` wraps at 2**62.
The shim modules beside this file (``machine``, ``time``) give the firmware what the rp2 port
gives it, backed by the one :data:`BOARD` here:

- a clock in microseconds: manual (moved by the bench, or by each read when ``read_cost_us`` is
  set: a loop pass takes time) or free-running (the host's monotonic clock plus a jump offset);
  ``ticks_us`` wraps at 2**30 as ``time_us_32()`` masked by ``MICROPY_PY_TIME_TICKS_PERIOD`` does
  on a Pico;
- pins that come out of reset pulled down and whose pull-ups take ``pull_up_us`` to lift a line;
- interrupts (pin edges, one-shot timers) run as hard IRQs: ``micropython.heap_lock()`` around
  the handler, as ``mp_irq_dispatch`` locks the GC, so a handler that allocates fails here;
- a point where an interrupt may arrive at every clock read and every input read (the bench
  injects edges there, and due timers fire there with their own time);
- PWM frequency limits and the watchdog's maximum timeout as on an RP2040.
"""

import json
import os
import select

import micropython
import utime as host_time  # the built-in: `time` is the shim beside this file

MASK_BITS = 30
WDT_TIMEOUT_MAX_MS = 8388  # rp2 machine_wdt.c on an RP2040
PWM_MIN_HZ = 8  # machine_pwm.c at 125 MHz: divider 256 and more is "freq too small"
PWM_MAX_HZ = 62500000
WATCHDOG_RESET = 75  # exit status of the process when the watchdog "resets the chip"


class Line:
    """One GPIO's electrical state, shared by every ``Pin`` object made for it."""

    def __init__(self, gpio):
        self.gpio = gpio
        self.mode = 0  # IN
        self.level = 0  # out of reset an RP2040 pin is pulled down
        self.driven = False
        self.rises_at = None
        self.handler = None
        self.trigger = 0
        self.pin = None


class Board:
    def __init__(self):
        self.reset()

    def reset(self, bits=MASK_BITS, start_us=0, pull_up_us=2000, read_cost_us=0, free=False):
        self.bits = bits
        self.mask = (1 << bits) - 1
        self.clock_us = start_us
        self.free = free
        self.offset_us = start_us - host_time.ticks_us() if free else 0
        self.read_cost_us = read_cost_us
        self.pull_up_us = pull_up_us
        self.irq_at = None
        self.preempting = False
        self.lines = {}
        self.timers = []
        self.rising = []
        self.injections = []  # [calls_left, gpio, level]
        self.injected = []  # when each injected edge happened
        self.hook = None
        self.changes = []  # (gpio, level, at_us) of outputs
        self.irq_error = [None]
        self.wdt_timeout_us = 0
        self.wdt_fed_at = 0
        self.watchdog_expired = False
        self.unique = b"\xe6\x61\x38\x52\x83\x2c\x4f\x29"

    # -- time ------------------------------------------------------------------------------

    def now(self):
        """The unwrapped clock now (no side effects)."""
        if self.free:
            return host_time.ticks_us() + self.offset_us
        return self.clock_us

    def current(self):
        """The time of what runs now: an interrupt's own time inside one."""
        if self.irq_at is not None:
            return self.irq_at
        return self.now()

    def ticks(self):
        if self.irq_at is not None:
            return self.irq_at & self.mask
        at = self.now()
        if self.read_cost_us:
            self.clock_us += self.read_cost_us
        self.preempt(at)
        return at & self.mask

    def advance(self, us):
        """Move the manual clock on, running what falls due on the way at its own time."""
        target = self.now() + us
        while True:
            due = self._next_due()
            if due is None or due > target:
                break
            if due > self.now():
                self._set(due)
            self.preempt(self.now())
        self._set(target)
        self.preempt(target)

    def jump(self, us):
        """Free-running clock: jump ahead (a quiet stretch without waiting for it)."""
        if self.free:
            self.offset_us += us
            self.wdt_fed_at += us  # the loop fed the watchdog all along
        else:
            self.advance(us)

    def sleep_us(self, us):
        """What ``time.sleep_us`` does to this board."""
        if self.free:
            end = self.now() + us
            while self.now() < end:
                self.preempt(self.now())
                host_time.sleep_us(min(end - self.now(), 1000))
        else:
            self.advance(us)

    def _set(self, at):
        self.clock_us = at

    def _next_due(self):
        due = None
        for line in self.rising:
            if due is None or line.rises_at < due:
                due = line.rises_at
        for timer in self.timers:
            if due is None or timer.deadline < due:
                due = timer.deadline
        if self.wdt_timeout_us and not self.watchdog_expired:
            expiry = self.wdt_fed_at + self.wdt_timeout_us
            if due is None or expiry < due:
                due = expiry
        return due

    # -- between two instructions -----------------------------------------------------------

    def preempt(self, at):
        """Anything that may happen before the main program's next instruction."""
        if self.irq_at is not None or self.preempting:
            return
        self.preempting = True
        try:
            for line in list(self.rising):
                if line.rises_at <= at:
                    self.rising.remove(line)
                    rise, line.rises_at = line.rises_at, None
                    if line.mode == 0:
                        self.change(line, 1, rise)
            for timer in list(self.timers):
                if timer.deadline <= at:
                    timer.fire()
            if self.injections:
                self._inject(at)
            if self.wdt_timeout_us and not self.watchdog_expired and (
                at - self.wdt_fed_at >= self.wdt_timeout_us
            ):
                self.watchdog_expired = True
                self.watchdog_bites()
            if self.hook is not None:
                self.hook(at)
        finally:
            self.preempting = False

    # -- a board run by a test from outside (main.py in its own process) ------------------

    def attach(self, commands_fd, events_fd, pull_up_us, pause):
        """Free-running clock; commands read from *commands_fd* at every interrupt point,
        output changes and answers written to *events_fd* (JSON lines)."""
        self.reset(pull_up_us=pull_up_us, free=True)
        self.commands = open(commands_fd, "rb")  # noqa: SIM115 - open while the board lives
        self.events = open(events_fd, "wb")  # noqa: SIM115
        self.pending = select.poll()
        self.pending.register(self.commands, select.POLLIN)
        self.idle_at = host_time.ticks_us()
        self.hook = self._serve
        self.tell({"booted": self.now()})
        if pause:
            # Stop here (while main.py imports) until the test says "go".
            self.tell({"paused": self.now()})
            while not self._command(self.commands.readline()):
                pass

    def tell(self, event):
        self.events.write(json.dumps(event).encode() + b"\n")

    def _serve(self, at):
        if self.changes:
            changes, self.changes = self.changes, []
            for gpio, level, when in changes:
                self.tell({"gpio": gpio, "level": level, "at": when & self.mask})
        while any(flags & select.POLLIN for _s, flags in self.pending.ipoll(0)):
            self._command(self.commands.readline())
        # The simulated Pico's loop never sleeps; this process sometimes does, so that the test
        # beside it keeps a core.
        if host_time.ticks_diff(host_time.ticks_us(), self.idle_at) > 2000:
            host_time.sleep_us(300)
            self.idle_at = host_time.ticks_us()

    def _command(self, line):
        """Carry out one command line; True for "go"."""
        command = json.loads(line)
        op = command["op"]
        if op == "drive":
            self.drive(command["gpio"], command["level"], self.now())
            self.tell({"driven": command["gpio"], "at": self.now() & self.mask})
        elif op == "jump":
            self.jump(command["us"])
            self.tell({"jumped": self.now() & self.mask})
        elif op == "levels":
            self.tell({"levels": {str(g): line.level for g, line in self.lines.items()}})
        return op == "go"

    def _inject(self, at):
        keep = []
        for item in self.injections:
            item[0] -= 1
            if item[0] < 0:
                self.injected.append(at)
                self.drive(item[1], item[2], at)
            else:
                keep.append(item)
        self.injections = keep

    def watchdog_bites(self):
        """The watchdog was not fed in time: the chip resets (overridden by the bench)."""
        import sys

        sys.exit(WATCHDOG_RESET)

    # -- pins ------------------------------------------------------------------------------

    def line(self, gpio):
        line = self.lines.get(gpio)
        if line is None:
            line = Line(gpio)
            self.lines[gpio] = line
        return line

    def pull_up(self, line):
        if line.mode == 0 and not line.driven and not line.level and line.rises_at is None:
            line.rises_at = self.now() + self.pull_up_us
            self.rising.append(line)

    def drive(self, gpio, level, at):
        """An outside circuit sets an input's level at time *at*; its interrupt fires."""
        line = self.line(gpio)
        line.driven = True
        if line.rises_at is not None:
            line.rises_at = None
            self.rising.remove(line)
        self.change(line, level, at)

    def change(self, line, level, at):
        level = 1 if level else 0
        if level == line.level:
            return
        line.level = level
        wanted = 8 if level else 4
        if line.handler is not None and line.trigger & wanted:
            self.interrupt(line.handler, line.pin, at)

    def interrupt(self, handler, argument, at):
        """Run *handler(argument)* as a hard IRQ at time *at*: heap locked, clock reads *at*."""
        self.irq_at = at
        failed = self.irq_error
        micropython.heap_lock()
        try:
            handler(argument)
        except Exception as exc:
            failed[0] = exc
        micropython.heap_unlock()
        self.irq_at = None
        if failed[0] is not None:
            exc, failed[0] = failed[0], None
            raise RuntimeError("hard interrupt handler failed: " + repr(exc))

    def output(self, line, level):
        level = 1 if level else 0
        if level != line.level:
            line.level = level
            # The board's own record is hardware, not firmware: it may allocate inside an IRQ.
            locked = self.irq_at is not None
            if locked:
                micropython.heap_unlock()
            self.changes.append((line.gpio, level, self.current()))
            if locked:
                micropython.heap_lock()


BOARD = Board()
if os.getenv("SDFW_BOARD_COMMANDS"):
    BOARD.attach(int(os.getenv("SDFW_BOARD_COMMANDS")), int(os.getenv("SDFW_BOARD_EVENTS")),
                 int(os.getenv("SDFW_PULL_UP_US") or 2000), os.getenv("SDFW_PAUSE") == "1")
