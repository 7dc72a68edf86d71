"""The core suite (``bench --suite core``): the compiled core and the reference engine side by
side, in one run, on the same games.

Per player count and silent policy: the seeded official deals played to the end by the
reference (``play_on``) and by the core in one batch, each timed in this thread's CPU seconds;
games a CPU second for each, their ratio, and whether the two played the same games (the
same end, deal by deal; the parity tests check them action for action). Then the lookahead's
playouts: from positions half-way through tuned games, the blueprint played out by the
reference one at a time and by the core in one batch. Then the greedy solver's playouts (the
series ``greedy`` plays from each deal, ``GREEDY_PLAYOUTS`` of them) on each side. Then the
complete search from each deal, ``SEARCH_NODES`` nodes on each side (the row counts nodes, not
games; both sides search the same nodes). Ratios, not absolute times, are what carry from one
machine to another.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tranquility.solver.batch.bench import Suite, machine_description
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State, replay
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.complete import exhaustive
from tranquility.solver.search.greedy import seeded_playouts
from tranquility.solver.search.policies import COMPILED, Ending, make_policy, play_on, playouts, simulate

T = TypeVar("T")

CORE = Suite(
    "core",
    (1, 2, 3, 4, 5),
    refuses=("time_limit", "workers", "reproducible"),
    why="it plays whole games on one thread, solving none",
)
DEALS = 200  # deals per player count and policy (the reference plays REFERENCE_DEALS of them)
REFERENCE_DEALS = 40
POLICIES = tuple(COMPILED.values())
PLAYOUT_POLICY = "tuned"
STEPS = len(POLICIES) + 3  # steps a player count: each policy, the playouts, the greedy playouts, the complete search
GREEDY_PLAYOUTS = 10  # the greedy solver's playouts per deal (the reference plays them from REFERENCE_DEALS)
SEARCH_NODES = 2_000  # the complete search's nodes from each deal
SEARCH_REFERENCE_DEALS = 10


@dataclass(frozen=True)
class CoreRow:
    """One player count and policy (or the playouts): games a CPU second on each side."""

    # The policy, "playouts" for the lookahead's playouts from mid-game, "greedy playouts" for
    # the greedy solver's, "complete search nodes" for the complete search (nodes, not games).
    what: str
    players: int
    reference_games: int
    reference_seconds: float
    core_games: int
    core_seconds: float
    same: bool  # the core ended every game the reference played as the reference did

    @property
    def reference_rate(self) -> float:
        return self.reference_games / self.reference_seconds if self.reference_seconds else 0.0

    @property
    def core_rate(self) -> float:
        return self.core_games / self.core_seconds if self.core_seconds else 0.0

    @property
    def ratio(self) -> float:
        return self.core_rate / self.reference_rate if self.reference_rate else 0.0

    def to_json(self) -> dict:
        return {
            "what": self.what,
            "players": self.players,
            "reference_games": self.reference_games,
            "reference_cpu_seconds": round(self.reference_seconds, 4),
            "reference_games_per_cpu_second": round(self.reference_rate, 1),
            "core_games": self.core_games,
            "core_cpu_seconds": round(self.core_seconds, 4),
            "core_games_per_cpu_second": round(self.core_rate, 1),
            "ratio": round(self.ratio, 1),
            "same_games": self.same,
        }


@dataclass(frozen=True)
class CoreReport:
    rows: tuple[CoreRow, ...]
    deals: int
    load_seconds: float  # the core's import: compiling it, or reading numba's cache
    machine: str
    interrupted: bool = False

    def to_json(self) -> dict:
        return {
            "suite": CORE.name,
            "deals": self.deals,
            "reference_deals": min(self.deals, REFERENCE_DEALS),
            "core_load_seconds": round(self.load_seconds, 2),
            "machine": self.machine,
            "interrupted": self.interrupted,
            "rows": [row.to_json() for row in self.rows],
        }


def _timed(work: Callable[[], list[T]]) -> tuple[list[T], float]:
    began = time.thread_time()
    found = work()
    return found, time.thread_time() - began


def _ends(states: list[State], policy: str) -> list[Ending]:
    player = make_policy(policy)
    found = []
    for state in states:
        end = play_on(state, player)[0]
        found.append(Ending(end.won, end.filled, end.cards_left))
    return found


def _row(what: str, players: int, states: list[State], policy: str) -> CoreRow:
    reference, ref_seconds = _timed(lambda: _ends(states[:REFERENCE_DEALS], policy))
    core, core_seconds = _timed(lambda: playouts(states, make_policy(policy)))
    same = core[: len(reference)] == reference
    return CoreRow(what, players, len(reference), ref_seconds, len(core), core_seconds, same)


def _greedy_row(players: int, states: list[State]) -> CoreRow:
    """The greedy solver's seeded playouts from each deal: (won, length) of each, both sides."""

    def series(states: list[State], compiled: bool) -> list[tuple[bool, int]]:
        return [found for seed, state in enumerate(states) for found in seeded_playouts(state, seed, GREEDY_PLAYOUTS, compiled)]

    reference, ref_seconds = _timed(lambda: series(states[:REFERENCE_DEALS], False))
    core, core_seconds = _timed(lambda: series(states, True))
    same = core[: len(reference)] == reference
    return CoreRow("greedy playouts", players, len(reference), ref_seconds, len(core), core_seconds, same)


