"""Deciding a deal or a position: WIN with a replayed line, NO-WIN with a named proof, or
UNKNOWN when the time runs out. Never a guess.

The portfolio (docs/model.md): cheap refutations first, then the greedy player, then the
complete search and the CP-SAT model. Every winning line is replayed by the verifier
before it is returned; a line the verifier rejects is an ``InternalError``, never a win.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from .actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayStart
from .cards import FINISH, START, Card, is_island
from .deal import Deal
from .errors import InternalError
from .line import Line
from .search import (
    Deadline,
    SearchStats,
    best_playout,
    exhaustive,
    greedy,
    least_total_cost,
    refutation,
)
from .state import IllegalAction, State
from .verdicts import DecidedBy, Method, Objective, Verdict
from .verify import verify


VERDICTS = tuple(Verdict)
METHODS = tuple(Method)
OBJECTIVES = tuple(Objective)
IMPROVING_PLAYOUTS = 200  # greedy playouts tried before CP-SAT optimises (about 2 s)


@dataclass
class Result:
    verdict: Verdict
    method: DecidedBy
    seconds: float
    line: Line | None = None
    reason: str | None = None  # for no-win: the proof in words
    stats: dict = field(default_factory=dict)
    best: "Best | None" = None  # with --objective: the value of the line, its bound
    prefix: int = 0  # actions of the line that were given (the position), before the solve's

    def to_json(self) -> dict:
        """The result as ``tranquility solve --json`` prints it (docs/solving.md): the
        winning line, when there is one, as a line file from the deal."""
        from .formats import line_to_json

        data = {
            "verdict": self.verdict,
            "method": self.method,
            "seconds": round(self.seconds, 4),
            "line": None if self.line is None else line_to_json(self.line),
            "reason": self.reason,
            "stats": self.stats,
        }
        if self.best is not None:
            data["objective"] = self.best.to_json()
        return data


@dataclass(frozen=True)
class Best:
    """How good the returned line is for an objective: its value, the best bound known
    (None when none was proven), and whether the value is proven optimal."""

    objective: str
    value: int
    bound: int | None
    optimal: bool

    def to_json(self) -> dict:
        return {"name": self.objective, "value": self.value, "bound": self.bound, "optimal": self.optimal}


@dataclass(frozen=True)
class Budget:
    """Limits for one solve. Reproducible mode uses node budgets and CP-SAT deterministic
    time instead of seconds, and one CP-SAT worker."""

    seconds: float = 60.0
    workers: int = 2
    reproducible: bool = False
    greedy_playouts: int = 1000
    search_nodes: int = 5_000  # auto: a short complete search before CP-SAT
    cpsat_deterministic: float = 60.0
    seed: int = 0


def position_of(game: Deal | Line) -> tuple[Line, State]:
    """The line so far (empty for a deal) and the position it reaches."""
    line = game if isinstance(game, Line) else Line(game)
    verdict = verify(line)
    if not verdict.legal:
        raise ValueError(verdict.error)
    return line, verdict.state


def solve(
    game: Deal | Line,
    budget: Budget = Budget(),
    method: str = "auto",
    progress: Callable[[str], None] | None = None,
    objective: str = "any",
) -> Result:
    """Decide whether the team can still win from the position ``game`` reaches.

    ``method``: auto (the portfolio), search (greedy then the complete search only) or
    cpsat (the CP-SAT model only). With an ``objective`` other than ``any``, a win is
    then improved by CP-SAT (warm-started from it) for the rest of the time, and the
    result says whether its value is proven optimal. Ctrl-C ends the solve with
    ``unknown`` (or the best win so far) and the statistics gathered so far."""
    result = _decide(game, budget, method, progress)
    if objective == "any" or result.verdict != "win":
        return result
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}")
    return _improve(result, budget, objective, progress)


def _decide(game: Deal | Line, budget: Budget, method: str, progress: Callable[[str], None] | None) -> Result:
    from .model import check_supported

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    started = time.monotonic()
    prefix, state = position_of(game)
    check_supported(state)
    stats: dict = {}
    say = progress or (lambda _: None)

    def finish(verdict: str, how: str, actions=None, reason=None) -> Result:
        line = None
        if actions is not None:
            line = Line(prefix.deal, prefix.actions + tuple(actions))
            check_line(line)
        return Result(verdict, how, time.monotonic() - started, line, reason, stats, prefix=len(prefix.actions))

    def limit(share: float, nodes: int | None) -> Deadline:
        """A share of the time left (ignored when reproducible) and a node budget."""
        if budget.reproducible:
            return Deadline(nodes=nodes)
        left = max(0.0, budget.seconds - (time.monotonic() - started))
        return Deadline(seconds=left * share, nodes=nodes)

    try:
        if state.won:
            return finish("win", "replay", [])
        if state.status == "lost":
            return finish("no-win", "refute", reason="the seat to move has no legal action")
        # Cheap necessary conditions first (not for --method cpsat, which stays independent).
        reason = refutation(state) if method != "cpsat" else None
        if reason is not None:
            return finish("no-win", "refute", reason=reason)
        if method in ("auto", "search"):
            say("greedy playouts")
            search_stats = SearchStats()
            line = greedy(state, limit(0.25, budget.greedy_playouts), search_stats, budget.seed)
            stats["greedy"] = search_stats.to_json()
            if line is not None:
                return finish("win", "greedy", line)
            say("complete search")
            search_stats = SearchStats()
            # In auto mode the complete search gets a small node budget: it settles small
            # positions at once and leaves the big ones to CP-SAT.
            if method == "search":
                deadline = limit(1.0, budget.search_nodes * 100 if budget.reproducible else None)
            else:
                deadline = limit(0.3, budget.search_nodes)
            try:
                verdict, line = exhaustive(state, deadline, search_stats)
            finally:
                stats["exhaustive"] = search_stats.to_json()
            if verdict == "win":
                return finish("win", "exhaustive", line)
            if verdict == "no-win":
                return finish("no-win", "exhaustive", reason="the complete search tried every line; none wins")
        if method in ("auto", "cpsat"):
            say("CP-SAT model")
            left = max(0.0, budget.seconds - (time.monotonic() - started))
            verdict, line, info = cpsat(state, budget, left)
            stats["cpsat"] = info
            if verdict == "win":
                return finish("win", "cpsat", line)
            if verdict == "no-win":
                return finish("no-win", "cpsat", reason=info["reason"])
    except KeyboardInterrupt:
        return finish("unknown", "interrupted")
    return finish("unknown", "timeout")


def _improve(result: Result, budget: Budget, objective: str, progress) -> Result:
    """Optimise the objective with CP-SAT, warm-started from the winning line found."""
    started = time.monotonic()
    line = result.line
    prefix = result.prefix
    position = verify(Line(line.deal, line.actions[:prefix])).state
    continuation = list(line.actions[prefix:])
    value = objective_value(position, continuation, objective)
    simple = objective_bound(position, objective)
    # Greedy playouts are cheap and often beat the first win found: start CP-SAT from the best.
    _, found = best_playout(position, IMPROVING_PLAYOUTS, budget.seed, lambda a, end: _playout_score(objective, a, end))
    found_value = None if found is None else objective_value(position, found, objective)
    if found_value is not None and _better(objective, found_value, value):
        continuation, value = found, found_value
        line = Line(line.deal, line.actions[:prefix] + tuple(found))
        check_line(line)
        result.line = line
    left = max(0.0, budget.seconds - result.seconds)
    if progress is not None:
        progress(f"optimising {objective}")
    try:
        if value == simple:  # the line found already meets the bound: nothing to search
            better, bound, optimal, info = None, simple, True, {"status": "bound met"}
        else:
            better, bound, optimal, info = optimise(position, continuation, objective, budget, left)
    except KeyboardInterrupt:
        better, bound, optimal, info = None, None, False, {"status": "interrupted"}
    result.stats["optimise"] = info
    if better is not None and _better(objective, objective_value(position, better, objective), value):
        continuation = better
        value = objective_value(position, better, objective)
        result.line = Line(line.deal, line.actions[:prefix] + tuple(better))
        check_line(result.line)
    if bound is None or (bound > simple if objective == "spare" else bound < simple):
        bound = simple
    result.best = Best(objective, value, bound, (optimal and bound == value) or simple == value)
    result.seconds += time.monotonic() - started
    return result


def _playout_score(objective: str, actions: list[Action], end: State) -> int:
    """The objective of a won playout, signed so that higher is better."""
    if objective == "spare":
        return end.cards_left
    if objective == "turns":
        return -len(actions)
    return -sum(len(a.discard) for a in actions if isinstance(a, PlayIsland))


def _better(objective: str, new: int, old: int) -> bool:
    return new > old if objective == "spare" else new < old


def objective_bound(position: State, objective: str) -> int:
    """A bound every win from ``position`` obeys (docs/model.md, Objectives): each empty
    cell takes a turn, an island and its cost (at least ``least_total_cost``); the Start
    event, if still to come, a turn and 1 + start_discards cards; the Finish a turn and a card."""
    empty = sum(v is None for v in position.grid)
    start = 0 if position.start_played else 1
    least = least_total_cost(position)
    if objective == "turns":
        return empty + start + 1
    if objective == "cost":
        return least
    left = position.cards_left
    return left - empty - least - 1 - start * (1 + position.rules.start_discards)


def objective_value(position: State, actions: list[Action], objective: str) -> int:
    """The objective's value of a winning continuation, measured by the rules engine."""
    if objective == "turns":
        return len(actions)
    if objective == "cost":
        return sum(len(a.discard) for a in actions if isinstance(a, PlayIsland))
    state = position
    for action in actions:
        state = state.apply(action)
    return state.cards_left


