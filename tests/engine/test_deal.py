"""Dealer v1 (golden deals pinned forever) and Deal.check."""

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card
from tranquility.solver.engine.deal import (
    DEALER,
    MAX_SEED,
    Deal,
    DealError,
    check_players,
    check_seed,
    deal,
    pile_sizes,
)
from tranquility.solver.engine.rules import OFFICIAL, PRESETS, FinishSetup, Rocks, Rules
from tranquility.solver.formats.codecs import deal_from_json, deal_to_json

from ..helpers import TINY, deal_cards, make_deal, tiny_rules

GOLDEN = Path(__file__).parents[1] / "golden" / "deals"

# name: (rule options, players, seed). Never change an existing entry: a dealer v1 deal
# must be the same on every machine and every future version.
GOLDEN_CASES: dict[str, tuple[dict[str, Any], int, int]] = {
    "official-s1-p4": ({}, 4, 1),
    "official-s42-p1": ({}, 1, 42),
    "official-s7-p5": ({}, 5, 7),
    "islands-monsters-s7-p3": ({"removed": 8, "monsters": 4}, 3, 7),
    "rocks-auto-s3-p3": ({"rocks": "auto"}, 3, 3),
    "rocks-manual-s5-p2": ({"rocks": "manual"}, 2, 5),
    "after-hands-s11-p4": ({"finish_setup": "after_hands", "adjacency": "orthogonal"}, 4, 11),
    "after-hands-s12-p3-monsters": ({"finish_setup": "after_hands", "monsters": 3, "removed": 4}, 3, 12),
    "tiny-s0-p2": (TINY, 2, 0),
    "tiny-s2024-p1-rocks": ({**TINY, "rows": 2, "cols": 2, "rocks": "auto"}, 1, 2024),
}


def golden_deal(name: str) -> Deal:
    options, players, seed = GOLDEN_CASES[name]
    return deal(Rules(**options), players, seed)


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_deals(name):
    """Regenerate (only on purpose, e.g. for a new case) with TRANQUILITY_REGEN_GOLDEN=1."""
    path = GOLDEN / f"{name}.json"
    data = deal_to_json(golden_deal(name))
    if os.environ.get("TRANQUILITY_REGEN_GOLDEN") and not path.exists():
        path.write_text(json.dumps(data) + "\n")
    assert data == json.loads(path.read_text())


def test_golden_tiny_deal_by_eye():
    # The smallest golden deal, spelled out: seat 0 holds 2 1 4, seat 1 holds 7 F 3.
    assert golden_deal("tiny-s0-p2").piles == ((2, 1, 4, 6, START), (7, FINISH, 3, 5, 8, START))


def test_worked_example_of_docs_dealing():
    rules = Rules(rows=2, cols=3, islands=12, hand=2, start_discards=2, finish=1, removed=2, monsters=1, rocks=Rocks.AUTO)
    d = deal(rules, 2, 7)
    assert d.piles == ((5, 12, 8, 11, 3, 10, START), (MONSTER, FINISH, 6, 1, 9, START, 7))
    assert d.removed_islands == (2, 4)
    assert d.rocks_row == 1
    assert len(d.rocks_rolls) == 14
    assert d.rocks_rolls[:5] == (1479370519, 1820089116, 3876378335, 4124581683, 329343489)


def test_rocks_do_not_change_the_piles():
    piles = {deal(Rules(rocks=mode), 3, 99).piles for mode in (Rocks.OFF, Rocks.AUTO, Rocks.MANUAL)}
    assert len(piles) == 1


def test_official_seed_1_opening_hands():
    d = deal(OFFICIAL, 4, 1)
    assert [len(p) for p in d.piles] == [22, 22, 22, 23]
    assert d.piles[0][:5] == (72, 19, 66, 32, 62)


@pytest.mark.parametrize("name", sorted(GOLDEN_CASES))
def test_golden_files_read_back_and_check(name):
    d = deal_from_json(json.loads((GOLDEN / f"{name}.json").read_text()))
    d.check()
    assert d == golden_deal(name)
    assert d.dealer == DEALER == "v1"


