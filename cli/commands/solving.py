"""``solve``, ``explain``, ``analyze`` and ``moves``: the commands that run the solver on one game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from tranquility.solver.verdicts import Method, Objective, Proof

from ..exits import INTERRUPTED, exit_line
from ..game_input import DealSource, checked, file_or_position, input_error, usage_error
from ..options import (
    Limits,
    deal_source,
    game_file_argument,
    json_option,
    objective_option,
    output_options,
    proof_option,
    reject,
    samples_option,
    seconds_option,
    sim_seed_option,
    solver_options,
)
from ..render.analysis import HANDS, render_analysis, render_explanation, render_fair
from ..render.console import dump_json, make_console
from ..render.verdicts import render_moves, render_solve
from .common import deliver, game_of, run_with_status, write_out

METHOD_NAMES = tuple(m.value for m in Method)

REPRODUCIBLE = (
    "Same verdict and line on every run and machine: fixed node budgets and 60 s of CP-SAT "
    "deterministic time on one thread, in place of --time-limit and --workers (which it does not take)."
)


@click.command(
    epilog=f"""\b
Examples:
  tranquility solve --seed 1 --players 4
  tranquility solve --seed 6 --players 1 --time-limit 30 --json
  printf 'deal 1 4\\n19@8 4@1 14@5 29@13\\n' > game.tq
  tranquility show game.tq --position --json > position.json
  tranquility solve position.json --out win.json
  tranquility solve --seed 6 --players 1 --rule order=grid --method cpsat --reproducible
  tranquility solve --seed 1 --players 3 --objective spare --time-limit 120   # about 30 s
\b
Methods (what decided, in the output): refute (a cheap necessary condition
fails), greedy (a randomised greedy playout won), exhaustive (the complete
search), cpsat (the CP-SAT model), replay (the line has already won);
timeout or interrupted for unknown. Ctrl-C during a solve ends it with
unknown (or the win found so far) and exit 0. docs/solving.md.

{exit_line("it ran (whatever the verdict)")}"""
)
@deal_source
@game_file_argument
@solver_options("the whole command: deciding, then improving the line for --objective", reproducible=REPRODUCIBLE)
@click.option(
    "--method",
    type=click.Choice(METHOD_NAMES),
    default=Method.AUTO.value,
    show_default=True,
    help="auto = refutations, greedy, complete search, then CP-SAT; search or cpsat alone.",
)
@objective_option(
    "any = the first win found; spare = most cards left in hands and piles at the win; "
    "turns = fewest turns; cost = fewest cards paid as costs. Says whether the value is proven optimal."
)
@proof_option
@output_options("Write the winning line here (tranquility-line/1); nothing is written without a win.")
@json_option
@click.option("--verbose", "-v", is_flag=True, help='Also print the solver\'s counters (always in --json, as "stats").')
def solve(
    source: DealSource,
    file: str | None,
    limits: Limits,
    method: str,
    objective: str,
    proof: Proof,
    out: str | None,
    force: bool,
    as_json: bool,
    verbose: bool,
) -> None:
    """Decide whether a deal, a position, or the position a line FILE reaches can still be won.

    Three verdicts, never more: win (with a line the rules engine has replayed), no-win
    (proven; the output names the proof) or unknown (the time ran out). The line starts
    where the game given does (the deal, or a position), so `tranquility verify` accepts it
    as it is.
    """
    from tranquility.solver.analysis.portfolio import solve as run_solve

    game, file = game_of(source, file)  # replayed once: the solve starts from its state
    budget = limits.budget(proof=proof)
    result = run_with_status(
        "solving",
        file,
        lambda progress: run_solve(game, budget, Method(method), progress=progress, objective=Objective(objective)),
        quiet=as_json,
        total=None if budget.reproducible else budget.seconds,
    )
    if out is not None:
        if result.line is not None:
            from tranquility.solver.formats.codecs import line_to_json

            write_out(out, line_to_json(result.line), force)
            click.echo(f"wrote {out}", err=True)
        else:
            click.echo(f"{out} not written: no winning line ({result.verdict})", err=True)
    if as_json:
        click.echo(dump_json(result.to_json()))
    else:
        render_solve(make_console(), result, len(game.line.actions), verbose, budget.reproducible)


@click.command(
    epilog=f"""\b
