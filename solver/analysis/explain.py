"""Explaining a solve: the best line turn by turn, which moves were the only ones that kept
the win (with proof, or said to be unchecked), and for an unwinnable deal how far the team
can get and what binds (docs/explain.md)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Phase, Progress, Result, Step
from tranquility.solver.cpsat.binds import Binding, what_binds
from tranquility.solver.engine.actions import Action, Choice, PlayIsland, PlayStart, choice_of, describe
from tranquility.solver.engine.cards import Card
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.rules import Order
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import Replayed, replayed
from tranquility.solver.search.bounds import empty_runs, live_islands, monsters_left, refutation, state_key
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.complete import LostPositions, exhaustive
from tranquility.solver.search.greedy import Style, plausible_first, playout
from tranquility.solver.search.moves import candidate_actions, choice_actions
from tranquility.solver.verdicts import DecidedBy, Method, Objective, Verdict

CRITICAL_PHASE, REACH_PHASE, BINDS_PHASE = "critical moves", "best reach", "what binds"  # explain's own phases


class Critical(StrEnum):
    """How many choices kept the win at a turn of the best line."""

    ONLY = "only"  # every alternative was proven to lose
    FEW = "few"  # one or two alternatives also win
    MANY = "many"  # three or more alternatives win
    UNCHECKED = "not checked"  # the budget ran out first
    FORCED = "forced"  # no other legal choice at all



@dataclass(frozen=True)
class Turn:
    """One turn of an explained line, as the rules engine replayed it."""

    number: int  # counted from 1 over the whole line
    seat: int
    action: Action
    text: str
    cost: int  # cards paid as an island's placement cost (0 for every other action)
    drawn: tuple[Card, ...]  # cards the seat (every seat, after a Start) drew afterwards
    hand: tuple[Card, ...]  # the mover's hand before the turn: what it chose from
    hands: tuple[int, ...]  # cards in each seat's hand after the turn
    piles: tuple[int, ...]  # cards left in each seat's pile after the turn
    moments: tuple[str, ...]  # why the grid is worth drawing here: start, row R (row R, 0 = the bottom row, is now complete), end
    state: State  # the position after the turn


@dataclass(frozen=True)
class Criticality:
    """How many choices (actions without their payment) kept the win at one turn."""

    number: int
    choice: str
    kind: Critical
    winning_alternatives: int  # alternatives shown to win (stops counting at 3)
    undecided: int  # alternatives neither shown to win nor proven lost in the budget
    example: str | None  # a winning alternative (the whole action, payment included), when one was found

    @property
    def proven(self) -> bool:
        """Many and forced are shown outright; only and few need every alternative decided."""
        if self.kind in (Critical.MANY, Critical.FORCED):
            return True
        return self.kind != Critical.UNCHECKED and self.undecided == 0


@dataclass
class Explanation:
    result: Result
    turns: list[Turn] = field(default_factory=list)
    critical: list[Criticality] = field(default_factory=list)
    reach: Reach | None = None
    summary: dict = field(default_factory=dict)
    phases: tuple[Phase, ...] = ()  # the solve's phases, then the critical moves or the reach and what binds
    interrupted: bool = False  # Ctrl-C stopped it: what was found so far, the rest not checked
    seconds: float = 0.0  # the whole explanation (the solve's own seconds are result.seconds)

    @property
    def total_seconds(self) -> float:
        """The whole explanation's seconds as every view gives them (the terminal's first
        line, the --html page, --json): to the millisecond, one figure for all of them."""
        return round(self.seconds or self.result.seconds, 3)

    @property
    def already_won(self) -> bool:
        """The line given had already won: its turns are narrated as played, from the deal."""
        return self.result.verdict == Verdict.WIN and self.result.method == DecidedBy.REPLAY

    def to_json(self) -> dict:
        """The explanation as ``tranquility explain --json`` prints it (docs/explain.md)."""
        from tranquility.solver.formats.codecs import action_to_json, line_to_json

        critical = {c.number: c for c in self.critical}
        turns: list[dict] = []
        data: dict[str, object] = {
            "verdict": self.result.verdict,
            "method": self.result.method,
            "seconds": round(self.result.seconds, 3),
            "total_seconds": self.total_seconds,
            "interrupted": self.interrupted,
            "phases": [p.to_json() for p in self.phases],
            "reason": self.result.reason,
            "already_won": self.already_won,
            "objective": self.result.best.to_json() if self.result.best else None,
            "line": line_to_json(self.result.line) if self.result.line else None,
            "turns": turns,
            "summary": self.summary,
            "reach": None,
        }
        for t in self.turns:
            c = critical.get(t.number)
            turns.append(
                {
                    "turn": t.number,
                    "seat": t.seat,
                    "action": action_to_json(t.action),
                    "text": t.text,
                    "cost": t.cost,
                    "drawn": list(t.drawn),
                    "hand": list(t.hand),
                    "hands": list(t.hands),
                    "piles": list(t.piles),
                    "moments": list(t.moments),
                    "critical": None
                    if c is None
                    else {
                        "kind": c.kind,
                        "winning_alternatives": c.winning_alternatives,
                        "undecided": c.undecided,
                        "example": c.example,
                    },
                }
            )
        if self.reach is not None:
            data["reach"] = {
                "cells": self.reach.cells,
                "of": self.reach.line.deal.rules.cells,
                "proven": self.reach.proven,
                "binds": self.reach.binds,
                "binding": None if self.reach.binding is None else self.reach.binding.to_json(),
                "line": line_to_json(self.reach.line),
            }
        return data


@dataclass(frozen=True)
class Reach:
    """For an unwinnable position: the most cells a line fills before the team is stuck."""

    cells: int
    proven: bool  # True when the complete search covered every line
    line: Line
    binds: str | None  # the proof that the win is impossible, in words
    binding: Binding | None = None  # the rule groups that together bind (solver.binds)


def explain(
    game: Game | Replayed,
    objective: Objective = Objective.SPARE,
    budget: Budget = Budget(seconds=60),
    critical_budget: float = 30.0,
    progress: Progress | None = None,
    total: float | None = None,
) -> Explanation:
    """Solve ``game`` for ``objective`` within ``budget``; then, for a win, check the
    critical moves within ``critical_budget`` seconds; for a no-win, find the best reach
    and what binds. With ``total``, those last two share what the solve left of ``total``
    seconds (3/5 and 2/5), so that the whole explanation keeps within about ``total``;
    without, they take 3/4 and 1/2 (at most 30 s) of ``budget.seconds``. ``progress``
    hears each phase (``Step``); ``Explanation.phases`` times each part that ran. The game
    is replayed once (a game already replayed, not again), and every part reads that."""
    started = time.monotonic()
    game = replayed(game)
    result = solve(game, budget, objective=objective, progress=progress)
    out = Explanation(result)
    phases = list(result.phases)
    mark = time.monotonic()

    def ran(name: str, how: str, found: str) -> None:
        nonlocal mark
        now = time.monotonic()
        phases.append(Phase(name, how, now - mark, found))
        mark = now

    if result.verdict == Verdict.WIN:
        line = result.winning_line
        # A line that has already won is narrated as it was played, from the deal, and
        # its own turns get the critical-move checks; otherwise the solver's continuation.
        start = 0 if out.already_won else result.prefix
        out.turns = narrate(line, start)
        # After a Ctrl-C in the solve, no critical move is checked (each is "not checked").
        out.critical, stopped = critical_moves(line, start, 0.0 if result.interrupted else critical_budget, progress)
        out.interrupted = result.interrupted or stopped
        ran(CRITICAL_PHASE, "re-solves", _checked(out.critical) + (" (interrupted)" if stopped else ""))
        out.summary = explanation_summary(out.turns, result)
    elif result.verdict == Verdict.NO_WIN:
        try:
            _unwinnable(out, game, budget, total, started, progress, ran)
        except KeyboardInterrupt:  # the proof stands; the reach or what binds is left out
            out.interrupted = True
    else:
        out.interrupted = result.interrupted
    out.phases = tuple(phases)
    out.seconds = time.monotonic() - started
    return out


def _unwinnable(
    out: Explanation,
    game: Replayed,
    budget: Budget,
    total: float | None,
    started: float,
    progress: Progress | None,
    ran: Callable[[str, str, str], None],
) -> None:
    """For a no-win: the best reach, then what binds (``out.reach``), each phase timed by ``ran``."""
    reach_budget, binds_seconds = budget, min(30.0, max(5.0, budget.seconds / 2))
    if total is not None:
        left = max(0.0, total - (time.monotonic() - started))
        reach_budget, binds_seconds = replace(budget, seconds=0.8 * left), 0.4 * left
    if progress is not None:
        progress(Step(REACH_PHASE, None if budget.reproducible else time.monotonic() + 0.75 * reach_budget.seconds))
    out.reach = best_reach(game, reach_budget, out.result.reason)
    of = out.reach.line.deal.rules.cells
    ran(REACH_PHASE, "greedy, exhaustive", f"{out.reach.cells} of {of} cells{', proven' if out.reach.proven else ''}")
    if progress is not None:
        progress(Step(BINDS_PHASE, time.monotonic() + binds_seconds, f"best reach {out.reach.cells} of {of} cells"))
    out.reach = replace(out.reach, binding=what_binds(game.state, binds_seconds))
    ran(BINDS_PHASE, DecidedBy.CPSAT, str(out.reach.binding.status if out.reach.binding else "unknown"))


def _checked(critical: list[Criticality]) -> str:
    """The critical-move phase's ``found``: turns checked, and what they are."""
    only = sum(c.kind == Critical.ONLY for c in critical)
    unchecked = sum(c.kind == Critical.UNCHECKED for c in critical)
    return f"{len(critical) - unchecked} of {len(critical)} turns checked, {only} only move(s)"


