"""Running the odds: ``solve_batch``, the work of one task (a picklable top-level function
that solves and plays a batch of deals in whichever process runs it and returns plain
rows), and ``run_odds``, written once against ``concurrent.futures.Executor`` (a local
process pool, or a Dask client's executor): it submits batches, and the calling process
alone writes each finished batch, in one transaction. A killed run loses at most the
batches under way: the next run with the same arguments finds them missing and solves them."""

from __future__ import annotations

import concurrent.futures as cf
import math
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.batch.odds_store import MAX_SEED, Batch, OddsStore, Played, Scope, Solved, Work, budget_json, line_hash
from tranquility.solver.engine.deal import check_players, deal
from tranquility.solver.engine.rules import Rules
from tranquility.solver.errors import BadInput
from tranquility.solver.search.budget import Budget
from tranquility.solver.stop_signals import forkserver, held
from tranquility.solver.verdicts import DecidedBy, Verdict
from tranquility.solver.version import __version__

MAX_BATCH = 10  # deals per task at most (a killed run loses at most the batches under way)


# Finished batches are written together at most this often: each commit waits for the disk
# (synchronous=FULL), and one per batch kept --jobs 2 at 1.7x the deals/s of --jobs 1 on a
# virtual machine's disk (2.0x with the database in memory). A kill loses this much more.
COMMIT_SECONDS = 1.0


IN_FLIGHT = 2  # batches queued per slot (process or Dask thread) beyond the one running
MANAGER_JOIN_SECONDS = 10.0  # a stopped pool's thread ends in milliseconds; never hang Ctrl-C on it


def solve_batch(rules: dict[str, Any], work: Sequence[Work], budget: Budget) -> Batch:
    """Solve and play the deals of ``work`` under ``rules`` (a ``Rules.to_dict()``), in
    this process: the task a worker runs. A play uses the deal's seed as its sim seed;
    a policy is named as the store names it (``thrifty``, ``lookahead:12``: plays.py).

    A solve that was interrupted (Ctrl-C reached it) raises KeyboardInterrupt instead of
    returning ``unknown``: only a verdict the budget gave is ever stored."""
    from tranquility.solver.batch.plays import play, player

    in_force = Rules.from_dict(rules)
    solved: list[Solved] = []
    played: list[Played] = []
    for item in work:
        game = deal(in_force, item.players, item.seed)
        if item.solve:
            result = solve(game, budget)
            if result.method == DecidedBy.INTERRUPTED:
                raise KeyboardInterrupt
            won = result.verdict == Verdict.WIN
            solved.append(
                Solved(
                    item.players,
                    item.seed,
                    str(result.verdict),
                    str(result.method),
                    result.seconds,
                    line_hash(result.winning_line) if won else None,
                    __version__,
                )
            )
        for policy in item.policies:
            began = time.monotonic()
            sim, decisions = play(game, player(policy, item.seed), item.seed)
            took = time.monotonic() - began
            played.append(
                Played(item.players, item.seed, policy, sim.won, sim.turns, sim.cells_filled, took, __version__, decisions)
            )
    return Batch(tuple(solved), tuple(played))


def check_odds(rules: Rules, players: Iterable[int], seeds: range, policies: Iterable[str] = ()) -> None:
    """BadInput unless every deal of the run can be dealt, its seeds fit the database
    (0 .. 2^63-1) and every policy is a stored name (plays.py). Every rule set the engine
    accepts is solved (the modules too)."""
    from tranquility.solver.batch.plays import seat_of

    if seeds.start < 0 or seeds.stop - 1 > MAX_SEED:
        raise BadInput(f"the seeds of an odds run must lie in 0..{MAX_SEED} (SQLite integers)")
    seats = {seat for seat in map(seat_of, policies) if seat is not None}
    for p in players:
        check_players(rules, p)
        deal(rules, p, seeds.start).check()
        for seat in seats:
            if seat >= p:
                raise BadInput(f"a lookahead at seat {seat} cannot play: a {p}-player game has seats 0..{p - 1}")


@dataclass
class RunProgress:
    """What ``run_odds`` tells ``on_batch`` after each stored batch: deals done of the
    run's ``total``, and the verdicts stored in the run's scope (earlier runs' included)."""

    done: int
    total: int
    counts: dict[str, int]
    seconds: float
    plays: dict[str, tuple[int, int]] = field(default_factory=dict)  # per policy: (won, stored) in the scope

    @property
    def deals_per_s(self) -> float | None:
        return self.done / self.seconds if self.done and self.seconds > 0 else None


