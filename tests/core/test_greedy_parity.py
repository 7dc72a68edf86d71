"""The greedy solver's playouts on the compiled core against the reference (search/greedy.py's
``greedy_playout`` on the engine): for every preset and player count, from deals and from
positions mid-game, with the plain weights and drawn ones and either Finish keeper, the same
line action for action and the generator left in the same state; and ``greedy``,
``best_playout`` and ``restarts``, which play on the core, find the lines the reference's
loops find."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tranquility.solver.core import twister
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.state import State, Status
from tranquility.solver.search import greedy as search_greedy
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.greedy import (
    RESTART_STYLES,
    FinishKeeper,
    Style,
    best_playout,
    core_playout,
    greedy,
    greedy_playout,
    restarts,
)

from .test_parity import PRESET_NAMES, midgame

KEEPERS = (FinishKeeper.FIRST, FinishKeeper.DUE)


def test_the_twister_draws_what_python_draws():
    rng = random.Random(12345)
    state = twister.state_of(rng)
    for k in range(3000):  # past the 624 words' regeneration, several times
        assert twister.draw(state) == rng.random()
        assert twister.below(state, k % 41 + 1) == rng.randrange(k % 41 + 1)
        assert twister.uniform(state, 0.3, 1.5) == rng.uniform(0.3, 1.5)
    twister.hand_back(rng, state)
    again = random.Random(12345)
    for k in range(3000):
        again.random(), again.randrange(k % 41 + 1), again.uniform(0.3, 1.5)
    assert rng.random() == again.random()


def same_playouts(state: State, seed: int, playouts: int) -> None:
    for k in range(playouts):
        for keeper in KEEPERS:
            ours, theirs = random.Random(seed + k), random.Random(seed + k)
            style = replace(Style.draw(ours, k), keeper=keeper)
            assert replace(Style.draw(theirs, k), keeper=keeper) == style
            line, end = core_playout(state, ours, style)
            expected, expected_end = greedy_playout(state, theirs, style)
            assert line == expected, (k, keeper)
            assert end == expected_end
            assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playouts_from_deals_are_the_reference_playouts(preset):
    for players in range(1, 6):
        for seed in range(4):
            same_playouts(State.initial(deal(PRESETS[preset], players, seed)), seed, 4)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_playouts_from_positions_mid_game_are_the_reference_playouts(preset):
    for players in range(1, 6):
        for seed in range(3):
            state = midgame(preset, players, seed, 3 + 9 * seed)
            if state.status == Status.OPEN:
                same_playouts(state, 100 + seed, 3)


def reference_greedy(state: State, playouts: int, seed: int) -> list | None:
    rng = random.Random(seed)
    for k in range(playouts):
        line, end = greedy_playout(state, rng, Style.draw(rng, k))
        if end.won:
            return line
    return None


def ends(state: State, line: list) -> State:
    for action in line:
        state = state.apply(action)
    return state


def fewest_cards(line: list, end: State) -> float:
    return -end.cards_left - 0.01 * len(line)


def reference_best(state: State, count: int, seed: int) -> tuple[int, list | None]:
    rngs = [random.Random(seed) for _ in KEEPERS]
    wins, best, best_value = 0, None, None
    for played in range(count * len(KEEPERS)):
        turn, k = played % len(KEEPERS), played // len(KEEPERS)
        rng = rngs[turn]
        line, end = greedy_playout(state, rng, replace(Style.draw(rng, k), keeper=KEEPERS[turn]))
        if end.won:
            wins += 1
            v = fewest_cards(line, end)
            if best_value is None or v > best_value:
                best, best_value = line, v
    return wins, best


def reference_restarts(state: State, line: list, count: int, seed: int) -> tuple[list, float]:
    rng = random.Random(seed)
    best = fewest_cards(line, ends(state, line))
    for _ in range(count):
        cut = rng.randrange(len(line))
        style = replace(Style.draw(rng, 1 + rng.randrange(RESTART_STYLES)), keeper=rng.choice(KEEPERS))
        start = ends(state, line[:cut])
        tail, end = greedy_playout(start, rng, style)
        if end.won and fewest_cards(line[:cut] + tail, end) >= best:
            line, best = line[:cut] + tail, fewest_cards(line[:cut] + tail, end)
    return line, best


@pytest.mark.parametrize("preset", ["official", "monsters", "rocks-manual", "islands"])
@pytest.mark.parametrize("switch", [0, 3])
def test_the_solvers_loops_find_the_reference_lines(preset, switch, monkeypatch):
    """On the core from the first playout, or from the fourth on (the reference plays the
    first ones while the core is not loaded)."""
    monkeypatch.setattr(search_greedy, "_compiling", lambda: search_greedy._played_on_reference >= switch)
    for players in (1, 3, 5):
        state = State.initial(deal(PRESETS[preset], players, 7))
        monkeypatch.setattr(search_greedy, "_played_on_reference", 0)
        assert greedy(state, Deadline(nodes=6), SearchStats(), 3) == reference_greedy(state, 6, 3)
        monkeypatch.setattr(search_greedy, "_played_on_reference", 0)
        wins, best = best_playout(state, 5, 2, fewest_cards, KEEPERS)
        assert (wins, best) == reference_best(state, 5, 2)
        if best is not None:
            monkeypatch.setattr(search_greedy, "_played_on_reference", 0)
            found = restarts(state, best, fewest_cards, Deadline(nodes=8), 4, KEEPERS)
            assert (found.line, found.value) == reference_restarts(state, best, 8, 4)
