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

A worker may also die on its own (the out-of-memory killer, a ``kill -9``): its pipe then
ends, the job it ran fails with ``WorkerLost`` and the worker is replaced; an idle worker
found dead is replaced before it is given a job. ``close`` stops every job as Ctrl-C does,
waits a moment for their answers, then kills what is left: the server never waits on a
worker to stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext
from typing import Any

from tranquility.solver.stop_signals import forkserver

GRACE = 5.0  # seconds a worker has to answer once interrupted, before it is killed
LOADING = 120.0  # seconds a fresh worker may take to load the solver before its first job


class Busy(Exception):
    """Every worker is busy and the queue is full."""


class TooLong(Exception):
    """The job outlived its cap and did not stop when asked."""


class WorkerLost(Exception):
    """The worker process running the job died (killed, perhaps for memory): the job is lost."""


class Stopped(Exception):
    """The job was stopped (cancelled, the cap, the server stopping) before it had found anything."""


class JobFailed(Exception):
    """The job's input could not be used (``bad``, answered 400) or the job hit a bug."""

    def __init__(self, message: str, bad: bool):
        super().__init__(message)
        self.bad = bad


def _serve(
    conn: Connection, jobs: Mapping[str, Callable[[Mapping[str, Any], Callable[[dict], None]], dict]], preload: Callable[[], None]
) -> None:
    """A worker's life: a job, its progress and its answer, then the next. SIGINT stops a
    job only while it runs: it is blocked while a message is sent (one cut in two would
    garble the pipe) and between jobs, and one that came too late for the job it was
    meant for is dropped once the server has acknowledged that job's answer."""
    from tranquility.solver.errors import BadInput

    held = {signal.SIGINT}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)  # before its handler: none comes before a job
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def send(message: tuple[str, Any]) -> None:
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        conn.send(message)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)

    preload()  # while the server answers: the first job then finds everything loaded
    conn.send(("ready", None))
    while True:
        try:
            kind, body = conn.recv()
        except EOFError:  # the server is gone
            return
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)
        try:
            answer: tuple[str, Any] = ("done", jobs[kind](body, lambda step: send(("progress", step))))
        except KeyboardInterrupt:
            answer = ("stopped", "stopped before it had found anything")
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
    def __init__(self, jobs: Mapping[str, Any], preload: Callable[[], None], context: ForkServerContext):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, jobs, preload), daemon=True, name="tranquility-serve-worker")
        self.process.start()
        child.close()
        self.guard = threading.Lock()
        self.running = False  # between a job's sending and its answer: an interrupt reaches that job only
        self.lost = False  # its pipe ended mid-job: the process is dead or dying
        self.heard = False
        self.ready = False  # its preload done (its "ready" read)

    def call(
        self, kind: str, body: Mapping[str, Any], progress: Callable[[dict], None], ticket: Ticket, started: Callable[[], None]
    ) -> dict:
        """Run one job (in a thread of the server: this blocks until the answer); ``started``
        is called once the worker has loaded and been given the job (the cap counts from it)."""
        with self.guard:
            self.running = True
        self.heard = False  # whether this job has heard from the worker: one that died silent is run again
        try:
            if not self.ready:
                self.conn.recv()  # ("ready", None): its preload is done
                self.ready = True
            self.conn.send((kind, body))
            started()
            if ticket.cancelled:
                self.interrupt()
            while True:
                tag, payload = self.conn.recv()
                self.heard = True
                if tag == "progress":
                    progress(payload)
                elif tag == "done":
                    return payload
                elif tag == "stopped":
                    raise Stopped(payload)
                else:
                    raise JobFailed(*payload)
        except (EOFError, OSError):  # its pipe ended: the process is gone
            self.lost = True
            raise WorkerLost(
                "the worker process running this job died (killed, perhaps for lack of memory); it was replaced: try again"
            ) from None
        finally:
            with self.guard:
                self.running = False
            if not self.lost:
                with contextlib.suppress(OSError):
                    self.conn.send(("ack", None))

    def healthy(self) -> bool:
        """Alive, with its pipe open: a dead process's end of the pipe reads as ready (EOF);
        an idle worker's pipe holds nothing else but its ``ready``."""
        if self.lost or not self.process.is_alive():
            return False
        try:
            while self.conn.poll():
                self.conn.recv()
                self.ready = True
        except (EOFError, OSError):
            return False
        return True

    def interrupt(self) -> None:
        with self.guard:
            if self.running and self.process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.process.pid, signal.SIGINT)

    def stop(self) -> None:
        """Killed and reaped; its pipe closed (a thread still reading it sees the end)."""
        self.process.kill()
        self.process.join(2)
        self.conn.close()


