"""``tranquility play --web``: the board served to a browser (cli/web.py, docs/play.md).

The server runs as the program runs it (a subprocess, no terminal); the last test opens its
page in a real headless browser (tests/browser.py) and plays a catalogue puzzle to its end by
typing the moves, then reads the result from the page."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import click
import pytest
from click.testing import CliRunner
from tranquility.cli import web
from tranquility.puzzles import shipped
from tranquility.solver.formats.notation import format_action

from ..browser import DevTools, needs_browser
from ..helpers import run

PUZZLE = "tq1-1p-8cf48077-2"  # official rules, one seat, grade 1: its solution wins in 39 turns
SECONDS = 30  # every wait on a server, bounded


class Served:
    """``tranquility play ... --web --port 0`` running, and the URL it printed first."""

    def __init__(self, *args: str) -> None:
        command = [sys.executable, "-m", "tranquility.cli", "play", *args, "--web", "--port", "0"]
        # A session of its own, as a terminal gives a command its own process group.
        self.proc = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        assert self.proc.stdout is not None
        ready = select.select([self.proc.stdout], [], [], SECONDS)[0]
        self.first = self.proc.stdout.readline() if ready else ""
        self.url = self.first.removeprefix("serving at ").strip()

    def boards(self) -> set[int]:
        """The processes the server has started (a board, or the shell that runs it) and theirs."""
        return descendants(self.proc.pid)

    def interrupt(self) -> tuple[int, str, str]:
        """Ctrl-C, sent as a terminal sends it (to the whole process group, board processes
        too): the exit code, the rest of stdout and stderr."""
        os.killpg(self.proc.pid, signal.SIGINT)
        out, err = self.proc.communicate(timeout=SECONDS)
        return self.proc.returncode, out, err

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.communicate()


def descendants(pid: int) -> set[int]:
    """The live processes ``pid`` has started, and theirs."""
    found: set[int] = set()
    parents = {pid}
    while parents:
        parents = {child for child, parent in _parents().items() if parent in parents} - found
        found |= parents
    return found


def _parents() -> dict[int, int]:
    """Every live process's parent, from /proc (a zombie counts as gone)."""
    found: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            found[int(stat.parent.name)] = int(fields[1])
    return found


@contextmanager
def served(*args: str) -> Iterator[Served]:
    server = Served(*args)
    try:
        yield server
    finally:
        server.close()


def gone(pids: set[int], seconds: float = SECONDS) -> bool:
    """Whether every one of ``pids`` has ended within ``seconds`` (an orphan is reaped late)."""
    deadline = time.monotonic() + seconds
    while pids & set(_parents()):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# -- the command line ---------------------------------------------------------------------------


def test_host_and_port_are_for_web_only():
    result = run("play", "--puzzle", PUZZLE, "--port", "9000")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == ["Error: --port is only taken with --web (see 'main play --help')"]


def test_bad_input_stops_before_serving():
    result = run("play", "--puzzle", "tq1-nope", "--web")
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and "tq1-nope" in result.output
    assert "serving" not in result.output
    result = run("play", "--puzzle", PUZZLE, "--web", "--host", " ")
    assert result.exit_code == 2
    assert result.output.startswith("Error: --host: give an address or a name to serve on")


def test_without_textual_serve_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "textual_serve", None)  # as if it were not installed
    result = run("play", "--puzzle", PUZZLE, "--web")
    assert result.exit_code == 2
    assert result.output == "Error: play --web needs textual-serve: pip install 'tranquility-solver[web]'\n"


def test_each_board_gets_the_options_given(monkeypatch):
    commands: list[str] = []
    monkeypatch.setattr(web, "serve", lambda command, host, port: commands.append(command))
    args = ["--seed", "3", "--players", "2", "--rule", "hand=4", "--rule", "finish=3", "--hint-time", "0.5"]
    result = run("play", *args, "--objective", "spare", "--web", "--host", "0.0.0.0", "--port", "0")
    assert result.exit_code == 0, result.output
    assert shlex.split(commands[0]) == [sys.executable, "-m", "tranquility.cli", "play", *args, "--objective", "spare"]


def test_same_options_gives_back_each_kind_of_parameter():
    seen: list[list[str]] = []

    @click.command()
    @click.option("--size", type=float, envvar="SIZE")
    @click.option("--tag", multiple=True)
    @click.option("--loud/--quiet", default=True)
    @click.option("--no-check", "no_check", is_flag=True)
    @click.option("--left-out")
    @click.argument("file", required=False)
    def command(**_) -> None:
        seen.append(web.same_options(click.get_current_context(), leave_out=("left_out",)))

    runner = CliRunner()
    given = [
        ["--tag", "a", "--tag", "b", "--quiet", "--no-check", "--left-out", "x", "--", "-f"],
        ["--loud"],
        [],
    ]
    for args in given:
        assert runner.invoke(command, args, env={"SIZE": "2.5"}).exit_code == 0
    assert seen == [
        ["--size", "2.5", "--tag", "a", "--tag", "b", "--quiet", "--no-check", "--", "-f"],
        ["--size", "2.5", "--loud"],
        ["--size", "2.5"],
    ]
    for args in seen[:3]:  # given again, they give themselves back
        assert runner.invoke(command, args).exit_code == 0
    assert seen[3:] == seen[:3]


