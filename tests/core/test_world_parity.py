"""The lookahead's worlds dealt on the compiled core (core/worlds.py) against the reference
(search/worlds.py's ``sample_world`` and ``undo_turn``, the lookahead's ``agreeing_world``):
from the same generator, the same worlds (every card in the same place, the same face-down
cards, the same rolls of the Jagged Rocks) and the generator left in the same state, on
positions of every preset the lookahead plays at 2 to 5 players; and whole lookahead games
play the same lines whichever deals their worlds."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
import tranquility.solver.core.worlds  # noqa: F401  (loaded here: the lookahead deals on the core at once)
from tranquility.solver.core import twister
from tranquility.solver.core.layout import code, deal_array, position_array
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.state import Status
from tranquility.solver.search import lookahead
from tranquility.solver.search.lookahead import TRIES, Lookahead, last_round
from tranquility.solver.search.memory import remember
from tranquility.solver.search.policies import blueprint_weights, simulate
from tranquility.solver.search.worlds import deal_on_core, dealing, sample_world, worlds_on_core

from .test_parity import PRESET_NAMES, midgame

pytestmark = pytest.mark.slow  # whole searches and games on both sides: seconds each

WORLDS = 5  # dealt a position, one after another from one generator


def faces(islands: int, cards) -> list[int]:
    """Face-down cards counted as core/worlds.py counts them."""
    counts = [0] * (islands + 4)
    for card in cards:
        number = code(card)
        counts[number if number > 0 else islands - number] += 1
    return counts


def positions(preset: str, players: int, seed: int):
    """(observation, memory) of the seat to move after several numbers of turns of a seeded
    random game: the Start event still to come, around it and late in the game."""
    line = simulate(deal(PRESETS[preset], players, seed), "random", seed).line
    for turns in (0, 2, 5, 9, 16, 30):
        state = midgame(preset, players, seed, turns)
        if turns > len(line.actions) or state.status != Status.OPEN:
            continue
        yield observe(state, state.seat), remember(line.with_actions(line.actions[:turns]), state.seat)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_core_deals_the_references_worlds(preset, players):
    checked = Counter[str]()
    for seed in range(players, 30, 10):
        for obs, memory in positions(preset, players, seed):
            policy = Lookahead(seed=seed)
            giving = policy.giving_weights(obs, memory)
            window = last_round(memory)
            # The plain belief with and without weights, and the filtered one's agreeing worlds.
            for weights, turns in ((None, ()), (giving, ()), (giving, window)):
                key = f"{preset}/{players}/{seed}/{obs.turn}/{len(turns)}"
                reference = random.Random(key)
                if turns:
                    worlds = [policy.agreeing_world(memory, obs, reference, giving, turns)[0] for _ in range(WORLDS)]
                else:
                    worlds = [sample_world(memory, obs, reference, weights) for _ in range(WORLDS)]
                generator = random.Random(key)
                state = twister.state_of(generator)
                plan = dealing(memory, obs, weights, turns)
                blueprint = blueprint_weights(policy.playout, obs.rules, obs.players)
                dealt = deal_on_core(plan, state, WORLDS, TRIES, "tuned", blueprint)
                twister.hand_back(generator, state)
                assert generator.getstate() == reference.getstate(), key
                for i, world in enumerate(worlds):
                    D = deal_array(world)
                    assert np.array_equal(dealt.Gs[i], position_array(plan.tab, world)), (key, i)
                    assert np.array_equal(dealt.Ds[i, : len(D)], D), (key, i)
                    assert not dealt.Ds[i, len(D) :].any(), (key, i)
                    assert dealt.faces[i].tolist() == faces(obs.rules.islands, world.discarded), (key, i)
                checked["window" if turns else "weights" if weights else "plain"] += 1
    assert checked["plain"] >= 9 and checked["weights"] >= 9 and checked["window"] >= 9


GAMES = [
    ("official", 2),
    ("official", 4),
    ("monsters", 3),
    ("rocks", 3),
    ("rocks-manual", 2),
    ("islands", 4),
    ("hungarian", 3),
    ("french", 5),
    ("strict", 4),
]


@pytest.mark.parametrize("belief", ["filtered", "counts"])
@pytest.mark.parametrize(("preset", "players"), GAMES)
def test_lookahead_games_are_the_same_whichever_deals_the_worlds(preset, players, belief, monkeypatch):
    game = deal(PRESETS[preset], players, players + 7)
    assert worlds_on_core()
    calls = Counter[str]()
    on_core = lookahead.deal_on_core

    def counted(*args):
        calls["core"] += 1
        return on_core(*args)

    monkeypatch.setattr(lookahead, "deal_on_core", counted)
    core = simulate(game, Lookahead(seed=players, samples=6, belief=belief), players)
    monkeypatch.setattr(lookahead, "worlds_on_core", lambda: False)
    reference = simulate(game, Lookahead(seed=players, samples=6, belief=belief), players)
    assert calls["core"] > 0
    assert core.line.actions == reference.line.actions
    assert core.won == reference.won
