"""A line of play: where it starts (a deal, or a position) and the actions played from there.
Every command that takes a game takes a ``Game``: a deal, a position or a line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.state import State


@dataclass(frozen=True)
class Line:
    """Where the line starts, the deal as dealt or a position, and the actions played from
    there, in order; it may stop before the end."""

    start: Deal | Position
    actions: tuple[Action, ...] = ()

    @property
    def deal(self) -> Deal:
        """The deal the line is played over: the deal as dealt, or the one made for the
        position it starts from (its piles are the cards still to be drawn)."""
        return self.start if isinstance(self.start, Deal) else self.start.deal

    @property
    def position(self) -> Position | None:
        """The position the line starts from, or None when it starts from the deal as dealt."""
        return self.start if isinstance(self.start, Position) else None

    def initial_state(self) -> State:
        """The engine state where the line starts (a deal is checked first)."""
        return self.start.state() if isinstance(self.start, Position) else State.initial(self.start)

    def end_state(self) -> State:
        """The state the line reaches; IllegalAction on the first action the rules refuse."""
        state = self.initial_state()
        for action in self.actions:
            state = state.apply(action)
        return state

    def with_actions(self, actions: Iterable[Action]) -> Line:
        """The line from the same start with these actions instead."""
        return replace(self, actions=tuple(actions))


Game = Deal | Position | Line


def as_line(game: Game) -> Line:
    """A game as a line: a deal or a position is a line with no action yet."""
    return game if isinstance(game, Line) else Line(game)
