"""Running the server until Ctrl-C (exit 130) or SIGTERM (143): the pool's processes are
started before the port is bound, and stopped with the server.

Stopping never waits on a worker: the running jobs are interrupted (each answers with what
it found, as Ctrl-C makes the command answer) and given ``GRACE`` seconds, then every
worker is killed and every open event stream ended. Should anything still hold the
process ``DEADLINE`` seconds after the signal, the workers are killed and the process exits
with the signal's code all the same."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import webbrowser
from functools import partial

import click
from aiohttp import web
from tranquility.app import work
from tranquility.solver import stop_signals

from .pool import Pool
from .server import KEEP_JOBS, Server

GRACE = 1.5  # seconds the running jobs have to answer once the server is stopping
DEADLINE = 4.5  # seconds from the signal to the process's exit, whatever its workers do


def run(
    host: str,
    port: int,
    open_page: bool,
    workers: int,
    queue: int,
    job_cap: float,
    allow_origins: tuple[str, ...] = (),
    keep_jobs: float = KEEP_JOBS,
) -> None:
    """Serve at HOST:PORT (0: a free port) and say where, until SIGINT or SIGTERM; then the
    interrupt goes on as a KeyboardInterrupt, which the command's group turns into its code."""
    work.cap_seconds(job_cap)  # the requests' limit here; each worker sets it too
    pool = Pool(work.JOBS, workers, queue, job_cap, partial(work.preload, job_cap), work.MODULES)
    loop = asyncio.new_event_loop()
    server = Server(pool, keep_jobs)
    runner = web.AppRunner(server.app(host, allow_origins), handle_signals=False, access_log=None)
    stopping = asyncio.Event()

    def stop(signum: int) -> None:
        if signum == signal.SIGTERM:
            stop_signals.terminate()
        if not stopping.is_set():
            _exit_by(DEADLINE, pool, 128 + signum)
        stopping.set()

    async def serve() -> None:
        await runner.setup()
        site = web.TCPSite(runner, host, port, shutdown_timeout=GRACE)
        await site.start()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop, signum)
        bound = runner.addresses[0][1]
        server.guard.port = bound
        url = f"http://{f'[{host}]' if ':' in host else host}:{bound}/"
        click.echo(f"serving at {url}")
        if open_page:
            webbrowser.open(url)
        await stopping.wait()
        await server.stop(GRACE)

    try:
        loop.run_until_complete(serve())
    finally:
        pool.kill()
        loop.run_until_complete(runner.cleanup())
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        loop.close()
    raise KeyboardInterrupt


def _exit_by(seconds: float, pool: Pool, code: int) -> None:
    """A timer: if the orderly stop has not ended the process in ``seconds``, the workers
    are killed and the process exits with ``code`` (130 Ctrl-C, 143 SIGTERM) regardless."""

    def force() -> None:
        pool.kill()
        sys.stderr.write("Interrupted.\n" if code == 130 else "Terminated.\n")
        sys.stderr.flush()
        os._exit(code)

    timer = threading.Timer(seconds, force)
    timer.daemon = True
    timer.start()
