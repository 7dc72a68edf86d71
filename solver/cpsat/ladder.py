"""The restricted-horizon ladder: a proven bound lowered one step at a time.

Each step asks CP-SAT whether a win reaches the bound at all: for spare, "a win keeps at
least b cards", which caps the discard-two turns and with them the game's length
(``spare_horizon``), so the step's model is short and tightly constrained; for turns, "a
win takes at most b turns", the model over b turns. An infeasible step proves the bound
one better; a feasible one gives a line that meets the bound, so that line is optimal;
a step out of time ends the ladder (docs/model.md, The restricted-horizon ladder).

While the Start is to come, a step can also be decided case by case on the turn the Start
is played (``Proof.START_SLOT``, docs/model.md, The Start-slot split): that proves some
optima the whole step leaves open (2 players seeds 1 and 3) and loses others the whole step
settles in 10-30 s. So by default (``Proof.BOTH``, on the clock with two threads) the whole
step and its split run side by side, one CP-SAT worker each, and the first answer is the
step's: each side is exact, so either answer is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from ortools.sat.python import cp_model
from tranquility.solver.cpsat.model import GameModel, build_model, horizon, no_cell_costs_more_than_one_beyond_the_slack
from tranquility.solver.cpsat.run_model import (
    CpsatLimits,
    add_hint,
    add_objective_cuts,
    interruptible_solve,
    line_facts,
    new_solver,
    objective_expr,
    plan_of,
    realise,
    run_stoppable,
)
from tranquility.solver.engine.actions import Action, PlayStart
from tranquility.solver.engine.state import State
from tranquility.solver.errors import InternalError
from tranquility.solver.search.bounds import least_total_cost, turns_without_discards
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.objectives import least_discard_turns, objective_bound
from tranquility.solver.verdicts import Objective, Proof

CELL_CAP = True  # False: the spare steps without the per-cell cost cap (to measure it)
LADDER = "ladder"  # the phase's method (Phase.method) and a bound's source (BoundBy)
LADDER_OBJECTIVES = (Objective.SPARE, Objective.TURNS)  # where the ladder's steps are proven
# Its share of the time left after the greedy playouts (for spare the LNS comes next; for
# turns only the optimising run, whose model is larger than a step's). Spare's went from 0.2
# to 0.6 with the cost cap, whose first steps then end in a proof or an optimal line more
# often; turns' from 0.6 to 0.2, since the optimising run, hinted with the greedy line, finds
# the shortest wins sooner than a step does (measured: docs/performance.md, the optimal suite).
LADDER_SHARE = {Objective.SPARE: 0.6, Objective.TURNS: 0.2}
# Of a split step's time, the share of the first look at every case (most end in it,
# infeasible); the cases still open then share the rest, the one nearest the known line's
# Start first (``LEAD_SHARE`` of it). With 2 players the spare-optimal line often plays the
# Start where the best playout does, and CP-SAT finds it there 9-14 s into that case: at
# 0.25 and 0.5 a 60 s solve gave the case 13 s and missed it (2 players seeds 7 and 12),
# at 0.15 and 0.8 it gets 24 s (docs/model.md, the Start-slot split; the suite run in
# docs/performance.md).
PROBE_SHARE = 0.15
LEAD_SHARE = 0.8
# A spare step's CP-SAT runs without the linear relaxation: its steps are decided in about
# half the CPU (docs/model.md, The linear relaxation in a step); turns' keep CP-SAT's own.
STEP_LINEARIZATION = {Objective.SPARE: 0}


@dataclass
class Climbed:
    """What the ladder proved: the ``bound`` after its steps (``steps`` of them proven
    infeasible), the line a feasible step found (it meets the bound, so it is optimal;
    None otherwise) and why it stopped."""

    bound: int
    steps: int = 0
    actions: list[Action] | None = None
    status: str = "ran"
    proof: Proof = Proof.WHOLE  # how each step was decided
    runs: int = 0  # CP-SAT runs: one per step, or one per case of a split step

    def to_json(self) -> dict:
        return {"bound": self.bound, "steps": self.steps, "status": self.status, "proof": self.proof.value, "runs": self.runs}


def spare_horizon(position: State, spare: int) -> int:
    """The most turns a win keeping at least ``spare`` cards can take. Every win keeps
    B - (C - L) - 2 (D - D*) - 2 R cards, where B is ``objective_bound`` for spare, C >= L
    its costs, D >= D* its discard twos and R its rocks "stay" payments; so keeping
    ``spare`` caps D at D* + (B - spare) // 2, and the win takes W + D turns (the
    finisher check). Never beyond the model's proven horizon."""
    cap = least_discard_turns(position) + (objective_bound(position, Objective.SPARE) - spare) // 2
    return min(horizon(position), turns_without_discards(position) + cap)


