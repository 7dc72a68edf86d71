"""The ``tranquility`` command line: parse, call the engine, render. No game logic here.

Imports stay light: the CP-SAT solver (ortools) is imported only inside the commands that
solve, so ``--help``, ``deal``, ``verify`` and ``rules`` never load it.
"""

from __future__ import annotations

import click

from solver import __version__
from solver.formats import deal_to_json, write_json

from .options import (
    INPUT_ERRORS,
    DealSource,
    deal_source,
    input_error,
    json_option,
    read_game,
)
from .render import dump_json, make_console, render_deal, render_rules, render_verdict, rules_json

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(
    context_settings=CONTEXT,
    epilog="""\b
Examples:
  tranquility deal --seed 1 --players 4
  tranquility deal --seed 1 --players 4 --out deal.json
  tranquility verify deal.json
  tranquility rules --rules hungarian""",
)
@click.version_option(__version__, "-V", "--version", prog_name="tranquility")
def main() -> None:
    """Tranquility: deals, rules and a replay verifier for the cooperative card game.

    Files: docs/formats.md. Rules and options: docs/rules.md. Seeded deals: docs/dealing.md.
    """


@main.command(
    epilog="""\b
Examples:
  tranquility deal --seed 1 --players 4
  tranquility deal --seed 1 --players 4 --json
  tranquility deal --seed 7 --players 3 --rules hungarian --rule monsters=4 --out deal.json
  tranquility deal --seed 7 --players 2 --rules my-rules.json --rule rows=4"""
)
@deal_source
@click.option(
    "--out",
    type=click.Path(dir_okay=False),
    help="Write the deal file here (tranquility-deal/1).",
)
@click.option("--force", is_flag=True, help="Let --out overwrite an existing file.")
@json_option
def deal(source: DealSource, out: str | None, force: bool, as_json: bool) -> None:
    """Deal a seeded game and show it (hands, piles, rules), or write it as JSON.

    The same --seed, --players and rules give the same deal on every machine.
    """
    game = source.deal()
    data = deal_to_json(game)
    if out is not None:
        try:
            write_json(out, data, force=force)
        except INPUT_ERRORS as exc:
            raise input_error(out, exc) from None
        click.echo(f"wrote {out} (seed {game.seed}, {game.players} player(s))", err=True)
    if as_json:
        click.echo(dump_json(data))
    elif out is None:
        render_deal(make_console(), game)


@main.command(
    epilog="""\b
Examples:
  tranquility verify deal.json
  tranquility verify line.json --json
\b
Exit status: 0 legal (also a line that has not won yet), 1 well-formed but
breaks a game rule, 2 cannot be read or does not follow the format."""
)
@click.argument("file", type=click.Path(dir_okay=False))
@json_option
@click.pass_context
def verify(ctx: click.Context, file: str, as_json: bool) -> None:
    """Check a deal FILE, or replay a line FILE action by action.

    --json prints {"legal", "won", "status", "turns", "error"}: turns = actions
    accepted, status = won, lost or open after them, error names the turn, seat,
    action and broken rule.
    """
    from solver.verify import verify as run_verify

    game = read_game(file)
    try:
        verdict = run_verify(game)
    except INPUT_ERRORS as exc:
        raise input_error(file, exc) from None
    if as_json:
        click.echo(dump_json(verdict.to_json()))
    else:
        render_verdict(make_console(), file, game, verdict)
    ctx.exit(0 if verdict.legal else 1)


@main.command(
    epilog="""\b
Examples:
  tranquility rules
  tranquility rules --rules hungarian
  tranquility rules --rules official --rule monsters=4 --rule rocks=auto --json"""
)
@deal_source(seeded=False)
@json_option
def rules(source: DealSource, as_json: bool) -> None:
    """Show the rule set in force, each option explained, and the presets."""
    in_force = source.rules()
    if as_json:
        click.echo(dump_json(rules_json(in_force)))
    else:
        render_rules(make_console(), in_force)


if __name__ == "__main__":  # pragma: no cover
    main()
