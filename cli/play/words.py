"""What the board says: whose turn it is, the moves just played, a hint's and the ranking's
titles and lines, the analysis drawn."""

from __future__ import annotations

from functools import partial

from rich.text import Text
from tranquility.solver.analysis.analyze import Analysis
from tranquility.solver.analysis.board import Board
from tranquility.solver.analysis.fair import FairAnalysis
from tranquility.solver.analysis.ranking import Ranking
from tranquility.solver.analysis.table import Table
from tranquility.solver.verdicts import Objective, Verdict

from ..render.analysis import render_analysis, render_fair
from ..render.board import cards_text
from .widgets import Drawing

# The moves a message names when a line of moves is played; more are counted.
SAID_MOVES = 6


BEST_MOVES = 3  # the moves the board's ranking shows; `tranquility moves` lists them all


def turn_words(board: Board) -> Text:
    """Whose turn it is (the turns counted from 1, as the history and the hints count them),
    or how the game ended."""
    state = board.state
    if state.won:
        return Text(f"Won after {board.turn} turn(s).", style="bold green")
    if board.over:
        return Text(f"Lost after {board.turn} turn(s): seat {state.seat} has no legal action.", style="bold red")
    head = Text(f"Turn {board.turn + 1}: seat {state.seat} to move", style="bold")
    if state.must_play_start():
        head.append(" (it holds the Start card and must play it)")
    return head


def played_words(tokens: list[str]) -> str:
    """The moves just played, for the message line (which stays a line or two)."""
    if len(tokens) > SAID_MOVES:
        tokens = [f"{len(tokens)} moves:", *tokens[:2], "...", tokens[-1]]
    return f"played {' '.join(tokens)}."


def table_words(table: Table) -> Text:
    """Whose turn it is at a table with bots, the person's seat named."""
    turn, state = table.board.turn + 1, table.board.state
    if table.start is not None:
        what = "your share" if table.start.call is not None else "your rocks move"
        return Text(f"Turn {turn}: the Start event asks for {what} (seat {table.seat})", style="bold")
    if not table.my_turn:
        return Text(f"Turn {turn}: seat {state.seat} to move (a {table.seating.bots} bot); you are seat {table.seat}")
    head = Text(f"Turn {turn}: your move (seat {table.seat})", style="bold")
    if state.must_play_start():
        head.append(" (you hold the Start card and must play it: S)")
    return head


def face_down_words(count: int, own: tuple) -> Text:
    """The discard pile at a table: how many cards lie face down, and the faces of the
    person's own among them (it put them there)."""
    text = Text(f"{count} card(s) face down", style="dim")
    return text + Text("; yours among them: ") + cards_text(own) if own else text


def hint_title(board: Board) -> str:
    """Numbered as the board's head is: the turn to play."""
    return "Hint: the game is over" if board.over else f"Hint: turn {board.turn + 1}, seat {board.state.seat} to move"


def moves_title(board: Board) -> str:
    return "Moves: the game is over" if board.over else f"Moves: turn {board.turn + 1}, seat {board.state.seat} to move"


def best_moves_words(ranking: Ranking) -> list[str]:
    """The best ``BEST_MOVES`` moves of ``ranking``, one line each, and how many there are."""
    moves = ranking.moves
    if not moves:
        return ["no move: the game is over"]
    said = [f"{len(moves)} move(s) ranked in {ranking.seconds:.1f} s; the best:"]
    for rank, move in enumerate(moves[:BEST_MOVES], start=1):
        if move.verdict == Verdict.WIN:
            value = " (proven)" if move.proven and ranking.objective != Objective.ANY else ""
            said.append(f"{rank}. {move.notation} wins: {move.spare} spare, {move.turns} turns{value}")
        elif move.verdict == Verdict.NO_WIN:
            said.append(f"{rank}. {move.notation} loses: {move.reason}")
        else:
            said.append(f"{rank}. {move.notation} unknown in the time (a longer --hint-time may decide it)")
    return said


def analysis_drawing(analysis: Analysis | FairAnalysis) -> Drawing:
    if isinstance(analysis, FairAnalysis):
        return Drawing(partial(render_fair, fair=analysis))
    return Drawing(partial(render_analysis, analysis=analysis, verdict_first=True))


def same_game(one: Board, other: Board) -> bool:
    return one.origin == other.origin and one.actions == other.actions


def common_turns(last: Board | None, board: Board) -> int:
    """The turns ``board`` shares with the board checked ``last``: the moves after them are
    the ones to judge (none after an undo; all of them for another game)."""
    if last is None or last.origin != board.origin:
        return board.turn
    shared = 0
    for mine, theirs in zip(board.actions, last.actions, strict=False):
        if mine != theirs:
            break
        shared += 1
    return shared
