"""Property tests: random legal playouts keep every invariant, for every option and module.

Each turn hypothesis picks a choice from ``state.legal_choices()`` and an action from
``state.actions_for(choice)``; after every action the test checks the invariants against
the independent oracle of tests/helpers.py, and at the end the line goes through the
JSON formats and the replay verifier.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from itertools import islice
from typing import Any

import pytest
from hypothesis import assume, event, given
from hypothesis import strategies as st
from tranquility.solver.engine.actions import (
    Choice,
    PlayFinish,
    PlayIsland,
    PlayStart,
    choice_of,
)
from tranquility.solver.engine.cards import card_key
from tranquility.solver.engine.deal import DealError, check_players, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import PRESETS, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json, line_to_json

from ..helpers import (
    census,
    deal_cards,
    dense,
    oracle_ascending,
    oracle_choices,
    oracle_complete_rows,
    oracle_cost,
    oracle_payments,
    oracle_rock_rows,
    oracle_splits,
    oracle_start_round,
    random_game,
    sparse,
)

# name: (rules, players). Every value of every option and module appears at least once
# (test_every_option_value_is_covered), and so does every player count.
CONFIGS = {
    "base-1p": (sparse(), 1),
    "base-4p": (sparse(), 4),
    "grid-orthogonal-2p": (sparse(order="grid", adjacency="orthogonal"), 2),
    "grid-both-3p": (sparse(order="grid", adjacency="both"), 3),
    "sequence-both-5p": (sparse(adjacency="both"), 5),
    "one-card-lose-2p": (sparse(one_card="lose"), 2),
    "one-card-lose-1p": (sparse(one_card="lose", hand=2, start_discards=1), 1),
    "finish-5-3p": (sparse(finish=5), 3),
    "finish-1-2p": (sparse(finish=1), 2),
    "after-hands-4p": (sparse(finish_setup="after_hands"), 4),
    "after-hands-1p": (sparse(finish_setup="after_hands", finish=5), 1),
    "monsters-2p": (sparse(monsters=2), 2),
    "monsters-grid-5p": (sparse(monsters=3, order="grid", adjacency="orthogonal"), 5),
    "rocks-auto-2p": (sparse(rocks="auto"), 2),
    "rocks-auto-tall-3p": (sparse(rocks="auto", rows=6, cols=2, islands=20), 3),
    "rocks-manual-1p": (sparse(rocks="manual"), 1),
    "rocks-manual-monsters-3p": (sparse(rocks="manual", monsters=2, order="grid"), 3),
    "removed-2p": (sparse(removed=4), 2),
    "removed-monsters-rocks-4p": (sparse(removed=2, monsters=1, rocks="auto"), 4),
    "solo-forced-start": (sparse(start_discards=7), 1),
    "team-forced-start-3p": (sparse(start_discards=10), 3),
    "wide-1x5": (sparse(rows=1, cols=5, islands=9, finish=1), 1),
    "hand-1-1p": (sparse(hand=1, start_discards=2), 1),
    "hand-1-3p": (sparse(hand=1, start_discards=4, rocks="manual"), 3),
    "dense-sequence-1p": (dense(), 1),
    "dense-sequence-2p": (dense(), 2),
    "dense-grid-orthogonal": (dense(order="grid", adjacency="orthogonal"), 2),
    "dense-both-lose": (dense(adjacency="both", one_card="lose"), 1),
    "dense-rocks-auto": (dense(rocks="auto"), 1),
    "dense-rocks-manual": (dense(rocks="manual"), 2),
    "dense-monsters": (dense(monsters=1), 1),
    "dense-after-hands": (dense(finish_setup="after_hands", finish=1), 2),
    "dense-removed": (dense(removed=2), 1),
}


def preferred(state: State, options: list[Choice]) -> list[Choice]:
    """Choices that make progress: a Finish, else the cheapest island plays, else a monster."""
    for kind in ("finish", "start"):
        found = [c for c in options if c.kind == kind]
        if found:
            return found
    islands = [c for c in options if c.kind == "island"]
    if islands:
        cheapest = min(state.cost_of(c) for c in islands)
        return [c for c in islands if state.cost_of(c) == cheapest]
    return [c for c in options if c.kind == "monster"] or options


def sort_choices(options: Iterable[Choice]) -> list[Choice]:
    return sorted(options, key=lambda c: (c.kind, card_key(c.card) if c.card is not None else (0, 0), c.cell or 0))


def check_actions(state: State, choice: Choice, actions: list) -> None:
    """The actions the engine lists for a choice are exactly the oracle's."""
    hand = list(state.hand)
    if choice.kind == "island":
        hand.remove(choice.island)
        cost = oracle_cost(state.rules, state.grid, choice.island, choice.target)
        assert cost is not None, f"the oracle finds {choice} illegal"
        assert {a.discard for a in actions} == oracle_payments(hand, cost)
    elif choice.kind == "discard":
        assert {a.discard for a in actions} == oracle_payments(hand, 2)
    elif choice.kind == "start" and len(actions) < 5000:
        hands, owed = oracle_start_round(state)
        assert {a.team_discard for a in actions} == oracle_splits(hands, owed)
    if len(actions) < 5000:
        # Every action once, and as many as the rules allow (payments times rocks moves).
        assert len(set(actions)) == len(actions) == oracle_action_count(state, choice)


