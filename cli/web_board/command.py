"""``tranquility serve``: the board in the browser and the JSON API (docs/web.md). Only
click is imported here: the server's modules load when the command runs."""

from __future__ import annotations

import os

import click

from ..exits import exit_line


@click.command(
    epilog=f"""\b
Examples:
  tranquility serve                       # http://127.0.0.1:8000/
  tranquility serve --port 0 --open       # a free port, opened in the browser
  curl -s 'http://127.0.0.1:8000/api/deal?seed=1&players=4'

{exit_line("the server stopped")}"""
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to serve on; any but this machine's warns.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port; 0 picks a free one.")
@click.option("--open", "open_page", is_flag=True, help="Open the page in the default browser once serving.")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=min(2, os.cpu_count() or 1),
    show_default="2, or 1 on one core",
    help="Worker processes solving side by side (each one CP-SAT thread).",
)
@click.option(
    "--queue",
    type=click.IntRange(0, 1000),
    default=16,
    show_default=True,
    help="Jobs that may wait for a worker; more are a 503.",
)
@click.option("--job-cap", type=click.FloatRange(1, 3600), default=120.0, show_default=True, help="Seconds one job may run.")
@click.option(
    "--keep-jobs",
    type=click.FloatRange(0, 86400),
    default=600.0,
    show_default=True,
    help="Seconds a finished job's answer is kept for its event stream.",
)
@click.option(
    "--allow-origin",
    "allow_origins",
    multiple=True,
    metavar="ORIGIN",
    help="A page's origin (http://host:port) that may use the API too; repeatable. Others get 403.",
)
def serve(
    host: str,
    port: int,
    open_page: bool,
    workers: int,
    queue: int,
    job_cap: float,
    keep_jobs: float,
    allow_origins: tuple[str, ...],
) -> None:
    """Serve the board in the browser (click a card, then a cell) and the JSON API that
    gives the CLI's --json answers, until Ctrl-C."""
    from .guard import is_loopback, origin_of
    from .run import run

    for origin in allow_origins:
        try:
            origin_of(origin)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--allow-origin") from None
    if not host.strip():
        raise click.UsageError("--host: give an address or a name to serve on (127.0.0.1, 0.0.0.0, localhost)")
    if not is_loopback(host):
        click.echo(f"warning: serving on {host}: anyone who can reach this address can use the board and the solver", err=True)
    run(host, port, open_page, workers, queue, job_cap, allow_origins, keep_jobs)
