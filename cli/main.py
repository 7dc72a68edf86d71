"""The ``tranquility`` command line: the group that assembles the commands of
``cli/commands/``. Parse, call the library, render; no game logic here.

Imports stay light: ``--help`` imports no command, and a command imports only its own
module (``commands.COMMANDS``); the CP-SAT solver (ortools) is imported only inside the
commands that solve.

Every command exits by one table (``exits.EXIT_CODES``, docs/cli.md); ``exits.Group``
turns whatever escapes a command into its exit code.
"""

from __future__ import annotations

import click

from .commands import COMMANDS, LazyGroup
from .exits import exit_table

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(
    cls=LazyGroup,
    entries=COMMANDS,
    context_settings=CONTEXT,
    epilog=f"""\b
Examples:
  tranquility solve --seed 1 --players 4
  tranquility deal --seed 1 --players 4 --out deal.json
  tranquility verify deal.json
  tranquility simulate --seed 1 --players 4 --policy greedy --out game.json
  tranquility show game.json --turn 12
  tranquility rules --rules hungarian
  tranquility bench --suite official --deals 20
  tranquility --debug solve deal.json

{exit_table()}""",
)
@click.option(
    "--debug",
    is_flag=True,
    envvar="TRANQUILITY_DEBUG",
    help="On an error, also print the Python traceback (for a bug report). Give it before the command.",
)
@click.version_option(None, "-V", "--version", package_name="tranquility-solver", prog_name="tranquility")
def main(debug: bool) -> None:
    """Tranquility: deals, rules, a replay verifier and a solver for the cooperative card game.

    Files: docs/formats.md. Rules and options: docs/rules.md. Seeded deals: docs/dealing.md.
    The command line, its shared options and exit codes: docs/cli.md.
    """
