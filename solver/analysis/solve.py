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
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import position_after, verify
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


@dataclass
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


def position_of(game: Game) -> tuple[Line, State]:
    """The line so far (empty for a deal) and the position it reaches."""
    line = as_line(game)
    return line, position_after(line)


def solve(
    game: Game,
    budget: Budget = Budget(),
    method: str = "auto",
    progress: Progress | None = None,
    objective: str = "any",
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


def _decide(game: Game, budget: Budget, method: str, progress: Progress | None) -> Result:
    if method not in METHODS:
        raise BadInput(f"method must be one of {', '.join(METHODS)}")
    started = time.monotonic()
    prefix, state = position_of(game)
    with_cpsat = method != Method.SEARCH
    stats: dict = {}
    until = None if budget.reproducible else started + budget.seconds
    phases: list[Phase] = []

    running = [DecidedBy.REFUTE]  # the part of the portfolio at work (for an interrupt)

    def say(phase: str, how: DecidedBy) -> None:
        running[0] = how
        if progress is not None:
            progress(Step(phase, until))

    def ran(how: str, found: str) -> None:
        """Time the part of the portfolio that just ended (from the end of the one before)."""
        now = time.monotonic()
        phases.append(Phase(DECIDE, how, now - (started + sum(p.seconds for p in phases)), found))

    def finish(verdict: Verdict, how: DecidedBy, actions: list[Action] | None = None, reason: str | None = None) -> Result:
        line = None
        if actions is not None:
            line = prefix.with_actions(prefix.actions + tuple(actions))
            check_line(line)
        if how in (DecidedBy.REPLAY, DecidedBy.REFUTE):
            ran(how, FOUND_WIN if verdict == Verdict.WIN else FOUND_NO_WIN)
        seconds = time.monotonic() - started
        return Result(
            verdict, how, seconds, line, reason, stats, prefix=len(prefix.actions), phases=tuple(phases),
            interrupted=how == DecidedBy.INTERRUPTED,
        )

    def limit(share: float, nodes: int | None) -> Deadline:
        """A share of the time left (ignored when reproducible) and a node budget."""
        if budget.reproducible:
            return Deadline(nodes=nodes)
        left = max(0.0, budget.seconds - (time.monotonic() - started))
        return Deadline(seconds=left * share, nodes=nodes)

    try:
        if state.won:
            return finish(Verdict.WIN, DecidedBy.REPLAY, [])
        if state.status == Status.LOST:
            return finish(Verdict.NO_WIN, DecidedBy.REFUTE, reason="the seat to move has no legal action")
        # Cheap necessary conditions first (not for --method cpsat, which stays independent).
        reason = refutation(state) if method != Method.CPSAT else None
        if reason is not None:
            return finish(Verdict.NO_WIN, DecidedBy.REFUTE, reason=reason)
        if method in (Method.AUTO, Method.SEARCH):
            say("greedy playouts", DecidedBy.GREEDY)
            search_stats = SearchStats()
            line = greedy(state, limit(GREEDY_SHARE, budget.greedy_playouts), search_stats, budget.seed)
            stats["greedy"] = search_stats.to_json()
            ran(DecidedBy.GREEDY, FOUND_NOTHING if line is None else FOUND_WIN)
            if line is not None:
                return finish(Verdict.WIN, DecidedBy.GREEDY, line)
            say("complete search", DecidedBy.EXHAUSTIVE)
            search_stats = SearchStats()
            # In auto mode the complete search gets a small node budget: it settles small
            # positions at once and leaves the big ones to CP-SAT (all the time left when
            # the model does not cover the rules).
            if not with_cpsat:
                deadline = limit(1.0, budget.search_nodes * 100 if budget.reproducible else None)
            else:
                deadline = limit(0.3, budget.search_nodes)
            try:
                verdict, line = exhaustive(state, deadline, search_stats)
            finally:
                stats["exhaustive"] = search_stats.to_json()
            ran(DecidedBy.EXHAUSTIVE, _found(verdict))
            if verdict == Verdict.WIN:
                return finish(Verdict.WIN, DecidedBy.EXHAUSTIVE, line)
            if verdict == Verdict.NO_WIN:
                return finish(Verdict.NO_WIN, DecidedBy.EXHAUSTIVE, reason="the complete search tried every line; none wins")
        if with_cpsat:
            from tranquility.solver.cpsat.solving import cpsat  # OR-Tools loads only when CP-SAT runs

            say("CP-SAT model", DecidedBy.CPSAT)
            left = max(0.0, budget.seconds - (time.monotonic() - started))
            verdict, line, info = cpsat(state, _cpsat_limits(budget, left))
            stats["cpsat"] = info
            ran(DecidedBy.CPSAT, _found(verdict))
            if verdict == Verdict.WIN:
                return finish(Verdict.WIN, DecidedBy.CPSAT, line)
            if verdict == Verdict.NO_WIN:
                return finish(Verdict.NO_WIN, DecidedBy.CPSAT, reason=info["reason"])
    except KeyboardInterrupt:
        ran(running[0], FOUND_INTERRUPTED)
        return finish(Verdict.UNKNOWN, DecidedBy.INTERRUPTED)
    return finish(Verdict.UNKNOWN, DecidedBy.TIMEOUT)


def _found(verdict: str) -> str:
    return {Verdict.WIN: FOUND_WIN, Verdict.NO_WIN: FOUND_NO_WIN}.get(Verdict(verdict), FOUND_NOTHING)


def _improve(result: Result, budget: Budget, objective: Objective, progress: Progress | None) -> Result:
    """Optimise the objective: improving playouts, the ladder's proofs, the LNS, then CP-SAT
    over the whole model, warm-started from the best line found (docs/model.md, Objectives)."""
    started = time.monotonic()  # before OR-Tools loads: its import is part of the budget
    assert result.line is not None  # a win's
    given = result.line.with_actions(result.line.actions[: result.prefix])  # the line to the position
    _, position = position_of(given)
    continuation = list(result.line.actions[result.prefix :])
    value = objective_value(position, continuation, objective)
    value_by = FoundBy(result.method)
    first = value
    bound, bound_by = objective_bound(position, objective), bound_source(position)
    until = None if budget.reproducible else started - result.seconds + budget.seconds  # the solve's end
    phases: list[Phase] = []
    mark = started

    def say(phase: str, found: str) -> None:
        if progress is not None:
            progress(Step(phase, until, found))

    def ran(how: str, before: int) -> None:
        nonlocal mark
        now = time.monotonic()
        phases.append(Phase(IMPROVE, how, now - mark, _change(objective, before, value)))
        mark = now

    def left() -> float:
        return max(0.0, budget.seconds - (time.monotonic() - started) - result.seconds)

    def take(found: list[Action], found_value: int, by: FoundBy) -> None:
        """Keep a better continuation, once its line replays as a win."""
        nonlocal continuation, value, value_by
        continuation, value, value_by = found, found_value, by
        line = given.with_actions(given.actions + tuple(found))
        check_line(line)
        result.line = line

    # Greedy playouts are cheap and often beat the first win found: start CP-SAT from the best.
    say(f"improving {objective}: greedy playouts", f"{objective} {value} found by {result.method}")
    interrupted = False
    try:
        _, found = best_playout(
            position,
            IMPROVING_PLAYOUTS,
            budget.seed,
            lambda a, end: score(objective, objective_value(position, a, objective, end)),
            keepers=tuple(FinishKeeper),  # the due seat's Finish saves discard twos
        )
    except KeyboardInterrupt:  # Ctrl-C keeps the win found so far, as everywhere in a solve
        found, interrupted = None, True
    found_value = None if found is None else objective_value(position, found, objective)
    if found is not None and found_value is not None and better(objective, found_value, value):
        take(found, found_value, FoundBy.GREEDY)
    ran(DecidedBy.GREEDY, first)
    from tranquility.solver.cpsat.improve import LNS, LNS_SHARE, applies, lns  # the improving search (OR-Tools)
    from tranquility.solver.cpsat.ladder import LADDER, LADDER_SHARE, OBJECTIVES, climb

    if not interrupted and value != bound and objective in OBJECTIVES:
        # The ladder first: its early steps are quick, and the bound it proves is the target
        # the LNS stops at (docs/model.md, The restricted-horizon ladder).
        before = value
        say(f"improving {objective}: {LADDER}", f"best {objective} {value} so far, bound {bound}")
        climbed = climb(
            position, objective, value, bound, None if budget.reproducible else LADDER_SHARE[objective] * left(),
            LADDER_SHARE[objective] * budget.cpsat_deterministic, budget.workers, budget.seed,
            progress=lambda b: say(f"improving {objective}: {LADDER}", f"best {objective} {value} so far, bound {b}"),
            proof=budget.proof,
            known=continuation,
        )
        result.stats["ladder"], interrupted = climbed.to_json(), climbed.status == "interrupted"
        proved = bound
        if climbed.steps:
            bound, bound_by = climbed.bound, BoundBy.LADDER
        if climbed.actions is not None:
            take(climbed.actions, objective_value(position, climbed.actions, objective), FoundBy.LADDER)
        ran(LADDER, before)
        if climbed.steps:  # its proofs, beside the value: "spare 22, no better line; bound 25 -> 24"
            phases[-1] = replace(phases[-1], found=f"{phases[-1].found}; bound {proved} -> {bound}")
    if not interrupted and value != bound and applies(position, objective):
        # Most of the time left re-solves windows of the best line (docs/explain.md); the rest
        # is the one CP-SAT run over the whole model, whose bound alone is proven.
        before = value
        say(f"improving {objective}: {LNS}", f"best {objective} {value} so far, bound {bound}")
        windows = lns(
            given, position, continuation, objective,
            None if budget.reproducible else LNS_SHARE * left(), budget.seed, target=bound,
            progress=lambda v: say(f"improving {objective}: {LNS}", f"best {objective} {v} so far, bound {bound}"),
        )
        result.stats["lns"], interrupted = windows.to_json(), windows.interrupted
        if better(objective, windows.value, value):
            take(windows.actions, windows.value, FoundBy.LNS)
        ran(LNS, before)
    before = value
    cpsat_ran = False
    proven = None
    try:
        if interrupted:
            info: dict = {"status": "interrupted"}
        elif value == bound:  # the line found already meets the bound: nothing to search
            info = {"status": "bound met"}
        else:
            from tranquility.solver.cpsat.solving import optimise

            say(f"improving {objective}: CP-SAT", f"best {objective} {value} so far, bound {bound}")
            cpsat_ran = True
            improved, proven, _, info = optimise(position, continuation, objective, _cpsat_limits(budget, left()))
            if improved is not None and better(objective, objective_value(position, improved, objective), value):
                take(improved, objective_value(position, improved, objective), FoundBy.CPSAT)
    except KeyboardInterrupt:
        info, interrupted = {"status": "interrupted"}, True
    result.stats["optimise"] = info
    result.interrupted = interrupted
    if cpsat_ran:
        ran(DecidedBy.CPSAT, before)
    if interrupted:
        phases[-1] = replace(phases[-1], found=phases[-1].found + " (interrupted)")
    if proven is not None and better(objective, bound, proven):  # CP-SAT's bound is the tighter
        bound, bound_by = proven, BoundBy.CPSAT
    result.best = Best(objective, value, bound, value == bound, value_by, bound_by)
    result.seconds += time.monotonic() - started
    result.phases += tuple(phases)
    return result


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
