"""The improving search: a large neighbourhood search (LNS) over a winning line.

The CP-SAT model of the whole game, warm-started from a greedy line, rarely improves it
(the hint is partial, and the schedule is the hard part). The LNS keeps the current best
line and, round after round, frees a window of its turns: every turn outside the window
keeps the line's facts (its kind; for an island, the cell and the island), the model is
hinted with the whole line (a complete assignment, so CP-SAT starts from a solution) and
a short CP-SAT run re-solves the window. Two kinds of window (``Rest``) say what the
turns after the window keep. Each better line the model finds is replayed by the rules
engine before it is accepted. The windows are drawn from a seeded generator, and each
round's CP-SAT run is budgeted by deterministic time when reproducible, so a seed gives
the same rounds and the same line (docs/explain.md, The improving search).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from ortools.sat.python import cp_model
from tranquility.solver.cpsat.model import GameModel, build_model, horizon
from tranquility.solver.cpsat.run_model import (
    CpsatLimits,
    LineFacts,
    interruptible_solve,
    line_facts,
    new_solver,
    objective_expr,
    plan_of,
    realise,
)
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import InternalError
from tranquility.solver.search.bounds import least_total_cost
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.objectives import better, objective_value
from tranquility.solver.verdicts import Objective

ENABLED = True  # False: solve improves by greedy playouts and one CP-SAT run only (to measure)
LNS = "lns"  # the improve phase's method (Phase.method)
HINT_REFUSED = "the model found no assignment of the line in time"  # Improved.status
LNS_SHARE = 0.75  # of the time left after the ladder; the rest is the full CP-SAT run
ROUND_SECONDS = 3.0  # wall-clock budget of one round's CP-SAT run
ROUND_DETERMINISTIC = 1.0  # its deterministic time when reproducible
REPRODUCIBLE_ROUNDS = 24  # rounds of a reproducible run (no clock decides when it stops)
FIRST_LENGTH, SHORTEST = 12, 6  # a window's turns at first, and at least
GROW, SHRINK = 4, 2  # its length after a round solved to optimality, or out of time
PROBING = 0  # the window's length in turns, drawn in this range


class Rest(StrEnum):
    """What the turns after the window keep of the line (the turns before it keep all)."""

    TIMES = "times"  # every fact, at the same turn: the window can pay less for its cells
    NOTHING = "nothing"  # the window runs to the end: the game may end sooner or cheaper


@dataclass(frozen=True)
class Window:
    """Turns ``first`` to ``end`` (exclusive) of the line are free; ``rest`` says what the
    turns from ``end`` on keep."""

    first: int
    end: int
    rest: Rest


@dataclass
class Improved:
    """What the LNS did: the best continuation and its value, the rounds run, the lines
    accepted per kind of window, and whether Ctrl-C ended it."""

    actions: list[Action]
    value: int
    rounds: int = 0
    accepted: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False
    status: str = "ran"

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "accepted": self.accepted, "status": self.status, "value": self.value}


def applies(position: State, objective: Objective) -> bool:
    """The LNS fixes cells by their one island: it runs where no Sea Monster is still to
    come (one would make a cell hold several islands).
    Not for turns: only a window that runs to the end can shorten a line, and the full
    CP-SAT run already proves most turn counts optimal (docs/explain.md)."""
    if not ENABLED or objective == Objective.TURNS:
        return False
    return position.rules.monsters == position.monsters_played


def draw_window(rng: random.Random, turns: int, lengths: Mapping[Rest, int]) -> Window:
    """A window of the line's ``turns``, drawn by ``rng``: a kind, a length about the
    kind's ``lengths`` (within two turns), a start."""
    rest = rng.choice(tuple(Rest))
    length = max(1, min(turns, lengths[rest] + rng.randint(-2, 2)))
    first = turns - length if rest == Rest.NOTHING else rng.randint(0, turns - length)
    return Window(first, first + length, rest)


