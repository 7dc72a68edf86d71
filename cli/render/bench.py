"""The bench suites' reports as tables."""

from __future__ import annotations

import re
import statistics
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    pass
from .console import fitted, fitting

_BENCH_COLUMNS = (
    "group",
    "players",
    "cases",
    "decided",
    "win",
    "no-win",
    "unknown",
    "decided by",
    "median s",
    "p90 s",
    "max s",
    "solve/replay",
    "replay",
)


_BENCH_TEXT = ("group", "decided by")  # left-aligned, and wrapped at spaces in the halves


def render_bench(console: Console, report) -> None:
    """One row per group and player count; on a console too narrow for that, two tables,
    the verdicts then the times, each led by the group and player count."""
    console.print(Text(f"Benchmark: suite {report.suite}, time limit {report.time_limit:g} s", style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    rows = []
    for g in report.groups:
        methods = " ".join(f"{k}:{v}" for k, v in sorted(g.methods.items()))
        rows.append(
            (
                g.group,
                str(g.players),
                str(g.count),
                f"{100 * g.decided:.1f}%",
                str(g.verdicts["win"]),
                str(g.verdicts["no-win"]),
                str(g.verdicts["unknown"]),
                methods,
                f"{g.median:.3f}",
                f"{g.p90:.3f}",
                f"{g.max:.3f}",
                "-" if g.solve_per_replay is None else f"{g.solve_per_replay:.1f}",
                "ok" if g.replay_ok else "FAILED",
            )
        )
    wide = Table(show_header=True, header_style="bold")
    for name in _BENCH_COLUMNS:
        wide.add_column(name, justify="left" if name in _BENCH_TEXT else "right", no_wrap=True)
    for row in rows:
        wide.add_row(*row)
    halves = []
    for part in (range(0, 8), (0, 1, *range(8, 13))):
        half = Table(box=None, pad_edge=False, header_style="bold")
        for i in part:
            name = _BENCH_COLUMNS[i]
            half.add_column(name, justify="left" if name in _BENCH_TEXT else "right", no_wrap=name not in _BENCH_TEXT)
        for row in rows:
            half.add_row(*(row[i] for i in part))
        halves.append(half)
    console.print(fitting(console, wide, Group(*halves)))


def render_table_bench(console: Console, report) -> None:
    """``bench --suite table``: a table per section, one row per player count and policy;
    on a console too narrow for that, each in three parts (the rates, the comparison with
    the first policy, the decisions), each led by the player count and the policy. Then
    the decisions at the default budget, the rollouts and the games."""
    from tranquility.solver.batch.table_bench import SECTIONS, TABLE_COLUMNS, TABLE_PARTS, TITLES, summary_text, table_cells

    said = "Benchmark: suite table (official rules; every policy on the same deals, sim seed = deal seed)"
    console.print(Text(said, style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    for name in SECTIONS:
        rows = [table_cells(c, result) for c in report.section(name) for result in c.arms]
        if rows:
            console.print(stacked_table(console, TITLES[name], TABLE_COLUMNS, rows, TABLE_PARTS, left=2))
    for line in summary_text(report).splitlines():
        console.print(fitted(Text(line), console.width))


def stacked_table(
    console: Console,
    title: str,
    columns: tuple[str, ...],
    rows: list[list[str]],
    parts: tuple[tuple[int, ...], ...],
    left: int | None,
) -> RenderableType:
    """A bench table, one row per line; on a console too narrow for it, its ``parts`` (each
    a tuple of column indices) one under the other. Column ``left`` is text (None: none
    is), the rest numbers."""
    wide = Table(title=title, show_header=True, header_style="bold")
    for i, column in enumerate(columns):
        wide.add_column(column, justify="left" if i == left else "right", no_wrap=True)
    for row in rows:
        wide.add_row(*row)
    stack: list[RenderableType] = [Text(title)]
    for indices in parts:
        part = Table(box=None, pad_edge=False, header_style="bold")
        for i in indices:
            part.add_column(columns[i], justify="left" if i == left else "right", no_wrap=True)
        for row in rows:
            part.add_row(*(row[i] for i in indices))
        stack.append(part)
    return fitting(console, wide, Group(*stack))


def render_fair_bench(console: Console, report) -> None:
    """``bench --suite fair``: thrifty's lost games by verdict, lookahead's own moves (each
    table in two parts on a narrow console), then the summary lines."""
    from tranquility.solver.batch.fair_bench import (
        LOST_COLUMNS,
        LOST_TITLE,
        OWN_COLUMNS,
        OWN_TITLE,
        fair_summary,
        lost_rows,
        own_rows,
    )

    console.print(Text("Benchmark: suite fair (the fair analysis over many games, sim seed = deal seed)", style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    console.print(stacked_table(console, LOST_TITLE, LOST_COLUMNS, lost_rows(report), ((0, 1, 2, 3), (0, 1, 4)), left=1))
    console.print(stacked_table(console, OWN_TITLE, OWN_COLUMNS, own_rows(report), ((0, 1, 2, 3, 4), (0, 5, 6, 7)), left=None))
    for line in fair_summary(report).splitlines():
        console.print(fitted(Text(line), console.width))


def render_explain_bench(console: Console, report) -> None:
    """``bench --suite explain``: one row per player count, then each deal's best spare."""
    console.print(Text(f"Benchmark: suite explain, time limit {report.time_limit:g} s per line", style="bold"))
    table = Table(show_header=True, header_style="bold")
    columns = (
        "players",
        "deals",
        "median explain s",
        "spare proven optimal",
        "critical claims proven",
        "analyze positions",
        "analyze decided",
    )
    for name in columns:
        table.add_column(name, justify="right")
    for r in report.rows:
        table.add_row(
            str(r.players),
            str(r.deals),
            f"{r.median_seconds:.2f}",
            f"{100 * r.optimal_share:.0f}%",
            f"{100 * r.critical_proven_share:.0f}%",
            str(r.analyze_positions),
            f"{100 * r.analyze_decided_share:.1f}%",
        )
    console.print(table)
    console.print("Best spare per deal (value found, bound; * = proven optimal):")
    for r in report.rows:
        cells = [f"seed {seed}: {value}{'*' if opt else ''} (bound {bound})" for seed, value, bound, opt in r.spare]
        console.print(fitted(Text(f"  {r.players} players: " + ", ".join(cells)), console.width, _SEED_SPARE))


# One deal's best spare in bench --suite explain, kept on one line.
_SEED_SPARE = re.compile(r"seed \d+: \S+ \(bound \S+\),?|\S+")


def render_puzzle_bench(console: Console, report) -> None:
    """``bench --suite puzzles``: per player count and grade, deals graded and seconds; on
    a console too narrow for one row per player count, a block each, one row per measure."""
    from tranquility.puzzles.grade import GRADES

    console.print(Text("Benchmark: suite puzzles (grading has fixed budgets)", style="bold"))
    wide = Table(show_header=True, header_style="bold")
    wide.add_column("players", justify="right")
    wide.add_column("deals", justify="right")
    for g in GRADES:
        wide.add_column(f"grade {g}: deals, median grade s, generate s", justify="right")
    wide.add_column("not graded", justify="right")
    wide.add_column("silent table s", justify="right")
    blocks: list[RenderableType] = []
    for r in report.rows:
        graded, medians, per = [], [], []
        for g in GRADES:
            times = r.grade_seconds[g]
            seconds = r.per_puzzle(g)
            graded.append(str(r.graded[g]))
            medians.append(f"{statistics.median(times):.2f}" if times and seconds is not None else "-")
            per.append("-" if seconds is None else f"{seconds:.1f}")
        cells = [", ".join(measures) for measures in zip(graded, medians, per, strict=True)]
        wide.add_row(str(r.players), str(r.deals), *cells, str(r.graded[0]), f"{r.silent_seconds:.2f}")
        block = Table(box=None, pad_edge=False, header_style="bold")
        block.add_column("", no_wrap=True)
        for g in GRADES:
            block.add_column(f"grade {g}", justify="right", no_wrap=True)
        block.add_column("not graded", justify="right")
        block.add_column("silent table s", justify="right")
        block.add_row("deals", *graded, str(r.graded[0]), f"{r.silent_seconds:.2f}")
        block.add_row("median grade s", *medians)
        block.add_row("generate s", *per)
        blocks += [Text(f"players {r.players}, deals {r.deals}", style="bold"), block]
    console.print(fitting(console, wide, Group(*blocks)))
