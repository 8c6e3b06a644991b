"""A harness that runs the reference firmware's objects directly, on a manual clock.

The host side is scripted: frames are built with the host's codec and fed to the firmware's link;
what the firmware writes is decoded with the host's decoder. No thread, no pty, no sleep.
"""

from __future__ import annotations

import random
from typing import Any

from firmware_bridge.codec import DecodeError, FrameDecoder, Packet, encode_frame
from firmware_bridge.messages import Ack, Configure, Hello, Message
from hw_sim.firmware import firmware_module
from hw_sim.micropython_standins import StandinMachine, StandinUtime
from showdown.unit.clock import ManualClock, ms

BOOT_ID = 0x5EED0001


class Firmware:
    """The firmware's Unit and McuLink on stand-ins, driven in the protocol's own words."""

    def __init__(self, start_ns: int = ms(1000), tick_bits: int = 30, *,
                 pull_up_us: int = 2000, read_cost_us: int = 0, settle: bool = True,
                 held: tuple[str, ...] = ()) -> None:
        self.clock = ManualClock(start_ns)
        self.tick_bits = tick_bits
        self.utime = StandinUtime(self.clock.now_ns, tick_bits, read_cost_ns=read_cost_us * 1000)
        self.machine = StandinMachine(self.utime, pull_up_ns=pull_up_us * 1000)
        for name in held:  # held down by hand before the power came
            self.machine.pin(self.pins[name]).drive(0, start_ns)
        self.changes: list[tuple[int, int]] = []
        for gpio in range(30):  # every output change, in order, as the MicroPython board keeps
            self.machine.pin(gpio).observers.append(
                lambda pin, level, _at: self.changes.append((pin.gpio, level)))
        self.unit: Any = firmware_module("sdfw_unit").Unit(self.machine, self.utime)
        self.wire = bytearray()
        self.link: Any = firmware_module("sdfw_link").McuLink(
            self.unit, self.wire.extend, BOOT_ID, tick_bits,
            random_bytes=random.Random(1).randbytes,
        )
        self.boot_id = BOOT_ID
        self.decoder = FrameDecoder()
        self.host_sequence = 0
        self.injected: list[int] = []
        self._injections: list[list[int]] = []
        self.machine.on_preempt = self._preempted
        if settle:  # booted: the inputs' pull-ups have settled
            self.advance(firmware_module("sdfw_unit").INPUT_SETTLE_MS)

    @property
    def protocol_errors(self) -> int:
        """Host commands the firmware refused for a field out of its range."""
        return int(self.link.protocol_errors)

    @property
    def pins(self) -> dict[str, int]:
        """Line name -> GPIO number."""
        pins: dict[str, int] = firmware_module("sdfw_unit").PINS
        return pins

    @property
    def now_us_unwrapped(self) -> int:
        """The firmware's clock now, not wrapped."""
        return self.utime.now_ns() // 1000

    def now_us(self) -> int:
        """The firmware's clock now (as ``ticks_us`` reads it; reading it here costs nothing)."""
        return self.now_us_unwrapped & ((1 << self.tick_bits) - 1)

    def inject(self, name: str, level: int, after: int) -> None:
        """Drive *name* to *level* at the *after*-th point where an interrupt may arrive (a
        clock or input read of the firmware); its time goes to :attr:`injected`."""
        self._injections.append([after, self.pins[name], level])

    def _preempted(self) -> None:
        due = []
        for item in self._injections:
            item[0] -= 1
            if item[0] < 0:
                due.append(item)
        for item in due:
            self._injections.remove(item)
            at_ns = self.utime.now_ns()
            self.injected.append(at_ns // 1000)
            self.machine.pin(item[1]).drive(item[2], at_ns)

    def stall(self, milliseconds: float) -> None:
        """Time passes with the main loop stuck (in a blocking write): only the hardware runs,
        its timers fire."""
        self.clock.advance(ms(milliseconds))
        self.machine.preempt(self.utime.now_ns())

    def step(self) -> None:
        """One pass of the main loop without input."""
        now = self.utime.ticks_us()
        self.unit.poll(now)
        self.link.service(now)

    def feed(self, data: bytes) -> None:
        """Bytes from the host, then one main-loop pass."""
        self.link.feed(data, self.utime.ticks_us())
        self.step()

    def send(self, message: Message, sequence: int | None = None) -> int:
        """A host frame (reliable ones numbered in turn unless *sequence* is given)."""
        if message.TYPE >= 0x10:
            if sequence is None:
                sequence = self.host_sequence
                self.host_sequence = (self.host_sequence + 1) & 0xFF
        else:
            sequence = 0
        self.feed(encode_frame(message, sequence))
        return sequence

    def advance(self, milliseconds: float, passes: int = 1) -> None:
        """Let time pass, in *passes* main-loop passes (one after each equal slice)."""
        total = ms(milliseconds)
        for index in range(passes):
            self.clock.advance(total * (index + 1) // passes - total * index // passes)
            self.step()

    def received(self, *, ack: bool = True) -> list[Packet]:
        """Every frame the firmware wrote since the last call (bad frames fail the test);
        with *ack*, the events among them are acknowledged as a host would."""
        items = self.decoder.feed(bytes(self.wire))
        self.wire.clear()
        assert not [item for item in items if isinstance(item, DecodeError)]
        packets = [item for item in items if isinstance(item, Packet)]
        events = [p for p in packets if p.message.TYPE >= 0x90]
        if ack and events:
            self.link.feed(encode_frame(Ack((events[-1].sequence + 1) & 0xFF)),
                           self.utime.ticks_us())
        return packets

    def messages(self) -> list[Message]:
        """The messages of :meth:`received` (acknowledged)."""
        return [packet.message for packet in self.received()]

    def connect(self, configure: Configure | None = None) -> None:
        """Hello (fresh), then Configure; acknowledge everything the firmware sent."""
        self.send(Hello(1, 1, 0))
        self.send(configure or Configure(500, 300, 1000, 10_000, 500))
        self.ack_all()

    def ack_all(self) -> list[Packet]:
        """Acknowledge every event the firmware sent; return what was read."""
        return self.received()

    def press(self, name: str, at_ns: int | None = None) -> None:
        """Pull an input low (active) at *at_ns* (default now)."""
        self.machine.pin(self.pins[name]).drive(
            0, self.utime.now_ns() if at_ns is None else at_ns)

    def release(self, name: str, at_ns: int | None = None) -> None:
        """Let an input go high."""
        self.machine.pin(self.pins[name]).drive(
            1, self.utime.now_ns() if at_ns is None else at_ns)

    def level(self, name: str) -> int:
        """An output pin's level."""
        return int(self.machine.pin(self.pins[name]).level)

    def output_changes(self, gpios: set[int]) -> list[tuple[int, int]]:
        """The changes of the outputs *gpios* since the last call, in order: ``(gpio, level)``."""
        changes = [change for change in self.changes if change[0] in gpios]
        self.changes.clear()
        return changes

    def close(self) -> None:
        """Nothing to end (the MicroPython harness ends its process)."""
