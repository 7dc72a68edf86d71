"""The solver's contract: three verdicts, wins that replay, proofs named, positions solved
from their prefix, and results that do not depend on workers or method."""

from __future__ import annotations

import json
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tranquility.solver.analysis import improving
from tranquility.solver.analysis.improving import IMPROVING
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.cpsat import ladder
from tranquility.solver.cpsat.model import horizon
from tranquility.solver.cpsat.run_model import CpsatLimits, new_solver
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL, Rocks, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.search import budget as budget_module
from tranquility.solver.search.baseline import BASELINE, KEEPERS, BaselineSeries, greedy_baseline
from tranquility.solver.search.bounds import least_total_cost, refutation
from tranquility.solver.search.budget import Budget, Deadline
from tranquility.solver.search.greedy import RESTARTS, restarts
from tranquility.solver.search.objectives import objective_bound, objective_value, scorer
from tranquility.solver.verdicts import Method, Objective, Proof

from ..helpers import run, small_deals

REPRO = Budget(seconds=60, workers=1, reproducible=True, cpsat_deterministic=30.0)
SMALL = small_deals(40, seed=7)
# How many deals of SMALL are won: the prefix test is parametrized by their index before
# any of them is solved (the fixture won checks the count).
WON_COUNT = 19


@pytest.fixture(scope="module")
def won():
    """Every won deal of SMALL with its reproducible solve, solved once for the module."""
    found = [(g, r) for g in SMALL for r in [solve(g, REPRO, method=Method.SEARCH)] if r.verdict == "win"]
    assert len(found) == WON_COUNT, f"{len(found)} deals of SMALL are won: set WON_COUNT to it"
    return found


def test_official_multiplayer_deals_are_won_with_replayed_lines():
    for players in (2, 3, 4, 5):
        result = solve(deal(OFFICIAL, players, 1), Budget(seconds=20))
        assert result.verdict == "win"
        check = verify(result.winning_line)
        assert check.legal and check.won


@pytest.mark.slow
def test_a_lost_solo_deal_is_proven_by_cpsat():
    # Solo seed 6: no Finish card can survive with the Start this deep (measured: CP-SAT
    # proves it infeasible in well under a second of search).
    result = solve(deal(OFFICIAL, 1, 6), Budget(seconds=60, workers=2), method=Method.CPSAT)
    assert result.verdict == "no-win" and result.method == "cpsat"
    assert "proven bound" in str(result.reason)


def test_monsters_and_rocks_are_solved_by_the_greedy_player():
    for rules in (Rules(monsters=3), Rules(rocks=Rocks.AUTO)):
        for method in (Method.AUTO, Method.SEARCH):
            result = solve(deal(rules, 2, 1), Budget(seconds=10), method=method)
            assert result.verdict == "win" and result.method == "greedy"  # the line was replayed


@pytest.mark.slow
@pytest.mark.parametrize("index", range(WON_COUNT))
def test_every_prefix_of_a_winning_line_is_still_a_win(won, index):
    game, result = won[index]
    actions = result.winning_line.actions
    for cut in range(len(actions)):
        sub = solve(Line(game, actions[:cut]), REPRO, method=Method.SEARCH)
        assert sub.verdict == "win", cut
        assert sub.winning_line.actions[:cut] == actions[:cut]
        assert verify(sub.winning_line).won


@pytest.mark.slow
def test_verdict_does_not_depend_on_workers():
    for game in SMALL[:12]:
        one = solve(game, Budget(seconds=30, workers=1), method=Method.CPSAT)
        two = solve(game, Budget(seconds=30, workers=2), method=Method.CPSAT)
        assert one.verdict == two.verdict != "unknown"


@pytest.mark.slow
def test_reproducible_mode_gives_the_same_line():
    game = SMALL[0]
    runs = [solve(game, REPRO, method=m) for m in (Method.CPSAT, Method.CPSAT, Method.SEARCH, Method.SEARCH)]
    assert runs[0].line == runs[1].line and runs[2].line == runs[3].line