Examples:
  tranquility explain --seed 1 --players 3                # about 1 min
  tranquility explain --seed 6 --players 1                # about 30 s
  printf 'deal 1 4\\n19@8 4@1 14@5 29@13\\n' > game.tq
  tranquility explain game.tq --objective turns --every-turn
  tranquility explain --seed 2 --players 4 --time-limit 40 --json > explained.json   # about 30 s
  tranquility explain --seed 1 --players 3 --html replay.html                        # about 1 min
\b
Critical moves: for each turn, every other choice (an action without its
payment) is re-solved within the --critical-time budget: "only move" means
every alternative was proven to lose; "not checked" means the budget ran out.
docs/explain.md.

{exit_line()}"""
)
@deal_source
@game_file_argument
@objective_option("Which line is best: spare = most cards left at the win; turns; cost; any = the first win.", Objective.SPARE)
@solver_options(
    "the whole command: the line (found, then improved), then --critical-time of it for the "
    "critical-move checks; for an unwinnable deal, the proof, the best reach and what binds",
    default=90.0,
    reproducible="The verdict, the line and its value are the same on every run (the solve of "
    "solve --reproducible, in place of --time-limit and --workers); the critical-move checks still "
    "get --critical-time seconds, so their labels can differ between runs.",
    workers="CP-SAT threads of the line's solve (each critical-move check uses one).",
)
@seconds_option(
    "--critical-time",
    "Seconds of --time-limit for the critical-move checks [default: a third of --time-limit; 30 with --reproducible].",
)
@click.option("--every-turn", is_flag=True, help="Draw the grid after every turn, not only when it matters.")
@click.option(
    "--hands",
    type=click.Choice(HANDS),
    default=HANDS[0],
    show_default=True,
    help=(
        "Show the mover's hand before the move on the critical turns (only moves and one of a few), every turn, "
        "or none. Text only: --json gives every turn's hand."
    ),
)
@proof_option
@output_options(
    "Write the explanation here, as --json prints it.",
    also=(("--html", "html_out", "Also write a self-contained HTML replay here."),),
)
@json_option
def explain(
    source: DealSource,
    file: str | None,
    objective: str,
    limits: Limits,
    critical_time: float | None,
    every_turn: bool,
    hands: str,
    proof: Proof,
    out: str | None,
    html_out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Explain the best line of a deal or position: turn by turn, the grid when it matters,
    the moves that were the only way to keep the win; for an unwinnable one, how far the
    team gets and what makes the win impossible."""
    from tranquility.app.tasks import explained as run_explain

    total = None if limits.reproducible else limits.seconds
    if critical_time is not None and total is not None and critical_time >= total:
        raise usage_error(
            f"--critical-time {critical_time:g} leaves no time for the line: give less than --time-limit ({total:g} s)"
        )
    game, file = game_of(source, file)
    explained = run_with_status(
        "explaining",
        file,
        lambda progress: run_explain(
            game, Objective(objective), total, critical_time, limits.workers, limits.reproducible, proof, progress
        ),
        quiet=as_json,
        total=total,
    )
    data = explained.to_json()
    if out is not None:
        write_out(out, data, force)
        click.echo(f"wrote {out}", err=True)
    if html_out is not None:
        from ..html import replay_html

        line = explained.result.line or (explained.reach.line if explained.reach else None)
        if line is None:  # as solve --out without a win: said, and the command still succeeds
            click.echo(f"{html_out} not written: no line was found in the time limit ({explained.result.verdict})", err=True)
        else:
            write_html(html_out, replay_html(line, data))
    if as_json:
        click.echo(dump_json(data))
    else:
        render_explanation(make_console(), explained, every_turn, limits.reproducible, hands)


