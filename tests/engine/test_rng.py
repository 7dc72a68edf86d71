"""SplitMix64, the PRNG behind dealer v1: known values, below() and the shuffle."""

from collections import Counter

import pytest
from tranquility.solver.engine.rng import SplitMix64


def test_published_first_outputs_for_seed_1234567():
    rng = SplitMix64(1234567)
    assert [rng.next_u64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


@pytest.mark.parametrize(
    "seed, values",
    [
        (0, [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]),
        (1, [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E, 0x71C18690EE42C90B]),
    ],
)
def test_check_values_of_docs_dealing(seed, values):
    rng = SplitMix64(seed)
    assert [rng.next_u64() for _ in values] == values


def test_below_check_values_of_docs_dealing():
    rng = SplitMix64(1)
    assert [rng.below(n) for n in (85, 84, 83, 82, 81)] == [10, 7, 0, 43, 75]


def test_next_u32_is_the_high_half():
    a, b = SplitMix64(99), SplitMix64(99)
    for _ in range(10):
        assert a.next_u32() == b.next_u64() >> 32


@pytest.mark.parametrize("seed", [-1, 1 << 64])
def test_seed_out_of_range(seed):
    with pytest.raises(ValueError):
        SplitMix64(seed)


@pytest.mark.parametrize("n", [0, -3])
def test_below_needs_a_positive_bound(n):
    with pytest.raises(ValueError):
        SplitMix64(1).below(n)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 80, 2**63 + 1])
def test_below_stays_in_range(n):
    rng = SplitMix64(5)
    assert all(0 <= rng.below(n) < n for _ in range(500))


def test_below_is_roughly_uniform():
    rng = SplitMix64(2024)
    n, draws = 6, 60_000
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    assert all(abs(count - expected) < 0.05 * expected for count in counts.values())


def test_below_rejects_the_biased_tail():
    # n = 2^63 + 1: outputs >= n are rejected, so half the results land in the upper half;
    # a modulo-only implementation would fold them onto small values (only a quarter high).
    rng = SplitMix64(3)
    n = 2**63 + 1
    high = sum(rng.below(n) >= n // 2 for _ in range(2000))
    assert 800 < high < 1200


def test_shuffle_is_deterministic_and_a_permutation():
    items = list(range(50))
    a, b = items[:], items[:]
    SplitMix64(77).shuffle(a)
    SplitMix64(77).shuffle(b)
    assert a == b
    assert sorted(a) == items
    assert a != items
    c = items[:]
    SplitMix64(78).shuffle(c)
    assert c != a


def test_shuffle_order_of_consumption():
    # Fisher-Yates from the last position down: position i swaps with below(i + 1).
    items = list("abcde")
    rng, ref = SplitMix64(11), SplitMix64(11)
    expected = items[:]
    for i in range(len(expected) - 1, 0, -1):
        j = ref.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    rng.shuffle(items)
    assert items == expected
    assert rng.state == ref.state


def test_shuffle_pinned():
    items = list(range(10))
    SplitMix64(1).shuffle(items)
    assert items == PINNED_SHUFFLE


def test_shuffle_of_short_lists_consumes_nothing():
    rng = SplitMix64(8)
    for items in ([], [1]):
        rng.shuffle(items)
    assert rng.state == 8


def test_shuffle_is_roughly_uniform():
    rng = SplitMix64(4)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 6
    assert all(abs(n - 1000) < 120 for n in counts.values())


PINNED_SHUFFLE = [4, 2, 8, 1, 9, 3, 0, 6, 7, 5]