@pytest.mark.slow
@settings(max_examples=25)
@given(st.sampled_from(SMALL), st.integers(0, 5))
def test_refutations_never_refute_a_winnable_position(game, cut):
    """A cheap refutation is a proof: it must never fire on a position that is won later."""
    won = solve(game, REPRO, method=Method.SEARCH)
    if won.verdict != "win":
        return
    state = State.initial(game)
    for action in won.winning_line.actions[: min(cut, len(won.winning_line.actions))]:
        state = state.apply(action)
    assert refutation(state) is None
    # The horizon bound covers the rest of the winning line.
    assert len(won.winning_line.actions) - min(cut, len(won.winning_line.actions)) <= horizon(state)
    assert least_total_cost(state) >= 0


# -- improving a win: the schedule on two cores ---------------------------------------------

# A small 2-player deal whose spare optimum, 3, the ladder proves in two steps (the test of
# --proof start-slot below).
TWO_STEPS = small_deals(41, seed=15)[40]


def test_on_two_cores_the_spare_ladder_is_one_whole_run_with_the_greedy_phases_beside_it(monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 2)
    result = solve(TWO_STEPS, Budget(seconds=30, workers=2), objective=Objective.SPARE)
    best = result.best
    assert best is not None and best.optimal and best.value == best.bound == 3, best
    assert verify(result.winning_line).won
    ladder = result.stats["ladder"]
    # One CP-SAT run a step (two proofs and the optimal line), not the race of two starved ones.
    assert ladder["proof"] == "whole" and ladder["steps"] == 2, ladder
    # The same CP-SAT search as --reproducible's ladder, cut by the clock instead of its
    # deterministic time: the same steps and runs, but for the optimal line's step when the
    # greedy thread beside it holds a line at the bound first (the ladder is then done).
    alone = solve(TWO_STEPS, REPRO, objective=Objective.SPARE).stats["ladder"]
    assert alone == {**ladder, "runs": 3}, (alone, ladder)
    # The line at the bound may come from the thread even when the ladder's last step ran too
    # (it found an equal line first).
    assert (ladder["runs"], best.value_by) in ((3, "ladder"), (3, "greedy"), (3, "restarts"), (2, "greedy"), (2, "restarts")), (
        ladder,
        best,
    )
    beside = {p.method: p.found for p in result.phases if "beside the ladder" in p.found}
    # The restarts run once the first playouts are done, if the ladder is still at work then.
    assert BASELINE in beside and set(beside) <= {BASELINE, RESTARTS}, result.phases
    assert IMPROVING not in result.stats  # the baseline's first playouts are the thread's own
    # The line is never below what the greedy baseline and restarts find on the same deal.
    position = State.initial(TWO_STEPS)
    baseline = greedy_baseline(position, Objective.SPARE, 200)
    assert baseline.value is not None and baseline.line is not None and best.value >= baseline.value
    found = restarts(position, list(baseline.line), scorer(position, Objective.SPARE), Deadline(nodes=2000), 0, KEEPERS)
    assert best.value >= objective_value(position, found.line, Objective.SPARE)


def test_beside_the_greedy_thread_the_split_asked_for_starts_from_the_first_playouts(monkeypatch):
    # --proof start-slot beside the greedy thread: the baseline's first playouts come first
    # (the best of them names the case looked at first), the thread plays on from them (none
    # is played twice), and the split proves the same optimum.
    monkeypatch.setattr(budget_module, "cores", lambda: 2)
    played: list[int] = []
    monkeypatch.setattr(BaselineSeries, "play", counted(BaselineSeries.play, played))
    result = solve(TWO_STEPS, Budget(seconds=30, workers=2, proof=Proof.START_SLOT), objective=Objective.SPARE)
    best = result.best
    assert best is not None and best.optimal and best.value == best.bound == 3, best
    assert verify(result.winning_line).won
    assert result.stats["ladder"]["proof"] == "start-slot", result.stats["ladder"]
    assert any("beside the ladder" in p.found for p in result.phases)
    assert sum(played) == result.stats[BASELINE]["playouts"] > result.stats[IMPROVING]["playouts"] > 0
    # The default (both) is the whole step there, the first playouts the thread's own.
    whole = solve(TWO_STEPS, Budget(seconds=30, workers=2), objective=Objective.SPARE)
    assert whole.stats["ladder"]["proof"] == "whole" and IMPROVING not in whole.stats


