"""Deciding a deal or a position: WIN with a replayed line, NO-WIN with a named proof, or
UNKNOWN when the time runs out. Never a guess.

The portfolio (docs/model.md): cheap refutations first, then the greedy player, then the
complete search and the CP-SAT model. Every winning line is replayed by the verifier
before it is returned; a line the verifier rejects is an ``InternalError``, never a win.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from tranquility.solver.analysis.results import (
    DECIDE,
    FOUND_INTERRUPTED,
    FOUND_NO_WIN,
    FOUND_NOTHING,
    FOUND_WIN,
    Phase,
    Progress,
    Result,
    Step,
    check_line,
    cpsat_limits,
    position_of,
)
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import Replayed, replayed
from tranquility.solver.errors import BadInput
from tranquility.solver.search.bounds import refutation
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.complete import exhaustive
from tranquility.solver.search.greedy import greedy
from tranquility.solver.verdicts import DecidedBy, Method, Objective, Verdict

METHODS = tuple(Method)
OBJECTIVES = tuple(Objective)
GREEDY_SHARE = 0.25  # of the time left, for the greedy phase (docs/solving.md)


def solve(
    game: Game | Replayed,
    budget: Budget = Budget(),
    method: Method = Method.AUTO,
    progress: Progress | None = None,
    objective: Objective = Objective.ANY,
) -> Result:
    """Decide whether the team can still win from the position ``game`` reaches.

    ``method``: auto (the portfolio), search (greedy then the complete search only) or
    cpsat (the CP-SAT model only). With an ``objective`` other than ``any``, a win is
    then improved by CP-SAT (warm-started from it) for the rest of the time, and the
    result says whether its value is proven optimal (a line that has already won is
    returned as it is, by ``replay``, with no objective value). Ctrl-C ends the solve with
    ``unknown`` (or the best win so far) and the statistics gathered so far. ``progress``
    hears each phase (a ``Step``: its name, when the budget ends, the value found so far);
    ``Result.phases`` times each part that ran."""
    if objective not in OBJECTIVES:
        raise BadInput(f"objective must be one of {', '.join(OBJECTIVES)}")
    checked = replayed(game)  # once: the decision and the improvement both start from its position
    result = _decide(checked, budget, method, progress)
    if objective == Objective.ANY or result.verdict != Verdict.WIN:
        return result
    if result.method == DecidedBy.REPLAY:
        return result  # the line given has already won: nothing is left to play or improve
    from tranquility.solver.analysis.improving import improve  # with an objective only (and OR-Tools)

    return improve(result, budget, Objective(objective), progress, checked.state)


def _decide(game: Game | Replayed, budget: Budget, method: Method, progress: Progress | None) -> Result:
    """The portfolio: each part in turn until one decides (docs/solving.md, the order)."""
    if method not in METHODS:
        raise BadInput(f"method must be one of {', '.join(METHODS)}")
    started = time.monotonic()
    prefix, state = position_of(game)
    run = _Deciding(prefix, state, budget, method, progress, started)
    try:
        for part in (_replay_or_refute, _greedy_playouts, _complete_search, _cpsat_model):
            decided = part(run)
            if decided is not None:
                return decided
    except KeyboardInterrupt:
        run.ran(run.running, FOUND_INTERRUPTED)
        return run.finish(Verdict.UNKNOWN, DecidedBy.INTERRUPTED)
    return run.finish(Verdict.UNKNOWN, DecidedBy.TIMEOUT)


@dataclass
class _Deciding:
    """One decision under way: the position, the budget and its clock, what each part found
    (its statistics, its timed phase) and which part is at work (for an interrupt)."""

    prefix: Line  # the line to the position
    state: State
    budget: Budget
    method: Method
    progress: Progress | None
    started: float
    stats: dict = field(default_factory=dict)
    phases: list[Phase] = field(default_factory=list)
    running: DecidedBy = DecidedBy.REFUTE

    def left(self) -> float:
        return max(0.0, self.budget.seconds - (time.monotonic() - self.started))

    def say(self, phase: str, how: DecidedBy) -> None:
        self.running = how
        if self.progress is not None:
            self.progress(Step(phase, None if self.budget.reproducible else self.started + self.budget.seconds))

    def ran(self, how: str, found: str) -> None:
        """Time the part of the portfolio that just ended (from the end of the one before)."""
        now = time.monotonic()
        self.phases.append(Phase(DECIDE, how, now - (self.started + sum(p.seconds for p in self.phases)), found))

    def limit(self, share: float, nodes: int | None) -> Deadline:
        """A share of the time left (ignored when reproducible) and a node budget."""
        if self.budget.reproducible:
            return Deadline(nodes=nodes)
        return Deadline(seconds=self.left() * share, nodes=nodes)

    def finish(self, verdict: Verdict, how: DecidedBy, actions: list[Action] | None = None, reason: str | None = None) -> Result:
        """The result; a win's line is replayed by the engine first."""
        line = end = None
        if actions is not None:
            line = self.prefix.with_actions(self.prefix.actions + tuple(actions))
            end = check_line(line)
        if how in (DecidedBy.REPLAY, DecidedBy.REFUTE):
            self.ran(how, FOUND_WIN if verdict == Verdict.WIN else FOUND_NO_WIN)
        return Result(
            verdict, how, time.monotonic() - self.started, line, reason, self.stats, prefix=len(self.prefix.actions),
            phases=tuple(self.phases), interrupted=how == DecidedBy.INTERRUPTED, end=end,
        )