def lns(
    prefix: Line,
    position: State,
    actions: list[Action],
    objective: Objective,
    budget: Budget,
    target: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Improved:
    """Improve the winning continuation ``actions`` from ``position`` (the position
    ``prefix`` reaches) for ``objective``: rounds of window re-solves, each on one CP-SAT
    worker with the budget's seed, until its seconds run out (reproducible:
    ``REPRODUCIBLE_ROUNDS`` rounds on deterministic time), or the value reaches ``target``
    (a proven bound). Never returns a worse line; every line it accepts
    has replayed as a win. ``progress`` hears each better value. Ctrl-C ends it with the
    best line so far."""
    started = time.monotonic()
    seconds, seed = None if budget.reproducible else budget.seconds, budget.seed
    best = Improved(list(actions), objective_value(position, actions, objective))
    rng = random.Random(seed)
    # Each kind's window grows while its rounds are solved to optimality without a better
    # line (the neighbourhood is too small) and shrinks while they run out of time.
    lengths = dict.fromkeys(Rest, FIRST_LENGTH)
    try:
        game = _base_model(position, objective, len(actions))
        solution = _assignment(game, line_facts(position, best.actions), seed)
        if solution is None:
            best.status = HINT_REFUSED
            return best
        while best.value != target:
            if seconds is None:
                if best.rounds >= REPRODUCIBLE_ROUNDS:
                    break
                limits = CpsatLimits(workers=1, deterministic=ROUND_DETERMINISTIC, seed=seed)
            else:
                left = seconds - (time.monotonic() - started)
                if left < 0.5:
                    break
                limits = CpsatLimits(workers=1, seconds=min(ROUND_SECONDS, left), seed=seed)
            window = draw_window(rng, len(best.actions), lengths)
            best.rounds += 1
            found, proven = _round(game, position, line_facts(position, best.actions), solution, window, limits)
            value = best.value if found is None else objective_value(position, found, objective)
            if found is None or not better(objective, value, best.value):
                grown = lengths[window.rest] + GROW if proven else lengths[window.rest] - SHRINK
                lengths[window.rest] = max(SHORTEST, min(len(best.actions), grown))
                continue
            _check(prefix, found)
            best.actions, best.value = found, value
            best.accepted[window.rest] = best.accepted.get(window.rest, 0) + 1
            if progress is not None:
                progress(value)
            solution = _assignment(game, line_facts(position, found), seed)
            if solution is None:
                best.status = HINT_REFUSED
                break
    except KeyboardInterrupt:
        best.interrupted = True
        best.status = "interrupted"
    return best


def _check(prefix: Line, actions: list[Action]) -> None:
    """The rules engine replays every line the LNS accepts; the model's line that does
    not win is a bug."""
    verdict = verify(prefix.with_actions(prefix.actions + tuple(actions)))
    if not (verdict.legal and verdict.won):
        raise InternalError(f"the improving search's line does not replay as a win: {verdict.error or verdict.status}")


def _base_model(position: State, objective: Objective, turns: int) -> GameModel:
    """The model of the position with the objective, over as many turns as the line has
    plus one round of seats (a longer line is rarely better), within the proven horizon."""
    game = build_model(position, min(horizon(position), turns + position.players))
    # The valid cut of cpsat.optimise: no win pays less than least_total_cost.
    game.model.add(objective_expr(game, Objective.COST) >= least_total_cost(position))
    game.model.minimize(objective_expr(game, objective))
    return game


def _fix(proto, game: GameModel, facts: LineFacts, turns: range) -> None:
    """Fix the line's facts of ``turns`` in ``proto`` (a copy of the game's model): the
    turn's kind and, for an island, its cell at that turn and the island in the cell.
    (Fixing only the island in each cell, leaving the schedule free, was tried: those
    rounds ran out of time and never improved a line; docs/explain.md.)"""
    flags = {"island": game.turns.island, "start": game.turns.start, "finish": game.turns.finish, "discard": game.turns.discard}
    fixed = []
    for t in turns:
        kind, card, cell = facts.turns[t]
        fixed.append(flags[kind][t])
        if kind == "island":
            fixed += [game.goes[card, cell], game.fill[cell, t]]
    for flag in fixed:
        domain = proto.variables[flag.index].domain
        domain.clear()
        domain.extend([1, 1])


def _assignment(game: GameModel, facts: LineFacts, seed: int) -> list[int] | None:
    """Every variable's value in the line (the model with all its facts fixed): a complete
    hint, from which CP-SAT starts at a solution. None if the model does not find it."""
    model = game.model.clone()
    _fix(model.proto, game, facts, range(len(facts.turns)))
    model.clear_objective()  # any completion will do
    solver = new_solver(CpsatLimits(workers=1, deterministic=5.0, seed=seed))
    status = interruptible_solve(solver, model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return list(solver.response_proto.solution)


def _round(
    game: GameModel, position: State, facts: LineFacts, solution: list[int], window: Window, limits: CpsatLimits
) -> tuple[list[Action] | None, bool]:
    """One LNS round: the model with the facts outside ``window`` fixed, hinted with the
    line's complete ``solution``. The continuation CP-SAT finds (None if none), and
    whether it is proven the best of the window."""
    model = game.model.clone()
    proto = model.proto
    _fix(proto, game, facts, range(window.first))
    if window.rest != Rest.NOTHING:
        _fix(proto, game, facts, range(window.end, len(facts.turns)))
    proto.clear_solution_hint()
    proto.solution_hint.vars.extend(range(len(solution)))
    proto.solution_hint.values.extend(solution)
    solver = new_solver(limits)
    # A light presolve: the window's model is small once its facts are fixed, and a full
    # presolve (probing above all) can take a whole round's budget on a loaded machine.
    solver.parameters.cp_model_probing_level = PROBING
    solver.parameters.symmetry_level = 0
    status = interruptible_solve(solver, model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False
    return realise(position, plan_of(game, solver)), status == cp_model.OPTIMAL
