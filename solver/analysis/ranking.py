"""Every move at a position with its verdict after it (``tranquility moves``, docs/cli.md).

A move is one legal choice of the board (``Board.choices``): one island at one cell, the
Start, a Finish, a Sea Monster's cell, discard two. Each payment of it worth trying (junk
paid first: the complete search's dominance, so a no-win over these is a no-win over every
payment) is solved from the position after it; the move is a win when one of them wins, and
keeps the win that leaves the most cards (with an objective, the best for it first); it is
a no-win only when every one is proven lost. A forced move (the only one, as the Start always
is) is solved from the position before it instead, the solve choosing its payment.

The time is shared over the moves: a first look gives every payment the same short search
(without CP-SAT, whose set-up alone outlasts a short share), then rounds share what is left
over the moves still undecided and, with an objective, the winning moves' lines to improve.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from tranquility.solver.analysis.board import Board, Move
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Progress, Result, Step
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.cards import Card
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import Replayed
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.bounds import live_islands
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.moves import choice_actions
from tranquility.solver.search.objectives import objective_bound, objective_value, score
from tranquility.solver.verdicts import DecidedBy, Method, Objective, Verdict

FIRST_LOOK = 0.4  # of the time: the first look, shared equally over every payment
CPSAT_SECONDS = 0.5  # a share shorter than this is searched without CP-SAT (its model takes about 0.15 s to build)
MIN_ROUND_SECONDS = 0.05  # no later round starts with less left
MIN_PLAYOUTS = 20  # --reproducible: the fewest greedy playouts a payment gets
FIRST_LOOK_PHASE, SECOND_LOOK_PHASE, ONE_LOOK_PHASE = "first look", "second look", "every move"


@dataclass(frozen=True)
class RankedMove:
    """A move of the board's list and its verdict after it: for a win, the payment that
    keeps the most (``action``) and its line from where the game given starts, replayed by
    the engine; for a no-win, the proof for every payment (``reason``); unknown otherwise.
    ``proven``: with an objective, the win's value is proven optimal over every payment."""

    move: Move
    verdict: Verdict
    action: Action  # the winning payment; else the board's suggested one
    line: Line | None = None
    spare: int | None = None  # cards left in hands and piles at the win
    turns: int | None = None  # the line's turns, from where the game given starts
    proven: bool = False
    reason: str | None = None

    @property
    def notation(self) -> str:
        return format_action(self.action)

    def to_json(self) -> dict:
        from tranquility.solver.formats.codecs import action_to_json, line_to_json

        return {
            "notation": self.notation,
            "choice": str(self.move.choice),
            "action": action_to_json(self.action),
            "verdict": self.verdict,
            "spare": self.spare,
            "turns": self.turns,
            "proven": self.proven,
            "reason": self.reason,
            "line": None if self.line is None else line_to_json(self.line),
        }


@dataclass(frozen=True)
class Ranking:
    """The moves at the position ``line`` reaches, best first: the wins (most spare cards,
    then fewest turns), then the unknown, then the no-wins."""

    line: Line  # the game given
    state: State  # the position it reaches
    objective: Objective
    moves: tuple[RankedMove, ...]
    seconds: float
    interrupted: bool = False  # Ctrl-C stopped it: the moves not decided by then are unknown

    def to_json(self) -> dict:
        """As ``tranquility moves --json`` prints it (docs/cli.md)."""
        from tranquility.solver.engine.position import Position
        from tranquility.solver.formats.position_forms import position_to_json

        return {
            "position": position_to_json(Position.of(self.state)),
            "to_move": self.state.seat,
            "objective": self.objective,
            "seconds": round(self.seconds, 3),
            "interrupted": self.interrupted,
            "moves": [m.to_json() for m in self.moves],
        }


def rank_moves(
    game: Game | Replayed,
    budget: Budget = Budget(seconds=10),
    objective: Objective = Objective.ANY,
    progress: Progress | None = None,
    card: Card | None = None,
) -> Ranking:
    """Every move at the position ``game`` reaches, with its verdict, ranked (``Ranking``),
    within ``budget.seconds`` for them all (``reproducible``: each payment gets its share of
    the budget's fixed ones, in one look). ``objective``: each winning move's line is
    improved for it, and ``proven`` says whether its value is optimal. Ctrl-C ends it with
    what was decided (``interrupted``). ``progress`` hears each move solved (a ``Step``).
    ``card``: only the moves that play it (a card hint weighs the cells of one card)."""
    started = time.monotonic()
    board = Board.open(game)
    choices = [move for move in board.choices if card is None or move.choice.card == card]
    moves = [_Candidates(move, _payments(board, move)) for move in choices]
    run = _Run(moves, budget, objective, progress, started)
    try:
        run.looks()
    except KeyboardInterrupt:
        run.interrupted = True
    ranked = sorted((m.ranked(objective) for m in moves), key=_order)
    return Ranking(board.line, board.state, objective, tuple(ranked), time.monotonic() - started, run.interrupted)


