"""What each objective's value of a won line is, as the rules engine measures it, and a
bound that every win obeys (docs/model.md, Objectives). The CP-SAT model has its own
expression of each objective (``cpsat.objective_expr``); tests/test_objectives.py checks
that the two agree."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, PlayIsland
from .search import least_total_cost
from .state import State
from .verdicts import Objective


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


def better(objective: Objective, new: int, old: int) -> bool:
    return score(objective, new) > score(objective, old)


def objective_bound(position: State, objective: Objective) -> int:
    """A bound every win from ``position`` obeys (docs/model.md, Objectives): each empty
    cell takes a turn, an island and its cost (at least ``least_total_cost``); the Start
    event, if still to come, a turn and 1 + start_discards cards; the Finish a turn and a card."""
    empty = sum(v is None for v in position.grid)
    start = 0 if position.start_played else 1
    least = least_total_cost(position)
    if objective == Objective.TURNS:
        return empty + start + 1
    if objective == Objective.COST:
        return least
    left = position.cards_left
    return left - empty - least - 1 - start * (1 + position.rules.start_discards)
