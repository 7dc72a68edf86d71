"""The restricted-horizon ladder (issue 14): a proven bound lowered one step at a time.

Each step asks CP-SAT whether a win reaches the bound at all: for spare, "a win keeps at
least b cards", which caps the discard-two turns and with them the game's length
(``spare_horizon``), so the step's model is short and tightly constrained; for turns, "a
win takes at most b turns", the model over b turns. An infeasible step proves the bound
one better; a feasible one gives a line that meets the bound, so that line is optimal;
a step out of time ends the ladder (docs/model.md, The restricted-horizon ladder).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from .actions import Action
from .cpsat import Limits, add_objective_cuts, interruptible_solve, new_solver, objective_expr, plan_of, realise
from .model import build_model, horizon, no_cell_costs_more_than_one_beyond_the_slack
from .objectives import least_discard_turns, objective_bound, turns_without_discards
from .search import least_total_cost
from .state import State
from .verdicts import Objective

CELL_CAP = True  # False: the spare steps without the per-cell cost cap (to measure it)
LADDER = "ladder"  # the phase's method (Phase.method) and a bound's source (BoundBy)
OBJECTIVES = (Objective.SPARE, Objective.TURNS)  # where the ladder's steps are proven
# Its share of the time left after the improving playouts (for spare the LNS comes next; for
# turns only the optimising run, whose model is larger than a step's). Spare's went from 0.2
# to 0.6 with the cost cap, whose first steps then end in a proof or an optimal line more
# often; turns' from 0.6 to 0.2, since the optimising run, hinted with the greedy line, finds
# the shortest wins sooner than a step does (measured: docs/performance.md, the optimal suite).
LADDER_SHARE = {Objective.SPARE: 0.6, Objective.TURNS: 0.2}


@dataclass
class Climbed:
    """What the ladder proved: the ``bound`` after its steps (``steps`` of them proven
    infeasible), the line a feasible step found (it meets the bound, so it is optimal;
    None otherwise) and why it stopped."""

    bound: int
    steps: int = 0
    actions: list[Action] | None = None
    status: str = "ran"

    def to_json(self) -> dict:
        return {"bound": self.bound, "steps": self.steps, "status": self.status}


def spare_horizon(position: State, spare: int) -> int:
    """The most turns a win keeping at least ``spare`` cards can take. Every win keeps
    B - (C - L) - 2 (D - D*) - 2 R cards, where B is ``objective_bound`` for spare, C >= L
    its costs, D >= D* its discard twos and R its rocks "stay" payments; so keeping
    ``spare`` caps D at D* + (B - spare) // 2, and the win takes W + D turns (the
    finisher check). Never beyond the model's proven horizon."""
    cap = least_discard_turns(position) + (objective_bound(position, Objective.SPARE) - spare) // 2
    return min(horizon(position), turns_without_discards(position) + cap)


def step(position: State, objective: Objective, target: int, limits: Limits) -> tuple[str, list[Action] | None, float]:
    """One step: is there a win keeping at least ``target`` cards (spare) or taking at
    most ``target`` turns? ("infeasible" | "feasible" | "unknown", the line found, the
    step's deterministic time)."""
    turns = spare_horizon(position, target) if objective == Objective.SPARE else min(target, horizon(position))
    if turns <= 0:
        return "infeasible", None, 0.0
    built_at = time.monotonic()
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
    if limits.seconds is not None:  # building the model is part of the step's time
        limits = replace(limits, seconds=max(0.01, limits.seconds - (time.monotonic() - built_at)))
    solver = new_solver(limits)
    status = interruptible_solve(solver, game.model)
    if status == cp_model.INFEASIBLE:
        return "infeasible", None, solver.deterministic_time
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "feasible", realise(position, plan_of(game, solver)), solver.deterministic_time
    return "unknown", None, solver.deterministic_time


def climb(
    position: State,
    objective: Objective,
    value: int,
    bound: int,
    seconds: float | None,
    deterministic: float = 0.0,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
) -> Climbed:
    """Lower the proven ``bound`` towards the best ``value`` found, one step at a time,
    within ``seconds`` (None: within ``deterministic`` time on one worker, reproducible).
    Each step gets all the time left: a step is never easier than the one before it.
    ``progress`` hears each bound proven. Ctrl-C ends it with what is proven so far."""
    started = time.monotonic()
    down = objective == Objective.SPARE  # spare's bound is lowered, turns' raised
    climbed = Climbed(bound)
    try:
        while climbed.bound != value:
            if seconds is None:
                if deterministic <= 0.05:
                    climbed.status = "out of time"
                    break
                limits = Limits(workers=1, deterministic=deterministic, seed=seed)
            else:
                left = seconds - (time.monotonic() - started)
                if left < 0.5:
                    climbed.status = "out of time"
                    break
                limits = Limits(workers=workers, seconds=left, seed=seed)
            status, actions, spent = step(position, objective, climbed.bound, limits)
            deterministic -= spent
            if status == "feasible":
                climbed.actions, climbed.status = actions, "optimal"
                break
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