def narrate(line: Line, prefix: int = 0) -> list[Turn]:
    """Replay the line and record each turn of the continuation after ``prefix`` actions."""
    state = line.initial_state()
    turns = []
    for number, action in enumerate(line.actions, start=1):
        before = state
        state = state.apply(action)
        if number <= prefix:
            continue
        drawn: list[Card] = []
        for seat in range(state.players):
            drawn += list(line.deal.piles[seat][before.drawn[seat] : state.drawn[seat]])
        moments = []
        if isinstance(action, PlayStart):
            moments.append("start")
        done = _full_rows(before)
        moments += [f"row {row}" for row in sorted(_full_rows(state) - done)]
        if state.won:
            moments.append("end")
        cost = len(action.discard) if isinstance(action, PlayIsland) else 0
        turns.append(
            Turn(
                number=number,
                seat=action.seat,
                action=action,
                text=describe(action),
                cost=cost,
                drawn=tuple(drawn),
                hand=before.hands[action.seat],
                hands=tuple(len(h) for h in state.hands),
                piles=tuple(len(state.pile(s)) for s in range(state.players)),
                moments=tuple(moments),
                state=state,
            )
        )
    return turns



def _full_rows(state: State) -> set[int]:
    """The rows (by index, 0 = the bottom row) whose every cell is filled."""
    cols = state.rules.cols
    return {r for r in range(state.rules.rows) if all(v is not None for v in state.grid[r * cols : (r + 1) * cols])}


