"""The replay verifier: checks a deal, or replays a line action by action from where it
starts (the deal as dealt, or a position: ``State.initial`` starts there, and a position
was checked when it was read, so only a real deal can fail as ``deal: ...``).

Separate from every solver on purpose: a solver's line is only trusted once this accepts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import describe
from .deal import Deal, DealError
from .errors import BadInput
from .line import Line
from .state import IllegalAction, State, Status


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


def position_after(line: Line) -> State:
    """The position a legal line reaches; BadInput naming the deal or the turn otherwise."""
    check = verify(line)
    if check.state is None or not check.legal:
        raise BadInput(str(check.error))
    return check.state


def verify(game: Deal | Line) -> Verification:
    line = game if isinstance(game, Line) else Line(game)
    try:
        state = State.initial(line.deal)
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
