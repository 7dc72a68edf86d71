"""The long work, typed: the one function the command and the server's job both call for a
solve's budget, an explanation and the fair analysis, given values already read from flags
(``tranquility.cli``) or from a request's JSON (``work``). The game comes replayed once
(``Replayed``); each function hands that on, so nothing replays it again."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective, Proof

if TYPE_CHECKING:
    from tranquility.solver.analysis.analyze import Analysis
    from tranquility.solver.analysis.explain import Explanation
    from tranquility.solver.analysis.fair import FairAnalysis
    from tranquility.solver.analysis.results import Progress
    from tranquility.solver.engine.verify import Replayed

CRITICAL_SECONDS = 30.0  # an explanation's critical-move checks without a total (a reproducible line)


def budget_of(
    seconds: float | None, workers: int, reproducible: bool, base: Budget | None = None, proof: Proof | None = None
) -> Budget:
    """What a solve may spend: ``base`` (``Budget()`` by default) with these limits. A
    reproducible one has node budgets, CP-SAT deterministic time and one thread; without
    ``seconds``, ``base``'s own clock. ``proof``: how the ladder proves its steps."""
    base = base if base is not None else Budget()
    if proof is not None:
        base = replace(base, proof=proof)
    if reproducible:
        return replace(base, reproducible=True, workers=1)
    if seconds is None:
        return base
    return replace(base, seconds=seconds, workers=workers, reproducible=False)


def explain_split(total: float | None, critical: float | None = None) -> tuple[float | None, float]:
    """An explanation's seconds: (the line's, the critical-move checks'). The checks get
    ``critical`` seconds of ``total``, a third of it by default (CRITICAL_SECONDS when there
    is no total: a reproducible line), the line the rest."""
    if critical is None:
        critical = CRITICAL_SECONDS if total is None else total / 3
    return (None if total is None else total - critical), critical


def explained(
    game: Replayed,
    objective: Objective,
    total: float | None,
    critical: float | None = None,
    workers: int = 1,
    reproducible: bool = False,
    proof: Proof | None = None,
    progress: Progress | None = None,
) -> Explanation:
    """``explain``: ``total`` seconds (None: reproducible) split between the line and the
    critical-move checks (``explain_split``), the line's solve on ``workers`` threads."""
    from tranquility.solver.analysis.explain import explain

    line_seconds, critical = explain_split(total, critical)
    budget = budget_of(line_seconds, workers, reproducible, proof=proof)
    return explain(game, objective=objective, budget=budget, critical_budget=critical, progress=progress, total=total)


def fair_of(
    analysis: Analysis,
    turns: int | str | None,
    samples: int | None,
    seed: int,
    progress: Progress | None = None,
) -> FairAnalysis:
    """``analyze --fair`` after the perfect ``analysis``: ``turns`` examined besides the
    flagged ones (None: the default, ``"all"``: every turn), ``samples`` worlds a move (None:
    the default), dealt from ``seed``."""
    from tranquility.solver.analysis.fair import DEFAULT_TURNS, FAIR_SAMPLES, fair_analysis

    others = DEFAULT_TURNS if turns is None else None if turns == "all" else int(turns)
    return fair_analysis(analysis, others, FAIR_SAMPLES if samples is None else samples, seed, progress)
