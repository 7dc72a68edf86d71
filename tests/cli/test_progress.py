"""Long work says where it is: the library reports each phase (``Step`` while it runs,
``Phase`` records in its results), the CLI shows a status line on a terminal only and
reports each phase's time; and the output polish of the same walk-through (counters only
with --verbose, whole JSON error messages, the row a moment names, no stray stderr)."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.cli.progress import Activity, phases_text, seconds_text
from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.explain import CRITICAL_PHASE, explain, narrate
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Phase, Step
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Method, Objective, Verdict

from ..helpers import ENV, run, search_outcome_fixtures, small_deals, write

FAST = Budget(seconds=4, workers=1)
SMALL = small_deals(30, seed=11)
SMALL_RULES = Rules(rows=2, cols=3, islands=12, finish=1, hand=3, start_discards=2)
# What rich takes for a terminal: the status line is drawn.
TERMINAL = {**ENV, "TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1"}


# The first 2 deals of SMALL the search wins with FAST, the first of them, and the first two
# it proves lost: solved when a test first asks, each deal at most once.
wins, first_win, losses = search_outcome_fixtures(SMALL, FAST, wins=2)


# -- the library reports its phases ---------------------------------------------------------


@pytest.mark.slow
def test_solve_reports_each_phase_while_it_runs_and_times_it(wins):
    """Fixed: "WIN by greedy in 66.39 s" read as if greedy took 66 s. Each part that ran
    is a Phase with its own seconds; progress hears a Step per phase, with the budget's end
    and the value found so far."""
    for game in [*wins, deal(OFFICIAL, 2, 0)]:  # the official deal's first win is short of the bound
        steps: list[Step] = []
        began = time.monotonic()
        result = solve(game, FAST, objective=Objective.SPARE, progress=steps.append)
        assert result.verdict == "win" and result.best is not None
        first = result.phases[0]
        assert (first.name, first.method, first.found) == ("decide", result.method, "win")
        improve = [p for p in result.phases if p.name == "improve"]
        # The baseline's first playouts first, unless the first win already meets the bound.
        assert improve[0].method == "greedy" if improve else result.best.optimal
        assert all(p.seconds >= 0 for p in result.phases)
        assert sum(p.seconds for p in result.phases) <= result.seconds + 0.05
        assert all(isinstance(s, Step) for s in steps) and steps
        assert all(s.until is not None and s.until <= began + FAST.seconds + 0.5 for s in steps)
        improving = [s for s in steps if s.phase.startswith("improving spare")]
        assert bool(improving) == bool(improve) and all(s.found and "spare" in s.found for s in improving)
        data = result.to_json()
        assert data["phases"] == [p.to_json() for p in result.phases]
        assert set(data["phases"][0]) == {"phase", "method", "seconds", "found"}


@pytest.mark.slow
def test_a_proof_lists_every_part_that_ran(losses):
    for game in losses:
        result = solve(game, FAST)
        assert result.verdict == "no-win"
        methods = [p.method for p in result.phases]
        found = [p.found for p in result.phases]
        assert methods[-1] == result.method and found[-1] == "no win"
        assert all(f == "nothing" for f in found[:-1])


def test_a_reproducible_solve_has_no_clock_in_its_steps(first_win):
    steps: list[Step] = []
    solve(first_win, Budget(reproducible=True, workers=1), objective=Objective.TURNS, progress=steps.append)
    assert steps and all(s.until is None for s in steps)


@pytest.mark.slow
def test_explain_times_its_own_phases_and_the_whole(first_win, losses):
    e = explain(first_win, budget=FAST, critical_budget=2)
    assert e.phases[: len(e.result.phases)] == e.result.phases
    assert e.phases[-1].name == CRITICAL_PHASE and "turns checked" in e.phases[-1].found
    assert e.seconds >= e.result.seconds
    data = e.to_json()
    assert data["total_seconds"] == round(e.seconds, 3) and data["phases"][-1]["phase"] == CRITICAL_PHASE
    lost = explain(losses[0], budget=FAST)
    assert [p.name for p in lost.phases[len(lost.result.phases) :]] == ["best reach", "what binds"]


def test_explain_critical_moves_say_how_far_they_are(first_win):
    steps: list[Step] = []
    explain(first_win, budget=FAST, critical_budget=2, progress=steps.append)
    critical = [s for s in steps if s.phase == CRITICAL_PHASE]
    assert critical and all(s.until is not None and s.found and "checked" in s.found for s in critical)


def test_analyze_says_which_position_it_is_solving(first_win):
    line = solve(first_win, FAST, method=Method.SEARCH).winning_line
    steps: list[Step] = []
    analyze(Line(line.deal, line.actions[:2]), FAST, progress=steps.append)
    assert [s.phase for s in steps] == [f"position before turn {i} of 3" for i in (1, 2, 3)]
    assert all(s.until is not None for s in steps) and steps[0].found == "0 solved"


# -- the status line -------------------------------------------------------------------------


def test_the_status_line_names_phase_found_and_time_left():
    line = Activity("explaining", total=90)
    now = line.started
    assert line.text(now + 3) == "explaining · 1 min 27 s left"
    line.update(Step("improving spare: CP-SAT", now + 60, "best spare 14 so far, bound 18"))
    assert line.text(now + 20) == (
        "explaining: improving spare: CP-SAT · best spare 14 so far, bound 18 · 40.0 s left (1 min 10 s in all)"
    )
    line.update(Step("critical moves", now + 90, "turn 5 of 31"))
    assert line.text(now + 88.5) == "explaining: critical moves · turn 5 of 31 · 1.50 s left"
    clockless = Activity("grading")
    clockless.update("grade 1 players, seed 3")
    assert clockless.text(clockless.started + 2) == "grading: grade 1 players, seed 3 · 2.00 s so far"


def test_times_over_a_minute_read_in_whole_seconds_whatever_the_float():
    # 90 - 3 on a monotonic clock can come out as 86.99999999999: the line must not say 26
    assert seconds_text(90.0 - 3.0000000000001) == "1 min 27 s"
    assert seconds_text(60.0) == "1 min 00 s"
    assert seconds_text(119.4) == "1 min 59 s"
    assert [seconds_text(s) for s in (0.04, 12.34)] == ["0.04 s", "12.3 s"]


def test_phases_read_as_each_phases_own_time():
    phases = [
        Phase("decide", "greedy", 0.04, "win"),
        Phase("improve", "greedy", 1.5, "spare 12 -> 14"),
        Phase("improve", "cpsat", 60.0, "spare 14, no better line"),
        Phase("critical moves", "re-solves", 30.0, "31 of 31 turns checked, 2 only move(s)"),
    ]
    assert phases_text(p.to_json() for p in phases) == (
        "found by greedy in 0.04 s; improved by greedy for 1.50 s (spare 12 -> 14); "
        "CP-SAT for 1 min 00 s: spare 14, no better line; "
        "critical moves for 30.0 s (31 of 31 turns checked, 2 only move(s))"
    )
    assert phases_text([Phase("decide", "exhaustive", 2, "no win").to_json()]) == "proven by the complete search in 2.00 s"


@pytest.fixture
def small_deal(tmp_path):
    return write(tmp_path / "deal.json", deal_to_json(deal(SMALL_RULES, 1, 1)))


def test_a_terminal_shows_the_phase_and_the_time_left(small_deal):
    shown = CliRunner(env=TERMINAL).invoke(main, ["solve", str(small_deal), "--time-limit", "3", "--objective", "spare"])
    assert shown.exit_code == 0, shown.output
    assert "solving: " in shown.stderr and " left" in shown.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "DEAL", "--time-limit", 2, "--objective", "spare"],
        ["explain", "DEAL", "--time-limit", 3],
        ["grade", "DEAL"],
        ["analyze", "LINE", "--time-limit", 1],
    ],
)
def test_progress_stays_quiet_when_piped_or_with_json(small_deal, tmp_path, args):
    line = solve(deal(SMALL_RULES, 1, 1), FAST).winning_line
    path = write(tmp_path / "line.json", line_to_json(Line(line.deal, line.actions[:1])))
    args = [small_deal if a == "DEAL" else path if a == "LINE" else a for a in args]
    piped = run(*args)
    assert piped.exit_code in (0, 1), piped.output
    assert piped.stderr == ""
    as_json = CliRunner(env=TERMINAL).invoke(main, [str(a) for a in [*args, "--json"]])
    assert as_json.exit_code in (0, 1) and as_json.stderr == ""
    json.loads(as_json.stdout)


def test_generate_and_bench_print_no_stray_blank_line(monkeypatch):
    """Fixed: generate and bench printed a blank line to stderr (a disabled bar's end)."""
    from tranquility.solver.batch.bench import GroupSummary, Report

    group = GroupSummary("official", 1, 1, 1.0, {"win": 1, "no-win": 0, "unknown": 0}, {"greedy": 1}, 0.1, 0.1, 0.1, True)
    monkeypatch.setattr("tranquility.solver.batch.bench.run", lambda *a, **k: Report("official", 1.0, "m", [group], []))
    monkeypatch.setattr("tranquility.puzzles.generate.generate", lambda *a, **k: iter(()))
    bench = run("bench", "--deals", 1)
    assert bench.exit_code == 0 and bench.stderr == ""
    generated = run("generate", "--players", 1, "--grade", 1, "--max-seeds", 1)
    assert generated.exit_code == 1
    assert generated.stderr == "found 0 of 1 grade-1 puzzle(s) in 1 seeds from 0\n"


# -- output polish ------------------------------------------------------------------------------


def test_solve_prints_its_counters_only_with_verbose(small_deal):
    """Fixed: solve printed internal counters (Stats: greedy.nodes 0 ...) to users."""
    plain = run("solve", small_deal, "--time-limit", 2)
    assert plain.exit_code == 0 and "Stats:" not in plain.stdout
    assert "found by " in plain.stdout.splitlines()[0]
    verbose = run("solve", small_deal, "--time-limit", 2, "--verbose")
    assert "Stats: greedy." in verbose.stdout
    data = json.loads(run("solve", small_deal, "--time-limit", 2, "--json").stdout)
    assert "greedy" in data["stats"] and data["phases"][0]["phase"] == "decide"


def test_explain_head_gives_each_phases_time(small_deal):
    # Piped (no COLUMNS): the head is one line however long.
    text = CliRunner(env={**ENV, "COLUMNS": None}).invoke(main, ["explain", str(small_deal), "--time-limit", "3"])
    assert text.exit_code == 0, text.output
    head = text.stdout.splitlines()[0]
    assert head.startswith("WIN  in ") and "found by " in head and "critical moves for " in head


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"format": "tranq', "(line 1, column 12: Unterminated string starting here)"),
        ('{"a": 1,}', "(line 1, column 9: Expecting property name enclosed in double quotes)"),
        ('{"a": "\t"}', "(line 1, column 8: Invalid control character here)"),
    ],
)
def test_json_errors_are_whole_sentences(tmp_path, content, message):
    """Fixed: parse errors were cut mid-sentence ("Unterminated string starting at)")."""
    path = write(tmp_path / "bad.json", content)
    for command in ("verify", "show", "solve"):
        result = run(command, path)
        assert result.exit_code == 2
        assert result.stderr == f"Error: {path}: not valid JSON {message}\n"


