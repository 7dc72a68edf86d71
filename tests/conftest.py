"""Hypothesis profiles. ``ci`` (the default) is deterministic and quick; ``long`` is for
hunting bugs by hand: HYPOTHESIS_PROFILE=long pytest tests/engine/test_properties.py"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_configure(config):
    """Compile the core once, in the process that starts the run, before any worker starts:
    the workers then read numba's cache instead of each compiling it beside the other (about
    a minute of CPU from a fresh clone, then a second or two)."""
    if not hasattr(config, "workerinput"):
        import tranquility.solver.core.complete
        import tranquility.solver.core.greedy
        import tranquility.solver.core.silent
        import tranquility.solver.core.worlds  # noqa: F401