class TurnCount(click.ParamType):
    """A count of turns (0 or more), or ``all``."""

    name = "N|all"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        if value == "all" or (isinstance(value, int) and value >= 0):
            return value
        text = str(value).strip()
        if text.isdigit():
            return int(text)
        self.fail(f"{value!r} is neither a count of turns (0 or more) nor 'all'", param, ctx)


@click.command(
    epilog=f"""\b
Examples:
  tranquility simulate --seed 3 --players 4 --policy random --out played.json
  tranquility analyze played.json
  tranquility verify played.json --notation > played.tq
  tranquility analyze played.tq --time-limit 5 --json
  tranquility analyze played.json --reproducible
  tranquility analyze played.json --fair --time-limit 2                  # about 1 min
  tranquility analyze played.json --fair --perfect --turns 2 --samples 8 --html replay.html
\b
Verdicts along a line can only go from win to no-win: once a position is proven
lost, later ones are marked no-win by "implied" without another solve.
\b
--fair judges the turns the perfect analysis flags, and --turns N others spread
over the line, by what each mover could know: every legal move is played out in
--samples worlds dealt to fit the mover's memory; a mistake is a move that
surely cost at least 8 points of win chance (the 95% interval of the best
move's lead over it lies wholly at or above 8 points). A lost win is a
mistake if an examined turn up to it is one, else bad luck (docs/explain.md,
"Fair analysis"). Ctrl-C during it prints what was decided, then exits 130.

{exit_line()}"""
)
@game_file_argument
@solver_options(
    "each position (one solve per position of the line, before every action and after the last)",
    default=10.0,
    reproducible="Every position's verdict the same on every run and machine: the solve of "
    "solve --reproducible for each, in place of --time-limit and --workers.",
)
@click.option(
    "--fair",
    "fair_mode",
    is_flag=True,
    help="Judge the line by what each mover could know (sampled worlds, no hidden card seen), "
    "after the perfect analysis that picks the turns; prints it in place of the perfect one.",
)
@click.option("--perfect", is_flag=True, help="With --fair: print the perfect analysis too (without --fair it alone is printed).")
@click.option(
    "--turns",
    type=TurnCount(),
    metavar="N|all",
    help="--fair: turns examined besides the ones the perfect analysis flags, spread evenly over the line; "
    "all = every turn [default: 6].",
)
@samples_option("--fair: worlds dealt per examined turn, each move played out once in each [default: 320].")
@sim_seed_option("--fair: seed of the worlds (with the turn and the seat).", metavar="S")
@output_options(
    "Write the analysis here, as --json prints it.",
    also=(
        (
            "--html",
            "html_out",
            "Also write a self-contained HTML replay of the line here, the turn that lost the win marked "
            "(with --fair, the mistakes and the bad luck too).",
        ),
    ),
)
@json_option
@click.pass_context
def analyze(
    ctx: click.Context,
    file: str | None,
    position_text: str | None,
    limits: Limits,
    fair_mode: bool,
    perfect: bool,
    turns: int | str | None,
    samples: int | None,
    sim_seed: int,
    out: str | None,
    html_out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Find the action in a played game (a line FILE, won or lost) after which a winnable
    position became unwinnable, and a move that would have kept the win; with --fair, judge
    the line by what each mover could know: a mistake, or bad luck.

    --json prints the perfect analysis; with --fair, {"perfect": ..., "fair": ...}.
    """
    from tranquility.solver.analysis.analyze import analyze as run_analyze

    if not fair_mode:
        reject(ctx, {"turns": "--turns", "samples": "--samples", "sim_seed": "--sim-seed"}, "taken only with --fair")
    given, read = file_or_position(file, position_text)
    file = None if read is None else read.name
    game = checked(given, file)  # replayed once: every position of the analysis is read from it
    line = game.line
    budget = limits.budget()
    analysis = run_with_status("analysing", file, lambda progress: run_analyze(game, budget, progress=progress), quiet=as_json)
    if not fair_mode:
        if html_out is not None:
            from ..html import analysis_html

            write_html(html_out, analysis_html(line, analysis.to_json()))
        deliver(analysis.to_json(), out, force, as_json, lambda: render_analysis(make_console(), analysis))
        return
    from tranquility.app.tasks import fair_of

    fair = run_with_status(
        "fair analysis", file, lambda progress: fair_of(analysis, turns, samples, sim_seed, progress), quiet=as_json
    )
    data = fair.to_json()
    if html_out is not None:
        from ..html import analysis_html

        write_html(html_out, analysis_html(line, data["perfect"], data["fair"]))

    def draw() -> None:
        console = make_console()
        if perfect:
            render_analysis(console, analysis)
            console.print()
        render_fair(console, fair)

    deliver(data, out, force, as_json, draw)
    if fair.interrupted:
        click.echo("Interrupted: the turns not examined by then are left out.", err=True)
        raise click.exceptions.Exit(INTERRUPTED)


def write_html(path: str, page: str) -> None:
    """Write a replay page to ``path`` (an --html option, checked before the work); a
    failure is a one-line input error, exit 2."""
    try:
        Path(path).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise input_error(path, exc) from None
    click.echo(f"wrote {path}", err=True)


@click.command(
    epilog=f"""\b
Examples:
  tranquility moves --seed 1 --players 4 --time-limit 3
  printf 'deal 4 2\\n73@32 1@0 32@14 43@19 24@10 28@12 60@26 69@30 78@34\\n' > tight.tq
  printf '18@7 48@21 65@28 40@16 35@15-9,27,75 56@24 22@9-31,54 55@23-34 x16,61\\n' >> tight.tq
  tranquility moves tight.tq --time-limit 2
  tranquility moves tight.tq --time-limit 2 --json
  tranquility moves tight.tq --objective spare --time-limit 5
  tranquility moves --position "$(tranquility show tight.tq --position --json)" --reproducible
\b
A move is an entry of the board's list (tranquility play): an island at a
cell, the Start, a Finish, a Sea Monster's cell, discard two. Each payment
worth trying (junk first) is solved; a win keeps the payment that leaves the
most cards. Wins come first (most spare cards, then fewest turns), then
unknown, then no-win. Ctrl-C prints what was decided, then exits 130.
docs/cli.md.

{exit_line("it ran (whatever the verdicts)")}"""
)
@deal_source
@game_file_argument
@solver_options(
    "the whole command, shared over the moves: a first look at each, then the rest on the undecided",
    default=10.0,
    reproducible="The same verdicts on every run and machine: each payment gets an equal share of "
    "solve --reproducible's fixed budgets, in place of --time-limit and --workers.",
)
@objective_option(
    "any = the verdicts only; spare, turns or cost = also improve each winning move's line "
    "for it and say whether its value is proven optimal (as in tranquility solve)."
)
@output_options("Write the moves here, as --json prints it.")
@json_option
def moves(
    source: DealSource, file: str | None, limits: Limits, objective: str, out: str | None, force: bool, as_json: bool
) -> None:
    """Every move at a position (a deal, a line, a position) with its verdict after it: win
    (with the line the rules engine replayed, and the cards it keeps), no-win (with the
    proof) or unknown, best first."""
    from tranquility.solver.analysis.ranking import rank_moves

    game, file = game_of(source, file)
    budget = limits.budget()
    ranking = run_with_status(
        "moves",
        file,
        lambda progress: rank_moves(game, budget, Objective(objective), progress),
        quiet=as_json,
        total=None if budget.reproducible else budget.seconds,
    )
    deliver(ranking.to_json(), out, force, as_json, lambda: render_moves(make_console(), ranking, limits.reproducible))
    if ranking.interrupted:
        click.echo("Interrupted: the moves not decided by then are unknown.", err=True)
        raise click.exceptions.Exit(INTERRUPTED)
