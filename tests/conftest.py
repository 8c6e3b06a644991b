"""Shared test settings: a hypothesis profile without wall-clock deadlines (CI machines stall)."""

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.load_profile("default")
