"""The statistics every layer shares: the normal quantiles of a 95% interval or bound, the
Wilson interval of a share, the intervals of a difference of two shares (from their Wilson
intervals, and paired over the deals both played), and the nearest-rank 90th percentile.

One place for each, so that a figure means the same in every table: the odds, the bench
suites, the fair analysis and the lookahead's own estimates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# The standard normal quantiles, correctly rounded (statistics.NormalDist().inv_cdf gives
# them a few units in the last place off).
Z95 = 1.959963984540054  # of 0.975: a two-sided 95% interval
Z95_ONE_SIDED = 1.6448536269514722  # of 0.95: a one-sided 95% bound


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% at the default
    ``z``), honest at 0 and at every trial won: ``(0, 1)`` when there is no trial, and 0 of
    ``n`` starts at exactly 0, ``n`` of ``n`` ends at exactly 1 (not a rounding error off)."""
    if not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    low = max(0.0, (centre - spread) / scale) if k > 0 else 0.0
    high = min(1.0, (centre + spread) / scale) if k < n else 1.0
    return low, high


def difference_interval(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval (at the default ``z``) of the share ``k1`` of ``n1`` less ``k2`` of
    ``n2``, in percentage points, from the two shares' Wilson intervals: Newcombe's hybrid
    score interval (1998, his method 10), honest at 0 and at every trial won. It takes the
    two shares as independent; when they come from the same trials and tend to go together
    (two moves played out in the same worlds), it is wider than it need be, never narrower."""
    p1, p2 = k1 / n1, k2 / n2
    low1, high1 = wilson(k1, n1, z)
    low2, high2 = wilson(k2, n2, z)
    below = math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2)
    above = math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2)
    return 100 * (p1 - p2 - below), 100 * (p1 - p2 + above)


def paired_interval(only_first: int, only_second: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval (at the default ``z``) of the first player's win rate less the
    second's, in percentage points, over ``n`` deals both played, of which ``only_first``
    only the first won and ``only_second`` only the second: the deals both won or both lost
    cancel. Agresti and Min's interval (2005): the paired Wald interval with half a deal
    added to each cell of the 2x2 table, which keeps its width honest when few deals (or
    none) were won by one player alone."""
    if min(only_first, only_second) < 0 or only_first + only_second > n:
        raise ValueError(f"paired_interval needs 0 <= only_first + only_second <= n, got {only_first}, {only_second}, {n}")
    b, c, m = only_first + 0.5, only_second + 0.5, n + 2.0
    mean = (b - c) / m
    spread = z * math.sqrt(max(0.0, (b + c) / m - mean * mean) / m)
    return max(-100.0, 100 * (mean - spread)), min(100.0, 100 * (mean + spread))


def p90(values: Sequence[float]) -> float:
    """The nearest-rank 90th percentile of ``values`` (not empty), as every bench table and
    the odds report it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]
