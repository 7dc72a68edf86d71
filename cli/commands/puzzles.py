"""``grade``, ``generate`` and ``puzzles``: a deal graded as a puzzle, deals of a grade found, and the shipped catalogue."""

from __future__ import annotations

from pathlib import Path

import click
from tranquility.solver.engine.line import Line

from ..exits import InputError, exit_line
from ..game_input import INPUT_ERRORS, DealSource, checked, input_error, usage_error
from ..options import (
    SEED,
    LazyChoice,
    Limits,
    count_option,
    deal_source,
    game_file_argument,
    grade_option,
    json_option,
    output_options,
    players_option,
    solver_options,
)
from ..progress import progress_bar
from ..render.console import dump_json, make_console
from .common import deliver, run_with_status


@click.command(
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

    from ..render.verdicts import render_grading

    game, file = source.resolve(file)
    if isinstance(game, Line):
        raise InputError(f"{file}: grade takes a deal or puzzle file, not a line file (a puzzle starts from a deal)")
    checked(game, file)
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


@click.command(
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
@players_option("Number of seats (1 to 5).", required=True)
@grade_option("The grade wanted, 1 (easy) to 5 (expert).", dest="wanted", required=True)
@count_option("--count", "How many puzzles to find.", default=1)
@deal_source(seeded=False)
@output_options(
    "Write <id>.json files into this directory (created if missing).", directory=True, overwrite="existing puzzle files"
)
@click.option("--start-seed", type=SEED, default=0, show_default=True, help="First seed to try.")
@count_option("--max-seeds", "Give up after trying this many seeds.", default=10_000)
@click.option(
    "--with-solutions",
    is_flag=True,
    help='Also write <id>.solution.json (a winning line) beside each puzzle; with --json, add it as "solution".',
)
@json_option
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


def _presets() -> tuple[str, ...]:
    from tranquility.solver.engine.rules import PRESETS

    return tuple(PRESETS)


@click.command(
    name="puzzles",
    epilog=f"""\b
Examples:
  tranquility puzzles
  tranquility puzzles --players 1 --grade 5
  tranquility puzzles --rules official --json
  tranquility play --puzzle tq1-1p-8cf48077-2

{exit_line()}""",
)
@players_option("Only the puzzles for this many seats.")
@grade_option("Only the puzzles of this grade, 1 (easy) to 5 (expert).")
@click.option("--rules", "preset", type=LazyChoice(_presets), metavar="PRESET", help="Only the puzzles on this rule preset.")
@json_option
def list_puzzles(players: int | None, grade: int | None, preset: str | None, as_json: bool) -> None:
    """List the shipped puzzle catalogue: id, players, grade and rules of each puzzle."""
    from ..catalogue import render_puzzles

    render_puzzles(players, grade, preset, as_json)
