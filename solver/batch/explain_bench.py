"""The explain suite (docs/performance.md): explain's time, how often its best spare is proven
optimal and its critical-move claims proven, and how much of a played line analyze decides."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from tranquility.solver.batch.bench import EXPLAIN_SUITE, CtrlC, Suite, SuiteInterrupted
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective, Verdict

EXPLAIN_PLAYERS = (2, 3, 4, 5)
EXPLAIN = Suite(
    EXPLAIN_SUITE,
    EXPLAIN_PLAYERS,
    refuses=("workers", "reproducible"),
    why="it measures explain with its own defaults (2 threads, budgets in seconds)",
)


@dataclass
class ExplainRow:
    players: int
    deals: int
    median_seconds: float
    optimal_share: float  # best spare proven optimal
    critical_proven_share: float  # critical-move claims proven
    analyze_positions: int
    analyze_decided_share: float  # positions of greedy-played lines decided
    spare: tuple[tuple[int, int, int | None, bool], ...] = ()  # per seed: (seed, value, bound, optimal)

    def to_json(self) -> dict:
        data = self.__dict__.copy()
        data["spare"] = [{"seed": s, "value": v, "bound": b, "optimal": o} for s, v, b, o in self.spare]
        return data


def run_explain_suite(
    deals: int | None,
    time_limit: float,
    critical_time: float,
    analyze_time: float,
    on_step: Callable[[str], None] | None = None,
    players: tuple[int, ...] = EXPLAIN_PLAYERS,
) -> list[ExplainRow]:
    """Per player count (2-5, or ``players``): explain official seeds 0..N-1 (default 50)
    for best spare; and analyze the lines `simulate --policy greedy` plays on seeds
    0..min(N, 20)-1."""
    from tranquility.solver.analysis.analyze import analyze
    from tranquility.solver.analysis.explain import explain
    from tranquility.solver.search.policies import simulate

    rows: list[ExplainRow] = []
    ctrl_c = CtrlC()
    for count in players:
        times, optimal, claims, proven, spare = [], 0, 0, 0, []
        for seed in range(deals or 50):
            if on_step is not None:
                on_step(f"explain {count} players, seed {seed}")
            started = time.monotonic()
            e = explain(deal(OFFICIAL, count, seed), Objective.SPARE, Budget(seconds=time_limit), critical_time)
            if e.result.interrupted and ctrl_c.came():
                raise SuiteInterrupted(rows)  # the player counts done
            times.append(time.monotonic() - started)
            optimal += bool(e.result.best and e.result.best.optimal)
            if e.result.best is not None:
                best = e.result.best
                spare.append((seed, best.value, best.bound, best.optimal))
            claims += len(e.critical)
            proven += sum(c.proven for c in e.critical)
        positions = decided = 0
        for seed in range(min(deals or 20, 20)):
            if on_step is not None:
                on_step(f"analyze {count} players, seed {seed}")
            played = simulate(deal(OFFICIAL, count, seed), "greedy", seed).line
            analysis = analyze(played, Budget(seconds=analyze_time))
            positions += len(analysis.positions)
            decided += sum(p.verdict != Verdict.UNKNOWN for p in analysis.positions)
        rows.append(
            ExplainRow(
                count,
                len(times),
                statistics.median(times),
                optimal / len(times),
                proven / max(1, claims),
                positions,
                decided / max(1, positions),
                tuple(spare),
            )
        )
    return rows


def explain_markdown(rows: list[ExplainRow]) -> str:
    lines = [
        "| players | deals | median explain s | best spare proven optimal | critical claims proven "
        "| analyze positions | analyze decided |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.players} | {r.deals} | {r.median_seconds:.2f} | {100 * r.optimal_share:.0f}% | "
            f"{100 * r.critical_proven_share:.0f}% | {r.analyze_positions} | {100 * r.analyze_decided_share:.1f}% |"
        )
    lines += ["", "Best spare per deal (value found, bound; * = proven optimal):", ""]
    for r in rows:
        cells = [f"seed {seed}: {value}{'*' if opt else ''} (bound {bound})" for seed, value, bound, opt in r.spare]
        lines.append(f"- {r.players} players: " + ", ".join(cells))
    return "\n".join(lines)


