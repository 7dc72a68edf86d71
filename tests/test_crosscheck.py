"""The complete search and the CP-SAT model decide small deals independently; they must
agree on every one, and every win they return must replay (issue 3, "Proof that it is right").
"""

from __future__ import annotations

import random


from solver.deal import DealError, deal
from solver.rules import Rules
from solver.solve import Budget, solve
from solver.verify import verify

CASES = 200


def small_deals(count: int, seed: int = 2026):
    """Random small rule sets (1x4 to 2x4 grids, 8 to 16 islands, 1 to 3 seats, small hands
    and Start discards, every order and adjacency), dealt with fixed seeds."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rows = rng.choice([1, 2])
        cols = 4
        rules = Rules(
            rows=rows,
            cols=cols,
            islands=rng.randint(8, 10) if rows == 1 else rng.randint(10, 13),
            finish=rng.choice([1, 2]),
            hand=rng.choice([2, 3, 3, 4]),
            start_discards=rng.choice([0, 1, 1, 2, 3]),
            order=rng.choice(["sequence", "grid"]) if rows > 1 else "sequence",
            adjacency=rng.choice(["sequence", "orthogonal", "both"]),
            one_card=rng.choice(["play", "play", "lose"]),
        )
        players = rng.randint(1, 3)
        try:
            game = deal(rules, players, rng.randrange(10**6))
        except DealError:
            continue
        out.append(game)
    return out


DEALS = small_deals(CASES)
REPRO = Budget(seconds=60, workers=1, reproducible=True, cpsat_deterministic=30.0)


def test_every_method_agrees_and_both_outcomes_are_common():
    verdicts = []
    for game in DEALS:
        search = solve(game, REPRO, method="search")
        cpsat = solve(game, REPRO, method="cpsat")
        assert search.verdict != "unknown" and cpsat.verdict != "unknown", game
        assert search.verdict == cpsat.verdict, (game, search, cpsat)
        for result in (search, cpsat):
            if result.verdict == "win":
                check = verify(result.line)
                assert check.legal and check.won
        verdicts.append(search.verdict)
    wins = verdicts.count("win")
    assert wins >= 0.4 * CASES and CASES - wins >= 0.4 * CASES, f"{wins} wins of {CASES}"
