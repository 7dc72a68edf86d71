"""The complete search and the CP-SAT model decide small deals independently; they must
agree on every one, and every win they return must replay: the proof that the solver is right.
"""

from __future__ import annotations

import pytest
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.verify import verify
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Method, Verdict

from ..helpers import small_deals

# Minutes of solving: left out of the edit loop (-m "not slow").
pytestmark = pytest.mark.slow

CASES = 200
DEALS = small_deals(CASES)
REPRO = Budget(seconds=60, workers=1, reproducible=True, cpsat_deterministic=30.0)


def test_every_method_agrees_and_both_outcomes_are_common():
    verdicts = []
    for game in DEALS:
        search = solve(game, REPRO, method=Method.SEARCH)
        cpsat = solve(game, REPRO, method=Method.CPSAT)
        assert search.verdict != "unknown" and cpsat.verdict != "unknown", game
        assert search.verdict == cpsat.verdict, (game, search, cpsat)
        for result in (search, cpsat):
            if result.verdict == Verdict.WIN:
                check = verify(result.winning_line)
                assert check.legal and check.won
        verdicts.append(search.verdict)
    wins = verdicts.count(Verdict.WIN)
    assert wins >= 0.4 * CASES and CASES - wins >= 0.4 * CASES, f"{wins} wins of {CASES}"
