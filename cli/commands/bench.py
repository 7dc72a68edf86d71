"""``bench``: the solver timed on fixed suites of seeded deals and positions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from ..exits import INTERRUPTED, exit_line
from ..game_input import usage_error
from ..options import (
    LazyChoice,
    Limits,
    count_option,
    given,
    json_option,
    markdown_option,
    output_options,
    player_counts_option,
    reject,
    samples_option,
    solver_options,
)
from ..progress import progress_bar
from ..render.bench import render_bench
from ..render.console import dump_json, make_console
from .common import write_out


def _suites() -> tuple[str, ...]:
    from tranquility.solver.batch.suites import SUITES

    return tuple(SUITES)


@click.command(
    epilog=f"""\b
Examples:
  tranquility bench --suite official --deals 20
  tranquility bench --suite positions --time-limit 10 --json --out bench.json   # about 20 s
  tranquility bench --suite official --deals 5 --reproducible --markdown
  tranquility bench --suite explain --deals 3 --time-limit 120   # about 10 min
  tranquility bench --suite optimal --deals 3 --time-limit 30     # about 6 min
  tranquility bench --suite optimal --players 2-3 --time-limit 60 # the 2-3 player half: about 25 min
  tranquility bench --suite puzzles --deals 20                   # about 30 s
  tranquility bench --suite table --workers 2                    # about 1.5 h
  tranquility bench --suite table --players 2 --deals 3 --samples 2 --budgets 1,2 --json
  tranquility bench --suite fair --workers 2 --out fair.json --markdown   # about 1 h on 2 cores
  tranquility bench --suite core --players 4 --deals 100         # the compiled core against the reference
\b
--suite puzzles grades with the grader's fixed budgets: it takes no --time-limit,
--workers or --reproducible. --suite explain takes --time-limit (each explain's
line; its critical-move checks get half as much again) but not --workers or
--reproducible. --suite table plays games, solving none: it takes no --time-limit
or --reproducible, and --workers N plays N games side by side in processes;
--samples, --budgets and --budget-deals are its own. --suite fair finds thrifty's
lost games (--deals N, at 4 players unless --players) and plays lookahead's
(--own-deals M), then judges each by the perfect and the fair analysis of
analyze --fair (--time-limit per position, default 10; --samples worlds per
move); --workers N plays N games side by side; no --reproducible. With --out,
each game done is kept in PATH.part: a rerun goes on from it. docs/performance.md.

