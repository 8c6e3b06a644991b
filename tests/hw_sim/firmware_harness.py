"""A harness that runs the reference firmware's objects directly, on a manual clock.

The host side is scripted: frames are built with the host's codec and fed to the firmware's link;
what the firmware writes is decoded with the host's decoder. No thread, no pty, no sleep.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.codec import DecodeError, FrameDecoder, Packet, encode_frame
from firmware_bridge.messages import Ack, Configure, Hello, Message
from hw_sim.firmware import firmware_module
from hw_sim.micropython_standins import StandinMachine, StandinUtime
from showdown.unit.clock import ManualClock, ms

BOOT_ID = 0x5EED0001


class Firmware:
    """The firmware's Unit and McuLink on stand-ins, driven in the protocol's own words."""

    def __init__(self, start_ns: int = ms(1000), tick_bits: int = 30) -> None:
        self.clock = ManualClock(start_ns)
        self.utime = StandinUtime(self.clock.now_ns, tick_bits)
        self.machine = StandinMachine(self.utime)
        self.unit: Any = firmware_module("sdfw_unit").Unit(self.machine, self.utime)
        self.wire = bytearray()
        self.link: Any = firmware_module("sdfw_link").McuLink(
            self.unit, self.wire.extend, BOOT_ID, tick_bits
        )
        self.decoder = FrameDecoder()
        self.host_sequence = 0

    def now_us(self) -> int:
        """The firmware's clock now."""
        return self.utime.ticks_us()

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

    def advance(self, milliseconds: float) -> None:
        """Let time pass and run the main loop once."""
        self.clock.advance(ms(milliseconds))
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
        self.machine.pin(firmware_module("sdfw_unit").PINS[name]).drive(
            0, self.clock.now_ns() if at_ns is None else at_ns)

    def release(self, name: str, at_ns: int | None = None) -> None:
        """Let an input go high."""
        self.machine.pin(firmware_module("sdfw_unit").PINS[name]).drive(
            1, self.clock.now_ns() if at_ns is None else at_ns)

    def level(self, name: str) -> int:
        """An output pin's level."""
        return int(self.machine.pin(firmware_module("sdfw_unit").PINS[name]).level)
