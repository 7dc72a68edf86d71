"""Optimal values from CP-SAT agree with the complete search's, and the model's expression of
each objective agrees with the rules engine's measure."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.cpsat.model import build_model, horizon
from tranquility.solver.cpsat.run_model import CpsatLimits, add_hint, line_facts, new_solver, objective_expr
from tranquility.solver.engine.actions import PlayStart
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.objectives import maximised, objective_value
from tranquility.solver.verdicts import Method, Objective

from ..helpers import small_deals
from ..oracles import exhaustive_best

# Every test here solves small deals exactly, for tens of seconds: left out of the edit
# loop (-m "not slow").
pytestmark = pytest.mark.slow

# Small deals whose complete optimisation finishes quickly (1-row grids).
DEALS = [g for g in small_deals(40, seed=3) if g.rules.rows == 1][:8]
SCORED_OBJECTIVES = [Objective.SPARE, Objective.TURNS, Objective.COST]  # every objective but any


@pytest.mark.parametrize("objective", SCORED_OBJECTIVES)
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
        assert result.best is not None and result.line is not None
        assert objective_value(state, actions, objective) == value
        assert result.best.value == value and result.best.optimal
        assert verify(result.line).won
        checked += 1
    assert checked >= 3


def test_the_model_measures_every_objective_as_the_engine_does():
    """Pin the model to a won line (every variable its hint names, but which Finish card:
    the hint may name two alike) and read objective_expr: it must be the engine's value,
    from the deal and from the position after the Start."""
    checked = 0
    for game in small_deals(30, seed=3):
        result = solve(game, Budget(seconds=60, workers=1, reproducible=True), method=Method.SEARCH)
        if result.verdict != "win":
            continue
        assert result.line is not None
        actions = list(result.line.actions)
        after_start = next(i for i, a in enumerate(actions) if isinstance(a, PlayStart)) + 1
        for cut in (0, after_start):
            position = State.initial(game)
            for action in actions[:cut]:
                position = position.apply(action)
            rest = actions[cut:]
            model = build_model(position, horizon(position))
            add_hint(model, line_facts(position, rest))
            finish_cards = {model.played[pc].index for pc in model.frame.finishes}
            hint = model.model.proto.solution_hint
            for index, value in zip(hint.vars, hint.values, strict=True):
                if index not in finish_cards:
                    model.model.add(model.model.get_int_var_from_proto_index(index) == value)
            solver = new_solver(CpsatLimits(workers=1, deterministic=10.0))
            assert solver.solve(model.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE), game
            for objective in SCORED_OBJECTIVES:
                sign = -1 if maximised(objective) else 1
                assert solver.value(objective_expr(model, objective)) == sign * objective_value(position, rest, objective), (
                    game,
                    cut,
                    objective,
                )
            checked += 1
    assert checked >= 10