{exit_line()}"""
)
@click.option(
    "--suite",
    type=LazyChoice(_suites),
    default="official",
    show_default=True,
    help="explain = per player count: explain time, best spare proven optimal, critical claims proven, analyze decided; "
    "optimal = per player count: solve --objective turns and spare, proven share, gap, which method gave bound and line; "
    "puzzles = per player count and grade: grading and generating seconds; "
    "table = lookahead against thrifty at the silent table: win rates, budgets, modes, beliefs, CPU s a decision; "
    "fair = the fair analysis over many games: thrifty's lost wins called mistakes or bad luck, and the share of "
    "lookahead's own moves called mistakes; "
    "core = the compiled core and the reference engine side by side: games a CPU second per policy, "
    "the lookahead's playouts, the greedy solver's playouts and the complete search's nodes, the same games on both.",
)
@count_option(
    "--deals",
    "Seeds per group (default: the suite's own: official 200, variants 50, positions 25, modules 50, "
    "explain 50, optimal 15, puzzles 50, table 50; fair: lost thrifty games to judge, 100).",
    metavar="N",
)
@player_counts_option(
    "Only these of the suite's player counts: 4, a range (2-3) or a list (2,4) [default: all of them: "
    "official, all and puzzles 1-5, variants and modules 1, 2 and 4, positions, explain and optimal 2-5; "
    "table: its rates 1-5, its other sections 2 and 4, and every section at the counts given; fair: 4]."
)
@solver_options(
    "each case: one solve (official, variants, positions, modules, all), or one explain's line (explain); "
    "fair: each position of a game's perfect analysis, 10 unless given",
    reproducible="Fixed node budgets and CP-SAT deterministic time in place of --time-limit and --workers: "
    "decided shares that do not depend on the machine (the seconds are still measured).",
    workers="CP-SAT threads of each solve; with --suite table or fair, processes playing its games side by side "
    "(1 unless given).",
)
@samples_option(
    "--suite table: lookahead's worlds per round in the rates, modes and beliefs [default: 60]; "
    "--suite fair: the fair analysis's worlds per move [default: 320]."
)
@click.option(
    "--budgets",
    callback=lambda ctx, param, value: _counts(value, param),
    metavar="N,N,N",
    help="--suite table: lookahead's worlds per round in the budgets section "
    "[default: 6,24,96: each costs about four times the one before].",
)
@count_option(
    "--budget-deals", "--suite table: the budgets section plays seeds 0..N-1 (at most --deals) [default: 10].", metavar="N"
)
@count_option(
    "--silent-deals",
    "--suite table: the silent section (thrifty against tuned) plays seeds 0..N-1 [default: 1000].",
    metavar="N",
)
@click.option(
    "--sections",
    callback=lambda ctx, param, value: _sections(value, param),
    metavar="NAME,...",
    help="--suite table: play only these sections (silent, rates, budgets, modes, beliefs) [default: all].",
)
@count_option(
    "--own-deals",
    "--suite fair: lookahead's games, seeds 0..M-1 at each player count, every turn judged [default: 20].",
    metavar="M",
)
@output_options("Also write the full report (every case) as JSON here.")
@markdown_option("Print the summary as a Markdown table (docs/performance.md).")
@json_option
@click.pass_context
def bench(ctx: click.Context, suite: str, markdown: bool, as_json: bool, **given_options: Any) -> None:
    """Time the solver on fixed seeded deals and positions (CLI start-up excluded).

    Per group and player count: decided share, verdict counts, which method decided,
    median / p90 / max seconds, and whether every win replayed. docs/performance.md
    explains the suites and records the measured table.
    """
    from tranquility.solver.batch.bench import OWN_OPTIONS
    from tranquility.solver.batch.suites import SUITES

    chosen = SUITES[suite]
    not_taken: dict[tuple[str, ...], list[str]] = {}  # by the suites that take them, in the options' order
    for name in OWN_OPTIONS:
        if name not in chosen.takes:
            not_taken.setdefault(tuple(s.name for s in SUITES.values() if name in s.takes), []).append(name)
    for takers, names in not_taken.items():
        reject(ctx, {name: _flag(name) for name in names}, "only taken by " + " and ".join(f"--suite {t}" for t in takers))
    run = BenchRun(ctx, suite, markdown=markdown, as_json=as_json, **given_options)
    if chosen.players is not None and run.players is not None:
        missing = [str(p) for p in run.players if p not in chosen.players]
        if missing:
            plays = ", ".join(map(str, chosen.players))
            raise usage_error(f"--players: --suite {suite} has no {' or '.join(missing)}-player deals (it plays {plays})")
    reject(ctx, {name: _flag(name) for name in chosen.refuses}, f"not taken by --suite {suite}: {chosen.why}")
    RUNS.get(suite, _bench_solve)(run)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


@dataclass(frozen=True)
class BenchRun:
    """What ``bench`` was given, as a suite's run reads it."""

    ctx: click.Context
    suite: str
    deals: int | None
    players: tuple[int, ...] | None
    limits: Limits
    samples: int | None
    budgets: tuple[int, ...] | None
    budget_deals: int | None
    silent_deals: int | None
    sections: tuple[str, ...] | None
    own_deals: int | None
    out: str | None
    force: bool
    markdown: bool
    as_json: bool

    def counts(self) -> tuple[int, ...]:
        """The player counts to play: --players, or every count of the suite."""
        from tranquility.solver.batch.suites import SUITES

        every = SUITES[self.suite].players
        assert every is not None  # a suite whose settings choose its counts reads --players itself
        return every if self.players is None else self.players

    def seconds(self) -> float:
        seconds = self.limits.seconds
        assert seconds is not None  # bench's --time-limit has a default
        return seconds

    def workers(self) -> int:
        """--workers as processes playing games side by side: 1 unless given."""
        return self.limits.workers if given(self.ctx, "workers") else 1