def test_the_ladder_is_done_once_a_line_beside_it_meets_its_bound():
    # The greedy thread holds a line keeping the optimum, 3: the ladder proves the two steps
    # above it and stops there, with no feasible step of its own (the caller takes the line).
    position = State.initial(TWO_STEPS)
    bound, budget = objective_bound(position, Objective.SPARE), REPRO.part(0.6, 60)
    alone = ladder.climb(position, Objective.SPARE, 1, bound, budget)
    assert (alone.bound, alone.steps, alone.runs, alone.status) == (3, 2, 3, "optimal") and alone.actions is not None
    beside = ladder.climb(position, Objective.SPARE, 1, bound, budget, incumbent=lambda: 3)
    assert (beside.bound, beside.steps, beside.runs, beside.status) == (3, 2, 2, "optimal") and beside.actions is None
    # Held before the ladder starts, a line at the bound leaves it nothing to run.
    at_once = ladder.climb(position, Objective.SPARE, 1, bound, budget, incumbent=lambda: bound)
    assert (at_once.bound, at_once.runs, at_once.status) == (bound, 0, "optimal")


@pytest.mark.parametrize("objective", ladder.LADDER_OBJECTIVES)
def test_spare_steps_run_cp_sat_without_the_linear_relaxation_and_turns_steps_with_it(objective, monkeypatch):
    # Measured: a spare step is decided in about half the CPU without it; turns keep CP-SAT's own.
    levels = []

    def recorded(limits):
        solver = new_solver(limits)
        levels.append(solver.parameters.linearization_level)
        return solver

    monkeypatch.setattr(ladder, "new_solver", recorded)
    position = State.initial(TWO_STEPS)
    bound = objective_bound(position, objective)
    unreached = -1 if objective == Objective.SPARE else 10**6
    for budget in (REPRO.part(0.6, 60), Budget(seconds=20, workers=1)):
        levels.clear()
        climbed = ladder.climb(position, objective, unreached, bound, budget)
        assert climbed.status == "optimal" and levels
        assert set(levels) == ({0} if objective == Objective.SPARE else {1}), levels  # 1: CP-SAT's default


def test_a_step_under_way_stops_once_a_line_beside_it_meets_its_target():
    # The first spare step of an official 2-player deal runs past 20 s of deterministic time
    # (docs/model.md, the cost cap): stopped at once, it spends a small part of a second.
    position = State.initial(deal(OFFICIAL, 2, 1))
    target = objective_bound(position, Objective.SPARE)
    limits = CpsatLimits(workers=1, deterministic=60.0, seed=0)
    answer, actions, spent, runs = ladder.step(position, Objective.SPARE, target, limits, over=lambda: True)
    assert (answer, actions, runs) == ("unknown", None, 1) and spent < 1.0


def test_a_long_solve_gives_the_ladder_beside_the_greedy_thread_all_but_the_lns_s_seconds():
    # At 60 s a proof needs the step's CPU whole: the LNS and the CP-SAT run keep 6 s, not 12.
    assert improving.beside_share(60.0) == pytest.approx(1.0 - improving.AFTER_BESIDE / 60.0) == pytest.approx(0.9)
    # A short solve (a board hint's) keeps a fifth of its time for them, as before.
    for left in (1.5, 10.0, 30.0):
        assert improving.beside_share(left) == improving.BESIDE_LADDER_SHARE
    assert improving.beside_share(0.0) == improving.BESIDE_LADDER_SHARE


