"""Deciding a deal or a position: WIN with a replayed line, NO-WIN with a named proof, or
UNKNOWN when the time runs out. Never a guess.

The portfolio (docs/model.md): cheap refutations first, then the greedy player, then the
complete search and the CP-SAT model. Every winning line is replayed by the verifier
before it is returned; a line the verifier rejects is an ``InternalError``, never a win.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import Replayed, replayed, verify
from tranquility.solver.errors import BadInput, InternalError
from tranquility.solver.search.bounds import refutation
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.complete import exhaustive
from tranquility.solver.search.greedy import FinishKeeper, best_playout, greedy
from tranquility.solver.search.objectives import BoundBy, FoundBy, better, bound_source, objective_bound, objective_value, score
from tranquility.solver.verdicts import DecidedBy, Method, Objective, Verdict

VERDICTS = tuple(Verdict)
METHODS = tuple(Method)
OBJECTIVES = tuple(Objective)
GREEDY_SHARE = 0.25  # of the time left, for the greedy phase (docs/solving.md)
IMPROVING_PLAYOUTS = 200  # greedy playouts per FinishKeeper tried before CP-SAT optimises (about 2 s)
DECIDE, IMPROVE = "decide", "improve"  # the phases of a solve (Phase.name)
# What a decide phase found (Phase.found).
FOUND_WIN, FOUND_NO_WIN, FOUND_NOTHING, FOUND_INTERRUPTED = "win", "no win", "nothing", "nothing (interrupted)"


@dataclass(frozen=True)
class Step:
    """What a long computation is doing now, for a progress display: the phase, when its
    budget ends (a ``time.monotonic()`` instant; None when it has no clock) and what it
    has found so far (the best line's value, the turns checked...). ``str`` gives the
    phase and what was found, for a callback that only shows text."""

    phase: str
    until: float | None = None
    found: str | None = None

    def __str__(self) -> str:
        return self.phase if self.found is None else f"{self.phase} ({self.found})"


Progress = Callable[[Step], None]


@dataclass(frozen=True)
class Phase:
    """One part of the work as it happened: ``name`` (decide, improve; explain adds its
    own), the ``method`` that ran, its ``seconds``, and what it ``found``: for decide,
    win, no win or nothing; for improve, the objective's value before and after."""

    name: str
    method: str
    seconds: float
    found: str

    def to_json(self) -> dict:
        return {"phase": self.name, "method": self.method, "seconds": round(self.seconds, 4), "found": self.found}


@dataclass(frozen=True)
class Result:
    verdict: Verdict
    method: DecidedBy
    seconds: float
    line: Line | None = None
    reason: str | None = None  # for no-win: the proof in words
    stats: dict = field(default_factory=dict)
    best: Best | None = None  # with --objective: the value of the line, its bound
    prefix: int = 0  # actions of the line that were given (the position), before the solve's
    phases: tuple[Phase, ...] = ()  # each part of the portfolio that ran, in order, timed
    interrupted: bool = False  # Ctrl-C ended it (the verdict is unknown, or the win found so far)
    end: State | None = None  # where the line ends, as the engine's replay of it found it (not in the JSON)

    @property
    def winning_line(self) -> Line:
        """The line of a win (replayed by the rules engine before it was returned)."""
        assert self.verdict == Verdict.WIN and self.line is not None, f"a {self.verdict} has no winning line"
        return self.line

    def to_json(self) -> dict:
        """The result as ``tranquility solve --json`` prints it (docs/solving.md): the
        winning line, when there is one, as a line file from the deal."""
        from tranquility.solver.formats.codecs import line_to_json

        data = {
            "verdict": self.verdict,
            "method": self.method,
            "seconds": round(self.seconds, 4),
            "line": None if self.line is None else line_to_json(self.line),
            "reason": self.reason,
            "phases": [p.to_json() for p in self.phases],
            "stats": self.stats,
        }
        if self.best is not None:
            data["objective"] = self.best.to_json()
        return data


# Per objective: what its value counts, and what its bound says no win can do.
OBJECTIVE_WORDS = {
    Objective.SPARE: ("cards left at the win", "no win keeps more than"),
    Objective.TURNS: ("turns to the win", "no win takes fewer than"),
    Objective.COST: ("cards paid as costs", "no win pays fewer than"),
}


@dataclass(frozen=True)
class Best:
    """How good the returned line is for an objective: its value, the best bound known
    (None when none was proven), and whether the value is proven optimal."""

    objective: str
    value: int
    bound: int | None
    optimal: bool
    value_by: str | None = None  # the search that found the line (objectives.FoundBy)
    bound_by: str | None = None  # the proof that gave the bound (objectives.BoundBy)

    @property
    def in_words(self) -> str:
        """The proven interval in words: "23 cards left at the win, the best found in the
        time limit; no win keeps more than 25"."""
        what, limit = OBJECTIVE_WORDS[Objective(self.objective)]
        if self.optimal:
            return f"{self.value} {what}, proven optimal"
        if self.bound is None:
            return f"{self.value} {what}, the best found in the time limit; no bound proven"
        return f"{self.value} {what}, the best found in the time limit; {limit} {self.bound}"

    def to_json(self) -> dict:
        return {
            "name": self.objective,
            "value": self.value,
            "bound": self.bound,
            "optimal": self.optimal,
            "in_words": self.in_words,
            "value_by": self.value_by,
            "bound_by": self.bound_by,
        }


def position_of(game: Game | Replayed) -> tuple[Line, State]:
    """The line so far (empty for a deal) and the position it reaches (a game already
    replayed is not replayed again)."""
    checked = game if isinstance(game, Replayed) else replayed(game)
    return checked.line, checked.state


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
    result = _decide(game, budget, method, progress)
    if objective == Objective.ANY or result.verdict != Verdict.WIN:
        return result
    if result.method == DecidedBy.REPLAY:
        return result  # the line given has already won: nothing is left to play or improve
    return _improve(result, budget, Objective(objective), progress)


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
    from tranquility.solver.cpsat.solving import cpsat  # OR-Tools loads only when CP-SAT runs

    run.say("CP-SAT model", DecidedBy.CPSAT)
    verdict, line, info = cpsat(run.state, _cpsat_limits(run.budget, run.left()))
    run.stats["cpsat"] = info
    run.ran(DecidedBy.CPSAT, _found(verdict))
    if verdict == Verdict.WIN:
        return run.finish(Verdict.WIN, DecidedBy.CPSAT, line)
    if verdict == Verdict.NO_WIN:
        return run.finish(Verdict.NO_WIN, DecidedBy.CPSAT, reason=info["reason"])
    return None


def _found(verdict: str) -> str:
    return {Verdict.WIN: FOUND_WIN, Verdict.NO_WIN: FOUND_NO_WIN}.get(Verdict(verdict), FOUND_NOTHING)


def _improve(result: Result, budget: Budget, objective: Objective, progress: Progress | None) -> Result:
    """Optimise the objective: improving playouts, the ladder's proofs, the LNS, then CP-SAT
    over the whole model, warm-started from the best line found (docs/model.md, Objectives).
    Each step takes the best line so far and returns the next; the result is a new one."""
    started = time.monotonic()  # before OR-Tools loads: its import is part of the budget
    assert result.line is not None  # a win's
    given = result.line.with_actions(result.line.actions[: result.prefix])  # the line to the position
    _, position = position_of(given)
    run = _Improvement(given, position, objective, budget, progress, started, result.seconds)
    continuation = result.line.actions[result.prefix :]
    assert result.end is not None  # the won state, from the replay of the line
    best = _Best(
        continuation, objective_value(position, list(continuation), objective), FoundBy(result.method),
        objective_bound(position, objective), bound_source(position), result.end,
    )
    for step in (_improving_playouts, _ladder, _windows, _whole_model):
        best = step(run, best)
    return replace(
        result,
        line=given.with_actions(given.actions + best.continuation),
        best=Best(objective, best.value, best.bound, best.value == best.bound, best.value_by, best.bound_by),
        seconds=result.seconds + time.monotonic() - started,
        phases=result.phases + tuple(run.phases),
        stats={**result.stats, **run.stats},
        interrupted=best.interrupted,
        end=best.end,
    )


@dataclass(frozen=True)
class _Best:
    """The best line an improvement holds: its continuation from the position, its value and
    what found it, the best bound proven and what proved it, and whether Ctrl-C came."""

    continuation: tuple[Action, ...]
    value: int
    value_by: FoundBy
    bound: int
    bound_by: BoundBy
    end: State  # where the line ends (won), as its replay found it
    interrupted: bool = False

    @property
    def settled(self) -> bool:
        """Nothing is left to do: interrupted, or the value meets the bound."""
        return self.interrupted or self.value == self.bound


@dataclass
class _Improvement:
    """What every improving step reads (the position, the objective, the budget, the clock)
    and what they record: their timed phases and their statistics."""

    given: Line  # the line to the position
    position: State
    objective: Objective
    budget: Budget
    progress: Progress | None
    started: float  # when the improvement began
    decided_in: float  # the seconds the decision took before it
    phases: list[Phase] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    mark: float = 0.0  # when the last phase ended

    def __post_init__(self) -> None:
        self.mark = self.started

    def left(self) -> float:
        """Seconds left of the solve's budget."""
        return max(0.0, self.budget.seconds - (time.monotonic() - self.started) - self.decided_in)

    def say(self, phase: str, found: str) -> None:
        if self.progress is not None:
            until = None if self.budget.reproducible else self.started - self.decided_in + self.budget.seconds
            self.progress(Step(phase, until, found))

    def ran(self, how: str, before: int, after: int) -> None:
        """Time the step that just ended, from the end of the one before."""
        now = time.monotonic()
        self.phases.append(Phase(IMPROVE, how, now - self.mark, _change(self.objective, before, after)))
        self.mark = now

    def take(self, best: _Best, found: list[Action], value: int, by: FoundBy) -> _Best:
        """A better continuation, once its line replays as a win."""
        end = check_line(self.given.with_actions(self.given.actions + tuple(found)))
        return replace(best, continuation=tuple(found), value=value, value_by=by, end=end)


def _improving_playouts(run: _Improvement, best: _Best) -> _Best:
    """Greedy playouts are cheap and often beat the first win found: CP-SAT starts from the
    best of them."""
    objective, position = run.objective, run.position
    run.say(f"improving {objective}: greedy playouts", f"{objective} {best.value} found by {best.value_by}")
    first = best.value
    try:
        _, found = best_playout(
            position,
            IMPROVING_PLAYOUTS,
            run.budget.seed,
            lambda a, end: score(objective, objective_value(position, a, objective, end)),
            keepers=tuple(FinishKeeper),  # the due seat's Finish saves discard twos
        )
    except KeyboardInterrupt:  # Ctrl-C keeps the win found so far, as everywhere in a solve
        found, best = None, replace(best, interrupted=True)
    found_value = None if found is None else objective_value(position, found, objective)
    if found is not None and found_value is not None and better(objective, found_value, best.value):
        best = run.take(best, found, found_value, FoundBy.GREEDY)
    run.ran(DecidedBy.GREEDY, first, best.value)
    return best


def _ladder(run: _Improvement, best: _Best) -> _Best:
    """The ladder first: its early steps are quick, and the bound it proves is the target the
    LNS stops at (docs/model.md, The restricted-horizon ladder)."""
    from tranquility.solver.cpsat.ladder import LADDER, LADDER_SHARE, OBJECTIVES, climb  # OR-Tools

    objective = run.objective
    if best.settled or objective not in OBJECTIVES:
        return best
    before, proved = best.value, best.bound
    doing = f"improving {objective}: {LADDER}"
    run.say(doing, f"best {objective} {best.value} so far, bound {best.bound}")
    climbed = climb(
        run.position, objective, best.value, best.bound, run.budget.part(LADDER_SHARE[objective], run.left()),
        progress=lambda b: run.say(doing, f"best {objective} {before} so far, bound {b}"),
        known=list(best.continuation),
    )
    run.stats["ladder"] = climbed.to_json()
    best = replace(best, interrupted=climbed.status == "interrupted")
    if climbed.steps:
        best = replace(best, bound=climbed.bound, bound_by=BoundBy.LADDER)
    if climbed.actions is not None:
        best = run.take(best, climbed.actions, objective_value(run.position, climbed.actions, objective), FoundBy.LADDER)
    run.ran(LADDER, before, best.value)
    if climbed.steps:  # its proofs, beside the value: "spare 22, no better line; bound 25 -> 24"
        run.phases[-1] = replace(run.phases[-1], found=f"{run.phases[-1].found}; bound {proved} -> {best.bound}")
    return best


def _windows(run: _Improvement, best: _Best) -> _Best:
    """Most of the time left re-solves windows of the best line (docs/explain.md); the rest is
    the one CP-SAT run over the whole model, whose bound alone is proven."""
    from tranquility.solver.cpsat.improve import LNS, LNS_SHARE, applies, lns  # OR-Tools

    objective = run.objective
    if best.settled or not applies(run.position, objective):
        return best
    before, bound = best.value, best.bound
    doing = f"improving {objective}: {LNS}"
    run.say(doing, f"best {objective} {best.value} so far, bound {bound}")
    windows = lns(
        run.given, run.position, list(best.continuation), objective, run.budget.part(LNS_SHARE, run.left()),
        target=bound,
        progress=lambda v: run.say(doing, f"best {objective} {v} so far, bound {bound}"),
    )
    run.stats["lns"] = windows.to_json()
    best = replace(best, interrupted=windows.interrupted)
    if better(objective, windows.value, best.value):
        best = run.take(best, windows.actions, windows.value, FoundBy.LNS)
    run.ran(LNS, before, best.value)
    return best


def _whole_model(run: _Improvement, best: _Best) -> _Best:
    """CP-SAT over the whole model with the time left, warm-started from the best line: a
    better line, or a tighter bound."""
    objective = run.objective
    before, proven, searched, interrupted = best.value, None, False, best.interrupted
    try:
        if interrupted:
            info: dict = {"status": "interrupted"}
        elif best.value == best.bound:  # the line found already meets the bound: nothing to search
            info = {"status": "bound met"}
        else:
            from tranquility.solver.cpsat.solving import optimise

            run.say(f"improving {objective}: CP-SAT", f"best {objective} {best.value} so far, bound {best.bound}")
            searched = True
            limits = _cpsat_limits(run.budget, run.left())
            improved, proven, _, info = optimise(run.position, list(best.continuation), objective, limits)
            if improved is not None:
                value = objective_value(run.position, improved, objective)
                if better(objective, value, best.value):
                    best = run.take(best, improved, value, FoundBy.CPSAT)
    except KeyboardInterrupt:
        info, interrupted = {"status": "interrupted"}, True
    run.stats["optimise"] = info
    best = replace(best, interrupted=interrupted)
    if searched:
        run.ran(DecidedBy.CPSAT, before, best.value)
    if interrupted:
        run.phases[-1] = replace(run.phases[-1], found=run.phases[-1].found + " (interrupted)")
    if proven is not None and better(objective, best.bound, proven):  # CP-SAT's bound is the tighter
        best = replace(best, bound=proven, bound_by=BoundBy.CPSAT)
    return best


def _change(objective: Objective, before: int, after: int) -> str:
    """An improve phase's ``found``: the objective's value before and after it."""
    if after == before:
        return f"{objective} {before}, no better line"
    return f"{objective} {before} -> {after}"


def _cpsat_limits(budget: Budget, seconds: float):
    """CP-SAT's share of the budget: ``seconds`` on the budget's workers, or when
    reproducible, the deterministic time on one worker with the budget's seed."""
    from tranquility.solver.cpsat.solving import CpsatLimits

    if budget.reproducible:
        return CpsatLimits(workers=1, deterministic=budget.cpsat_deterministic, seed=budget.seed)
    return CpsatLimits(workers=budget.workers, seconds=seconds)


def check_line(line: Line) -> State:
    """Replay a solver's line and return the won position; anything but a legal win is an
    internal error."""
    verdict = verify(line)
    if verdict.state is None or not (verdict.legal and verdict.won):
        raise InternalError(f"the solver's line does not replay as a win: {verdict.error or verdict.status}")
    return verdict.state