def test_a_grid_moment_names_the_row_it_completed():
    """Fixed: explain printed "Grid row 1 complete" when the bottom row is row 0."""
    game = deal(OFFICIAL, 4, 3)
    line = solve(game, Budget(seconds=10, workers=1), method=Method.SEARCH).winning_line
    seen = []
    for turn in narrate(line):
        before = State.initial(game)
        for action in line.actions[: turn.number - 1]:
            before = before.apply(action)
        for moment in turn.moments:
            if moment.startswith("row "):
                row = int(moment.split()[1])
                cells = range(row * game.rules.cols, (row + 1) * game.rules.cols)
                assert all(turn.state.grid[c] is not None for c in cells)
                assert any(before.grid[c] is None for c in cells)
                seen.append(row)
    assert sorted(seen) == list(range(game.rules.rows))


@pytest.mark.parametrize("suite", ["official", "explain", "puzzles"])
def test_bench_prints_markdown_only_with_markdown(monkeypatch, suite):
    from tranquility.puzzles.timing import PuzzleRow
    from tranquility.solver.batch.bench import GroupSummary, Report
    from tranquility.solver.batch.explain_bench import ExplainRow

    group = GroupSummary("official", 1, 1, 1.0, {"win": 1, "no-win": 0, "unknown": 0}, {"greedy": 1}, 0.1, 0.1, 0.1, True)
    monkeypatch.setattr("tranquility.solver.batch.bench.run", lambda *a, **k: Report("official", 1.0, "m", [group], []))
    explain_rows = [ExplainRow(2, 1, 1.0, 1.0, 1.0, 3, 1.0, ((0, 5, 5, True),))]
    monkeypatch.setattr("tranquility.solver.batch.explain_bench.run_explain_suite", lambda *a, **k: explain_rows)
    puzzle_rows = [PuzzleRow(1, 1, {0: 1, 1: 0, 2: 0, 3: 0, 4: 0, 5: 0}, {g: [] for g in range(6)}, 0.1, 0.2)]
    monkeypatch.setattr("tranquility.puzzles.timing.run_puzzle_suite", lambda *a, **k: puzzle_rows)
    table = run("bench", "--suite", suite, "--deals", 1)
    assert table.exit_code == 0, table.output
    assert "| players" not in table.stdout and "| group" not in table.stdout and "Benchmark" in table.stdout
    assert table.stderr == ""
    markdown = run("bench", "--suite", suite, "--deals", 1, "--markdown")
    assert markdown.exit_code == 0 and markdown.stdout.startswith("| ")


