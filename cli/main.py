"""The ``tranquility`` command line: parse, call the engine, render. No game logic here.

Imports stay light: the CP-SAT solver (ortools) is imported only inside the commands that
solve, so ``--help``, ``deal``, ``verify`` and ``rules`` never load it. Choice lists come
from the library (``LazyChoice`` imports the heavier ones only when a command needs them).

Every command exits by one table (``exits.EXIT_CODES``, docs/cli.md); ``exits.Group``
turns whatever escapes a command into its exit code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.errors import BadInput
from tranquility.solver.verdicts import Method, Objective, Proof

from .exits import INTERRUPTED, Group, InputError, exit_line, exit_table
from .options import (
    INPUT_ERRORS,
    SECONDS,
    DealSource,
    LazyChoice,
    Limits,
    PlayerRange,
    Seconds,
    checked,
    deal_source,
    file_or_position,
    game_file_argument,
    given,
    input_error,
    json_option,
    objective_option,
    output_options,
    playable,
    position_option,
    proof_option,
    read_game,
    reject,
    samples_option,
    solver_options,
    usage_error,
)
from .progress import activity, progress_bar
from .render import (
    HANDS,
    dump_json,
    make_console,
    notation_text,
    position_json,
    position_text,
    render_analysis,
    render_bench,
    render_deal,
    render_explanation,
    render_fair,
    render_moves,
    render_rules,
    render_show,
    render_solve,
    render_verdict,
)
from .tune import tune as tune_command

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

METHODS = tuple(m.value for m in Method)
OBJECTIVES = tuple(o.value for o in Objective)


def _policies() -> tuple[str, ...]:
    from tranquility.solver.search.policies import POLICIES

    return tuple(POLICIES)


def _simulate_policies() -> tuple[str, ...]:
    from tranquility.solver.search.lookahead import SIMULATE_POLICIES

    return SIMULATE_POLICIES


def _presets() -> tuple[str, ...]:
    from tranquility.solver.engine.rules import PRESETS

    return tuple(PRESETS)


def _suites() -> tuple[str, ...]:
    from tranquility.solver.batch.bench import ALL_SUITES

    return ALL_SUITES


@click.group(
    cls=Group,
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


def game_of(source: DealSource, file: str | None) -> tuple[Game, str | None]:
    """The deal or line to work on (seeded or FILE), checked against the rules: a deal or
    an action that breaks one is exit 2 here (only ``verify`` answers 1 for it). With
    FILE's name in messages (``DealSource.resolve``)."""
    game, file = source.resolve(file)
    return playable(game, file), file


def prefix_of(game: Game) -> int:
    return len(game.actions) if isinstance(game, Line) else 0


# -- deal, verify, show, rules ----------------------------------------------------------