def check_step(before: State, action, after: State) -> None:
    rules = before.rules
    # Each card of the deal in exactly one place.
    assert census(after) == deal_cards(after.deal)
    # The grid ascends for its order; hands never above the hand size.
    assert oracle_ascending(rules, after.grid)
    assert all(len(h) <= rules.hand for h in after.hands)
    if isinstance(action, PlayIsland):
        assert len(action.discard) == oracle_cost(rules, before.grid, action.card, action.cell)
        assert after.grid[action.cell] == action.card
    if isinstance(action, PlayFinish):
        assert after.won and after.status == "won"
        return
    # The turn passes; the seats that drew are full or have an empty pile.
    assert after.seat == (before.seat + 1) % before.players
    assert after.turn == before.turn + 1
    drew = range(before.players) if isinstance(action, PlayStart) else [before.seat]
    for seat in range(before.players):
        if seat in drew:
            assert len(after.hands[seat]) == rules.hand or after.pile(seat) == ()
        else:
            assert after.hands[seat] == before.hands[seat]
    if isinstance(action, PlayStart):
        assert after.start_played
    # Jagged Rocks: leave after enough complete rows (no roll), else move by roll / choice.
    if before.rocks_row is not None:
        leave = 4 if rules.rows >= 5 else rules.rows - 1
        if oracle_complete_rows(rules, after.grid) >= leave:
            assert after.rocks_row is None and after.rolls_used == before.rolls_used
        elif rules.rocks == "auto":
            rows = oracle_rock_rows(rules, after.grid, before.rocks_row)
            roll = before.deal.rocks_rolls[before.rolls_used]
            assert after.rocks_row == rows[roll % len(rows)]
            assert after.rolls_used == before.rolls_used + 1
        elif action.rocks.row is None:
            assert after.rocks_row == before.rocks_row and len(action.rocks.discard) == 2
        else:
            assert after.rocks_row == action.rocks.row
            assert action.rocks.row in oracle_rock_rows(rules, after.grid, before.rocks_row)
    if after.rocks_row is not None:
        row = range(after.rocks_row * rules.cols, (after.rocks_row + 1) * rules.cols)
        assert any(after.grid[c] is None for c in row)


def check_line(state: State, actions: list) -> None:
    """The line survives the JSON formats and the verifier accepts it."""
    text = json.dumps(line_to_json(Line(state.deal, tuple(actions))))
    line = line_from_json(json.loads(text))
    assert line.actions == tuple(actions)
    verdict = verify(line)
    assert verdict.legal and verdict.error is None
    assert verdict.turns == len(actions)
    assert verdict.status == state.status
    assert verdict.won == state.won
    assert verdict.state == state


def note(before: State, action, after: State) -> None:
    """Hypothesis statistics (pytest --hypothesis-show-statistics): which corners were hit."""
    if before.rocks_row is not None and after.rocks_row is None:
        event("rocks left the game")
    if after.monsters_played > before.monsters_played:
        event("monster played")
    if isinstance(action, PlayStart):
        _, owed = oracle_start_round(before)
        event("Start with forced rounds" if owed < before.rules.start_discards else "Start")
    if isinstance(action, PlayIsland) and action.discard:
        event("island paid")
    if getattr(action, "rocks", None) is not None and action.rocks.row is None:
        event("rocks stay")


