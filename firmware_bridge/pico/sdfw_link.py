"""Showdown firmware: the microcontroller's side of the protocol's flow, in MicroPython.

Answers hellos and heartbeats, carries out host commands exactly once and in order (acknowledging
each, re-acknowledging duplicates, asking for a go-back when one is missing), and sends the unit's
events reliably: sequenced, kept until acknowledged, retransmitted, never given up on.
"""

import os

import sdfw_proto as proto


def draw_boot_id(random_bytes, avoid=0):
    """A random non-zero 32-bit boot id other than *avoid* (PROTOCOL.md, Versioning).

    *random_bytes(n)* must be a real entropy source: on a Pico ``os.urandom``, which the rp2 port
    fills from ``get_rand_64()`` (pico_rand: the ring oscillator's random bit among its sources);
    ``ticks_cpu()`` is no help there, it reads the same microsecond counter as ``ticks_us()``.
    """
    for _ in range(8):
        value = int.from_bytes(random_bytes(4), "little")
        if value and value != avoid:
            return value
    # A source that keeps giving the same bytes is broken; still never repeat the last boot.
    return (avoid + 1) & 0xFFFFFFFF or 1


class McuLink:
    """One microcontroller's end of the link; ``write(bytes)`` puts bytes on the serial line."""

    def __init__(self, unit, write, boot_id, tick_bits, capabilities=0xFF, *, random_bytes=None):
        self.unit = unit
        unit.link = self
        self.write = write
        self.boot_id = boot_id
        self.random_bytes = random_bytes or os.urandom
        self.answered = False  # no HelloReply sent since boot: nothing to resume
        self.repeatable = None  # host boot of the hello last answered, until another frame comes
        self.tick_bits = tick_bits
        self.capabilities = capabilities
        self.reader = proto.FrameReader()
        self.rx_expected = 0
        self.tx_next = 0
        self.unacked = []  # [sequence, frame] oldest first
        self.sent_count = 0  # how many of unacked have been sent since the last go-back
        self.last_send = unit.now()
        self.session = False
        self.overflowed = False
        self.events_lost = 0
        self.protocol_errors = 0  # commands refused for a field out of its range

    def feed(self, data, now):
        """Handle bytes read from the host."""
        for type_code, sequence, payload in self.reader.feed(data):
            self.unit.heard(now)
            self._frame(type_code, sequence, payload, now)
        self._send_window(now)

    def _frame(self, type_code, sequence, payload, now):
        # The reader passed only frames whose payload fits their type.
        if type_code == proto.T_HELLO:
            self._hello(proto.unpack(type_code, payload), now)
            return
        self.repeatable = None  # the host is past its handshake: a later hello is a new one
        if type_code == proto.T_HEARTBEAT:
            token = proto.unpack(type_code, payload)[0]
            self._send(proto.T_HEARTBEAT_REPLY, 0, (token, now & 0xFFFFFFFF, self.unit.status()))
        elif type_code == proto.T_ACK:
            self._acked(proto.unpack(type_code, payload)[0], now)
        elif proto.is_reliable(type_code) and type_code < 0x80:
            self._command(type_code, sequence, payload, now)

    def _hello(self, values, now):
        min_version, max_version, host_boot = values
        version = 0
        if min_version <= proto.PROTOCOL_VERSION <= max_version:
            version = proto.PROTOCOL_VERSION
        fresh = host_boot != self.boot_id
        if fresh and self.answered and host_boot == self.repeatable:
            # The same hello again with nothing from the host in between: a copy the host sent
            # while our reply was on its way (it retries fast). Starting over would renumber
            # events the host may already have; answer it as it stands.
            fresh = False
        if not fresh and not self.answered:
            # A host can only know this boot's id from a HelloReply of this boot; since none has
            # gone out, it met an earlier boot that drew the same id. Draw another, so the host
            # sees a fresh session instead of resuming one whose sequences are gone.
            self.boot_id = draw_boot_id(self.random_bytes, host_boot)
            fresh = True
        if fresh:
            self.unacked = []
            self.tx_next = 0
            self.rx_expected = 0
        self.session = True
        self.sent_count = 0  # resend everything unacknowledged after the reply
        if fresh:
            self.unit.session_started(now)
        # The first event the host will get: the oldest unacknowledged one, else the next.
        first = self.unacked[0][0] if self.unacked else self.tx_next
        self.answered = True
        self.repeatable = host_boot
        self._send(proto.T_HELLO_REPLY, 0, (version, self.capabilities, self.boot_id,
                                            self.tick_bits, self.rx_expected, first,
                                            self.unit.held_inputs()))

    def _command(self, type_code, sequence, payload, now):
        ahead = proto.sequence_ahead(sequence, self.rx_expected)
        if ahead == 0:
            self.rx_expected = (self.rx_expected + 1) & 0xFF
            if type_code in proto.FORMATS:  # its length was checked with the frame
                values = proto.unpack(type_code, payload)
                if proto.out_of_range(type_code, values) >= 0:
                    self.protocol_errors += 1
                    reason = proto.NACK_BAD_PAYLOAD
                else:
                    reason = self.unit.command(type_code, values, now)
            else:
                reason = proto.NACK_UNKNOWN_TYPE
            if reason:
                self.queue_event(proto.T_NACK, (sequence, reason))
        # In order, duplicate or ahead (one missing): say what comes next.
        self._send(proto.T_MCU_ACK, 0, (self.rx_expected,))

    def _acked(self, next_expected, now):
        released = 0
        while self.unacked and proto.sequence_ahead(self.unacked[0][0], next_expected) < 0:
            self.unacked.pop(0)
            released += 1
        if released:
            self.sent_count = max(self.sent_count - released, 0)
            self.last_send = now
        elif (
            self.unacked
            and self.unacked[0][0] == next_expected
            and self.sent_count
            and self.unit.utime.ticks_diff(now, self.last_send) >= proto.RETRANSMIT_MS * 333
        ):
            # The host is missing the oldest: go back (at most once per a third of a period).
            self.sent_count = 0

    def queue_event(self, type_code, values):
        """Queue one reliable event; it is sent now if the window allows and kept until acked."""
        if len(self.unacked) >= proto.EVENT_QUEUE - 1:
            # Full: drop this new event before it has a sequence (no gap for the host to wait
            # on) and report the loss once, in the slot kept free for it.
            self.events_lost += 1
            if not self.overflowed:
                self.overflowed = True
                self._queue(proto.T_FAULT, (proto.FAULT_QUEUE_OVERFLOW, self.unit.now()))
            return
        self.overflowed = False
        self._queue(type_code, values)

    def _queue(self, type_code, values):
        sequence = self.tx_next
        self.tx_next = (self.tx_next + 1) & 0xFF
        payload = proto.pack(type_code, values)
        self.unacked.append([sequence, proto.encode_frame(type_code, sequence, payload)])

    def service(self, now):
        """Send what the window allows and retransmit what waited too long."""
        if self.unacked and self.sent_count and self.unit.utime.ticks_diff(
            now, self.last_send
        ) >= proto.RETRANSMIT_MS * 1000:
            self.sent_count = 0
        self._send_window(now)

    def _send_window(self, now):
        if not self.session:
            return
        limit = min(len(self.unacked), proto.WINDOW)
        if self.sent_count >= limit:
            return
        for index in range(self.sent_count, limit):
            self.write(self.unacked[index][1])
        self.sent_count = limit
        self.last_send = now

    def _send(self, type_code, sequence, values):
        self.write(proto.encode_frame(type_code, sequence, proto.pack(type_code, values)))
