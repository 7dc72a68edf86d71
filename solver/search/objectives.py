"""What each objective's value of a won line is, as the rules engine measures it, and a
bound that every win obeys (docs/model.md, Objectives). The CP-SAT model has its own
expression of each objective (``cpsat.objective_expr``); tests/cpsat/test_objectives.py checks
that the two agree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from tranquility.solver.engine.actions import Action, PlayIsland
from tranquility.solver.engine.cards import FINISH
from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import finishing_seat, least_total_cost, turns_without_discards
from tranquility.solver.verdicts import Objective


class BoundBy(StrEnum):
    """Which proof gave a solve's final bound (``Best.bound_by``)."""

    ANALYTIC = "analytic"  # objective_bound with no discard two proven
    FINISHER = "finisher"  # objective_bound, with the finisher check's discard twos
    LADDER = "ladder"  # the restricted-horizon ladder (solver/cpsat/ladder.py)
    CPSAT = "cpsat"  # CP-SAT's own bound, optimising the whole model


class FoundBy(StrEnum):
    """Which search found a solve's final line (``Best.value_by``)."""

    GREEDY = "greedy"  # the first win's greedy player, or the greedy baseline
    RESTARTS = "restarts"  # the greedy restarts from the best line's turns
    EXHAUSTIVE = "exhaustive"  # the complete search's first win
    CPSAT = "cpsat"  # the deciding CP-SAT run, or the one optimising the whole model
    LNS = "lns"  # the improving search (solver/cpsat/large_neighbourhoods.py)
    LADDER = "ladder"  # a feasible step of the ladder


def maximised(objective: Objective) -> bool:
    """Spare cards are kept, so more is better; turns and costs are spent."""
    return objective == Objective.SPARE


def objective_value(position: State, actions: Sequence[Action], objective: Objective, end: State | None = None) -> int:
    """The value of the winning continuation ``actions`` from ``position``; ``end`` is the
    won position it reaches (replayed when not given)."""
    match objective:
        case Objective.SPARE:  # cards left in hands and piles at the win
            if end is None:
                end = position
                for action in actions:
                    end = end.apply(action)
            return end.cards_left
        case Objective.TURNS:
            return len(actions)
        case Objective.COST:  # cards paid as placement costs
            return sum(len(a.discard) for a in actions if isinstance(a, PlayIsland))
    raise ValueError(f"unknown objective {objective!r}")


def score(objective: Objective, value: int) -> int:
    """An objective's value, signed so that higher is better."""
    return value if maximised(objective) else -value


def scorer(position: State, objective: Objective) -> Callable[[Sequence[Action], State], int]:
    """How greedy playouts rank their wins from ``position``: the ``score`` of a winning
    continuation, given the won position it reaches."""
    return lambda actions, end: score(objective, objective_value(position, actions, objective, end))


def better(objective: Objective, new: int, old: int) -> bool:
    return score(objective, new) > score(objective, old)


def least_discard_turns(position: State) -> int:
    """The finisher check: the fewest discard-two turns D a win from ``position`` can take.
    A win takes exactly ``turns_without_discards + D`` turns and ends with the Finish, so
    its seat is fixed by D; that seat must hold a Finish card in its hand or pile. Seats
    take turns in order, so some D below the player count works whenever any seat holds
    one (0 when none does: no win exists then, and any bound is vacuous)."""
    holders = {s for s in range(position.players) if FINISH in position.hands[s] or FINISH in position.pile(s)}
    return next((d for d in range(position.players) if finishing_seat(position, d) in holders), 0)


def bound_source(position: State) -> BoundBy:
    """What ``objective_bound`` rests on at ``position``: the finisher check when it proves
    a discard two, else the counts alone."""
    return BoundBy.FINISHER if least_discard_turns(position) else BoundBy.ANALYTIC


def objective_bound(position: State, objective: Objective) -> int:
    """A bound every win from ``position`` obeys (docs/model.md, Objectives): each empty
    cell takes a turn, an island and its cost (at least ``least_total_cost``); each Sea
    Monster still to play a turn and its card, and the refill of the cell it empties a
    turn and an island; the Start event, if still to come, a turn and 1 + start_discards
    cards; the Finish a turn and a card; and the discard-two turns the finisher check
    proves (``least_discard_turns``) a turn and two cards each."""
    least = least_total_cost(position)
    discards = least_discard_turns(position)
    if objective == Objective.TURNS:
        return turns_without_discards(position) + discards
    if objective == Objective.COST:
        return least
    # Cards used: one per turn but discard twos and the Start (their cards are counted
    # below), plus the costs, the Start's discards and two per discard two.
    start = 0 if position.start_played else 1
    used = turns_without_discards(position) - start + least + start * (1 + position.rules.start_discards) + 2 * discards
    return position.cards_left - used
