"""Shared test settings: a hypothesis profile without wall-clock deadlines (CI machines stall),
and one font for every test.

Every test draws with the project's own font (the dev dependency cvttf-notosanscjk-regular),
whatever fonts this machine has: text sizes, wrapping and screenshots must not depend on them
(Debian's fonts-droid-fallback, for one, has no Latin letters). Tests about choosing a font pass
their own environment to the chooser.
"""

import os

from hypothesis import HealthCheck, Phase, settings

from showdown.scoreboard.fonts import ENV_VARIABLE, pinned_font

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
# `make mutation` (tests/mutation/): the same examples for every mutant, so that whether a mutant
# is caught never depends on the luck of one run.
# No shrinking: a mutant is caught by the first failing example, and its smallest form is of no use.
settings.register_profile(
    "mutation",
    settings.get_profile("default"),
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
settings.load_profile("default")

os.environ[ENV_VARIABLE] = str(pinned_font())

# Every `showdown run` a test starts serves its phone page on a free port of this machine only,
# never on the LAN's port 8080 (tests/showdown/web choose their own addresses).
os.environ.setdefault("SHOWDOWN_WEB__HTTP", "127.0.0.1:0")
