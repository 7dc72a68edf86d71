"""The screens the board opens over itself: the post-game analysis."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from .widgets import Drawing


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
