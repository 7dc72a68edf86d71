"""What binds: the rule groups of the CP-SAT model that together make a position
unwinnable. Switching every group on must leave the model as it was; a minimal set must
really be minimal (the win comes back when any one group is switched off); and known
causes must be found."""

from __future__ import annotations

import pytest
from ortools.sat.python import cp_model
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.cpsat.binds import what_binds
from tranquility.solver.cpsat.model import RULE_GROUPS, build_model, horizon
from tranquility.solver.cpsat.run_model import CpsatLimits, new_solver
from tranquility.solver.engine.state import State
from tranquility.solver.verdicts import Method

from ..helpers import make_deal, small_deals, tiny_rules
from .test_crosscheck import REPRO


def status_with(state: State, groups) -> cp_model.CpSolverStatus:
    """The model with ``groups`` switched on and every other group off."""
    game = build_model(state, horizon(state), relaxable=True)
    for group, literal in game.rule_on.items():
        game.model.add(literal == int(group in groups))
    return new_solver(CpsatLimits(workers=1, deterministic=20.0)).solve(game.model)


@pytest.mark.slow
def test_all_groups_on_is_the_plain_model():
    """On random small deals, the relaxable model with every group assumed decides as the
    search does (the switches change nothing while they are on)."""
    for game in small_deals(25, seed=77):
        state = State.initial(game)
        expected = solve(game, REPRO, method=Method.SEARCH).verdict
        status = status_with(state, list(RULE_GROUPS))
        assert (status == cp_model.INFEASIBLE) == (expected == "no-win"), game


@pytest.mark.slow
def test_the_binding_groups_are_sufficient_and_minimal_when_so_marked():
    proven = minimal = 0
    for game in small_deals(25, seed=78):
        if solve(game, REPRO, method=Method.SEARCH).verdict != "no-win":
            continue
        state = State.initial(game)
        binding = what_binds(state, seconds=300, deterministic=2.0)
        assert binding.status == "proven", game
        assert len(binding.facts) == len(binding.groups)
        assert status_with(state, binding.groups) == cp_model.INFEASIBLE
        proven += 1
        if binding.minimal:
            for group in binding.groups:
                rest = [g for g in binding.groups if g != group]
                assert status_with(state, rest) in (cp_model.FEASIBLE, cp_model.OPTIMAL), (game, group)
            minimal += 1
    assert proven >= 6 and minimal >= proven * 0.7


def test_a_start_below_every_finish_binds_by_the_start_event():
    """Solo: the forced first round of the Start event throws the hand away, and every
    Finish card lies above the Start card in the pile."""
    rules = tiny_rules(start_discards=3)
    game = make_deal([[1, 2, 3, "F", 4, 5, 6, 7, 8, "S"]], rules)
    binding = what_binds(State.initial(game), seconds=300, deterministic=5.0)
    assert binding.status == "proven"
    assert "start" in binding.groups
    assert "Finish cards at 1 of the pile before it, none after it" in " ".join(binding.facts)


def test_too_few_islands_for_a_run_binds_by_the_order():
    """Three cells left after 6 in a row of four, but only 7 and 8 remain above 6."""
    rules = tiny_rules(hand=2, start_discards=0)
    game = make_deal([[6, 1, 2, "S", 3, 7, 4, "F", 8, 5]], rules)
    state = State.initial(game)
    state = state.apply(next(a for a in state.legal_actions() if getattr(a, "card", None) == 6 and getattr(a, "cell", None) == 0))
    binding = what_binds(state, seconds=300, deterministic=5.0)
    assert binding.status == "proven" and binding.groups == ("order",)
    assert "3 empty cell(s) between 6 and the end, has 2 island(s) left that fit (7, 8): 1 too few" in binding.facts[0]
