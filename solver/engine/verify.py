"""The replay verifier: checks a deal, or replays a line action by action from where it
starts (the deal as dealt, or a position: a position was checked when it was made, so
only a real deal can fail as ``deal: ...``).

Separate from every solver on purpose: a solver's line is only trusted once this accepts it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranquility.solver.engine.actions import Action, describe
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
    """A game the verifier has replayed and accepted, with every position it went through
    (``states``: before each action, and the last after them all): checked once and handed
    on (``solve``, ``explain``, the board and the analysis take one as it is)."""

    line: Line
    states: tuple[State, ...]

    @property
    def state(self) -> State:
        """The position the game reaches."""
        return self.states[-1]

    def then(self, action: Action) -> Replayed:
        """The game after ``action`` (legal: the engine's ``IllegalAction`` otherwise)."""
        return Replayed(self.line.with_actions(self.line.actions + (action,)), self.states + (self.state.apply(action),))


def replayed(game: Game | Replayed) -> Replayed:
    """``game`` replayed by the verifier (a game already replayed as it is); BadInput naming
    the deal or the turn otherwise, as ``verify`` names it."""
    if isinstance(game, Replayed):
        return game
    line, states = as_line(game), list[State]()
    check = _replay(line, states)
    if check.state is None or not check.legal:
        raise BadInput(str(check.error))
    return Replayed(line, tuple(states))


def position_after(line: Line) -> State:
    """The position a legal line reaches; BadInput naming the deal or the turn otherwise."""
    return replayed(line).state


def verify(game: Game) -> Verification:
    return _replay(as_line(game))


def _replay(line: Line, states: list[State] | None = None) -> Verification:
    """The verifier's replay; ``states``, when given, receives each position reached."""
    try:
        state = line.initial_state()
    except DealError as exc:
        return Verification(False, False, Status.OPEN, 0, f"deal: {exc}", None)
    if states is not None:
        states.append(state)
    for turn, action in enumerate(line.actions, start=1):
        try:
            next_state = state.apply(action)
        except (IllegalAction, DealError) as exc:
            error = f"turn {turn}: {describe(action)}: {exc}"
            return Verification(False, state.won, state.status, turn - 1, error, state)
        state = next_state
        if states is not None:
            states.append(state)
    return Verification(True, state.won, state.status, len(line.actions), None, state)
