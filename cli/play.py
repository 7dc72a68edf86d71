"""``tranquility play``: an interactive board in the terminal (Textual), docs/play.md.

It draws a ``solver.board.Board`` and hands it what was typed or picked; every rule, the
undo stack, the hints' verdicts, the check's proofs and the puzzle comparison are the
library's. Solves (hints, the check after each move, the post-game analysis) run in worker
threads so that the board stays responsive. Every drawing is made for the size it is shown
at, again after each resize.
"""

from __future__ import annotations

import io
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option
from textual.worker import get_current_worker
from tranquility.solver.analysis.analyze import Analysis, analyze
from tranquility.solver.analysis.board import Board, FileExists, Goal, Hint, Move, MoveRefused, Proofs, offering
from tranquility.solver.analysis.fair import FairAnalysis, fair_analysis
from tranquility.solver.analysis.ranking import Ranking, rank_moves
from tranquility.solver.analysis.results import Step
from tranquility.solver.analysis.table import FairHint, Seating, Table, seen_token
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Line, as_line
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.reading import read_game_file
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective, Verdict

from .exits import InputError
from .options import INPUT_ERRORS, STDIN, DealSource, GameFile, input_error, playable, read_game, usage_error
from .render.analysis import render_analysis, render_fair
from .render.board import cards_text, last_cell, render_position, render_seat_view, rules_line, short_cards

COMMANDS = (
    "undo, redo, back, hint, moves (the best three), check, save PATH (save! PATH overwrites), "
    "load PATH, analyze (analyze fair: the fair analysis), help, quit"
)
HOW_TO_MOVE = (
    "Type a move in the notation (41@20-3,77, x12,F, S/2,5, F; several at once, in turn) and Enter, or pick one "
    "from the list (Tab, then arrows and Enter: it fills the input line; Enter plays it)."
)
# The board's keys: the command each runs (as typed), the key bar's word, the help's words,
# its key in a terminal and in a web page (play --web; None: typed only there). A browser
# keeps ctrl+r (reload: the game starts again), ctrl+t, ctrl+n, ctrl+s and ctrl+o for itself,
# and F1, F3, F5-F7 and F10-F12 too: the web board takes F2, F4, F8 and F9, which none takes.
KEYS = (
    ("undo", "Undo", "undo", "ctrl+z", "ctrl+z"),
    ("redo", "Redo", "redo", "ctrl+y", "ctrl+y"),
    ("back", "Back", "back (to the last position proven winnable)", "ctrl+g", "f8"),
    ("hint", "Hint", "hint", "ctrl+t", "f2"),
    ("moves", "Moves", "best moves", "ctrl+b", "f4"),
    ("check", "Check", "check on/off", "ctrl+n", None),
    ("save", "Save", "save", "ctrl+s", None),
    ("load", "Load", "load", "ctrl+o", None),
    ("analyze", "Analysis", "analysis", "ctrl+r", "f9"),
)
BEST_MOVES = 3  # the moves the board's ranking shows; `tranquility moves` lists them all
GREETING = "Type a move (41@20) or pick one from the list (Tab); help lists the commands."
WEB_GREETING = (
    "Type a move (41@20) and Enter, or Tab to the list of moves; help lists the commands. "
    "Keys here: F2 hint, F4 best moves, F8 back, F9 analysis (ctrl+r would reload the page: a new game)."
)
# Below this many rows the title bar is left out: at 80x24 the board needs the row.
TITLE_ROWS = 30
# The moves a message names when a line of moves is played; more are counted.
SAID_MOVES = 6
T = TypeVar("T")
BOT_DELAY = 0.8  # seconds between the bots' moves at a table (play --seat): a pace to follow
HELP_TABLE = (
    "\n\nAt a table with bots (play --seat): you see your own hand only and move on your turn; "
    "the bots move on theirs. In the Start event, type the cards you give (12,44, or give 12,44; give alone gives none) "
    "and, after a Start you played under manual Jagged Rocks, the row the rocks move to (3, or rocks 3). "
    "hint is the fair hint: your moves' win chances in worlds dealt to fit what your seat has seen. "
    "undo, redo, back, moves and check are off until the game ends; then every card is face up and the board is the usual one."
)
# Why a command is off while the cards are face down: each would use the hidden cards.
OFF_AT_TABLE = {
    "undo": "undo, redo and back are off at a table with bots: you would see the bots' answers and try again "
    "(they come back with every card face up when the game ends)",
    "moves": "the best moves are solved with every card face up: off until the game ends "
    "(hint ranks your moves from what your seat has seen)",
    "check": "the check solves each position with every card face up: off until the game ends",
}
# The commands off at a table: their keys leave the key bar there.
OFF_COMMANDS = ("undo", "redo", "back", "moves", "check")