def explanation_summary(turns: list[Turn], result: Result) -> dict:
    from tranquility.solver.engine.actions import DiscardTwo

    costs = sum(t.cost for t in turns)
    discarded = sum(len(t.action.discard) for t in turns if isinstance(t.action, DiscardTwo))
    start = sum(len(c) for t in turns if isinstance(t.action, PlayStart) for c in t.action.team_discard)
    spare = (sum(turns[-1].hands) + sum(turns[-1].piles)) if turns else 0
    return {
        "turns": len(turns),
        "costs_paid": costs,
        "discard_two_cards": discarded,
        "start_discards": start,
        "spare_cards": spare,
    }


# -- critical moves ------------------------------------------------------------------------


def critical_moves(
    line: Line, prefix: int, seconds: float, progress: Progress | None = None
) -> tuple[list[Criticality], bool]:
    """For each turn of the continuation: was its choice the only one that kept the win?

    Each alternative choice is tried with every payment worth trying (junk first, the
    same dominance as the complete search) by a short solve; an alternative that wins
    counts, one whose every payment is proven lost does not, anything else is undecided.
    The budget is shared out over the turns; turns it does not reach are "not checked",
    and so are the turns left when Ctrl-C stops the pass (the bool returned: interrupted)."""
    deadline = time.monotonic() + seconds
    state = line.initial_state()
    for action in line.actions[:prefix]:
        state = state.apply(action)
    out: list[Criticality] = []
    lost = LostPositions()  # lost canonical states, shared by every re-solve of this pass
    continuation = line.actions[prefix:]
    interrupted = False
    for index, action in enumerate(continuation):
        number = prefix + index + 1
        if progress is not None:
            only = sum(c.kind == Critical.ONLY for c in out)
            found = f"turn {number} of {len(line.actions)}; {index} checked, {only} only move(s) so far"
            progress(Step(CRITICAL_PHASE, deadline, found))
        chosen = choice_of(action)
        left = deadline - time.monotonic()
        turns_left = len(continuation) - index
        if left <= 0 or interrupted:
            out.append(Criticality(number, str(chosen), Critical.UNCHECKED, 0, 0, None))
        else:
            try:
                out.append(_classify(line, prefix + index, state, chosen, number, left / turns_left, lost))
            except KeyboardInterrupt:
                interrupted = True
                out.append(Criticality(number, str(chosen), Critical.UNCHECKED, 0, 0, None))
        state = state.apply(action)
    return out, interrupted