def test_one_thread_or_reproducible_keeps_the_greedy_phases_in_turn(monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 2)
    for budget in (Budget(seconds=30, workers=1), REPRO):
        result = solve(TWO_STEPS, budget, objective=Objective.SPARE)
        assert result.best is not None and result.best.optimal and result.best.value == 3
        assert result.stats["ladder"]["proof"] == "whole"
        assert not any("beside the ladder" in p.found for p in result.phases)
        assert IMPROVING in result.stats


def test_a_bug_in_the_greedy_thread_is_raised_not_taken_for_no_better_line(monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 2)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(improving.BaselineSeries, "play", broken)
    with pytest.raises(ZeroDivisionError):
        solve(TWO_STEPS, Budget(seconds=10, workers=2), objective=Objective.SPARE)


def test_more_cores_race_the_whole_step_and_its_split_beside_the_greedy_thread(monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 4)
    result = solve(TWO_STEPS, Budget(seconds=30, workers=3), objective=Objective.SPARE)
    assert result.best is not None and result.best.optimal and result.best.value == 3
    ladder = result.stats["ladder"]
    assert ladder["proof"] == "both" and ladder["runs"] > 3, ladder  # the split's cases ran too
    assert any("beside the ladder" in p.found for p in result.phases)


def test_the_threads_a_budget_may_use_are_its_workers_at_most_one_a_core(monkeypatch):
    monkeypatch.setattr(budget_module, "cores", lambda: 2)
    assert [Budget(workers=w).threads for w in (1, 2, 8)] == [1, 2, 2]


def test_a_deadline_stops_once_its_event_is_set():
    stop = threading.Event()
    deadline = Deadline(nodes=10, stop=stop)
    assert deadline.tick() and not deadline.expired()
    stop.set()
    assert not deadline.tick() and deadline.expired()


# -- the command ---------------------------------------------------------------------------


def test_solve_json_shape_and_line_verifies(tmp_path):
    result = run("solve", "--seed", 1, "--players", 3, "--json", "--time-limit", 20)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"verdict", "method", "seconds", "line", "stats"}
    assert data["verdict"] == "win" and data["line"]["format"] == "tranquility-line/1"
    path = tmp_path / "win.json"
    path.write_text(json.dumps(data["line"]))
    assert run("verify", path).exit_code == 0


@pytest.mark.slow
def test_solve_a_position_file_returns_the_whole_line(won, tmp_path):
    game, result = won[0]
    prefix = Line(game, result.winning_line.actions[:2])
    path = tmp_path / "position.json"
    path.write_text(json.dumps(line_to_json(prefix)))
    out = run("solve", path, "--json", "--reproducible", "--method", "search")
    data = json.loads(out.stdout)
    assert data["verdict"] == "win"
    assert data["line"]["actions"][:2] == line_to_json(prefix)["actions"]


def test_solve_out_never_overwrites(tmp_path):
    path = tmp_path / "line.json"
    path.write_text("keep me")
    result = run("solve", "--seed", 1, "--players", 2, "--out", path)
    assert result.exit_code == 2 and "already exists" in result.stderr
    assert path.read_text() == "keep me"
    assert run("solve", "--seed", 1, "--players", 2, "--out", path, "--force").exit_code == 0
    assert verify_file(path)


def verify_file(path) -> bool:
    return json.loads(run("verify", path, "--json").stdout)["won"]


def test_solve_bad_file_exit_2(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{")
    result = run("solve", path)
    assert result.exit_code == 2 and "not valid JSON" in result.stderr
    assert "Traceback" not in result.output


def test_solve_illegal_line_exit_2(tmp_path):
    game = deal(OFFICIAL, 2, 1)
    data = line_to_json(Line(game))
    data["actions"] = [{"seat": 1, "discard": [1, 2]}]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data))
    result = run("solve", path)
    assert result.exit_code == 2 and "turn 1" in result.stderr