def playout(data, rules: Rules, players: int) -> State:
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    state = State.initial(deal(rules, players, seed))
    actions = []
    while True:
        legal = set(state.legal_choices())
        assert legal == oracle_choices(state)
        assert state.status == ("won" if state.won else "open" if legal else "lost")
        if not legal:
            break
        options = sort_choices(legal)
        if data.draw(st.integers(0, 3), label="policy"):
            options = preferred(state, options)
        choice = data.draw(st.sampled_from(options), label="choice")
        listed = list(islice(state.actions_for(choice), 20_000))
        assert listed, f"{choice} has no action"
        check_actions(state, choice, listed)
        action = data.draw(st.sampled_from(listed), label="action")
        assert choice_of(action) == choice
        after = state.apply(action)
        check_step(state, action, after)
        note(state, action, after)
        actions.append(action)
        state = after
    event(f"ended {state.status} after {len(actions) // 10 * 10}+ turns")
    check_line(state, actions)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
@given(data=st.data())
def test_playouts_keep_every_invariant(name, data):
    rules, players = CONFIGS[name]
    playout(data, rules, players)


OPTION_VALUES: dict[str, list[Any]] = {
    "order": ["sequence", "grid"],
    "adjacency": ["sequence", "orthogonal", "both"],
    "one_card": ["play", "lose"],
    "finish": [1, 5],
    "finish_setup": ["deck", "after_hands"],
    "monsters": [0, 1, 2],
    "rocks": ["off", "auto", "manual"],
    "removed": [0, 2],
}


@pytest.mark.slow
@given(st.data())
def test_playouts_with_random_options(data):
    options = {key: data.draw(st.sampled_from(values), label=key) for key, values in OPTION_VALUES.items()}
    players = data.draw(st.integers(1, 5), label="players")
    rules = sparse(islands=22, **options)
    playout(data, rules, players)


@given(st.data())
def test_playouts_with_random_sizes(data):
    """Odd shapes and sizes too: one cell, one column, a hand of 1, a free Start."""
    rows, cols = data.draw(st.sampled_from([(1, 1), (1, 4), (2, 2), (2, 3), (4, 1), (5, 2)]), label="shape")
    options = {key: data.draw(st.sampled_from(values), label=key) for key, values in OPTION_VALUES.items()}
    if rows < 2:
        options["rocks"] = "off"
    hand = data.draw(st.integers(1, 4), label="hand")
    start_discards = data.draw(st.sampled_from([0, 1, 3, 6]), label="start_discards")
    extra = data.draw(st.integers(0, 8), label="extra islands")
    islands = rows * cols + options["monsters"] + options["removed"] + extra
    rules = Rules(rows=rows, cols=cols, islands=islands, hand=hand, start_discards=start_discards, **options)
    players = data.draw(st.integers(1, 5), label="players")
    try:
        check_players(rules, players)
    except DealError:
        assume(False)
    playout(data, rules, players)


def test_every_option_value_is_covered():
    seen: dict[str, set] = {key: set() for key in OPTION_VALUES}
    for rules, _ in CONFIGS.values():
        for key in seen:
            value = getattr(rules, key)
            seen[key].add(bool(value) if key in ("monsters", "removed") else value)
    for key, values in OPTION_VALUES.items():
        expected = {bool(v) for v in values} if key in ("monsters", "removed") else set(values)
        assert seen[key] >= expected, key
    assert {players for _, players in CONFIGS.values()} == {1, 2, 3, 4, 5}


# -- perft: legal choices and actions from fixed small deals, pinned -------------------


def oracle_action_count(state: State, choice: Choice) -> int:
    """How many legal actions the rules allow for ``choice`` (payments times rocks moves)."""
    rules, grid, hand = state.rules, state.grid, list(state.hand)

    def with_rocks(after_grid, after_hand) -> int:
        if rules.rocks != "manual" or state.rocks_row is None:
            return 1
        leave = 4 if rules.rows >= 5 else rules.rows - 1
        if oracle_complete_rows(rules, after_grid) >= leave:
            return 1
        return len(oracle_rock_rows(rules, after_grid, state.rocks_row)) + len(oracle_payments(after_hand, 2))

    def left(cards, paid):
        return list((Counter(cards) - Counter(paid)).elements())

    if choice.kind == "island":
        hand.remove(choice.island)
        after = list(grid)
        after[choice.target] = choice.island
        cost = oracle_cost(rules, grid, choice.island, choice.target)
        assert cost is not None, f"the oracle finds {choice} illegal"
        return sum(with_rocks(after, left(hand, paid)) for paid in oracle_payments(hand, cost))
    if choice.kind == "discard":
        return sum(with_rocks(grid, left(hand, paid)) for paid in oracle_payments(hand, 2))
    if choice.kind == "monster":
        after = list(grid)
        after[choice.target] = None
        return with_rocks(after, left(hand, [choice.card]))
    if choice.kind == "start":
        hands, owed = oracle_start_round(state)
        return sum(with_rocks(grid, left(hands[state.seat], split[state.seat])) for split in oracle_splits(hands, owed))
    return 1


