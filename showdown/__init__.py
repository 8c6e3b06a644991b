"""The Raspberry Pi service that drives the UNO Showdown unit."""

__version__ = "0.1.0"
