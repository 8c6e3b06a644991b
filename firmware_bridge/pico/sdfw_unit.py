"""Showdown firmware: the unit's parts, edge timestamps and the launcher's safety, in MicroPython.

Hardware comes in as arguments (``machine`` and ``time`` modules, or the simulator's stand-ins with
the same API), so the very same code runs on a Pico and in ``hw_sim/mcu.py`` under CPython.

Edges are stamped in the pin interrupt with ``time.ticks_us()`` into preallocated arrays: a hard
IRQ runs with the heap locked (MicroPython's ``mp_irq_dispatch`` takes ``gc_lock`` around it), so
it stores small ints into arrays that already exist and allocates nothing. :meth:`Unit.poll`,
called from the main loop, debounces them on the leading edge and queues protocol events. Every
reported edge time is the time its interrupt took; the main loop never stamps an edge itself.
Every output change is reported with the time it really happened.

The launcher sits behind a motor driver board, driven by its datasheet's truth table
(``DRIVERS``; docs/drivers.md): from rest, the writes that drive toward a side; one write that ends
a pulse (the board's own stop: a brake on a TB6612 or an L298N); then, after the host's
``brake_ms``, every launcher pin back to rest. Rest is every launcher pin low, which is safe on
every board, so the pins start there before the host has named the board.

``ticks_us()`` wraps at 2**30 on the RP2040 (``time_us_32()`` masked by
``MICROPY_PY_TIME_TICKS_PERIOD``), so ``ticks_diff`` is right only within 2**29 us (537 s): a
stored time older than that is never compared again (each line keeps a ``quiet`` flag instead).
"""

from array import array

import sdfw_proto as proto

# Raspberry Pi Pico GPIO numbers; inputs are active-low with the internal pull-up.
PINS = {
    "paddle_left": 2,
    "paddle_right": 3,
    "timer_button": 4,
    "count_left": 5,
    "count_right": 6,
    "light_red": 10,
    "light_green": 11,
    "buzzer": 12,
    "arrow_left": 13,
    "arrow_right": 14,
    "launcher_enable": 15,  # EN on a DIR/EN board, PWMA on a TB6612, ENA on an L298N
    "launcher_in1": 16,  # DIR on a DIR/EN board, else IN1
    "launcher_in2": 17,
    "launcher_stby": 18,
}

# The launcher pins in the order they go to rest: the one that disables the board first (STBY on a
# TB6612; EN or ENA), then the inputs. From any pattern a board can be in, each write is a stop.
LAUNCHER_REST = ("launcher_stby", "launcher_enable", "launcher_in1", "launcher_in2")

# Each board (LauncherDriver.driver): the writes that drive toward the right, toward the left
# (from rest, in order), and the one write that ends a pulse toward the right, toward the left.
# IN1 high with IN2 low ("forward") throws toward the right player, as DIR high does.
DRIVERS = {
    proto.DRIVER_DIR_ENABLE: (
        (("launcher_in1", 1), ("launcher_enable", 1)),
        (("launcher_in1", 0), ("launcher_enable", 1)),
        ("launcher_enable", 0), ("launcher_enable", 0)),
    proto.DRIVER_DRV8833: (  # its brake (both high) has no way back to rest but through a drive
        (("launcher_in1", 1),),
        (("launcher_in2", 1),),
        ("launcher_in1", 0), ("launcher_in2", 0)),
    proto.DRIVER_TB6612: (  # PWM low with IN1 != IN2: short brake
        (("launcher_in1", 1), ("launcher_enable", 1), ("launcher_stby", 1)),
        (("launcher_in2", 1), ("launcher_enable", 1), ("launcher_stby", 1)),
        ("launcher_enable", 0), ("launcher_enable", 0)),
    proto.DRIVER_L298N: (  # ENA high with IN1 == IN2: fast motor stop
        (("launcher_in1", 1), ("launcher_enable", 1)),
        (("launcher_in2", 1), ("launcher_enable", 1)),
        ("launcher_in1", 0), ("launcher_in2", 0)),
}

# Input lines, in this order: index into the edge arrays.
LINE_PADDLE_LEFT = 0
LINE_PADDLE_RIGHT = 1
LINE_TIMER = 2
LINE_COUNT_LEFT = 3
LINE_COUNT_RIGHT = 4
LINE_PINS = ("paddle_left", "paddle_right", "timer_button", "count_left", "count_right")