def test_seed_changes_the_deal_and_is_recorded():
    a, b = deal(OFFICIAL, 4, 1), deal(OFFICIAL, 4, 2)
    assert a.piles != b.piles
    assert (a.seed, b.seed) == (1, 2)
    assert deal(OFFICIAL, 4, 1) == a


@pytest.mark.parametrize(
    "total, players, sizes",
    [(85, 1, [85]), (85, 2, [42, 43]), (85, 3, [28, 28, 29]), (85, 4, [21, 21, 21, 22]), (85, 5, [17] * 5), (7, 3, [2, 2, 3])],
)
def test_pile_sizes(total, players, sizes):
    assert pile_sizes(total, players) == sizes


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_preset_deals_legally(name, players):
    rules = PRESETS[name]
    d = deal(rules, players, 1000 + players)
    d.check()
    sizes = [len(p) for p in d.piles]
    assert sizes[0] == min(sizes), "seat 0 moves first and has the fewest cards"
    assert max(sizes) - min(sizes) <= 1
    for pile in d.piles:
        assert pile.count(START) == 1
        assert START not in pile[: rules.hand]
    cards = deal_cards(d)
    expected: Counter[Card] = Counter(range(1, rules.islands + 1))
    expected -= Counter(d.removed_islands)
    expected.update({START: players, FINISH: rules.finish, MONSTER: rules.monsters})
    assert +cards == +expected, "every card exactly once"
    assert len(d.removed_islands) == rules.removed
    if rules.rocks == Rocks.OFF:
        assert d.rocks_row is None and d.rocks_rolls == ()
    else:
        assert d.rocks_row is not None and 0 <= d.rocks_row < rules.rows
        assert len(d.rocks_rolls) == (d.total_cards() if rules.rocks == Rocks.AUTO else 0)


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_after_hands_keeps_finish_out_of_opening_hands(players):
    rules = Rules(finish_setup=FinishSetup.AFTER_HANDS)
    for seed in range(5):
        d = deal(rules, players, seed)
        assert all(FINISH not in pile[: rules.hand] for pile in d.piles)
        sizes = [len(p) for p in d.piles]
        assert sizes[0] == min(sizes) and max(sizes) - min(sizes) <= 1


def test_start_never_in_an_opening_hand_over_many_seeds():
    rules = tiny_rules(hand=4)
    for seed in range(200):
        for pile in deal(rules, 2, seed).piles:
            assert START not in pile[:4]


@pytest.mark.parametrize(
    "rules, players",
    [(OFFICIAL, 0), (OFFICIAL, 6), (tiny_rules(), 4), (Rules(hand=20), 5), (tiny_rules(finish_setup="after_hands"), 3)],
)
def test_impossible_player_counts_are_refused(rules, players):
    with pytest.raises(DealError) as err:
        deal(rules, players, 1)
    assert "players" in str(err.value) or "'hand'" in str(err.value)


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.0, True])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(DealError, match="seed"):
        deal(OFFICIAL, 2, seed)


def test_largest_seed_deals():
    deal(OFFICIAL, 2, 2**64 - 1).check()


def test_check_players_accepts_the_limit():
    # TINY: 8 islands + 1 Finish = 9 cards; three seats of 3 is exactly enough.
    check_players(tiny_rules(), 3)
    with pytest.raises(DealError):
        check_players(tiny_rules(), 4)


# -- Deal.check ------------------------------------------------------------------------

GOOD = [[1, 2, 3, START, 4], [5, 6, 7, 8, FINISH, START]]


def bad(piles=GOOD, rules=None, **kwargs) -> str:
    with pytest.raises(DealError) as err:
        Deal(rules=rules or tiny_rules(), piles=tuple(tuple(p) for p in piles), **kwargs).check()
    return str(err.value)


def test_good_hand_made_deal():
    make_deal(GOOD)


