"""What a long command is doing, on a terminal: the phase it is in, the time left in its
budget and what it has found so far; and, once it is done, how long each phase took.

The library reports (``solver.solve.Step`` events through a ``progress`` callback, and
``Phase`` records in its results); this module only shows them. The status line goes to
stderr through rich, and only when stderr is a terminal and --json was not given: piped
output and JSON stay exactly what the command prints, with nothing on stderr.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:  # rich.progress loads only for a command that draws a bar (start-up time)
    from rich.progress import Progress

# How the methods read in a sentence ("found by greedy", "improved by CP-SAT").
METHOD_WORDS = {
    "cpsat": "CP-SAT",
    "exhaustive": "the complete search",
    "refute": "a refutation",
    "greedy": "greedy",
    "replay": "replaying the line",
    "lns": "the improving search (LNS)",
    "ladder": "the restricted-horizon ladder",
    "baseline": "the greedy baseline",
    "restarts": "greedy restarts",
}


def seconds_text(seconds: float) -> str:
    """``0.04 s``, ``12.3 s``, ``1 min 09 s``."""
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    whole = round(seconds)  # a clock difference can be 86.9999...: that reads as 1 min 27 s
    return f"{whole // 60} min {whole % 60:02d} s"


class Activity:
    """The status line of a long command: its label, the phase the library last reported
    (a ``Step``, or plain text), what it has found so far, and the time left: in the
    phase's budget (the step's ``until``) and in the whole command's (``total`` seconds
    from now), or the time so far when there is no clock. Re-rendered on every refresh,
    so the time counts down on its own."""

    def __init__(self, label: str, total: float | None = None) -> None:
        self.label = label
        self.started = time.monotonic()
        self.deadline = None if total is None else self.started + total
        self.step: Any = None

    def update(self, step: Any) -> None:
        self.step = step

    def text(self, now: float | None = None) -> str:
        now = time.monotonic() if now is None else now
        step = self.step
        phase = getattr(step, "phase", None) if step is not None else None
        found = getattr(step, "found", None)
        until = getattr(step, "until", None)
        if phase is None and step is not None:
            phase = str(step)
        parts = [f"{self.label}: {phase}" if phase else self.label]
        if found:
            parts.append(str(found))
        if until is not None:
            left = f"{seconds_text(max(0.0, until - now))} left"
            if self.deadline is not None and abs(self.deadline - until) > 1:
                left += f" ({seconds_text(max(0.0, self.deadline - now))} in all)"
            parts.append(left)
        elif self.deadline is not None:
            parts.append(f"{seconds_text(max(0.0, self.deadline - now))} left")
        else:
            parts.append(f"{seconds_text(now - self.started)} so far")
        return " · ".join(parts)

    def __rich__(self) -> Text:
        return Text(self.text())


def shown(console: Console, quiet: bool) -> bool:
    """Progress is shown only on a terminal, and never with --json."""
    return console.is_terminal and not quiet


@contextmanager
def activity(console: Console, label: str, quiet: bool, total: float | None = None) -> Iterator[Callable[[Any], None]]:
    """A status line on ``console`` (stderr) while the block runs; yields the callback that
    takes the library's steps. Nothing is drawn when ``shown`` says no."""
    line = Activity(label, total)
    if not shown(console, quiet):
        yield line.update
        return
    with console.status(line, spinner="dots", refresh_per_second=4):
        yield line.update


def progress_bar(console: Console, quiet: bool) -> Progress:
    """A bar for work counted in items (cases, puzzles, deals): what it is doing, how many
    are done of how many, the time so far. Disabled (nothing drawn, not even a blank
    line) unless ``shown``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(bar_width=20),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not shown(console, quiet),
    )


# -- the phases, once the work is done ------------------------------------------------------


def phase_text(phase: dict) -> str:
    """One phase (``Phase.to_json()``) in words: "found by greedy in 0.04 s"."""
    name, found = phase["phase"], phase["found"]
    method = METHOD_WORDS.get(phase["method"], phase["method"])
    took = seconds_text(phase["seconds"])
    if name == "decide":
        if phase["method"] == "replay":
            return "already won (the line given replayed as a win)"
        if found == "win":
            return f"found by {method} in {took}"
        if found == "no win":
            return f"proven by {method} in {took}"
        return f"{method} found {found} in {took}"
    if name == "improve":
        if "->" in found:
            return f"improved by {method} for {took} ({found})"
        return f"{method} for {took}: {found}"
    return f"{name} for {took} ({found})"


def phases_text(phases: Iterable[dict]) -> str:
    """Each phase that ran, in order, "; "-separated."""
    return "; ".join(phase_text(p) for p in phases)