def optimise(position: State, actions: list[Action], objective: str, budget: Budget, seconds: float):
    """CP-SAT over the model with the objective, hinted with ``actions``.
    Returns (better continuation or None, bound or None, proven optimal, info)."""
    from ortools.sat.python import cp_model

    from .model import GameModel, horizon

    game = GameModel(position, horizon(position))
    turns, removed, finish_card = line_facts(position, actions)
    game.hint(turns, removed, finish_card)
    sign = -1 if objective == "spare" else 1
    # A valid cut (least_total_cost's argument) that tightens CP-SAT's bound.
    game.model.Add(sum(game.cost.values()) >= least_total_cost(position))
    game.model.Minimize(game.objective(objective))
    solver = cp_model.CpSolver()
    _configure(solver, budget, seconds)
    status = _interruptible_solve(solver, game.model)
    info = {**game.size(), "status": solver.StatusName(status), "wall_time": round(solver.WallTime(), 3)}
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, None, False, info
    bound = round(sign * solver.BestObjectiveBound())
    return realise(position, game.plan(solver)), bound, status == cp_model.OPTIMAL, info


def line_facts(position: State, actions: list[Action]):
    """What the model needs to be hinted with a continuation: per turn (kind, card, cell),
    each seat's removal count before each turn, and which Finish card is played."""
    turns, removed = [], [[0] for _ in range(position.players)]
    held0 = [len(h) for h in position.hands]
    state = position
    for action in actions:
        if isinstance(action, PlayIsland):
            turns.append(("island", action.card, action.cell))
        elif isinstance(action, PlayStart):
            turns.append(("start", None, None))
        elif isinstance(action, PlayFinish):
            turns.append(("finish", None, None))
        else:
            turns.append(("discard", None, None))
        state = state.apply(action)
        for s in range(position.players):
            drawn = state.drawn[s] - position.drawn[s]
            removed[s].append(held0[s] + drawn - len(state.hands[s]))
    seat = (position.seat + len(actions) - 1) % position.players
    queue = position.pile(seat)
    drawn = state.drawn[seat] - position.drawn[seat]
    finishes = [q for q in range(min(drawn, len(queue))) if queue[q] == FINISH]
    return turns, removed, (seat, finishes[-1] if finishes else -1)