@main.command(
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


@main.command(
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
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@position_option
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


@main.command(
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
            click.echo(position_text(verdict.state))
        click.echo(dump_json(data))
    else:
        render_show(make_console(), file, game, verdict.state, turn, piles=not hide_piles, puzzle=puzzle)


@main.command(
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


# -- solving ----------------------------------------------------------------------------

REPRODUCIBLE = (
    "Same verdict and line on every run and machine: fixed node budgets and 60 s of CP-SAT "
    "deterministic time on one thread, in place of --time-limit and --workers (which it does not take)."
)


@main.command(
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
    type=click.Choice(METHODS),
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
    from tranquility.solver.analysis.solve import solve as run_solve

    given, file = source.resolve(file)
    game = checked(given, file)  # replayed once: the solve starts from its state
    budget = replace(limits.budget(), proof=proof)
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


@main.command(
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
@objective_option(
    "Which line is best: spare = most cards left at the win; turns; cost; any = the first win.", Objective.SPARE
)
@solver_options(
    "the whole command: the line (found, then improved), then --critical-time of it for the "
    "critical-move checks; for an unwinnable deal, the proof, the best reach and what binds",
    default=90.0,
    reproducible="The verdict, the line and its value are the same on every run (the solve of "
    "solve --reproducible, in place of --time-limit and --workers); the critical-move checks still "
    "get --critical-time seconds, so their labels can differ between runs.",
    workers="CP-SAT threads of the line's solve (each critical-move check uses one).",
)
@click.option(
    "--critical-time",
    type=SECONDS,
    metavar="SECONDS",
    help="Seconds of --time-limit for the critical-move checks [default: a third of --time-limit; 30 with --reproducible].",
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
# Over 60 lines: a command whose two time budgets are checked against each other here.
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
    from tranquility.solver.analysis.explain import explain as run_explain

    total = None if limits.reproducible else limits.seconds
    if critical_time is None:
        critical_time = 30.0 if total is None else total / 3
    elif total is not None and critical_time >= total:
        raise usage_error(
            f"--critical-time {critical_time:g} leaves no time for the line: give less than --time-limit ({total:g} s)"
        )
    line_seconds = None if total is None else total - critical_time
    budget = replace(Limits(line_seconds, limits.workers, limits.reproducible).budget(), proof=proof)
    game, file = game_of(source, file)
    explained = run_with_status(
        "explaining",
        file,
        lambda progress: run_explain(
            game,
            objective=Objective(objective),
            budget=budget,
            critical_budget=critical_time,
            progress=progress,
            total=total,
        ),
        quiet=as_json,
        total=total,
    )
    data = explained.to_json()
    if out is not None:
        write_out(out, data, force)
        click.echo(f"wrote {out}", err=True)
    if html_out is not None:
        from .html import replay_html

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


@main.command(
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
--samples worlds dealt to fit the mover's memory; a mistake is a move whose
best alternative's 95% interval lies wholly above its own. A lost win is a
mistake if an examined turn up to it is one, else bad luck (docs/explain.md,
"Fair analysis"). Ctrl-C during it prints what was decided, then exits 130.

{exit_line()}"""
)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@position_option
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
@samples_option("--fair: worlds dealt per examined turn, each move played out once in each [default: 24].")
@click.option(
    "--sim-seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    metavar="S",
    help="--fair: seed of the worlds (with the turn and the seat).",
)
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
    game, read = file_or_position(file, position_text)
    file = None if read is None else read.name
    game = playable(game, file)
    line = as_line(game)
    budget = limits.budget()
    analysis = run_with_status("analysing", file, lambda progress: run_analyze(line, budget, progress=progress), quiet=as_json)
    if not fair_mode:
        if html_out is not None:
            from .html import analysis_html

            write_html(html_out, analysis_html(line, analysis.to_json()))
        deliver(analysis.to_json(), out, force, as_json, lambda: render_analysis(make_console(), analysis))
        return
    from tranquility.solver.analysis.fair import DEFAULT_TURNS, FAIR_SAMPLES, fair_analysis

    others = DEFAULT_TURNS if turns is None else None if turns == "all" else int(turns)
    fair = run_with_status(
        "fair analysis",
        file,
        lambda progress: fair_analysis(analysis, others, samples or FAIR_SAMPLES, sim_seed, progress),
        quiet=as_json,
    )
    data = fair.to_json()
    if html_out is not None:
        from .html import analysis_html

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


@main.command(
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


# -- bench --------------------------------------------------------------------------------


@main.command(
    epilog=f"""\b
Examples:
  tranquility bench --suite official --deals 20
  tranquility bench --suite positions --time-limit 10 --json --out bench.json   # about 20 s
  tranquility bench --suite official --deals 5 --reproducible --markdown
  tranquility bench --suite explain --deals 3 --time-limit 120   # about 10 min
  tranquility bench --suite optimal --deals 3 --time-limit 30     # about 6 min
  tranquility bench --suite optimal --players 2-3 --time-limit 60 # the 2-3 player half: about 25 min
  tranquility bench --suite puzzles --deals 20                   # about 30 s
  tranquility bench --suite table --workers 2                    # about 1.5 h
  tranquility bench --suite table --players 2 --deals 3 --samples 2 --budgets 1,2 --json
  tranquility bench --suite fair --workers 2 --out fair.json --markdown   # about 1 h on 2 cores
\b
--suite puzzles grades with the grader's fixed budgets: it takes no --time-limit,
--workers or --reproducible. --suite explain takes --time-limit (each explain's
line; its critical-move checks get half as much again) but not --workers or
--reproducible. --suite table plays games, solving none: it takes no --time-limit
or --reproducible, and --workers N plays N games side by side in processes;
--samples, --budgets and --budget-deals are its own. --suite fair finds thrifty's
lost games (--deals N, at 4 players unless --players) and plays lookahead's
(--own-deals M), then judges each by the perfect and the fair analysis of
analyze --fair (--time-limit per position, default 10; --samples worlds per
move); --workers N plays N games side by side; no --reproducible. With --out,
each game done is kept in PATH.part: a rerun goes on from it. docs/performance.md.

{exit_line()}"""
)
@click.option(
    "--suite",
    type=LazyChoice(_suites),
    default="official",
    show_default=True,
    help="explain = per player count: explain time, best spare proven optimal, critical claims proven, analyze decided; "
    "optimal = per player count: solve --objective turns and spare, proven share, gap, which method gave bound and line; "
    "puzzles = per player count and grade: grading and generating seconds; "
    "table = lookahead against thrifty at the silent table: win rates, budgets, modes, beliefs, CPU s a decision; "
    "fair = the fair analysis over many games: thrifty's lost wins called mistakes or bad luck, and the share of "
    "lookahead's own moves called mistakes.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    metavar="N",
    help="Seeds per group (default: the suite's own: official 200, variants 50, positions 25, modules 50, "
    "explain 50, optimal 15, puzzles 50, table 50; fair: lost thrifty games to judge, 100).",
)
@click.option(
    "--players",
    type=PlayerRange(),
    help="Only these of the suite's player counts: 4, a range (2-3) or a list (2,4) [default: all of them: "
    "official, all and puzzles 1-5, variants and modules 1, 2 and 4, positions, explain and optimal 2-5; "
    "table: its rates 1-5, its other sections 2 and 4, and every section at the counts given; fair: 4].",
)
@solver_options(
    "each case: one solve (official, variants, positions, modules, all), or one explain's line (explain); "
    "fair: each position of a game's perfect analysis, 10 unless given",
    reproducible="Fixed node budgets and CP-SAT deterministic time in place of --time-limit and --workers: "
    "decided shares that do not depend on the machine (the seconds are still measured).",
    workers="CP-SAT threads of each solve; with --suite table or fair, processes playing its games side by side "
    "(1 unless given).",
)
@samples_option(
    "--suite table: lookahead's worlds per round in the rates, modes and beliefs [default: 6]; "
    "--suite fair: the fair analysis's worlds per move [default: 24]."
)
@click.option(
    "--budgets",
    callback=lambda ctx, param, value: _counts(value, param),
    metavar="N,N,N",
    help="--suite table: lookahead's worlds per round in the budgets section "
    "[default: 6,24,96: each costs about four times the one before].",
)
@click.option(
    "--budget-deals",
    type=click.IntRange(min=1),
    metavar="N",
    help="--suite table: the budgets section plays seeds 0..N-1 (at most --deals) [default: 10].",
)
@click.option(
    "--silent-deals",
    type=click.IntRange(min=1),
    metavar="N",
    help="--suite table: the silent section (thrifty against tuned) plays seeds 0..N-1 [default: 1000].",
)
@click.option(
    "--sections",
    callback=lambda ctx, param, value: _sections(value, param),
    metavar="NAME,...",
    help="--suite table: play only these sections (silent, rates, budgets, modes, beliefs) [default: all].",
)
@click.option(
    "--own-deals",
    type=click.IntRange(min=1),
    metavar="M",
    help="--suite fair: lookahead's games, seeds 0..M-1 at each player count, every turn judged [default: 20].",
)
@output_options("Also write the full report (every case) as JSON here.")
@click.option("--markdown", is_flag=True, help="Print the summary as a Markdown table (docs/performance.md).")
@json_option
@click.pass_context
# Over 60 lines: a command that picks one of its suites by its flags; each suite is a function.
def bench(
    ctx: click.Context,
    suite: str,
    deals: int | None,
    players: tuple[int, ...] | None,
    limits: Limits,
    samples: int | None,
    budgets: tuple[int, ...] | None,
    budget_deals: int | None,
    silent_deals: int | None,
    sections: tuple[str, ...] | None,
    own_deals: int | None,
    out: str | None,
    force: bool,
    markdown: bool,
    as_json: bool,
) -> None:
    """Time the solver on fixed seeded deals and positions (CLI start-up excluded).

    Per group and player count: decided share, verdict counts, which method decided,
    median / p90 / max seconds, and whether every win replayed. docs/performance.md
    explains the suites and records the measured table.
    """
    from tranquility.solver.batch.bench import (
        EXPLAIN_SUITE,
        FAIR_SUITE,
        OPTIMAL_SUITE,
        PUZZLES_SUITE,
        SUITE_PLAYERS,
        TABLE_SUITE,
        cases,
        markdown_table,
        run,
    )

    if as_json and markdown:
        raise usage_error("--json and --markdown do not mix; choose one")
    if suite not in (TABLE_SUITE, FAIR_SUITE):
        reject(ctx, {"samples": "--samples"}, "only taken by --suite table and --suite fair")
    if suite != TABLE_SUITE:
        table_only = ("budgets", "budget_deals", "silent_deals", "sections")
        reject(ctx, {name: "--" + name.replace("_", "-") for name in table_only}, "only taken by --suite table")
    if suite != FAIR_SUITE:
        reject(ctx, {"own_deals": "--own-deals"}, "only taken by --suite fair")
    else:
        reject(
            ctx,
            {"reproducible": "--reproducible"},
            "not taken by --suite fair: its perfect analysis has --time-limit seconds a position, "
            "and --workers is its processes",
        )
        from tranquility.solver.analysis.fair import FAIR_SAMPLES
        from tranquility.solver.batch.fair_bench import FAIR_TIME_LIMIT, LOST_DEALS, OWN_DEALS, PLAYERS, FairSettings
        from tranquility.solver.search.budget import Budget

        per_position = (limits.seconds if given(ctx, "time_limit") else None) or FAIR_TIME_LIMIT
        workers = limits.workers if given(ctx, "workers") else 1
        counts = (players or PLAYERS, deals or LOST_DEALS, own_deals or OWN_DEALS, samples or FAIR_SAMPLES)
        # One CP-SAT thread a position: the games' processes already fill the cores.
        fair = FairSettings(*counts, Budget(seconds=per_position, workers=1), workers)
        _bench_fair(fair, out, force, markdown, as_json)
        return
    if suite == TABLE_SUITE:
        reject(
            ctx,
            {"time_limit": "--time-limit", "reproducible": "--reproducible"},
            "not taken by --suite table: it plays games, solving none",
        )
        workers = limits.workers if given(ctx, "workers") else 1
        table = (players, deals, samples, budgets, budget_deals, workers, silent_deals, sections)
        _bench_table(table, out, force, markdown, as_json)
        return
    if players is not None:
        missing = [str(p) for p in players if p not in SUITE_PLAYERS[suite]]
        if missing:
            plays = ", ".join(map(str, SUITE_PLAYERS[suite]))
            raise usage_error(f"--players: --suite {suite} has no {' or '.join(missing)}-player deals (it plays {plays})")
    if suite == PUZZLES_SUITE:
        reject(
            ctx,
            {"time_limit": "--time-limit", "workers": "--workers", "reproducible": "--reproducible"},
            "not taken by --suite puzzles: the grader has fixed, deterministic budgets",
        )
    elif suite == EXPLAIN_SUITE:
        reject(
            ctx,
            {"workers": "--workers", "reproducible": "--reproducible"},
            "not taken by --suite explain: it measures explain with its own defaults (2 threads, budgets in seconds)",
        )
    seconds = limits.seconds
    assert seconds is not None  # bench's --time-limit has a default
    chosen = SUITE_PLAYERS[suite] if players is None else players
    if suite == EXPLAIN_SUITE:
        _bench_explain(deals, chosen, seconds, out, force, markdown, as_json)
        return
    if suite == PUZZLES_SUITE:
        _bench_puzzles(deals, chosen, out, force, markdown, as_json)
        return
    if suite == OPTIMAL_SUITE:
        _bench_optimal(deals, chosen, limits, out, force, markdown, as_json)
        return
    total = sum(1 for _ in cases(suite, deals, players))
    with progress_bar(make_console(stderr=True), as_json) as progress:
        task = progress.add_task(f"bench {suite}", total=total)
        decided = [0]

        def on_case(case, outcome) -> None:
            decided[0] += outcome.verdict != "unknown"
            said = f"{case.group} {case.players}p seed {case.seed}: {outcome.verdict} by {outcome.method}"
            progress.update(task, advance=1, description=f"bench {suite}: {decided[0]} decided; last {said}")

        report = run(suite, deals, seconds, limits.workers, on_case=on_case, reproducible=limits.reproducible, players=players)
    if out is not None:
        write_out(out, report.to_json(), force)
    if as_json:
        click.echo(dump_json(report.to_json(cases=False)))
    elif markdown:
        click.echo(markdown_table(report))
    else:
        render_bench(make_console(), report)
    _stopped_by_ctrl_c(report.interrupted)


def _stopped_by_ctrl_c(interrupted: bool) -> None:
    """After a bench report: exit 130 when Ctrl-C stopped the run (the report says so too)."""
    if interrupted:
        click.echo("Interrupted: the report covers the cases done so far.", err=True)
        raise click.exceptions.Exit(INTERRUPTED)


def _bench_explain(
    deals: int | None, players: tuple[int, ...], time_limit: float, out: str | None, force: bool, markdown: bool, as_json: bool
) -> None:
    """The explain suite: each explain gets --time-limit for its line and half that for the
    critical moves; analyze gets 10 s per position (docs/performance.md measures them so)."""
    from tranquility.solver.batch.bench import EXPLAIN_SUITE, SuiteReport, explain_markdown, run_explain_suite

    from .render import render_explain_bench

    per_count = (deals or 50) + min(deals or 20, 20)  # explains, then analyzes, per player count 2-5
    with progress_bar(make_console(stderr=True), as_json) as progress:
        on_step = _stepper(progress, "bench explain", len(players) * per_count)
        rows, interrupted = _rows_or_partial(
            lambda: run_explain_suite(deals, time_limit, time_limit / 2, 10.0, on_step=on_step, players=players)
        )
    report = SuiteReport(EXPLAIN_SUITE, rows, time_limit, interrupted)
    _report(report, lambda: explain_markdown(rows), render_explain_bench, out, force, markdown, as_json)


def _bench_optimal(
    deals: int | None, players: tuple[int, ...], limits: Limits, out: str | None, force: bool, markdown: bool, as_json: bool
) -> None:
    """The optimal suite: solve --objective turns and spare on official seeds
    0-14 (--deals N) for 2-5 players (--players), --time-limit seconds each."""
    from tranquility.solver.batch.bench import (
        OPTIMAL_DEALS,
        OPTIMAL_OBJECTIVES,
        OPTIMAL_SUITE,
        SuiteReport,
        optimal_markdown,
        run_optimal_suite,
    )

    seconds = limits.seconds
    assert seconds is not None  # bench's --time-limit has a default
    steps = len(players) * (deals or OPTIMAL_DEALS) * len(OPTIMAL_OBJECTIVES)
    with progress_bar(make_console(stderr=True), as_json) as progress:
        rows, interrupted = _rows_or_partial(
            lambda: run_optimal_suite(
                deals,
                seconds,
                limits.workers,
                limits.reproducible,
                players=players,
                on_step=_stepper(progress, "bench optimal", steps),
            )
        )
    report = SuiteReport(OPTIMAL_SUITE, rows, seconds, interrupted)
    table = optimal_markdown(rows)
    _report(report, lambda: table, lambda console, _: console.print(table), out, force, markdown, as_json)


def _bench_puzzles(
    deals: int | None, players: tuple[int, ...], out: str | None, force: bool, markdown: bool, as_json: bool
) -> None:
    """The puzzles suite: grade official seeds 10000.. per player count (default 50)."""
    from tranquility.puzzles.timing import puzzle_markdown, run_puzzle_suite
    from tranquility.solver.batch.bench import PUZZLES_SUITE, SuiteReport

    from .render import render_puzzle_bench

    with progress_bar(make_console(stderr=True), as_json) as progress:
        rows = run_puzzle_suite(
            deals or 50, on_step=_stepper(progress, "bench puzzles", len(players) * (deals or 50)), players=players
        )
    report = SuiteReport(PUZZLES_SUITE, rows)
    _report(report, lambda: puzzle_markdown(rows), render_puzzle_bench, out, force, markdown, as_json)


def _sections(value: str | None, param: click.Parameter) -> tuple[str, ...] | None:
    """``silent,rates``: names of the table suite's sections (None when not given)."""
    from tranquility.solver.batch.table_bench import SECTIONS

    if value is None:
        return None
    names = tuple(dict.fromkeys(v.strip() for v in value.split(",")))
    unknown = [n for n in names if n not in SECTIONS]
    if unknown or not names:
        raise click.BadParameter(f"{unknown[0] if unknown else value!r}: sections are {', '.join(SECTIONS)}", param=param)
    return names


def _counts(value: str | None, param: click.Parameter) -> tuple[int, ...] | None:
    """``12,32,128``: positive whole numbers, as a tuple (None when not given)."""
    if value is None:
        return None
    parts = [part.strip() for part in value.split(",")]
    if not all(part.isdigit() and int(part) > 0 for part in parts):
        raise click.BadParameter(f"{value!r} is not a list of positive whole numbers (12,32,128)", param=param)
    return tuple(int(part) for part in parts)


def _bench_table(options: tuple, out: str | None, force: bool, markdown: bool, as_json: bool) -> None:
    """The table suite: the silent policies and lookahead, each game played once, on
    ``workers`` processes; --out gets every game too."""
    from tranquility.solver.batch.table_bench import (
        BUDGET_DEALS,
        BUDGETS,
        DEALS,
        SILENT_DEALS,
        TableSettings,
        run_table_suite,
        table_markdown,
    )
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES

    from .render import render_table_bench

    players, deals, samples, budgets, budget_deals, workers, silent_deals, sections = options
    settings = TableSettings(
        players,
        deals or DEALS,
        samples or DEFAULT_SAMPLES,
        budgets or BUDGETS,
        budget_deals or BUDGET_DEALS,
        workers,
        silent_deals or SILENT_DEALS,
        sections or (),
    )
    with progress_bar(make_console(stderr=True), as_json) as progress:
        task = progress.add_task("bench table", total=len(settings.cases()))

        def on_game(game, done: int, total: int) -> None:
            case, said = game.case, "cut short" if game.interrupted else "won" if game.won else "lost"
            said = f"{case.arm.name} {case.players}p seed {case.seed} {said}"
            progress.update(task, completed=done, description=f"bench table: last {said}")

        report = run_table_suite(settings, on_game)
    if out is not None:
        write_out(out, report.to_json(games=True), force)
    _print_report(report, lambda: table_markdown(report), render_table_bench, markdown, as_json)
    _stopped_by_ctrl_c(report.interrupted)


def _bench_fair(settings, out: str | None, force: bool, markdown: bool, as_json: bool) -> None:
    """The fair suite (``FairSettings``), on its ``workers`` processes. With --out, a journal
    beside it keeps every game done; the report is written there once every game is, and
    the journal removed."""
    from tranquility.solver.batch.fair_bench import fair_markdown, journal_path, run_fair_suite

    from .render import render_fair_bench

    journal = None if out is None else journal_path(out)
    with progress_bar(make_console(stderr=True), as_json) as progress:
        task = progress.add_task("bench fair: finding thrifty's lost games", total=None)

        def on_game(game, done: int, total: int) -> None:
            case = game.case
            said = "cut short" if game.interrupted else game.judgement
            said = f"{case.section} {case.players}p seed {case.seed} {said}"
            progress.update(task, completed=done, total=total, description=f"bench fair: last {said}")

        report = run_fair_suite(settings, on_game, journal)
    if out is not None and journal is not None:
        if report.complete:
            write_out(out, report.to_json(games=True), force)
            journal.unlink(missing_ok=True)
        else:
            kept = len(report.games) - report.cut_short
            said = f"{out} not written yet: {journal} keeps the {kept} game(s) done; the same command plays the rest."
            click.echo(said, err=True)
    _print_report(report, lambda: fair_markdown(report), render_fair_bench, markdown, as_json)
    _stopped_by_ctrl_c(not report.complete)


def _rows_or_partial(measure: Callable[[], list]) -> tuple[list, bool]:
    """A row suite's rows, and whether Ctrl-C stopped it (then the rows of the cases done)."""
    from tranquility.solver.batch.bench import SuiteInterrupted

    try:
        return measure(), False
    except SuiteInterrupted as stopped:
        return stopped.rows, True


def _stepper(progress, label: str, total: int):
    """An ``on_step`` for a suite that names each step as it starts: the bar counts the
    steps done and shows the one under way."""
    task = progress.add_task(label, total=total)
    started = [0]

    def on_step(text: str) -> None:
        progress.update(task, completed=started[0], description=f"{label}: {text}")
        started[0] += 1

    return on_step


def _report(report, markdown_text, render, out: str | None, force: bool, markdown: bool, as_json: bool) -> None:
    """A row suite's report: --out gets the JSON; stdout the JSON, the Markdown table or
    the readable table."""
    if out is not None:
        write_out(out, report.to_json(), force)
    _print_report(report, markdown_text, render, markdown, as_json)
    _stopped_by_ctrl_c(report.interrupted)


def _print_report(report, markdown_text, render, markdown: bool, as_json: bool) -> None:
    """A suite's report on stdout: the JSON, the Markdown table or the readable table."""
    if as_json:
        click.echo(dump_json(report.to_json()))
    elif markdown:
        click.echo(markdown_text())
    else:
        render(make_console(), report)


# -- simulate -------------------------------------------------------------------------------


@main.command(
    epilog=f"""\b
Examples:
  tranquility simulate --seed 1 --players 4
  tranquility simulate --seed 1 --players 4 --policy greedy --out line.json
  tranquility deal --seed 2 --players 3 --out deal.json
  tranquility simulate deal.json --policy random --sim-seed 7 --json
  tranquility simulate --players 3 --deals 50 --policy cautious
  tranquility simulate --players 2 --deals 20 --rules hungarian --json
  tranquility simulate --seed 1 --players 4 --policy lookahead --samples 4
  tranquility simulate --seed 1 --players 4 --policy lookahead --lookahead-seat 0
\b
Policies (docs/simulate.md): tuned, cautious, thrifty, greedy, wavering, random. Each seat
sees only its own hand, the grid and public counts; the Start event's discards are
split by a fixed public rule, each seat choosing its own cards. lookahead also
remembers what its seat saw and tries thrifty's best moves in worlds dealt to fit it.

{exit_line("it ran (won or lost)")}"""
)
@deal_source
@game_file_argument
@click.option(
    "--policy",
    type=LazyChoice(_simulate_policies),
    default="tuned",
    show_default=True,
    help="How every seat plays (docs/simulate.md): tuned, the strongest cheap one, by default.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    metavar="K",
    help="Play the seeded deals 0..K-1 (with --players, --rules/--rule) and print the win rate.",
)
@output_options("Write the played line here (tranquility-line/1), won or lost.")
@click.option(
    "--sim-seed",
    type=click.IntRange(0, 2**64 - 1),
    default=0,
    show_default=True,
    help="Seed of the policy's own random choices (wavering, random, and lookahead's worlds; the others do not randomise).",
)
@samples_option(
    "lookahead: worlds dealt per round of successive halving, the moves still in played out once in each [default: 6]."
)
@click.option(
    "--lookahead-seat",
    type=click.IntRange(min=0),
    metavar="K",
    help="lookahead: only seat K looks ahead; the other seats play thrifty [default: every seat looks ahead].",
)
@json_option
def simulate(
    source: DealSource,
    file: str | None,
    policy: str,
    deals: int | None,
    sim_seed: int,
    samples: int | None,
    lookahead_seat: int | None,
    out: str | None,
    force: bool,
    as_json: bool,
) -> None:
    """Play a deal the way a silent table would, with one named policy at every seat.

    Each seat sees only its own hand, the grid and what everyone can see (hand and pile
    counts, how many cards lie face down on the discard pile, whether a Start was played).
    Prints the played line, won or lost; with --deals, the policy's win rate.
    """
    from tranquility.solver.engine.deal import DealError, check_players
    from tranquility.solver.engine.rules import Rules
    from tranquility.solver.formats.codecs import line_to_json
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES, Lookahead
    from tranquility.solver.search.policies import Policy, Tuned, win_rate
    from tranquility.solver.search.policies import simulate as run_simulate
    from tranquility.solver.search.weights import weights_for

    from .render import render_simulation, render_win_rate

    def player(players: int, rules: Rules) -> str | Policy:
        """The policy by name, or the lookahead policy made with its options."""
        if policy == Tuned.name and (note := weights_for(rules, players)[1]) is not None:
            click.echo(note, err=True)
        if policy != Lookahead.name:
            return policy
        if lookahead_seat is not None and lookahead_seat >= players:
            raise usage_error(f"--lookahead-seat {lookahead_seat}: the game has seats 0..{players - 1}")
        return Lookahead(sim_seed, samples or DEFAULT_SAMPLES, lookahead_seat)

    if policy != Lookahead.name:
        for flag, value in (("--samples", samples), ("--lookahead-seat", lookahead_seat)):
            if value is not None:
                raise usage_error(f"{flag} goes with --policy lookahead; {policy} does not sample")
    if deals is not None:
        if file is not None or source.seed is not None:
            raise usage_error("--deals plays the seeded deals 0..K-1: give --players P, not --seed or FILE")
        if source.players is None:
            raise usage_error("missing option --players: --deals K needs --players P")
        if out is not None:
            raise usage_error("--out writes one game's line; it does not go with --deals")
        rules = source.rules()
        try:
            check_players(rules, source.players)
        except DealError as exc:
            raise usage_error(f"cannot deal: {exc}") from None
        with progress_bar(make_console(stderr=True), as_json) as progress:
            task = progress.add_task(f"simulate {policy}", total=deals)
            stats = win_rate(
                rules, source.players, deals, player(source.players, rules), sim_seed, on_deal=lambda n, r: progress.advance(task)
            )
        if as_json:
            click.echo(dump_json(stats.to_json()))
        else:
            render_win_rate(make_console(), stats)
        return
    game, file = game_of(source, file)
    table = player(as_line(game).deal.players, as_line(game).deal.rules)
    try:
        result = run_simulate(game, table, sim_seed)
    except BadInput as exc:
        raise input_error(file, exc) from None
    if out is not None:
        write_out(out, line_to_json(result.line), force)
        click.echo(f"wrote {out} ({'won' if result.won else 'lost'} after {result.turns} turn(s))", err=True)
    if as_json:
        click.echo(dump_json(result.to_json()))
    else:
        render_simulation(make_console(), result, prefix_of(game))


# -- puzzles --------------------------------------------------------------------------------


@main.command(
    epilog=f"""\b
Examples:
  tranquility grade --seed 3 --players 4
  tranquility generate --players 4 --grade 3 --out my-puzzles
  tranquility grade my-puzzles/tq1-4p-8cf48077-0.json --json
  tranquility deal --seed 5 --players 2 --out deal.json
  tranquility grade deal.json
  tranquility grade --seed 6 --players 2 --time-limit 30 --workers 2

By default the grade is deterministic: fixed seeds and budgets, no clock, the same on
every run and machine (the catalogue's grades depend on it). --time-limit S (with
--workers N) gives the proving solve S seconds on N threads instead; only a deal that no
greedy playout wins needs that solve, and its grade is then marked not reproducible.
Definition and calibration: docs/puzzles.md.

{exit_line("graded", "not graded (no win, or not proven winnable within the budget)")}"""
)
@deal_source
@game_file_argument
@solver_options(
    "the proving solve, which only a deal no greedy playout wins needs; the grade is then not "
    "reproducible [default: the grader's deterministic budget]",
    default=None,
    reproducible="The default, said explicitly: the proving solve has fixed budgets (no clock), "
    "so the grade is the same on every run and machine.",
    workers="CP-SAT threads of the proving solve (only with --time-limit).",
)
@output_options("Write the grading here, as --json prints it (written also when the deal is not graded).")
@json_option
def grade(source: DealSource, file: str | None, limits: Limits, out: str | None, force: bool, as_json: bool) -> None:
    """Grade a deal as a puzzle, 1 (easy) to 5 (expert), with every metric behind it.

    The grade measures how precise the winning play must be under perfect information
    (all cards face up): how often a fixed greedy policy wins, how many first moves keep
    the win, how many spare cards the best line found keeps. It is deterministic (fixed
    seeds and budgets, no clock) and given only to a deal proven winnable. Beside it: how
    often silent tables (tranquility simulate's policies) win the deal.
    """
    from tranquility.puzzles.generate import puzzle_id
    from tranquility.puzzles.grade import PROOF_BUDGET
    from tranquility.puzzles.grade import grade as run_grade
    from tranquility.solver.engine.deal import Deal

    from .render import render_grading

    game, file = source.resolve(file)
    if isinstance(game, Line):
        raise InputError(f"{file}: grade takes a deal or puzzle file, not a line file (a puzzle starts from a deal)")
    playable(game, file)
    proof = limits.budget(PROOF_BUDGET)
    grading = run_with_status("grading", file, lambda progress: run_grade(game, proof=proof), quiet=as_json)
    seeded = game if isinstance(game, Deal) and game.seed is not None else None
    deliver(
        grading.to_json(game),
        out,
        force,
        as_json,
        lambda: render_grading(make_console(), grading, game, None if seeded is None else puzzle_id(seeded)),
    )
    if grading.grade is None:
        raise SystemExit(1)


@main.command(
    epilog=f"""\b
Examples:
  tranquility generate --players 1 --grade 5
  tranquility generate --players 4 --grade 3 --count 10 --out my-puzzles --with-solutions
  tranquility generate --players 2 --grade 2 --start-seed 1000 --json

Each puzzle is the deal file (tranquility-deal/1) plus a "puzzle" block: id, grade, score,
metrics, grader. Ids: tq1-<players>p-<first 8 hex of the rules hash>-<seed>. Grading is
deterministic (the grader's fixed budgets), so the same options always find the same
puzzles. Grades and their calibration: docs/puzzles.md.

{exit_line("found --count puzzles", "fewer found than asked within --max-seeds seeds")}"""
)
@click.option("--players", type=click.IntRange(1, 5), required=True, help="Number of seats (1 to 5).")
@click.option("--grade", "wanted", type=click.IntRange(1, 5), required=True, help="The grade wanted, 1 (easy) to 5 (expert).")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True, help="How many puzzles to find.")
@deal_source(seeded=False)
@output_options(
    "Write <id>.json files into this directory (created if missing).", directory=True, overwrite="existing puzzle files"
)
@click.option("--start-seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True, help="First seed to try.")
@click.option(
    "--max-seeds", type=click.IntRange(min=1), default=10_000, show_default=True, help="Give up after trying this many seeds."
)
@click.option(
    "--with-solutions",
    is_flag=True,
    help='Also write <id>.solution.json (a winning line) beside each puzzle; with --json, add it as "solution".',
)
@json_option
# Over 60 lines: a command; most of it is its flags' checks, each with its own message.
def generate(
    players: int,
    wanted: int,
    count: int,
    source: DealSource,
    out: str | None,
    force: bool,
    start_seed: int,
    max_seeds: int,
    with_solutions: bool,
    as_json: bool,
) -> None:
    """Find deals of a chosen grade by grading seeds START, START+1, ... in turn.

    Prints each puzzle found (id, grade, score); with --out writes the puzzle files. The
    same options always find the same puzzles. Stops with exit 1 when --max-seeds seeds
    did not hold --count puzzles of the grade.
    """
    from tranquility.puzzles.generate import generate as run_generate
    from tranquility.solver.engine.deal import DealError
    from tranquility.solver.engine.deal import deal as seeded_deal
    from tranquility.solver.formats.codecs import line_to_json

    if with_solutions and out is None and not as_json:
        raise usage_error("--with-solutions writes each solution beside its puzzle: give --out DIR (or --json)")
    rules = source.rules()
    try:
        seeded_deal(rules, players, start_seed).check()
    except DealError as exc:
        raise usage_error(f"cannot deal: {exc}") from None
    directory = Path(out) if out is not None else None
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise input_error(out, exc) from None
    found = []
    with progress_bar(make_console(stderr=True), as_json) as progress:
        task = progress.add_task(f"{players}p grade {wanted}: seed {start_seed}; found", total=count)

        def on_seed(seed: int, graded) -> None:
            tried = seed - start_seed + 1
            said = f"{players}p grade {wanted}: seed {seed} is grade {graded.grade or '-'}; {tried} tried; found"
            progress.update(task, description=said)

        for puzzle in run_generate(rules, players, {wanted}, count, start_seed, max_seeds, on_seed):
            found.append(puzzle)
            progress.advance(task)
            if directory is not None:
                try:
                    paths = puzzle.write(directory, with_solutions, force)
                except INPUT_ERRORS as exc:
                    raise input_error(out, exc) from None
                progress.console.print(f"wrote {', '.join(map(str, paths))}")
    if as_json:
        data = []
        for p in found:
            item = p.to_json()
            if with_solutions:
                item["solution"] = line_to_json(p.solution)
            data.append(item)
        click.echo(dump_json(data))
    else:
        for p in found:
            click.echo(f"{p.id}  grade {p.grading.grade}  score {p.grading.score:.3f}")
    if len(found) < count:
        click.echo(f"found {len(found)} of {count} grade-{wanted} puzzle(s) in {max_seeds} seeds from {start_seed}", err=True)
        raise SystemExit(1)


# -- play and the catalogue ---------------------------------------------------------------------


@main.command(
    epilog=f"""\b
Examples:
  tranquility play --seed 1 --players 2
  tranquility play --puzzle tq1-1p-8cf48077-2
  tranquility simulate --seed 3 --players 4 --out line.json
  tranquility play line.json --hint-time 5
  tranquility play --puzzle tq1-1p-8cf48077-2 --web --port 8080
  tranquility play --seed 1 --players 3 --seat 1 --bots thrifty
\b
FILE is a deal, line, puzzle or notation file (not -: standard input is the
keyboard here); play goes on where its line stops. Type moves in the notation
(docs/notation.md) or pick them from the list; type help on the board for its
commands and keys. With --web the same board is a web page, a game of its own
for each browser connection, until Ctrl-C. With --seat K you play seat K at a
table of bots: your own hand alone is face up until the game ends. docs/play.md.

{exit_line("the board was closed")}
2 also without a terminal to draw on (except with --web)."""
)
@deal_source
@game_file_argument
@click.option("--puzzle", "puzzle_id", metavar="ID", help="Play a shipped catalogue puzzle (tranquility puzzles lists them).")
@click.option(
    "--hint-time",
    type=SECONDS,
    default=2.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds for each hint's solve (and each solve of the check after a move, and each position of the post-game analysis).",
)
@click.option(
    "--objective",
    type=click.Choice(OBJECTIVES),
    default=None,
    help="Which win a hint's best next move heads for (as in tranquility solve) [default: spare in a puzzle, else any].",
)
@click.option(
    "--no-check",
    "no_check",
    is_flag=True,
    help="Do not solve after every move whether it threw the win away (ctrl+n on the board turns the check on and off).",
)
@click.option(
    "--web",
    is_flag=True,
    help="Serve the board as a web page instead, a game for each browser connection, until Ctrl-C "
    "(needs textual-serve: pip install 'tranquility-solver[web]').",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="With --web: the address to serve on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="With --web: the port (0: a free one)."
)
@click.option(
    "--seat",
    type=click.IntRange(min=0),
    metavar="K",
    help="Play seat K (from 0) at a table: you see your own hand only, bots play the other seats; "
    "every card is face up once the game is over.",
)
@click.option(
    "--bots",
    type=LazyChoice(_simulate_policies),
    default="tuned",
    show_default=True,
    help="With --seat: how the bots play (simulate's policies, docs/simulate.md).",
)
@click.option(
    "--bot-delay",
    type=Seconds(zero=True),
    default=0.8,
    show_default=True,
    metavar="SECONDS",
    help="With --seat: the pause between the bots' moves (0: none).",
)
@click.option(
    "--hint-samples",
    type=click.IntRange(min=1),
    default=8,
    show_default=True,
    metavar="N",
    help="With --seat: worlds each of your moves is played out in for the fair hint.",
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
    host: str,
    port: int,
    seat: int | None,
    bots: str,
    bot_delay: float,
    hint_samples: int,
) -> None:
    """Play a game on an interactive board: every card face up, the legal moves and their
    costs, undo and redo, save and load, hints from the solver, the post-game analysis;
    with --seat, one seat at a table of bots, its own hand alone face up."""
    from tranquility.solver.analysis.table import Seating

    if seat is None:
        reject(ctx, {"bots": "--bots", "bot_delay": "--bot-delay", "hint_samples": "--hint-samples"}, "only taken with --seat")
    seating = None if seat is None else Seating(seat, bots, hint_samples=hint_samples)
    if web:
        from .web import serve_play

        serve_play(source, file, puzzle_id, host, port, seating)
        return
    reject(ctx, {"host": "--host", "port": "--port"}, "only taken with --web")
    from .play import run_play

    run_play(source, file, puzzle_id, hint_time, objective, not no_check, seating, bot_delay)


@main.command(
    name="puzzles",
    epilog=f"""\b
Examples:
  tranquility puzzles
  tranquility puzzles --players 1 --grade 5
  tranquility puzzles --rules official --json
  tranquility play --puzzle tq1-1p-8cf48077-2

{exit_line()}""",
)
@click.option("--players", type=click.IntRange(1, 5), help="Only the puzzles for this many seats.")
@click.option("--grade", type=click.IntRange(1, 5), help="Only the puzzles of this grade, 1 (easy) to 5 (expert).")
@click.option("--rules", "preset", type=LazyChoice(_presets), metavar="PRESET", help="Only the puzzles on this rule preset.")
@json_option
def list_puzzles(players: int | None, grade: int | None, preset: str | None, as_json: bool) -> None:
    """List the shipped puzzle catalogue: id, players, grade and rules of each puzzle."""
    from .catalogue import render_puzzles

    render_puzzles(players, grade, preset, as_json)


# -- odds -----------------------------------------------------------------------------------


ODDS_REPRODUCIBLE = (
    "Deterministic budgets for every solve (those of solve --reproducible), in place of --time-limit "
    "and --workers: two runs, or a local and a Dask run, store the same verdicts."
)
ODDS_SOLVING = {
    "players": "--players",
    "deals": "--deals",
    "start_seed": "--start-seed",
    "rules_spec": "--rules",
    "rule_overrides": "--rule",
    "time_limit": "--time-limit",
    "workers": "--workers",
    "reproducible": "--reproducible",
    "policies": "--policies",
    "policy_names": "--policy",
    "samples": "--samples",
    "jobs": "--jobs",
    "scheduler": "--scheduler",
    "scheduler_timeout": "--scheduler-timeout",
    "batch": "--batch",
    "retry_unknown": "--retry-unknown",
}


@main.command(
    epilog=f"""\b
Examples:
  tranquility odds --players 4 --deals 20 --reproducible
  tranquility odds --players 1-5 --deals 10000 --policies --db odds.sqlite        # hours
  tranquility odds --players 2-4 --deals 100 --policy lookahead --samples 12      # about 1 CPU hour
  tranquility odds --players 1-5 --deals 10000 --retry-unknown --time-limit 600   # hours
  tranquility odds --players 2-4 --deals 500 --scheduler tcp://10.0.0.5:8786
  tranquility odds --db odds.sqlite --report --plot odds.png
  tranquility odds --db odds.sqlite --report --markdown
\b
Every result is stored in --db (SQLite) as it comes: a run that is stopped, even
killed, finishes the rest when it is started again with the same options. The
interval counts unknowns as losses at its low end and as wins at its high end.
docs/odds.md.

{exit_line()}
130 after Ctrl-C also prints the summary of what was stored."""
)
@click.option("--players", type=PlayerRange(), help="A player count (4), a range of them (1-5) or a list (2,4).")
@click.option("--deals", type=click.IntRange(min=1), metavar="N", help="Seeded deals per player count: seeds START..START+N-1.")
@click.option(
    "--start-seed",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    metavar="START",
    help="The first seed (the deals are those of tranquility deal --seed S).",
)
@deal_source(seeded=False)
@solver_options(
    "each deal's solve",
    reproducible=ODDS_REPRODUCIBLE,
    workers="CP-SAT threads of each solve (--jobs runs that many solves side by side).",
    workers_default=1,
)
@click.option(
    "--policies",
    is_flag=True,
    help="Also play each deal once with every silent policy of tranquility simulate (sim seed = the deal's seed).",
)
@click.option(
    "--policy",
    "policy_names",
    multiple=True,
    type=LazyChoice(_simulate_policies),
    metavar="NAME",
    help="Also play each deal once with this policy of tranquility simulate (repeatable); lookahead is stored "
    "as lookahead:N, N its --samples, and its decisions are timed.",
)
@samples_option("With --policy lookahead: worlds per round [default: 6]; plays of each N are stored and shown apart.")
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="odds.sqlite",
    show_default=True,
    metavar="PATH",
    help="The SQLite database the results are added to (created if missing); what it holds is not solved again.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="Processes solving side by side, one deal each at a time [default: the number of cores].",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Send the work to the Dask distributed cluster at ADDRESS (tcp://HOST:PORT) instead of local processes.",
)
@click.option(
    "--scheduler-timeout",
    type=SECONDS,
    default=10,
    show_default=True,
    metavar="SECONDS",
    help="How long --scheduler's address may take to answer as a Dask scheduler before the run gives up (exit 2).",
)
@click.option(
    "--batch",
    type=click.IntRange(min=1),
    metavar="N",
    help="Deals per task [default: about four tasks per process or Dask thread, at most 10].",
)
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="Solve the stored unknowns again (with a longer --time-limit, say); a decided verdict replaces them.",
)
@click.option("--report", is_flag=True, help="Print the summary of everything --db holds, solving nothing.")
@json_option
@click.option("--markdown", is_flag=True, help="Print the summary as Markdown tables (docs/odds.md).")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Also draw winnability per player count with its interval, and the policies' rates (.png or .svg; "
    "redrawn on every run).",
)
@click.pass_context
# Over 60 lines: a command of 16 flags, each refused here in the order a user reads the errors;
# the work itself is the library's (run_odds, summarise).
def odds(
    ctx: click.Context,
    players: tuple[int, ...] | None,
    deals: int | None,
    start_seed: int,
    source: DealSource,
    limits: Limits,
    policies: bool,
    policy_names: tuple[str, ...],
    samples: int | None,
    db: str,
    jobs: int | None,
    scheduler: str | None,
    scheduler_timeout: float,
    batch: int | None,
    retry_unknown: bool,
    report: bool,
    as_json: bool,
    markdown: bool,
    plot: str | None,
) -> None:
    """Solve many seeded deals and estimate how often they can be won, per player count.

    Each deal's verdict (win, no-win, unknown), method, seconds and budget go into the
    SQLite database --db, one row per deal: a deal is solved once, and a run started
    again skips what is stored. Prints per rule set and player count: the verdicts,
    winnability with its 95% Wilson interval, median and p90 seconds, deals/s; with
    --policies or --policy, each policy's win rate beside perfect play, and lookahead's
    CPU seconds a decision.

    --json prints {"groups": [{"rules", "players", "deals", "win", "no_win",
    "unknown", "winnability", "ci95", "median_s", "p90_s", "policies"}],
    "deals_per_s"}.
    """
    from tranquility.solver.batch.odds_plot import check_plot_path
    from tranquility.solver.batch.odds_runner import check_odds, run_odds
    from tranquility.solver.batch.odds_store import OddsStore
    from tranquility.solver.batch.odds_summary import summarise
    from tranquility.solver.engine.deal import DealError

    from .odds_view import counts_text, odds_progress, players_text
    from .options import check_output

    if as_json and markdown:
        raise usage_error("--json and --markdown do not mix; choose one")
    if plot is not None:
        check_output(plot, force=True, flag="--plot")  # a drawing of the database: redrawn on every run
        try:
            check_plot_path(plot)
        except BadInput as exc:
            raise usage_error(str(exc)) from None
    if report:
        reject(ctx, ODDS_SOLVING, "not taken with --report: it summarises what --db holds, without solving")
        with OddsStore(db, create=False) as store:
            summary = summarise(store)
        _odds_output(summary, None, as_json, markdown, plot)
        return
    if players is None or deals is None:
        missing = "--players" if players is None else "--deals"
        raise usage_error(f"missing option {missing}: a run needs --players P and --deals N (or --report)")
    if scheduler is not None and jobs is not None:
        raise usage_error("--jobs sets the local processes; with --scheduler the cluster's workers do the work")
    if scheduler is None:
        reject(ctx, {"scheduler_timeout": "--scheduler-timeout"}, "only taken with --scheduler")
    rules = source.rules()
    seeds = range(start_seed, start_seed + deals)
    try:
        check_odds(rules, players, seeds)
    except DealError as exc:
        raise usage_error(f"cannot deal: {exc}") from None
    names = _odds_policies(policies, policy_names, samples)
    budget = limits.budget()
    executor, slots, executor_name, close = _odds_executor(scheduler, scheduler_timeout, jobs)  # before --db is created
    label = f"odds {players_text(players)}"
    try:
        with OddsStore(db) as store, odds_progress(make_console(stderr=True), as_json) as bar:
            task = bar.add_task(label, total=None)

            def on_start(step) -> None:
                bar.update(task, total=step.total, description=f"{label}: {counts_text(step.counts, step.plays)}")

            def on_batch(step) -> None:
                bar.update(task, completed=step.done, description=f"{label}: {counts_text(step.counts, step.plays)}")

            run = run_odds(
                store,
                rules,
                players,
                seeds,
                budget,
                executor,
                slots=slots,
                policies=names,
                retry_unknown=retry_unknown,
                batch=batch,
                executor_name=executor_name,
                on_start=on_start,
                on_batch=on_batch,
            )
            summary = summarise(store, run.scope, run.deals_per_s)
    finally:
        close()
    _odds_output(summary, run, as_json, markdown, plot)
    if run.interrupted:
        click.echo("Interrupted: what was stored is kept; the same command again finishes the rest.", err=True)
        ctx.exit(130)


def _odds_policies(policies: bool, names: tuple[str, ...], samples: int | None) -> tuple[str, ...]:
    """The stored names of the policies to play: the silent ones (``--policies``), then each
    ``--policy``, lookahead with its budget (``lookahead:N``)."""
    from tranquility.solver.batch.plays import SEARCHING, stored_name
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES

    if samples is not None and SEARCHING not in names:
        raise usage_error(f"--samples goes with --policy {SEARCHING}; no other policy samples worlds")
    wanted = [*(_policies() if policies else ()), *names]
    return tuple(dict.fromkeys(stored_name(n, (samples or DEFAULT_SAMPLES) if n == SEARCHING else None) for n in wanted))


def _odds_executor(scheduler: str | None, timeout: float, jobs: int | None):
    """(executor, slots, name, close): a local process pool of ``jobs`` (default: the
    cores), or the executor of a Dask client connected to ``scheduler`` once a Dask
    scheduler has answered there within ``timeout`` seconds."""
    from tranquility.solver.batch.odds_runner import default_jobs, local_executor

    if scheduler is None:
        count = jobs or default_jobs()
        pool = local_executor(count)
        return pool, count, "local", pool.shutdown
    try:
        from distributed import Client
    except ImportError:
        raise InputError(
            "--scheduler needs Dask's distributed, which is not installed: pip install 'tranquility-solver[cluster]'"
        ) from None
    from tranquility.solver.batch.dask_check import NoAnswer, check_scheduler

    try:
        address = check_scheduler(scheduler, timeout)
    except NoAnswer as exc:
        raise InputError(f"--scheduler {exc} (--scheduler-timeout)") from None
    except BadInput as exc:
        raise InputError(f"--scheduler {exc}") from None
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"--scheduler {scheduler}: cannot connect: {exc}") from None
    slots = sum(client.nthreads().values()) or 1
    executor = client.get_executor(pure=False)

    def close() -> None:
        executor.shutdown(wait=False)
        client.close()

    return executor, slots, f"dask {address}", close


def _odds_output(summary, run, as_json: bool, markdown: bool, plot: str | None) -> None:
    from tranquility.solver.batch.odds_plot import plot as draw
    from tranquility.solver.batch.odds_summary import odds_markdown

    from .odds_view import render_odds

    if plot is not None:
        try:
            draw(summary, plot)
        except OSError as exc:
            raise input_error(plot, exc) from None
        click.echo(f"wrote {plot}", err=True)
    if as_json:
        click.echo(dump_json(summary.to_json()))
    elif markdown:
        click.echo(odds_markdown(summary))
    else:
        render_odds(make_console(), summary, run)


# -- tune -------------------------------------------------------------------------------------

main.add_command(tune_command)
