"""Improving a win for an objective (``solve --objective``): the greedy baseline's first
playouts, the ladder's proofs, the rest of the baseline, greedy restarts, the window
search, then CP-SAT over the whole model,
warm-started from the best line (docs/model.md, Objectives). On the clock with two cores or
more, the spare ladder's CP-SAT and the greedy baseline and restarts run side by side.
Each step takes the best line so far and returns the next; the result is a new one.
Loaded only when an objective is asked for."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TypeVar

from tranquility.solver.analysis.results import (
    IMPROVE,
    Best,
    Phase,
    Progress,
    Result,
    Step,
    check_line,
    cpsat_limits,
    position_of,
)
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.state import State
from tranquility.solver.search.baseline import BASELINE, KEEPERS, Baseline, BaselineSeries
from tranquility.solver.search.budget import Budget, Deadline
from tranquility.solver.search.greedy import RESTARTS, Restarted, restarts
from tranquility.solver.search.objectives import (
    BoundBy,
    FoundBy,
    better,
    bound_source,
    objective_bound,
    objective_value,
    score,
    scorer,
)
from tranquility.solver.verdicts import DecidedBy, Objective, Proof

IMPROVING_PLAYOUTS = 200  # the baseline's playouts per keeper before the ladder (about 2 s)
IMPROVING = "improving"  # their stats' key
# Of the time left, on the clock: the first playouts' most, the rest of the baseline's after
# the ladder (its 2,000 playouts take about 10 s at 2-3 players, and the ladder leaves about
# 23 s of 60), then the greedy restarts' (measured: docs/performance.md).
IMPROVING_SHARE = 0.5
BASELINE_SHARE = 0.8
RESTARTS_SHARE = 0.2
# With the greedy phases beside it, the spare ladder gives them no time of its own: of the
# time left it takes this share at least, and all but AFTER_BESIDE seconds of it when that
# is more (a long solve's), the LNS and the CP-SAT run the rest (measured against the
# sequential order and --reproducible: docs/model.md, The schedule on two cores).
BESIDE_LADDER_SHARE = 0.8
AFTER_BESIDE = 6.0
BESIDE = Objective.SPARE  # the objective whose ladder runs with the greedy phases beside it
# Beside the ladder, after the first playouts: restarts and the baseline's playouts in turn,
# about the same time each (a restart costs half a playout: docs/performance.md).
BESIDE_RESTARTS = 200
BESIDE_PLAYOUTS = 50  # per Finish keeper
T = TypeVar("T")


def improve(
    result: Result, budget: Budget, objective: Objective, progress: Progress | None, position: State | None = None
) -> Result:
    """Optimise the objective: the baseline's first playouts, the ladder's proofs, the rest
    of the baseline and greedy restarts (for spare on two cores or more, these greedy
    phases beside the ladder instead), the LNS, then CP-SAT over the whole model,
    warm-started from the best line found (docs/model.md, Objectives). Each step takes the best line so far and returns the next;
    the result is a new one. ``position``: the one the win starts from, when the caller has it
    (else the win's line is replayed to it)."""
    started = time.monotonic()  # before OR-Tools loads: its import is part of the budget
    # Ctrl-C is caught by each search as it runs; one that comes between them (reading the
    # bound, a step's import of OR-Tools) keeps the best line so far too, never a traceback.
    try:
        run, best = _started(result, budget, objective, progress, started, position)
    except KeyboardInterrupt:
        return replace(result, interrupted=True)
    for step in (_improving_playouts, _ladder, _greedy_baseline, _greedy_restarts, _windows, _whole_model):
        try:
            best = step(run, best)
        except KeyboardInterrupt:
            best = replace(best, interrupted=True)
            break
    return replace(
        result,
        line=run.given.with_actions(run.given.actions + best.continuation),
        best=Best(objective, best.value, best.bound, best.value == best.bound, best.value_by, best.bound_by),
        seconds=result.seconds + time.monotonic() - started,
        phases=result.phases + tuple(run.phases),
        stats={**result.stats, **run.stats},
        interrupted=best.interrupted,
        end=best.end,
    )


def _started(
    result: Result, budget: Budget, objective: Objective, progress: Progress | None, started: float, position: State | None
) -> tuple[_Improvement, _Best]:
    """The improvement's run and its first best line, the win ``result`` found."""
    assert result.line is not None  # a win's
    given = result.line.with_actions(result.line.actions[: result.prefix])  # the line to the position
    if position is None:
        _, position = position_of(given)
    run = _Improvement(given, position, objective, budget, progress, started, result.seconds)
    run.greedy_beside = objective == BESIDE and not budget.reproducible and budget.threads >= 2
    continuation = result.line.actions[result.prefix :]
    assert result.end is not None  # the won state, from the replay of the line
    best = _Best(
        continuation, objective_value(position, list(continuation), objective), FoundBy(result.method),
        objective_bound(position, objective), bound_source(position), result.end,
    )
    return run, best


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
    greedy_beside: bool = False  # the baseline and the restarts ran beside the ladder
    series: BaselineSeries | None = None  # the baseline's first playouts, when played before the thread

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
    """The baseline's first ``IMPROVING_PLAYOUTS`` playouts per keeper: cheap, and often
    better than the first win found, so the ladder starts from the best of them. With the
    whole baseline beside the ladder, only when the ladder's steps take a hint (the split by
    the Start's slot: the best line's Start names the case looked at first); a whole step
    takes none, and the thread plays them first anyway."""
    if run.greedy_beside and _ladder_proof(run) != Proof.START_SLOT:
        return best
    return _playouts(run, best, IMPROVING_PLAYOUTS, IMPROVING_SHARE, IMPROVING, DecidedBy.GREEDY, beside=True)


def _ladder_proof(run: _Improvement) -> Proof:
    """How the ladder decides its steps: as asked (``--proof``), but beside the greedy thread,
    with one CP-SAT thread left to it, ``both`` (a race) is the whole step alone: without the
    linear relaxation it decides more steps of the optimal suite than the split alone (2
    players: 10 of 15 first steps against 7, docs/model.md, The linear relaxation in a step)."""
    proof = run.budget.proof
    if run.greedy_beside and proof == Proof.BOTH and run.budget.threads - 1 < 2:
        return Proof.WHOLE
    return proof


def _greedy_baseline(run: _Improvement, best: _Best) -> _Best:
    """The whole greedy baseline (``greedy_baseline``: the optimal suite's own playouts,
    scored on the objective), so that the line returned is never worse than its best. It
    runs after the ladder: the ladder's proofs need its time (measured: with the baseline
    and the restarts before it, the optimal suite proved 21 of 60 spare deals where it had
    proved 49), and a proven optimum is at least the baseline's best anyway."""
    return _playouts(run, best, run.budget.greedy_playouts, BASELINE_SHARE, BASELINE, BASELINE)


def _playouts(run: _Improvement, best: _Best, count: int, share: float, key: str, how: str, beside: bool = False) -> _Best:
    """The baseline's first ``count`` playouts per keeper, timed as the phase ``how``, their
    stats under ``key``. On the clock they may take ``share`` of the time left, so a short
    solve plays what fits and says how many. Not with the greedy thread beside the ladder,
    which plays them, unless ``beside``: the thread's baseline then plays on from these."""
    objective, position = run.objective, run.position
    if best.settled or (run.greedy_beside and not beside):
        return best
    run.say(f"improving {objective}: greedy {key}", f"best {objective} {best.value} so far, bound {best.bound}")
    first = best.value
    seconds = None if run.budget.reproducible else share * run.left()
    # Beside the thread, the series is the whole baseline's, for the thread to play on.
    series = BaselineSeries(position, objective, run.budget.greedy_playouts if run.greedy_beside else count, run.budget.seed)
    series.play(Deadline(seconds=seconds), count)
    baseline = series.result(count)
    if run.greedy_beside:
        run.series = series
    best = _took_baseline(run, best, baseline, key)
    run.ran(how, first, best.value)
    run.phases[-1] = replace(run.phases[-1], found=f"{run.phases[-1].found}; {baseline.in_words}")
    return best


def _took_baseline(run: _Improvement, best: _Best, baseline: Baseline, key: str) -> _Best:
    """The baseline's stats under ``key``, and its best line if it beats ``best``."""
    run.stats[key] = baseline.to_json()
    best = replace(best, interrupted=best.interrupted or baseline.interrupted)
    if baseline.line is not None and baseline.value is not None and better(run.objective, baseline.value, best.value):
        best = run.take(best, list(baseline.line), baseline.value, FoundBy.GREEDY)
    return best


def _greedy_restarts(run: _Improvement, best: _Best) -> _Best:
    """Greedy restarts from the best line's turns, scored on the objective (``restarts``):
    on the clock for ``RESTARTS_SHARE`` of the time left, else a count (as many as the
    baseline's playouts). Their best line is the LNS's incumbent and hint."""
    if best.settled or run.greedy_beside:
        return best
    run.say(f"improving {run.objective}: greedy restarts", f"best {run.objective} {best.value} so far, bound {best.bound}")
    first = best.value
    count = run.budget.greedy_playouts * len(KEEPERS)
    deadline = Deadline(nodes=count) if run.budget.reproducible else Deadline(seconds=RESTARTS_SHARE * run.left())
    try:
        found: Restarted | None = _restarts(run, list(best.continuation), best.bound, deadline, run.budget.seed)
    except KeyboardInterrupt:  # Ctrl-C keeps the best line so far, as everywhere in a solve
        found = None
    best = _took_restarts(run, best, found)
    run.ran(RESTARTS, first, best.value)
    return best


def _restarts(run: _Improvement, line: list[Action], bound: int, deadline: Deadline, seed: int) -> Restarted:
    """Greedy restarts from ``line``'s turns, scored on the objective, until ``deadline``
    or the ``bound``."""
    position, objective = run.position, run.objective
    return restarts(position, line, scorer(position, objective), deadline, seed, KEEPERS, score(objective, bound))


def _took_restarts(run: _Improvement, best: _Best, found: Restarted | None) -> _Best:
    """The restarts' stats, and their line if it beats ``best``; None: Ctrl-C came."""
    if found is None:
        run.stats[RESTARTS] = {"status": "interrupted"}
        return replace(best, interrupted=True)
    run.stats[RESTARTS] = {"restarts": found.restarts, "taken": found.taken}
    value = objective_value(run.position, found.line, run.objective)
    if better(run.objective, value, best.value):
        best = run.take(best, found.line, value, FoundBy.RESTARTS)
    return best


def _ladder(run: _Improvement, best: _Best) -> _Best:
    """The ladder first: its early steps are quick, and the bound it proves is the target the
    LNS stops at (docs/model.md, The restricted-horizon ladder)."""
    from tranquility.solver.cpsat.ladder import LADDER, LADDER_OBJECTIVES, LADDER_SHARE, climb  # OR-Tools

    objective, budget = run.objective, run.budget
    if best.settled or objective not in LADDER_OBJECTIVES:
        return best
    before, proved = best.value, best.bound
    doing = f"improving {objective}: {LADDER}"
    run.say(doing, f"best {objective} {best.value} so far, bound {best.bound}")
    left = run.left()
    share = beside_share(left) if run.greedy_beside else LADDER_SHARE[objective]
    part = budget.part(share, left)
    beside = None
    if run.greedy_beside:
        # One thread plays greedy, CP-SAT has the others: one strong run on two cores, the
        # whole step and its split side by side only from two CP-SAT threads on.
        part = replace(part, workers=budget.threads - 1, proof=_ladder_proof(run))
        beside = _GreedyBeside(run, best, part.seconds)
    try:
        climbed = climb(
            run.position, objective, best.value, best.bound, part,
            progress=lambda b: run.say(doing, f"best {objective} {before} so far, bound {b}"),
            known=list(best.continuation),
            incumbent=None if beside is None else beside.holds,
        )
    finally:
        ended = None if beside is None else beside.end()
    run.stats["ladder"] = climbed.to_json()
    best = replace(best, interrupted=climbed.status == "interrupted")
    if climbed.steps:
        best = replace(best, bound=climbed.bound, bound_by=BoundBy.LADDER)
    if climbed.actions is not None:
        best = run.take(best, climbed.actions, objective_value(run.position, climbed.actions, objective), FoundBy.LADDER)
    run.ran(LADDER, before, best.value)
    if climbed.steps:  # its proofs, beside the value: "spare 22, no better line; bound 25 -> 24"
        run.phases[-1] = replace(run.phases[-1], found=f"{run.phases[-1].found}; bound {proved} -> {best.bound}")
    return best if beside is None else beside.taken(run, best, interrupted=bool(ended))


def beside_share(left: float) -> float:
    """The spare ladder's share of the ``left`` seconds with the greedy thread beside it: a
    step that proves needs its CPU whole (3 players seed 1: a first step feasible after
    52.5 s beside the thread, where 0.8 of 60 s had cut it), so a long solve leaves the LNS
    and the CP-SAT run ``AFTER_BESIDE`` seconds, a short one the rest of ``BESIDE_LADDER_SHARE``."""
    return max(BESIDE_LADDER_SHARE, 1.0 - AFTER_BESIDE / left) if left > 0 else BESIDE_LADDER_SHARE


class _GreedyBeside:
    """Greedy in a thread of its own until ``end``, beside the ladder, whose CP-SAT runs leave
    Python's lock free (docs/model.md, The schedule on two cores): the baseline's first
    ``IMPROVING_PLAYOUTS`` playouts per keeper (unless played before the ladder: it plays on
    from them), then in turn ``BESIDE_RESTARTS`` greedy
    restarts from the best line and the baseline's next ``BESIDE_PLAYOUTS`` per keeper
    (about the same time each), so that on a loaded machine, where the whole baseline does
    not fit, the restarts still run; once the baseline is done, restarts alone. For the
    ladder's ``seconds`` at most (a step's model built on a loaded machine can overrun
    them). Its lines are taken once the ladder is done, like any other."""

    def __init__(self, run: _Improvement, best: _Best, seconds: float):
        self.stop = threading.Event()
        self.series = run.series or BaselineSeries(run.position, run.objective, run.budget.greedy_playouts, run.budget.seed)
        self.restarted: Restarted | None = None
        self.seconds = [0.0, 0.0]  # the baseline's, the restarts'
        self.failed: BaseException | None = None
        self.value = best.value  # the value of the best line the thread holds (``taken`` takes it)
        self.until = time.monotonic() + seconds
        self._thread = threading.Thread(target=self._play, args=(run, best), name="greedy beside", daemon=True)
        self._thread.start()

    def _deadline(self, nodes: int | None = None) -> Deadline:
        return Deadline(seconds=self.until - time.monotonic(), nodes=nodes, stop=self.stop)

    def holds(self) -> int:
        """The value of the best line the thread holds now: the ladder is done once its
        bound meets it (``climb``'s incumbent)."""
        return self.value

    def _play(self, run: _Improvement, best: _Best) -> None:
        position, objective, series = run.position, run.objective, self.series
        try:
            self._timed(0, partial(series.play, self._deadline(), IMPROVING_PLAYOUTS))
            line, value = list(best.continuation), best.value
            rounds = restarts_run = taken = 0
            while value != best.bound and not self._deadline().expired():
                if series.best is not None and better(objective, objective_value(position, series.best, objective), value):
                    line, value = list(series.best), objective_value(position, series.best, objective)
                    self.value = value
                seed = run.budget.seed + rounds  # each round's draws its own
                found = self._timed(1, partial(_restarts, run, line, best.bound, self._deadline(BESIDE_RESTARTS), seed))
                line, value = found.line, objective_value(position, found.line, objective)
                restarts_run, taken, rounds = restarts_run + found.restarts, taken + found.taken, rounds + 1
                self.restarted = Restarted(found.line, found.value, restarts_run, taken)
                self.value = value  # after the line it is the value of: the restarts keep only lines as good
                played = series.series.played // len(KEEPERS)
                self._timed(0, partial(series.play, self._deadline(), played + BESIDE_PLAYOUTS))
        except BaseException as error:  # a bug must not pass for a search that found nothing
            self.failed = error

    def _timed(self, part: int, work: Callable[[], T]) -> T:
        began = time.monotonic()
        try:
            return work()
        finally:
            self.seconds[part] += time.monotonic() - began

    def end(self) -> bool:
        """Stop the thread and wait for it (a playout at most); whether Ctrl-C came then."""
        self.stop.set()
        interrupted = False
        while self._thread.is_alive():
            try:
                self._thread.join()
            except KeyboardInterrupt:
                interrupted = True
        if self.failed is not None:
            raise self.failed
        return interrupted

    def taken(self, run: _Improvement, best: _Best, interrupted: bool) -> _Best:
        """The best after what the thread found, each part timed as a phase of its own
        (they overlap the ladder's, which says so)."""
        objective = run.objective
        best = replace(best, interrupted=best.interrupted or interrupted)
        baseline = self.series.result()
        before = best.value
        best = _took_baseline(run, best, baseline, BASELINE)
        found = f"{_change(objective, before, best.value)}, beside the ladder; {baseline.in_words}"
        run.phases.append(Phase(IMPROVE, BASELINE, self.seconds[0], found))
        if self.restarted is not None:
            before = best.value
            best = _took_restarts(run, best, self.restarted)
            found = f"{_change(objective, before, best.value)}, beside the ladder"
            run.phases.append(Phase(IMPROVE, RESTARTS, self.seconds[1], found))
        return best


def _windows(run: _Improvement, best: _Best) -> _Best:
    """Most of the time left re-solves windows of the best line (docs/explain.md); the rest is
    the one CP-SAT run over the whole model, whose bound alone is proven."""
    from tranquility.solver.cpsat.large_neighbourhoods import LNS, LNS_SHARE, applies, lns  # OR-Tools

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
            from tranquility.solver.cpsat.run_model import optimise

            run.say(f"improving {objective}: CP-SAT", f"best {objective} {best.value} so far, bound {best.bound}")
            searched = True
            limits = cpsat_limits(run.budget, run.left())
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