def _replay_or_refute(run: _Deciding) -> Result | None:
    """Already won or lost, or a cheap necessary condition of every win fails (not for
    --method cpsat, which stays independent)."""
    if run.state.won:
        return run.finish(Verdict.WIN, DecidedBy.REPLAY, [])
    if run.state.status == Status.LOST:
        return run.finish(Verdict.NO_WIN, DecidedBy.REFUTE, reason="the seat to move has no legal action")
    reason = refutation(run.state) if run.method != Method.CPSAT else None
    return None if reason is None else run.finish(Verdict.NO_WIN, DecidedBy.REFUTE, reason=reason)


def _greedy_playouts(run: _Deciding) -> Result | None:
    if run.method == Method.CPSAT:
        return None
    run.say("greedy playouts", DecidedBy.GREEDY)
    counted = SearchStats()
    line = greedy(run.state, run.limit(GREEDY_SHARE, run.budget.greedy_playouts), counted, run.budget.seed)
    run.stats["greedy"] = counted.to_json()
    run.ran(DecidedBy.GREEDY, FOUND_NOTHING if line is None else FOUND_WIN)
    return None if line is None else run.finish(Verdict.WIN, DecidedBy.GREEDY, line)


def _complete_search(run: _Deciding) -> Result | None:
    if run.method == Method.CPSAT:
        return None
    run.say("complete search", DecidedBy.EXHAUSTIVE)
    counted = SearchStats()
    budget = run.budget
    # In auto mode the complete search gets a small node budget: it settles small positions
    # at once and leaves the big ones to CP-SAT (all the time left when CP-SAT is not used).
    if run.method == Method.SEARCH:
        deadline = run.limit(1.0, budget.search_nodes * 100 if budget.reproducible else None)
    else:
        deadline = run.limit(0.3, budget.search_nodes)
    try:
        verdict, line = exhaustive(run.state, deadline, counted)
    finally:
        run.stats["exhaustive"] = counted.to_json()
    run.ran(DecidedBy.EXHAUSTIVE, _found(verdict))
    if verdict == Verdict.WIN:
        return run.finish(Verdict.WIN, DecidedBy.EXHAUSTIVE, line)
    if verdict == Verdict.NO_WIN:
        return run.finish(Verdict.NO_WIN, DecidedBy.EXHAUSTIVE, reason="the complete search tried every line; none wins")
    return None


def _cpsat_model(run: _Deciding) -> Result | None:
    if run.method == Method.SEARCH:
        return None
    from tranquility.solver.cpsat.run_model import cpsat  # OR-Tools loads only when CP-SAT runs

    run.say("CP-SAT model", DecidedBy.CPSAT)
    verdict, line, info = cpsat(run.state, cpsat_limits(run.budget, run.left()))
    run.stats["cpsat"] = info
    run.ran(DecidedBy.CPSAT, _found(verdict))
    if verdict == Verdict.WIN:
        return run.finish(Verdict.WIN, DecidedBy.CPSAT, line)
    if verdict == Verdict.NO_WIN:
        return run.finish(Verdict.NO_WIN, DecidedBy.CPSAT, reason=info["reason"])
    return None


def _found(verdict: str) -> str:
    return {Verdict.WIN: FOUND_WIN, Verdict.NO_WIN: FOUND_NO_WIN}.get(Verdict(verdict), FOUND_NOTHING)
