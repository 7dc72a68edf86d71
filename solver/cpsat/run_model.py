"""Running the CP-SAT model (solver/cpsat/model.py), and crossing between it and the rules engine:
the solver's set-up, the model's expression of each objective, hints from a known line,
and a solution read as a plan that ``realise`` turns into actions the engine replays
(docs/model.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model
from tranquility.solver.cpsat.model import Expr, GameModel, build_model, cell_of, every_turn_before_the_finish_is_counted, horizon
from tranquility.solver.engine.actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayMonster, PlayStart, RocksMove
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.state import IllegalAction, State
from tranquility.solver.errors import InternalError
from tranquility.solver.search.bounds import least_total_cost
from tranquility.solver.search.objectives import maximised
from tranquility.solver.stop_signals import held
from tranquility.solver.verdicts import Objective, Verdict

TurnFact = tuple[str, int | None, int | None]  # (kind, card, cell); card and cell for an island, cell for a monster


# -- the solver ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CpsatLimits:
    """How long CP-SAT may search, and with what: wall-clock seconds and deterministic time
    (None: no limit), its workers, a seed (None: CP-SAT's own) and the linear relaxation's
    level (CP-SAT's ``linearization_level``; None: its own, 0: no LP)."""

    workers: int = 1
    seconds: float | None = None
    deterministic: float | None = None
    seed: int | None = None
    linearization: int | None = None


def new_solver(limits: CpsatLimits) -> cp_model.CpSolver:
    """A CP-SAT solver set up with ``limits``: the one place its parameters are set."""
    solver = cp_model.CpSolver()
    params = solver.parameters
    # CP-SAT's own handler would take Ctrl-C from Python, and resets SIGINT to the default
    # (kill the process) when the solve ends: Ctrl-C is the program's (interruptible_solve).
    params.catch_sigint_signal = False
    params.num_workers = max(1, limits.workers)
    if limits.seconds is not None:
        params.max_time_in_seconds = max(0.01, limits.seconds)
    if limits.deterministic is not None:
        params.max_deterministic_time = limits.deterministic
    if limits.seed is not None:
        params.random_seed = limits.seed
    if limits.linearization is not None:
        params.linearization_level = limits.linearization
    return solver


def interruptible_solve(
    solver: cp_model.CpSolver, model: cp_model.CpModel, over: Callable[[], bool] = lambda: False
) -> cp_model.CpSolverStatus:
    """Run CP-SAT in a thread of its own so that Ctrl-C reaches Python: it stops the search,
    waits until CP-SAT has returned, and is passed on as KeyboardInterrupt (the caller
    reports ``unknown``). The search is stopped too once ``over()`` holds (its answer is
    then unknown)."""
    outcome: dict = {}
    if run_stoppable([lambda: outcome.update(status=solver.solve(model))], solver.stop_search, over, name="cp-sat"):
        raise KeyboardInterrupt
    return outcome["status"]


def run_stoppable(
    tasks: Sequence[Callable[[], None]], stop: Callable[[], None], over: Callable[[], bool] = lambda: False, name: str = "cp-sat"
) -> bool:
    """Run each of ``tasks`` (each running CP-SAT) in a thread of its own and wait until
    every one has returned. From the first Ctrl-C, or once ``over()`` holds, ``stop`` is
    called every 50 ms until then: CP-SAT drops a stop that comes before its search has
    begun. Further Ctrl-Cs are taken in too, so the caller never leaves (and the process
    never exits) while CP-SAT still runs; exiting under its threads aborts the process.
    Returns whether Ctrl-C came."""
    # Each task says itself that it has returned: before Python 3.13, a Ctrl-C that lands
    # inside Thread.join marks the thread as ended while it still runs.
    started: list[threading.Event] = []

    def running(task: Callable[[], None], done: threading.Event) -> None:
        try:
            task()
        finally:
            done.set()

    interrupted = False
    try:
        with held():  # so that no thread can start unseen by the loop that stops it
            for task in tasks:
                done = threading.Event()
                threading.Thread(target=running, args=(task, done), name=name).start()
                started.append(done)
    except KeyboardInterrupt:
        interrupted = True
    while True:
        try:
            if interrupted or over():
                stop()
            if all(done.wait(0.05) for done in started):
                return interrupted
        except KeyboardInterrupt:
            interrupted = True


def _solve(game: GameModel, limits: CpsatLimits, built_at: float) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus, dict]:
    """Solve the model; the solver, its status, and what the result's stats report. The
    seconds count from ``built_at``, when building began (a model with Sea Monsters takes
    a second or two to build)."""
    if limits.seconds is not None:
        limits = replace(limits, seconds=limits.seconds - (time.monotonic() - built_at))
    solver = new_solver(limits)
    status = interruptible_solve(solver, game.model)
    info = {**game.size(), "status": solver.status_name(status), "wall_time": round(solver.wall_time, 3)}
    return solver, status, info


# -- deciding and optimising -----------------------------------------------------------------


def cpsat(state: State, limits: CpsatLimits) -> tuple[Verdict, list[Action] | None, dict]:
    """Solve the CP-SAT model of the position. Returns (verdict, actions, info)."""
    T = horizon(state)
    if T == 0:
        return Verdict.NO_WIN, None, {"reason": "no turn is left for a win (card count)", "horizon": 0}
    built_at = time.monotonic()
    game = build_model(state, T)
    solver, status, info = _solve(game, limits, built_at)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Verdict.WIN, realise(state, plan_of(game, solver)), info
    if status == cp_model.INFEASIBLE:
        info["reason"] = f"CP-SAT proved that no line of at most {T} turns (a proven bound) wins"
        return Verdict.NO_WIN, None, info
    return Verdict.UNKNOWN, None, info


def optimise(position: State, actions: list[Action], objective: Objective, limits: CpsatLimits):
    """CP-SAT over the model with the objective, hinted with ``actions``.
    Returns (better continuation or None, bound or None, proven optimal, info)."""
    built_at = time.monotonic()
    game = build_model(position, horizon(position))
    add_hint(game, line_facts(position, actions))
    add_objective_cuts(game, position)
    game.model.minimize(objective_expr(game, objective))
    solver, status, info = _solve(game, limits, built_at)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, None, False, info
    sign = -1 if maximised(objective) else 1
    bound = round(sign * solver.best_objective_bound)
    return realise(position, plan_of(game, solver)), bound, status == cp_model.OPTIMAL, info


def add_objective_cuts(game: GameModel, position: State) -> None:
    """The valid cuts a model with an objective states (docs/model.md, Objectives): the
    Finish's turn counts the turns before it, and the placements cost at least
    ``least_total_cost`` (its argument; not with Sea Monsters to come, as one may sink the
    neighbour that makes a cell cost). They only tighten CP-SAT's bound."""
    every_turn_before_the_finish_is_counted(game)
    if not game.frame.monsters_left:
        game.model.add(objective_expr(game, Objective.COST) >= least_total_cost(position))


def objective_expr(game: GameModel, objective: Objective) -> Expr:
    """The model's own expression of an objective (docs/model.md, Objectives), to
    minimise: its value, negated for an objective that is maximised. The rules engine's
    measure is ``objectives.objective_value``; tests/cpsat/test_objectives.py checks they agree."""
    f = game.frame
    match objective:
        case Objective.SPARE:  # the cards that never left the hands and piles
            return sum(game.removed[s][f.T] for s in range(f.P)) - f.cards_left
        case Objective.TURNS:
            return game.finish_turn + 1
        case Objective.COST:
            return sum(game.cost.values())
    raise ValueError(f"unknown objective {objective!r}")


# -- hints from a line -----------------------------------------------------------------------


@dataclass(frozen=True)
class LineFacts:
    """A continuation as the model sees it, measured by the engine's replay."""

    turns: tuple[TurnFact, ...]
    removed: tuple[tuple[int, ...], ...]  # each seat's removal count before each turn, and at the end
    finish_card: tuple[int, int]  # (seat, index among its undrawn cards, -1 = in hand)


def line_facts(position: State, actions: list[Action]) -> LineFacts:
    """What the model needs to be hinted with a continuation: per turn (kind, card, cell),
    each seat's removal count before each turn, and which Finish card is played."""
    turns: list[TurnFact] = []
    removed = [[0] for _ in range(position.players)]
    held0 = [len(h) for h in position.hands]
    state = position
    for action in actions:
        if isinstance(action, PlayIsland):
            turns.append(("island", action.card, action.cell))
        elif isinstance(action, PlayStart):
            turns.append(("start", None, None))
        elif isinstance(action, PlayFinish):
            turns.append(("finish", None, None))
        elif isinstance(action, PlayMonster):
            turns.append(("monster", None, action.cell))
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
    return LineFacts(tuple(turns), tuple(map(tuple, removed)), (seat, finishes[-1] if finishes else -1))


def add_hint(game: GameModel, facts: LineFacts) -> None:
    """Warm start from a known winning continuation (as the engine replayed it). With
    Sea Monsters to come, only each turn's kind and the removal counters are hinted (a
    cell's islands are spots there, not one island per cell)."""
    m, f, turns = game.model, game.frame, facts.turns
    kinds = {"island": game.turns.island, "start": game.turns.start, "finish": game.turns.finish, "discard": game.turns.discard}
    if f.monsters_left:
        kinds["monster"] = game.turns.monster  # type: ignore[assignment]  # Booleans while monsters are to come
    placed = {}
    for t in range(f.T):
        kind = turns[t][0] if t < len(turns) else "idle"
        for name, flags in kinds.items():
            m.add_hint(flags[t], name == kind)
        m.add_hint(game.turns.idle[t], kind == "idle")
        if kind == "island":
            placed[turns[t][2]] = (t, turns[t][1])
    if f.monsters_left:
        _hint_removed(game, facts)
        return
    for (k, t), flag in game.fill.items():
        m.add_hint(flag, placed.get(k, (None,))[0] == t)
    for (card, k), flag in game.goes.items():
        m.add_hint(flag, placed.get(k, (None, None))[1] == card)
    played_at = {card: t for t, card in placed.values()}
    for pc in f.islands:
        m.add_hint(game.played[pc], pc.card in played_at)
        if pc.card in played_at:
            m.add_hint(game.turn[pc], played_at[pc.card])
    for pc in f.finishes:
        m.add_hint(game.played[pc], (pc.seat, pc.queue) == facts.finish_card)
    _hint_removed(game, facts)


def _hint_removed(game: GameModel, facts: LineFacts) -> None:
    f = game.frame
    for s in range(f.P):
        removed = facts.removed[s]
        for t in range(f.T + 1):
            game.model.add_hint(game.removed[s][t], removed[min(t, len(removed) - 1)])


# -- from a solution to a line -----------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """What the model decided, turn by turn: (kind, card, cell). Which spare cards pay is
    left to ``realise`` (discards are counted in the model, not named)."""

    turns: tuple[TurnFact, ...]
    team_choice: tuple[int, ...] | None  # cards each seat picks in the Start event's last round
    finish_card: tuple[int, int]  # (seat, index among its undrawn cards, -1 = in hand)
    # rocks=manual: after each turn, the row the rocks move to, or None to keep them (or
    # when the turn has no choice to make: realise asks the engine whether one is due)
    rocks: tuple[int | None, ...] = ()


def plan_of(game: GameModel, solver: cp_model.CpSolver) -> Plan:
    """The solution's turns up to the Finish, the team's picks, the Finish card played and
    the manual rocks' moves."""
    f, slots = game.frame, game.turns
    filled = {t: spot for (spot, t), flag in game.fill.items() if solver.value(flag)}
    sunk = {t: spot for (spot, t), flag in game.sink.items() if solver.value(flag)}
    kinds: list[TurnFact] = []
    for t in range(f.T):
        if solver.value(slots.island[t]):
            spot = filled[t]
            kinds.append(("island", solver.value(game.value[spot]), cell_of(spot)))
        elif solver.value(slots.monster[t]):
            kinds.append(("monster", None, cell_of(sunk[t])))
        elif solver.value(slots.start[t]):
            kinds.append(("start", None, None))
        elif solver.value(slots.finish[t]):
            kinds.append(("finish", None, None))
        elif solver.value(slots.discard[t]):
            kinds.append(("discard", None, None))
        else:
            break
    team = None
    if game.team_choice is not None:
        team = tuple(sum(solver.value(c[s]) for c in game.team_choice) for s in range(f.P))
    finish = next(pc for pc in f.finishes if solver.value(game.played[pc]))
    return Plan(tuple(kinds), team, (finish.seat, finish.queue), _rocks_moves(game, solver, len(kinds)))


def _rocks_moves(game: GameModel, solver: cp_model.CpSolver, turns: int) -> tuple[int | None, ...]:
    """rocks=manual: the row the rocks are on after each turn, None where they stay."""
    rocks = game.rocks
    if rocks is None or all(isinstance(stay, int) for stay in rocks.stay):
        return ()
    moves: list[int | None] = []
    for t in range(turns):
        rows = [r for r, flag in enumerate(rocks.at[t + 1]) if solver.value(flag)]
        moves.append(None if solver.value(rocks.stay[t]) or not rows else rows[0])
    return tuple(moves)


def realise(state: State, plan: Plan) -> list[Action]:
    """Turn the model's plan into actions: each payment uses cards the plan never plays."""
    actions: list[Action] = []
    plays = [(t, card) for t, (kind, card, _) in enumerate(plan.turns) if kind == "island" and card is not None]
    finish_seat, finish_queue = plan.finish_card
    # The planned Finish card is reserved from the moment its seat has drawn it.
    finish_drawn_at = state.drawn[finish_seat] + finish_queue
    for t, (kind, card, cell) in enumerate(plan.turns):
        later = {c for u, c in plays if u > t}
        reserve = _reserved(later, finish_seat if state.drawn[finish_seat] > finish_drawn_at else None)
        if kind == "island":
            assert card is not None and cell is not None  # an island turn names both
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
        elif kind == "monster":
            assert cell is not None  # a monster turn names its cell
            action = PlayMonster(seat=state.seat, cell=cell)
        else:
            rounds = state.start_rounds()
            if rounds is None:
                raise InternalError("the CP-SAT plan plays a Start the team cannot pay")
            hands, drawn = rounds[0], rounds[1]
            assert plan.team_choice is not None  # a plan with a Start has the team's picks
            reserve = _reserved(later, finish_seat if drawn[finish_seat] > finish_drawn_at else None)
            action = PlayStart(
                seat=state.seat,
                team_discard=tuple(_spare(list(h), plan.team_choice[s], reserve, s) for s, h in enumerate(hands)),
            )
        if plan.rocks and kind != "finish":
            action = _with_rocks(state, action, plan.rocks[t], reserve)
        actions.append(action)
        try:
            state = state.apply(action)
        except IllegalAction as exc:
            raise InternalError(f"the CP-SAT plan's turn {len(actions)} is illegal: {exc}") from None
    return actions


def _with_rocks(state: State, action: Action, row: int | None, reserve) -> Action:
    """rocks=manual: the plan's move of the rocks after the action, or two spare cards to
    keep them, from the hand as the action leaves it; nothing when the engine says no
    choice is due (they leave, or are gone)."""
    after = state.before_rocks(action)
    if not after.rocks_choice_due:
        return action
    if row is not None:
        return replace(action, rocks=RocksMove(row))
    return replace(action, rocks=RocksMove(None, _spare(list(after.hands[state.seat]), 2, reserve, state.seat)))


def _reserved(later: set[int], finish_seat: int | None) -> Callable[[Card, int], bool]:
    def keep(card: Card, seat: int) -> bool:
        if is_island(card):
            return card in later
        if card == MONSTER:
            return True  # the Finish waits for every monster: each one is played
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
