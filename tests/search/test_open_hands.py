"""``open-hands``: the ceiling that sees every hand but not the piles.

Its worlds keep every hand and deal the undrawn cards again; two tables that differ only in
the piles' order get the same decision, a table where another seat holds other cards may
not (where a seat playing fair cannot tell the two apart), and it is refused wherever a
seat must see its own hand only.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from tranquility.app.source import seating_of
from tranquility.solver.analysis.table import Seating
from tranquility.solver.engine.cards import START, Card, is_island, sorted_cards
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import PRESETS, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import BadInput
from tranquility.solver.search.lookahead import MEASURED_POLICIES, SIMULATE_POLICIES, Lookahead, OpenHands
from tranquility.solver.search.memory import remember
from tranquility.solver.search.policies import simulate
from tranquility.solver.search.worlds import open_world

from ..helpers import run

OFFICIAL = PRESETS["official"]


def cut(rules: Rules, players: int, seed: int, turn: int) -> tuple[Line, State]:
    """A tuned game of the seeded deal, ``turn`` turns in."""
    game = deal(rules, players, seed)
    line = Line(game, simulate(game, "tuned").line.actions[:turn])
    return line, line.end_state()


def undrawn(state: State) -> Counter[Card]:
    cards: Counter[Card] = Counter(state.deal.removed_islands)
    for seat in range(state.players):
        cards.update(state.pile(seat))
    return cards


def with_piles(state: State, piles: list[list[Card]], removed: tuple[int, ...] | None = None) -> State:
    """``state`` with these undrawn piles (and islands out of the game)."""
    dealt = replace(state.deal, piles=tuple(map(tuple, piles)), removed_islands=removed or state.deal.removed_islands)
    return replace(state, deal=dealt, drawn=(0,) * state.players)


@pytest.mark.parametrize(
    "preset, players, seed, turn", [("official", 3, 2, 9), ("islands", 2, 4, 6), ("rocks", 4, 1, 12), ("monsters", 3, 5, 3)]
)
def test_a_world_keeps_every_hand_and_deals_only_the_undrawn_cards_again(preset, players, seed, turn):
    _, state = cut(PRESETS[preset], players, seed, turn)
    rng = random.Random(7)
    orders = set()
    for _ in range(6):
        world = open_world(state, rng)
        assert world.hands == state.hands and world.grid == state.grid and world.seat == state.seat
        assert world.discarded == state.discarded and world.gone == state.gone and world.rocks_row == state.rocks_row
        assert [len(world.pile(s)) for s in range(players)] == [len(state.pile(s)) for s in range(players)]
        assert undrawn(world) == undrawn(state)
        assert [START in world.pile(s) for s in range(players)] == [START in state.pile(s) for s in range(players)]
        orders.add(tuple(world.pile(s) for s in range(players)))
        world.legal_actions()  # the engine plays on it
    assert len(orders) == 6  # the piles are dealt again, world by world


def shuffled_piles(state: State, rng: random.Random) -> State:
    """The undrawn cards (and the islands out of the game) dealt again across the piles,
    every size kept and each Start in its own pile: what open hands cannot see."""
    sizes = [len(state.pile(s)) for s in range(state.players)]
    starts = [START in state.pile(s) for s in range(state.players)]
    rest = [c for s in range(state.players) for c in state.pile(s) if c != START] + list(state.deal.removed_islands)
    rng.shuffle(rest)
    removed = tuple(sorted(rng.sample([c for c in rest if is_island(c)], len(state.deal.removed_islands))))
    for card in removed:
        rest.remove(card)
    piles = []
    for size, start in zip(sizes, starts, strict=True):
        pile = [rest.pop() for _ in range(size - start)]
        if start:
            pile.insert(rng.randrange(size), START)
        piles.append(pile)
    return with_piles(state, piles, removed)


@pytest.mark.slow
@pytest.mark.parametrize("preset, players, seed", [("official", 2, 3), ("official", 4, 2), ("islands", 3, 4)])
def test_tables_that_differ_only_in_the_piles_order_get_the_same_decision(preset, players, seed):
    rng = random.Random(seed)
    searched = 0
    for turn in (1, 6, 13, 22):
        _, state = cut(PRESETS[preset], players, seed, turn)
        if state.won or state.must_play_start():
            continue
        other = shuffled_piles(state, rng)
        assert [other.pile(s) for s in range(players)] != [state.pile(s) for s in range(players)]
        player = OpenHands(seed, samples=3)
        decided = player.decide_at(state, None)
        assert OpenHands(seed, samples=3).decide_at(other, None) == decided
        searched += len(player.candidates(observe(state, state.seat), player.act(observe(state, state.seat)))) > 1
    assert searched >= 2  # the search ran, not only the blueprint's forced moves


def test_it_sees_the_other_hands_where_a_fair_seat_cannot():
    """Seat 1 holds 21 where the other table has it hold 11 (21 in its pile instead): seat 0
    sees the same observation and memory at both tables, open hands plays differently."""
    line, state = cut(OFFICIAL, 2, 3, 2)
    assert state.seat == 0 and 21 in state.hands[1] and 11 in state.pile(1)[:5]
    hand = sorted_cards([11 if c == 21 else c for c in state.hands[1]])
    pile = [21 if c == 11 else c for c in state.pile(1)]
    other = replace(with_piles(state, [list(state.pile(0)), pile]), hands=(state.hands[0], hand))
    assert observe(other, 0) == observe(state, 0)  # a fair seat cannot tell the tables apart
    played = OpenHands(0, samples=4).decide_at(state, None)
    assert OpenHands(0, samples=4).decide_at(other, None) != played
    memory = remember(line, 0)
    assert Lookahead(0, samples=4).decide_at(other, memory) == Lookahead(0, samples=4).decide_at(state, memory)


@pytest.mark.slow
def test_an_open_hands_game_replays_and_repeats():
    game = deal(OFFICIAL, 3, 1)
    first = simulate(game, OpenHands(1, samples=2), 1)
    assert verify(first.line).legal
    assert simulate(game, OpenHands(1, samples=2), 1).line == first.line


def test_it_is_refused_where_a_seat_must_see_its_own_hand_only():
    assert OpenHands.name in MEASURED_POLICIES and OpenHands.name not in SIMULATE_POLICIES
    with pytest.raises(BadInput, match=r"open-hands sees every seat's hand.*a bot sees its own hand only"):
        Seating(0, OpenHands.name)
    with pytest.raises(BadInput, match="open-hands sees every seat's hand"):  # a web table's request (the server: 400)
        seating_of({"seat": 0, "bots": "open-hands"})
    _, state = cut(OFFICIAL, 3, 1, 4)
    with pytest.raises(BadInput, match="never from one seat's observation"):
        OpenHands(0, samples=2).decide(observe(state, state.seat), None)
    result = run("play", "--seat", "0", "--bots", "open-hands", "--seed", "1", "--players", "3")
    assert result.exit_code == 2
    assert "open-hands sees every seat's hand" in result.output and "a seat sees its own hand only" in result.output


def test_cli_simulates_open_hands():
    result = run("simulate", "--seed", "1", "--players", "3", "--policy", "open-hands", "--samples", "2", "--json")
    assert result.exit_code == 0, result.output
    assert '"policy": "open-hands"' in result.output
    result = run("simulate", "--seed", "1", "--players", "3", "--policy", "open-hands", "--lookahead-seat", "0")
    assert result.exit_code == 2 and "one mind at every seat" in result.output
