"""The complete search on the compiled core against the reference (search/complete.py): on
positions from every preset and player count, from before the Start to late in the game, the
same verdict, the same line and the same counts (nodes, table hits, refutations, lost
positions) for the same node budget; the pieces it is made of (the candidate moves in their
order, a Start's splits one at a time, the refutations) each as the reference's."""

from __future__ import annotations

import random
from itertools import islice

import numpy as np
import pytest
from tranquility.solver.core import complete as core
from tranquility.solver.core import kernel
from tranquility.solver.core.layout import action_of, pack
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import live_islands, refutation
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.complete import LostPositions, _ordered, exhaustive
from tranquility.solver.search.greedy import greedy
from tranquility.solver.verdicts import Verdict

from .test_parity import PRESET_NAMES, midgame

pytestmark = pytest.mark.slow  # whole searches and games on both sides: seconds each

MOVES = 400  # of a Start's splits, which can number hundreds of thousands


def both(state: State, deadline: Deadline | None = None, nodes: int = 1500, lost=None) -> tuple:
    found = []
    for compiled in (False, True):
        stats = SearchStats()
        verdict, line = exhaustive(state, Deadline(nodes=nodes) if deadline is None else deadline, stats, lost, compiled)
        found.append((verdict, line, stats.to_json()))
    return tuple(found)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("players", range(1, 6))
def test_the_core_searches_the_reference_s_tree(preset, players):
    for turns in (0, 24):
        state = midgame(preset, players, players, turns)
        reference, compiled = both(state)
        assert compiled == reference, (turns, reference[0], compiled[0])


def late_positions():
    """Positions late in a random game (mostly lost) and late on a greedy win's line."""
    for preset in PRESET_NAMES:
        for players in (1, 3, 5):
            yield midgame(preset, players, 7, 34)
            start = State.initial(deal(PRESETS[preset], players, 7))
            line = greedy(start, Deadline(nodes=300), SearchStats(), 0)
            if line is not None:
                state = start
                for action in line[: max(0, len(line) - 12)]:
                    state = state.apply(action)
                yield state


def test_it_proves_and_wins_as_the_reference():
    """Late positions, searched to the end: both verdicts, with lines the engine replays."""
    seen = set()
    for state in late_positions():
        reference, compiled = both(state, nodes=20_000)
        assert compiled == reference
        seen.add(compiled[0])
        if compiled[0] == Verdict.WIN:
            end = state
            for action in compiled[1]:
                end = end.apply(action)
            assert end.won
    assert {Verdict.WIN, Verdict.NO_WIN} <= seen


def core_moves(state: State) -> list:
    """The core's candidate moves of ``state``, as the engine's actions (a Start's splits
    one at a time through the odometer, as the search tries them), at most ``MOVES``."""
    tab, D, G = pack(state)
    R, players, hmax = tab.R, tab.players, tab.hmax
    live = np.zeros(int(R[2]) + 2, np.int64)
    core.mark_live(G, R, live)
    stack = np.zeros((4096, tab.width), np.int64)
    rows: list = []
    if kernel.must_play_start(G, R):
        most = core.most_payments(hmax, hmax // 2) + 1
        sh, sh_n = np.zeros((players, hmax), np.int64), np.zeros(players, np.int64)
        comp, caps, count, at = (np.zeros(players, np.int64) for _ in range(4))
        pays, pays_n = np.zeros((players, most, hmax), np.int64), np.zeros((players, most), np.int64)
        owed = kernel.start_rounds(G, D, R, sh, sh_n, np.zeros(players, np.int64))[0]
        going = owed >= 0 and core.first_split(sh, sh_n, owed, live, comp, caps, count, pays, pays_n, at)
        while going and len(rows) < MOVES:
            end = core.split_moves(G, D, R, live, comp, pays, pays_n, at, stack, 0, tab.width)
            rows += [stack[i].copy() for i in range(end)]
            going = core.next_split(sh, sh_n, owed, live, comp, caps, count, pays, pays_n, at)
    elif not kernel.out_of_cards(G, R):
        rows = list(stack[: core.list_moves(G, D, R, live, stack, 0, tab.width)])
    return [action_of(row, players, hmax) for row in rows[:MOVES]]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_position_has_the_reference_s_moves_in_its_order_and_refutation(preset):
    rng = random.Random(preset)
    for players in range(1, 6):
        state = State.initial(deal(PRESETS[preset], players, rng.randrange(1000)))
        while True:
            live = live_islands(state)
            expected = list(islice(_ordered(state, live), MOVES))
            assert core_moves(state) == expected, (players, state.turn)
            tab, D, G = pack(state)
            marks = np.zeros(int(tab.R[2]) + 2, np.int64)
            core.mark_live(G, tab.R, marks)
            assert set(np.flatnonzero(marks)) == set(live)
            assert core.refuted(G, D, tab.R, marks) == (refutation(state, live) is not None), (players, state.turn)
            if not expected:
                break
            state = state.apply(rng.choice(expected))


def test_a_search_under_a_clock_and_a_shared_table_stays_sound():
    """Runs of a few nodes between looks at the clock, a table grown many times and shared
    with a second search: the verdicts are the reference's, never a different one."""
    state = midgame("official", 2, 3, 30)
    reference = exhaustive(state, Deadline(nodes=50_000), SearchStats(), compiled=False)
    lost = LostPositions()
    first = exhaustive(state, Deadline(seconds=60), SearchStats(), lost, compiled=True)
    again_stats = SearchStats()
    again = exhaustive(state, Deadline(seconds=60), again_stats, lost, compiled=True)
    assert reference[0] in (Verdict.WIN, Verdict.NO_WIN)
    assert first == reference and again[0] == reference[0]
    if reference[0] == Verdict.NO_WIN:
        assert again_stats.nodes == 1 and again_stats.cache_hits == 1  # the root is known lost


def test_a_spent_budget_is_unknown_and_counted_as_the_reference_counts():
    state = midgame("official", 4, 1, 0)
    reference, compiled = both(state, nodes=10)
    assert compiled == reference
    assert compiled[0] == Verdict.UNKNOWN and compiled[2]["nodes"] == 11


def test_a_position_without_its_history_is_searched_as_the_reference_searches_it():
    """A position's deal holds only the piles still to draw; the hands hold the rest."""
    for preset in ("official", "monsters", "rocks-manual"):
        for players in (1, 2, 4):
            for turns in (6, 30):
                state = Position.of(midgame(preset, players, 11, turns)).state()
                reference, compiled = both(state, nodes=3000)
                assert compiled == reference, (preset, players, turns)
