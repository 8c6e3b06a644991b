"""The host's end of the serial link: handshake, reliable commands, exactly-once events, reconnect.

One daemon reader thread owns the port: it reads and decodes frames, acknowledges and delivers
the microcontroller's events (in order, exactly once: ``PROTOCOL.md``, "Flow"), retransmits
unacknowledged commands, sends heartbeats, feeds :class:`~firmware_bridge.timesync.ClockSync`,
and after a ``SerialException`` (unplugged) reopens the port with exponential backoff and says
``Hello`` again. :meth:`Link.send` may be called from any thread; it writes at once when it can.

Retransmission waits for a timeout computed from measured round trips
(:class:`~firmware_bridge.rto.RetransmitTimeout`, RFC 6298), so a slow line settles instead of
being resent into a reconnect; a lossy line is not given up on while the microcontroller still
acknowledges now and then (``LINK_STALL_MS``). Whoever owns the link hears when it goes down
(``on_down``): edges may then come late or never.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import serial

from firmware_bridge.codec import DecodeError, FrameDecoder, Packet, ProtocolError, encode_frame
from firmware_bridge.messages import (
    Ack,
    Arm,
    Fire,
    Heartbeat,
    HeartbeatReply,
    Hello,
    HelloReply,
    McuAck,
    Message,
    Safe,
    Unknown,
)
from firmware_bridge.ports import NoDeviceError, find_port
from firmware_bridge.protocol import (
    EVENT_QUEUE,
    HEARTBEAT_MS,
    HELLO_ATTEMPTS,
    HELLO_TIMEOUT_MS,
    LINK_STALL_MS,
    LOST_ZERO_COPIES,
    MAX_RETRANSMITS,
    MIN_VERSION,
    PROTOCOL_VERSION,
    RECONNECT_MAX_MS,
    RECONNECT_MIN_MS,
    RETRANSMIT_MS,
    RTO_MAX_MS,
    WINDOW,
    is_reliable,
    sequence_ahead,
)
from firmware_bridge.rto import RetransmitTimeout
from firmware_bridge.timesync import ClockSync

__all__ = ["Link", "LinkError", "LinkFigures", "LinkStats"]

log = logging.getLogger(__name__)

EventHandler = Callable[[Message], None]
SessionHandler = Callable[[bool], None]
DownHandler = Callable[[str], None]
PortOpener = Callable[[str], serial.Serial]

_READ_TIMEOUT_S = 0.002
HANDSHAKE_S = HELLO_ATTEMPTS * HELLO_TIMEOUT_MS / 1000
"""How long a freshly opened port has to answer a hello before it is reopened (or, when it
sent nothing at all, before the link backs off)."""


class LinkError(Exception):
    """The link cannot work: no device, no answer, or a firmware speaking another version."""


@dataclass
class LinkStats:
    """Counters for logs and benchmarks."""

    decode_errors: int = 0
    """Frames dropped as bad (noise, a CRC that fails, and the protocol errors below)."""
    protocol_errors: int = 0
    """Of those, frames that passed the CRC yet break the protocol (a field out of range)."""
    retransmit_rounds: int = 0
    go_backs: int = 0
    reconnects: int = 0
    fresh_sessions: int = 0
    duplicates_dropped: int = 0
    rtt_samples: int = 0
    dropped_commands: list[Message] = field(default_factory=list)


@dataclass(frozen=True)
class LinkFigures:
    """The link's figures at one moment (:meth:`Link.figures`), for the service's stats line
    and a support bundle: counters since the link was made, round trips in milliseconds."""

    path: str
    connected: bool
    srtt_ms: float | None
    """The smoothed round trip (RFC 6298's SRTT); ``None`` before the first measurement."""
    last_rtt_ms: float | None
    """The latest measured round trip."""
    rto_ms: float
    """How long an unacknowledged command waits before it is sent again."""
    rtt_samples: int
    retransmit_rounds: int
    go_backs: int
    damaged_frames: int
    """Frames that failed to decode (COBS, CRC, length, a field's range): dropped."""
    duplicates_dropped: int
    dropped_commands: int
    """Commands withdrawn or given up (a ``Fire`` or ``Arm`` across a restart of the MCU)."""
    reconnects: int
    """Times the port was dropped (unplugged, silent, closed) and opened again."""
    fresh_sessions: int
    """Handshakes that began a new session: the first one, then one per restart of the MCU."""
    protocol_errors: int = 0
    """Of the damaged frames, those that passed the CRC yet break the protocol (a field out of
    its range, a payload of the wrong length)."""


def _open_serial(path: str) -> serial.Serial:
    return serial.serial_for_url(path, baudrate=115200, timeout=_READ_TIMEOUT_S,
                                 write_timeout=0.5)


class Link:
    """A reliable, reconnecting link to one microcontroller. See the module docstring.

    *port*: a path or pyserial URL, or ``None`` to find the unit (:func:`find_port`), or a
    callable returning one (asked again at every reconnect). *on_event* receives each reliable
    event once, in order, from the reader thread. *on_session* is called with ``True`` at every
    fresh session (the MCU booted or another host had it) before queued commands are resent, so
    the caller can send ``Configure`` and the current outputs again. *on_down* is called with
    the reason each time a link that was in session goes down (from the reader thread, outside
    the link's locks). *now_ns* is the host clock that MCU times are mapped to.
    """

    def __init__(
        self,
        port: str | Callable[[], str] | None,
        *,
        on_event: EventHandler,
        on_session: SessionHandler | None = None,
        on_down: DownHandler | None = None,
        now_ns: Callable[[], int] = time.monotonic_ns,
        opener: PortOpener = _open_serial,
    ) -> None:
        self._port_spec = port
        self.path = ""
        """The port the link last opened, by the name it was given (``/dev/showdown-unit``)."""
        self._on_event = on_event
        self._on_session = on_session
        self._on_down = on_down
        self._down_why: str | None = None  # a drop not yet reported to on_down
        self._now_ns = now_ns
        self._opener = opener
        self.sync = ClockSync()
        self.stats = LinkStats()
        self._protocol_errors_seen: dict[str, int] = {}  # copies of the latest, oldest first
        self.rto = RetransmitTimeout(floor_s=RETRANSMIT_MS / 1000, ceiling_s=RTO_MAX_MS / 1000,
                                     initial_s=RETRANSMIT_MS / 1000)
        self._last_rtt_s: float | None = None
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._idle_cond = threading.Condition(self._lock)
        self._serial: serial.Serial | None = None
        self._decoder = FrameDecoder()
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._synced = threading.Event()
        self._thread: threading.Thread | None = None
        self._fatal: LinkError | None = None
        self._last_error = ""
        self._boot_id = 0
        self._capabilities = 0
        self.hello: HelloReply | None = None
        # Host -> MCU reliable commands: [sequence, message, frame], oldest first.
        self._unacked: list[tuple[int, Message, bytes]] = []
        self._sent = 0  # how many of _unacked are on the wire since the last (re)send round
        self._first_sent_s: dict[int, float] = {}  # sequence -> first write (Karn: once only)
        self._resent: set[int] = set()
        self._tx_next = 0
        self._last_send_s = 0.0
        self._last_go_back_s = 0.0
        self._progress_s = 0.0  # the last acknowledgement that released a command
        self._rounds = 0
        self._rx_expected = 0
        # Handshake and heartbeat.
        self._handshaking = False
        self._hello_attempts = 0
        self._hello_deadline_s = 0.0
        self._handshake_started_s = 0.0
        self._next_heartbeat_s = 0.0
        self._tokens = itertools.count(1)
        self._pending_tokens: dict[int, tuple[int, float]] = {}  # token -> (now_ns, monotonic)
        self._backoff_s = RECONNECT_MIN_MS / 1000
        self._heard_bytes = False  # anything at all came from the port since it was opened

    # -- public -------------------------------------------------------------------------

    @property
    def boot_id(self) -> int:
        """The MCU boot this link is in session with (0 before the first handshake)."""
        return self._boot_id

    @property
    def capabilities(self) -> int:
        """The MCU's ``CAP_*`` bits from its last ``HelloReply``."""
        return self._capabilities

    @property
    def connected(self) -> bool:
        """True while the port is open and the handshake is done."""
        return self._ready.is_set()

    def figures(self) -> LinkFigures:
        """The link's counters and round trips now (a consistent copy, from any thread)."""
        with self._lock:
            stats, rto = self.stats, self.rto
            return LinkFigures(
                path=self.path,
                connected=self._ready.is_set(),
                srtt_ms=None if rto.srtt_s is None else rto.srtt_s * 1000,
                last_rtt_ms=None if self._last_rtt_s is None else self._last_rtt_s * 1000,
                rto_ms=rto.timeout_s * 1000,
                rtt_samples=stats.rtt_samples,
                retransmit_rounds=stats.retransmit_rounds,
                go_backs=stats.go_backs,
                damaged_frames=stats.decode_errors,
                duplicates_dropped=stats.duplicates_dropped,
                dropped_commands=len(stats.dropped_commands),
                reconnects=stats.reconnects,
                fresh_sessions=stats.fresh_sessions,
                protocol_errors=stats.protocol_errors,
            )

    def open(self, timeout_s: float = 3.0) -> None:
        """Start the reader thread and wait for the first handshake; :class:`LinkError` if none."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="firmware-link", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout_s
        answered = self._ready.wait(timeout_s) and self._fatal is None
        if answered:
            answered = self._synced.wait(max(deadline - time.monotonic(), 0.0))
        if not answered:
            fatal = self._fatal
            self.close(safe=False)
            if fatal is not None:
                raise fatal
            why = f" ({self._last_error})" if self._last_error else ""
            raise LinkError(
                f"no answer from the unit's microcontroller within {timeout_s:g} s{why}"
            )

    def wait_connected(self, timeout_s: float) -> bool:
        """Wait until the link is connected, handshaken and time-synced; False on timeout."""
        deadline = time.monotonic() + timeout_s
        return self._ready.wait(timeout_s) and self._synced.wait(
            max(deadline - time.monotonic(), 0.0))

    def send(self, message: Message) -> int:
        """Queue one reliable command (written at once if the window allows); its sequence."""
        if not is_reliable(message.TYPE):
            raise ValueError(f"{message!r} is not a reliable command")
        with self._lock:
            sequence = self._tx_next
            self._tx_next = (self._tx_next + 1) & 0xFF
            if not self._unacked:
                self._progress_s = time.monotonic()  # nothing was waiting: no stall so far
            self._first_sent_s.pop(sequence, None)
            self._resent.discard(sequence)
            self._unacked.append((sequence, message, encode_frame(message, sequence)))
            self._fill_window()
        return sequence

    def withdraw(self, kinds: tuple[type[Message], ...], instead: Message) -> int:
        """Replace every command of *kinds* not yet acknowledged by *instead*, under the same
        sequence number, so it is never carried out late (a ``Fire`` after its showdown ended).
        One the microcontroller already has is not undone. Returns how many were replaced."""
        if not is_reliable(instead.TYPE):
            raise ValueError(f"{instead!r} is not a reliable command")
        replaced = 0
        with self._lock:
            for index, (sequence, message, _frame) in enumerate(self._unacked):
                if isinstance(message, kinds):
                    self._unacked[index] = (sequence, instead, encode_frame(instead, sequence))
                    self.stats.dropped_commands.append(message)
                    replaced += 1
        return replaced

    def heartbeat(self) -> None:
        """Send a heartbeat now (also a time-sync round trip); harmless when disconnected."""
        with self._lock:
            if not self._ready.is_set():
                return
            token = next(self._tokens) & 0xFFFFFFFF
            self._pending_tokens[token] = (self._now_ns(), time.monotonic())
            if len(self._pending_tokens) > 64:
                del self._pending_tokens[min(self._pending_tokens)]
        self._write(encode_frame(Heartbeat(token)))

    def idle(self) -> bool:
        """True when every command sent so far has been acknowledged."""
        with self._lock:
            return not self._unacked

    def wait_idle(self, timeout_s: float, *, through_reconnects: bool = True) -> bool:
        """Wait until every command sent so far is acknowledged; True if so. Without
        *through_reconnects*, give up as soon as the link is down."""
        with self._idle_cond:
            self._idle_cond.wait_for(
                lambda: not self._unacked or (not through_reconnects and not self._ready.is_set()),
                timeout_s,
            )
            return not self._unacked

    def close(self, *, safe: bool = True, timeout_s: float = 0.5) -> None:
        """Optionally send ``Safe`` and wait briefly for its ack, then stop the thread and close."""
        if safe and self._ready.is_set():
            self.send(Safe())
            self.wait_idle(timeout_s, through_reconnects=False)
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=2.0)
        with self._lock:
            self._drop_port("closed")

    # -- reader thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            self._report_down()
            port = self._serial
            if port is None:
                self._connect()
                continue
            try:
                waiting = port.in_waiting
                data = port.read(max(1, min(waiting, 4096)))
            except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
                with self._lock:
                    if self._serial is port:
                        self._drop_port(f"read failed: {exc}")
                continue
            if data:
                self._receive(data)
            self._service()

    def _connect(self) -> None:
        try:
            spec = self._port_spec
            path = spec() if callable(spec) else find_port(spec)
            port = self._opener(path)
            port.reset_input_buffer()
            self.path = path
        except (serial.SerialException, OSError, NoDeviceError, ValueError) as exc:
            self._last_error = str(exc)
            log.debug("connect failed: %s; retrying in %.3f s", exc, self._backoff_s)
            self._stop.wait(self._backoff_s)
            self._backoff_s = min(self._backoff_s * 2, RECONNECT_MAX_MS / 1000)
            return
        with self._lock:
            self._serial = port
            self._heard_bytes = False
            self._decoder.reset()
            self._handshaking = True
            self._hello_attempts = 0
            self._hello_deadline_s = 0.0
            self._handshake_started_s = time.monotonic()
        self._service()

    def _report_down(self) -> None:
        with self._lock:
            why, self._down_why = self._down_why, None
        if why is not None and self._on_down is not None and not self._stop.is_set():
            try:
                self._on_down(why)
            except Exception:
                log.exception("link-down handler failed")

    def _drop_port(self, why: str) -> None:
        port, self._serial = self._serial, None
        if port is None:
            return
        if self._ready.is_set() and not self._stop.is_set():
            log.warning("serial link to the unit down: %s", why)
            self._down_why = why
        else:
            log.info("serial link down: %s", why)
        self._ready.clear()
        self._idle_cond.notify_all()
        self._handshaking = False
        self._sent = 0
        self._pending_tokens.clear()
        self.stats.reconnects += 1
        with contextlib.suppress(serial.SerialException, OSError):
            port.close()

    def _write(self, frame: bytes) -> bool:
        port = self._serial
        if port is None:
            return False
        try:
            with self._write_lock:
                port.write(frame)
        except (serial.SerialException, OSError, TypeError, AttributeError) as exc:
            with self._lock:
                if self._serial is port:
                    self._drop_port(f"write failed: {exc}")
            return False
        return True

    def _service(self) -> None:
        now_s = time.monotonic()
        back_off = False
        with self._lock:
            if self._serial is None:
                return
            if self._handshaking:
                if now_s >= self._hello_deadline_s:
                    if now_s - self._handshake_started_s >= HANDSHAKE_S:
                        self._drop_port(f"no HelloReply to {self._hello_attempts} hellos")
                        # a unit that sends bytes is there, on a noisy line: try again at once
                        back_off = not self._heard_bytes
                    else:
                        self._hello_attempts += 1
                        self._hello_deadline_s = now_s + self._hello_interval_s()
                        hello = Hello(MIN_VERSION, PROTOCOL_VERSION, self._boot_id)
                        self._write(encode_frame(hello))
                if not back_off:
                    return
            if self._sent and now_s - self._last_send_s >= self.rto.timeout_s:
                self._rounds += 1
                self.stats.retransmit_rounds += 1
                stalled_s = now_s - self._progress_s
                if self._rounds > MAX_RETRANSMITS and stalled_s >= LINK_STALL_MS / 1000:
                    self._drop_port(f"no command acknowledged for {stalled_s:.1f} s "
                                    f"({self._rounds} retransmissions)")
                    return
                self._sent = 0
                self._fill_window()
        if back_off:  # outside the lock: senders must not wait for a reconnect
            self._stop.wait(self._backoff_s)
            self._backoff_s = min(self._backoff_s * 2, RECONNECT_MAX_MS / 1000)
            return
        if now_s >= self._next_heartbeat_s:
            # Until the first round trip is measured the link is not usable (no clock mapping):
            # ask as often as a lost command is resent, so a noisy line gets there sooner.
            period_ms = HEARTBEAT_MS if self._synced.is_set() else RETRANSMIT_MS
            self._next_heartbeat_s = now_s + period_ms / 1000
            self.heartbeat()

    def _hello_interval_s(self) -> float:
        """How long one hello waits before the next is sent: the retransmission timeout.

        Before any round trip was measured that is the protocol's floor (``RETRANSMIT_MS``),
        not ``HELLO_TIMEOUT_MS``: on a line that damages a fifth of the bytes only about one
        hello and reply in 600 get through whole, so the rate of tries decides how soon the
        link comes up. Copies sent while a slow reply is still on its way are harmless: the
        MCU answers a repeated hello without starting over (``PROTOCOL.md``, "Versioning"),
        and the port is given ``HANDSHAKE_S`` in all, so a slow line's reply is still waited
        for."""
        return min(self.rto.timeout_s, HELLO_TIMEOUT_MS / 1000)

    def _fill_window(self) -> None:
        if not self._ready.is_set():
            return
        limit = min(len(self._unacked), WINDOW)
        if self._sent >= limit:
            return
        now_s = time.monotonic()
        for sequence, _message, frame in self._unacked[self._sent:limit]:
            if not self._write(frame):
                return
            if sequence in self._first_sent_s:
                self._resent.add(sequence)
            else:
                self._first_sent_s[sequence] = now_s
        self._sent = limit
        self._last_send_s = now_s

    def _receive(self, data: bytes) -> None:
        self._heard_bytes = True
        for item in self._decoder.feed(data):
            if isinstance(item, ProtocolError):
                self._protocol_error(item)
                continue
            if isinstance(item, DecodeError):
                self.stats.decode_errors += 1
                log.debug("dropped a bad frame: %s", item)
                continue
            self._packet(item)

    def _protocol_error(self, error: ProtocolError) -> None:
        """A frame that passed the CRC but breaks the protocol: counted, said in one line, and
        dropped without its sequence number being used, so an intact copy is taken instead
        (line damage the CRC missed). The same frame again (a frame a byte short:
        :data:`~firmware_bridge.protocol.LOST_ZERO_COPIES` copies) is not damage but the unit's
        own (its firmware resends an event byte for byte): that event is skipped, acknowledged
        and never delivered, so the events after it still come."""
        self.stats.decode_errors += 1
        self.stats.protocol_errors += 1
        said = str(error)
        copies = self._protocol_errors_seen.pop(said, 0) + 1
        self._protocol_errors_seen[said] = copies
        while len(self._protocol_errors_seen) > WINDOW:  # the frames one resend can bring
            del self._protocol_errors_seen[next(iter(self._protocol_errors_seen))]
        own = copies >= (LOST_ZERO_COPIES if error.lost_zero else 2)
        if own and is_reliable(error.type_code) and error.type_code >= 0x80:
            if self._skip(error.sequence):
                log.warning("the unit sent a frame that breaks the protocol again (%s): not "
                            "line damage; that event is skipped", said)
            return
        log.warning("dropped a frame that breaks the protocol (%d so far): %s",
                    self.stats.protocol_errors, said)

    def _skip(self, sequence: int) -> bool:
        """Acknowledge the event *sequence* without delivering it (as an unknown type is);
        False if it was not the one expected (a copy of one skipped already, or out of turn)."""
        with self._lock:
            if self._handshaking or not self._ready.is_set() or not self.sync.ready:
                return False
            skipped = sequence_ahead(sequence, self._rx_expected) == 0
            if skipped:
                self._rx_expected = (self._rx_expected + 1) & 0xFF
            ack = Ack(self._rx_expected)
        self._write(encode_frame(ack))
        return skipped

    def _packet(self, packet: Packet) -> None:
        message = packet.message
        if isinstance(message, HelloReply):
            self._hello_reply(message)
        elif isinstance(message, HeartbeatReply):
            with self._lock:
                sent = self._pending_tokens.pop(message.token, None)
                if sent is not None:
                    self._rtt_sample(time.monotonic() - sent[1])
            if sent is not None:
                self.sync.sample(sent[0], self._now_ns(), message.mcu_us)
                self._synced.set()
        elif isinstance(message, McuAck):
            self._acked(message.next_expected)
        elif is_reliable(message.TYPE if not isinstance(message, Unknown) else message.type_code):
            self._event(packet)

    def _hello_reply(self, reply: HelloReply) -> None:
        with self._lock:
            if not self._handshaking:
                return
            if reply.version == 0:
                self._fatal = LinkError(
                    f"the unit's firmware does not speak protocol {MIN_VERSION}..."
                    f"{PROTOCOL_VERSION}: reflash it (docs/firmware.md)"
                )
                self._stop.set()
                self._ready.set()
                return
            self._handshaking = False
            self.hello = reply
            self._capabilities = reply.capabilities
            self._backoff_s = RECONNECT_MIN_MS / 1000
            fresh = reply.boot_id != self._boot_id or not self._resumable(reply)
            if fresh:
                self.stats.fresh_sessions += 1
                keep = [m for _s, m, _f in self._unacked if not isinstance(m, Fire | Arm)]
                self.stats.dropped_commands.extend(
                    m for _s, m, _f in self._unacked if isinstance(m, Fire | Arm))
                self._unacked = []
                self._tx_next = reply.next_expected
                self._rx_expected = reply.next_sequence
                self._boot_id = reply.boot_id
                self.sync.reset(reply.tick_bits)
                self._synced.clear()
            else:
                self._release(reply.next_expected)
                keep = []
            self._sent = 0
            self._rounds = 0
            self._progress_s = time.monotonic()
            self._ready.set()
            log.info("serial link up on %s: boot %08x, %s session", self.path, reply.boot_id,
                     "fresh" if fresh else "resumed")
        self._next_heartbeat_s = 0.0
        self.heartbeat()
        if fresh and self._on_session is not None:
            self._on_session(True)
        for message in keep:
            self.send(message)
        with self._lock:
            self._fill_window()

    def _rtt_sample(self, rtt_s: float) -> None:
        self.rto.sample(rtt_s)
        self._last_rtt_s = max(rtt_s, 0.0)
        self.stats.rtt_samples += 1

    def _resumable(self, reply: HelloReply) -> bool:
        """Whether a reply naming our boot fits the session we had: the MCU expects a command
        between our oldest unacknowledged one and our next, and its oldest unacknowledged event
        is at most ``EVENT_QUEUE`` behind the one we expect. A reset MCU that drew the same boot
        id again fails this as soon as either side had sent anything."""
        oldest = self._unacked[0][0] if self._unacked else self._tx_next
        expected = sequence_ahead(reply.next_expected, oldest)
        if not 0 <= expected <= sequence_ahead(self._tx_next, oldest):
            return False
        return 0 <= sequence_ahead(self._rx_expected, reply.next_sequence) <= EVENT_QUEUE

    def _release(self, next_expected: int) -> int:
        released = 0
        newest: int | None = None
        while self._unacked and sequence_ahead(self._unacked[0][0], next_expected) < 0:
            newest = self._unacked.pop(0)[0]
            released += 1
        if newest is not None:
            first_s = self._first_sent_s.get(newest)
            if first_s is not None and newest not in self._resent:  # Karn: sent once only
                self._rtt_sample(time.monotonic() - first_s)
        self._sent = max(self._sent - released, 0)
        if not self._unacked:
            self._idle_cond.notify_all()
        return released

    def _acked(self, next_expected: int) -> None:
        with self._lock:
            if self._handshaking:
                return
            if self._release(next_expected):
                self._rounds = 0
                self._last_send_s = self._progress_s = time.monotonic()
            elif self._unacked and self._unacked[0][0] == next_expected and self._sent:
                now_s = time.monotonic()
                if now_s - self._last_go_back_s >= self.rto.timeout_s / 3:
                    self._last_go_back_s = now_s
                    self.stats.go_backs += 1
                    self._sent = 0
            self._fill_window()

    def _event(self, packet: Packet) -> None:
        with self._lock:
            if self._handshaking or not self._ready.is_set() or not self.sync.ready:
                return  # not acknowledged: the MCU sends it again once we are in session
            ahead = sequence_ahead(packet.sequence, self._rx_expected)
            deliver = ahead == 0
            if deliver:
                self._rx_expected = (self._rx_expected + 1) & 0xFF
            elif ahead < 0:
                self.stats.duplicates_dropped += 1
            ack = Ack(self._rx_expected)
        if deliver and not isinstance(packet.message, Unknown):
            try:
                self._on_event(packet.message)
            except Exception:
                log.exception("event handler failed on %s", packet)
        self._write(encode_frame(ack))
