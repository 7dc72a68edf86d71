"""The complete depth-first search that proves NO-WIN where the state space allows: it
moves only by ``State.apply``, pays junk first, and keys its transposition table on
canonical states (junk written as one token).

This is the reference, readable rule by rule; the compiled core runs the same search
(core/complete.py: the same nodes in the same order, held to this one by parity tests)
once the process has it loaded (core/warm.py), and the engine replays its winning line."""

from __future__ import annotations

from collections.abc import Iterable

from tranquility.solver.engine.actions import (
    Action,
    PlayFinish,
    PlayIsland,
    PlayStart,
)
from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import live_islands, refutation, state_key
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.compiled import load, ready
from tranquility.solver.search.moves import candidate_actions
from tranquility.solver.verdicts import Verdict

COMPILED_COMPLETE = "tranquility.solver.core.complete"
CHUNK = 4096  # the nodes a compiled run goes between looks at the clock and at Ctrl-C


class LostPositions:
    """Positions proven lost, kept between searches of the same deal: a lost canonical
    position is lost whichever line reached it. The reference keeps keys, the core a table
    of its own per table size."""

    def __init__(self) -> None:
        self.keys: set = set()
        self.tables: dict = {}

    def table(self, tab):  # a core.complete.LostTable; the core is imported by then
        from tranquility.solver.core.complete import LostTable

        key = (tab.rules, tab.players, tab.hmax)
        if key not in self.tables:
            self.tables[key] = LostTable(tab.R)
        return self.tables[key]


def exhaustive(
    state: State,
    deadline: Deadline,
    stats: SearchStats,
    lost: LostPositions | None = None,
    compiled: bool | None = None,
) -> tuple[str, list[Action] | None]:
    """Depth-first search over canonical states with a transposition table of lost
    positions. Returns ("win", line), ("no-win", None) when the whole tree was refuted,
    or ("unknown", None) when the budget ran out. ``lost`` may be shared between searches
    of the same deal. ``compiled``: on the core (True), on the reference (False), or on the
    core once the process has it (None)."""
    lost = LostPositions() if lost is None else lost
    if ready(COMPILED_COMPLETE) if compiled is None else compiled:
        return _on_core(state, deadline, stats, lost)
    return _on_reference(state, deadline, stats, lost.keys)


def _on_core(state: State, deadline: Deadline, stats: SearchStats, lost: LostPositions) -> tuple[str, list[Action] | None]:
    from tranquility.solver.core import complete as core
    from tranquility.solver.core.layout import action_of, pack

    load(COMPILED_COMPLETE)
    tab, D, G = pack(state)
    search = core.Search.start(tab, D, G, lost.table(tab))
    verdict = Verdict.UNKNOWN
    try:
        while True:
            budget = CHUNK if deadline.nodes_left is None else min(CHUNK, max(deadline.nodes_left, 0))
            status, counted = search.run(budget)
            stats.nodes += counted
            if deadline.nodes_left is not None:
                deadline.nodes_left -= counted
            if status == core.WON:
                verdict = Verdict.WIN
                break
            if status == core.NO_WIN:
                verdict = Verdict.NO_WIN
                break
            # The next node's tick, as the reference counts it: a node refused by the budget
            # is counted; one let through is counted by the core when it goes on.
            if not deadline.tick():
                stats.nodes += 1
                break
            if deadline.nodes_left is not None:
                deadline.nodes_left += 1
    finally:
        stats.cache_hits += search.hits
        stats.refuted += search.refuted
        stats.extra["lost_positions"] = search.table.count
    if verdict == Verdict.WIN:
        return verdict, [action_of(row, tab.players, tab.hmax) for row in search.line]
    return verdict, None


def _on_reference(state: State, deadline: Deadline, stats: SearchStats, lost: set) -> tuple[str, list[Action] | None]:
    path: list[Action] = []

    def dfs(s: State) -> bool | None:
        if s.won:
            return True
        node = _node(s, deadline, stats)
        if node is None:
            return None
        live, key = node
        if key in lost:
            stats.cache_hits += 1
            return False
        if refutation(s, live) is not None:
            stats.refuted += 1
            lost.add(key)
            return False
        unknown = False
        for action in _ordered(s, live):
            path.append(action)
            result = dfs(s.apply(action))
            if result:
                return True
            path.pop()
            if result is None:
                unknown = True
                if deadline.expired():
                    return None
        if unknown:
            return None
        lost.add(key)
        return False

    result = dfs(state)
    stats.extra["lost_positions"] = len(lost)
    if result:
        return Verdict.WIN, list(path)
    if result is None:
        return Verdict.UNKNOWN, None
    return Verdict.NO_WIN, None


def _node(state: State, deadline: Deadline, stats: SearchStats) -> tuple[frozenset[int], tuple] | None:
    """Count a search node: its live islands and canonical key, or None when the budget
    has run out."""
    stats.nodes += 1
    if not deadline.tick():
        return None
    live = live_islands(state)
    return live, state_key(state, live)


def _ordered(state: State, live: frozenset[int]) -> Iterable[Action]:
    """Candidate actions, cheapest island plays first (finds wins early). A seat that must
    play its Start has nothing else to play, and the team's ways to pay for it can number
    hundreds of thousands: they are made one at a time as the search tries them, so that
    the deadline is heard between them."""
    if state.must_play_start():
        return candidate_actions(state, live)
    actions = list(candidate_actions(state, live))

    def rank(a: Action) -> tuple[int, int]:
        # A paid stay of the rocks counts as two more cards paid.
        stay = 2 if a.rocks is not None and a.rocks.row is None else 0
        match a:
            case PlayFinish():
                return (0, 0)
            case PlayIsland():
                return (1, len(a.discard) + stay)
            case PlayStart():
                return (1, stay)
        return (2, stay)

    actions.sort(key=rank)
    return actions