def _bench_solve(run: BenchRun) -> None:
    """A suite that solves each case once (official, variants, positions, modules, all)."""
    from tranquility.solver.batch.bench import cases, markdown_table
    from tranquility.solver.batch.bench import run as run_suite

    suite, limits = run.suite, run.limits
    total = sum(1 for _ in cases(suite, run.deals, run.players))
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        task = progress.add_task(f"bench {suite}", total=total)
        decided = [0]

        def on_case(case, outcome) -> None:
            decided[0] += outcome.verdict != "unknown"
            said = f"{case.group} {case.players}p seed {case.seed}: {outcome.verdict} by {outcome.method}"
            progress.update(task, advance=1, description=f"bench {suite}: {decided[0]} decided; last {said}")

        report = run_suite(
            suite,
            run.deals,
            run.seconds(),
            limits.workers,
            on_case=on_case,
            reproducible=limits.reproducible,
            players=run.players,
        )
    if run.out is not None:
        write_out(run.out, report.to_json(), run.force)
    if run.as_json:
        click.echo(dump_json(report.to_json(cases=False)))
    elif run.markdown:
        click.echo(markdown_table(report))
    else:
        render_bench(make_console(), report)
    _stopped_by_ctrl_c(report.interrupted)


def _stopped_by_ctrl_c(interrupted: bool) -> None:
    """After a bench report: exit 130 when Ctrl-C stopped the run (the report says so too)."""
    if interrupted:
        click.echo("Interrupted: the report covers the cases done so far.", err=True)
        raise click.exceptions.Exit(INTERRUPTED)


def _bench_explain(run: BenchRun) -> None:
    """The explain suite: each explain gets --time-limit for its line and half that for the
    critical moves; analyze gets 10 s per position (docs/performance.md measures them so)."""
    from tranquility.solver.batch.bench import EXPLAIN_SUITE, SuiteReport
    from tranquility.solver.batch.explain_bench import explain_markdown, run_explain_suite

    from ..render.bench import render_explain_bench

    deals, players, time_limit = run.deals, run.counts(), run.seconds()
    per_count = (deals or 50) + min(deals or 20, 20)  # explains, then analyzes, per player count 2-5
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        on_step = _stepper(progress, "bench explain", len(players) * per_count)
        rows, interrupted = _rows_or_partial(
            lambda: run_explain_suite(deals, time_limit, time_limit / 2, 10.0, on_step=on_step, players=players)
        )
    report = SuiteReport(EXPLAIN_SUITE, rows, time_limit, interrupted)
    _report(report, lambda: explain_markdown(rows), render_explain_bench, run)


def _bench_optimal(run: BenchRun) -> None:
    """The optimal suite: solve --objective turns and spare on official seeds
    0-14 (--deals N) for 2-5 players (--players), --time-limit seconds each."""
    from tranquility.solver.batch.bench import OPTIMAL_SUITE, SuiteReport
    from tranquility.solver.batch.optimal_bench import (
        OPTIMAL_DEALS,
        OPTIMAL_OBJECTIVES,
        optimal_markdown,
        run_optimal_suite,
    )

    limits, players, seconds = run.limits, run.counts(), run.seconds()
    steps = len(players) * (run.deals or OPTIMAL_DEALS) * len(OPTIMAL_OBJECTIVES)
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        rows, interrupted = _rows_or_partial(
            lambda: run_optimal_suite(
                run.deals,
                seconds,
                limits.workers,
                limits.reproducible,
                players=players,
                on_step=_stepper(progress, "bench optimal", steps),
            )
        )
    report = SuiteReport(OPTIMAL_SUITE, rows, seconds, interrupted)
    table = optimal_markdown(rows)
    _report(report, lambda: table, lambda console, _: console.print(table), run)


