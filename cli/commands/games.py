"""``deal``, ``verify``, ``show`` and ``rules``: a game dealt, checked, drawn, and the rules in force. None of them solves."""

from __future__ import annotations

import click
from tranquility.solver.engine.line import as_line
from tranquility.solver.errors import BadInput

from ..exits import InputError, exit_line
from ..game_input import DealSource, file_or_position, input_error, read_game, usage_error
from ..options import deal_source, game_file_argument, json_option, output_options
from ..render.board import notation_text, position_json, render_deal, render_rules, render_show, render_verdict
from ..render.console import dump_json, make_console
from .common import write_out


@click.command(
    epilog=f"""\b
Examples:
  tranquility deal --seed 1 --players 4
  tranquility deal --seed 1 --players 4 --json
  tranquility deal --seed 7 --players 3 --rules hungarian --rule monsters=4 --out deal.json
  printf '{{"rows": 4, "monsters": 3}}' > my-rules.json
  tranquility deal --seed 7 --players 2 --rules my-rules.json --rule cols=4

{exit_line()}"""
)
@deal_source
@output_options("Write the deal file here (tranquility-deal/1).")
@json_option
def deal(source: DealSource, out: str | None, force: bool, as_json: bool) -> None:
    """Deal a seeded game and show it (hands, piles, rules), or write it as JSON.

    The same --seed, --players and rules give the same deal on every machine.
    """
    from tranquility.solver.formats.codecs import deal_to_json

    game = source.deal()
    data = deal_to_json(game)
    if out is not None:
        write_out(out, data, force)
        click.echo(f"wrote {out} (seed {game.seed}, {game.players} player(s))", err=True)
    if as_json:
        click.echo(dump_json(data))
    elif out is None:
        render_deal(make_console(), game)


@click.command(
    epilog=f"""\b
Examples:
  tranquility deal --seed 1 --players 4 --out deal.json
  tranquility verify deal.json
  tranquility deal --seed 1 --players 4 --json | tranquility verify -
  tranquility simulate --seed 1 --players 4 --out line.json
  tranquility verify line.json --json
  tranquility verify line.json --notation > game.tq
  tranquility verify game.tq
  tranquility show line.json --turn 2 --position --json > position.json
  tranquility verify position.json
\b
FILE is a deal, position or line file in JSON, a position's text form (tq1
...), or a game in the notation of docs/notation.md (a header naming the deal
or position, then one token a turn); - reads it from standard input. --position
TEXT gives a position's text form in place of FILE. A position the rules make
impossible is exit 2.

{exit_line("legal (also a line that has not won yet)", "well-formed but the deal or an action breaks a game rule")}
2 is for a file that cannot be read or does not follow the format."""
)
@game_file_argument
@json_option
@click.option(
    "--notation",
    "as_notation",
    is_flag=True,
    help="Print the line in the game notation (docs/notation.md), the verdict as a last # comment.",
)
@click.pass_context
def verify(ctx: click.Context, file: str | None, position_text: str | None, as_json: bool, as_notation: bool) -> None:
    """Check a deal FILE, or replay a line FILE action by action.

    --json prints {"legal", "won", "status", "turns", "error"}: turns = actions
    accepted, status = won, lost or open after them, error names the turn, seat,
    action and broken rule.
    """
    from tranquility.solver.engine.verify import verify as run_verify

    if as_json and as_notation:
        raise usage_error("--json and --notation do not mix; choose one")
    game, read = file_or_position(file, position_text)
    puzzle = None if read is None else read.puzzle()
    file = "--position" if read is None else read.name
    verdict = run_verify(game)
    if as_json:
        click.echo(dump_json(verdict.to_json()))
    elif as_notation:
        try:
            click.echo(notation_text(read, game, verdict), nl=False)
        except BadInput as exc:
            raise input_error(file, exc) from None
    else:
        render_verdict(make_console(), file, game, verdict, puzzle=puzzle)
    ctx.exit(0 if verdict.legal else 1)