def drawn(draw: Callable[[Console], None], width: int) -> Text:
    """What ``draw`` prints on a console of ``width`` columns, styles kept, as one Text."""
    console = Console(width=width, file=io.StringIO(), record=True, highlight=False, markup=False, force_terminal=True)
    draw(console)
    return Text.from_ansi(console.export_text(styles=True).rstrip("\n"))


# -- opening a game ------------------------------------------------------------------------


def open_board(source: DealSource, file: str | None, puzzle_id: str | None) -> Board:
    """The board ``play`` starts on: a seeded deal, a game FILE or a catalogue puzzle.
    Bad input is an InputError (exit 2) naming the file."""
    if puzzle_id is not None:
        if file is not None or source.seeded or source.has_rules:
            raise usage_error("--puzzle ID opens a catalogue puzzle: give no FILE, --seed, --players or rules")
        return _catalogue_board(puzzle_id)
    if file is None:
        return Board.open(playable(*source.resolve(None)))
    if source.seeded or source.has_rules:
        source.resolve(file)  # the usage error for FILE with the seed or rules options
    return load_board(file)


def load_board(path: str) -> Board:
    """A deal, line, notation or puzzle file as a board (at the end of its line)."""
    if path == STDIN:
        raise InputError("play reads its moves from the keyboard, so its game cannot come from - (standard input): give a file")
    read = read_game(path)
    game, header = read.game, read.puzzle()
    try:
        playable(game, path)
        start = as_line(game).start
        goal = None
        if header is not None and isinstance(start, Deal):  # a puzzle, or a game saved from one
            goal = Goal.of(header.id, header.grade, _solution_of(read, header.id, start), start)
        return Board.open(game, goal, source=path)
    except INPUT_ERRORS as exc:
        raise input_error(path, exc) from None


def _solution_of(read: GameFile, puzzle_id: str, game: Deal) -> Line | None:
    """A puzzle's solution: ``<id>.solution.json`` beside the file, or beside the deal file
    its notation names (``generate --with-solutions`` writes it beside the puzzle), else the
    catalogue's when it ships that puzzle."""
    from tranquility.puzzles import shipped

    for folder in dict.fromkeys(Path(p).parent for p in (read.name, read.deal_file())):
        beside = folder / f"{puzzle_id}.solution.json"
        if beside.exists():
            found = read_game_file(beside)
            return found if isinstance(found, Line) else None
    try:
        ships = shipped.puzzle(puzzle_id) == game
    except shipped.UnknownPuzzle:
        return None
    return shipped.solution(puzzle_id) if ships else None


def _catalogue_board(puzzle_id: str) -> Board:
    from tranquility.puzzles import shipped

    try:
        found = shipped.entry(puzzle_id)
        game = shipped.puzzle(puzzle_id)
        return Board.open(game, Goal.of(found.id, found.grade, shipped.solution(puzzle_id), game))
    except BadInput as exc:
        raise InputError(str(exc)) from None


# -- the app -------------------------------------------------------------------------------


class Drawing:
    """A Rich renderable that ``draw`` prints at whatever width it is given: a widget showing
    it draws it again, to fit, after every resize."""

    def __init__(self, draw: Callable[[Console], None]) -> None:
        self.draw = draw

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield drawn(self.draw, options.max_width)


