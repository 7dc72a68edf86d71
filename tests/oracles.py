"""Test oracles: slow, plain procedures that the solver's answers are checked against."""

from __future__ import annotations

from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import live_islands, refutation, state_key
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.moves import candidate_actions
from tranquility.solver.search.objectives import better, objective_value
from tranquility.solver.verdicts import Objective


def exhaustive_best(state: State, objective: Objective, deadline: Deadline, stats: SearchStats):
    """The best winning continuation for ``objective``, by a depth-first search over every
    line up to the search's dominance rules, memoising the best completion of each
    canonical state (an objective's value only depends on the future).
    Returns ("win", value, actions), ("no-win", None, None) or ("unknown", None, None)."""
    memo: dict = {}

    def best(s: State):
        """(value, actions, won position) of the best completion, or None if none wins."""
        if s.won:
            return objective_value(s, [], objective, s), [], s
        stats.nodes += 1
        if not deadline.tick():
            raise TimeoutError
        live = live_islands(s)
        key = state_key(s, live)
        if key in memo:
            stats.cache_hits += 1
            return memo[key]
        if refutation(s, live) is not None:
            memo[key] = None
            return None
        found = None
        for action in candidate_actions(s, live):
            sub = best(s.apply(action))
            if sub is None:
                continue
            actions = [action, *sub[1]]
            value = objective_value(s, actions, objective, sub[2])
            if found is None or better(objective, value, found[0]):
                found = (value, actions, sub[2])
        memo[key] = found
        return found

    try:
        found = best(state)
    except TimeoutError:
        return "unknown", None, None
    if found is None:
        return "no-win", None, None
    return "win", found[0], found[1]


def plain_verdict(state: State, limit: int = 100_000):
    """Win or no-win by a depth-first search over every legal action of the rules engine,
    with no dominance rule and no refutation (for tiny deals). Lost positions are
    remembered by everything the future depends on. Returns ("win", actions),
    ("no-win", None), or ("unknown", None) past ``limit`` positions."""
    lost: set = set()
    nodes = 0

    def line(s: State):
        nonlocal nodes
        if s.won:
            return []
        key = (s.grid, s.hands, s.drawn, s.seat, s.start_played, s.monsters_played, s.rocks_row, s.rolls_used)
        if key in lost:
            return None
        nodes += 1
        if nodes > limit:
            raise TimeoutError
        for action in s.legal_actions():
            rest = line(s.apply(action))
            if rest is not None:
                return [action, *rest]
        lost.add(key)
        return None

    try:
        found = line(state)
    except TimeoutError:
        return "unknown", None
    return ("no-win", None) if found is None else ("win", found)


def plain_best(state: State, objective: Objective, limit: int = 100_000) -> int | str | None:
    """The best value of ``objective`` over every winning continuation, by the same plain
    search (every legal action, memoised on the same key: each objective's value only
    depends on the future). None when nothing wins, "unknown" past ``limit`` positions."""
    memo: dict = {}
    nodes = 0

    def value(s: State):
        nonlocal nodes
        if s.won:
            return objective_value(s, [], objective, s)
        key = (s.grid, s.hands, s.drawn, s.seat, s.start_played, s.monsters_played, s.rocks_row, s.rolls_used)
        if key in memo:
            return memo[key]
        nodes += 1
        if nodes > limit:
            raise TimeoutError
        found = None
        for action in s.legal_actions():
            rest = value(s.apply(action))
            if rest is None:
                continue
            # A turn and a payment are this action's share; the cards left are the end's.
            here = {Objective.TURNS: 1, Objective.COST: objective_value(s, [action], Objective.COST, s)}.get(objective, 0)
            if found is None or better(objective, rest + here, found):
                found = rest + here
        memo[key] = found
        return found

    try:
        return value(state)
    except TimeoutError:
        return "unknown"