@dataclass
class RunReport:
    """A run's outcome: the work it found left, what it did, whether Ctrl-C stopped it."""

    scope: Scope
    total: int  # deals with something left to do when the run began
    done: int = 0  # of them, done and stored
    seconds: float = 0.0
    interrupted: bool = False
    run_id: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    plays: dict[str, tuple[int, int]] = field(default_factory=dict)  # per policy: (won, stored) in the scope

    @property
    def deals_per_s(self) -> float | None:
        return self.done / self.seconds if self.done and self.seconds > 0 else None


def batches(work: Sequence[Work], size: int) -> Iterator[list[Work]]:
    for start in range(0, len(work), size):
        yield list(work[start : start + size])


def batch_size(deals: int, slots: int, searching: bool = False) -> int:
    """About four batches per slot, at most ``MAX_BATCH`` deals each (at least one); one
    deal each when a searching policy plays (``searching``): its games take seconds, so the
    slots share them out deal by deal and a killed run loses one game per slot."""
    if searching:
        return 1
    return max(1, min(MAX_BATCH, math.ceil(deals / (4 * max(1, slots)))))


def run_odds(
    store: OddsStore,
    rules: Rules,
    players: Sequence[int],
    seeds: range,
    budget: Budget,
    executor: cf.Executor,
    *,
    slots: int = 1,
    policies: Sequence[str] = (),
    retry_unknown: bool = False,
    batch: int | None = None,
    executor_name: str = "local",
    on_start: Callable[[RunProgress], None] | None = None,
    on_batch: Callable[[RunProgress], None] | None = None,
) -> RunReport:
    """Solve (and play, with ``policies``) every seeded deal of ``players`` x ``seeds``
    that ``store`` does not hold yet, on ``executor``, and store the batches as they end
    (those finished within ``COMMIT_SECONDS`` of each other in one transaction).

    ``slots``: how many tasks the executor runs at once (its processes, or the Dask
    cluster's threads); batches are sized from it (``batch`` deals each, default
    ``batch_size``) and at most ``slots * (1 + IN_FLIGHT)`` are queued at a time. Only
    this process writes to ``store``. Ctrl-C (KeyboardInterrupt) stops the run: queued
    batches are cancelled, a local pool's workers are stopped, the batches already
    finished are stored, and the report says ``interrupted``. Any other error in a task
    is raised once the batches already finished are stored."""
    from tranquility.solver.batch.plays import is_searching

    check_odds(rules, players, seeds, policies)
    digest = store.add_rules(rules)
    scope = Scope(digest, tuple(players), seeds)
    work = store.missing(digest, players, seeds, policies, retry_unknown)
    report = RunReport(scope, total=len(work), counts=store.counts(scope), plays=store.plays(scope))
    began = time.monotonic()
    if on_start is not None:
        on_start(RunProgress(0, len(work), dict(report.counts), 0.0, dict(report.plays)))
    if not work:
        return report
    args = {
        "rules_hash": digest,
        "players": list(players),
        "seeds": [seeds.start, seeds.stop - 1],
        "budget": budget_json(budget),
        "policies": list(policies),
        "retry_unknown": retry_unknown,
    }
    report.run_id = store.start_run(slots, executor_name, args)
    searching = any(is_searching(name) for item in work for name in item.policies)
    todo = batches(work, batch if batch is not None else batch_size(len(work), slots, searching))
    run = _Run(store, rules.to_dict(), budget, executor, todo, max(1, slots) * (1 + IN_FLIGHT), report, began, on_batch)
    try:
        run.submit()
        while run.pending:
            run.collect()
    except KeyboardInterrupt:
        report.interrupted = True
        with held():  # a second Ctrl-C comes after what came back is stored
            halt(executor, run.pending)
            if store.conn.in_transaction:  # Ctrl-C between a write and its COMMIT
                store.conn.execute("ROLLBACK")
            run.save()
            report.counts = store.counts(scope)
            report.plays = store.plays(scope)
    except BaseException:
        halt(executor, run.pending)
        run.save()
        raise
    report.seconds = time.monotonic() - began
    return report