def test_a_file_is_passed_on_after_the_options(monkeypatch, tmp_path):
    commands: list[str] = []
    monkeypatch.setattr(web, "serve", lambda command, host, port: commands.append(command))
    path = tmp_path / "line.json"
    assert run("simulate", "--seed", "1", "--players", "2", "--out", path).exit_code == 0
    assert run("play", path, "--web").exit_code == 0
    assert shlex.split(commands[0])[3:] == ["play", "--", str(path)]


# -- the server ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_serves_a_page_from_this_machine_only_and_stops_on_ctrl_c():
    with served("--puzzle", PUZZLE) as server:
        assert server.first.startswith("serving at http://127.0.0.1:"), server.first
        assert server.url.endswith("/") and not server.url.endswith(":0/")
        with urllib.request.urlopen(server.url, timeout=SECONDS) as reply:
            page = reply.read().decode()
        assert 'class="textual-terminal"' in page
        addresses = [url for url in _urls(page) if url != "http://www.w3.org/2000/svg"]  # a namespace, not a fetch
        assert addresses and all(url.startswith(server.url) for url in addresses), addresses
        for url in addresses:  # the script, the style sheet and the fonts are all there
            with urllib.request.urlopen(url, timeout=SECONDS) as reply:
                assert reply.status == 200 and reply.read(), url
        code, out, err = server.interrupt()
    assert (code, err) == (130, "Interrupted.\n")
    assert "serving at" not in out


@pytest.mark.slow
def test_sigterm_to_the_server_alone_stops_every_board():
    async def connect(server: Served) -> set[int]:
        """Connect as a page does, ask for a hint, then stop the server mid-solve: its boards."""
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url.replace("http", "ws", 1) + "ws") as ws:
            drawn = b""

            async def until(text: bytes) -> None:
                nonlocal drawn
                while text not in drawn:
                    message = await asyncio.wait_for(ws.receive(), SECONDS)
                    assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
                    drawn += message.data if message.type == aiohttp.WSMsgType.BINARY else b""

            await until(b"Turn 1")
            await ws.send_str(json.dumps(["stdin", "hint\r"]))
            await until(b"solving (120 s at most)")
            boards = server.boards()
            server.proc.send_signal(signal.SIGTERM)  # to the server only: it must stop its boards itself
            async for _ in ws:  # until the server closes the connection
                pass
            return boards

    with served("--puzzle", PUZZLE, "--hint-time", "120") as server:
        boards = asyncio.run(asyncio.wait_for(connect(server), SECONDS))
        _, err = server.proc.communicate(timeout=SECONDS)
    assert (server.proc.returncode, err) == (143, "Terminated.\n")
    assert boards and gone(boards)


def serve_now(*args: str) -> subprocess.CompletedProcess:
    """``play --puzzle PUZZLE --web ARGS`` run to its end (which it reaches only on an error)."""
    command = [sys.executable, "-m", "tranquility.cli", "play", "--puzzle", PUZZLE, "--web", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=SECONDS, stdin=subprocess.DEVNULL)


@pytest.mark.slow
def test_an_address_that_cannot_be_served_is_named():
    with served("--puzzle", PUZZLE) as server:
        port = server.url.rsplit(":", 1)[1].strip("/")
        taken = serve_now("--port", port)
    assert taken.returncode == 2
    assert taken.stderr == f"Error: --host 127.0.0.1 --port {port}: cannot serve there: Address already in use\n"
    elsewhere = serve_now("--host", "192.0.2.1")  # a documentation address: no interface here has it
    assert elsewhere.returncode == 2
    assert elsewhere.stderr == "Error: --host 192.0.2.1 --port 8000: cannot serve there: Cannot assign requested address\n"


def _urls(page: str) -> list[str]:
    return re.findall(r"""https?://[^"' )]+""", page)


# -- the board, in a real browser ------------------------------------------------------------------

# textual.js keeps its xterm.js terminal to itself: this runs before it and keeps a reference
# to the terminal it makes, so that the test can read the screen's text from its buffer.
KEEP_THE_TERMINAL = """
Object.defineProperty(Object.prototype, 'terminal', {configurable: true, set: function (value) {
  Object.defineProperty(this, 'terminal', {value: value, writable: true, configurable: true, enumerable: true});
  if (value && 'buffer' in value) { window.boardTerminal = value; }
}});
"""
SCREEN = """(function (t) {
  if (!t) { return ''; }
  var buffer = t.buffer.active, lines = [];
  for (var y = 0; y < t.rows; y++) {
    var line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : '');
  }
  return lines.join('\\n');
})(window.boardTerminal)"""


def on_screen(text: str) -> str:
    return f"{SCREEN}.indexOf({json.dumps(text)}) >= 0"


