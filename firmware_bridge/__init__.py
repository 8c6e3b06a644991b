"""The serial link to the unit's microcontroller: frames, messages, and the host-side link."""