def perft(state: State, depth: int) -> tuple[int, int]:
    """(choices, actions) summed over every line of ``depth`` actions from ``state``;
    every node's counts are checked against the oracle's on the way."""
    choices = list(state.legal_choices())
    actions = [a for c in choices for a in state.actions_for(c)]
    assert set(choices) == oracle_choices(state)
    assert len(set(actions)) == len(actions) == sum(oracle_action_count(state, c) for c in choices)
    if depth == 1:
        return len(choices), len(actions)
    total = [0, 0]
    for action in actions:
        c, a = perft(state.apply(action), depth - 1)
        total[0] += c
        total[1] += a
    return total[0], total[1]


TINY4 = {"rows": 1, "cols": 4, "islands": 8, "finish": 1, "hand": 3, "start_discards": 2}
SQUARE = {"rows": 2, "cols": 2, "islands": 9, "finish": 1, "hand": 3, "start_discards": 2}
PERFT: dict[str, tuple[tuple[dict[str, Any], int, int, int], tuple[int, int]]] = {
    # name: (rule options, players, seed, depth), (choices, actions)
    "tiny-2p-d1": ((TINY4, 2, 0, 1), (13, 15)),
    "tiny-2p-d3": ((TINY4, 2, 0, 3), (292, 780)),
    "grid-2x2-1p-d3": ((dict(TINY4, rows=2, cols=2, order="grid"), 1, 5, 3), (713, 1147)),
    "monsters-2p-d3": ((dict(SQUARE, monsters=1), 2, 4, 3), (499, 803)),
    "rocks-manual-2p-d3": ((dict(SQUARE, rocks="manual"), 2, 9, 3), (144, 1041)),
    "rocks-auto-1p-d4": ((dict(SQUARE, rocks="auto"), 1, 3, 4), (786, 1498)),
    "solo-forced-start-d4": ((dict(SQUARE, start_discards=5), 1, 2, 4), (405, 405)),
    "orthogonal-5p-d2": (
        ({"rows": 2, "cols": 3, "islands": 16, "finish": 2, "hand": 3, "start_discards": 3, "adjacency": "orthogonal"}, 5, 1, 2),
        (168, 224),
    ),
    "official-4p-d1": (({}, 4, 1, 1), (181, 190)),
    "official-1p-d2": (({}, 1, 42, 2), (17005, 18925)),
}


# The deepest count takes over a second: marked slow, the others stay in the edit loop.
SLOW_PERFT = {"official-1p-d2"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_PERFT else n for n in sorted(PERFT)])
def test_perft(name):
    (options, players, seed, depth), expected = PERFT[name]
    state = State.initial(deal(Rules(**options), players, seed))
    assert perft(state, depth) == expected


def test_perft_empty_grid_matches_counting():
    # From an empty grid every island of the hand fits every cell for free.
    state = State.initial(deal(Rules(), 3, 77))
    islands = {c for c in state.hand if isinstance(c, int)}
    assert len(list(state.legal_choices())) == 36 * len(islands) + 1
    # Each free play is one action; discard-two has C(5, 2) = 10 (distinct cards).
    assert len(list(state.legal_actions())) == 36 * len(islands) + 10


# -- conformance (OpenSpiel spirit): every preset, 1..5 players, 3 random games ---------


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_preset_random_games_verify(name, players):
    rules = PRESETS[name]
    for game in range(3):
        rng = random.Random(f"{name}/{players}/{game}")
        start = State.initial(deal(rules, players, rng.getrandbits(32)))
        end, actions = random_game(start, rng)
        assert end.status in ("won", "lost")
        assert census(end) == deal_cards(end.deal)
        line = line_from_json(json.loads(json.dumps(line_to_json(Line(start.deal, tuple(actions))))))
        verdict = verify(line)
        assert verdict.legal, verdict.error
        assert (verdict.turns, verdict.status, verdict.state) == (len(actions), end.status, end)