class BoardView(Widget):
    """The board's drawing, made for the width the view has and the height of its pane (again
    after every resize): every card of every pile when that fits, else the compact layout
    (each pile on one line, shortened), which fits 80x24 with five seats."""

    DEFAULT_CSS = "BoardView { height: auto; text-wrap: nowrap; }"

    def __init__(self, draw: Callable[[Console, bool], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.draw = draw
        self.version = 0  # bumped by changed(): the drawings kept are of an older board
        self.room = 0  # the pane's height, as the layout last gave it
        self._kept: tuple[tuple[int, int, int], Text] | None = None

    def changed(self) -> None:
        self.version += 1
        self.refresh(layout=True)

    def drawing(self, width: int, room: int) -> Text:
        """The drawing for ``width`` columns, compact when the whole one is over ``room`` lines."""
        key = (self.version, width, room)
        if width < 1:  # not laid out yet
            return Text()
        if self._kept is None or self._kept[0] != key:
            whole = drawn(lambda console: self.draw(console, False), width)
            if len(whole.plain.splitlines()) > room:
                whole = drawn(lambda console: self.draw(console, True), width)
            self._kept = (key, whole)
        return self._kept[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self.room = container.height
        return len(self.drawing(width, self.room).plain.splitlines())

    def render(self) -> Text:
        return self.drawing(self.content_size.width, self.room or self.container_size.height)


class MoveList(OptionList):
    """The legal moves. A move is always highlighted, and the title under the list says
    whether the list has the focus, so that the focus shows without colours too."""

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0
        self.border_subtitle = "arrows, Enter picks; Tab: back"

    def on_blur(self) -> None:
        self.border_subtitle = "Tab: pick from here"


class MoveRow:
    """A move of the list, drawn for the width it is given: its cost, its token (padded to
    the list's widest) and its words when they fit whole, else without them (picking the
    move says them): never cut short."""

    def __init__(self, move: Move, wide: int) -> None:
        self.move, self.wide = move, wide

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        head = f"cost {self.move.cost}  {self.move.token:<{self.wide}}"
        whole = f"{head}  {self.move.words}"
        yield Text(whole if cell_len(whole) <= options.max_width else head.rstrip())


class AnalysisScreen(Screen[None]):
    """The post-game analysis on a screen of its own, its verdict first; Escape goes back."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back to the board")]  # noqa: RUF012  # Textual reads bindings from the class

    def __init__(self, shown: Drawing | str) -> None:
        super().__init__()
        self.shown = shown

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(self.shown, id="analysis")
        yield Footer()

    def show(self, shown: Drawing | str) -> None:
        self.shown = shown
        for static in self.query("#analysis").results(Static):  # none until composed
            static.update(shown)


class PlayApp(App):
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
        *(Binding(key, f"key('{name}', False)", shown, priority=True) for name, shown, _, key, _ in KEYS),
        *(Binding(key, f"key('{name}', True)", shown, priority=True) for name, shown, _, _, key in KEYS if key),
        *(
            Binding(key, f"off('{name}')", show=False, priority=True)
            for name, _, _, *keys in KEYS
            if name in OFF_COMMANDS
            for key in dict.fromkeys(keys)
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
        key = next(keys[4 if self.web else 3] for keys in KEYS if keys[0] == command)
        return key or command

    def help_words(self) -> str:
        keys = [f"{key} {words}" for _, _, words, *both in KEYS if (key := both[1 if self.web else 0])]
        return (
            f"{HOW_TO_MOVE}\n\nCommands: {COMMANDS}.\n\nKeys: {', '.join(keys)}, Tab the move list, ctrl+q quit."
            + (HELP_TABLE if self.seating else "")
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
        head = _turn_words(board) if table is None else _table_words(table)
        if compact:
            head.append(f" ({rules_name(state.rules)})", style="dim")
        else:
            console.print(f"Rules: {rules_line(state.rules)}", style="dim")
        console.print(head)
        thrown = self.thrown_words()
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
                console.print(Text(f"{title}: ") + _face_down_words(len(cards), table.memory.own_discards))
            elif cards or title == "Discarded":
                shown = short_cards(cards, console.width - len(title) - 2) if compact else cards_text(cards)
                console.print(Text(f"{title}: ") + (shown if cards else Text("none", style="dim")))
        # A puzzle's solution and bound are worked out from every card: shown at the end.
        goal = board.goal_words() if table is None else board.goal_words()[:1]
        if goal:
            console.print(Text("\n".join(goal), style="bold cyan"))

    def thrown_words(self) -> str | None:
        """What the check proved about a move of this game that threw the win away, if any."""
        board = self.board
        turn = self.proofs.thrown_at(board) if self.checking and self.table is None else None
        if turn is None:
            return None
        back = self.proofs.last_winnable(board)
        assert back is not None  # the position before the throw is a proven win
        token = format_action(board.actions[turn - 1])
        return (
            f"Turn {turn} ({token}) threw the win away: a proven win before it, a proven loss after it. "
            f"{self.keyed('back')}: back to turn {back + 1}."
        )

    def redraw(self) -> None:
        board, table = self.board, self.table
        self.home.query_one(BoardView).changed()
        self.list_moves(board.moves if table is None else table.moves, 0)
        moves = self.home.query_one(MoveList)
        moves.border_title = f"Legal moves ({len(self.listed)})"
        if table is not None and not self.listed:
            moves.border_title = "Your moves: " + ("the Start event" if table.my_turn else "the bots' turn")
        played = list(board.history() if table is None else table.history())
        wide = max((len(token) for _, token, _ in played), default=0)
        lines = [f"{turn:>3}. {token:<{wide}}  {words}" for turn, token, words in played]
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
        rest = rest.strip()
        actions: dict[str, Callable[[], None]] = {
            "undo": self.action_undo,
            "redo": self.action_redo,
            "back": self.action_back_to_win,
            "hint": self.action_hint,
            "moves": self.action_best_moves,
            "check": self.action_toggle_check,
            "analyze": partial(self.action_analyze, rest == "fair"),
            "help": partial(self.report, self.help_words(), "Help"),
            "quit": self.exit,
            "save": partial(self.save, rest, False),
            "save!": partial(self.save, rest, True),
            "load": partial(self.load, rest),
            "give": partial(self.at_table, "give", rest),
            "rocks": partial(self.at_table, "rocks", rest),
        }
        if word in actions:
            actions[word]()
            return
        if self.table is not None:
            # While the Start event asks, the cards given (or the rocks' row) may come alone.
            start = self.table.start
            self.at_table("play" if start is None else "give" if start.call is not None else "rocks", text)
            return
        board = self.tried(partial(self.board.play, text), text)
        if board is not None:
            self.moved(board, _played_words([format_action(a) for a in board.actions[self.board.turn :]]))

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

    # -- at a table with bots ------------------------------------------------------------------

    def at_table(self, command: str, text: str) -> None:
        """The person's move, its share of the Start event (give) or its rocks move (rocks)."""
        table = self.table
        if table is None:
            self.say(f"{command} is for a table with bots (play --seat K), while the game goes on")
            return
        after = self.tried(partial({"play": table.play, "give": table.give, "rocks": table.rocks}[command], text), text)
        if after is not None:
            done = [seen_token(a, table.seat) for a in after.board.actions[table.board.turn :]]
            self.seated(after, _played_words(done) if done else "")

    def seated(self, table: Table, said: str) -> None:
        """The table moved on (the person's move, a bot's, the Start event asking): show it,
        reveal every card once the game is over, and let the bots play on."""
        self.table = None if table.board.over else table
        if table.start is not None:
            said = f"{said} The Start event asks you: {table.start.words()[-1]}".strip()
        self.moved(table.board, said)
        if table.start is not None:
            self.report("\n".join(table.start.words()), "The Start event")
        self.advance()

    def advance(self) -> None:
        """Let the bot to move act, in a worker thread (one at a time; the next starts when
        its move is shown)."""
        table = self.table
        if table is None or not table.bots_turn or self.bots_busy:
            return
        self.bots_busy = True
        self.bot(table)

    @work(thread=True, exclusive=True, group="bots")
    def bot(self, table: Table) -> None:
        began = time.monotonic()  # the pace only: what the bot plays depends on no clock
        after = table.bot_move()
        time.sleep(max(0.0, self.bot_delay - (time.monotonic() - began)))
        self.call_from_thread(self.bot_moved, table, after)

    def bot_moved(self, table: Table, after: Table) -> None:
        self.bots_busy = False
        if self.table is not table:  # another game was loaded meanwhile: its bots, if they are to move
            self.advance()
            return
        done = [seen_token(a, table.seat) for a in after.board.actions[table.board.turn :]]
        said = f"seat {table.board.state.seat} played {' '.join(done)}." if done else ""
        self.seated(after, f"{said} Your move." if after.moves else said)

    def fair_hint(self, table: Table) -> None:
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

    def fair_hinted(self, title: str, board: Board, found: FairHint | str | None) -> None:
        if found is None:
            return
        if not _same_game(board, self.board):
            self.say(f"the hint for turn {board.turn + 1} came after the board changed; {self.keyed('hint')} asks again")
            return
        self.report(found if isinstance(found, str) else "\n".join(found.words()), title)

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
        if not self.checking or self.check_busy or self.table is not None or (last is not None and _same_game(last, board)):
            return
        self.check_busy = True
        self.check(board, _common_turns(last, board), self.proofs)

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
        if self.checking and thrown is None and self.thrown_words():
            self.say(self.thrown_words() or "")
        self.start_check()  # the board may have moved meanwhile

    # -- solving in worker threads ----------------------------------------------------------

    def action_hint(self) -> None:
        if self.table is not None:
            self.fair_hint(self.table)
            return
        board = self.board
        self.report(f"solving ({self.hint_time:g} s at most)...", _hint_title(board))
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
        if not _same_game(board, self.board):
            self.say(f"the hint for turn {board.turn + 1} came after the board changed; {self.keyed('hint')} asks again")
            return
        if isinstance(found, str):
            self.report(found, _hint_title(board))
            return
        self.last_hint = found
        self.proofs = self.proofs.proven(board.line, found.verdict)
        said = found.words()
        offered = None if found.best is None else offering(self.listed, found.best)
        if offered is not None:  # the list offers the hint's move, whatever it pays, highlighted
            self.list_moves(*offered)
            said.append("the move list highlights it (Tab, then Enter)")
        self.report(Text("\n".join(said)), _hint_title(board))

    def action_best_moves(self) -> None:
        if self.off_at_table("moves"):
            return
        board = self.board
        self.report(f"ranking every move ({self.hint_time:g} s in all)...", _moves_title(board))
        ranking = partial(rank_moves, board.line, self.budget, self.objective or board.objective)
        self.aside(board, ranking, "no ranking", self.ranked)

    def ranked(self, board: Board, found: Ranking | str) -> None:
        if not _same_game(board, self.board):
            self.say(f"the moves for turn {board.turn + 1} came after the board changed; {self.keyed('moves')} asks again")
            return
        self.report(found if isinstance(found, str) else Text("\n".join(_best_moves_words(found))), _moves_title(board))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.screen, AnalysisScreen):  # the board's keys do nothing while the analysis covers it
            return action in ("quit", "pop_screen")
        if action == "key":
            command, web = parameters
            return web == self.web and not (self.table is not None and command in OFF_COMMANDS)
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
            self.push_screen(AnalysisScreen(_analysis_drawing(kept)))
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
                perfect = analyze(board.line, self.budget, progress)
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
            self.screen.show(found if isinstance(found, str) else _analysis_drawing(found))


def _turn_words(board: Board) -> Text:
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


def _played_words(tokens: list[str]) -> str:
    """The moves just played, for the message line (which stays a line or two)."""
    if len(tokens) > SAID_MOVES:
        tokens = [f"{len(tokens)} moves:", *tokens[:2], "...", tokens[-1]]
    return f"played {' '.join(tokens)}."


def _table_words(table: Table) -> Text:
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


def _face_down_words(count: int, own: tuple) -> Text:
    """The discard pile at a table: how many cards lie face down, and the faces of the
    person's own among them (it put them there)."""
    text = Text(f"{count} card(s) face down", style="dim")
    return text + Text("; yours among them: ") + cards_text(own) if own else text


def _hint_title(board: Board) -> str:
    """Numbered as the board's head is: the turn to play."""
    return "Hint: the game is over" if board.over else f"Hint: turn {board.turn + 1}, seat {board.state.seat} to move"


def _moves_title(board: Board) -> str:
    return "Moves: the game is over" if board.over else f"Moves: turn {board.turn + 1}, seat {board.state.seat} to move"


def _best_moves_words(ranking: Ranking) -> list[str]:
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


def _analysis_drawing(analysis: Analysis | FairAnalysis) -> Drawing:
    if isinstance(analysis, FairAnalysis):
        return Drawing(partial(render_fair, fair=analysis))
    return Drawing(partial(render_analysis, analysis=analysis, verdict_first=True))


def _same_game(one: Board, other: Board) -> bool:
    return one.origin == other.origin and one.actions == other.actions


def _common_turns(last: Board | None, board: Board) -> int:
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


def seated_board(source: DealSource, file: str | None, puzzle_id: str | None, seating: Seating | None) -> Board:
    """The board ``play`` opens, checked against the seating: a seat the game does not
    have is a usage error (exit 2)."""
    board = open_board(source, file, puzzle_id)
    if seating is not None:
        try:
            seating.sit(board)
        except BadInput as exc:
            raise usage_error(f"--{exc}") from None  # "seat K: ...", given as --seat K
    return board


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
