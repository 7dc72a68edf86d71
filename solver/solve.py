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
from .formats import Line
from .search import Deadline, SearchStats, exhaustive, greedy, refutation
from .state import IllegalAction, State
from .verify import verify

VERDICTS = ("win", "no-win", "unknown")
METHODS = ("auto", "search", "cpsat")


class InternalError(RuntimeError):
    """A solver produced a line the rules engine rejects: a bug, reported loudly."""


@dataclass
class Result:
    verdict: str  # win | no-win | unknown
    method: str  # refute, greedy, exhaustive, cpsat, replay (already won); timeout, interrupted
    seconds: float
    line: Line | None = None
    reason: str | None = None  # for no-win: the proof in words
    stats: dict = field(default_factory=dict)


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
) -> Result:
    """Decide whether the team can still win from the position ``game`` reaches.

    ``method``: auto (the portfolio), search (greedy then the complete search only) or
    cpsat (the CP-SAT model only). Ctrl-C ends the solve with ``unknown`` and the
    statistics gathered so far."""
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
        return Result(verdict, how, time.monotonic() - started, line, reason, stats)

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


def check_line(line: Line) -> None:
    """Replay a solver's line; anything but a legal win is an internal error."""
    verdict = verify(line)
    if not (verdict.legal and verdict.won):
        raise InternalError(f"the solver's line does not replay as a win: {verdict.error or verdict.status}")


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
    params = solver.parameters
    if budget.reproducible:
        params.num_workers = 1
        params.max_deterministic_time = budget.cpsat_deterministic
        params.random_seed = budget.seed
    else:
        params.num_workers = max(1, budget.workers)
        params.max_time_in_seconds = max(0.01, seconds)
    status = _interruptible_solve(solver, game.model)
    info = {**game.size(), "status": solver.StatusName(status), "wall_time": round(solver.WallTime(), 3)}
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "win", realise(state, game.plan(solver)), info
    if status == cp_model.INFEASIBLE:
        info["reason"] = f"CP-SAT proved that no line of at most {T} turns (a proven bound) wins"
        return "no-win", None, info
    return "unknown", None, info


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
            rounds = state._start_rounds()
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