# -- Ctrl-C keeps what was found (exit 0), as solve always did --------------------------------------


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


def test_ctrl_c_while_improving_keeps_the_win(monkeypatch):
    """Ctrl-C in the greedy playouts that start the improvement escaped the solve (exit
    130, the win lost); it keeps the win found, as Ctrl-C anywhere else in a solve does."""
    monkeypatch.setattr("tranquility.solver.search.baseline.Playouts.play", _interrupt)
    # A deal whose first win is short of the bound (on the small deals it often meets it).
    result = solve(deal(OFFICIAL, 2, 0), FAST, objective=Objective.SPARE)
    assert result.verdict == "win" and result.interrupted and result.best is not None
    assert result.phases[-1].found.endswith("(interrupted)")
    assert [p.method for p in result.phases if p.name == "improve"] == ["greedy"]  # CP-SAT never started


def test_ctrl_c_in_the_critical_moves_keeps_the_explanation(first_win, monkeypatch):
    monkeypatch.setattr("tranquility.solver.analysis.explain._classify", _interrupt)
    e = explain(first_win, budget=FAST, critical_budget=5)
    assert e.interrupted and e.to_json()["interrupted"] is True
    assert e.critical and all(c.kind == "not checked" for c in e.critical)
    assert len(e.critical) == len(e.turns)


def test_ctrl_c_in_analyze_stops_it_with_the_positions_solved(first_win, monkeypatch):
    """Ctrl-C in analyze only ended the solve under way and went on to the next position;
    it stops the analysis there."""
    from tranquility.solver.analysis import analyze as module
    from tranquility.solver.analysis.results import Result
    from tranquility.solver.verdicts import DecidedBy

    line = solve(first_win, FAST, method=Method.SEARCH).winning_line
    real = module.solve
    calls = []

    def solve_then_interrupt(game, budget, *args, **kwargs):
        calls.append(game)
        if len(calls) == 2:  # Ctrl-C during the second position's solve
            return Result(Verdict.UNKNOWN, DecidedBy.INTERRUPTED, 0.1, interrupted=True)
        return real(game, budget, *args, **kwargs)

    monkeypatch.setattr(module, "solve", solve_then_interrupt)
    analysis = analyze(line, FAST)
    assert analysis.interrupted and len(analysis.positions) == 2 and len(calls) == 2
    assert analysis.to_json()["interrupted"] is True