def test_check_errors():
    assert "1 to 5" in bad([])
    assert "1 to 5" in bad([GOOD[0]] * 6)
    assert "opening hand" in bad([[1, START, 2, 3, 4], GOOD[1]])
    assert "2 Start" in bad([[1, 2, 3, START, 4, START], GOOD[1]])
    assert "0 Start" in bad([[1, 2, 3, 4], [5, 6, 7, 8, FINISH, START, START]])
    # A pile no longer than a hand cannot hold its Start outside the opening hand.
    assert "opening hand" in bad([[1, 2, START], [3, 4, 5, 6, 7, 8, FINISH, START]])
    assert "twice" not in bad([[1, 2, 3, START, 4, 4], GOOD[1]])
    assert "dealt 2 times" in bad([[1, 2, 3, START, 4, 4], GOOD[1]])
    assert "missing" in bad([[1, 2, 3, START], GOOD[1]])
    assert "unknown card" in bad([[1, 2, 3, START, 4, "X"], GOOD[1]])
    assert "unknown card" in bad([[1, 2, 3, START, 4, True], GOOD[1]])
    assert "outside" in bad([[1, 2, 3, START, 4, 9], GOOD[1]])
    assert "outside" in bad([[0, 2, 3, START, 4, 1], GOOD[1]])
    assert "Finish" in bad([[1, 2, 3, START, 4, FINISH], GOOD[1]])
    assert "Sea Monster" in bad([[1, 2, 3, START, 4, MONSTER], GOOD[1]])


def test_check_removed_islands():
    rules = tiny_rules(removed=1, islands=9)
    make_deal(GOOD, rules, removed_islands=(9,))
    assert bad(GOOD, rules, removed_islands=(4,)) == "island 4 is dealt 1 times, expected 0 (it is listed as removed)"
    assert "island 4 is missing" in bad([[1, 2, 3, START], GOOD[1]], rules, removed_islands=(9,))
    assert "twice" in bad(GOOD, tiny_rules(removed=2, islands=10), removed_islands=(9, 9))
    assert "rule 'removed'" in bad(GOOD, rules, removed_islands=())
    assert "rule 'removed'" in bad(GOOD, rules, removed_islands=(9, 10))
    assert "not an island" in bad(GOOD, rules, removed_islands=(12,))


def test_check_rocks():
    rules = tiny_rules(rows=2, cols=2, rocks="auto")
    make_deal(GOOD, rules, rocks_row=1, rocks_rolls=(3, 0))
    assert "rocks_row" in bad(GOOD, rules)
    assert "rocks_row" in bad(GOOD, rules, rocks_row=2)
    assert "rocks_row" in bad(GOOD, tiny_rules(), rocks_row=0)
    assert "non-negative" in bad(GOOD, rules, rocks_row=0, rocks_rolls=(1, -1))


def test_check_after_hands_keeps_finish_out_of_opening_hands():
    rules = tiny_rules(finish_setup="after_hands")
    make_deal([[1, 2, 3, START, 4], [5, 6, 7, 8, FINISH, START]], rules)
    assert "Finish card is in the opening hand" in bad([[1, 2, 3, START, 4], [5, FINISH, 7, 8, 6, START]], rules)
    make_deal([[1, 2, 3, START, 4], [5, FINISH, 7, 8, 6, START]])  # fine with finish_setup=deck


def test_check_monsters_are_counted():
    rules = tiny_rules(monsters=2)
    make_deal([[1, 2, 3, START, 4, MONSTER], [5, 6, 7, 8, FINISH, START, MONSTER]], rules)
    assert "Sea Monster" in bad(GOOD, rules)


@pytest.mark.parametrize("seed", [-1, 2**64, True, 1.0, "7", None])
def test_a_seed_outside_the_dealers_range_is_named(seed):
    with pytest.raises(DealError, match=r"seed must be an integer in 0\.\.2\^64-1"):
        check_seed(seed)
    with pytest.raises(DealError, match="seed must be"):
        deal(PRESETS["official"], 2, seed)


def test_the_dealers_last_seed_deals():
    check_seed(MAX_SEED)
    assert deal(PRESETS["official"], 2, MAX_SEED).seed == MAX_SEED