def _module_of(job: Callable) -> str:
    """The module a job (or a ``partial`` of one) is defined in: the fork server imports it."""
    return getattr(job, "func", job).__module__


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
    each job stopped (SIGINT) after ``cap`` seconds; each worker runs ``preload`` first.
    The workers are forked by a fork server that has imported ``modules`` (and the jobs'
    own), never by this process, whose event loop would fork a replacement while one of
    its threads (a table's bots) may be importing: the child would find that module half
    imported, and the import's lock held for good."""

    def __init__(
        self,
        jobs: Mapping[str, Any],
        size: int,
        queue: int,
        cap: float,
        preload: Callable[[], None] = lambda: None,
        modules: Iterable[str] = (),
    ):
        self.jobs, self.size, self.queue, self.cap, self.preload = jobs, size, queue, cap, preload
        self.context = forkserver([*modules, *(_module_of(job) for job in (preload, *jobs.values()))])
        self.workers = [_Worker(jobs, preload, self.context) for _ in range(size)]
        self.threads = ThreadPoolExecutor(max_workers=size, thread_name_prefix="tranquility-serve-job")
        self.idle: asyncio.Queue[_Worker] | None = None
        self.waiting = 0
        self.closed = False
        self.running: set[asyncio.Future] = set()

    async def run(
        self, kind: str, body: Mapping[str, Any], progress: Callable[[dict], None], ticket: Ticket, again: bool = True
    ) -> dict:
        """The job's answer; Busy when the queue is full, TooLong when it would not stop,
        WorkerLost when its worker died, JobFailed for its input or a bug. ``progress``
        hears its steps on the loop."""
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
        if self.closed:
            raise Busy("the server is stopping")
        if not worker.healthy():
            worker = self._replace(worker)
        ticket.worker = worker

        def told(step: dict) -> None:
            loop.call_soon_threadsafe(progress, step)

        begun = asyncio.Event()

        def started() -> None:
            loop.call_soon_threadsafe(begun.set)

        running = loop.run_in_executor(self.threads, worker.call, kind, body, told, ticket, started)
        self.running.add(running)
        try:
            return await self._within_cap(running, worker, begun)
        except WorkerLost:
            if worker.heard or self.closed or ticket.cancelled or not again:
                raise
        finally:
            ticket.worker = None
            if running.done():
                self._release(worker, running)
            else:  # this request was cancelled while its job ran: the worker is free once the job has stopped
                worker.interrupt()
                running.add_done_callback(lambda _: self._release(worker, running))
        # Its worker died before it said a word of this job (killed while idle, found out only
        # now): the job is run once more, on a fresh worker.
        return await self.run(kind, body, progress, ticket, again=False)

    def _release(self, worker: _Worker, running: asyncio.Future) -> None:
        self.running.discard(running)
        if not running.cancelled():
            running.exception()  # retrieved: a lost job's failure is its caller's, not the loop's log
        if self.closed or self.idle is None:
            return
        self.idle.put_nowait(worker if worker.healthy() else self._replace(worker))

    def full(self) -> bool:
        """Whether a job now would be refused: every worker busy and the queue full."""
        return self.idle is not None and self.idle.empty() and self.waiting >= self.queue

    def busy_message(self) -> str:
        return f"the server is busy: {self.size} job(s) running and {self.waiting} waiting; try again in a moment"

    async def _within_cap(self, running: asyncio.Future, worker: _Worker, begun: asyncio.Event) -> dict:
        """The job's answer within the cap, counted from when its worker took it (a fresh
        worker loads the solver first, at most LOADING seconds)."""
        waiting = asyncio.ensure_future(begun.wait())
        await asyncio.wait({waiting, running}, timeout=LOADING, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if not begun.is_set() and not running.done():
            worker.process.kill()  # it never got ready
        with contextlib.suppress(asyncio.TimeoutError):
            return await asyncio.wait_for(asyncio.shield(running), self.cap)
        worker.interrupt()  # the cap: the job ends as Ctrl-C ends it, with what it has
        with contextlib.suppress(asyncio.TimeoutError):
            return await asyncio.wait_for(asyncio.shield(running), GRACE)
        worker.process.kill()  # it did not stop: the pipe closes and its thread ends
        with contextlib.suppress(WorkerLost, JobFailed, Stopped):
            await running
        raise TooLong(f"the job took longer than this server's cap of {self.cap:g} s and was stopped")

    def _replace(self, dead: _Worker) -> _Worker:
        dead.stop()
        fresh = _Worker(self.jobs, self.preload, self.context)
        self.workers[self.workers.index(dead)] = fresh
        return fresh

    async def close(self, grace: float) -> None:
        """Every running job interrupted (it answers with what it has found, as Ctrl-C makes
        the command answer), ``grace`` seconds for those answers, then every worker killed."""
        self.closed = True
        for worker in self.workers:
            worker.interrupt()
        if self.running:
            await asyncio.wait(set(self.running), timeout=grace)
        self.kill()

    def kill(self) -> None:
        """Every worker killed at once (a job still running fails: its pipe ends)."""
        self.closed = True
        for worker in self.workers:
            worker.stop()
        self.threads.shutdown(wait=False, cancel_futures=True)