def check_line(line: Line) -> State:
    """Replay a solver's line and return the won position; anything but a legal win is an
    internal error."""
    verdict = verify(line)
    if not (verdict.legal and verdict.won):
        raise InternalError(f"the solver's line does not replay as a win: {verdict.error or verdict.status}")
    return verdict.state


# -- CP-SAT ---------------------------------------------------------------------------------


def cpsat(state: State, budget: Budget, seconds: float, hint: list[Action] | None = None):
    """Solve the CP-SAT model of the position. Returns (verdict, actions, info)."""
    from ortools.sat.python import cp_model

    from .model import GameModel, horizon

    T = horizon(state)
    if T == 0:
        return "no-win", None, {"reason": "no turn is left for a win (card count)", "horizon": 0}
    game = GameModel(state, T)
    solver = cp_model.CpSolver()
    _configure(solver, budget, seconds)
    status = _interruptible_solve(solver, game.model)
    info = {**game.size(), "status": solver.StatusName(status), "wall_time": round(solver.WallTime(), 3)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "win", realise(state, game.plan(solver)), info
    if status == cp_model.INFEASIBLE:
        info["reason"] = f"CP-SAT proved that no line of at most {T} turns (a proven bound) wins"
        return "no-win", None, info
    return "unknown", None, info


def _configure(solver, budget: Budget, seconds: float) -> None:
    params = solver.parameters
    if budget.reproducible:
        params.num_workers = 1
        params.max_deterministic_time = budget.cpsat_deterministic
        params.random_seed = budget.seed
    else:
        params.num_workers = max(1, budget.workers)
        params.max_time_in_seconds = max(0.01, seconds)


def _interruptible_solve(solver, model) -> int:
    """Run CP-SAT in a worker thread so that Ctrl-C reaches Python: it stops the search
    and is passed on as KeyboardInterrupt (the caller reports ``unknown``)."""
    solver.parameters.catch_sigint_signal = False
    outcome: dict = {}
    worker = threading.Thread(target=lambda: outcome.update(status=solver.Solve(model)))
    interrupted = False
    worker.start()
    while worker.is_alive():
        try:
            worker.join(0.05)
        except KeyboardInterrupt:
            interrupted = True
            solver.StopSearch()
    if interrupted:
        # CP-SAT tears its worker threads down just after a stopped Solve returns; exiting
        # the process in that instant aborts it ("terminate called..."), so give it a moment.
        time.sleep(0.2)
        raise KeyboardInterrupt
    return outcome["status"]


def realise(state: State, plan) -> list[Action]:
    """Turn the model's plan into actions: each payment uses cards the plan never plays."""
    actions: list[Action] = []
    plays = [(t, card) for t, (kind, card, _) in enumerate(plan.turns) if kind == "island"]
    finish_seat, finish_queue = plan.finish_card
    # The planned Finish card is reserved from the moment its seat has drawn it.
    finish_drawn_at = state.drawn[finish_seat] + finish_queue
    for t, (kind, card, cell) in enumerate(plan.turns):
        later = {c for u, c in plays if u > t}
        reserve = _reserved(later, finish_seat if state.drawn[finish_seat] > finish_drawn_at else None)
        if kind == "island":
            rest = list(state.hand)
            rest.remove(card)
            cost = state.island_cost(card, cell)
            if cost is None:
                raise InternalError(f"the CP-SAT plan plays {card} at cell {cell}, which the rules engine forbids")
            action: Action = PlayIsland(seat=state.seat, card=card, cell=cell, discard=_spare(rest, cost, reserve, state.seat))
        elif kind == "discard":
            action = DiscardTwo(seat=state.seat, discard=_spare(list(state.hand), 2, reserve, state.seat))
        elif kind == "finish":
            action = PlayFinish(seat=state.seat)
        else:
            rounds = state.start_rounds()
            if rounds is None:
                raise InternalError("the CP-SAT plan plays a Start the team cannot pay")
            hands, drawn = rounds[0], rounds[1]
            reserve = _reserved(later, finish_seat if drawn[finish_seat] > finish_drawn_at else None)
            action = PlayStart(
                seat=state.seat,
                team_discard=tuple(_spare(list(h), plan.team_choice[s], reserve, s) for s, h in enumerate(hands)),
            )
        actions.append(action)
        try:
            state = state.apply(action)
        except IllegalAction as exc:
            raise InternalError(f"the CP-SAT plan's turn {len(actions)} is illegal: {exc}") from None
    return actions


def _reserved(later: set[int], finish_seat: int | None) -> Callable[[Card, int], bool]:
    def keep(card: Card, seat: int) -> bool:
        if is_island(card):
            return card in later
        return card == FINISH and seat == finish_seat

    return keep


def _spare(cards: list[Card], k: int, reserve, seat: int) -> tuple[Card, ...]:
    spare = [c for c in cards if not reserve(c, seat)]
    # A seat keeps one Finish card if it finishes; extra Finish cards are spare.
    if FINISH in cards and cards.count(FINISH) > 1 and FINISH not in spare:
        spare += [FINISH] * (cards.count(FINISH) - 1)
    if len(spare) < k:
        raise InternalError(f"the CP-SAT plan needs {k} spare card(s) from {cards}, but only {len(spare)} are spare")
    spare.sort(key=lambda c: (c != START, c == FINISH))
    return tuple(spare[:k])
