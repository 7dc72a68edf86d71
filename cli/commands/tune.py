"""``tranquility tune``: fit the ``tuned`` policy's weights for one player count."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import click

from ..exits import INTERRUPTED, exit_line
from ..game_input import input_error, usage_error
from ..options import count_option, deal_source, json_option, players_option
from ..progress import shown
from ..render.console import dump_json, make_console


@click.command(
    epilog=f"""\b
Examples:
  tranquility tune --players 2 --out weights.json
  tranquility tune --players 3 --generations 5 --population 6 --deals 50 --out w.json
  tranquility tune --players 4 --jobs 2 --journal tune-4p.jsonl --out weights.json --merge

CMA-ES (pycma) over the weights of docs/simulate.md's tuned policy: every candidate of a
generation plays the same training deals (seeds 1000000 up, a fresh block per generation;
never the evaluation seeds 0-999). The run is deterministic for its settings and --seed,
and every evaluation goes to --journal as it ends: a killed run, started again with the
same options, goes on where it stopped. At the end the run's best candidate and CMA-ES's
mean are re-tested beside thrifty on --validation fresh deals (seeds 5000000 up), and the
better is written to --out. To ship new weights, copy the file over
solver/search/tuned_weights.json.

{exit_line("fitted and written")}"""
)
@players_option("The player count to fit.", required=True, metavar="P")
@deal_source(seeded=False)
@count_option("--generations", "CMA-ES generations.", default=25)
@count_option("--population", "Candidates per generation.", default=12, least=2)
@count_option("--deals", "Training deals each candidate plays per generation.", default=200)
@count_option("--validation", "Fresh deals the chosen weights are re-tested on.", default=1000)
@click.option(
    "--seed", type=click.IntRange(0, 2**31 - 2), default=0, show_default=True, help="Seed of CMA-ES's own random numbers."
)
@click.option("--sigma", type=click.FloatRange(0, 10, min_open=True), default=0.5, show_default=True, help="CMA-ES's first step.")
@click.option(
    "--start",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Start the search at the weights of this weights file (for --start-players) [default: thrifty's constants].",
)
@players_option(
    "With --start: the player count whose weights to start from [default: --players].", flag="--start-players", metavar="Q"
)
@click.option(
    "--journal",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Where every evaluation is kept, to resume a killed run [default: tune-Pp.jsonl].",
)
@count_option("--jobs", "Processes playing candidates side by side [default: 1].", metavar="N")
@click.option("--out", type=click.Path(dir_okay=False), required=True, metavar="PATH", help="The weights file to write.")
@click.option("--force", is_flag=True, help="Overwrite --out if it exists.")
@click.option("--merge", is_flag=True, help="Add this count's weights to the weights file --out (its other counts are kept).")
@json_option
def tune(
    players: int,
    source,
    generations: int,
    population: int,
    deals: int,
    validation: int,
    seed: int,
    sigma: float,
    start: str | None,
    start_players: int | None,
    journal: str | None,
    jobs: int | None,
    out: str,
    force: bool,
    merge: bool,
    as_json: bool,
) -> None:
    """Fit the tuned policy's weights for P players by CMA-ES on common random numbers."""
    from tranquility.solver.batch.tuning import TuneSettings, pooled, serial
    from tranquility.solver.batch.tuning import tune as run_tune
    from tranquility.solver.errors import BadInput
    from tranquility.solver.search.weights import WeightBook

    if force and merge:
        raise usage_error("--force overwrites --out and --merge adds to it: give one")
    if start_players is not None and start is None:
        raise usage_error("--start-players goes with --start: which weights file to start from")
    settings = TuneSettings(players, source.rules(), generations, population, deals, validation, seed, sigma)
    if start is not None:
        begun = _read_book(Path(start))
        count = start_players or players
        if count not in begun.weights:
            raise usage_error(f"--start {start} holds no weights for {count} players (it has {sorted(begun.weights)})")
        settings = replace(settings, start=begun.weights[count])
    book = _book_to_merge(Path(out), settings.rules) if merge else None
    if book is None and Path(out).exists() and not force:
        raise usage_error(f"{out} exists: give --force to overwrite it, or --merge to add {players} players to it")
    journal_path = Path(journal or f"tune-{players}p.jsonl")

    console = make_console(stderr=True)
    on_terminal = shown(console, as_json)

    def progress(point) -> None:
        if on_terminal:
            console.print(
                f"generation {point.generation + 1}/{generations}: best {point.best_wins}/{point.deals} won "
                f"(value {point.best:.4f}), mean value {point.mean:.4f}, thrifty {point.thrifty_wins}/{point.deals} "
                f"(value {point.thrifty:.4f})",
                highlight=False,
            )

    pool = None
    try:
        if jobs is not None and jobs > 1:
            from tranquility.solver.batch.odds_runner import local_executor

            pool = local_executor(jobs)
        result = run_tune(settings, journal_path, pooled(pool) if pool is not None else serial, progress)
    except BadInput as exc:
        raise input_error(journal_path, exc) from None
    except OSError as exc:
        raise input_error(journal_path, exc) from None
    except KeyboardInterrupt:
        click.echo(f"Interrupted: {journal_path} keeps every evaluation done; the same command again goes on.", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    finally:
        if pool is not None:
            from tranquility.solver.batch.odds_runner import halt

            halt(pool, ())
    book = (book or WeightBook(settings.rules, {}, {})).with_fit(players, result.weights, result.fit_json())
    try:
        Path(out).write_text(json.dumps(book.to_json(), indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise input_error(out, exc) from None
    if as_json:
        click.echo(dump_json(result.to_json()))
        return
    checks = result.validation
    click.echo(f"tuned for {players} player(s): {result.chosen} candidate kept; wrote {out}")
    for name in ("thrifty", "best", "mean"):
        score = checks[name]
        click.echo(f"  {name:8} {score.wins}/{score.deals} won on the validation deals (value {score.value:.4f})")
    click.echo(f"  {result.games} games played (journal {journal_path})")


def _read_book(path: Path):
    from tranquility.solver.errors import BadInput
    from tranquility.solver.search.weights import WeightBook

    try:
        return WeightBook.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))
    except (OSError, ValueError, BadInput) as exc:
        raise input_error(path, exc) from None


def _book_to_merge(path: Path, rules):
    """The weights file at ``path`` to add to (None if there is none yet)."""
    if not path.exists():
        return None
    book = _read_book(path)
    if book.rules != rules:
        raise usage_error(f"{path} holds weights for other rules; --merge adds only to weights for the same rules")
    return book
