"""The games the page plays, kept on the server between requests: a ``BoardSession``
(``play``'s board: every card face up, the check's proofs) or a ``TableSession`` (``play
--seat``'s table: one seat, bots at the others). The page never applies a rule itself:
it sends the action the person chose and the engine (``Board``, ``Table``) accepts it or
says which rule it breaks.

What a session sends is its ``view``. A table's view is built from the person's own
``Observation`` and the history as its seat saw it (``seen_token``), so the page of seat K
receives no card that seat cannot see, until the game is over and every card is turned up.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from tranquility.solver.analysis.board import Board, BoardError, Move, Proofs
from tranquility.solver.analysis.table import Table
from tranquility.solver.engine.actions import Action, ChoiceKind
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.state import State
from tranquility.solver.formats.codecs import action_from_json, action_to_json, line_to_json
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.position_forms import position_to_json, position_to_text
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.verdicts import Verdict

MAX_SESSIONS = 200  # games kept at once; the one unused longest goes first
IDLE_SECONDS = 3 * 3600.0  # a game untouched this long is dropped
MAX_START_OPTIONS = 300  # the Start's payments listed on the free board (the suggested one first)


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
    """A move of the list; with ``state``, a Start lists its payments (which cards each
    seat gives), the suggested first, as the free board lets the player choose them."""
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
        legal = (a for a in state.actions_for(choice) if a != move.action and state.explain_illegal(a) is None)
        found["options"] = [_option(a) for a in (move.action, *islice(legal, MAX_START_OPTIONS - 1))]
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


@dataclass
class BoardSession:
    """``play``'s board: the game, and the verdicts the checks after each move proved."""

    board: Board
    proofs: Proofs = field(default_factory=Proofs)

    def view(self) -> dict:
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
            "moves": [_move(move, state) for move in board.moves] if not board.over else [],
            "history": [{"turn": t, "notation": token, "words": words} for t, token, words in board.history()],
            "can_undo": bool(board.actions),
            "can_redo": bool(board.undone),
            "puzzle": None if goal is None else {"id": goal.id, "grade": goal.grade, "spare": goal.solution_spare},
            "cards_left": state.cards_left,
            "goal": board.goal_words(),
            "verdicts": self.verdicts(),
            "thrown_at": self.proofs.thrown_at(board),
            "last_winnable": self.proofs.last_winnable(board),
            "position_text": position_to_text(Position.of(state)),
            "line": line_to_json(board.line),
        }

    def verdicts(self) -> dict[str, str]:
        """Every proven verdict of this game's positions, by the turns that reach it."""
        found = ((turn, self.proofs.at(self.board, turn)) for turn in range(self.board.turn + 1))
        return {str(turn): verdict for turn, verdict in found if verdict is not None}

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
    """``play --seat``'s table: the person's seat, bots at the others (module docstring)."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one request at a time changes the game

    def view(self) -> dict:
        table, board = self.table, self.table.board
        obs = table.view
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
            "moves": [_move(move) for move in table.moves],
            "history": [{"turn": t, "notation": token, "words": words} for t, token, words in table.history()],
            "start": None if table.start is None else _start_json(table),
            "over": board.over,
        }
        if board.over:  # every card turned up, as at the table once the game ends
            view["line"] = line_to_json(board.line)
            view["position"] = position_to_json(Position.of(board.state))
            view["revealed"] = [{"turn": t, "notation": token, "words": words} for t, token, words in board.history()]
        return view

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


class Sessions:
    """The games in play, by id: at most MAX_SESSIONS, each dropped after IDLE_SECONDS."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, tuple[float, BoardSession | TableSession]] = OrderedDict()

    def add(self, session: BoardSession | TableSession) -> str:
        self._drop_idle()
        while len(self.games) >= MAX_SESSIONS:
            self.games.popitem(last=False)
        key = secrets.token_urlsafe(9)
        self.games[key] = (time.monotonic(), session)
        return key

    def get(self, key: str) -> BoardSession | TableSession | None:
        found = self.games.get(key)
        if found is None:
            return None
        self.games[key] = (time.monotonic(), found[1])
        self.games.move_to_end(key)
        return found[1]

    def _drop_idle(self) -> None:
        now = time.monotonic()
        for key in [key for key, (used, _) in self.games.items() if now - used > IDLE_SECONDS]:
            del self.games[key]