@click.command(
    epilog=f"""\b
Examples:
  tranquility deal --seed 1 --players 4 --out deal.json
  tranquility show deal.json
  tranquility show deal.json --hide-piles
  tranquility simulate --seed 1 --players 4 --out line.json
  tranquility show line.json --turn 12 --json
  tranquility show line.json --turn 12 --position
  tranquility verify line.json --notation > game.tq
  tranquility show game.tq --turn 0
  tranquility generate --players 1 --grade 3 --out my-puzzles
  tranquility show my-puzzles/tq1-1p-8cf48077-0.json
\b
FILE is a deal, position, line or puzzle file (JSON), a position's text form
(tq1 ...), or a game in the notation of docs/notation.md; - reads it from
standard input. --turn N shows the position after the first N actions (0 =
where the line starts); without it, the end of the line. --position prints
that position in its text form and its JSON (docs/formats.md), to solve or
play from it later. Every card is face up: each hand, and each pile top first
(--hide-piles: only how many cards each pile holds). A puzzle file's id and
grade head the drawing.

{exit_line("shown")}
2 also when the deal or an action before turn N breaks a game rule (verify
names it) or N is beyond the end of the line."""
)
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--turn", type=click.IntRange(min=0), metavar="N", help="Show the position after N actions (from 0).")
@click.option(
    "--position",
    "as_position",
    is_flag=True,
    help="Print the position after --turn N as a position: its text form and its JSON (--json: the JSON only).",
)
@click.option(
    "--hide-piles",
    is_flag=True,
    help="Show how many cards each pile holds, not the cards (for the table, where the piles lie face down).",
)
@json_option
def show(file: str, turn: int | None, as_position: bool, hide_piles: bool, as_json: bool) -> None:
    """Draw a deal, position, line or puzzle FILE: grid, every hand and pile (top first),
    whose turn, status; a puzzle's id and grade in the header.

    --json prints the position (tranquility-position/1, docs/formats.md):
    grid = one entry per cell (row x cols + col, null when empty), hands, piles
    = the cards each seat still has to draw (top first), seat = the seat to
    move, start_played, won, and the modules' sunk islands and rocks.
    """
    from tranquility.solver.engine.verify import verify as run_verify

    if hide_piles and (as_json or as_position):
        raise usage_error("--hide-piles hides the piles' cards in the drawing; a position shows every card")
    read = read_game(file)
    game, puzzle, file = read.game, read.puzzle(), read.name
    line = as_line(game)
    total = len(line.actions)
    if turn is None:
        turn = total
    elif turn > total:
        raise click.BadParameter(f"{turn} is beyond the end of the line ({total} action(s))", param_hint="'--turn'")
    verdict = run_verify(line.with_actions(line.actions[:turn]))
    if not verdict.legal:
        raise InputError(f"{file}: {verdict.error} (cannot show turn {turn})")
    if as_json or as_position:
        try:
            data = position_json(verdict.state)
        except BadInput as exc:
            raise input_error(file, exc) from None
        if as_position and not as_json:
            from tranquility.solver.engine.position import Position
            from tranquility.solver.formats.position_forms import position_to_text

            assert verdict.state is not None  # a legal line reaches a position
            click.echo(position_to_text(Position.of(verdict.state)))
        click.echo(dump_json(data))
    else:
        render_show(make_console(), file, game, verdict.state, turn, piles=not hide_piles, puzzle=puzzle)


@click.command(
    epilog=f"""\b
Examples:
  tranquility rules
  tranquility rules --rules hungarian
  tranquility rules --rules official --rule monsters=4 --rule rocks=auto --json

{exit_line()}"""
)
@deal_source(seeded=False)
@json_option
def rules(source: DealSource, as_json: bool) -> None:
    """Show the rule set in force, each option explained, and the presets."""
    from tranquility.solver.formats.rules_text import rules_json

    in_force = source.rules()
    if as_json:
        click.echo(dump_json(rules_json(in_force)))
    else:
        render_rules(make_console(), in_force)
