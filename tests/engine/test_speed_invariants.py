"""The engine's speed-ups are invisible: a position that was handed its tables by the
position before it (``State._pass_tables``: the bounds, the neighbours and the open cells
updated for the one card placed, or shared when the grid did not change) answers every
question exactly as the same position worked out afresh, and the greedy player decides
the same from either.

The fresh copy is ``dataclasses.replace(state)``: the same fields, none of the tables.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL, Adjacency, Order, Rocks, Rules
from tranquility.solver.engine.state import GridReading, State, Status
from tranquility.solver.search.bounds import live_islands
from tranquility.solver.search.greedy import Style, greedy_action
from tranquility.solver.search.placements import (
    cheapest_cost,
    cheapest_costs_if_emptied,
    empty_bounds,
    fitting_islands,
    reading_runs,
)

from ..helpers import random_action
from .test_properties import CONFIGS

# Every table _pass_tables may hand on (the engine's own, and the searches' readings of the
# grid), and what the players ask of a position.
TABLES = ("_bounds", "_near", "_open_cells", "_open_groups", "_group_ends", "_readings")
READINGS: dict[str, GridReading] = {
    "empty_bounds": empty_bounds,
    "reading_runs": reading_runs,
    "fitting_islands": fitting_islands,
}


def answers(state: State) -> dict:
    """What the search and the players read from a position, every table worked out."""
    islands = range(1, state.rules.islands + 1)
    choices = tuple(state.legal_choices())
    return {
        "choices": choices,
        "status": state.status,
        "costs": [state.cost_of(c) for c in choices if c.kind == "island"],
        "cheapest": [cheapest_cost(state, card) for card in islands],
        "bounds": [state.island_bounds(cell) for cell in range(state.rules.cells)],
        "island_cost": [state.island_cost(card, cell) for card in islands for cell in range(state.rules.cells)],
        "live": live_islands(state),
        **{name: getattr(state, name) for name in TABLES if name != "_readings"},
        **{name: reading(state) for name, reading in READINGS.items()},
    }


def check_game(state: State, rng: random.Random, turns: int = 60) -> int:
    """Play random legal actions from ``state``, the parent's tables worked out before
    each move, and compare each position with its fresh copy; the number of positions
    that inherited a table."""
    inherited = 0
    for _ in range(turns):
        fresh = answers(replace(state))
        # The answers of the position reached by apply, read before anything else asks.
        handed = {name for name in TABLES if name in state.__dict__}
        handed |= {name for name, reading in READINGS.items() if reading in state.__dict__.get("_readings", ())}
        assert answers(state) == fresh, f"turn {state.turn}: tables {sorted(handed)} differ from a fresh copy"
        inherited += bool(handed)
        if state.won or state.status != Status.OPEN:
            break
        state = state.apply(random_action(state, rng))
    return inherited


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=12)  # per rule set: 22 of them
@given(seed=st.integers(0, 2**32 - 1))
def test_handed_tables_equal_fresh_ones(name, seed):
    rules, players = CONFIGS[name]
    rng = random.Random(seed)
    check_game(State.initial(deal(rules, players, seed % 1000)), rng)


@pytest.mark.parametrize(
    "rules",
    [
        OFFICIAL,
        Rules(order=Order.GRID),
        Rules(adjacency=Adjacency.BOTH),
        Rules(monsters=3),
        Rules(rocks=Rocks.MANUAL, order=Order.GRID),
    ],
    ids=["official", "grid", "both", "monsters", "rocks-manual-grid"],
)
def test_full_size_games_hand_tables_on(rules):
    """On the real grid too, and the hand-over happens (a test that cannot fail otherwise)."""
    rng = random.Random(7)
    inherited = sum(check_game(State.initial(deal(rules, players, seed)), rng, 40) for players in (1, 4) for seed in (0, 1))
    assert inherited > 20


@pytest.mark.parametrize("players", [2, 5])
def test_greedy_decides_the_same_on_fresh_positions(players):
    """The greedy player's move from each position of its own playout is the move it
    makes from the position's fresh copy (same random draws)."""
    state = State.initial(deal(OFFICIAL, players, 3))
    style = Style.draw(random.Random(1), 3)  # noisy weights: ties and draws matter
    turns = 0
    while not state.won and state.status == Status.OPEN:
        seed = random.Random(turns).random()
        here = greedy_action(state, random.Random(seed), live_islands(state), style)
        copy = replace(state)
        assert greedy_action(copy, random.Random(seed), live_islands(copy), style) == here
        state = state.apply(here)
        turns += 1
    assert turns > 30


def _emptied(state: State, cell: int) -> State:
    """The position with ``cell`` emptied and nothing else changed, worked out afresh."""
    return replace(state, grid=state.grid[:cell] + (None,) + state.grid[cell + 1 :])


@pytest.mark.parametrize("name", sorted(CONFIGS))
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1))
def test_costs_once_a_cell_is_emptied_are_those_of_the_emptied_grid(name, seed):
    """``cheapest_costs_if_emptied`` (the greedy's Sea Monster weighing) gives, for every
    island and every filled cell, the cheapest cost on the grid with that cell emptied."""
    rules, players = CONFIGS[name]
    rng = random.Random(seed)
    state = State.initial(deal(rules, players, seed % 1000))
    islands = range(1, rules.islands + 1)
    for _ in range(rng.randrange(1, 40)):
        if state.won or state.status != Status.OPEN:
            break
        state = state.apply(random_action(state, rng))
    for cell, v in enumerate(state.grid):
        if v is not None:
            emptied = _emptied(state, cell)
            assert cheapest_costs_if_emptied(state, cell, islands) == [cheapest_cost(emptied, c) for c in islands]


def test_costs_once_a_cell_is_emptied_on_the_full_grid():
    """The same on official-size grids late in a game, where the emptied cell joins two
    runs (and so changes bounds far from it), with the rocks in play."""
    checked = 0
    for rules in (Rules(monsters=3), Rules(rocks=Rocks.MANUAL, order=Order.GRID, adjacency=Adjacency.BOTH)):
        rng = random.Random(3)
        state = State.initial(deal(rules, 2, 5))
        while not state.won and state.status == Status.OPEN and state.filled < 20:
            state = state.apply(greedy_action(state, rng, live_islands(state), Style()))
        for cell, v in enumerate(state.grid):
            if v is not None:
                emptied = _emptied(state, cell)
                islands = range(1, rules.islands + 1)
                assert cheapest_costs_if_emptied(state, cell, islands) == [cheapest_cost(emptied, c) for c in islands]
                checked += 1
    assert checked > 20
