"""``odds``: many seeded deals solved into an SQLite store, and how often they can be won."""

from __future__ import annotations

import click
from tranquility.solver.errors import BadInput

from ..exits import InputError, exit_line
from ..game_input import DealSource, input_error, usage_error
from ..options import (
    LazyChoice,
    Limits,
    count_option,
    deal_source,
    json_option,
    markdown_option,
    measured_policies,
    player_counts_option,
    reject,
    samples_option,
    seat_option,
    seconds_option,
    solver_options,
)
from ..render.console import dump_json, make_console


def _policies() -> tuple[str, ...]:
    from tranquility.solver.search.policies import POLICIES

    return tuple(POLICIES)


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
    "lookahead_seat": "--lookahead-seat",
    "jobs": "--jobs",
    "scheduler": "--scheduler",
    "scheduler_timeout": "--scheduler-timeout",
    "batch": "--batch",
    "retry_unknown": "--retry-unknown",
}


@click.command(
    epilog=f"""\b
Examples:
  tranquility odds --players 4 --deals 20 --reproducible
  tranquility odds --players 1-5 --deals 10000 --policies --db odds.sqlite        # hours
  tranquility odds --players 2-4 --deals 100 --policy lookahead --samples 12      # about 1 CPU hour
  tranquility odds --players 1-5 --deals 10000 --retry-unknown --time-limit 600   # hours
  tranquility odds --players 2-4 --deals 500 --scheduler tcp://10.0.0.5:8786
  tranquility odds --db odds.sqlite --report --plot odds.png
  tranquility odds --db odds.sqlite --report --markdown
  tranquility odds --db odds.sqlite --report --ladder --markdown
\b
Every result is stored in --db (SQLite) as it comes: a run that is stopped, even
killed, finishes the rest when it is started again with the same options. The
interval counts unknowns as losses at its low end and as wins at its high end.
docs/odds.md.

{exit_line()}
130 after Ctrl-C also prints the summary of what was stored."""
)
@player_counts_option("A player count (4), a range of them (1-5) or a list (2,4).")
@count_option("--deals", "Seeded deals per player count: seeds START..START+N-1.", metavar="N")
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
    type=LazyChoice(measured_policies),
    metavar="NAME",
    help="Also play each deal once with this policy of tranquility simulate (repeatable); lookahead and open-hands "
    "(the ceiling that sees every hand) are stored as lookahead:N and open-hands:N, N their --samples, and their "
    "decisions are timed.",
)
@samples_option(
    "With --policy lookahead or open-hands: worlds per round [default: 60]; plays of each N are stored and shown apart."
)
@seat_option(
    "--lookahead-seat",
    "With --policy lookahead: only seat K searches, the others play its blueprint, tuned; stored as lookahead:N@K "
    "[default: every seat searches].",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False),
    default="odds.sqlite",
    show_default=True,
    metavar="PATH",
    help="The SQLite database the results are added to (created if missing); what it holds is not solved again.",
)
@count_option("--jobs", "Processes solving side by side, one deal each at a time [default: the number of cores].", metavar="N")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Send the work to the Dask distributed cluster at ADDRESS (tcp://HOST:PORT) instead of local processes.",
)
@seconds_option(
    "--scheduler-timeout",
    "How long --scheduler's address may take to answer as a Dask scheduler before the run gives up (exit 2).",
    default=10,
)
@count_option("--batch", "Deals per task [default: about four tasks per process or Dask thread, at most 10].", metavar="N")
@click.option(
    "--retry-unknown",
    is_flag=True,
    help="Solve the stored unknowns again (with a longer --time-limit, say); a decided verdict replaces them.",
)
@click.option("--report", is_flag=True, help="Print the summary of everything --db holds, solving nothing.")
@click.option(
    "--ladder",
    is_flag=True,
    help="Print the ceiling ladder instead of the summary: perfect play, open-hands:N, lookahead:N, tuned and thrifty, "
    "each rung's rate and its gap to the rung above on the same deals, paired (docs/simulate.md).",
)
@json_option
@markdown_option("Print the summary as Markdown tables (docs/odds.md).")
@click.option(
    "--plot",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Also draw winnability per player count with its interval, and the policies' rates (.png or .svg; "
    "redrawn on every run).",
)
@click.pass_context
# Each of the 16 flags refused here in the order a user reads the errors; the work itself is the
# library's (run_odds, summarise).
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
    lookahead_seat: int | None,
    db: str,
    jobs: int | None,
    scheduler: str | None,
    scheduler_timeout: float,
    batch: int | None,
    retry_unknown: bool,
    report: bool,
    ladder: bool,
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
    from tranquility.solver.batch.odds_ladder import ladder as ladder_of
    from tranquility.solver.batch.odds_plot import check_plot_path
    from tranquility.solver.batch.odds_runner import check_odds, run_odds
    from tranquility.solver.batch.odds_store import OddsStore
    from tranquility.solver.batch.odds_summary import summarise
    from tranquility.solver.engine.deal import DealError

    from ..options import check_output
    from ..render.odds import counts_text, odds_progress, players_text

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
            found = ladder_of(store) if ladder else None
        _odds_output(summary, None, as_json, markdown, plot, found)
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
    names = _odds_policies(policies, policy_names, samples, lookahead_seat)
    try:
        check_odds(rules, players, seeds, names)
    except DealError as exc:
        raise usage_error(f"cannot deal: {exc}") from None
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
            found = ladder_of(store, run.scope) if ladder else None
    finally:
        close()
    _odds_output(summary, run, as_json, markdown, plot, found)
    if run.interrupted:
        click.echo("Interrupted: what was stored is kept; the same command again finishes the rest.", err=True)
        ctx.exit(130)


