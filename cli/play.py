"""``tranquility play``: an interactive board in the terminal (Textual), docs/play.md.

It draws a ``solver.board.Board`` and hands it what was typed or picked; every rule, the
undo stack, the hints' verdicts and the puzzle comparison are the library's. Solves (hints,
the post-game analysis) run in worker threads so that the board stays responsive.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Header, Input, OptionList, Static
from textual.widgets.option_list import Option
from tranquility.solver.analysis.analyze import Analysis, analyze
from tranquility.solver.analysis.board import Board, FileExists, Goal, Hint
from tranquility.solver.analysis.results import Step
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Line
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import format_action
from tranquility.solver.formats.reading import read_game_file
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective

from .exits import InputError
from .options import INPUT_ERRORS, STDIN, DealSource, input_error, playable, read_game, usage_error
from .render import cards_text, render_analysis, render_position, rules_line

COMMANDS = "undo, redo, hint, save PATH (save! PATH overwrites), load PATH, analyze, help, quit"
HELP = (
    "Type a move in the notation (41@20-3,77, x12,F, S/2,5, F; several at once, in turn) or pick one "
    f"from the list (it fills this line; Enter plays it). Commands: {COMMANDS}. Keys: ctrl+z undo, "
    "ctrl+y redo, ctrl+t hint, ctrl+s save, ctrl+o load, ctrl+r analysis, ctrl+q quit."
)
# The drawing's width before the pane has been laid out.
DRAW_WIDTH = 80


def drawn(draw: Callable[[Console], None], width: int = DRAW_WIDTH) -> Text:
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
        goal = None
        if header is not None and isinstance(game, Deal):
            goal = Goal.of(header.id, header.grade, _solution_of(path, header.id, game), game)
        return Board.open(game, goal, source=path)
    except INPUT_ERRORS as exc:
        raise input_error(path, exc) from None


def _solution_of(path: str, puzzle_id: str, game: Deal) -> Line | None:
    """A puzzle's solution: ``<id>.solution.json`` beside its file (as ``generate
    --with-solutions`` writes it), else the catalogue's when it ships that puzzle."""
    from tranquility.puzzles import shipped

    beside = Path(path).with_name(f"{puzzle_id}.solution.json")
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