def _classify(
    line: Line, done: int, state: State, chosen: Choice, number: int, seconds: float, lost: LostPositions
) -> Criticality:
    until = time.monotonic() + seconds
    live = live_islands(state)
    alternatives = plausible_first(state, [c for c in state.legal_choices() if c != chosen], live)
    if not alternatives:
        return Criticality(number, str(chosen), Critical.FORCED, 0, 0, None)
    winners, undecided, example = 0, 0, None
    for choice in alternatives:
        left = until - time.monotonic()
        if left <= 0:
            undecided += 1
            continue
        outcome, winning = _choice_outcome(line, done, state, choice, live, left, lost)
        if outcome == Verdict.WIN:
            winners += 1
            if example is None and winning is not None:
                example = describe(winning)  # the whole action, payment included
            if winners >= 3:
                break
        elif outcome == Verdict.UNKNOWN:
            undecided += 1
    if winners >= 3:
        kind = Critical.MANY
    elif undecided:
        kind = Critical.UNCHECKED if winners == 0 else Critical.FEW
    else:
        kind = Critical.ONLY if winners == 0 else Critical.FEW
    return Criticality(number, str(chosen), kind, winners, undecided, example)


def _choice_outcome(
    line: Line, done: int, state: State, choice: Choice, live, seconds: float, lost: LostPositions
) -> tuple[Verdict, Action | None]:
    """win, with the payment (the action) that keeps it, if some payment of the choice
    keeps a win; no-win if every one is proven lost; else unknown."""
    until = time.monotonic() + seconds
    unknown = False
    for action in choice_actions(state, choice, live):
        after = state.apply(action)
        if refutation(after) is not None or after.status == Status.LOST:
            continue
        if after.won:
            return Verdict.WIN, action
        # A few greedy playouts first: most alternatives in a winnable game still win.
        rng = random.Random(0)
        for tried in range(8):
            _, end = playout(after, rng, Style.draw(rng, tried))
            if end.won:
                return Verdict.WIN, action
        left = until - time.monotonic()
        if left <= 0:
            return Verdict.UNKNOWN, None
        # The complete search shares its table of lost positions with every other
        # re-solve of this pass (the work reused between re-solves), then CP-SAT.
        verdict, _ = exhaustive(after, Deadline(seconds=left / 2), SearchStats(), lost)
        if verdict == Verdict.UNKNOWN:
            position = line.with_actions(line.actions[:done] + (action,))
            verdict = solve(position, Budget(seconds=until - time.monotonic(), workers=1), method=Method.CPSAT).verdict
        if verdict == Verdict.WIN:
            return Verdict.WIN, action
        if verdict == Verdict.UNKNOWN:
            unknown = True
    return (Verdict.UNKNOWN if unknown else Verdict.NO_WIN), None