EDGE_BUFFER = 64
ARROW_BLINK_MS = 250
BUZZER_DUTY = 32768
# An RP2040 pin comes out of reset pulled down; the internal pull-up (50-80 kOhm) behind a long
# cable or a debounce capacitor takes milliseconds to bring it up. Levels read before this are
# not believed (an RC of 5 ms is 98 % charged after 20 ms).
INPUT_SETTLE_MS = 20


class Unit:
    """The parts behind the microcontroller, and the rules that keep the launcher safe."""

    def __init__(self, machine, utime, pins=None):
        self.machine = machine
        self.utime = utime
        self.pins = pins or PINS
        self.link = None
        self.watchdog_ms = proto.WATCHDOG_MS
        self.max_pulse_ms = proto.MAX_PULSE_MS
        self.cooldown_ms = proto.COOLDOWN_MS
        self.bounce_us = proto.BOUNCE_US
        self.count_bounce_us = proto.COUNT_BOUNCE_US
        now = utime.ticks_us()
        self.booted_at = now
        self.inputs_ready = False
        self.last_heard = now
        self.watchdog_tripped = False
        self.armed = False
        self.armed_until = now
        self.launcher = proto.SIDE_NONE
        self.launcher_off_at = now
        self.driver = proto.DRIVER_DIR_ENABLE
        self.brake_ms = 0
        self.braking = False
        self.brake_until = now
        self.cooldown_until = now
        self.cooling = False
        self.light = proto.LIGHT_OFF
        self.arrow_side = proto.SIDE_NONE
        self.arrow_blink = False
        self.arrow_lit = False
        self.arrow_toggle_at = now
        self.buzzing = False
        self.buzzer_off_at = now
        self.buzzer_timed = False
        # Interrupt-side ring buffer of raw edges: line, level, time.
        self.edge_line = bytearray(EDGE_BUFFER)
        self.edge_level = bytearray(EDGE_BUFFER)
        self.edge_time = array("i", [0] * EDGE_BUFFER)
        self.edge_head = 0
        self.edge_tail = 0
        self.edges_lost = 0
        # The latest edge of each line as its interrupt saw it (written even when the ring is
        # full), with a count the interrupt bumps last, so the main loop can tell a torn read.
        lines = len(LINE_PINS)
        self.latest_level = bytearray(lines)
        self.latest_time = array("i", [0] * lines)
        self.latest_count = bytearray(lines)
        self.latest_seen = bytearray(lines)
        # Debounce state per line: the last reported level and time, and whether the bounce
        # window after it has passed (then last_edge is never compared again: it may be stale).
        self.reported = [False] * lines
        self.last_edge = [now] * lines
        self.quiet = [True] * lines
        # The launcher's one-shot hardware timer: it cuts the pulse even when the main loop is
        # stuck (a USB write on the Pico may block for up to 500 ms).
        self.cut_pending = False
        self.cut_at = now
        self.cutter = None
        self._setup_pins()

    # -- wiring --------------------------------------------------------------------------

    def _setup_pins(self):
        pin_class = self.machine.Pin
        self.inputs = []
        for index in range(len(LINE_PINS)):
            pin = pin_class(self.pins[LINE_PINS[index]], pin_class.IN, pin_class.PULL_UP)
            self.latest_level[index] = 1
            pin.irq(handler=self._edge_handler(index),
                    trigger=pin_class.IRQ_FALLING | pin_class.IRQ_RISING, hard=True)
            self.inputs.append(pin)
        self.red = pin_class(self.pins["light_red"], pin_class.OUT, value=0)
        self.green = pin_class(self.pins["light_green"], pin_class.OUT, value=0)
        self.arrow_left = pin_class(self.pins["arrow_left"], pin_class.OUT, value=0)
        self.arrow_right = pin_class(self.pins["arrow_right"], pin_class.OUT, value=0)
        self.launcher_pins = {}
        for name in LAUNCHER_REST:
            self.launcher_pins[name] = pin_class(self.pins[name], pin_class.OUT, value=0)
        self.rest_pins = [self.launcher_pins[name] for name in LAUNCHER_REST]
        self._use_driver(proto.DRIVER_DIR_ENABLE)
        self.pwm = self.machine.PWM(pin_class(self.pins["buzzer"], pin_class.OUT, value=0))
        self.pwm.duty_u16(0)
        self.cutter = self.machine.Timer()
        self._cut_handler = self._cut  # bound once: the interrupt must not allocate

    def _edge_handler(self, index):
        utime = self.utime

        def handler(pin):
            # Hard-IRQ safe: no allocation, just stamp and store.
            at = utime.ticks_us()
            level = pin.value()
            self.latest_level[index] = level
            self.latest_time[index] = at
            self.latest_count[index] = (self.latest_count[index] + 1) & 0xFF
            head = self.edge_head
            following = (head + 1) % EDGE_BUFFER
            if following == self.edge_tail:
                self.edges_lost += 1
                return
            self.edge_line[head] = index
            self.edge_level[head] = level
            self.edge_time[head] = at
            self.edge_head = following

        return handler

    # -- main loop ---------------------------------------------------------------------------

    def now(self):
        """The microcontroller's microsecond clock (wraps; use ticks_diff)."""
        return self.utime.ticks_us()

    def heard(self, now):
        """A valid frame arrived from the host: feed the watchdog."""
        self.last_heard = now

    def poll(self, now):
        """Debounce new edges, end pulses and tones, blink, and watch the host's heartbeat."""
        diff = self.utime.ticks_diff
        if not self.inputs_ready:
            self._wait_for_pull_ups(now)
        while self.edge_tail != self.edge_head:
            tail = self.edge_tail
            self._edge(self.edge_line[tail], self.edge_level[tail] == 0, self.edge_time[tail])
            self.edge_tail = (tail + 1) % EDGE_BUFFER
        self._settle(now)
        if self.cut_pending:
            self.cut_pending = False
            if self.launcher != proto.SIDE_NONE:
                self._launcher_off(self.cut_at, at=self.cut_at)
        if self.launcher != proto.SIDE_NONE and diff(now, self.launcher_off_at) >= 0:
            self._launcher_off(now)
        if self.armed and diff(now, self.armed_until) >= 0:
            self.armed = False
        if self.braking and diff(now, self.brake_until) >= 0:
            self._launcher_rest()
        if self.cooling and diff(now, self.cooldown_until) >= 0:
            self.cooling = False
        if self.buzzer_timed and self.buzzing and diff(now, self.buzzer_off_at) >= 0:
            self._set_buzzer(0, now)
        if self.arrow_blink and self.arrow_side and diff(now, self.arrow_toggle_at) >= 0:
            self.arrow_toggle_at = self.utime.ticks_add(now, ARROW_BLINK_MS * 1000)
            self._show_arrow(not self.arrow_lit)
        if not self.watchdog_tripped and diff(now, self.last_heard) > self.watchdog_ms * 1000:
            self.watchdog_tripped = True
            self.safe(now)
            self._event(proto.T_FAULT, (proto.FAULT_WATCHDOG, now))

    def _wait_for_pull_ups(self, now):
        # Every line starts released and its interrupts tell what happens: the pull-up lifting a
        # line that the reset left pulled down is a release, which reports nothing. A line still
        # low once the pull-ups have settled, without any interrupt since boot, was held all
        # along: taken as a snapshot (HelloReply.inputs), not as a press.
        if self.utime.ticks_diff(now, self.booted_at) < INPUT_SETTLE_MS * 1000:
            return
        self.inputs_ready = True
        for line in range(len(LINE_PINS)):
            if self.latest_count[line] or self.inputs[line].value():
                continue
            if not self.latest_count[line]:  # still no interrupt after the read
                self.reported[line] = True

    def _edge(self, line, active, at):
        if active == self.reported[line]:
            return
        if not self.quiet[line] and (
            self.utime.ticks_diff(at, self.last_edge[line]) < self._window(line)
        ):
            return  # a bounce of the edge already reported; _settle catches a real change
        self._report(line, active, at)

    def _settle(self, now):
        # Once a line's bounce window has passed, it is quiet: its last edge is no longer
        # compared (after 2**29 us ticks_diff would call it recent again). A quiet line whose
        # latest interrupt left it at another level than the last report changed during the
        # window: report that change with the time its interrupt took, never the loop's time.
        diff = self.utime.ticks_diff
        for line in range(len(LINE_PINS)):
            if not self.quiet[line]:
                if diff(now, self.last_edge[line]) < self._window(line):
                    continue
                self.quiet[line] = True
            count = self.latest_count[line]
            if count == self.latest_seen[line]:
                continue  # no interrupt since the last look
            active = self.latest_level[line] == 0
            at = self.latest_time[line]
            if count != self.latest_count[line]:
                continue  # an interrupt came while reading: look again next pass
            self.latest_seen[line] = count
            if active != self.reported[line]:
                self._report(line, active, at)

    def _window(self, line):
        if line >= LINE_COUNT_LEFT:
            return self.count_bounce_us
        return self.bounce_us

    def _report(self, line, active, at):
        self.reported[line] = active
        self.last_edge[line] = at
        self.quiet[line] = False
        if line in (LINE_PADDLE_LEFT, LINE_PADDLE_RIGHT):
            side = proto.SIDE_LEFT if line == LINE_PADDLE_LEFT else proto.SIDE_RIGHT
            self._event(proto.T_PADDLE, (side, 1 if active else 0, at))
        elif line == LINE_TIMER:
            self._event(proto.T_TIMER_BUTTON, (1 if active else 0, at))
        elif active:
            side = proto.SIDE_LEFT if line == LINE_COUNT_LEFT else proto.SIDE_RIGHT
            self._event(proto.T_SIDE_COUNT, (side, at))

    def _event(self, type_code, values):
        if self.link is not None:
            self.link.queue_event(type_code, values)

    def session_started(self, now):
        """A new host session: every output safe (the host sends what it wants shown)."""
        self.safe(now)

    def held_inputs(self):
        """The HelloReply inputs snapshot: which paddles and button are held (debounced)."""
        bits = 0
        if self.reported[LINE_PADDLE_LEFT]:
            bits |= proto.INPUT_PADDLE_LEFT
        if self.reported[LINE_PADDLE_RIGHT]:
            bits |= proto.INPUT_PADDLE_RIGHT
        if self.reported[LINE_TIMER]:
            bits |= proto.INPUT_TIMER_BUTTON
        return bits

    def status(self):
        """The HeartbeatReply status flags."""
        flags = 0
        if self.armed:
            flags |= proto.STATUS_ARMED
        if self.launcher != proto.SIDE_NONE:
            flags |= proto.STATUS_LAUNCHER
        if self.watchdog_tripped:
            flags |= proto.STATUS_WATCHDOG
        return flags

    # -- commands ----------------------------------------------------------------------------

    def command(self, type_code, values, now):
        """Carry out one host command; return 0 or a NACK_* reason."""
        if type_code == proto.T_CONFIGURE:
            self.watchdog_ms = max(values[0], 1)
            self.max_pulse_ms = min(values[1], proto.PULSE_CEILING_MS)
            self.cooldown_ms = values[2]
            self.bounce_us = values[3]
            self.count_bounce_us = values[4]
        elif type_code == proto.T_ARM:
            self.armed = True
            self.watchdog_tripped = False
            self.armed_until = self.utime.ticks_add(now, values[0] * 1000)
        elif type_code == proto.T_DISARM:
            self.armed = False
            if self.launcher != proto.SIDE_NONE:
                self._launcher_off(now)
        elif type_code == proto.T_LIGHTS:  # the link checked every field's range first
            self._set_light(values[0], now)
        elif type_code == proto.T_BUZZER:
            if values[0] and values[0] < proto.BUZZER_MIN_HZ:
                return proto.NACK_BAD_PAYLOAD  # the RP2040's PWM raises below about 8 Hz
            self._set_buzzer(values[0], now)
            self.buzzer_timed = values[1] > 0
            self.buzzer_off_at = self.utime.ticks_add(now, values[1] * 1000)
        elif type_code == proto.T_ARROW:
            self._set_arrow(values[0], values[1] != 0, now)
        elif type_code == proto.T_FIRE:
            return self._fire(values[0], values[1], now)
        elif type_code == proto.T_SAFE:
            self.safe(now)
        elif type_code == proto.T_LAUNCHER_DRIVER:  # a driver of DRIVERS: the link checked
            if self.launcher != proto.SIDE_NONE:
                self._launcher_off(now)
            self._launcher_rest()
            self._use_driver(values[0])
            self.brake_ms = min(values[1], proto.PULSE_CEILING_MS)
        else:
            return proto.NACK_UNKNOWN_TYPE
        return 0

    def _fire(self, direction, pulse_ms, now):
        if direction not in (proto.SIDE_LEFT, proto.SIDE_RIGHT):
            return proto.NACK_BAD_DIRECTION
        if not self.armed or self.watchdog_tripped:
            return proto.NACK_NOT_ARMED
        if self.cooling or self.launcher != proto.SIDE_NONE:
            return proto.NACK_COOLING_DOWN
        if pulse_ms > self.max_pulse_ms or pulse_ms > proto.PULSE_CEILING_MS:
            return proto.NACK_PULSE_TOO_LONG
        self.armed = False  # one pulse per arm
        self._launcher_rest()  # a brake still held after the last pulse ends first
        right = direction == proto.SIDE_RIGHT
        self.cut_pin = self.cut_right if right else self.cut_left
        self.cut_level = self.cut_right_level if right else self.cut_left_level
        self.cut_pending = False
        for pin, level in (self.drive_right if right else self.drive_left):
            pin.value(level)
        at = self.utime.ticks_us()
        # A one-shot hardware alarm (rp2: alarm_pool, machine_timer.c) ends the pulse in its
        # interrupt; the main loop's own check below is only the second line.
        self.cutter.init(mode=self.machine.Timer.ONE_SHOT, period=pulse_ms * 1000,
                         tick_hz=1000000, callback=self._cut_handler, hard=True)
        self.launcher = direction
        self.launcher_off_at = self.utime.ticks_add(at, pulse_ms * 1000)
        self._event(proto.T_OUTPUT_CHANGED, (proto.OUTPUT_LAUNCHER, direction, at))
        return 0

    def _cut(self, timer):
        # Hard interrupt of the one-shot timer: the pulse ends here whatever the main loop is
        # doing (the board's own stop, one write); poll() reports it with this time and brings
        # the pins to rest. Allocates nothing.
        self.cut_pin.value(self.cut_level)
        self.cut_at = self.utime.ticks_us()
        self.cut_pending = True

    def _use_driver(self, driver):
        # The board's writes as pin objects, resolved once: the cut interrupt only reads them.
        right, left, end_right, end_left = DRIVERS[driver]
        pins = self.launcher_pins
        self.driver = driver
        self.drive_right = [(pins[name], level) for name, level in right]
        self.drive_left = [(pins[name], level) for name, level in left]
        self.cut_right, self.cut_right_level = pins[end_right[0]], end_right[1]
        self.cut_left, self.cut_left_level = pins[end_left[0]], end_left[1]
        self.cut_pin, self.cut_level = self.cut_right, self.cut_right_level

    def _launcher_rest(self):
        # Every launcher pin low, the disabling one first: rest, safe on every board.
        self.braking = False
        for pin in self.rest_pins:
            pin.value(0)

    def _launcher_off(self, now, at=None):
        self.cutter.deinit()
        self.cut_pin.value(self.cut_level)
        if at is None:
            at = self.utime.ticks_us()
        if self.brake_ms:
            self.braking = True
            self.brake_until = self.utime.ticks_add(at, self.brake_ms * 1000)
        else:
            self._launcher_rest()
        self.launcher = proto.SIDE_NONE
        self.cooling = True
        self.cooldown_until = self.utime.ticks_add(at, self.cooldown_ms * 1000)
        self._event(proto.T_OUTPUT_CHANGED, (proto.OUTPUT_LAUNCHER, 0, at))

    def _set_light(self, light, now):
        self.red.value(1 if light == proto.LIGHT_RED else 0)
        self.green.value(1 if light == proto.LIGHT_GREEN else 0)
        at = self.utime.ticks_us()
        if light != self.light:
            self.light = light
        self._event(proto.T_OUTPUT_CHANGED, (proto.OUTPUT_LIGHT, light, at))

    def _set_buzzer(self, frequency_hz, now):
        if frequency_hz:
            self.pwm.freq(frequency_hz)
            self.pwm.duty_u16(BUZZER_DUTY)
        else:
            self.pwm.duty_u16(0)
        self.buzzing = frequency_hz != 0

    def _set_arrow(self, side, blink, now):
        self.arrow_side = side
        self.arrow_blink = blink
        self.arrow_toggle_at = self.utime.ticks_add(now, ARROW_BLINK_MS * 1000)
        self._show_arrow(side != proto.SIDE_NONE)
        self._event(proto.T_OUTPUT_CHANGED, (proto.OUTPUT_ARROW, side, self.utime.ticks_us()))

    def _show_arrow(self, lit):
        self.arrow_lit = lit
        self.arrow_left.value(1 if lit and self.arrow_side == proto.SIDE_LEFT else 0)
        self.arrow_right.value(1 if lit and self.arrow_side == proto.SIDE_RIGHT else 0)

    def safe(self, now):
        """Every output off and disarmed (watchdog, a new session, the host's Safe)."""
        self.armed = False
        if self.launcher != proto.SIDE_NONE:
            self._launcher_off(now)  # the board's stop; a brake is held, then rest
        elif not self.braking:
            self._launcher_rest()
        if self.light != proto.LIGHT_OFF:
            self._set_light(proto.LIGHT_OFF, now)
        if self.buzzing:
            self._set_buzzer(0, now)
        if self.arrow_side != proto.SIDE_NONE:
            self._set_arrow(proto.SIDE_NONE, False, now)
