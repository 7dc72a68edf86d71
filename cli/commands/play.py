"""``play``: the interactive board in the terminal, alone or at a table of bots (the board in
the browser is ``serve``)."""

from __future__ import annotations

import click

from ..exits import exit_line
from ..game_input import DealSource
from ..options import (
    count_option,
    deal_source,
    game_file_argument,
    objective_option,
    policy_option,
    reject,
    seat_option,
    seconds_option,
)


@click.command(
    epilog=f"""\b
Examples:
  tranquility play --seed 1 --players 2
  tranquility play --puzzle tq1-1p-8cf48077-2
  tranquility simulate --seed 3 --players 4 --out line.json
  tranquility play line.json --hint-time 5
  tranquility play --seed 1 --players 3 --seat 1 --bots thrifty
\b
FILE is a deal, line, puzzle or notation file (not -: standard input is the
keyboard here); play goes on where its line stops. Type moves in the notation
(docs/notation.md) or pick them from the list; type help on the board for its
commands and keys. With --seat K you play seat K at a table of bots: your own
hand alone is face up until the game ends. docs/play.md. The board in the
browser is tranquility serve (docs/web.md).

{exit_line("the board was closed")}
2 also without a terminal to draw on."""
)
@deal_source
@game_file_argument
@click.option("--puzzle", "puzzle_id", metavar="ID", help="Play a shipped catalogue puzzle (tranquility puzzles lists them).")
@seconds_option(
    "--hint-time",
    "Seconds for each hint's solve (and each solve of the check after a move, and each position of the post-game analysis).",
    default=2.0,
)
@objective_option(
    "Which win a hint's best next move heads for (as in tranquility solve) [default: spare in a puzzle, else any].",
    default=None,
)
@click.option(
    "--no-check",
    "no_check",
    is_flag=True,
    help="Do not solve after every move whether it threw the win away (ctrl+n on the board turns the check on and off).",
)
@click.option("--web", is_flag=True, hidden=True, help="Gone: tranquility serve is the board in the browser.")
@seat_option(
    "--seat",
    "Play seat K (from 0) at a table: you see your own hand only, bots play the other seats; "
    "every card is face up once the game is over.",
)
@policy_option("--bots", "With --seat: how the bots play (simulate's policies, docs/simulate.md).")
@seconds_option("--bot-delay", "With --seat: the pause between the bots' moves (0: none).", default=0.8, zero=True)
@count_option(
    "--hint-samples", "With --seat: worlds each of your moves is played out in for the fair hint.", default=8, metavar="N"
)
@click.pass_context
def play(
    ctx: click.Context,
    source: DealSource,
    file: str | None,
    puzzle_id: str | None,
    hint_time: float,
    objective: str | None,
    no_check: bool,
    web: bool,
    seat: int | None,
    bots: str,
    bot_delay: float,
    hint_samples: int,
) -> None:
    """Play a game on an interactive board: every card face up, the legal moves and their
    costs, undo and redo, save and load, hints from the solver, the post-game analysis;
    with --seat, one seat at a table of bots, its own hand alone face up."""
    from tranquility.solver.analysis.table import Seating

    if web:
        raise click.UsageError("play --web is gone: tranquility serve is the board in the browser (docs/web.md)", ctx=ctx)
    if seat is None:
        reject(ctx, {"bots": "--bots", "bot_delay": "--bot-delay", "hint_samples": "--hint-samples"}, "only taken with --seat")
    seating = None if seat is None else Seating(seat, bots, hint_samples=hint_samples)
    from ..play.app import run_play

    run_play(source, file, puzzle_id, hint_time, objective, not no_check, seating, bot_delay)