def _bench_puzzles(run: BenchRun) -> None:
    """The puzzles suite: grade official seeds 10000.. per player count (default 50)."""
    from tranquility.puzzles.timing import puzzle_markdown, run_puzzle_suite
    from tranquility.solver.batch.bench import PUZZLES_SUITE, SuiteReport

    from ..render.bench import render_puzzle_bench

    deals, players = run.deals or 50, run.counts()
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        rows = run_puzzle_suite(deals, on_step=_stepper(progress, "bench puzzles", len(players) * deals), players=players)
    report = SuiteReport(PUZZLES_SUITE, rows)
    _report(report, lambda: puzzle_markdown(rows), render_puzzle_bench, run)


def _sections(value: str | None, param: click.Parameter) -> tuple[str, ...] | None:
    """``silent,rates``: names of the table suite's sections (None when not given)."""
    from tranquility.solver.batch.table_bench import SECTIONS

    if value is None:
        return None
    names = tuple(dict.fromkeys(v.strip() for v in value.split(",")))
    unknown = [n for n in names if n not in SECTIONS]
    if unknown or not names:
        raise click.BadParameter(f"{unknown[0] if unknown else value!r}: sections are {', '.join(SECTIONS)}", param=param)
    return names


def _counts(value: str | None, param: click.Parameter) -> tuple[int, ...] | None:
    """``12,32,128``: positive whole numbers, as a tuple (None when not given)."""
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    if not all(part.isdigit() and int(part) > 0 for part in parts):
        raise click.BadParameter(f"{value!r} is not a list of positive whole numbers (12,32,128)", param=param)
    return tuple(int(part) for part in parts)


def _bench_table(run: BenchRun) -> None:
    """The table suite: the silent policies and lookahead, each game played once, on
    ``workers`` processes; --out gets every game too."""
    from tranquility.solver.batch.table_bench import (
        BUDGET_DEALS,
        BUDGETS,
        DEALS,
        SILENT_DEALS,
        TableSettings,
        run_table_suite,
        table_markdown,
    )
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES

    from ..render.bench import render_table_bench

    settings = TableSettings(
        run.players,
        run.deals or DEALS,
        run.samples or DEFAULT_SAMPLES,
        run.budgets or BUDGETS,
        run.budget_deals or BUDGET_DEALS,
        run.workers(),
        run.silent_deals or SILENT_DEALS,
        run.sections or (),
    )
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        task = progress.add_task("bench table", total=len(settings.cases()))

        def on_game(game, done: int, total: int) -> None:
            case, said = game.case, "cut short" if game.interrupted else "won" if game.won else "lost"
            said = f"{case.arm.name} {case.players}p seed {case.seed} {said}"
            progress.update(task, completed=done, description=f"bench table: last {said}")

        report = run_table_suite(settings, on_game)
    if run.out is not None:
        write_out(run.out, report.to_json(games=True), run.force)
    _print_report(report, lambda: table_markdown(report), render_table_bench, run)
    _stopped_by_ctrl_c(report.interrupted)


