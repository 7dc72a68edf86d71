"""The worker processes that do the server's solving, off its event loop.

Solving is CPU-bound Python (and CP-SAT): in the server's process it would stall every
other request, and a thread cannot be stopped. So each worker is a process of its own,
started once and given one job at a time over a pipe; it sends the job's progress back as
it goes, then the answer. The pool is bounded: ``size`` processes and at most ``queue``
jobs waiting for one; a job beyond that is refused at once (``Busy``, a 503), never queued
without end.

A job is stopped the way Ctrl-C stops the command: SIGINT to its worker, which the library
answers with what it has found so far, marked interrupted (a solve's ``unknown``, the moves
decided). That is how a client cancels, and how the per-job time cap ends a job; a worker
that has not answered a few seconds after its SIGINT is killed and replaced, and the job
is ``TooLong``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

GRACE = 5.0  # seconds a worker has to answer once interrupted, before it is killed


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class TooLong(Exception):
    """The job outlived its cap and did not stop when asked."""


class JobFailed(Exception):
    """The job's input could not be used (``bad``, answered 400) or the job hit a bug."""

    def __init__(self, message: str, bad: bool):
        super().__init__(message)
        self.bad = bad


def _serve(conn: Connection, jobs: Mapping[str, Callable[[Mapping[str, Any], Callable[[dict], None]], dict]]) -> None:
    """A worker's life: a job, its progress and its answer, then the next. SIGINT stops a
    job only while it runs: it is blocked while a message is sent (one cut in two would
    garble the pipe) and between jobs, and one that came too late for the job it was
    meant for is dropped once the server has acknowledged that job's answer."""
    from tranquility.solver.errors import BadInput

    signal.set_wakeup_fd(-1)  # the server's loop set one: it is not this process's
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    held = {signal.SIGINT}

    def send(message: tuple[str, Any]) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        conn.send(message)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)

    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    while True:
        try:
            kind, body = conn.recv()
        except EOFError:  # the server is gone
            return
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
        try:
            answer: tuple[str, Any] = ("done", jobs[kind](body, lambda step: send(("progress", step))))
        except KeyboardInterrupt:
            answer = ("failed", ("stopped before it had found anything", False))
        except BadInput as exc:
            answer = ("failed", (str(exc), True))
        except Exception as exc:  # a bug: said as the CLI says it, and the worker lives on
            answer = ("failed", (f"internal error (a bug): {type(exc).__name__}: {exc}", False))
        finally:
            signal.pthread_sigmask(signal.SIG_BLOCK, held)
        conn.send(answer)
        try:
            conn.recv()  # the acknowledgement: no interrupt is sent for this job after it
        except EOFError:
            return
        if signal.SIGINT in signal.sigpending():
            signal.sigwait(held)


class _Worker:
    def __init__(self, jobs: Mapping[str, Any]):
        context = multiprocessing.get_context("fork")
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, jobs), daemon=True, name="tranquility-serve-worker")
        self.process.start()
        child.close()
        self.guard = threading.Lock()
        self.running = False  # between a job's sending and its answer: an interrupt reaches that job only

    def call(self, kind: str, body: Mapping[str, Any], progress: Callable[[dict], None], ticket: Ticket) -> dict:
        """Run one job (in a thread of the server: this blocks until the answer)."""
        self.conn.send((kind, body))
        with self.guard:
            self.running = True
        if ticket.cancelled:
            self.interrupt()
        try:
            while True:
                tag, payload = self.conn.recv()
                if tag == "progress":
                    progress(payload)
                elif tag == "done":
                    return payload
                else:
                    raise JobFailed(*payload)
        finally:
            with self.guard:
                self.running = False
            with contextlib.suppress(OSError):
                self.conn.send(("ack", None))

    def interrupt(self) -> None:
        with self.guard:
            if self.running and self.process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.process.pid, signal.SIGINT)

    def stop(self) -> None:
        self.conn.close()
        self.process.kill()
        self.process.join(2)


@dataclass
class Ticket:
    """A job's handle while it waits or runs: ``cancel`` stops it (with what it found)."""

    worker: _Worker | None = None
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True
        if self.worker is not None:
            self.worker.interrupt()


class Pool:
    """``size`` worker processes and a queue of at most ``queue`` jobs (module docstring);
    each job stopped (SIGINT) after ``cap`` seconds."""

    def __init__(self, jobs: Mapping[str, Any], size: int, queue: int, cap: float):
        self.jobs, self.size, self.queue, self.cap = jobs, size, queue, cap
        self.workers = [_Worker(jobs) for _ in range(size)]
        self.threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix="tranquility-serve-job")
        self.idle: asyncio.Queue[_Worker] | None = None
        self.waiting = 0

    async def run(self, kind: str, body: Mapping[str, Any], progress: Callable[[dict], None], ticket: Ticket) -> dict:
        """The job's answer; Busy when the queue is full, TooLong when it would not stop,
        JobFailed for its input or a bug. ``progress`` hears its steps on the loop."""
        if self.idle is None:
            self.idle = asyncio.Queue()
            for worker in self.workers:
                self.idle.put_nowait(worker)
        if self.full():
            raise Busy(self.busy_message())
        loop = asyncio.get_running_loop()
        self.waiting += 1
        try:
            worker = await self.idle.get()
        finally:
            self.waiting -= 1
        ticket.worker = worker

        def told(step: dict) -> None:
            loop.call_soon_threadsafe(progress, step)

        running = loop.run_in_executor(self.threads, worker.call, kind, body, told, ticket)
        try:
            return await self._within_cap(running, worker)
        finally:
            ticket.worker = None
            if worker.process.is_alive():
                self.idle.put_nowait(worker)
            else:
                self.idle.put_nowait(self._replace(worker))

    def full(self) -> bool:
        """Whether a job now would be refused: every worker busy and the queue full."""
        return self.idle is not None and self.idle.empty() and self.waiting >= self.queue

    def busy_message(self) -> str:
        return f"the server is busy: {self.size} job(s) running and {self.waiting} waiting; try again in a moment"

    async def _within_cap(self, running: asyncio.Future, worker: _Worker) -> dict:
        with contextlib.suppress(asyncio.TimeoutError):
            return await asyncio.wait_for(asyncio.shield(running), self.cap)
        worker.interrupt()  # the cap: the job ends as Ctrl-C ends it, with what it has
        with contextlib.suppress(asyncio.TimeoutError):
            return await asyncio.wait_for(asyncio.shield(running), GRACE)
        worker.process.kill()  # it did not stop: the pipe closes and its thread ends
        with contextlib.suppress(EOFError, OSError, JobFailed):
            await running
        raise TooLong(f"the job took longer than this server's cap of {self.cap:g} s and was stopped")

    def _replace(self, dead: _Worker) -> _Worker:
        dead.stop()
        fresh = _Worker(self.jobs)
        self.workers[self.workers.index(dead)] = fresh
        return fresh

    def close(self) -> None:
        for worker in self.workers:
            worker.stop()
        self.threads.shutdown(wait=False, cancel_futures=True)
