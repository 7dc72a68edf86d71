"""``odds --scheduler``: the address is checked before a Dask client is given it. A refused
port, a silent server, an HTTP server and peers that answer with anything but a Dask
scheduler's handshake and identity end in one line and exit 2 within --scheduler-timeout;
Ctrl-C while waiting is exit 130; a real scheduler passes. Every address is on 127.0.0.1.

The fake Dask peers frame their messages with distributed's own functions, so the check is
held to what distributed writes, not to its own reading of it."""

from __future__ import annotations

import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from distributed.protocol.core import dumps
from distributed.protocol.utils import pack_frames
from tranquility.solver.batch.dask_check import NoAnswer, NotAScheduler, check_scheduler, scheduler_address
from tranquility.solver.errors import BadInput

from ..helpers import default_ctrl_c, run

ODDS = ["odds", "--players", "4", "--deals", "2", "--reproducible"]
HANDSHAKE = {"compression": None, "python": (3, 12, 0), "pickle-protocol": 5}


def dask_message(msg: dict) -> bytes:
    """``msg`` as distributed's TCP comm writes it: the length, then the packed frames."""
    body = pack_frames(dumps(msg))
    return struct.pack("Q", len(body)) + body


@contextmanager
def peer(answer: bytes = b"", close: bool = True) -> Iterator[tuple[str, threading.Event]]:
    """(address, accepted): a server on 127.0.0.1 that reads what a connection sends,
    answers ``answer`` and closes its side (or, ``close`` false, goes silent): with
    neither, it accepts and never writes."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.05)
    accepted, stop = threading.Event(), threading.Event()
    held: list[socket.socket] = []  # open until the end, so that no close resets what was sent

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            accepted.set()
            held.append(conn)
            if answer or close:
                conn.recv(65536)
                conn.sendall(answer)
            if close:
                conn.shutdown(socket.SHUT_WR)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}", accepted
    finally:
        stop.set()
        thread.join()
        for conn in [*held, server]:
            conn.close()


def refused_address() -> str:
    with socket.create_server(("127.0.0.1", 0)) as sock:
        port = sock.getsockname()[1]
    return f"tcp://127.0.0.1:{port}"


# -- the library ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("tcp://127.0.0.1:8786", ("127.0.0.1", 8786)),
        ("10.0.0.5:8786", ("10.0.0.5", 8786)),
        ("tcp://[::1]:8786", ("::1", 8786)),
        ("tcp://Scheduler.example:1", ("scheduler.example", 1)),
    ],
)
def test_scheduler_addresses_are_tcp_host_and_port(text, expected):
    assert scheduler_address(text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "tcp://127.0.0.1", "127.0.0.1", "http://127.0.0.1:8787", "tls://127.0.0.1:8786", "inproc://10.0.0.5/1/2",
     "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536", "tcp://127.0.0.1:port", "tcp://[::1:8786", "tcp://h:1/status",
     "tcp://user@h:1", "tcp://:8786"],
)
def test_anything_else_is_bad_input(text):
    with pytest.raises(BadInput, match="not a scheduler address; give tcp://HOST:PORT"):
        scheduler_address(text)


@pytest.mark.parametrize(
    "answer, what",
    [
        # The dashboard's port: the reply's first bytes, read as a length, are 3 EiB.
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "it answered 'HTTP/1.1 400 Bad Request'"),
        (b"SSH-2.0-OpenSSH_9.6\r\n", "it answered 'SSH-2.0-OpenSSH_9.6'"),
        (b"", "it closed the connection without answering"),
        (b"abc", "it answered 'abc'"),
        (b"a" * 100, f"it answered '{'a' * 60}...'"),
        # A length within bounds, then the connection closed: nothing of that size is awaited.
        (struct.pack("Q", 60 * 2**20) + b"\x01", "it answered '"),
        # Frames whose count or first length overruns the message, or that are not msgpack.
        (struct.pack("QQ", 16, 2**40) + bytes(8), "it answered '"),
        (struct.pack("QQQ", 24, 1, 2**20) + bytes(8), "it answered '"),
        (struct.pack("QQQ", 25, 1, 1) + b"\xc1", "it answered '"),
        # Dask's framing, but not a handshake; a handshake, then no identity.
        (dask_message({"hello": "there"}), "it answered '"),
        (dask_message(HANDSHAKE), "it answered '"),
        # Dask servers that are not a scheduler.
        (dask_message(HANDSHAKE) + dask_message({"type": "Worker", "id": "w"}), "it is a Dask worker"),
        (dask_message(HANDSHAKE) + dask_message({"status": "uncaught-error"}), "it speaks Dask's protocol but did not say"),
    ],
    ids=["http", "ssh", "closed", "short", "long line", "big length", "frame count", "frame length", "not msgpack",
         "not a handshake", "no identity", "worker", "no type"],
)
def test_what_answers_is_named_when_it_is_not_a_scheduler(answer, what):
    with peer(answer) as (address, _), pytest.raises(NotAScheduler) as caught:
        check_scheduler(address, 5)
    assert str(caught.value).startswith(f"{address}: not a Dask scheduler ({what}")
    assert not isinstance(caught.value, NoAnswer)


def test_a_peer_that_answers_as_a_scheduler_passes():
    answer = dask_message(HANDSHAKE) + dask_message({"type": "Scheduler", "id": "s", "workers": {}})
    with peer(answer) as (address, _):
        assert check_scheduler(address.removeprefix("tcp://"), 5) == address


def test_a_refused_port_and_an_unknown_host():
    address = refused_address()
    with pytest.raises(NotAScheduler, match=f"^{address}: connection refused$"):
        check_scheduler(address, 5)
    with pytest.raises(NotAScheduler, match=r"^nowhere\.invalid:8786: unknown host nowhere\.invalid "):
        check_scheduler("nowhere.invalid:8786", 5)


def test_silence_ends_at_the_timeout():
    with peer(close=False) as (address, accepted):
        start = time.monotonic()
        with pytest.raises(NoAnswer) as caught:
            check_scheduler(address, 0.3)
        took = time.monotonic() - start
    assert accepted.is_set()
    assert 0.3 <= took < 2
    assert str(caught.value) == f"{address}: no answer within 0.3 s"


def test_a_few_bytes_then_silence_are_quoted_at_the_timeout():
    with peer(b"abc", close=False) as (address, _), pytest.raises(NotAScheduler) as caught:
        check_scheduler(address, 0.3)
    assert str(caught.value) == f"{address}: not a Dask scheduler (it answered 'abc')"
    assert not isinstance(caught.value, NoAnswer)


@pytest.mark.slow
def test_a_real_scheduler_passes_and_its_worker_does_not():
    from distributed import LocalCluster

    with LocalCluster(processes=False, protocol="tcp://", n_workers=1, threads_per_worker=1, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert check_scheduler(address, 5) == address
        worker = next(iter(cluster.scheduler_info["workers"]))
        with pytest.raises(NotAScheduler, match="it is a Dask worker"):
            check_scheduler(worker, 5)


# -- the command line -------------------------------------------------------------------------


def odds_fails(*args) -> str:
    """The one line ``odds`` fails with (exit 2), having created nothing."""
    done = run(*ODDS, *args)
    assert done.exit_code == 2, done.output
    assert "Traceback" not in done.output
    assert not Path("odds.sqlite").exists()
    return done.output.strip().splitlines()[-1]


def test_a_refused_port_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    address = refused_address()
    assert odds_fails("--scheduler", address) == f"Error: --scheduler {address}: connection refused"


def test_a_silent_server_exits_2_at_the_timeout(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with peer(close=False) as (address, accepted):
        start = time.monotonic()
        line = odds_fails("--scheduler", address, "--scheduler-timeout", "0.5")
        took = time.monotonic() - start
    assert accepted.is_set()
    assert line == f"Error: --scheduler {address}: no answer within 0.5 s (--scheduler-timeout)"
    assert took < 5


def test_an_http_server_exits_2_quoting_its_answer(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"127.0.0.1:{server.server_address[1]}"
    try:
        line = odds_fails("--scheduler", address)
    finally:
        server.shutdown()
        server.server_close()
    assert line.startswith(f"Error: --scheduler {address}: not a Dask scheduler (it answered '")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--scheduler", "http://127.0.0.1:8787"], "--scheduler http://127.0.0.1:8787: not a scheduler address"),
        (["--scheduler-timeout", "5"], "--scheduler-timeout is only taken with --scheduler"),
        (["--scheduler", "tcp://127.0.0.1:1", "--scheduler-timeout", "0"], "is not in the range x>0"),
    ],
)
def test_scheduler_options_that_cannot_be_used_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    assert message in odds_fails(*args)


@pytest.mark.slow
def test_ctrl_c_while_waiting_for_the_scheduler_exits_130(tmp_path):
    with peer(close=False) as (address, accepted):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tranquility.cli", *ODDS, "--scheduler", address, "--scheduler-timeout", "60"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=default_ctrl_c,
        )
        try:
            assert accepted.wait(60), "the run never connected"
            start = time.monotonic()
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=30)
            took = time.monotonic() - start
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["Interrupted."]
    assert took < 10
    assert not (tmp_path / "odds.sqlite").exists()