def _order(move: RankedMove) -> tuple:
    if move.verdict == Verdict.WIN:
        assert move.spare is not None and move.turns is not None
        return (0, -move.spare, move.turns)
    return (1,) if move.verdict == Verdict.UNKNOWN else (2,)


@dataclass
class _Payment:
    """One payment of a move (``action``; None for a forced move, whose payment the solve
    of the position before it chooses), where its solve starts, and the best result of its
    solves so far."""

    action: Action | None
    start: Replayed
    result: Result | None = None

    @property
    def verdict(self) -> Verdict:
        return Verdict.UNKNOWN if self.result is None else self.result.verdict

    @property
    def played(self) -> Action:
        """The payment made: for a forced move, the one its winning line plays."""
        if self.action is not None:
            return self.action
        assert self.result is not None and self.result.line is not None, "a forced move's payment comes from its win"
        return self.result.line.actions[len(self.start.line.actions)]

    def keep(self, result: Result, objective: Objective) -> None:
        """Keep what a solve found, never giving up a decided verdict for an unknown, nor a
        win for a worse one."""
        old = self.result
        if (
            old is None
            or old.verdict == Verdict.UNKNOWN
            or (result.verdict == Verdict.WIN and _value(result, objective) >= _value(old, objective))
        ):
            self.result = result


def _payments(board: Board, move: Move) -> tuple[_Payment, ...]:
    """The move's payments worth trying, each with the position after it. A forced move
    (the only one in the list, as the Start always is) is solved from the position before
    it instead: the solve chooses its payment among all of them (a Start can have tens of
    thousands), and its verdict is the position's."""
    state, here = board.state, board.replayed
    if len(board.choices) == 1:
        return (_Payment(None, here),)
    return tuple(_Payment(action, here.then(action)) for action in choice_actions(state, move.choice, live_islands(state)))


def _value(result: Result | None, objective: Objective) -> tuple[int, ...]:
    """How good a win is, higher better: the objective's value over the whole line, then
    spare cards, then fewer turns."""
    assert result is not None and result.line is not None and result.end is not None, "a win's line and end"
    spare, turns = result.end.cards_left, len(result.line.actions)
    if objective == Objective.ANY:
        return (spare, -turns)
    value = objective_value(result.line.initial_state(), result.line.actions, objective, result.end)
    return (score(objective, value), spare, -turns)


def _optimal(result: Result | None) -> bool:
    """A win whose value is proven optimal: by its solve, or because the move itself won
    (nothing is left to play)."""
    if result is None or result.verdict != Verdict.WIN:
        return False
    return result.method == DecidedBy.REPLAY or (result.best is not None and result.best.optimal)


@dataclass
class _Candidates:
    """A move of the board's list and its payments."""

    move: Move
    payments: tuple[_Payment, ...]

    @property
    def verdict(self) -> Verdict:
        verdicts = {p.verdict for p in self.payments}
        if Verdict.WIN in verdicts:
            return Verdict.WIN
        return Verdict.NO_WIN if verdicts == {Verdict.NO_WIN} else Verdict.UNKNOWN

    def best(self, objective: Objective) -> _Payment:
        """The winning payment that keeps the most."""
        wins = [p for p in self.payments if p.verdict == Verdict.WIN]
        return max(wins, key=lambda p: _value(p.result, objective))

    def ranked(self, objective: Objective) -> RankedMove:
        verdict = self.verdict
        if verdict == Verdict.NO_WIN:
            return RankedMove(self.move, verdict, self.move.action, reason=self._why_lost())
        if verdict == Verdict.UNKNOWN:
            return RankedMove(self.move, verdict, self.move.action)
        best = self.best(objective)
        result = best.result
        assert result is not None and result.line is not None and result.end is not None
        proven = objective != Objective.ANY and self._proven(best, objective)
        return RankedMove(self.move, verdict, best.played, result.line, result.end.cards_left, len(result.line.actions), proven)

    def _proven(self, best: _Payment, objective: Objective) -> bool:
        """The best payment's value is proven optimal, and no other payment can beat it:
        each is lost, or bounded (by its own solve, or the analytic bound) by that value."""
        result = best.result
        if not _optimal(result):
            return False
        assert result is not None
        if result.best is None:  # the move itself won: nothing is left to choose
            return True
        value = score(objective, result.best.value)
        for other in self.payments:
            if other is best or other.verdict == Verdict.NO_WIN:
                continue
            solved = other.result.best if other.result is not None else None
            bound = solved.bound if solved is not None and solved.bound is not None else None
            if bound is None:
                bound = objective_bound(other.start.state, objective)
            if score(objective, bound) > value:
                return False
        return True

    def _why_lost(self) -> str:
        """The proof of each payment's loss, said once when they agree."""
        proofs = [(p.action, p.result.reason) for p in self.payments if p.result is not None]
        if len({reason for _, reason in proofs}) == 1:
            return str(proofs[0][1])
        # Only a move that is not forced has more than one payment, each named by its action.
        each = "; ".join(f"{format_action(action)}: {reason}" for action, reason in proofs if action is not None)
        return f"each of its {len(proofs)} payments worth trying loses ({each})"


