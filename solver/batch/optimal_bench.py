"""The optimal suite (docs/performance.md): ``solve --objective turns`` and ``spare`` on
official seeds, how often the value is proven optimal, the gap, and which method gave the
bound and the line."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Result
from tranquility.solver.batch.bench import OPTIMAL_SUITE, CtrlC, Suite, SuiteInterrupted
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State
from tranquility.solver.search.baseline import BASELINE, GREEDY_BASELINE, greedy_baseline
from tranquility.solver.search.budget import Budget
from tranquility.solver.stats import p90
from tranquility.solver.verdicts import Objective

OPTIMAL_PLAYERS = (2, 3, 4, 5)
OPTIMAL = Suite(OPTIMAL_SUITE, OPTIMAL_PLAYERS)
OPTIMAL_OBJECTIVES = (Objective.TURNS, Objective.SPARE)
OPTIMAL_DEALS = 15  # official seeds 0-14
BASELINE_PLAYERS = (2, 3)  # where the greedy baseline (GREEDY_BASELINE per Finish keeper) is a target


@dataclass(frozen=True)
class OptimalCase:
    """One ``solve --objective``: the value of the line found and the bound proven (None
    when no win was found), which search and which proof gave them, and for spare on 2-3
    players the best spare of the greedy baseline (``greedy_baseline``)."""

    players: int
    seed: int
    objective: str
    value: int | None
    bound: int | None
    optimal: bool
    value_by: str | None
    bound_by: str | None
    seconds: float
    greedy: int | None = None
    # The greedy baseline's playouts the solve ran itself (all of them: the value is at least
    # ``greedy`` by construction); None when its first win met the bound.
    solve_playouts: int | None = None

    @property
    def gap(self) -> int | None:
        """How far the bound is from the value: 0 when proven optimal."""
        if self.value is None or self.bound is None:
            return None
        return abs(self.bound - self.value)

    def to_json(self) -> dict:
        data = self.__dict__.copy()
        data["seconds"] = round(self.seconds, 2)
        data["gap"] = self.gap
        return data


@dataclass(frozen=True)
class OptimalRow:
    """Per player count and objective: the proven share, the gap's median and p90 (over
    the deals won), how often each proof gave the bound and each search the value, and
    (spare, 2-3 players) on how many deals the value is at least the greedy baseline."""

    players: int
    objective: str
    cases: tuple[OptimalCase, ...]

    @property
    def proven_share(self) -> float:
        return sum(c.optimal for c in self.cases) / len(self.cases)

    @property
    def gaps(self) -> list[int]:
        return sorted(c.gap for c in self.cases if c.gap is not None)

    def by(self, what: str) -> dict[str, int]:
        """How many cases each method gave: ``what`` is "value_by" or "bound_by"."""
        counts: dict[str, int] = {}
        for c in self.cases:
            key = getattr(c, what) or "none"
            counts[key] = counts.get(key, 0) + 1
        return counts

    @property
    def at_least_greedy(self) -> tuple[int, int] | None:
        """(deals whose value is at least the greedy baseline, deals with a baseline), or
        None where no baseline was taken."""
        baseline = [(c.value, c.greedy) for c in self.cases if c.greedy is not None]
        if not baseline:
            return None
        return sum(value is not None and value >= greedy for value, greedy in baseline), len(baseline)

    def to_json(self) -> dict:
        gaps, met = self.gaps, self.at_least_greedy
        return {
            "players": self.players,
            "objective": self.objective,
            "deals": len(self.cases),
            "proven_share": self.proven_share,
            "gap_median": statistics.median(gaps) if gaps else None,
            "gap_p90": p90(gaps) if gaps else None,
            "bound_by": self.by("bound_by"),
            "value_by": self.by("value_by"),
            "at_least_greedy": None if met is None else {"met": met[0], "of": met[1]},
            "cases": [c.to_json() for c in self.cases],
        }


def run_optimal_suite(
    deals: int | None,
    time_limit: float,
    workers: int = 2,
    reproducible: bool = False,
    players: tuple[int, ...] = OPTIMAL_PLAYERS,
    baseline: int = GREEDY_BASELINE,
    on_step: Callable[[str], None] | None = None,
) -> list[OptimalRow]:
    """Per player count: ``solve --objective turns`` and ``--objective spare`` on official
    seeds 0..N-1 (default 15) with ``time_limit`` seconds each (or, ``reproducible``, the
    fixed budgets); for spare on 2-3 players, the best of the greedy baseline too
    (``baseline`` seeded playouts per Finish keeper, which each solve runs first: a short
    solve may run fewer, and then the suite runs them all, outside the solve's time).
    Ctrl-C: as ``CtrlC`` says (a case cut short is left out; ``SuiteInterrupted`` carries
    the rows of the cases done)."""
    budget = Budget(
        seconds=time_limit, workers=1 if reproducible else workers, reproducible=reproducible, greedy_playouts=baseline
    )
    found: dict[tuple[int, str], list[OptimalCase]] = {}
    ctrl_c = CtrlC()
    for count in players:
        for seed in range(deals or OPTIMAL_DEALS):
            game = deal(OFFICIAL, count, seed)
            for objective in OPTIMAL_OBJECTIVES:
                if on_step is not None:
                    on_step(f"{count} players, seed {seed}, {objective}")
                result = solve(game, budget, objective=objective)
                if result.interrupted:
                    if ctrl_c.came():
                        raise SuiteInterrupted(_optimal_rows(found))
                    continue  # a case cut short is left out: its value and bound are not the suite's
                best = result.best
                greedy = None
                if objective == Objective.SPARE and count in BASELINE_PLAYERS:
                    greedy = _baseline_best(game, result, baseline)
                ran = result.stats.get(BASELINE)
                case = OptimalCase(
                    count,
                    seed,
                    objective,
                    None if best is None else best.value,
                    None if best is None else best.bound,
                    best is not None and best.optimal,
                    None if best is None else best.value_by,
                    None if best is None else best.bound_by,
                    result.seconds,
                    greedy,
                    None if ran is None else ran["playouts"],
                )
                found.setdefault((count, objective), []).append(case)
    return _optimal_rows(found)


def _optimal_rows(found: dict[tuple[int, str], list[OptimalCase]]) -> list[OptimalRow]:
    return [OptimalRow(count, objective, tuple(cases)) for (count, objective), cases in found.items()]


def _baseline_best(game: Deal, result: Result, playouts: int) -> int | None:
    """The most cards kept by a win among the greedy baseline's playouts (``greedy_baseline``,
    ``playouts`` per Finish keeper); None if none wins. The solve ran the same playouts: its
    figure is taken when it ran them all (or stopped at the bound, which none beats)."""
    ran = result.stats.get(BASELINE)
    if ran is not None and not ran["interrupted"] and (ran["at_bound"] or ran["playouts"] == ran["of"]):
        return ran["best"]
    return greedy_baseline(State.initial(game), Objective.SPARE, playouts).value


def optimal_markdown(rows: list[OptimalRow]) -> str:
    """The optimal suite as a Markdown table (docs/performance.md, docs/explain.md)."""
    lines = [
        "| players | objective | deals | proven optimal | gap median | gap p90 | bound by | line by "
        f"| >= greedy {GREEDY_BASELINE:,} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        data = r.to_json()
        bound_by = ", ".join(f"{k} {v}" for k, v in sorted(data["bound_by"].items()))
        value_by = ", ".join(f"{k} {v}" for k, v in sorted(data["value_by"].items()))
        met = r.at_least_greedy
        greedy = "-" if met is None else f"{met[0]}/{met[1]}"
        lines.append(
            f"| {r.players} | {r.objective} | {len(r.cases)} | {100 * r.proven_share:.0f}% | {_num(data['gap_median'])} | "
            f"{_num(data['gap_p90'])} | {bound_by} | {value_by} | {greedy} |"
        )
    lines += ["", "Per deal (value, bound; * = proven optimal):", ""]
    for r in rows:
        cells = [f"seed {c.seed}: {c.value}{'*' if c.optimal else ''} ({c.bound})" for c in r.cases]
        lines.append(f"- {r.players} players, {r.objective}: " + ", ".join(cells))
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"
