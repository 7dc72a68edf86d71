"""Optimal values from CP-SAT agree with the complete search's (issue 4, "Right and fast")."""

from __future__ import annotations

import pytest
from tranquility.solver.search import Deadline, SearchStats, exhaustive_best
from tranquility.solver.solve import Budget, objective_value, solve
from tranquility.solver.state import State
from tranquility.solver.verify import verify

from .helpers import small_deals

# Small deals whose complete optimisation finishes quickly (1-row grids).
DEALS = [g for g in small_deals(40, seed=3) if g.rules.rows == 1][:8]


@pytest.mark.parametrize("objective", ["spare", "turns", "cost"])
def test_cpsat_optimum_equals_the_complete_search(objective):
    checked = 0
    for game in DEALS:
        state = State.initial(game)
        verdict, value, actions = exhaustive_best(state, objective, Deadline(seconds=20), SearchStats())
        assert verdict != "unknown"
        result = solve(game, Budget(seconds=20, workers=1), objective=objective)
        assert result.verdict == verdict
        if verdict != "win":
            continue
        assert objective_value(state, actions, objective) == value
        assert result.best.value == value and result.best.optimal
        assert verify(result.line).won
        checked += 1
    assert checked >= 3
