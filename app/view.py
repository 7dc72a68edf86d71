"""What a front end shows of a game in play, as one immutable value (``View``): the board's
(every card face up, with what the check after each move proved) or a table's (one seat's
own cards alone, bots at the others, until the game is over). The terminal board (``play``)
draws it; ``to_json`` is what ``tranquility serve`` sends the page. Both read the same
value, built by ``board_view`` and ``table_view`` from the library's ``Board`` and ``Table``.

A table's view is built from the seat's own ``Observation`` and the history as its seat saw
it, so the page of seat K receives no card that seat cannot see, until the game is over and
every card is turned up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranquility.solver.analysis.board import Board, Move, Proofs
from tranquility.solver.analysis.table import Table
from tranquility.solver.engine.actions import Action, ChoiceKind
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.state import State
from tranquility.solver.formats.codecs import action_to_json, line_to_json
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.position_forms import position_to_json, position_to_text
from tranquility.solver.formats.rules_text import rules_name

Played = tuple[int, str, str]  # (turn from 1, its notation, the action in words)


@dataclass(frozen=True)
class View:
    """A game in play as a front end shows it (module docstring). ``verdicts``,
    ``thrown_at`` and ``last_winnable`` are the check's (a board's; empty at a table)."""

    board: Board
    table: Table | None  # None: the board, every card face up
    moves: tuple[Move, ...]  # what the player may play now
    history: tuple[Played, ...]  # as the player saw it (a table's seat: its own cards alone)
    verdicts: dict[int, str]  # every proven verdict of this game's positions, by turn
    thrown_at: int | None  # the turn whose move threw the win away, once proven
    last_winnable: int | None  # the last turn proven winnable

    @property
    def kind(self) -> str:
        return "board" if self.table is None else "table"

    @property
    def turn(self) -> int:
        return self.board.turn

    @property
    def over(self) -> bool:
        return self.board.over

    def to_json(self) -> dict:
        """The page's view (docs/web.md): the position as the player may see it, the moves,
        the history, and the board's proofs or the table's seat."""
        return self._board_json() if self.table is None else self._table_json(self.table)

    def _board_json(self) -> dict:
        board, state, goal = self.board, self.board.state, self.board.goal
        return {
            "kind": "board",
            **_table_of(state),
            "turn": board.turn,
            "grid": _cells(state.grid, state),
            "hand": list(state.hand),
            "hands": [list(hand) for hand in state.hands],
            "finish_allowed": state.finish_allowed(),
            "rock_rows": state.eligible_rock_rows() if state.rocks_choice_due else [],
            "moves": [_move(move, state) for move in self.moves],
            "history": _history(self.history),
            "can_undo": bool(board.actions),
            "can_redo": bool(board.undone),
            "puzzle": None if goal is None else {"id": goal.id, "grade": goal.grade, "spare": goal.solution_spare},
            "cards_left": state.cards_left,
            "goal": board.goal_words(),
            "verdicts": {str(turn): verdict for turn, verdict in self.verdicts.items()},
            "thrown_at": self.thrown_at,
            "last_winnable": self.last_winnable,
            "position_text": position_to_text(Position.of(state)),
            "line": line_to_json(board.line),
        }

    def _table_json(self, table: Table) -> dict:
        board, obs = self.board, table.view
        view: dict[str, Any] = {
            "kind": "table",
            **{key: value for key, value in _table_of(board.state).items() if key != "gone"},
            "gone": list(obs.gone),
            "turn": board.turn,
            "seat": table.seat,
            "bots": table.seating.bots,
            "my_turn": table.my_turn,
            "bots_turn": table.bots_turn,
            "grid": _cells(obs.grid, obs.view),
            "hand": list(obs.hand),
            "moves": [_move(move) for move in self.moves],
            "history": _history(self.history),
            "start": None if table.start is None else _start_json(table),
            "over": board.over,
        }
        if board.over:  # every card turned up, as at the table once the game ends
            view["line"] = line_to_json(board.line)
            view["position"] = position_to_json(Position.of(board.state))
            view["revealed"] = _history(tuple(board.history()))
        return view


def board_view(board: Board, proofs: Proofs | None = None) -> View:
    """The board's view: every card face up; ``proofs``, what the check proved (None: no check)."""
    found = Proofs() if proofs is None else proofs
    moves = board.moves if not board.over else ()
    history = tuple(board.history())
    return View(board, None, moves, history, proven(board, found), found.thrown_at(board), found.last_winnable(board))


def proven(board: Board, proofs: Proofs) -> dict[int, str]:
    """Every verdict ``proofs`` hold of this game's positions, by the turn that reaches it."""
    return {turn: verdict for turn in range(board.turn + 1) if (verdict := proofs.at(board, turn)) is not None}


def table_view(table: Table) -> View:
    """A seat's view at a table: its own hand alone until the game is over."""
    return View(table.board, table, table.moves, tuple(table.history()), {}, None, None)


def _history(played: tuple[Played, ...]) -> list[dict]:
    return [{"turn": turn, "notation": token, "words": words} for turn, token, words in played]


def _cells(grid: tuple, bounds: State) -> list[dict]:
    """Each cell: its card, or for an empty one the islands the order lets it hold now."""
    cells = []
    for cell, card in enumerate(grid):
        if card is None:
            low, high = bounds.island_bounds(cell)
            cells.append({"card": None, "low": low + 1, "high": high - 1})
        else:
            cells.append({"card": card})
    return cells


def _move(move: Move, state: State | None = None) -> dict:
    """A move of the list; with ``state``, a Start offers its suggested payment (which cards
    each seat gives) and the round the team chooses its own in, as the free board lets the
    player choose them."""
    choice = move.choice
    found: dict[str, Any] = {
        "kind": choice.kind,
        "card": choice.card,
        "cell": choice.cell,
        "cost": move.cost,
        "notation": move.token,
        "words": move.words,
        "action": action_to_json(move.action),
    }
    if state is not None and choice.kind == ChoiceKind.START:
        found["options"] = [_option(move.action)]
        event = state.start_rounds()
        if event is not None:  # the round the team chooses in: after any forced rounds (docs/rules.md)
            found["start"] = {"hands": [list(hand) for hand in event.hands], "owed": event.owed, "forced": list(event.forced)}
    return found


def _option(action: Action) -> dict:
    return {"notation": format_action(action), "action": action_to_json(action)}


def _table_of(state: State) -> dict:
    """What every seat sees of a position: the grid's shape and rules, counts, the public piles."""
    rules = state.rules
    return {
        "rules": rules.to_dict(),
        "rules_name": rules_name(rules),
        "rows": rules.rows,
        "cols": rules.cols,
        "players": state.players,
        "status": state.status,
        "to_move": state.seat,
        "turn": state.turn,
        "hand_sizes": [len(hand) for hand in state.hands],
        "pile_sizes": [len(state.pile(seat)) for seat in range(state.players)],
        "discarded": len(state.discarded),
        "start_played": state.start_played,
        "monsters_played": state.monsters_played,
        "gone": list(state.gone),
        "rocks_row": state.rocks_row,
    }


def _start_json(table: Table) -> dict:
    start = table.start
    assert start is not None
    call = start.call
    return {
        "words": start.words(),
        "given": [{"seat": seat, "count": len(cards)} for seat, cards in start.given],
        "hand": None if call is None else list(call.obs.hand),
        "least": None if call is None else call.least,
        "most": None if call is None else call.most,
        "quota": None if call is None else call.quota,
        "rows": list(start.rows),
    }
