"""``tranquility play``: an interactive board in the terminal (Textual), docs/play.md.

It draws a ``solver.analysis.board.Board`` and hands it what was typed or picked; every
rule, the undo stack, the hints' verdicts, the check's proofs and the puzzle comparison are
the library's. Solves (hints, the check after each move, the post-game analysis) run in
worker threads so that the board stays responsive. Every drawing is made for the size it
is shown at, again after each resize.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from rich.console import Console
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option
from tranquility.app.view import View, board_view, table_view
from tranquility.solver.analysis.analyze import Analysis, analyze
from tranquility.solver.analysis.board import Board, FileExists, Hint, Move, MoveRefused, Proofs, offering
from tranquility.solver.analysis.fair import FairAnalysis, fair_analysis
from tranquility.solver.analysis.ranking import Ranking, rank_moves
from tranquility.solver.analysis.results import Step
from tranquility.solver.analysis.table import Seating
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective

from ..exits import InputError
from ..game_input import DealSource
from ..render.board import cards_text, last_cell, render_position, render_seat_view, rules_line, short_cards
from .commands import COMMANDS, GREETING, HELP_TABLE, HOW_TO_MOVE, KEYED, OFF_AT_TABLE, WEB_GREETING, commands_text
from .opening import load_board, seated_board
from .screens import AnalysisScreen
from .table import SeatAtTable
from .widgets import BoardView, MoveList, MoveRow
from .words import (
    analysis_drawing,
    best_moves_words,
    common_turns,
    face_down_words,
    hint_title,
    moves_title,
    played_words,
    same_game,
    table_words,
    turn_words,
)

# Below this many rows the title bar is left out: at 80x24 the board needs the row.
TITLE_ROWS = 30
T = TypeVar("T")
BOT_DELAY = 0.8  # seconds between the bots' moves at a table (play --seat): a pace to follow


class PlayApp(SeatAtTable, App):
    """The board: the position, the legal moves, the history, and a line to type into."""

    TITLE = "tranquility play"
    ENABLE_COMMAND_PALETTE = False  # the footer's room is the board's keys'
    CSS = """
    #top { height: 1fr; }
    #table { width: 3fr; padding-right: 1; scrollbar-size-vertical: 1; }
    #side { width: 2fr; min-width: 30; }
    #moves { height: 2fr; min-height: 4; text-wrap: nowrap; text-overflow: ellipsis; }
    /* The default border title takes the border's colour, near the background's. */
    #moves { border-title-color: $foreground; border-subtitle-color: $foreground; }
    #report-box { height: auto; max-height: 50%; border-top: solid $primary; display: none; }
    #report-box.-shown { display: block; }
    #history-box { height: 1fr; border-top: solid $primary; }
    #history { text-wrap: nowrap; text-overflow: ellipsis; }
    #message { height: auto; max-height: 3; color: $warning; }
    """
    # Each key runs its command, the terminal's or the web page's set (check_action keeps
    # the other set off); at a table the keys of the commands that are off there leave the key
    # bar, and say why they are off when pressed.
    BINDINGS = [  # noqa: RUF012  # Textual reads bindings from the class
        *(Binding(c.key, f"key('{c.word}', False)", c.bar, priority=True) for c in KEYED if c.key),
        *(Binding(c.web_key, f"key('{c.word}', True)", c.bar, priority=True) for c in KEYED if c.web_key),
        *(
            Binding(key, f"off('{c.word}')", show=False, priority=True)
            for c in KEYED
            if c.word in OFF_AT_TABLE
            for key in dict.fromkeys((c.key, c.web_key))
            if key
        ),
    ]

    def __init__(
        self,
        board: Board,
        hint_time: float = 2.0,
        objective: Objective | None = None,
        check: bool = True,
        seating: Seating | None = None,
        bot_delay: float = BOT_DELAY,
        web: bool | None = None,
    ) -> None:
        super().__init__()
        self.board = board
        self.served = web  # None: as the driver says (play --web draws through the web driver)
        # At a table (play --seat): the game while its cards are face down; None without a
        # seating and once the game is over (every card is then face up).
        self.seating = seating
        self.table = None if seating is None or board.over else seating.sit(board)
        self.bot_delay = bot_delay
        self.bots_busy = False
        self.listed: tuple[Move, ...] = ()  # the moves the list shows
        self.budget = Budget(seconds=hint_time)
        self.hint_time = hint_time
        self.objective = objective  # None: the board's own (the most spare cards in a puzzle)
        self.analysis: Analysis | None = None  # the last post-game analysis, once made
        self.fair: FairAnalysis | None = None  # the last fair one
        self.last_hint: Hint | None = None
        self.said = ""  # the last message, as shown under the board
        self.reported = ""  # the hint (or help) shown, as plain text; empty when none is
        # The check after each move: what it has proven, the board it judged last, whether
        # one is running (one at a time: it then judges every move played meanwhile).
        self.checking = check
        self.proofs = Proofs()
        self.checked_board: Board | None = None
        self.check_busy = False

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with VerticalScroll(id="table"):
                yield BoardView(self.draw_board, id="board")
            with Vertical(id="side"):
                yield MoveList(id="moves")
                with VerticalScroll(id="report-box"):
                    yield Static(id="report")
                with VerticalScroll(id="history-box"):
                    yield Static(id="history")
        yield Static(id="message")
        # Focus comes back to the line after a pick, its cursor at the end: not all selected.
        yield Input(
            placeholder="a move (41@20-3,77) or a command (hint, undo, save game.json, help)", id="command", select_on_focus=False
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        for scroll in self.home.query(VerticalScroll):
            scroll.can_focus = False  # Tab goes between the input line and the move list only
        self.home.query_one("#history-box").border_title = "History"
        self.home.query_one(MoveList).on_blur()
        self.retitle()
        self.redraw()
        self.say(WEB_GREETING if self.web else GREETING)
        self.home.query_one("#command", Input).focus()
        self.start_check()
        self.advance()

    @property
    def web(self) -> bool:
        """Whether the board is a web page (play --web): its keys are then the web's."""
        return self.is_web if self.served is None else self.served

    def keyed(self, command: str) -> str:
        """The key that runs ``command`` here, or the command itself when only typed."""
        return (COMMANDS[command].web_key if self.web else COMMANDS[command].key) or command

    def help_words(self) -> str:
        keys = [f"{key} {c.words}" for c in KEYED if (key := c.web_key if self.web else c.key)]
        return f"{HOW_TO_MOVE}\n\nCommands: {commands_text()}.\n\nKeys: {', '.join(keys)}, Tab the move list, ctrl+q quit." + (
            HELP_TABLE if self.seating else ""
        )

    def action_key(self, command: str, web: bool) -> None:
        """Run ``command`` as typed (save and load wait for their PATH); ``web``: a key of
        the web page's set (check_action tells the sets apart)."""
        if command in ("save", "load"):
            self.action_prompt(f"{command} ")
        else:
            self.command(command)

    def action_off(self, command: str) -> None:
        """A key of a command that is off at a table: the command says why."""
        self.command(command)

    @property
    def home(self) -> Screen:
        """The board's screen: its parts are found there even while the analysis covers it."""
        return self.screen_stack[0]

    def on_resize(self) -> None:
        self.home.query_one(Header).display = self.size.height >= TITLE_ROWS

    def retitle(self) -> None:
        goal = self.board.goal
        named = self.board.source or (f"puzzle {goal.id}" if goal is not None else "")
        seated = f"seat {self.seating.seat}, {self.seating.bots} bots" if self.seating is not None else ""
        self.sub_title = "; ".join(part for part in (named, seated) if part)

    # -- drawing --------------------------------------------------------------------------

    def draw_board(self, console: Console, compact: bool) -> None:
        """The left pane: the rules, whose turn it is, what the check found, the grid, each
        seat's hand and pile, the discards and the puzzle; ``compact`` for a small screen."""
        board, state, table = self.board, self.board.state, self.table
        head = turn_words(board) if table is None else table_words(table)
        if compact:
            head.append(f" ({rules_name(state.rules)})", style="dim")
        else:
            console.print(f"Rules: {rules_line(state.rules)}", style="dim")
        console.print(head)
        thrown = self.thrown_words(self.view())
        if thrown:
            console.print(Text(thrown, style="bold red"))
        last = last_cell(board.actions[-1]) if board.actions else None
        if table is None:
            render_position(console, state, piles=True, last=last, compact=compact)
        else:
            starting = board.state.seat if table.start is not None else None  # its action waits for every share
            render_seat_view(console, table.view, last=last, compact=compact, starting=starting)
        for title, cards in (("Discarded", state.discarded), ("Out of the game", state.gone)):
            if table is not None and title == "Discarded":
                console.print(Text(f"{title}: ") + face_down_words(len(cards), table.memory.own_discards))
            elif cards or title == "Discarded":
                shown = short_cards(cards, console.width - len(title) - 2) if compact else cards_text(cards)
                console.print(Text(f"{title}: ") + (shown if cards else Text("none", style="dim")))
        # A puzzle's solution and bound are worked out from every card: shown at the end.
        goal = board.goal_words() if table is None else board.goal_words()[:1]
        if goal:
            console.print(Text("\n".join(goal), style="bold cyan"))

    def view(self) -> View:
        """What the board shows (``tranquility.app.view``, as the page is sent it): the
        board with what the check proved (nothing while the check is off), or the seat's table."""
        if self.table is not None:
            return table_view(self.table)
        return board_view(self.board, self.proofs if self.checking else None)

    def thrown_words(self, view: View) -> str | None:
        """What the check proved about a move of this game that threw the win away, if any."""
        turn, back = view.thrown_at, view.last_winnable
        if turn is None:
            return None
        assert back is not None  # the position before the throw is a proven win
        token = format_action(view.board.actions[turn - 1])
        return (
            f"Turn {turn} ({token}) threw the win away: a proven win before it, a proven loss after it. "
            f"{self.keyed('back')}: back to turn {back + 1}."
        )

    def redraw(self) -> None:
        board, table, view = self.board, self.table, self.view()
        self.home.query_one(BoardView).changed()
        self.list_moves(view.moves, 0)
        moves = self.home.query_one(MoveList)
        moves.border_title = f"Legal moves ({len(self.listed)})"
        if table is not None and not self.listed:
            moves.border_title = "Your moves: " + ("the Start event" if table.my_turn else "the bots' turn")
        wide = max((len(token) for _, token, _ in view.history), default=0)
        lines = [f"{turn:>3}. {token:<{wide}}  {words}" for turn, token, words in view.history]
        lines += [f"  (undone: {len(board.undone)}; {self.keyed('redo')} or redo plays them again)"] if board.undone else []
        self.home.query_one("#history", Static).update(Text("\n".join(lines) or "(no turn played yet)"))
        self.history_to_end()

    def list_moves(self, listed: tuple[Move, ...], highlighted: int) -> None:
        """Show ``listed`` in the move list, the move at ``highlighted`` highlighted."""
        self.listed = listed
        moves = self.home.query_one(MoveList)
        moves.clear_options()
        wide = max((len(m.token) for m in listed), default=0)
        moves.add_options(Option(MoveRow(m, wide), id=str(i)) for i, m in enumerate(listed))
        moves.highlighted = highlighted if listed else None
        moves.call_after_refresh(moves.scroll_to_highlight)  # once the new rows are laid out

    def history_to_end(self) -> None:
        """Show the last turns, once the side column is laid out (a hint shown or gone
        changes the history's height)."""
        box = self.home.query_one("#history-box", VerticalScroll)
        self.call_after_refresh(box.scroll_end, animate=False)

    def say(self, message: str) -> None:
        self.said = message
        self.home.query_one("#message", Static).update(Text(message))

    def report(self, text: Text | str, title: str) -> None:
        """Show a hint (or the help) beside the board; an empty text hides the box."""
        self.reported = text.plain if isinstance(text, Text) else text
        self.home.query_one("#report", Static).update(text)
        box = self.home.query_one("#report-box", VerticalScroll)
        box.border_title = title
        box.set_class(bool(self.reported), "-shown")
        self.history_to_end()

    def moved(self, board: Board, said: str) -> None:
        """The board changed (a move, undo, redo, back, load): what was said about the
        position before (a hint) goes, the check judges the new one."""
        self.board = board
        self.report("", "")
        self.redraw()
        if board.over:
            outcome = "won" if board.state.won else "lost"
            shown = " Every card is face up now." if self.seating is not None else ""
            said += (
                f" Game over: {outcome}.{shown} Type analyze (or press {self.keyed('analyze')}) for the post-game analysis, "
                "analyze fair for the fair one."
            )
        self.say(said)
        self.start_check()

    # -- input ----------------------------------------------------------------------------

    @on(Input.Submitted, "#command")
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.command(text)

    def command(self, text: str) -> None:
        """Run one line typed at the board: a command word, or moves in the notation. What
        was said about the line before (a refusal) goes: each command says its own."""
        self.say("")
        word, _, rest = text.partition(" ")
        if word in COMMANDS:
            COMMANDS[word].run(self, rest.strip())
            return
        if self.table is not None:
            # While the Start event asks, the cards given (or the rocks' row) may come alone.
            start = self.table.start
            self.at_table("play" if start is None else "give" if start.call is not None else "rocks", text)
            return
        board = self.tried(partial(self.board.play, text), text)
        if board is not None:
            self.moved(board, played_words([format_action(a) for a in board.actions[self.board.turn :]]))

    def tried(self, change: Callable[[], T], text: str) -> T | None:
        """What ``change`` (of the line ``text`` typed) makes, or None when it is refused:
        the message says why, and a refused move stays on the input line to be mended."""
        try:
            return change()
        except MoveRefused as exc:
            self.say(f"refused: {exc}")
            self.retype(text, exc.column - 1 + len(exc.token), exc.column - 1)
        except BadInput as exc:
            self.say(f"refused: {exc}")
        return None

    def retype(self, text: str, at: int, start: int | None = None) -> None:
        """Put ``text`` back on the input line, the cursor at ``at``, and the text from
        ``start`` to it selected (typing replaces it): a refused move is mended or typed
        again, never glued to what is typed next."""
        field = self.home.query_one("#command", Input)
        field.value = text
        field.selection = Selection(at if start is None else start, at)
        field.focus()

    @on(OptionList.OptionSelected, "#moves")
    def picked(self, event: OptionList.OptionSelected) -> None:
        move = self.listed[int(event.option.id or 0)]
        self.retype(move.token, len(move.token))
        self.say(f"{move.words}, cost {move.cost}: Enter plays {move.token} (edit the payment after '-' first if you like).")

    def action_prompt(self, text: str) -> None:
        self.retype(text, len(text))

    def action_undo(self) -> None:
        if not self.off_at_table("undo"):
            self.step(self.board.undo, "undone")

    def action_redo(self) -> None:
        if not self.off_at_table("undo"):
            self.step(self.board.redo, "redone")

    def off_at_table(self, command: str) -> bool:
        """Whether ``command`` is off because the game's cards are face down (and say why)."""
        if self.table is None:
            return False
        self.say(OFF_AT_TABLE[command])
        return True

    def step(self, change: Callable[[], Board], what: str) -> None:
        try:
            board = change()
        except BadInput as exc:
            self.say(str(exc))
            return
        self.moved(board, f"{what}: now at turn {board.turn + 1}.")

    def action_back_to_win(self) -> None:
        """Undo to the latest position the check (or a hint) proved winnable."""
        if self.off_at_table("undo"):
            return
        turn = self.proofs.last_winnable(self.board)
        if turn is None:
            self.say("no position of this game is proven winnable yet (the check solves each after a move)")
        elif turn == self.board.turn:
            self.say("this position is a proven win already")
        else:
            undone = self.board.turn - turn
            self.moved(
                self.board.back_to(turn),
                f"back to turn {turn + 1}, a proven win: {undone} move(s) undone ({self.keyed('redo')} plays them again).",
            )

    def save(self, path: str, force: bool) -> None:
        if not path:
            self.say("save PATH: a .json path writes a line file, any other the notation")
            return
        try:
            self.say(self.board.save(path, force))
        except FileExists as exc:
            self.say(f"not saved: {exc}; save! {path} overwrites it")
        except BadInput as exc:
            self.say(f"not saved: {exc}")

    def load(self, path: str) -> None:
        if not path:
            self.say("load PATH: a deal, line, notation or puzzle file; play goes on where its line stops")
            return
        try:
            board = load_board(path)
        except InputError as exc:
            self.say(f"not loaded: {exc.message}")
            return
        if self.seating is not None:
            try:
                table = None if board.over else self.seating.sit(board)
            except BadInput as exc:
                self.say(f"not loaded: {exc}")
                return
            self.table = table
        self.analysis = self.fair = None
        self.moved(board, f"loaded {path}: {board.turn} action(s).")
        self.retitle()
        self.advance()

    # -- the check after each move ------------------------------------------------------------

    def action_toggle_check(self) -> None:
        if self.off_at_table("check"):
            return
        self.checking = not self.checking
        self.home.query_one(BoardView).changed()
        if self.checking:
            self.say(f"check on: after every move the board solves whether it threw the win away ({self.hint_time:g} s a solve)")
            self.start_check()
        else:
            self.say(f"check off: moves are no longer checked ({self.keyed('check')} turns it on)")

    def start_check(self) -> None:
        """Judge the moves played since the board last checked, in a worker thread; one
        check at a time (the next starts when it ends)."""
        board, last = self.board, self.checked_board
        if not self.checking or self.check_busy or self.table is not None or (last is not None and same_game(last, board)):
            return
        self.check_busy = True
        self.check(board, common_turns(last, board), self.proofs)

    @work(thread=True, group="check")
    def check(self, board: Board, since: int, proofs: Proofs) -> None:
        try:
            found = proofs.check(board, self.budget, since)
        except BadInput:
            found = proofs  # a position the solver refuses proves nothing
        self.call_from_thread(self.checked, board, found)

    def checked(self, board: Board, found: Proofs) -> None:
        thrown = self.proofs.thrown_at(self.board)
        self.proofs = self.proofs.merged(found)
        self.check_busy = False
        self.checked_board = board
        self.home.query_one(BoardView).changed()
        said = self.thrown_words(self.view()) if self.checking and thrown is None else None
        if said:
            self.say(said)
        self.start_check()  # the board may have moved meanwhile

    # -- solving in worker threads ----------------------------------------------------------

    def action_hint(self) -> None:
        if self.table is not None:
            self.fair_hint(self.table)
            return
        board = self.board
        self.report(f"solving ({self.hint_time:g} s at most)...", hint_title(board))
        self.aside(board, partial(board.hint, self.budget, self.objective), "no hint", self.hinted)

    @work(thread=True, exclusive=True, group="solve")
    def aside(self, board: Board, solving: Callable[[], Any], failed: str, then: Callable[[Board, Any], None]) -> None:
        """Run ``solving`` in a worker thread (the board stays responsive) and give its
        answer, or what made the input unusable, to ``then`` on the board's thread."""
        try:
            found = solving()
        except BadInput as exc:
            found = f"{failed}: {exc}"
        self.call_from_thread(then, board, found)

    def hinted(self, board: Board, found: Hint | str) -> None:
        if not same_game(board, self.board):
            self.say(f"the hint for turn {board.turn + 1} came after the board changed; {self.keyed('hint')} asks again")
            return
        if isinstance(found, str):
            self.report(found, hint_title(board))
            return
        self.last_hint = found
        self.proofs = self.proofs.proven(board.line, found.verdict)
        said = found.words()
        offered = None if found.best is None else offering(self.listed, found.best)
        if offered is not None:  # the list offers the hint's move, whatever it pays, highlighted
            self.list_moves(*offered)
            said.append("the move list highlights it (Tab, then Enter)")
        self.report(Text("\n".join(said)), hint_title(board))

    def action_best_moves(self) -> None:
        if self.off_at_table("moves"):
            return
        board = self.board
        self.report(f"ranking every move ({self.hint_time:g} s in all)...", moves_title(board))
        ranking = partial(rank_moves, board.replayed, self.budget, self.objective or board.objective)
        self.aside(board, ranking, "no ranking", self.ranked)

    def ranked(self, board: Board, found: Ranking | str) -> None:
        if not same_game(board, self.board):
            self.say(f"the moves for turn {board.turn + 1} came after the board changed; {self.keyed('moves')} asks again")
            return
        self.report(found if isinstance(found, str) else Text("\n".join(best_moves_words(found))), moves_title(board))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.screen, AnalysisScreen):  # the board's keys do nothing while the analysis covers it
            return action in ("quit", "pop_screen")
        if action == "key":
            command, web = parameters
            return web == self.web and not (self.table is not None and command in OFF_AT_TABLE)
        if action == "off":
            return self.table is not None
        return True

    def action_analyze(self, fair: bool = False) -> None:
        """The post-game analysis: the perfect one (every card face up), or with ``fair``
        the fair one (each examined turn judged by what its mover could see)."""
        board = self.board
        if not board.over:
            self.say("the post-game analysis is for a game that is over (won or lost); hint judges the game so far")
            return
        kept = self.fair if fair else self.analysis
        if kept is not None and kept.line == board.line:
            self.push_screen(AnalysisScreen(analysis_drawing(kept)))
            return
        what = "fairly: the perfect analysis first, then each turn in its mover's worlds" if fair else "the"
        self.push_screen(
            AnalysisScreen(f"analysing {what} {board.turn} turn(s) played ({self.hint_time:g} s a position at most)...")
        )
        self.analyse(board, fair)

    @work(thread=True, exclusive=True, group="analysis")
    def analyse(self, board: Board, fair: bool) -> None:
        def progress(step: Step) -> None:
            self.call_from_thread(self.analysed, board, f"analysing: {step}")

        perfect = self.analysis
        try:
            if perfect is None or perfect.line != board.line:
                perfect = analyze(board.replayed, self.budget, progress)
            found: Analysis | FairAnalysis | str = fair_analysis(perfect, progress=progress) if fair else perfect
        except BadInput as exc:
            found = f"no analysis: {exc}"
        self.call_from_thread(self.analysed, board, found)

    def analysed(self, board: Board, found: Analysis | FairAnalysis | str) -> None:
        if board.origin != self.board.origin:
            return  # of the game played before the one loaded since
        if isinstance(found, FairAnalysis):
            self.analysis, self.fair = found.perfect, found
        elif isinstance(found, Analysis):
            self.analysis = found
        if isinstance(self.screen, AnalysisScreen):  # else Escape was pressed: ctrl+r shows it
            self.screen.show(found if isinstance(found, str) else analysis_drawing(found))


def run_play(
    source: DealSource,
    file: str | None,
    puzzle_id: str | None,
    hint_time: float,
    objective: str | None,
    check: bool = True,
    seating: Seating | None = None,
    bot_delay: float = BOT_DELAY,
) -> None:
    """``tranquility play``: open the board (bad input is exit 2 before the screen opens)."""
    board = seated_board(source, file, puzzle_id, seating)
    # Under a driver named in TEXTUAL_DRIVER (the web driver, for play --web) the board draws
    # through that driver, not on a terminal.
    if "TEXTUAL_DRIVER" not in os.environ and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("tranquility play draws an interactive board: it needs a terminal (stdin and stdout)")
    PlayApp(board, hint_time, None if objective is None else Objective(objective), check, seating, bot_delay).run()
