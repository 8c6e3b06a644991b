"""The rp2 port's USB serial port (TinyUSB CDC) as the firmware sees it, on ``board``'s clock.

What ``shared/tinyusb/mp_usbd_cdc.c`` does: bytes from the host wait in a ring buffer for
``read``; once the host has the port open (DTR), a write fills the 256-byte FIFO and, when the
host does not take the bytes, waits for room and gives up after 500 ms without progress
(``MICROPY_HW_USB_CDC_TX_TIMEOUT``); polling says ``POLLOUT`` while the port is closed or at
least one byte fits. Here the wait moves the board's clock (its timers fire meanwhile) and is
counted in ``stalls``.
"""

from board import BOARD

FIFO_BYTES = 256
TX_TIMEOUT_US = 500000
POLLIN = 0x0001
POLLOUT = 0x0004


class Cdc:
    def __init__(self):
        self.rx = bytearray()
        self.tx = bytearray()
        self.open = True  # the host holds the port open (DTR)
        self.reading = True  # and takes what arrives
        self.stalls = 0
        self.failure = None  # raised by the next read: a broken USB stack
        self.stdin = _Stream(self)
        self.stdout = self.stdin
        self.select = _Select(self)

    def room(self):
        if not self.open or self.reading:
            return FIFO_BYTES
        return FIFO_BYTES - len(self.tx)

    def take(self):
        """What the host reads now (nothing while it does not read)."""
        if not self.reading:
            return b""
        data = bytes(self.tx)
        self.tx = bytearray()
        return data

    def write(self, data):
        written = 0
        while written < len(data):
            count = min(len(data) - written, self.room())
            if count > 0:
                self.tx.extend(data[written:written + count])
                if not self.open:
                    self.tx = self.tx[-FIFO_BYTES:]  # the FIFO keeps the latest
                written += count
                continue
            self.stalls += 1
            BOARD.advance(TX_TIMEOUT_US)
            break
        return written

    def read(self, count):
        if self.failure is not None:
            failure, self.failure = self.failure, None
            raise failure
        data = bytes(self.rx[:count])
        self.rx = self.rx[count:]
        return data

    def flags(self):
        flags = 0
        if self.rx:
            flags |= POLLIN
        if self.room() > 0:
            flags |= POLLOUT
        return flags


class _Stream:
    def __init__(self, cdc):
        self._cdc = cdc

    def read(self, count=-1):
        return self._cdc.read(count if count >= 0 else len(self._cdc.rx))

    def write(self, data):
        return self._cdc.write(data)


class _Poller:
    def __init__(self, cdc):
        self._cdc = cdc
        self._entries = []

    def register(self, stream, mask=POLLIN | POLLOUT):
        self._entries.append((stream, mask))

    def ipoll(self, timeout=-1):
        flags = self._cdc.flags()
        return [(stream, flags & mask) for stream, mask in self._entries if flags & mask]


class _Select:
    POLLIN = POLLIN
    POLLOUT = POLLOUT

    def __init__(self, cdc):
        self._cdc = cdc

    def poll(self):
        return _Poller(self._cdc)
