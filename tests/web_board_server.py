"""``tranquility serve`` run as the program runs it, for the tests and the load benchmark:
a subprocess on a free loopback port, its address read from its first line, stopped with
Ctrl-C (SIGINT) and waited for."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

SECONDS = 30  # every wait on the server, bounded


@contextmanager
def served(*options: str) -> Iterator[str]:
    """The server's base URL (``http://127.0.0.1:PORT/``) while the block runs."""
    with serving(*options) as (_, url):
        yield url


@contextmanager
def serving(*options: str) -> Iterator[tuple[subprocess.Popen, str]]:
    """The server's process and base URL while the block runs; stopped after it (if the
    block has not stopped it)."""
    args = [sys.executable, "-m", "tranquility.cli", "serve", "--port", "0", *options]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], SECONDS)
        line = proc.stdout.readline() if ready else ""
        assert line.startswith("serving at http://127.0.0.1:"), (line, proc.poll())
        yield proc, line.split()[-1]
    finally:
        stop(proc)


def workers(proc: subprocess.Popen) -> list[int]:
    """The server's worker processes, by pid (Linux: /proc): the children of its fork server."""
    return [worker for child in _children(proc.pid) if _is_fork_server(child) for worker in _children(child)]


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as children:
            found.extend(int(child) for child in children.read().split())
    return found


def _is_fork_server(pid: int) -> bool:
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        return b"multiprocessing.forkserver" in cmdline.read()


def stop(proc: subprocess.Popen) -> int:
    """Ctrl-C, then the exit code (killed if it will not stop)."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        return proc.wait(SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def request(
    base: str, method: str, path: str, body: Any = None, raw: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    """(status, the JSON answer) of one request."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    sent = {"Content-Type": "application/json", **(headers or {})}
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=2 * SECONDS) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def events(base: str, job: str, found: list | None = None) -> list[tuple[str | None, Any]]:
    """A job's server-sent events, to its end (``done`` or ``error``), each appended to
    ``found`` as it comes."""
    found = [] if found is None else found
    with urllib.request.urlopen(f"{base.rstrip('/')}/api/jobs/{job}/events", timeout=2 * SECONDS) as stream:
        event = None
        for raw in stream:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[len("event: ") :]
            elif line.startswith("data: "):
                found.append((event, json.loads(line[len("data: ") :])))
    return found


def wait_until(condition, seconds: float = SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