@dataclass
class _Run:
    """The looks at every move under way: the clock, and whether Ctrl-C came."""

    moves: list[_Candidates]
    budget: Budget
    objective: Objective
    progress: Progress | None
    started: float
    interrupted: bool = False

    def left(self) -> float:
        return self.budget.seconds - (time.monotonic() - self.started)

    def looks(self) -> None:
        payments = [p for m in self.moves for p in m.payments]
        if self.budget.reproducible:
            # One look, the same on every run: each payment a fixed share of the fixed budgets
            # (greedy playouts too: a lost position plays them all).
            fraction = 1 / max(1, len(payments))
            playouts = max(MIN_PLAYOUTS, round(self.budget.greedy_playouts * fraction))
            share = replace(self.budget.part(fraction, self.budget.seconds), greedy_playouts=playouts)
            self.look(ONE_LOOK_PHASE, payments, lambda _, __: (share, Method.AUTO, self.objective))
            return
        first = FIRST_LOOK * self.budget.seconds / max(1, len(payments))
        self.look(FIRST_LOOK_PHASE, payments, lambda _, left: (self._seconds(min(first, left)), Method.SEARCH, Objective.ANY))
        # Then rounds over what is still open, each share what is left over those still to
        # solve, until the time is up: a round whose solves end early leaves the rest more.
        while not self.interrupted and self.left() > MIN_ROUND_SECONDS:
            if not self.look(SECOND_LOOK_PHASE, self._open(), self._later):
                break

    def _seconds(self, seconds: float) -> Budget:
        return replace(self.budget, seconds=seconds)

    def _open(self) -> list[_Payment]:
        """The undecided payments of the moves still undecided; with an objective, also each
        winning move's best payment whose value is not proven optimal, to improve its line."""
        undecided = [p for m in self.moves if m.verdict == Verdict.UNKNOWN for p in m.payments if p.verdict == Verdict.UNKNOWN]
        if self.objective == Objective.ANY:
            return undecided
        wins = [m.best(self.objective) for m in self.moves if m.verdict == Verdict.WIN]
        return undecided + [p for p in wins if not _optimal(p.result)]

    def _later(self, payment: _Payment, seconds: float) -> tuple[Budget, Method, Objective] | None:
        """A later round's solve: the whole portfolio, and the objective, given the time
        for CP-SAT; else the search alone, and a win is left as it is."""
        if seconds >= CPSAT_SECONDS:
            return self._seconds(seconds), Method.AUTO, self.objective
        if payment.verdict == Verdict.WIN:
            return None
        return self._seconds(seconds), Method.SEARCH, Objective.ANY

    def look(self, phase: str, payments: Iterable[_Payment], share: Callable[[_Payment, float], tuple | None]) -> int:
        """Solve each payment in turn; ``share`` gives the budget, method and objective of
        one (None: leave it) from the seconds left for each of those still to solve. Stops
        at Ctrl-C, and (with a clock) when the time is up. Returns how many it solved."""
        todo = list(payments)
        solved = 0
        for done, payment in enumerate(todo):
            left = self.left()
            if not self.budget.reproducible and left <= 0:
                break
            given = share(payment, left / (len(todo) - done))
            if given is None:
                continue
            self._say(phase, done, len(todo))
            result = _solved(payment, *given)
            solved += 1
            payment.keep(result, self.objective)
            if result.interrupted:
                self.interrupted = True
                break
        return solved

    def _say(self, phase: str, done: int, total: int) -> None:
        if self.progress is None:
            return
        verdicts = [m.verdict for m in self.moves]
        found = (
            f"{verdicts.count(Verdict.WIN)} win, {verdicts.count(Verdict.NO_WIN)} no-win, "
            f"{verdicts.count(Verdict.UNKNOWN)} undecided of {len(verdicts)} moves"
        )
        until = None if self.budget.reproducible else self.started + self.budget.seconds
        self.progress(Step(f"{phase}, {done + 1} of {total}", until, found))


def _solved(payment: _Payment, budget: Budget, method: Method, objective: Objective) -> Result:
    """The payment solved; a win already found is improved from its line for the objective
    (a fresh solve would start again from a worse one)."""
    if payment.result is not None and payment.verdict == Verdict.WIN and objective != Objective.ANY:
        from tranquility.solver.analysis.improving import improve  # with an objective only (and OR-Tools)

        return improve(payment.result, budget, objective, None)
    return solve(payment.start, budget, method, objective=objective)
