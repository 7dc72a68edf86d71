"""The board's widgets: the drawing of the position, the move list and its rows."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import OptionList
from tranquility.solver.analysis.board import Move


def drawn(draw: Callable[[Console], None], width: int) -> Text:
    """What ``draw`` prints on a console of ``width`` columns, styles kept, as one Text."""
    console = Console(width=width, file=io.StringIO(), record=True, highlight=False, markup=False, force_terminal=True)
    draw(console)
    return Text.from_ansi(console.export_text(styles=True).rstrip("\n"))


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
