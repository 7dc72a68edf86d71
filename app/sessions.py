"""The games a front end plays, between one request (or key) and the next: a
``BoardSession`` (``play``'s board: every card face up, undo and redo, the check's proofs)
or a ``TableSession`` (``play --seat``'s table: one seat, bots at the others). Neither
applies a rule itself: each hands the move the person chose to the engine (``Board``,
``Table``), which accepts it or says which rule it breaks. What a session shows is its
``view()`` (``view.View``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tranquility.solver.analysis.board import Board, BoardError, Proofs
from tranquility.solver.analysis.table import Table
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Line
from tranquility.solver.formats.codecs import action_from_json
from tranquility.solver.formats.notation import format_action
from tranquility.solver.verdicts import Verdict

from .view import View, board_view, proven, table_view


@dataclass
class BoardSession:
    """``play``'s board: the game, and the verdicts the checks after each move proved."""

    board: Board
    proofs: Proofs = field(default_factory=Proofs)

    def view(self) -> View:
        return board_view(self.board, self.proofs)

    def verdicts(self) -> dict[str, str]:
        """Every proven verdict of this game's positions, by the turn that reaches it (as a
        JSON object's keys: what a check is told it knows)."""
        return {str(turn): verdict for turn, verdict in proven(self.board, self.proofs).items()}

    def play(self, data: Any) -> None:
        """An action object, or moves in the notation (all of them or none), as the page's
        move box and its address send them."""
        if isinstance(data, str):
            self.board = self.board.play(data)
        else:
            self.board = self.board.play_action(action_from_json(data, "action"))

    def undo(self) -> None:
        self.board = self.board.undo()

    def redo(self) -> None:
        self.board = self.board.redo()

    def back(self) -> None:
        """Back to the last position proven winnable, as ``ctrl+g`` goes."""
        turn = self.proofs.last_winnable(self.board)
        if turn is None:
            raise BoardError("no position of this game is proven winnable yet: ask for a hint or let the check run")
        self.board = self.board.back_to(turn)

    def learn(self, line: Line, verdicts: dict[str, str]) -> None:
        """Keep the verdicts a check proved of the positions of ``line`` (by turn): the game
        may have moved on while it ran, and a verdict stays its position's."""
        for turn, verdict in verdicts.items():
            self.proofs = self.proofs.proven(replace(line, actions=line.actions[: int(turn)]), Verdict(verdict))


@dataclass
class TableSession:
    """``play --seat``'s table: the person's seat, bots at the others."""

    table: Table

    def view(self) -> View:
        return table_view(self.table)

    def play(self, data: Any) -> None:
        """The person's move: an action (its own seat's), or its move in the notation
        (``"S"`` for the Start)."""
        text = data if isinstance(data, str) else format_action(_own(action_from_json(data, "action"), self.table.seat))
        self.table = self.table.play(text)

    def give(self, cards: list) -> None:
        self.table = self.table.give(",".join(map(str, cards)))

    def rocks(self, row: int) -> None:
        self.table = self.table.rocks(str(row))

    def step(self) -> None:
        """One bot acts (the Start event: every bot's share, up to the person's)."""
        self.table = self.table.bot_move()


def _own(action: Action, seat: int) -> Action:
    if action.seat != seat:
        raise BoardError(f"action.seat: you play seat {seat}, not seat {action.seat}")
    return action
