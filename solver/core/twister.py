"""CPython's random generator (the Mersenne Twister, MT19937) on an array, compiled by numba.

The greedy solver's playouts draw from Python's ``random.Random``; played on the core they
must draw the very same numbers, so that a seed gives the same lines either way. A
generator's state is the 625 integers of ``Random.getstate()`` (624 words and the position)
in one ``int64`` array: ``state_of`` reads it from a ``Random``, ``hand_back`` writes the
advanced state back into it, so that the Python side's later draws are unchanged.
"""

from __future__ import annotations

import random

import numpy as np
from numba import njit
from numba.types import Array, float64, int64

I8, F8 = int64, float64
S = Array(int64, 1, "C")  # a generator's state

N, M = 624, 397
MATRIX_A, UPPER, LOWER = 0x9908B0DF, 0x80000000, 0x7FFFFFFF


@njit(I8(S), cache=True)
def next_word(s):
    """genrand_uint32 of CPython's _randommodule.c: the next 32 random bits."""
    if s[N] >= N:
        for k in range(N):
            y = (s[k] & UPPER) | (s[(k + 1) % N] & LOWER)
            s[k] = s[(k + M) % N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
        s[N] = 0
    y = s[s[N]]
    s[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    return y ^ (y >> 18)


@njit(F8(S), cache=True)
def draw(s):
    """Random.random(): 53 random bits as a float in [0, 1)."""
    a = next_word(s) >> 5
    b = next_word(s) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(F8(S, F8, F8), cache=True)
def uniform(s, a, b):
    return a + (b - a) * draw(s)


@njit(I8(S, I8), cache=True)
def below(s, n):
    """Random._randbelow(n) for 0 < n < 2**32 (randrange(n), choice's index): the bits n
    needs, drawn again until below n."""
    k = 0
    while (n >> k) != 0:
        k += 1
    r = next_word(s) >> (32 - k)
    while r >= n:
        r = next_word(s) >> (32 - k)
    return r


def state_of(rng: random.Random) -> np.ndarray:
    return np.array(rng.getstate()[1], dtype=np.int64)


def hand_back(rng: random.Random, state: np.ndarray) -> None:
    """Set ``rng`` to the advanced ``state`` (its Gaussian's spare value kept)."""
    version, _, gauss = rng.getstate()
    rng.setstate((version, tuple(int(v) for v in state), gauss))