def step_model(position: State, objective: Objective, target: int) -> GameModel | None:
    """The model of a step: the wins over the step's horizon that keep at least ``target``
    cards (spare) or take at most ``target`` turns, with the step's cuts; None when the
    horizon is empty (no such win)."""
    turns = spare_horizon(position, target) if objective == Objective.SPARE else min(target, horizon(position))
    if turns <= 0:
        return None
    game = build_model(position, turns)
    add_objective_cuts(game, position)
    if objective == Objective.SPARE:
        game.model.add(objective_expr(game, objective) <= -target)
        # The same in costs and discard twos (spare_horizon's identity): implied, but
        # stated it lets CP-SAT see at once how little the line may pay.
        slack = objective_bound(position, objective) - target
        paid = objective_expr(game, Objective.COST) + 2 * sum(game.turns.discard)
        game.model.add(paid <= least_total_cost(position) + 2 * least_discard_turns(position) + slack)
        if CELL_CAP:
            no_cell_costs_more_than_one_beyond_the_slack(game, slack)
    return game


def step(
    position: State,
    objective: Objective,
    target: int,
    limits: CpsatLimits,
    proof: Proof = Proof.WHOLE,
    known: list[Action] | None = None,
    over: Callable[[], bool] = lambda: False,
) -> tuple[str, list[Action] | None, float, int]:
    """One step: is there a win keeping at least ``target`` cards (spare) or taking at
    most ``target`` turns? ("infeasible" | "feasible" | "unknown", the line found, the
    step's deterministic time, its CP-SAT runs). While the Start is to come,
    ``Proof.START_SLOT`` splits the step by the Start's slot and ``Proof.BOTH`` races that
    split against the whole step; ``known`` (a winning continuation short of the target)
    then hints the model and names the case looked at first. Once ``over()`` holds, the
    step's CP-SAT runs are stopped (it answers unknown)."""
    built_at = time.monotonic()
    game = step_model(position, objective, target)
    if game is None:
        return "infeasible", None, 0.0, 0
    if limits.seconds is not None:  # building the model is part of the step's time
        limits = replace(limits, seconds=max(0.01, limits.seconds - (time.monotonic() - built_at)))
    # Side by side only on the clock with two threads or more: which side answers first
    # depends on the machine, so a reproducible step (one thread) is the whole step.
    race = proof == Proof.BOTH and limits.seconds is not None and limits.workers >= 2
    if (race or proof == Proof.START_SLOT) and not position.start_played:
        first = None
        if known is not None:
            add_hint(game, line_facts(position, known))
            first = next((t for t, a in enumerate(known) if isinstance(a, PlayStart)), None)
        if race:
            return _whole_and_split(position, game, limits, first, over)
        return split_on_the_start_slot(position, game, limits, first, partial(interruptible_solve, over=over))
    solver = new_solver(limits)
    return (*_answer(position, game, solver, interruptible_solve(solver, game.model, over)), 1)


def _answer(
    position: State, game: GameModel, solver: cp_model.CpSolver, status: cp_model.CpSolverStatus
) -> tuple[str, list[Action] | None, float]:
    """A solved model's answer to a step, with the line of a feasible one."""
    if status == cp_model.INFEASIBLE:
        return "infeasible", None, solver.deterministic_time
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "feasible", realise(position, plan_of(game, solver)), solver.deterministic_time
    return "unknown", None, solver.deterministic_time


Run = Callable[[cp_model.CpSolver, cp_model.CpModel], cp_model.CpSolverStatus]  # one CP-SAT solve


