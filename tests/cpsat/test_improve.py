"""The improving search (solver/cpsat/large_neighbourhoods.py): on small deals whose exact
optimum the plain search finds, the LNS never returns a line worse than its start or better
than the optimum, every line it returns replays as a win, a solve never claims optimal unless the
value is the exact optimum, and a reproducible budget gives the same line twice."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.cpsat import large_neighbourhoods
from tranquility.solver.cpsat.large_neighbourhoods import Rest, applies, draw_window, lns
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.verify import position_after, verify
from tranquility.solver.errors import InternalError
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.greedy import best_playout
from tranquility.solver.search.objectives import better, objective_value
from tranquility.solver.verdicts import Objective

from ..helpers import small_deals
from ..oracles import exhaustive_best

LNS_OBJECTIVES = (Objective.SPARE, Objective.COST)  # the objectives the LNS runs for (not turns)
FAST = Budget(reproducible=True, workers=1, greedy_playouts=50, search_nodes=500, cpsat_deterministic=2.0)


def _cases():
    """Small won deals, each with a poor first line (the greedy playout that keeps the
    fewest cards, so that there is room to improve) and the exact optimum of each
    objective."""
    cases = []
    for game in small_deals(40, seed=14):
        position = position_after(Line(game))
        _, start = best_playout(position, 20, 0, lambda a, end: -end.cards_left)
        if start is None:
            continue
        optimum = {}
        for objective in LNS_OBJECTIVES:
            verdict, value, _ = exhaustive_best(position, objective, Deadline(seconds=3), SearchStats())
            if verdict == "win":
                optimum[objective] = value
        if len(optimum) < len(LNS_OBJECTIVES):
            continue  # the plain search ran out of time: no exact optimum to check against
        cases.append((game, position, start, optimum))
        if len(cases) == 6:
            break
    return cases


@pytest.fixture(scope="module")
def cases():
    """_cases(), computed once for the module, when a test first asks."""
    return _cases()


@pytest.fixture(autouse=True)
def few_rounds(monkeypatch):
    monkeypatch.setattr(large_neighbourhoods, "REPRODUCIBLE_ROUNDS", 4)


@pytest.mark.slow
def test_the_cases_are_real(cases):
    assert len(cases) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("objective", LNS_OBJECTIVES)
def test_the_lns_never_returns_a_worse_line_and_every_line_replays(cases, objective):
    improved = 0
    for game, position, start, optimum in cases:
        first = objective_value(position, start, objective)
        found = lns(Line(game), position, start, objective, Budget(reproducible=True, seed=1))
        assert not better(objective, first, found.value)  # never worse than the start
        check = verify(Line(game, tuple(found.actions)))
        assert check.legal and check.won
        assert found.value == objective_value(position, found.actions, objective)
        assert not better(objective, found.value, optimum[objective])  # never beyond the optimum
        improved += better(objective, found.value, first)
        assert sum(found.accepted.values()) <= found.rounds
    assert improved  # the rounds do find better lines


@pytest.mark.slow
def test_a_reproducible_budget_gives_the_same_line_twice(cases):
    for game, position, start, _ in cases[:2]:
        runs = [lns(Line(game), position, start, Objective.SPARE, Budget(reproducible=True, seed=5)) for _ in range(2)]
        assert runs[0].actions == runs[1].actions and runs[0].accepted == runs[1].accepted


@pytest.mark.slow
def test_a_solve_claims_optimal_only_at_the_exact_optimum(cases):
    claimed = 0
    for game, _, _, optimum in cases:
        for objective, exact in optimum.items():
            result = solve(game, FAST, objective=objective)
            assert result.best is not None and result.line is not None
            assert verify(result.line).won
            assert not better(objective, result.best.value, exact)
            assert result.best.bound is not None and not better(objective, exact, result.best.bound)
            if result.best.optimal:
                claimed += 1
                assert result.best.value == exact
    assert claimed


@pytest.mark.slow
def test_a_line_the_engine_rejects_is_an_internal_error(cases, monkeypatch):
    game, position, start, _ = cases[0]
    # A "better" line that never plays the Finish: it keeps one card more, and does not win.
    monkeypatch.setattr(large_neighbourhoods, "_round", lambda *args: (start[:-1], False))
    with pytest.raises(InternalError, match="does not replay as a win"):
        lns(Line(game), position, start, Objective.SPARE, Budget(reproducible=True))


def test_windows_are_seeded_and_inside_the_line():
    for turns in (5, 12, 43):
        a, b = random.Random(3), random.Random(3)
        for length in range(1, 50):
            lengths = dict.fromkeys(Rest, length)
            window = draw_window(a, turns, lengths)
            assert window == draw_window(b, turns, lengths)
            assert window.end - window.first in range(max(1, min(turns, length - 2)), length + 3)
            assert 0 <= window.first < window.end <= turns
            assert window.rest != Rest.NOTHING or window.end == turns


@pytest.mark.slow
def test_the_lns_runs_only_where_it_fixes_cells_by_one_island(cases):
    _, position, *_ = cases[0]
    assert applies(position, Objective.SPARE) and not applies(position, Objective.TURNS)
    monsters = position_after(Line(deal(replace(OFFICIAL, monsters=3), 2, 0)))
    assert not applies(monsters, Objective.SPARE)


def test_the_docs_give_the_search_s_budgets():
    text = (Path(__file__).parents[2] / "docs" / "explain.md").read_text(encoding="utf-8")
    assert f"{large_neighbourhoods.REPRODUCIBLE_ROUNDS} rounds of {large_neighbourhoods.ROUND_DETERMINISTIC} s" in text
    assert f"A round's CP-SAT run has {large_neighbourhoods.ROUND_SECONDS:g} s on one worker" in text
    assert f"starts at {large_neighbourhoods.FIRST_LENGTH} turns, grows by {large_neighbourhoods.GROW}" in text
    assert f"shrinks by {large_neighbourhoods.SHRINK}" in text
    assert large_neighbourhoods.LNS_SHARE == 0.75 and "three quarters" in text
    assert "one of two kinds" in text and len(Rest) == 2


@pytest.mark.slow
def test_ctrl_c_keeps_the_best_line_so_far(cases, monkeypatch):
    game, position, start, _ = cases[0]

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(large_neighbourhoods, "_round", interrupted)
    found = lns(Line(game), position, start, Objective.SPARE, Budget(reproducible=True))
    assert found.interrupted and found.actions == start and found.rounds == 1
