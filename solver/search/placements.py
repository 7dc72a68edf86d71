"""Where cards can still go, as the searches read a grid: the runs of empty cells in reading
order, the islands that still fit somewhere, and the cheapest placement of a card, now or
once a Sea Monster empties a cell.

The rules of placement live in the engine (``State.placements``, ``State.island_bounds``);
these are readings of them that only the greedy player and the bounds use, kept with each
position as ``GridReading`` values so that a position works each out once, and the one after
a placement updates the runs and the fitting islands instead of working them out again.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from tranquility.solver.engine.rules import Order
from tranquility.solver.engine.state import GridReading, State, geometry_of, grid_bounds, smallest_gap

Run = tuple[int, int, int, int]  # (first, last, low, high): a run of empty cells and the cards around it
_COST = itemgetter(1)  # of a (cell, cost) placement


def cheapest_cost(state: State, card: int) -> int | None:
    """The least cost of a legal placement of ``card`` now, or None if it fits nowhere."""
    return min(map(_COST, state.placements(card)), default=None)


def cheapest_costs_if_emptied(state: State, cell: int, cards: Iterable[int]) -> list[int | None]:
    """``cheapest_cost`` of each of ``cards`` on this grid with ``cell`` emptied (a Sea
    Monster's sinking), the rocks where they are. Only the cells whose bounds or
    neighbours the emptied cell changes are worked out again: every other cell keeps
    its placements and costs (this position's, worked out once for all the cells a
    greedy player weighs sinking)."""
    grid = state.grid[:cell] + (None,) + state.grid[cell + 1 :]
    bounds, old = grid_bounds(grid, state.rules), state.every_island_bounds
    neighbours = geometry_of(state.rules).neighbours  # symmetric: the cells next to `cell`
    changed = {e for e in range(len(grid)) if bounds[e] != old[e]} | {cell, *neighbours[cell]}
    cols, rocks = state.rules.cols, state.rocks_row
    fresh = [
        (bounds[e], tuple([v for c in neighbours[e] if (v := grid[c]) is not None]))
        for e in sorted(changed)
        if grid[e] is None and (rocks is None or e // cols != rocks)
    ]
    costs: list[int | None] = []
    for card in cards:
        best = min((cost for e, cost in state.placements(card) if e not in changed), default=None)
        for (low, high), near in fresh:
            if low < card < high:
                cost = smallest_gap(card, near)
                if best is None or cost < best:
                    best = cost
        costs.append(best)
    return costs


def _reading_runs(state: State) -> tuple[Run | None, ...]:
    """Each empty cell's maximal run of empty cells in reading order, by cell: (first,
    last, low, high), with the cards on either side of the run (0 before the first
    card, islands + 1 after the last); None for a filled cell. Read, never changed:
    positions share it."""
    runs: list[Run | None] = [None] * len(state.grid)
    start, low = None, 0
    for cell, v in enumerate((*state.grid, state.rules.islands + 1)):
        if v is None:
            if start is None:
                start = cell
            continue
        if start is not None:
            runs[start:cell] = [(start, cell - 1, low, v)] * (cell - start)
            start = None
        low = v
    return tuple(runs)


def _runs_after(state: State, cell: int, card: int) -> tuple[Run | None, ...]:
    """``reading_runs`` once ``card`` is placed on the empty ``cell``: its run splits there."""
    runs = list(reading_runs(state))
    run = runs[cell]
    assert run is not None, f"cell {cell} is not empty"
    first, last, low, high = run
    runs[first:cell] = [(first, cell - 1, low, card)] * (cell - first)
    runs[cell] = None
    runs[cell + 1 : last + 1] = [(cell + 1, last, card, high)] * (last - cell)
    return tuple(runs)


reading_runs = GridReading(_reading_runs, after=_runs_after)


def _empty_bounds(state: State) -> frozenset[tuple[int, int]]:
    """The distinct ``island_bounds`` of the empty cells (the rocks aside)."""
    return frozenset([bounds for bounds, v in zip(state.every_island_bounds, state.grid, strict=True) if v is None])


empty_bounds = GridReading(_empty_bounds)


def _fitting_islands(state: State) -> frozenset[int]:
    """The islands that fit at least one empty cell by the order (the rocks aside). A
    card that fits nowhere never fits again while cells only fill up."""
    return frozenset().union(*[range(low + 1, high) for low, high in empty_bounds(state)])


def _fitting_after(state: State, cell: int, card: int) -> frozenset[int] | None:
    """``fitting_islands`` once ``card`` is placed on the empty ``cell``, along one
    sequence, where a run's cells all have its bounds: the run's interval splits at
    ``card``, and a side with no cell left of the run fits nothing more. On a grid order
    the next position works it out."""
    if state.rules.order != Order.SEQUENCE:
        return None
    run = reading_runs(state)[cell]
    assert run is not None, f"cell {cell} is not empty"
    first, last, low, high = run
    gone = {card}
    if cell == first:
        gone.update(range(low + 1, card))
    if cell == last:
        gone.update(range(card + 1, high))
    return fitting_islands(state) - gone


fitting_islands = GridReading(_fitting_islands, after=_fitting_after)
