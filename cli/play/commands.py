"""The board's commands, in one table: each row is a word typed at the board and what it
runs, and for those with keys, the key bar's word, the help's words and the key in a
terminal and in a web page. The key bindings, the typed commands and the help text are all
read from it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

HOW_TO_MOVE = (
    "Type a move in the notation (41@20-3,77, x12,F, S/2,5, F; several at once, in turn) and Enter, or pick one "
    "from the list (Tab, then arrows and Enter: it fills the input line; Enter plays it)."
)
GREETING = "Type a move (41@20) or pick one from the list (Tab); help lists the commands."
WEB_GREETING = (
    "Type a move (41@20) and Enter, or Tab to the list of moves; help lists the commands. "
    "Keys here: F2 hint, F4 best moves, F8 back, F9 analysis (ctrl+r would reload the page: a new game)."
)
HELP_TABLE = (
    "\n\nAt a table with bots (play --seat): you see your own hand only and move on your turn; "
    "the bots move on theirs. In the Start event, type the cards you give (12,44, or give 12,44; give alone gives none) "
    "and, after a Start you played under manual Jagged Rocks, the row the rocks move to (3, or rocks 3). "
    "hint is the fair hint: your moves' win chances in worlds dealt to fit what your seat has seen. "
    "undo, redo, back, moves and check are off until the game ends; then every card is face up and the board is the usual one."
)
# Why a command is off while the cards are face down: each would use the hidden cards.
UNDO_OFF = (
    "undo, redo and back are off at a table with bots: you would see the bots' answers and try again "
    "(they come back with every card face up when the game ends)"
)


@dataclass(frozen=True)
class BoardCommand:
    """A command of the board: ``word`` as typed, ``run`` (the app, the rest of the line);
    ``listed``, how the help's list of commands names it (empty: not listed); a command with
    a key has its key bar word (``bar``), the help's words for the key, and its key in a
    terminal and in a web page (None: typed only there); ``off`` says why it is off at a
    table with bots (None: it is not)."""

    word: str
    run: Callable[[Any, str], None]
    listed: str = ""
    bar: str = ""
    words: str = ""
    key: str | None = None
    web_key: str | None = None
    off: str | None = None


# A browser keeps ctrl+r (reload: the game starts again), ctrl+t, ctrl+n, ctrl+s and ctrl+o
# for itself, and F1, F3, F5-F7 and F10-F12 too: the web board takes F2, F4, F8 and F9,
# which none takes.
BOARD_COMMANDS = (
    BoardCommand("undo", lambda app, rest: app.action_undo(), "undo", "Undo", "undo", "ctrl+z", "ctrl+z", UNDO_OFF),
    BoardCommand("redo", lambda app, rest: app.action_redo(), "redo", "Redo", "redo", "ctrl+y", "ctrl+y", UNDO_OFF),
    BoardCommand(
        "back",
        lambda app, rest: app.action_back_to_win(),
        "back",
        "Back",
        "back (to the last position proven winnable)",
        "ctrl+g",
        "f8",
        UNDO_OFF,
    ),
    BoardCommand("hint", lambda app, rest: app.action_hint(), "hint", "Hint", "hint", "ctrl+t", "f2"),
    BoardCommand(
        "moves",
        lambda app, rest: app.action_best_moves(),
        "moves (the best three)",
        "Moves",
        "best moves",
        "ctrl+b",
        "f4",
        "the best moves are solved with every card face up: off until the game ends "
        "(hint ranks your moves from what your seat has seen)",
    ),
    BoardCommand(
        "check",
        lambda app, rest: app.action_toggle_check(),
        "check",
        "Check",
        "check on/off",
        "ctrl+n",
        None,
        "the check solves each position with every card face up: off until the game ends",
    ),
    BoardCommand("save", lambda app, rest: app.save(rest, False), "save PATH (save! PATH overwrites)", "Save", "save", "ctrl+s"),
    BoardCommand("save!", lambda app, rest: app.save(rest, True)),
    BoardCommand("load", lambda app, rest: app.load(rest), "load PATH", "Load", "load", "ctrl+o"),
    BoardCommand(
        "analyze",
        lambda app, rest: app.action_analyze(rest == "fair"),
        "analyze (analyze fair: the fair analysis)",
        "Analysis",
        "analysis",
        "ctrl+r",
        "f9",
    ),
    BoardCommand("help", lambda app, rest: app.report(app.help_words(), "Help"), "help"),
    BoardCommand("quit", lambda app, rest: app.exit(), "quit"),
    BoardCommand("give", lambda app, rest: app.at_table("give", rest)),
    BoardCommand("rocks", lambda app, rest: app.at_table("rocks", rest)),
)
COMMANDS = {command.word: command for command in BOARD_COMMANDS}
KEYED = tuple(command for command in BOARD_COMMANDS if command.key)
# The commands off at a table: their keys leave the key bar there, and say why when pressed.
OFF_AT_TABLE = {command.word: command.off for command in BOARD_COMMANDS if command.off}


def commands_text() -> str:
    """The help's list of the commands, as typed."""
    return ", ".join(command.listed for command in BOARD_COMMANDS if command.listed)
