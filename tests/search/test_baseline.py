"""The greedy baseline and the greedy restarts (solver/search/baseline.py, greedy.py): a solve
for an objective runs the optimal suite's baseline first, so its line is never worse than
the baseline's best; a short solve plays what fits of it and says how many; its time is a
share of the solve's, so hints stay within theirs; counts give the same lines on every
run; the restarts never return a worse line; and ``bench --players`` picks the player
counts of a suite."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.analysis import improving
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Result
from tranquility.solver.batch import optimal_bench
from tranquility.solver.batch.bench import EVERY_COUNT, cases
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import position_after, verify
from tranquility.solver.search import budget as budget_module
from tranquility.solver.search.baseline import BASELINE, GREEDY_BASELINE, KEEPERS, greedy_baseline
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.greedy import RESTARTS, best_playout, restarts
from tranquility.solver.search.objectives import objective_value, scorer
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict

from ..helpers import small_deals
from ..oracles import exhaustive_best

PLAYOUTS = 30  # per Finish keeper: the solves' baselines here (the suite's is 1,000)
SHORT = Budget(seconds=6, workers=1, greedy_playouts=PLAYOUTS)


def _in_line(line: tuple | list, position: State) -> bool:
    check = verify(Line(position.deal, tuple(line)))
    return check.legal and check.won


# -- a solve is never worse than the baseline ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 11)])
def test_a_solve_keeps_at_least_the_baseline_s_best(players, seed):
    game = deal(OFFICIAL, players, seed)
    position = State.initial(game)
    result = solve(game, SHORT, objective=Objective.SPARE)
    assert result.best is not None
    baseline = greedy_baseline(position, Objective.SPARE, PLAYOUTS)
    assert baseline.value is not None and baseline.line is not None and _in_line(baseline.line, position)
    ran = result.stats[BASELINE]  # the solve ran the same playouts, all of them
    assert (ran["playouts"], ran["of"], ran["best"]) == (baseline.playouts, 2 * PLAYOUTS, baseline.value)
    assert result.best.value >= baseline.value
    phase = next(p for p in result.phases if p.method == BASELINE)
    assert f"{baseline.playouts} of {2 * PLAYOUTS} playouts, best {baseline.value}" in phase.found
    # What the optimal suite counts as the baseline: the solve's own, when it ran in full.
    assert optimal_bench._baseline_best(game, result, PLAYOUTS) == baseline.value


def test_the_suite_runs_the_baseline_itself_when_the_solve_did_not_finish_it():
    game = deal(OFFICIAL, 2, 3)
    ran = {"playouts": 1, "of": 2 * PLAYOUTS, "wins": 1, "best": 0, "at_bound": False, "interrupted": False}
    cut = Result(Verdict.WIN, DecidedBy.GREEDY, 1.0, stats={BASELINE: ran})  # a solve cut short by its clock
    expected = greedy_baseline(State.initial(game), Objective.SPARE, PLAYOUTS).value
    assert expected is not None and expected > 0
    assert optimal_bench._baseline_best(game, cut, PLAYOUTS) == expected
    assert optimal_bench._baseline_best(game, replace(cut, stats={}), PLAYOUTS) == expected  # the first win met the bound


def test_the_baseline_is_the_first_playouts_of_each_finish_keeper():
    # The playouts best_playout draws for both keepers, the series taking turns.
    position = State.initial(deal(OFFICIAL, 3, 4))
    wins, line = best_playout(position, 40, 0, scorer(position, Objective.SPARE), KEEPERS)
    baseline = greedy_baseline(position, Objective.SPARE, 40)
    assert (baseline.playouts, baseline.of, baseline.wins) == (80, 80, wins)
    assert line is not None and baseline.value == objective_value(position, line, Objective.SPARE)
    assert GREEDY_BASELINE == Budget().greedy_playouts == 1000
    # Counted, not timed: the same on every run.
    assert greedy_baseline(position, Objective.SPARE, 40) == baseline


def test_the_baseline_stops_at_the_bound():
    # 2 players seed 11: the due seat's Finish gives the bound of 38 turns at once.
    position = State.initial(deal(OFFICIAL, 2, 11))
    baseline = greedy_baseline(position, Objective.TURNS, 200)
    assert baseline.value == 38 and baseline.at_bound and baseline.playouts < baseline.of
    assert baseline.in_words.endswith(f"{baseline.playouts} of 400 playouts, best 38, the bound")


# -- a short solve says how many ran, and keeps to its time -----------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_short_solve_plays_what_fits_and_says_how_many(workers, monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 2)
    args = ["solve", "--seed", "0", "--players", "2", "--objective", "spare"]
    out = CliRunner().invoke(main, [*args, "--time-limit", "1.5", "--workers", workers, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    ran = data["stats"][BASELINE]
    # 2,000 playouts take about 10 s: what 1.5 s leaves them (after the ladder, or beside it
    # for as long as it runs) fits some, never all.
    assert ran["of"] == 2 * GREEDY_BASELINE and ran["playouts"] < ran["of"]
    (phase,) = [p for p in data["phases"] if p["method"] == BASELINE]
    assert f"{ran['playouts']} of {ran['of']} playouts, " in phase["found"]
    if workers == "1":
        assert phase["seconds"] <= improving.BASELINE_SHARE * 1.5 + 0.2
        first = data["stats"][improving.IMPROVING]  # the ladder's start: the first 200 per keeper
        assert first["of"] == 2 * improving.IMPROVING_PLAYOUTS and 0 < first["playouts"] <= first["of"]
    else:  # beside the ladder, for the ladder's time at most, the first playouts its own
        assert "beside the ladder" in phase["found"] and improving.IMPROVING not in data["stats"]
        assert phase["seconds"] <= improving.BESIDE_LADDER_SHARE * 1.5 + 0.2
    text = CliRunner().invoke(main, [*args, "--time-limit", "1"])
    assert text.exit_code == 0 and "the greedy baseline for" in text.output
    assert f" of {2 * GREEDY_BASELINE} playouts, " in text.output


def test_the_greedy_phases_of_a_hint_keep_to_its_time():
    # The board asks for hints with Budget(seconds=--hint-time): the baseline's 2,000
    # playouts (10 s) and the restarts take their shares of it, not their counts.
    result = solve(deal(OFFICIAL, 2, 1), Budget(seconds=1.0), objective=Objective.SPARE)
    took = {p.method: p.seconds for p in result.phases}
    assert took[DecidedBy.GREEDY] <= improving.IMPROVING_SHARE * 1.0 + 0.1  # the first playouts
    # Each greedy phase takes its share of what is left: together less than the hint's time.
    assert took[DecidedBy.GREEDY] + took.get(BASELINE, 0.0) + took.get(RESTARTS, 0.0) <= 1.0 + 0.2


# -- reproducible: counts, the same on every run --------------------------------------------


@pytest.mark.slow
def test_a_reproducible_solve_gives_the_same_result_twice(monkeypatch):
    # The greedy phases, counted; the CP-SAT steps after them (their own tests check that
    # they are reproducible) are left out, to keep this fast.
    for step in ("_ladder", "_windows", "_whole_model"):
        monkeypatch.setattr(improving, step, lambda run, best: best)
    game = deal(OFFICIAL, 2, 0)
    budget = Budget(reproducible=True, workers=1, greedy_playouts=PLAYOUTS, search_nodes=500, cpsat_deterministic=1.0)
    first, second = (solve(game, budget, objective=Objective.SPARE).to_json() for _ in range(2))
    for data in (first, second):
        del data["seconds"]
        for phase in data["phases"]:
            del phase["seconds"]
    assert first == second
    assert first["stats"][BASELINE]["playouts"] == first["stats"][BASELINE]["of"] == 2 * PLAYOUTS
    assert first["stats"][RESTARTS]["restarts"] == 2 * PLAYOUTS  # as many as the baseline's playouts


# -- the restarts -----------------------------------------------------------------------------


def test_the_restarts_improve_a_poor_line_and_never_return_a_worse_one():
    position = State.initial(deal(OFFICIAL, 2, 14))
    value = scorer(position, Objective.SPARE)
    _, worst = best_playout(position, 20, 0, lambda line, end: -end.cards_left)
    assert worst is not None
    start = objective_value(position, worst, Objective.SPARE)
    found = restarts(position, worst, value, Deadline(nodes=300), 0, KEEPERS)
    assert found.restarts == 300 and found.value > start and _in_line(found.line, position)
    assert found.value == objective_value(position, found.line, Objective.SPARE)
    again = restarts(position, worst, value, Deadline(nodes=300), 0, KEEPERS)
    assert again == found  # counted: the same line every run


def test_the_restarts_never_pass_the_exact_optimum():
    checked = 0
    for game in small_deals(30, seed=14):
        position = position_after(Line(game))
        _, start = best_playout(position, 10, 0, lambda line, end: -end.cards_left)
        if start is None:
            continue
        # A node budget, not seconds: the same five deals are solved exactly on a loaded
        # machine (each in at most 3,749 nodes; the first one left takes more than 5,889).
        verdict, optimum, _ = exhaustive_best(position, Objective.SPARE, Deadline(nodes=5000), SearchStats())
        if verdict != "win":
            continue
        first = objective_value(position, start, Objective.SPARE)
        found = restarts(position, start, scorer(position, Objective.SPARE), Deadline(nodes=100), 1, KEEPERS, optimum)
        assert first <= found.value <= optimum and _in_line(found.line, position)
        checked += 1
        if checked == 5:
            break
    assert checked == 5


# -- bench --players ------------------------------------------------------------------------


def test_cases_keep_the_player_counts_asked_for():
    assert {c.players for c in cases("official", 1, (2, 3))} == {2, 3}
    assert {c.players for c in cases("variants", 1, (4,))} == {4}
    assert len(list(cases("official", 2))) == 2 * len(EVERY_COUNT)


@pytest.mark.parametrize("spelt", ["2-3", "2,3", "3,2", "2, 3"])
def test_bench_players_picks_the_optimal_suite_s_half(monkeypatch, spelt):
    seen: dict = {}

    def fake(deals, time_limit, workers, reproducible, players, on_step=None):
        seen["players"] = players
        return []

    monkeypatch.setattr(optimal_bench, "run_optimal_suite", fake)
    out = CliRunner().invoke(main, ["bench", "--suite", "optimal", "--players", spelt, "--deals", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert seen == {"players": (2, 3)}


def test_bench_players_filters_the_solve_suites():
    out = CliRunner().invoke(main, ["bench", "--suite", "official", "--players", "1,3", "--deals", "1", "--json"])
    assert out.exit_code == 0, out.output
    assert [g["players"] for g in json.loads(out.stdout)["groups"]] == [1, 3]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--suite", "optimal", "--players", "1"], "--players: --suite optimal has no 1-player deals (it plays 2, 3, 4, 5)"),
        (["--suite", "variants", "--players", "2-3"], "--suite variants has no 3-player deals (it plays 1, 2, 4)"),
        (["--players", "0-2"], "player counts run from 1 to 5"),
        (["--players", "2;3"], "is not a player count (4), a range of them (1-5) or a list (2,4)"),
    ],
)
def test_bench_players_outside_the_suite_is_a_usage_error(args, said):
    out = CliRunner().invoke(main, ["bench", *args])
    assert out.exit_code == 2 and said in out.output