def _odds_policies(policies: bool, names: tuple[str, ...], samples: int | None, seat: int | None) -> tuple[str, ...]:
    """The stored names of the policies to play: the silent ones (``--policies``), then each
    ``--policy``, a searching one with its budget (``lookahead:N``, ``open-hands:N``; the
    lookahead at one seat ``lookahead:N@K``)."""
    from tranquility.solver.batch.plays import SEARCHERS, SEARCHING, stored_name
    from tranquility.solver.search.lookahead import DEFAULT_SAMPLES

    if samples is not None and not set(SEARCHERS) & set(names):
        raise usage_error(f"--samples goes with --policy {' or '.join(SEARCHERS)}; no other policy samples worlds")
    if seat is not None and SEARCHING not in names:
        raise usage_error(f"--lookahead-seat goes with --policy {SEARCHING}: no other policy searches at a seat")
    wanted = [*(_policies() if policies else ()), *names]
    return tuple(
        dict.fromkeys(
            stored_name(n, (samples or DEFAULT_SAMPLES) if n in SEARCHERS else None, seat if n == SEARCHING else None)
            for n in wanted
        )
    )


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


def _odds_output(summary, run, as_json: bool, markdown: bool, plot: str | None, found=None) -> None:
    """The summary (or, ``found``, the ladder) as JSON, Markdown or tables, and the plot."""
    from tranquility.solver.batch.odds_ladder import ladder_markdown
    from tranquility.solver.batch.odds_plot import plot as draw
    from tranquility.solver.batch.odds_summary import odds_markdown

    from ..render.odds import render_ladder, render_odds

    if plot is not None:
        try:
            draw(summary, plot)
        except OSError as exc:
            raise input_error(plot, exc) from None
        click.echo(f"wrote {plot}", err=True)
    if found is not None:
        if as_json:
            click.echo(dump_json(found.to_json()))
        elif markdown:
            click.echo(ladder_markdown(found))
        else:
            render_ladder(make_console(), found)
    elif as_json:
        click.echo(dump_json(summary.to_json()))
    elif markdown:
        click.echo(odds_markdown(summary))
    else:
        render_odds(make_console(), summary, run)
