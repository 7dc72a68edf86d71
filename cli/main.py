"""The ``tranquility`` command line: parse, call the engine, render. No game logic here.

Imports stay light: the CP-SAT solver (ortools) is imported only inside the commands that
solve, so ``--help``, ``deal``, ``verify`` and ``rules`` never load it.
"""

from __future__ import annotations

from pathlib import Path

import click
from rich.progress import Progress

from solver import __version__
from solver.formats import deal_to_json, write_json

from .options import (
    INPUT_ERRORS,
    DealSource,
    InputError,
    deal_source,
    game_file_argument,
    input_error,
    json_option,
    read_game,
)
from .render import (
    dump_json,
    make_console,
    render_bench,
    render_deal,
    render_rules,
    render_solve,
    render_verdict,
    rules_json,
    solve_json,
)

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(
    context_settings=CONTEXT,
    epilog="""\b
Examples:
  tranquility solve --seed 1 --players 4
  tranquility deal --seed 1 --players 4 --out deal.json
  tranquility verify deal.json
  tranquility rules --rules hungarian
  tranquility bench --suite official --deals 20""",
)
@click.version_option(__version__, "-V", "--version", prog_name="tranquility")
def main() -> None:
    """Tranquility: deals, rules, a replay verifier and a solver for the cooperative card game.

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


@main.command(
    epilog="""\b
Examples:
  tranquility solve --seed 1 --players 4
  tranquility solve --seed 6 --players 1 --time-limit 30 --json
  tranquility solve position.json --out win.json
  tranquility solve --seed 3 --players 2 --rule order=grid --method cpsat --reproducible
  tranquility solve --seed 1 --players 3 --objective spare --time-limit 120
\b
Methods (what decided, in the output): refute (a cheap necessary condition
fails), greedy (a randomised greedy playout won), exhaustive (the complete
search), cpsat (the CP-SAT model), replay (the line has already won);
timeout or interrupted for unknown. --reproducible ignores --time-limit: it
uses fixed node budgets and 60 s of CP-SAT deterministic time (docs/solving.md).
\b
Exit status: 0 it ran (whatever the verdict), 2 bad input or rules the solver
does not support (monsters, rocks), 3 internal error (a line the engine rejects)."""
)
@deal_source
@game_file_argument
@click.option("--time-limit", type=click.FloatRange(min=0), default=60.0, show_default=True, help="Seconds for the whole solve.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option(
    "--method",
    type=click.Choice(["auto", "search", "cpsat"]),
    default="auto",
    show_default=True,
    help="auto = refutations, greedy, complete search, then CP-SAT; search or cpsat alone.",
)
@click.option(
    "--reproducible",
    is_flag=True,
    help="Same verdict and line on every run and machine: node budgets and CP-SAT deterministic time instead of seconds, one worker.",
)
@click.option(
    "--objective",
    type=click.Choice(["any", "spare", "turns", "cost"]),
    default="any",
    show_default=True,
    help="any = the first win found; spare = most cards left in hands and piles at the win; "
    "turns = fewest turns; cost = fewest cards paid as costs. Says whether the value is proven optimal.",
)
@click.option("--out", type=click.Path(dir_okay=False), help="Write the winning line here (tranquility-line/1).")
@click.option("--force", is_flag=True, help="Let --out overwrite an existing file.")
@json_option
def solve(
    source: DealSource,
    file: str | None,
    time_limit: float,
    workers: int,
    method: str,
    reproducible: bool,
    objective: str,
    out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Decide whether a deal (or the position a line FILE reaches) can still be won.

    Three verdicts, never more: win (with a line the rules engine has replayed), no-win
    (proven; the output names the proof) or unknown (the time ran out). The line always
    starts from the deal, so `tranquility verify` accepts it as it is.
    """
    from solver.formats import Line, line_to_json
    from solver.model import UnsupportedRules
    from solver.solve import Budget, InternalError
    from solver.solve import solve as run_solve

    game = source.resolve(file)
    if out is not None and not force and Path(out).exists():
        raise input_error(out, FileExistsError(f"{out} already exists (use --force to overwrite it)"))
    budget = Budget(seconds=time_limit, workers=1 if reproducible else workers, reproducible=reproducible)
    console = make_console(stderr=True)
    try:
        with console.status("solving", spinner="dots") as status:
            result = run_solve(
                game, budget, method, progress=lambda phase: status.update(f"solving: {phase}"), objective=objective
            )
    except UnsupportedRules as exc:
        raise InputError(f"unsupported rules: {exc}") from None
    except ValueError as exc:
        raise input_error(file, exc) from None
    except InternalError as exc:
        click.echo(f"INTERNAL ERROR: {exc}", err=True)
        raise SystemExit(3) from None
    line_json = line_to_json(result.line) if result.line is not None else None
    if out is not None and line_json is not None:
        try:
            write_json(out, line_json, force=force)
        except INPUT_ERRORS as exc:
            raise input_error(out, exc) from None
        click.echo(f"wrote {out}", err=True)
    if as_json:
        click.echo(dump_json(solve_json(result, line_json)))
    else:
        prefix = len(game.actions) if isinstance(game, Line) else 0
        render_solve(make_console(), result, prefix)


@main.command(
    epilog="""\b
Examples:
  tranquility bench --suite official --deals 20
  tranquility bench --suite positions --time-limit 10 --json --out bench.json
  tranquility bench --suite all"""
)
@click.option("--suite", type=click.Choice(["official", "variants", "positions", "all"]), default="official", show_default=True)
@click.option("--deals", type=click.IntRange(min=1), help="Seeds per group (default: the suite's own: 200, 50, 25).")
@click.option("--time-limit", type=click.FloatRange(min=0), default=60.0, show_default=True, help="Seconds per solve.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True, help="CP-SAT worker threads.")
@click.option("--out", type=click.Path(dir_okay=False), help="Also write the full report (every case) as JSON here.")
@click.option("--force", is_flag=True, help="Let --out overwrite an existing file.")
@click.option("--markdown", is_flag=True, help="Print the summary as a Markdown table (docs/performance.md).")
@json_option
def bench(
    suite: str, deals: int | None, time_limit: float, workers: int, out: str | None, force: bool, markdown: bool, as_json: bool
) -> None:
    """Time the solver on fixed seeded deals and positions (CLI start-up excluded).

    Per group and player count: decided share, verdict counts, which method decided,
    median / p90 / max seconds, and whether every win replayed. docs/performance.md
    explains the suites and records the measured table.
    """
    from solver.bench import cases, markdown_table, run

    if out is not None and not force and Path(out).exists():
        raise input_error(out, FileExistsError(f"{out} already exists (use --force to overwrite it)"))
    total = sum(1 for _ in cases(suite, deals))
    console = make_console(stderr=True)
    with Progress(console=console, transient=True, disable=as_json and not console.is_terminal) as progress:
        task = progress.add_task(f"bench {suite}", total=total)
        report = run(suite, deals, time_limit, workers, on_case=lambda case, result: progress.advance(task))
    if out is not None:
        try:
            write_json(out, report.to_json(), force=force)
        except INPUT_ERRORS as exc:
            raise input_error(out, exc) from None
    if as_json:
        click.echo(dump_json({k: v for k, v in report.to_json().items() if k != "cases"}))
    elif markdown:
        click.echo(markdown_table(report))
    else:
        render_bench(make_console(min_width=132), report)


if __name__ == "__main__":  # pragma: no cover
    main()
