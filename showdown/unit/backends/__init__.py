"""One module a back end of :class:`~showdown.unit.hardware.UnitHardware` (gpiozero pins, a
microcontroller on a serial link)."""
