"""Showdown firmware: the Pico's start-up, its main loop and its recovery (``main.py`` calls
:func:`start`).

Facts of MicroPython's rp2 port this file is built on (``ports/rp2``, ``shared/tinyusb``):

- A write to the USB serial port, once the host has opened it, waits for room in the 256-byte
  TinyUSB FIFO and gives up only after 500 ms without progress (``MICROPY_HW_USB_CDC_TX_TIMEOUT``
  in ``mp_usbd_cdc_tx_strn``); polling it for ``POLLOUT`` says whether at least one byte fits.
  So :class:`UsbPort` writes one byte per call, only when polling says it fits, and keeps what
  waits in a bounded queue: the main loop never blocks on the host.
- ``os.urandom`` is filled by ``get_rand_64()`` (pico_rand, seeded from the ring oscillator
  among others), where ``ticks_cpu()`` is only ``time_us_32()`` again.
- ``machine.WDT`` takes at most 8388 ms on an RP2040 and cannot be stopped once started.
"""

import os
import select
import sys
import time

import machine
import micropython
import sdfw_link
import sdfw_proto as proto
import sdfw_unit

TICK_BITS = 30  # time.ticks_us() on the RP2040 wraps at 2**30 microseconds
WDT_TIMEOUT_MS = 2000  # a pass takes well under a millisecond; a crash resets within 2 s
BOOT_ID_FILE = "sdfw_boot.bin"  # the last boot's id, kept in flash
READ_CHUNK = 256
OUT_QUEUE_BYTES = 2048
POLLIN = 0x0001
POLLOUT = 0x0004


def boot_id(random_bytes, path=BOOT_ID_FILE):
    """This boot's id: random, and never the previous boot's (kept in the file *path*), so a
    reset cannot look like the boot before it even with a poor entropy source."""
    previous = 0
    try:
        with open(path, "rb") as stored:
            data = stored.read(4)
        if len(data) == 4:
            previous = int.from_bytes(data, "little")
    except OSError:
        pass
    value = sdfw_link.draw_boot_id(random_bytes, previous)
    try:
        with open(path, "wb") as stored:
            stored.write(value.to_bytes(4, "little"))
    except OSError:
        pass  # a full or read-only flash: the random draw alone still stands
    return value


class UsbPort:
    """The serial line to the host, never blocking: *stdin* / *stdout* streams and the ``select``
    module (``sys.stdin.buffer``, ``sys.stdout.buffer`` on a Pico)."""

    def __init__(self, stdin, stdout, select, limit=OUT_QUEUE_BYTES):
        self.stdin = stdin
        self.stdout = stdout
        self.readable = select.poll()
        self.readable.register(stdin, POLLIN)
        self.writable = select.poll()
        self.writable.register(stdout, POLLOUT)
        self.limit = limit
        self.queue = bytearray()
        self.sent = 0
        self.dropped = 0

    def read(self):
        """What the host has sent, up to READ_CHUNK bytes (b"" if nothing)."""
        data = b""
        while len(data) < READ_CHUNK and self._ready(self.readable, POLLIN):
            byte = self.stdin.read(1)
            if not byte:
                break
            data += byte
        return data

    def write(self, frame):
        """Queue a whole frame, or drop it whole when the queue is full (the link sends its
        reliable frames again; the others are sent again by their own schedule)."""
        if len(self.queue) - self.sent + len(frame) > self.limit:
            self.dropped += 1
            return
        self.queue.extend(frame)

    def pump(self):
        """Send what fits now, a byte per write so no write can wait for the host."""
        queue = self.queue
        while self.sent < len(queue) and self._ready(self.writable, POLLOUT):
            self.stdout.write(queue[self.sent:self.sent + 1])
            self.sent += 1
        if self.sent and self.sent == len(queue):
            self.queue = bytearray()
            self.sent = 0
        elif self.sent > self.limit:
            self.queue = self.queue[self.sent:]
            self.sent = 0

    @staticmethod
    def _ready(poller, event):
        return any(flags & event for _stream, flags in poller.ipoll(0))


class App:
    """The firmware's main loop: read the host, poll the unit, service the link, send."""

    def __init__(self, machine, time, port, boot, *, watchdog=None, tick_bits=TICK_BITS):
        self.machine = machine
        self.time = time
        self.port = port
        self.watchdog = watchdog
        self.unit = sdfw_unit.Unit(machine, time)
        self.link = sdfw_link.McuLink(self.unit, port.write, boot, tick_bits)
        self.failed = None

    def step(self):
        """One pass; it never sleeps, so an edge stamped by its interrupt goes out at once."""
        data = self.port.read()
        now = self.time.ticks_us()
        if data:
            self.link.feed(data, now)
        self.unit.poll(now)
        self.link.service(now)
        self.port.pump()
        if self.watchdog is not None:
            self.watchdog.feed()

    def run(self):
        """Pass after pass; after any error, :meth:`fail` (the watchdog then resets the chip)."""
        try:
            while True:
                self.step()
        except Exception as exc:  # whatever it was, the outputs go safe
            self.fail(exc)

    def fail(self, exc):
        """Every output off by its pin, a ``Fault(CRASH)`` sent, then no more watchdog feeding:
        the chip resets and the host starts a fresh session with the new boot."""
        self.failed = exc
        self._outputs_off()
        try:
            self.link.queue_event(proto.T_FAULT, (proto.FAULT_CRASH, self.time.ticks_us()))
            self.link.service(self.time.ticks_us())
        except Exception:  # the link may be what broke
            pass
        while True:
            try:
                self.port.pump()
            except Exception:
                pass
            if self.watchdog is None:
                self.machine.reset()
            self.time.sleep_ms(1)

    def _outputs_off(self):
        unit = self.unit
        # MicroPython has no unpacking inside a tuple display: concatenate.
        lights = ("light_red", "light_green", "arrow_left", "arrow_right")
        for name in sdfw_unit.LAUNCHER_REST + lights:
            try:
                self.machine.Pin(unit.pins[name], self.machine.Pin.OUT, value=0)
            except Exception:  # try every pin whatever one does
                pass
        try:
            unit.pwm.duty_u16(0)
        except Exception:
            pass
        try:
            unit.cutter.deinit()
        except Exception:
            pass


def timer_button_held(machine, time):
    """Whether the timer button is held at power-up (then the protocol does not start and the
    REPL stays on the USB port). Read only once its pull-up has had time to lift the line: out
    of reset the pin is pulled down and would read "held"."""
    pin = machine.Pin(sdfw_unit.PINS["timer_button"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(sdfw_unit.INPUT_SETTLE_MS)
    return pin.value() == 0


def start():
    """Power-up: the REPL if the timer button is held, else the protocol until a reset."""
    if timer_button_held(machine, time):
        micropython.kbd_intr(3)  # main.py turned Ctrl-C off; the REPL needs it back
        return
    if hasattr(micropython, "alloc_emergency_exception_buf"):  # the rp2 port has it
        micropython.alloc_emergency_exception_buf(100)
    watchdog = machine.WDT(timeout=WDT_TIMEOUT_MS)
    port = UsbPort(sys.stdin.buffer, sys.stdout.buffer, select)
    App(machine, time, port, boot_id(os.urandom), watchdog=watchdog).run()
