"""The commands, one module per group of them, loaded when a command runs.

``COMMANDS`` names each command's module and its one-line summary, so that ``tranquility
--help`` lists every command without importing any, and a command imports only its own
module (pip's ``commands/``, hatch's lazy group). A new command is a module here and an
entry below; a test checks each summary against its command's own help.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import click

from ..exits import Group


@dataclass(frozen=True)
class CommandEntry:
    """Where a command lives (``module:attribute``) and the first sentence of its help."""

    path: str
    summary: str

    def load(self) -> click.Command:
        module, _, attribute = self.path.partition(":")
        return getattr(importlib.import_module(module), attribute)


def _here(module: str, attribute: str, summary: str) -> CommandEntry:
    return CommandEntry(f"{__name__}.{module}:{attribute}", summary)


COMMANDS: Mapping[str, CommandEntry] = {
    "analyze": _here(
        "solving",
        "analyze",
        "Find the action in a played game (a line FILE, won or lost) after which a winnable position became "
        "unwinnable, and a move that would have kept the win; with --fair, judge the line by what each mover "
        "could know: a mistake, or bad luck.",
    ),
    "bench": _here("bench", "bench", "Time the solver on fixed seeded deals and positions (CLI start-up excluded)."),
    "deal": _here("games", "deal", "Deal a seeded game and show it (hands, piles, rules), or write it as JSON."),
    "explain": _here(
        "solving",
        "explain",
        "Explain the best line of a deal or position: turn by turn, the grid when it matters, the moves that were "
        "the only way to keep the win; for an unwinnable one, how far the team gets and what makes the win "
        "impossible.",
    ),
    "generate": _here("puzzles", "generate", "Find deals of a chosen grade by grading seeds START, START+1, ... in turn."),
    "grade": _here("puzzles", "grade", "Grade a deal as a puzzle, 1 (easy) to 5 (expert), with every metric behind it."),
    "moves": _here(
        "solving",
        "moves",
        "Every move at a position (a deal, a line, a position) with its verdict after it: win (with the line the "
        "rules engine replayed, and the cards it keeps), no-win (with the proof) or unknown, best first.",
    ),
    "odds": _here("odds", "odds", "Solve many seeded deals and estimate how often they can be won, per player count."),
    "play": _here(
        "play",
        "play",
        "Play a game on an interactive board: every card face up, the legal moves and their costs, undo and redo, "
        "save and load, hints from the solver, the post-game analysis; with --seat, one seat at a table of bots, "
        "its own hand alone face up.",
    ),
    "puzzles": _here(
        "puzzles", "list_puzzles", "List the shipped puzzle catalogue: id, players, grade and rules of each puzzle."
    ),
    "rules": _here("games", "rules", "Show the rule set in force, each option explained, and the presets."),
    "serve": CommandEntry(
        "tranquility.cli.web_board.command:serve",
        "Serve the board in the browser (click a card, then a cell) and the JSON API that gives the CLI's --json "
        "answers, until Ctrl-C.",
    ),
    "show": _here(
        "games",
        "show",
        "Draw a deal, position, line or puzzle FILE: grid, every hand and pile (top first), whose turn, status; "
        "a puzzle's id and grade in the header.",
    ),
    "simulate": _here("simulate", "simulate", "Play a deal the way a silent table would, with one named policy at every seat."),
    "solve": _here(
        "solving",
        "solve",
        "Decide whether a deal, a position, or the position a line FILE reaches can still be won.",
    ),
    "tune": _here("tune", "tune", "Fit the tuned policy's weights for P players by CMA-ES on common random numbers."),
    "verify": _here("games", "verify", "Check a deal FILE, or replay a line FILE action by action."),
}


class LazyGroup(Group):
    """A group whose commands are ``CommandEntry`` values, each imported the first time it
    is asked for; its ``--help`` lists them from their summaries alone."""

    def __init__(self, *args: Any, entries: Mapping[str, CommandEntry], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.entries = entries

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.entries, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.entries:
            self.add_command(self.entries[cmd_name].load(), cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's own listing, each summary cut to the width as click cuts a command's help."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(map(len, names))
        rows = [(name, self._summary(name, limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def _summary(self, name: str, limit: int) -> str:
        if name not in self.entries:
            return self.commands[name].get_short_help_str(limit)
        summary = self.entries[name].summary
        if len(summary) <= limit:
            return summary
        return "..." if limit < 3 else textwrap.shorten(summary, limit, placeholder="...", break_on_hyphens=False)
