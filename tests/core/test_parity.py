"""The compiled core against the reference engine (one truth, two speeds): on positions drawn
from every preset and player count, the same legal island plays with their costs, the same
open or ended game, the same next position after any legal action; and every silent policy
the core plays makes the reference's game, action for action, from deals and from positions
reached mid-game."""

from __future__ import annotations

import random
from itertools import islice

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tranquility.solver.core import kernel
from tranquility.solver.core.games import action_row, core_choices
from tranquility.solver.core.layout import deal_array, position_array, table
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.state import State, Status
from tranquility.solver.search.policies import COMPILED, act_as, make_policy, play_on, playouts, simulate

from ..search.test_simulate import reshuffle_hidden

PRESET_NAMES = sorted(PRESETS)
CORE_POLICIES = tuple(COMPILED.values())


def reference_game(state: State, policy: str) -> list:
    return play_on(state, make_policy(policy), compiled=False)[1]


def core_game(state: State, policy: str) -> list:
    return play_on(state, make_policy(policy), compiled=True)[1]


def midgame(preset: str, players: int, seed: int, turns: int) -> State:
    """The position after ``turns`` turns of a seeded random game (or its end)."""
    line = simulate(deal(PRESETS[preset], players, seed), "random", seed).line
    state = State.initial(line.deal)
    for action in line.actions[:turns]:
        state = state.apply(action)
    return state


def same_position(state: State, after: np.ndarray) -> bool:
    tab = table(state.rules, state.players, max(state.rules.hand, *(len(h) for h in state.hands)))
    return np.array_equal(position_array(tab, state), after)


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(PRESET_NAMES),
    players=st.integers(1, 5),
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 60),
    pick=st.integers(0, 10**6),
)
def test_the_core_reads_and_moves_every_position_as_the_engine(preset, players, seed, turns, pick):
    state = midgame(preset, players, seed, turns)
    assert core_choices(state) == list(state.island_plays)
    tab = table(state.rules, state.players, max(state.rules.hand, *(len(h) for h in state.hands)))
    G, D = position_array(tab, state), deal_array(state)
    assert kernel.is_open(G, D, tab.R) == (state.status == Status.OPEN)
    if state.status != Status.OPEN:
        return
    actions = list(islice(state.legal_actions(), 200))
    action = actions[pick % len(actions)]
    kernel.apply(G, D, tab.R, action_row(action, tab))
    assert same_position(state.apply(action), G), action


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("policy", CORE_POLICIES)
def test_each_policy_plays_the_reference_game_on_every_preset(preset, policy):
    for players in range(1, 6):
        for seed in range(6):
            game = deal(PRESETS[preset], players, seed)
            assert core_game(State.initial(game), policy) == reference_game(State.initial(game), policy), (players, seed)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_games_from_positions_mid_game_are_the_reference_games(preset):
    for players in range(1, 6):
        for seed in range(4):
            state = midgame(preset, players, seed, 4 + 7 * seed)
            if state.status != Status.OPEN:
                continue
            for policy in CORE_POLICIES:
                assert core_game(state, policy) == reference_game(state, policy), (players, seed, policy)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_batch_of_playouts_ends_as_the_reference_games_end(preset):
    states = [State.initial(deal(PRESETS[preset], 3, seed)) for seed in range(8)]
    ends = [play_on(state, make_policy("tuned"), compiled=False)[0] for state in states]
    for outcome, end in zip(playouts(states, make_policy("tuned")), ends, strict=True):
        assert outcome == (end.won, end.filled, end.cards_left)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_a_compiled_seat_decides_from_what_it_sees(preset):
    """Worlds that differ only in what the seat to move cannot see (the other hands, every
    pile's undrawn cards, the discards' faces) get the same compiled decision."""
    for seed in range(4):
        state = midgame(preset, 3, seed, 6 + 5 * seed)
        if state.status != Status.OPEN or state.must_play_start():
            continue
        other = reshuffle_hidden(state, state.seat, random.Random(seed))
        assert (other.hands, other.deal.piles) != (state.hands, state.deal.piles)
        for policy in CORE_POLICIES:
            assert core_game(other, policy)[0] == core_game(state, policy)[0], (seed, policy)


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(PRESET_NAMES),
    players=st.integers(1, 5),
    seed=st.integers(0, 2**32),
    turns=st.integers(0, 60),
)
def test_a_seat_acts_on_its_observation_as_the_reference(preset, players, seed, turns):
    """The blueprint asked from an Observation (as the lookahead's belief asks it, seat by
    seat), on the core and on the reference, gives the same action."""
    state = midgame(preset, players, seed, turns)
    if state.status != Status.OPEN or state.must_play_start():
        return
    obs = observe(state, state.seat)
    for policy in CORE_POLICIES:
        player = make_policy(policy)
        assert act_as(player, obs) == player.act(obs), policy