@pytest.mark.slow
def test_solve_readable_output_names_the_proof():
    result = run("solve", "--seed", 6, "--players", 1, "--method", "cpsat", "--time-limit", 60)
    assert result.exit_code == 0
    assert "NO-WIN" in result.stdout and "Proof:" in result.stdout


def test_proof_start_slot_splits_the_ladder_s_steps_and_proves_the_same_optimum(tmp_path):
    # A small 2-player deal whose spare the ladder proves in two steps: split by the
    # Start's slot (--proof start-slot), the steps are several CP-SAT runs each, and the
    # answer is the whole steps' answer.
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(deal_to_json(small_deals(41, seed=15)[40])))
    found = {}
    for proof in ("whole", "start-slot"):
        result = run("solve", path, "--objective", "spare", "--proof", proof, "--reproducible", "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        found[proof] = data["objective"]["value"], data["objective"]["optimal"]
        ladder = data["stats"]["ladder"]
        assert ladder["proof"] == proof and ladder["steps"] == 2, ladder
        assert ladder["runs"] == 3 if proof == "whole" else ladder["runs"] > 6, ladder  # 2 proofs, 1 line
    assert found["whole"] == found["start-slot"] == (3, True)


@pytest.mark.parametrize("command", ["solve", "explain"])
def test_proof_goes_with_the_objectives_the_ladder_proves(command):
    for objective in ("any", "cost"):
        for proof in ("start-slot", "both"):  # given, even as the default: it would do nothing
            result = run(command, "--seed", 1, "--players", 2, "--objective", objective, "--proof", proof)
            assert result.exit_code == 2, result.output
            assert f"spare or turns (the bounds the ladder proves), not {objective}" in result.stderr
            assert "Traceback" not in result.output
    result = run(command, "--seed", 1, "--players", 2, "--proof", "all")
    assert result.exit_code == 2 and "'all' is not one of 'whole', 'start-slot', 'both'" in result.stderr


def test_bench_runs_a_tiny_suite(tmp_path):
    out = tmp_path / "bench.json"
    result = run("bench", "--suite", "official", "--deals", 1, "--time-limit", 5, "--json", "--out", out)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [g["players"] for g in summary["groups"]] == [1, 2, 3, 4, 5]
    assert all(g["replay_ok"] for g in summary["groups"])
    assert len(json.loads(out.read_text())["cases"]) == 5


def test_explain_bench_reports_every_deal_with_its_bound():
    """Deals whose best spare is not proven optimal are reported with their bounds."""
    from tranquility.solver.batch.explain_bench import ExplainRow, explain_markdown

    row = ExplainRow(4, 2, 120.0, 0.5, 1.0, 90, 1.0, ((0, 24, 25, False), (1, 23, 23, True)))
    text = explain_markdown([row])
    assert "| 4 | 2 | 120.00 | 50% | 100% | 90 | 100.0% |" in text
    assert "- 4 players: seed 0: 24 (bound 25), seed 1: 23* (bound 23)" in text
    assert row.to_json()["spare"][0] == {"seed": 0, "value": 24, "bound": 25, "optimal": False}


def _ctrl_c(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("where", ["objective_bound", "_ladder"])
def test_ctrl_c_as_the_improvement_starts_keeps_the_win_found(monkeypatch, where):
    # Right after the greedy's win: while the improvement reads its bound, or while a step
    # loads OR-Tools, outside any search's own catch: the win stands, interrupted.
    monkeypatch.setattr(improving, where, _ctrl_c)
    result = solve(TWO_STEPS, Budget(seconds=10, workers=1), objective=Objective.SPARE)
    assert result.verdict == "win" and result.interrupted and result.line is not None
    assert verify(result.line).won


def counted(play, played: list[int]):
    """``BaselineSeries.play`` that records how many playouts each call played."""

    def wrapped(series, *args, **kwargs):
        before = series.series.played
        play(series, *args, **kwargs)
        played.append(series.series.played - before)

    return wrapped
