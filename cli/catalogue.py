"""``tranquility puzzles``: the shipped catalogue as a table or as JSON (the listing and
its JSON shape are ``puzzles.listing``'s)."""

from __future__ import annotations

import click
from rich.table import Table
from tranquility.puzzles.listing import listing

from .render.console import dump_json, make_console


def render_puzzles(players: int | None, grade: int | None, preset: str | None, as_json: bool) -> None:
    found = listing(players, grade, preset)
    if as_json:
        click.echo(dump_json([p.to_json() for p in found]))
        return
    console = make_console()
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name, justify in (("id", "left"), ("players", "right"), ("grade", "right"), ("rules", "left"), ("score", "right")):
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for p in found:
        e = p.entry
        table.add_row(e.id, str(e.players), str(e.grade), p.rules, f"{e.score:.3f}")
    console.print(table)
    console.print(f"{len(found)} puzzle(s); tranquility play --puzzle ID plays one.", style="dim")