def enter(browser: DevTools, line: str) -> None:
    """Type ``line`` into the board's input and press Enter."""
    browser.js("window.boardTerminal.focus()")
    browser.type(line)
    browser.key("Enter", 13)


@pytest.mark.slow
@needs_browser
def test_a_puzzle_played_to_its_end_in_the_browser(tmp_path):
    moves = [format_action(action) for action in shipped.solution(PUZZLE).actions]
    with served("--puzzle", PUZZLE) as server:
        browser = DevTools(server.url, tmp_path / "profile", on_screen("Turn 1: seat 0 to move"), KEEP_THE_TERMINAL, 90)
        try:
            first, boards = browser.session, server.boards()
            assert boards, "a board process for the page"
            enter(browser, moves[0])
            browser.wait_for(on_screen("Turn 2: seat 0 to move"))
            # A second connection gets a game of its own (a process of its own), from its first turn.
            browser.new_page(server.url, on_screen("Turn 1: seat 0 to move"))
            assert "(no turn played yet)" in browser.js(SCREEN)
            second = server.boards() - boards
            assert second, "a board process for the second page"
            browser.session = first
            enter(browser, " ".join(moves[1:]))  # the rest of the solution, typed as one line
            browser.wait_for(on_screen("Won after 39 turn(s)."))
            screen = browser.js(SCREEN)
            assert "you won with 14 spare card(s): as many as the puzzle's solution" in screen, screen
            assert f"puzzle {PUZZLE}, grade 1 of 5" in screen, screen
            requests = browser.requests()
        finally:
            browser.close()
        code, _, err = server.interrupt()
    assert (code, err) == (130, "Interrupted.\n")
    assert gone(boards | second), "every board process has ended"
    assert server.url in requests and any(url.startswith("ws:") for url in requests)  # the recording works
    here = urlsplit(server.url).netloc
    assert all(urlsplit(url).netloc == here for url in requests if url != "about:blank"), requests


@pytest.mark.slow
@needs_browser
def test_boards_end_with_their_browser_even_while_solving(tmp_path):
    # A page gone while its board solves: the solve's thread used to keep the board process
    # alive (and busy) long after the board had quit, and the server waiting for it.
    with served("--puzzle", PUZZLE, "--hint-time", "120") as server:
        browser = DevTools(server.url, tmp_path / "profile", on_screen("Turn 1: seat 0 to move"), KEEP_THE_TERMINAL, 60)
        try:
            enter(browser, "hint")
            browser.new_page(server.url, on_screen("Turn 1: seat 0 to move"))
            enter(browser, "hint")
            browser.wait_for(on_screen("solving (120 s at most)..."))
            boards = server.boards()
            assert len(boards) >= 2, "a board process for each page"
            os.kill(browser.proc.pid, signal.SIGKILL)
            browser.proc.wait()
            assert gone(boards, 15), "no board process outlives its page by 15 s"
        finally:
            browser.close()
        code, _, err = server.interrupt()
        assert (code, err) == (130, "Interrupted.\n")
        assert not server.boards()


@pytest.mark.slow
@needs_browser
def test_a_page_that_stops_answering_loses_its_board(tmp_path):
    with served("--puzzle", PUZZLE) as server:
        browser = DevTools(server.url, tmp_path / "profile", on_screen("Turn 1: seat 0 to move"), KEEP_THE_TERMINAL, 60)
        frozen = {browser.proc.pid} | descendants(browser.proc.pid)
        try:
            boards = server.boards()
            assert boards, "a board process for the page"
            for pid in frozen:  # the whole browser, as a frozen machine: its connection stays open, silent
                os.kill(pid, signal.SIGSTOP)
            assert gone(boards, 15), "the board ends once its page has stopped answering"
        finally:
            for pid in frozen:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            browser.close()
        code, _, err = server.interrupt()
    assert (code, err) == (130, "Interrupted.\n")


@pytest.mark.slow
@needs_browser
def test_the_page_names_no_key_the_browser_keeps_and_f2_asks_for_the_hint(tmp_path):
    """In the browser the key bar offers no key the browser keeps for itself (ctrl+r reloads
    the page, and the game with it), the page says how to make a move, and F2, which no
    browser takes, reaches the board: its hint comes back."""
    with served("--puzzle", PUZZLE, "--hint-time", "2") as server:
        browser = DevTools(server.url, tmp_path / "profile", on_screen("Turn 1: seat 0 to move"), KEEP_THE_TERMINAL, 90)
        try:
            browser.wait_for(on_screen("f2 Hint"))
            screen = browser.js(SCREEN)
            (bar,) = [line for line in screen.splitlines() if "f2 Hint" in line]
            assert not any(key in bar for key in ("^r", "^t", "^n", "^s", "^o")), bar
            assert "Type a move (" in screen, screen
            browser.js("window.boardTerminal.focus()")
            browser.key("F2", 113)
            browser.wait_for(on_screen("still winnable"))
        finally:
            browser.close()
        code, _, _ = server.interrupt()
    assert code == 130
