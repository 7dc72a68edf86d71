"""The CP-SAT model on the modules: Sea Monsters and Jagged Rocks, auto and
manual, alone and together. Its verdict equals a plain exhaustive search's over the
engine's legal actions, every win it finds replays, and the model of a rule set without
modules is the one it always was."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from ortools.sat.python import cp_model
from tranquility.solver.cpsat.model import build_model, horizon
from tranquility.solver.cpsat.run_model import CpsatLimits, add_hint, cpsat, line_facts, new_solver, optimise, plan_of, realise
from tranquility.solver.engine.actions import DiscardTwo, PlayIsland, PlayMonster
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.rules import Adjacency, OneCard, Order, Rocks, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.search.objectives import objective_value
from tranquility.solver.verdicts import Objective, Verdict

from ..oracles import plain_best, plain_verdict

LIMITS = CpsatLimits(workers=1, seconds=20)


def _module_rules(rng: random.Random) -> Rules:
    """A tiny rule set with at least one module on (the oracle must stay fast)."""
    rows, cols = rng.choice([(1, 3), (2, 2), (1, 4), (2, 2), (2, 3)])
    monsters = rng.choice([0, 1, 1, 2])
    rocks = rng.choice([Rocks.OFF, Rocks.AUTO, Rocks.MANUAL]) if rows > 1 else Rocks.OFF
    if not monsters and rocks == Rocks.OFF:
        rocks = Rocks.AUTO if rows > 1 else Rocks.OFF
        monsters = 0 if rows > 1 else 1
    return Rules(
        rows=rows,
        cols=cols,
        islands=rows * cols + monsters + rng.randint(1, 2),
        finish=rng.randint(1, 3),
        hand=3,
        start_discards=rng.randint(0, 1),
        monsters=monsters,
        rocks=rocks,
        order=rng.choice([Order.SEQUENCE, Order.SEQUENCE, Order.GRID]),
        adjacency=rng.choice(list(Adjacency)),
        one_card=rng.choice([OneCard.PLAY, OneCard.PLAY, OneCard.LOSE]),
    )


def _positions(count: int, seed: int):
    """Deals, and positions a few random legal actions into them (cells already filled,
    monsters already played, rocks already moved)."""
    rng = random.Random(seed)
    while count:
        rules, players = _module_rules(rng), rng.randint(1, 3)
        if rules.islands + rules.monsters + rules.finish < players * rules.hand:
            continue  # too few cards for the opening hands
        state = State.initial(deal(rules, players, rng.randrange(10**6)))
        for _ in range(rng.choice([0, 0, 1, 3])):
            actions = [a for a in state.legal_actions() if not state.apply(a).won]
            if not actions:
                break
            state = state.apply(rng.choice(actions))
        count -= 1
        yield state


def _replays_to_a_win(state: State, actions) -> bool:
    for action in actions:
        state = state.apply(action)
    return state.won


@pytest.mark.slow
def test_the_model_agrees_with_the_plain_search_on_small_module_games():
    decided = {Verdict.WIN: 0, Verdict.NO_WIN: 0}
    kinds: set[object] = set()
    for state in _positions(70, seed=11):
        oracle, _ = plain_verdict(state, limit=4000)
        if oracle == "unknown":
            continue
        verdict, actions, info = cpsat(state, LIMITS)
        assert verdict.value == oracle, (state.rules.to_dict(), state.deal.seed, state.turn, info)
        if verdict == Verdict.WIN:
            assert actions is not None and _replays_to_a_win(state, actions)
            kinds |= {type(a) for a in actions}
            kinds |= {"rocks stay" if a.rocks.row is None else "rocks move" for a in actions if a.rocks is not None}
        decided[verdict] += 1
    assert decided[Verdict.WIN] >= 5 and decided[Verdict.NO_WIN] >= 10, decided
    assert {PlayMonster, "rocks move"} <= kinds


def _blocked_position() -> State:
    """2x2, islands 1..6 and one Sea Monster, solo: the 6 in cell 0 leaves nothing for the
    other cells, which need an island above 6."""
    rules = Rules(rows=2, cols=2, islands=6, finish=2, hand=3, start_discards=0, monsters=1)
    state = State.initial(deal(rules, 1, 3492))
    return state.apply(PlayIsland(seat=0, card=6, cell=0))


def test_a_game_won_only_through_a_monster_play():
    state = _blocked_position()
    assert not any(lo < 6 for lo, _ in (state.island_bounds(k) for k in (1, 2, 3)))
    assert plain_verdict(state)[0] == "win"
    verdict, actions, _ = cpsat(state, LIMITS)
    assert verdict == Verdict.WIN and actions is not None and _replays_to_a_win(state, actions)
    assert PlayMonster(seat=0, cell=0) in actions  # the 6 is sunk, and its cell filled again
    assert any(isinstance(a, PlayIsland) and a.cell == 0 for a in actions)


@pytest.mark.slow
def test_a_deal_lost_only_through_the_rocks():
    """2x3 solo, manual rocks: no win; the same piles without the rocks: a win."""
    rules = Rules(rows=2, cols=3, islands=9, finish=1, hand=3, start_discards=0, rocks=Rocks.MANUAL)
    rocky = deal(rules, 1, 5859)
    calm = Deal(replace(rules, rocks=Rocks.OFF), rocky.piles)
    assert plain_verdict(State.initial(rocky))[0] == "no-win"
    assert cpsat(State.initial(rocky), LIMITS)[0] == Verdict.NO_WIN
    verdict, actions, _ = cpsat(State.initial(calm), LIMITS)
    assert verdict == Verdict.WIN and actions is not None and _replays_to_a_win(State.initial(calm), actions)


@pytest.mark.parametrize("rocks", [Rocks.AUTO, Rocks.MANUAL])
def test_a_manual_or_auto_rocks_win_replays_with_its_moves(rocks):
    """The rocks move after every action: a won line's placements avoid their row at
    every turn, and a manual line names each move (or stays)."""
    rules = Rules(rows=2, cols=2, islands=6, finish=3, hand=3, start_discards=0, rocks=rocks)
    for seed in range(40):
        state = State.initial(deal(rules, 2, seed))
        verdict, actions, _ = cpsat(state, LIMITS)
        if verdict == Verdict.WIN:
            assert actions is not None and _replays_to_a_win(state, actions)
            moves = [a.rocks for a in actions if a.rocks is not None]
            assert bool(moves) == (rocks == Rocks.MANUAL)
            return
    pytest.fail("no winnable deal among the 40 seeds")


def test_a_hint_from_a_module_line_is_a_solution():
    """add_hint takes a module line (turn kinds and counters for monsters); with the hint
    the model still solves, to a win."""
    state = _blocked_position()
    verdict, actions, _ = cpsat(state, LIMITS)
    assert verdict == Verdict.WIN and actions is not None
    game = build_model(state, horizon(state))
    add_hint(game, line_facts(state, actions))
    solver = new_solver(LIMITS)
    assert solver.solve(game.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)


def test_a_discarded_monster_leaves_no_win():
    """Every monster must be played before the Finish: with one discarded there is none."""
    rules = Rules(rows=1, cols=3, islands=6, finish=2, hand=3, start_discards=0, monsters=1)
    for seed in range(30):
        state = State.initial(deal(rules, 1, seed))
        if "M" in state.hand:
            rest = [c for c in state.hand if c != "M"]
            after = state.apply(DiscardTwo(seat=0, discard=("M", rest[0])))
            assert cpsat(after, LIMITS)[0] == Verdict.NO_WIN
            return
    pytest.fail("no opening hand with the monster")


@pytest.mark.parametrize("objective", [Objective.SPARE, Objective.TURNS, Objective.COST])
def test_the_optimum_of_a_module_game_is_the_plain_search_s(objective):
    """optimise on module games: the line it returns replays, and its value, when proven
    optimal, is the best over every legal line (the model's objective is the engine's)."""
    rocky = State.initial(deal(Rules(rows=2, cols=2, islands=6, finish=3, hand=3, start_discards=0, rocks=Rocks.MANUAL), 2, 1))
    for state in (_blocked_position(), rocky):
        verdict, actions, _ = cpsat(state, LIMITS)
        assert verdict == Verdict.WIN and actions is not None
        line, bound, optimal, _ = optimise(state, actions, objective, LIMITS)
        line = line or actions
        assert _replays_to_a_win(state, line) and optimal
        assert objective_value(state, line, objective) == bound == plain_best(state, objective)


def test_a_line_that_keeps_the_manual_rocks_in_place_replays():
    """Forced to keep the rocks on the second turn (the winning line of the plain search
    does), the model's line pays the two cards from the hand the action leaves."""
    state = State.initial(deal(Rules(rows=2, cols=2, islands=6, finish=3, hand=3, start_discards=0, rocks=Rocks.MANUAL), 2, 1))
    game = build_model(state, horizon(state))
    assert game.rocks is not None
    game.model.add(game.rocks.stay[1] == 1)
    solver = new_solver(LIMITS)
    assert solver.solve(game.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    actions = realise(state, plan_of(game, solver))
    assert actions[1].rocks is not None and actions[1].rocks.row is None and len(actions[1].rocks.discard) == 2
    assert _replays_to_a_win(state, actions)