def _search_row(players: int, states: list[State]) -> CoreRow:
    """The complete search from each deal, ``SEARCH_NODES`` nodes: the nodes a CPU second of
    each side, and whether each search ended with the same verdict, line and counts."""

    def searches(states: list[State], compiled: bool) -> list[tuple]:
        found = []
        for state in states:
            stats = SearchStats()
            verdict, line = exhaustive(state, Deadline(nodes=SEARCH_NODES), stats, compiled=compiled)
            found.append((verdict, line, stats.to_json()))
        return found

    reference, ref_seconds = _timed(lambda: searches(states[:SEARCH_REFERENCE_DEALS], False))
    core, core_seconds = _timed(lambda: searches(states, True))
    same = core[: len(reference)] == reference

    def nodes(found: list[tuple]) -> int:
        return sum(stats["nodes"] for _, _, stats in found)

    return CoreRow("complete search nodes", players, nodes(reference), ref_seconds, nodes(core), core_seconds, same)


def midgame_positions(players: int, deals: int) -> list[State]:
    """Positions half-way through tuned games of the seeded deals: where a lookahead searches."""
    positions = []
    for seed in range(deals):
        game = deal(OFFICIAL, players, seed)
        line = simulate(game, PLAYOUT_POLICY, seed, compiled=True).line
        positions.append(replay(game, line.actions[: len(line.actions) // 2]))
    return positions


def run_core_suite(players: tuple[int, ...], deals: int, on_step: Callable[[str], None]) -> CoreReport:
    """Every policy at every player count, then the playouts; ``on_step`` names each step."""
    began = time.perf_counter()
    import tranquility.solver.core.complete  # the load is measured on its own
    import tranquility.solver.core.games
    import tranquility.solver.core.greedy  # noqa: F401

    load = time.perf_counter() - began
    rows: list[CoreRow] = []
    try:
        for count in players:
            states = [State.initial(deal(OFFICIAL, count, seed)) for seed in range(deals)]
            for policy in POLICIES:
                on_step(f"{policy} {count}p")
                rows.append(_row(policy, count, states, policy))
            on_step(f"playouts {count}p")
            rows.append(_row("playouts", count, midgame_positions(count, deals), PLAYOUT_POLICY))
            on_step(f"greedy {count}p")
            rows.append(_greedy_row(count, states))
            on_step(f"complete search {count}p")
            rows.append(_search_row(count, states))
    except KeyboardInterrupt:  # Ctrl-C: the rows measured so far, said to be cut short
        return CoreReport(tuple(rows), deals, load, machine_description(), interrupted=True)
    return CoreReport(tuple(rows), deals, load, machine_description())


COLUMNS = ("what", "players", "reference a CPU s", "core a CPU s", "core / reference", "same")


def cells(row: CoreRow) -> list[str]:
    return [
        row.what,
        str(row.players),
        f"{row.reference_rate:,.0f}",
        f"{row.core_rate:,.0f}",
        f"{row.ratio:.1f}x",
        "yes" if row.same else "NO",
    ]


def core_markdown(report: CoreReport) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(cells(row)) + " |" for row in report.rows]
    return "\n".join(lines)
