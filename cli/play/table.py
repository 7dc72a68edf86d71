"""The board at a table with bots (``play --seat``): the person's move, its share of the
Start event and its rocks move; the bots' moves, one at a time in a worker thread at a pace
a person can follow; the fair hint, from what the person's seat has seen."""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from rich.text import Text
from textual import work
from textual.worker import get_current_worker
from tranquility.solver.analysis.board import Board
from tranquility.solver.analysis.table import FairHint, Table, seen_token

from .words import played_words, same_game

T = TypeVar("T")


class TableBoard(Protocol):
    """What the table's moves need of the board's app."""

    board: Board
    table: Table | None
    bots_busy: bool
    bot_delay: float

    def say(self, message: str) -> None: ...
    def report(self, text: Text | str, title: str) -> None: ...
    def moved(self, board: Board, said: str) -> None: ...
    def tried(self, change: Callable[[], T], text: str) -> T | None: ...
    def keyed(self, command: str) -> str: ...
    def aside(self, board: Board, solving: Callable[[], Any], failed: str, then: Callable[[Board, Any], None]) -> Any: ...
    def call_from_thread(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> Any: ...
    def seated(self, table: Table, said: str) -> None: ...
    def advance(self) -> None: ...
    def bot(self, table: Table) -> Any: ...
    def bot_moved(self, table: Table, after: Table) -> None: ...
    def fair_hinted(self, title: str, board: Board, found: FairHint | str | None) -> None: ...


class SeatAtTable:
    """The board's moves at a table with bots, mixed into the app."""

    def at_table(self: TableBoard, command: str, text: str) -> None:
        """The person's move, its share of the Start event (give) or its rocks move (rocks)."""
        table = self.table
        if table is None:
            self.say(f"{command} is for a table with bots (play --seat K), while the game goes on")
            return
        after = self.tried(partial({"play": table.play, "give": table.give, "rocks": table.rocks}[command], text), text)
        if after is not None:
            done = [seen_token(a, table.seat) for a in after.board.actions[table.board.turn :]]
            self.seated(after, played_words(done) if done else "")

    def seated(self: TableBoard, table: Table, said: str) -> None:
        """The table moved on (the person's move, a bot's, the Start event asking): show it,
        reveal every card once the game is over, and let the bots play on."""
        self.table = None if table.board.over else table
        if table.start is not None:
            said = f"{said} The Start event asks you: {table.start.words()[-1]}".strip()
        self.moved(table.board, said)
        if table.start is not None:
            self.report("\n".join(table.start.words()), "The Start event")
        self.advance()

    def advance(self: TableBoard) -> None:
        """Let the bot to move act, in a worker thread (one at a time; the next starts when
        its move is shown)."""
        table = self.table
        if table is None or not table.bots_turn or self.bots_busy:
            return
        self.bots_busy = True
        self.bot(table)

    @work(thread=True, exclusive=True, group="bots")
    def bot(self: TableBoard, table: Table) -> None:
        began = time.monotonic()  # the pace only: what the bot plays depends on no clock
        after = table.bot_move()
        time.sleep(max(0.0, self.bot_delay - (time.monotonic() - began)))
        self.call_from_thread(self.bot_moved, table, after)

    def bot_moved(self: TableBoard, table: Table, after: Table) -> None:
        self.bots_busy = False
        if self.table is not table:  # another game was loaded meanwhile: its bots, if they are to move
            self.advance()
            return
        done = [seen_token(a, table.seat) for a in after.board.actions[table.board.turn :]]
        said = f"seat {table.board.state.seat} played {' '.join(done)}." if done else ""
        self.seated(after, f"{said} Your move." if after.moves else said)

    def fair_hint(self: TableBoard, table: Table) -> None:
        """Rank the person's moves by their win chances in worlds dealt to fit what its seat
        has seen, in a worker thread (the same ``aside`` as the solver's hint)."""
        title = f"Fair hint: turn {table.board.turn + 1}, seat {table.seat} (you)"
        samples, total = table.seating.hint_samples, len(table.moves)
        self.report(f"playing each of your {total} move(s) out in {samples} worlds...", title)

        def estimating() -> FairHint | None:
            found = []
            for estimate in table.estimate_each():
                if self.table is not table or get_current_worker().is_cancelled:
                    return None  # the game moved on, or another hint was asked for
                found.append(estimate)
                self.call_from_thread(self.report, f"playing your moves out: {len(found)} of {total}...", title)
            return FairHint(samples, tuple(found))

        self.aside(table.board, estimating, "no hint", partial(self.fair_hinted, title))

    def fair_hinted(self: TableBoard, title: str, board: Board, found: FairHint | str | None) -> None:
        if found is None:
            return
        if not same_game(board, self.board):
            self.say(f"the hint for turn {board.turn + 1} came after the board changed; {self.keyed('hint')} asks again")
            return
        self.report(found if isinstance(found, str) else "\n".join(found.words()), title)