class PlayApp(App):
    """The board: the position, the legal moves, the history, and a line to type into."""

    TITLE = "tranquility play"
    CSS = """
    #top { height: 1fr; }
    #table { width: 3fr; }
    #side { width: 2fr; }
    #position { height: auto; }
    #moves { height: 2fr; }
    #history-box { height: 1fr; border-top: solid $primary; }
    #report-box { height: auto; max-height: 14; border-top: solid $primary; }
    #message { height: auto; color: $warning; }
    """
    BINDINGS = [  # noqa: RUF012  # Textual reads bindings from the class
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("ctrl+y", "redo", "Redo", priority=True),
        Binding("ctrl+t", "hint", "Hint", priority=True),
        Binding("ctrl+s", "prompt('save ')", "Save", priority=True),
        Binding("ctrl+o", "prompt('load ')", "Load", priority=True),
        Binding("ctrl+r", "analyze", "Analysis", priority=True),
    ]

    def __init__(self, board: Board, hint_time: float = 2.0, objective: Objective = Objective.ANY) -> None:
        super().__init__()
        self.board = board
        self.budget = Budget(seconds=hint_time)
        self.hint_time = hint_time
        self.objective = objective
        self.analysis: Analysis | None = None  # the last post-game analysis, once shown
        self.last_hint: Hint | None = None
        self.said = ""  # the last message, as shown under the board
        self.reported = ""  # the hint or analysis shown last, as plain text

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with VerticalScroll(id="table"):
                yield Static(id="position")
                yield Static(id="goal")
            with Vertical(id="side"):
                yield OptionList(id="moves")
                with VerticalScroll(id="history-box"):
                    yield Static(id="history")
        with VerticalScroll(id="report-box"):
            yield Static(id="report")
        yield Static(id="message")
        yield Input(placeholder="a move (41@20-3,77) or a command (hint, undo, save game.json, help)", id="command")
        yield Footer()

    def on_mount(self) -> None:
        goal = self.board.goal
        self.sub_title = self.board.source or (f"puzzle {goal.id}" if goal is not None else "")
        self.redraw()
        self.say(HELP)
        self.query_one("#command", Input).focus()

    # -- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        board, state = self.board, self.board.state
        head = Text(f"Turn {board.turn + 1}: seat {state.seat} to move", style="bold")
        if state.won:
            head = Text(f"Won after {board.turn} turn(s).", style="bold green")
        elif board.over:
            head = Text(f"Lost after {board.turn} turn(s): seat {state.seat} has no legal action.", style="bold red")
        elif state.must_play_start():
            head.append(" (it holds the Start card and must play it)")

        def position(console: Console) -> None:
            console.print(f"Rules: {rules_line(state.rules)}", style="dim", soft_wrap=True)
            console.print(head)
            render_position(console, state, piles=True)
            console.print(Text("Discarded: ") + cards_text(state.discarded, empty="none"), soft_wrap=True)
            if state.gone:
                console.print(Text("Out of the game: ") + cards_text(state.gone), soft_wrap=True)

        width = self.query_one("#table", VerticalScroll).content_size.width
        self.query_one("#position", Static).update(drawn(position, width or DRAW_WIDTH))
        goal = board.goal_words()
        self.query_one("#goal", Static).update(Text("\n".join(goal), style="bold cyan") if goal else "")
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(
            Option(f"{m.token:<14} cost {m.cost}  {m.choice}", id=str(i)) for i, m in enumerate(board.moves)
        )
        moves.border_title = f"Legal moves ({len(board.moves)}): cost = cards paid"
        lines = [f"{turn:>3}. {token:<14} {words}" for turn, token, words in board.history()]
        lines += [f"  (undone: {len(board.undone)}; ctrl+y or redo plays them again)"] if board.undone else []
        self.query_one("#history", Static).update(Text("\n".join(lines) or "(no turn played yet)"))
        self.query_one("#history-box", VerticalScroll).border_title = "History"
        self.query_one("#history-box", VerticalScroll).scroll_end(animate=False)

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)  # the drawing is as wide as its pane, once laid out

    def say(self, message: str) -> None:
        self.said = message
        self.query_one("#message", Static).update(Text(message))

    def report(self, text: Text | str, title: str) -> None:
        self.reported = text.plain if isinstance(text, Text) else text
        self.query_one("#report", Static).update(text)
        self.query_one("#report-box", VerticalScroll).border_title = title

    def moved(self, board: Board, said: str) -> None:
        self.board = board
        self.redraw()
        if board.over:
            outcome = "won" if board.state.won else "lost"
            said += f" Game over: {outcome}. Type analyze (or press ctrl+r) for the post-game analysis."
        self.say(said)

    # -- input ----------------------------------------------------------------------------

    @on(Input.Submitted, "#command")
    def submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text:
            self.command(text)

    def command(self, text: str) -> None:
        """Run one line typed at the board: a command word, or moves in the notation."""
        word, _, rest = text.partition(" ")
        rest = rest.strip()
        actions: dict[str, Callable[[], None]] = {
            "undo": self.action_undo,
            "redo": self.action_redo,
            "hint": self.action_hint,
            "analyze": self.action_analyze,
            "help": partial(self.say, HELP),
            "quit": self.exit,
            "save": partial(self.save, rest, False),
            "save!": partial(self.save, rest, True),
            "load": partial(self.load, rest),
        }
        if word in actions:
            actions[word]()
            return
        try:
            board = self.board.play(text)
        except BadInput as exc:
            self.say(f"refused: {exc}")
            return
        played = " ".join(format_action(a) for a in board.actions[self.board.turn :])
        self.moved(board, f"played {played}.")

    @on(OptionList.OptionSelected, "#moves")
    def picked(self, event: OptionList.OptionSelected) -> None:
        move = self.board.moves[int(event.option.id or 0)]
        field = self.query_one("#command", Input)
        field.value = move.token
        field.cursor_position = len(move.token)
        field.focus()
        self.say(f"{move.choice}, cost {move.cost}: Enter plays {move.token} (edit the payment after '-' first if you like).")

    def action_prompt(self, text: str) -> None:
        field = self.query_one("#command", Input)
        field.value = text
        field.cursor_position = len(text)
        field.focus()

    def action_undo(self) -> None:
        self.step(self.board.undo, "undone")

    def action_redo(self) -> None:
        self.step(self.board.redo, "redone")

    def step(self, change: Callable[[], Board], what: str) -> None:
        try:
            board = change()
        except BadInput as exc:
            self.say(str(exc))
            return
        self.moved(board, f"{what}: now at turn {board.turn + 1}.")

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
        self.sub_title = path
        self.analysis = None
        self.moved(board, f"loaded {path}: {board.turn} action(s).")

    # -- solving in worker threads ----------------------------------------------------------

    def action_hint(self) -> None:
        self.report(f"solving the position after turn {self.board.turn} ({self.hint_time:g} s at most)...", "Hint")
        self.hint(self.board)

    @work(thread=True, exclusive=True, group="solve")
    def hint(self, board: Board) -> None:
        try:
            found: Hint | str = board.hint(self.budget, self.objective)
        except BadInput as exc:
            found = f"no hint: {exc}"
        self.call_from_thread(self.hinted, board, found)

    def hinted(self, board: Board, found: Hint | str) -> None:
        if isinstance(found, str):
            self.report(found, "Hint")
            return
        self.last_hint = found
        words = found.words()
        if board.actions != self.board.actions:
            words.insert(0, f"(for the position after turn {board.turn}; the board has moved since)")
        self.report(Text("\n".join(words)), f"Hint after turn {board.turn}")

    def action_analyze(self) -> None:
        if not self.board.over:
            self.say("the post-game analysis is for a game that is over (won or lost); hint judges the game so far")
            return
        self.report(f"analysing the {self.board.turn} turn(s) played ({self.hint_time:g} s a position at most)...", "Analysis")
        self.analyse(self.board)

    @work(thread=True, exclusive=True, group="solve")
    def analyse(self, board: Board) -> None:
        def progress(step: Step) -> None:
            self.call_from_thread(self.report, f"analysing: {step}", "Analysis")

        try:
            found: Analysis | str = analyze(board.line, self.budget, progress)
        except BadInput as exc:
            found = f"no analysis: {exc}"
        self.call_from_thread(self.analysed, found)

    def analysed(self, found: Analysis | str) -> None:
        if isinstance(found, str):
            self.report(found, "Analysis")
            return
        self.analysis = found
        self.report(drawn(partial(render_analysis, analysis=found)), "Post-game analysis")


def run_play(source: DealSource, file: str | None, puzzle_id: str | None, hint_time: float, objective: str) -> None:
    """``tranquility play``: open the board (bad input is exit 2 before the screen opens)."""
    board = open_board(source, file, puzzle_id)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError("tranquility play draws an interactive board: it needs a terminal (stdin and stdout)")
    PlayApp(board, hint_time, Objective(objective)).run()

