"""The drivers that draw the documentation's pictures, kept out of the product: nothing under
``engine``, ``showdown``, ``firmware_bridge`` or ``hw_sim`` imports them, and they are not
installed.

Importing this package first points SDL at its dummy video driver (and hides pygame's greeting),
so every driver below draws off screen whatever display the machine has: SDL reads the variables
when pygame loads, and a driver's own ``import pygame`` comes after this package's import. Run a
driver from the repository's root, ``python -m tools.diagrams.wiring``, or by its make target
(README, "Other make targets").
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
