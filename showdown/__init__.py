"""The Raspberry Pi service that drives the UNO Showdown unit."""

import os

# pygame prints a banner on stdout when imported, which would corrupt `--json` output.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__version__ = "0.1.0"
