"""The greedy player's Sea Monster parts (the removed=8 with monsters=3 group):
what it keeps, what the Start's team discard pays, and how many seeded playouts win.
The base game has no monsters, so none of this may change its lines."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from tranquility.solver.engine.actions import PlayMonster, PlayStart
from tranquility.solver.engine.cards import MONSTER, is_island
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.search.bounds import empty_runs
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.greedy import Style, _scarcity, greedy, greedy_playout

HARD = replace(OFFICIAL, removed=8, monsters=3)


def _playout_states(rules, players: int, seed: int, playouts: int):
    """Every state a seeded greedy playout reaches, with the action the greedy takes there."""
    start = State.initial(deal(rules, players, seed))
    rng = random.Random(seed)
    for k in range(playouts):
        line, _ = greedy_playout(start, rng, Style.draw(rng, k))
        state = start
        for action in line:
            yield state, action
            state = state.apply(action)


def test_no_scarcity_without_monsters():
    # The base game's payments rank cards as before: its greedy lines are unchanged.
    for state, _ in _playout_states(OFFICIAL, 2, 1, 2):
        assert _scarcity(state, state.hand) == {}


def _islands_in_play(state: State) -> list[int]:
    return sorted(c for s in range(state.players) for c in state.hands[s] + state.pile(s) if is_island(c))


def test_scarcity_marks_exactly_the_islands_of_tight_runs():
    seen = 0
    for state, _ in _playout_states(HARD, 2, 0, 2):
        held = _islands_in_play(state)
        worth = _scarcity(state, tuple(held))
        tight = set()
        for low, high, run in empty_runs(state):
            between = [c for c in held if low < c < high]
            if len(between) - run < 3:
                tight.update(between)
        assert set(worth) == tight
        seen += len(tight)
    assert seen > 0


def test_start_team_discard_pays_a_monster_only_when_nothing_else_is_left():
    starts = 0
    for seed in range(4):
        for state, action in _playout_states(HARD, 2, seed, 3):
            if not isinstance(action, PlayStart):
                continue
            starts += 1
            hands = state.start_event()[0]
            paid = [c for p in action.team_discard for c in p]
            kept = [c for h in hands for c in h]
            for c in paid:
                kept.remove(c)
            if MONSTER in paid:
                assert all(c == MONSTER for c in kept), (seed, hands, action.team_discard)
    assert starts > 0


@pytest.mark.slow
def test_greedy_wins_more_of_the_hard_group():
    # Seeds 0-7, 2 players, 20 seeded playouts each: 11 won before the monster-aware
    # payments, 26 after (measured); every first win replays.
    wins = 0
    for seed in range(8):
        start = State.initial(deal(HARD, 2, seed))
        rng = random.Random(0)
        won = [greedy_playout(start, rng, Style.draw(rng, k)) for k in range(20)]
        wins += sum(end.won for _, end in won)
    assert wins >= 20


def test_greedy_line_replays_as_a_win():
    dealt = deal(HARD, 2, 3)
    line = greedy(State.initial(dealt), Deadline(nodes=50), SearchStats())
    assert line is not None
    check = verify(Line(dealt, tuple(line)))
    assert check.legal and check.won, check.error
    assert sum(isinstance(a, PlayMonster) for a in line) == HARD.monsters
