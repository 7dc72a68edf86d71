"""``tranquility play --web``: the board served to a browser (docs/play.md, "In the browser").

textual-serve does the serving: for each browser connection it starts one board process,
``tranquility play`` with the options given here, which draws through Textual's web driver on
its stdin and stdout (``TEXTUAL_DRIVER``), and relays it over a websocket to an xterm.js page.
This module checks the input first (bad input is exit 2 before anything is served), serves
that page without anything from outside the machine, and owns the event loop, so that Ctrl-C
stops every board process and ends in exit 130 like any other command.

A board process ends with its page, whatever it is doing. Its solves (a hint, the check, the
analysis) run in threads that cannot be stopped, and a Python process waits for its threads
before it exits: a board told to quit mid-solve would live on, busy, until the solve ended,
minutes perhaps. So the board's driver (``BoardDriver``) ends the process soon after the board
has quit, and quits when its input ends (the server gone); the server (``Board``) starts each
board without a shell, in a process group of its own, and kills that group if the board has
not ended in time; and a page that stops answering the websocket's pings is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import os
import re
import shlex
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Iterable
from typing import TYPE_CHECKING, Any

import click
from textual import messages
from textual.drivers.web_driver import WebDriver
from tranquility.solver import stop_signals

from .exits import InputError
from .game_input import DealSource, usage_error
from .options import given
from .play.opening import seated_board

if TYPE_CHECKING:
    from aiohttp import web
    from tranquility.solver.analysis.table import Seating

# The options of this process that its board processes do not take.
SERVER_OPTIONS = ("web", "host", "port")
# Seconds for the board processes to close once asked, and for the server to stop.
STOP_SECONDS = 5.0
# Seconds for a board process to end once its board has quit, threads still running or not.
END_SECONDS = 2.0
# Seconds of silence before the server pings a page; a page that does not answer within half
# of that is gone (a killed browser behind a half-open connection, a frozen machine).
HEARTBEAT_SECONDS = 5.0
# textual-serve's page links its font from a web font service; the same font ships in its
# static folder, so the page gets it from there.
_REMOTE_LINK = re.compile(r"<link\b[^>]*\bhref=\"https?://[^\"]*\"[^>]*>")
_LOCAL_FONTS = """<link rel="preload" href="{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf" as="font"
      type="font/ttf" crossorigin />
    <style>
      @font-face { font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
      @font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }
    </style>"""


def serve_play(
    source: DealSource, file: str | None, puzzle_id: str | None, host: str, port: int, seating: Seating | None = None
) -> None:
    """``tranquility play --web``: serve the board until Ctrl-C (then exit 130); with a
    seating, each board is a table with bots (its options are passed on, as every other)."""
    if importlib.util.find_spec("textual_serve") is None:
        raise InputError("play --web needs textual-serve: pip install 'tranquility-solver[web]'")
    if not host.strip():
        raise usage_error("--host: give an address or a name to serve on (127.0.0.1, 0.0.0.0, localhost)")
    seated_board(source, file, puzzle_id, seating)  # the board processes open the same one: bad input stops here
    args = same_options(click.get_current_context(), leave_out=SERVER_OPTIONS)
    serve(shlex.join([sys.executable, "-m", "tranquility.cli", "play", *args]), host, port)


def same_options(ctx: click.Context, leave_out: Iterable[str] = ()) -> list[str]:
    """The arguments of ``ctx``'s command as they were given (on the command line or in the
    environment), but for ``leave_out``: a copy of the command run with them does the same.
    Options with a value (repeatable or not), on/off flags and arguments, after ``--``."""
    args: list[str] = []
    files: list[str] = []
    for param in ctx.command.params:
        name = param.name
        if name is None or name in leave_out or not given(ctx, name):
            continue
        value = ctx.params[name]
        if isinstance(param, click.Argument):
            files.append(str(value))
        elif isinstance(param, click.Option) and param.is_bool_flag:
            on = param.flag_value if isinstance(param.flag_value, bool) else True  # click leaves True unset
            args += [param.opts[0]] if value == on else param.secondary_opts[:1]
        else:
            args += [part for one in (value if param.multiple else [value]) for part in (param.opts[0], str(one))]
    return args + ["--", *files] if files else args


def serve(command: str, host: str, port: int) -> None:
    """Serve ``command``'s app to browsers at HOST:PORT (0: a free port), one process per
    connection, until SIGINT or SIGTERM: then every board process is stopped, and the
    interrupt goes on as a KeyboardInterrupt (exit 130; 143 for SIGTERM)."""
    server = _server(command, host, port)
    loop = asyncio.new_event_loop()
    stopped = False

    def stop(signum: int) -> None:
        nonlocal stopped
        if signum == signal.SIGTERM:
            stop_signals.terminate()
        if not stopped:  # a second Ctrl-C while the boards close changes nothing
            stopped = True
            loop.stop()

    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    runner = None
    try:
        runner = loop.run_until_complete(_start(server, host, port))  # Ctrl-C here: the program's handler
        for signum in previous:
            loop.add_signal_handler(signum, stop, signum)
        bound = runner.addresses[0][1]
        click.echo(f"serving at http://{f'[{host}]' if ':' in host else host}:{bound}/")
        loop.run_forever()  # until stop()
    finally:
        if runner is not None:
            loop.run_until_complete(_stop(server, runner))
        for signum, handler in previous.items():
            loop.remove_signal_handler(signum)
            signal.signal(signum, handler)
        loop.close()
    raise KeyboardInterrupt


def _server(command: str, host: str, port: int) -> Any:
    from aiohttp import web
    from textual_serve import server as serving
    from textual_serve.app_service import AppService

    boards: set[asyncio.subprocess.Process] = set()

    class Board(AppService):
        """textual-serve's board process, run without a shell in a process group of its own
        under ``BoardDriver``, known to the server so that it is waited for, and ended for
        sure: if it has not ended STOP_SECONDS after being told to quit, its group is killed."""

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            return super()._build_environment(width, height) | {"TEXTUAL_DRIVER": f"{__name__}:BoardDriver"}

        async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
            pipe = asyncio.subprocess.PIPE
            self._process = process = await asyncio.create_subprocess_exec(
                *shlex.split(self.command),
                stdin=pipe,
                stdout=pipe,
                stderr=pipe,
                env=self._build_environment(width, height),
                start_new_session=True,
            )
            self._stdin = process.stdin
            boards.add(process)
            return process

        async def stop(self) -> None:
            if self._process is not None:
                await _ended(super().stop(), self._process)

    class BoardServer(serving.Server):
        """textual-serve's server, with the page kept to this machine, a page that stops
        answering closed, and every connection's task and board process known, so that
        they can be stopped."""

        def __init__(self) -> None:
            super().__init__(command, host=host, port=port, title="tranquility play")
            self.sessions: set[asyncio.Task] = set()
            self.boards = boards

        async def on_startup(self, app: web.Application) -> None:
            """Nothing: textual-serve prints a banner on stdout, whose first line is ours."""

        async def _make_app(self) -> web.Application:
            import aiohttp_jinja2
            import jinja2

            app = await super()._make_app()
            page = (self.templates_path / "app_index.html").read_text(encoding="utf-8")
            aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": _REMOTE_LINK.sub(_LOCAL_FONTS, page)}))
            return app

        async def handle_index(self, request: web.Request) -> Any:
            # The page names the server in its URLs: by the address the browser used, which
            # works whatever --host was (0.0.0.0 serves on every address).
            self.public_url = f"{request.scheme}://{request.host}"
            return await super().handle_index(request)

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            """One page's connection, as textual-serve's (its size from the query, then a
            board relaying it), until the page goes, stops answering, or the server stops."""
            websocket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, timeout=STOP_SECONDS)
            width = serving.to_int(request.query.get("width", "80"), 80)
            height = serving.to_int(request.query.get("height", "24"), 24)

            async def close() -> None:  # when the board quits
                await websocket.close()

            board = Board(
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=close,
                download_manager=self.download_manager,
            )
            task = asyncio.current_task()
            assert task is not None
            self.sessions.add(task)
            try:
                await websocket.prepare(request)
                await board.start(width, height)
                await self._process_messages(websocket, board)
            except asyncio.CancelledError:
                pass  # the server is stopping: the board is ended all the same
            finally:
                self.sessions.discard(task)
                await board.stop()
                await websocket.close()
            return websocket

    return BoardServer()


async def _ended(step: Awaitable[Any], board: asyncio.subprocess.Process) -> None:
    """Await ``step``, which ends with the board process (its quitting, its exit); if it has
    not come to its end within STOP_SECONDS, the board's process group is killed first."""
    waiting = asyncio.ensure_future(step)
    if not (await asyncio.wait({waiting}, timeout=STOP_SECONDS))[0]:
        with contextlib.suppress(ProcessLookupError):  # it has just ended
            os.killpg(board.pid, signal.SIGKILL)  # its own group (start_new_session): the board and all it started
    await waiting