def _bench_fair(run: BenchRun) -> None:
    """The fair suite (``FairSettings``), on its ``workers`` processes. With --out, a journal
    beside it keeps every game done; the report is written there once every game is, and
    the journal removed."""
    from tranquility.solver.analysis.fair import FAIR_SAMPLES
    from tranquility.solver.batch.fair_bench import (
        FAIR_TIME_LIMIT,
        LOST_DEALS,
        OWN_DEALS,
        PLAYERS,
        FairSettings,
        fair_markdown,
        journal_path,
        run_fair_suite,
    )
    from tranquility.solver.search.budget import Budget

    from ..render.bench import render_fair_bench

    out = run.out
    per_position = (run.limits.seconds if given(run.ctx, "time_limit") else None) or FAIR_TIME_LIMIT
    counts = (run.players or PLAYERS, run.deals or LOST_DEALS, run.own_deals or OWN_DEALS, run.samples or FAIR_SAMPLES)
    # One CP-SAT thread a position: the games' processes already fill the cores.
    settings = FairSettings(*counts, Budget(seconds=per_position, workers=1), run.workers())
    journal = None if out is None else journal_path(out)
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        task = progress.add_task("bench fair: finding thrifty's lost games", total=None)

        def on_game(game, done: int, total: int) -> None:
            case = game.case
            said = "cut short" if game.interrupted else game.judgement
            said = f"{case.section} {case.players}p seed {case.seed} {said}"
            progress.update(task, completed=done, total=total, description=f"bench fair: last {said}")

        report = run_fair_suite(settings, on_game, journal)
    if out is not None and journal is not None:
        if report.complete:
            write_out(out, report.to_json(games=True), run.force)
            journal.unlink(missing_ok=True)
        else:
            kept = len(report.games) - report.cut_short
            said = f"{out} not written yet: {journal} keeps the {kept} game(s) done; the same command plays the rest."
            click.echo(said, err=True)
    _print_report(report, lambda: fair_markdown(report), render_fair_bench, run)
    _stopped_by_ctrl_c(not report.complete)


def _bench_core(run: BenchRun) -> None:
    """The core suite: the compiled core and the reference side by side (--deals per player
    count and policy, default 200; the reference plays the first 40 of them)."""
    from tranquility.solver.batch.core_bench import COLUMNS, DEALS, STEPS, cells, core_markdown, run_core_suite

    from ..render.bench import stacked_table

    players = run.counts()
    deals = run.deals or DEALS
    steps = len(players) * STEPS
    with progress_bar(make_console(stderr=True), run.as_json) as progress:
        report = run_core_suite(players, deals, _stepper(progress, "bench core", steps))

    def render(console, report) -> None:
        console.print(f"Machine: {report.machine}; the core loaded in {report.load_seconds:.1f} s", style="dim")
        title = f"Benchmark: suite core (official rules, seeds 0-{deals - 1}; CPU seconds of one thread)"
        rows = [cells(row) for row in report.rows]
        console.print(stacked_table(console, title, COLUMNS, rows, ((0, 1, 2, 3), (0, 1, 4, 5)), left=0))

    _report(report, lambda: core_markdown(report), render, run)


def _rows_or_partial(measure: Callable[[], list]) -> tuple[list, bool]:
    """A row suite's rows, and whether Ctrl-C stopped it (then the rows of the cases done)."""
    from tranquility.solver.batch.bench import SuiteInterrupted

    try:
        return measure(), False
    except SuiteInterrupted as stopped:
        return stopped.rows, True


def _stepper(progress, label: str, total: int):
    """An ``on_step`` for a suite that names each step as it starts: the bar counts the
    steps done and shows the one under way."""
    task = progress.add_task(label, total=total)
    started = [0]

    def on_step(text: str) -> None:
        progress.update(task, completed=started[0], description=f"{label}: {text}")
        started[0] += 1

    return on_step


def _report(report, markdown_text, render, run: BenchRun) -> None:
    """A row suite's report: --out gets the JSON; stdout the JSON, the Markdown table or
    the readable table."""
    if run.out is not None:
        write_out(run.out, report.to_json(), run.force)
    _print_report(report, markdown_text, render, run)
    _stopped_by_ctrl_c(report.interrupted)


def _print_report(report, markdown_text, render, run: BenchRun) -> None:
    """A suite's report on stdout: the JSON, the Markdown table or the readable table."""
    if run.as_json:
        click.echo(dump_json(report.to_json()))
    elif run.markdown:
        click.echo(markdown_text())
    else:
        render(make_console(), report)


# Each suite's run by its name; the suites that solve each case once share one.
RUNS: dict[str, Callable[[BenchRun], None]] = {
    "explain": _bench_explain,
    "optimal": _bench_optimal,
    "puzzles": _bench_puzzles,
    "table": _bench_table,
    "fair": _bench_fair,
    "core": _bench_core,
}
