"""Showdown firmware for a Raspberry Pi Pico running MicroPython: the entry point.

Copy ``sdfw_proto.py``, ``sdfw_unit.py``, ``sdfw_link.py`` and this file to the Pico (see
``docs/firmware.md``, "Flashing a Pico"). The protocol runs over the USB serial port
(``sys.stdin`` / ``sys.stdout``) in binary, so Ctrl-C is turned off as an interrupt character; to
get the REPL back, hold the timer button while plugging in (the loop is then not started).
"""

import select
import sys

import machine
import micropython
import sdfw_link
import sdfw_unit
import utime

TICK_BITS = 30  # utime.ticks_us() on the RP2040 wraps at 2**30 microseconds


def boot_id():
    """A random non-zero 32-bit number for this power-up (PROTOCOL.md, Versioning)."""
    value = 0
    while value == 0:
        value = int.from_bytes(machine.unique_id()[-2:], "little") << 16
        value ^= utime.ticks_us() & 0xFFFF
        value ^= (utime.ticks_cpu() & 0xFFFF) << 8
        value &= 0xFFFFFFFF
    return value


def run():
    """The main loop: read the host, poll the unit, service the link; it never sleeps, so an edge
    stamped by its interrupt goes out within one pass (tens of microseconds)."""
    micropython.alloc_emergency_exception_buf(100)
    unit = sdfw_unit.Unit(machine, utime)
    out = sys.stdout.buffer
    link = sdfw_link.McuLink(unit, out.write, boot_id(), TICK_BITS)
    stdin = sys.stdin.buffer
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    micropython.kbd_intr(-1)
    try:
        while True:
            data = bytearray()
            while poller.poll(0) and len(data) < 256:
                data.extend(stdin.read(1))
            now = utime.ticks_us()
            if data:
                link.feed(bytes(data), now)
            unit.poll(now)
            link.service(now)
    finally:
        unit.safe(utime.ticks_us())
        micropython.kbd_intr(3)


if machine.Pin(sdfw_unit.PINS["timer_button"], machine.Pin.IN, machine.Pin.PULL_UP).value():
    run()
