"""The replay verifier: checks a deal, or replays a line action by action from where it
starts (the deal as dealt, or a position: a position was checked when it was made, so
only a real deal can fail as ``deal: ...``).

Separate from every solver on purpose: a solver's line is only trusted once this accepts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranquility.solver.engine.actions import describe
from tranquility.solver.engine.deal import DealError
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.engine.state import IllegalAction, State, Status
from tranquility.solver.errors import BadInput


@dataclass(frozen=True)
class Verification:
    legal: bool
    won: bool
    status: Status  # after the accepted actions
    turns: int  # actions accepted
    error: str | None
    state: State | None  # the position after the accepted actions (None if the deal is bad)

    def to_json(self) -> dict:
        return {
            "legal": self.legal,
            "won": self.won,
            "status": self.status,
            "turns": self.turns,
            "error": self.error,
        }


@dataclass(frozen=True)
class Replayed:
    """A game the verifier has replayed and accepted, and the state it reaches: checked once
    and handed on (``solve`` takes one as it is)."""

    line: Line
    state: State


def replayed(game: Game) -> Replayed:
    """``game`` replayed by the verifier; BadInput naming the deal or the turn otherwise."""
    line = as_line(game)
    check = verify(line)
    if check.state is None or not check.legal:
        raise BadInput(str(check.error))
    return Replayed(line, check.state)


def position_after(line: Line) -> State:
    """The position a legal line reaches; BadInput naming the deal or the turn otherwise."""
    return replayed(line).state


def verify(game: Game) -> Verification:
    line = as_line(game)
    try:
        state = line.initial_state()
    except DealError as exc:
        return Verification(False, False, Status.OPEN, 0, f"deal: {exc}", None)
    for turn, action in enumerate(line.actions, start=1):
        try:
            next_state = state.apply(action)
        except (IllegalAction, DealError) as exc:
            error = f"turn {turn}: {describe(action)}: {exc}"
            return Verification(False, state.won, state.status, turn - 1, error, state)
        state = next_state
    return Verification(True, state.won, state.status, len(line.actions), None, state)