def split_on_the_start_slot(
    position: State, game: GameModel, limits: CpsatLimits, first: int | None = None, run: Run = interruptible_solve
) -> tuple[str, list[Action] | None, float, int]:
    """Decide the step's model case by case, one case per slot the Start may be played
    in (every win plays exactly one Start, so the cases cover the step): a feasible case
    answers the step, and it is infeasible once every case is. First a short look at each
    case (``PROBE_SHARE`` of the time, evenly), then the cases still open share what is
    left: the one nearest ``first`` (the Start's slot in a known line) ``LEAD_SHARE`` of it,
    then each the time left over the cases after it. Cases go in order of their distance
    from ``first``. ``run`` solves each case. Returns as ``step`` does."""
    slots = sorted(range(len(game.turns.start)), key=lambda t: (0, t) if first is None else (abs(t - first), t))
    began, spent, runs = time.monotonic(), 0.0, 0

    def share(part: float, cases: int) -> CpsatLimits:
        seconds = None if limits.seconds is None else max(0.01, (limits.seconds - (time.monotonic() - began)) * part / cases)
        budget = None if limits.deterministic is None else max(0.01, (limits.deterministic - spent) * part / cases)
        return replace(limits, seconds=seconds, deterministic=budget)

    def case(slot: int, within: CpsatLimits) -> tuple[str, list[Action] | None]:
        nonlocal spent, runs
        runs += 1
        model = game.model.clone()
        model.add(model.get_bool_var_from_proto_index(game.turns.start[slot].index) == 1)
        solver = new_solver(within)
        answer, actions, used = _answer(position, game, solver, run(solver, model))
        spent += used
        return answer, actions

    probe = share(PROBE_SHARE, len(slots))
    still_open = []
    for slot in slots:
        answer, actions = case(slot, probe)
        if answer == "feasible":
            return answer, actions, spent, runs
        if answer == "unknown":
            still_open.append(slot)
    undecided = False
    for i, slot in enumerate(still_open):
        left = len(still_open) - i
        # The case nearest the known line's Start holds a line most often: it gets more.
        within = share(LEAD_SHARE, 1) if i == 0 and first is not None and left > 1 else share(1.0, left)
        answer, actions = case(slot, within)
        if answer == "feasible":
            return answer, actions, spent, runs
        undecided |= answer == "unknown"
    return ("unknown" if undecided else "infeasible"), None, spent, runs


class _RaceOver(Exception):
    """A side's next CP-SAT run was asked for after the other side had answered."""


class _Race:
    """The CP-SAT runs of two sides racing on one step: ``solve`` runs one (counting the
    runs and their deterministic time), unless the race is over; ``stop`` ends it and stops
    every run under way."""

    def __init__(self) -> None:
        self.over = threading.Event()
        self.runs, self.spent = 0, 0.0
        self._lock = threading.Lock()
        self._running: list[cp_model.CpSolver] = []

    def solve(self, solver: cp_model.CpSolver, model: cp_model.CpModel) -> cp_model.CpSolverStatus:
        with self._lock:
            if self.over.is_set():
                raise _RaceOver
            self._running.append(solver)
            self.runs += 1
        status = solver.solve(model)
        with self._lock:
            self.spent += solver.deterministic_time
        return status

    def stop(self) -> None:
        with self._lock:
            self.over.set()
            for solver in self._running:
                solver.stop_search()


