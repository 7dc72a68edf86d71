"""Running the server until Ctrl-C (exit 130) or SIGTERM (143): the pool's processes are
started before the port is bound, and stopped with the server."""

from __future__ import annotations

import asyncio
import signal
import webbrowser

import click
from aiohttp import web
from tranquility.solver import stop_signals

from .api import JOBS, MAX_SECONDS
from .pool import Pool
from .server import Server


def run(host: str, port: int, open_page: bool, workers: int, queue: int, job_cap: float) -> None:
    """Serve at HOST:PORT (0: a free port) and say where, until SIGINT or SIGTERM; then the
    interrupt goes on as a KeyboardInterrupt, which the command's group turns into its code."""
    pool = Pool(JOBS, workers, queue, max(job_cap, MAX_SECONDS))
    loop = asyncio.new_event_loop()
    runner = web.AppRunner(Server(pool).app(), handle_signals=False, access_log=None)
    stopping = asyncio.Event()

    def stop(signum: int) -> None:
        if signum == signal.SIGTERM:
            stop_signals.terminate()
        stopping.set()

    async def serve() -> None:
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop, signum)
        bound = runner.addresses[0][1]
        url = f"http://{f'[{host}]' if ':' in host else host}:{bound}/"
        click.echo(f"serving at {url}")
        if open_page:
            webbrowser.open(url)
        await stopping.wait()

    try:
        loop.run_until_complete(serve())
    finally:
        loop.run_until_complete(runner.cleanup())
        pool.close()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        loop.close()
    raise KeyboardInterrupt