class BoardDriver(WebDriver):
    """Textual's web driver, for a board process whose page can go at any moment: the board
    quits when its input ends (the server is gone, nobody can reach it again), and once it
    has quit the process ends within END_SECONDS, whatever its threads are doing."""

    def run_input_thread(self) -> None:
        super().run_input_thread()
        if not self.exit_event.is_set():  # the input ended (or failed) before the board quit
            self._app.post_message(messages.ExitApp())

    def stop_application_mode(self) -> None:
        super().stop_application_mode()
        # A solve's thread cannot be stopped, and the process would wait for it to finish:
        # the game is over for its page, so the process ends without it.
        ender = threading.Timer(END_SECONDS, _end_now)
        ender.daemon = True
        ender.start()


def _end_now() -> None:
    sys.stderr.flush()
    os._exit(0)


async def _start(server: Any, host: str, port: int) -> web.AppRunner:
    from aiohttp import web

    runner = web.AppRunner(await server._make_app(), handle_signals=False, shutdown_timeout=STOP_SECONDS)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        # A bind error's strerror (asyncio's) repeats the address; a name lookup's is its own.
        reason = os.strerror(exc.errno) if exc.errno and not isinstance(exc, socket.gaierror) else exc.strerror or str(exc)
        raise InputError(f"--host {host} --port {port}: cannot serve there: {reason}") from None
    return runner


async def _stop(server: Any, runner: web.AppRunner) -> None:
    """Close every connection, each ending its board; then end any board left."""
    sessions = set(server.sessions)
    for task in sessions:
        task.cancel()
    if sessions:
        await asyncio.wait(sessions, timeout=STOP_SECONDS)
    await runner.cleanup()
    # Each board's end waited for while the loop runs: one that ended after the loop had
    # closed would have asyncio print "Loop ... that handles pid N is closed".
    await asyncio.gather(*(_ended(board.wait(), board) for board in server.boards))