@dataclass
class _Run:
    """A run under way: the batches still to send, those on the executor (at most
    ``limit``), those back and not stored yet, and the report the stored ones update."""

    store: OddsStore
    rules: dict[str, Any]
    budget: Budget
    executor: cf.Executor
    todo: Iterator[list[Work]]
    limit: int
    report: RunReport
    began: float
    on_batch: Callable[[RunProgress], None] | None
    pending: dict[cf.Future, int] = field(default_factory=dict)  # a batch on the executor -> its deals
    finished: list[tuple[Batch, int]] = field(default_factory=list)  # back, not stored yet
    saved_at: float = field(default_factory=time.monotonic)

    def submit(self) -> None:
        """Queue batches until ``limit`` are on the executor or none is left."""
        while len(self.pending) < self.limit:
            items = next(self.todo, None)
            if items is None:
                return
            self.pending[self.executor.submit(solve_batch, self.rules, items, self.budget)] = len(items)

    def collect(self) -> None:
        """Take the batches that end within ``COMMIT_SECONDS``, queue more, and store what
        came back once nothing is left or ``COMMIT_SECONDS`` have passed since the last write."""
        done, _ = cf.wait(self.pending, timeout=COMMIT_SECONDS, return_when=cf.FIRST_COMPLETED)
        for future in done:
            deals = self.pending.pop(future)
            self.finished.append((future.result(), deals))  # a task's error ends the run here (a bug: exit 3)
        self.submit()
        if not self.pending or time.monotonic() - self.saved_at >= COMMIT_SECONDS:
            self.save()

    def save(self) -> None:
        """Store the batches back, in one transaction, and report them."""
        if not self.finished:
            return
        # Taken off the list first: were the write interrupted, its batches would be solved
        # again by the next run, never counted twice in this run's counters.
        taken = self.finished[:]
        self.finished.clear()
        deals = sum(n for _, n in taken)
        elapsed = time.monotonic() - self.began
        report = self.report
        self.store.write(report.scope.rules_hash, self.budget, Batch.joined([b for b, _ in taken]), report.run_id, elapsed, deals)
        self.saved_at = time.monotonic()
        report.done += deals
        report.seconds = elapsed
        report.counts = self.store.counts(report.scope)
        report.plays = self.store.plays(report.scope)
        if self.on_batch is not None:
            self.on_batch(RunProgress(report.done, report.total, dict(report.counts), elapsed, dict(report.plays)))


def halt(executor: cf.Executor, pending: Iterable[cf.Future]) -> None:
    """Cancel what is queued and stop what runs, without waiting for it."""
    for future in pending:
        future.cancel()
    stop = getattr(executor, "terminate_workers", None)  # ProcessPoolExecutor, Python 3.14 on
    if stop is not None:
        stop()
    elif isinstance(executor, cf.ProcessPoolExecutor):
        processes = getattr(executor, "_processes", None) or {}  # before 3.14: no public way
        manager = getattr(executor, "_executor_manager_thread", None)
        for process in list(processes.values()):
            process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)
        # The pool's thread closes its wake-up pipe once it sees the workers gone; at exit
        # Python writes to that pipe without the pool's lock, and a write racing the close
        # fails with a traceback (EBADF). Waiting for the thread closes the race.
        if manager is not None:
            manager.join(timeout=MANAGER_JOIN_SECONDS)
    else:
        executor.shutdown(wait=False)


def local_executor(jobs: int) -> cf.ProcessPoolExecutor:
    """A process pool of ``jobs`` workers for ``run_odds``: 'forkserver' processes (never
    forked from a parent that runs threads, such as a progress display) with the solver
    loaded once in the server. The main process alone answers Ctrl-C, by stopping the
    pool, so a solve never ends early as 'interrupted' and nothing half-done is stored:
    the workers keep the server's ignored Ctrl-C from their first instruction."""
    context = forkserver(["tranquility.solver.batch.odds_runner", "tranquility.solver.batch.plays"])
    pool = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    # Every worker started at once: one whose start Ctrl-C cut short would be unknown to the
    # pool, so never stopped, and would fail noisily once this process had gone.
    try:
        with held():
            cf.wait([pool.submit(os.getpid) for _ in range(jobs)])
    except BaseException:
        # A pool left to the garbage collector races Python's exit over its wake-up pipe
        # (halt); Ctrl-C during the warm-up stops it here, as a run would.
        with held():
            halt(pool, ())
        raise
    return pool


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1
