"""Showdown firmware for a Raspberry Pi Pico running MicroPython: the boot stub.

Byte 0x03 is MicroPython's keyboard interrupt until ``kbd_intr(-1)``; the USB receive callback
checks every byte for it (``tud_cdc_rx_cb`` in ``shared/tinyusb/mp_usbd_cdc.c``), and protocol
frames contain 0x03. So turning it off is the very first thing, before any import: a host
already sending ``Hello`` must not knock the Pico into the REPL. Everything else is in the
precompiled ``sdfw_*.mpy`` modules that ``deploy/flash_pico.sh`` copies beside this file, so
start-up is short. To reach the REPL, hold the timer button while plugging the Pico in.
"""

import micropython

micropython.kbd_intr(-1)

import sdfw_main  # noqa: E402 - after kbd_intr on purpose

sdfw_main.start()