def _whole_and_split(
    position: State, game: GameModel, limits: CpsatLimits, first: int | None, over: Callable[[], bool] = lambda: False
) -> tuple[str, list[Action] | None, float, int]:
    """The whole step and its split by the Start's slot side by side, each on one CP-SAT
    worker of ``limits``' time: the first side to prove or find answers the step, and the
    other is stopped; both are, once ``over()`` holds. Returns as ``step`` does (the runs
    of both sides)."""
    one = replace(limits, workers=1)
    race = _Race()
    answers: list[tuple[str, list[Action] | None]] = []
    failed: list[BaseException] = []  # a side's error, raised again in the caller's thread

    def whole() -> tuple[str, list[Action] | None]:
        solver = new_solver(one)
        answer, actions, _ = _answer(position, game, solver, race.solve(solver, game.model))
        return answer, actions

    def split() -> tuple[str, list[Action] | None]:
        answer, actions, _, _ = split_on_the_start_slot(position, game, one, first, run=race.solve)
        return answer, actions

    def side(decide: Callable[[], tuple[str, list[Action] | None]]) -> None:
        try:
            answer = decide()
        except _RaceOver:
            return
        except BaseException as error:  # a bug must not pass for an undecided step
            failed.append(error)
            race.stop()
            return
        answers.append(answer)
        if answer[0] != "unknown":
            race.stop()

    sides = [partial(side, decide) for decide in (whole, split)]
    # Stopped again while it runs: a run that was starting when the race ended has its solver now.
    if run_stoppable(sides, race.stop, lambda: race.over.is_set() or over(), name="cp-sat race"):
        raise KeyboardInterrupt
    if failed:
        raise failed[0]
    decided = [a for a in answers if a[0] != "unknown"]
    if len({answer for answer, _ in decided}) > 1:
        raise InternalError("the whole step and its split by the Start's slot answer differently")
    answer, actions = decided[0] if decided else ("unknown", None)
    return answer, actions, race.spent, race.runs


def climb(
    position: State,
    objective: Objective,
    value: int,
    bound: int,
    budget: Budget,
    progress: Callable[[int], None] | None = None,
    known: list[Action] | None = None,
    incumbent: Callable[[], int] | None = None,
) -> Climbed:
    """Lower the proven ``bound`` towards the best ``value`` found, one step at a time,
    within the budget's seconds on its workers (reproducible: within its CP-SAT
    deterministic time on one worker). Each step gets all the time left: a step is never
    easier than the one before it. ``progress`` hears each bound proven. Ctrl-C ends it
    with what is proven so far. The budget's ``proof`` and ``known`` (the best line found so
    far, a winning continuation): ``step``. ``incumbent``: the value of the best line a
    search beside the ladder holds now (the caller takes that line afterwards); once it
    meets the bound, the ladder is done ("optimal", with no line of its own), and a step
    under way is stopped once it meets the step's target."""
    started = time.monotonic()
    seconds = None if budget.reproducible else budget.seconds
    deterministic, workers, seed, proof = budget.cpsat_deterministic, budget.workers, budget.seed, budget.proof
    if proof == Proof.BOTH and (seconds is None or workers < 2):
        proof = Proof.WHOLE  # the race needs the clock and a CP-SAT worker for each side (step)
    down = objective == Objective.SPARE  # spare's bound is lowered, turns' raised
    linearization = STEP_LINEARIZATION.get(objective)

    def met(target: int) -> bool:
        """The best line known keeps ``target`` cards (spare) or takes ``target`` turns."""
        if incumbent is None:
            return value == target
        return (max if down else min)(value, incumbent()) == target

    climbed = Climbed(bound, proof=proof)
    try:
        while not met(climbed.bound):
            if seconds is None:
                if deterministic <= 0.05:
                    climbed.status = "out of time"
                    break
                limits = CpsatLimits(workers=1, deterministic=deterministic, seed=seed, linearization=linearization)
            else:
                left = seconds - (time.monotonic() - started)
                if left < 0.5:
                    climbed.status = "out of time"
                    break
                limits = CpsatLimits(workers=workers, seconds=left, seed=seed, linearization=linearization)
            target = climbed.bound
            status, actions, spent, runs = step(position, objective, target, limits, proof, known, partial(met, target))
            deterministic -= spent
            climbed.runs += runs
            if status == "feasible":
                climbed.actions, climbed.status = actions, "optimal"
                break
            if status == "unknown" and met(target):
                continue  # a line beside the ladder meets the proven bound: done, optimal
            if status == "unknown":
                climbed.status = "out of time"
                break
            climbed.bound += -1 if down else 1
            climbed.steps += 1
            if progress is not None:
                progress(climbed.bound)
        else:
            climbed.status = "optimal"
    except KeyboardInterrupt:
        climbed.status = "interrupted"
    return climbed
