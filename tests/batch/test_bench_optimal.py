"""The optimal suite (solver/batch/optimal_bench.py): a tiny run, one seed of two players with
a small time limit, reports each solve's value, bound and the methods that gave them, and
the greedy baseline; the CLI prints its table and its JSON."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.batch import optimal_bench
from tranquility.solver.batch.optimal_bench import OPTIMAL_OBJECTIVES, optimal_markdown, run_optimal_suite
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State
from tranquility.solver.search.objectives import BoundBy, FoundBy, objective_bound
from tranquility.solver.verdicts import Objective

# Both tests share a real run of the suite (several seconds of solving): left out of the
# edit loop (-m "not slow").
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def rows():
    return run_optimal_suite(1, 3.0, workers=1, players=(2,), baseline=20)


def test_a_tiny_run_reports_each_objective_with_its_methods(rows):
    assert [(r.players, r.objective) for r in rows] == [(2, o) for o in OPTIMAL_OBJECTIVES]
    position = State.initial(deal(OFFICIAL, 2, 0))
    for row in rows:
        (case,) = row.cases
        assert case.value is not None and case.bound is not None
        # The bound is never looser than the analytic one, and never beyond the line found.
        analytic = objective_bound(position, Objective(row.objective))
        if row.objective == Objective.SPARE:
            assert case.value <= case.bound <= analytic
        else:
            assert analytic <= case.bound <= case.value
        assert case.optimal == (case.value == case.bound) == (case.gap == 0)
        assert case.bound_by in tuple(BoundBy) and case.value_by in tuple(FoundBy)
        data = row.to_json()
        assert data["bound_by"] == {case.bound_by: 1} and data["value_by"] == {case.value_by: 1}
        assert data["gap_median"] == data["gap_p90"] == case.gap
    spare = rows[1]
    assert spare.cases[0].greedy is not None  # 2 players: the greedy baseline is taken
    assert spare.cases[0].solve_playouts == 2 * 20  # by the solve itself, each keeper's 20
    assert spare.at_least_greedy == (int(spare.cases[0].value >= spare.cases[0].greedy), 1)
    assert rows[0].at_least_greedy is None  # not for turns
    table = optimal_markdown(rows)
    assert f"| 2 | spare | 1 | {100 * spare.proven_share:.0f}% |" in table


def test_the_cli_runs_the_suite_and_prints_its_json(monkeypatch, rows):
    seen: dict = {}

    def fake(deals, time_limit, workers, reproducible, players, on_step=None):
        seen.update(deals=deals, time_limit=time_limit, workers=workers, players=players)
        return rows

    monkeypatch.setattr(optimal_bench, "run_optimal_suite", fake)
    out = CliRunner().invoke(main, ["bench", "--suite", "optimal", "--deals", "1", "--time-limit", "3", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["suite"] == "optimal" and data["time_limit"] == 3
    assert [r["objective"] for r in data["rows"]] == list(OPTIMAL_OBJECTIVES)
    assert seen == {"deals": 1, "time_limit": 3.0, "workers": 2, "players": (2, 3, 4, 5)}
    text = CliRunner().invoke(main, ["bench", "--suite", "optimal", "--deals", "1"])
    assert text.exit_code == 0 and "| 2 | turns | 1 |" in text.output
