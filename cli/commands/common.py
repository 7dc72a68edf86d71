"""What the commands share: writing --out, delivering an answer, running a solver task
with a status line, and the game a command works on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from tranquility.solver.engine.verify import Replayed
from tranquility.solver.errors import BadInput

from ..game_input import INPUT_ERRORS, DealSource, checked, input_error
from ..progress import activity
from ..render.console import dump_json, make_console


def write_out(path: str, data, force: bool) -> None:
    """``write_json`` for an --out option: a bad path or an existing file (without
    --force) is a one-line input error, exit 2."""
    from tranquility.solver.formats.json_values import write_json

    try:
        write_json(path, data, force=force)
    except INPUT_ERRORS as exc:
        raise input_error(path, exc) from None


def deliver(data: dict, out: str | None, force: bool, as_json: bool, draw: Callable[[], None]) -> None:
    """A command's answer: ``data`` written to --out when asked (said on stderr), then
    printed as JSON with --json, else drawn as text by ``draw``."""
    if out is not None:
        write_out(out, data, force)
        click.echo(f"wrote {out}", err=True)
    if as_json:
        click.echo(dump_json(data))
    else:
        draw()


def run_with_status(
    label: str, file: str | None, work: Callable[[Callable[[Any], None]], Any], quiet: bool, total: float | None = None
) -> Any:
    """Run a solver task with a status line on stderr (on a terminal, without --json): the
    phase the library reports, what it has found so far and the time left (``total``:
    the command's seconds). Input errors name the file (exit 2); anything else goes on to
    ``exits.Group`` (a bug is exit 3)."""
    try:
        with activity(make_console(stderr=True), label, quiet, total) as progress:
            return work(progress)
    except BadInput as exc:
        raise input_error(file, exc) from None


def game_of(source: DealSource, file: str | None) -> tuple[Replayed, str | None]:
    """The deal or line to work on (seeded or FILE), replayed once and handed on: a deal or
    an action that breaks a rule is exit 2 here (only ``verify`` answers 1 for it). With
    FILE's name in messages (``DealSource.resolve``)."""
    game, file = source.resolve(file)
    return checked(game, file), file
