"""The unit: hardware interface, clock, showdown state machine and its back ends.

Imports nothing of the rest of :mod:`showdown`; :mod:`hw_sim` builds on it."""
