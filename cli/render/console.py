"""The console every renderer draws on, and fitting text to its width; JSON as the commands print it."""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

if TYPE_CHECKING:
    pass


# The width of stdout when it is not a terminal: wide enough that no line is ever wrapped.
UNWRAPPED = 10_000


def make_console(stderr: bool = False) -> Console:
    """A console for this run: as wide as the terminal (or COLUMNS); when stdout is not a
    terminal and COLUMNS is not set, lines are not wrapped at all, so piped text is one
    line per line. No markup: file names and engine messages are printed exactly as they
    are. A table wider than the terminal is stacked (``fitting``), never wider than it."""
    console = _Console(stderr=stderr, highlight=False, markup=False)
    if not stderr and not console.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        console = _Console(stderr=stderr, highlight=False, markup=False, width=UNWRAPPED)
    return console


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit 1 ("the answer is no"); the command line's one handler makes it
        # the documented quiet 130 (exits.Group).
        raise BrokenPipeError


# What a line never ends inside: a number with its unit ("0.55 s:", "1 min 09 s"), a change
# ("17 -> 20)"), or a word.
_WORD = re.compile(r"\S*\d (?:min \d+ )?(?:s|min)\b\S*|\S+ -> \S+|\S+")


def fitted(text: Text, width: int, unit: re.Pattern = _WORD) -> Text:
    """``text`` broken at spaces into lines of at most ``width`` cells, as rich would wrap
    it, except that a number keeps its unit on its line (whatever ``unit`` matches stays
    on one line; one wider than ``width`` is left to rich, which folds it)."""
    breaks, start = [], 0
    plain = text.plain
    for word in unit.finditer(plain):
        if word.start() > start and cell_len(plain[start : word.end()]) > width:
            breaks.append(word.start())
            start = word.start()
    lines = text.divide(breaks)
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def fitting(console: Console, *layouts: RenderableType) -> RenderableType:
    """The first of ``layouts`` (the widest first) whose every line fits on the console
    without wrapping a cell; else the last, the narrowest."""
    unbounded = console.options.update(max_width=UNWRAPPED)
    for layout in layouts[:-1]:
        if console.measure(layout, options=unbounded).maximum <= console.width:
            return layout
    return layouts[-1]


def dump_json(data: Any) -> str:
    """JSON as the tool prints it: the same layout ``write_json`` gives files."""
    return json.dumps(data, indent=1)