# -- unwinnable positions ------------------------------------------------------------------


def best_reach(game: Game | Replayed, budget: Budget, reason: str | None) -> Reach:
    """The most cells filled before the team is stuck, by greedy playouts (best found) and
    then the complete search (proven when it covers every line in the budget)."""
    checked = replayed(game)
    line, state = checked.line, checked.state
    best_cells, best_line = state.filled, list(line.actions)
    rng = random.Random(0)
    until = time.monotonic() + max(1.0, budget.seconds / 4)
    played = 0
    while time.monotonic() < until and played < 300:
        actions, end = playout(state, rng, Style.draw(rng, played))
        played += 1
        if end.filled > best_cells:
            best_cells, best_line = end.filled, list(line.actions) + actions
    proven, cells, actions = _deepest(state, Deadline(seconds=max(1.0, budget.seconds / 2)))
    if cells > best_cells:
        best_cells, best_line = cells, list(line.actions) + actions
    return Reach(best_cells, proven and cells >= best_cells, line.with_actions(tuple(best_line)), reason)


def fillable(state: State, live: frozenset[int]) -> int:
    """An upper bound on the empty cells that can still be filled: each run of empty cells
    along the order's lines takes at most as many islands as still fit between its ends.
    While a Sea Monster is still to play it can sink a run's end, so then only the count
    of islands left bounds it (a sink empties a cell, never fills one)."""
    in_play = [c for h in state.hands for c in h] + [c for s in range(state.players) for c in state.pile(s)]
    available = [c for c in in_play if isinstance(c, int) and c in live]
    empty = sum(v is None for v in state.grid)
    if state.rules.order != Order.SEQUENCE or monsters_left(state):
        return min(empty, len(available))
    return sum(min(run, sum(1 for c in available if low < c < high)) for low, high, run in empty_runs(state))


def _deepest(state: State, deadline: Deadline) -> tuple[bool, int, list[Action]]:
    """Depth-first over every line (junk-first payments) for the most cells filled."""
    seen: set[tuple] = set()
    best_cells, best_path = state.filled, list[Action]()
    path: list[Action] = []
    complete = True

    def dfs(s: State) -> None:
        nonlocal complete, best_cells, best_path
        if s.filled > best_cells:
            best_cells, best_path = s.filled, list(path)
        if not deadline.tick():
            complete = False
            return
        live = live_islands(s)
        key = state_key(s, live)
        if key in seen:
            return
        seen.add(key)
        # Islands that still fit bound how far this branch can go.
        if s.filled + fillable(s, live) <= best_cells:
            return
        for action in candidate_actions(s, live):
            path.append(action)
            dfs(s.apply(action))
            path.pop()

    dfs(state)
    return complete, best_cells, best_path
