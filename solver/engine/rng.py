"""SplitMix64: the named PRNG behind every seeded deal (dealer v1, docs/dealing.md).

Implemented here, not taken from a library, so that a seed gives the same deal on every
machine and every future version of Python.
"""

from __future__ import annotations

from collections.abc import MutableSequence

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


class SplitMix64:
    def __init__(self, seed: int):
        if not 0 <= seed <= _MASK:
            raise ValueError(f"seed must be in 0..2^64-1, got {seed}")
        self.state = seed

    def next_u64(self) -> int:
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def next_u32(self) -> int:
        return self.next_u64() >> 32

    def below(self, n: int) -> int:
        """Uniform integer in 0..n-1 by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = ((_MASK + 1) // n) * n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates, from the last position down: swap i with below(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
