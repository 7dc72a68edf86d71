"""How often a rule set can be won: many seeded deals solved, every result kept in SQLite
(docs/odds.md; ``tranquility odds``).

The pieces, each usable without the command line:

* ``OddsStore``: the database (schema below, WAL mode, unique keys). One row per deal,
  keyed by (rules hash, players, seed), and one per (deal, policy) for the silent-table
  plays. Rows are only ever inserted (``INSERT OR IGNORE``), except that a stored unknown
  is replaced by a decided verdict (``--retry-unknown``): a decided verdict never changes.
* ``solve_batch``: the work of one task, a picklable top-level function that solves (and
  plays) a batch of deals in whichever process runs it and returns plain rows.
* ``run_odds``: the runner, written once against ``concurrent.futures.Executor`` (a local
  process pool from ``local_executor``, or a Dask client's executor): it submits batches,
  and the calling process alone writes each finished batch, in one transaction.
* ``summarise`` (an ``OddsSummary`` with ``to_json()``), ``wilson`` and ``odds_interval``
  for the intervals, and ``plot`` for the figure (matplotlib, imported only there).

A run that is killed loses at most the batches under way: what was committed stays, what
was not is found missing and solved by the next run with the same arguments.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import math
import os
import signal
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import __version__
from .deal import check_players, deal
from .errors import BadInput
from .line import Line
from .rules import Rules
from .ruleset import rules_name
from .solve import Budget, solve
from .verdicts import DecidedBy, Verdict

SCHEMA_VERSION = 1
Z95 = 1.96  # the normal quantile of a two-sided 95% interval, as the textbooks round it
MAX_SEED = 2**63 - 1  # SQLite integers are signed 64-bit: the seeds stored stay below this
BUSY_SECONDS = 60.0  # how long a write waits for another run's transaction on the same file
MAX_BATCH = 10  # deals per task at most (a killed run loses at most the batches under way)
# Finished batches are written together at most this often: each commit waits for the disk
# (synchronous=FULL), and one per batch kept --jobs 2 at 1.7x the deals/s of --jobs 1 on a
# virtual machine's disk (2.0x with the database in memory). A kill loses this much more.
COMMIT_SECONDS = 1.0
IN_FLIGHT = 2  # batches queued per slot (process or Dask thread) beyond the one running

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rules (
    hash TEXT PRIMARY KEY,             -- Rules.digest(): sha256 of the canonical rules JSON
    json TEXT NOT NULL                 -- that canonical JSON (sorted keys, no spaces)
);
CREATE TABLE IF NOT EXISTS runs (
    id         INTEGER PRIMARY KEY,
    started_at TEXT NOT NULL,          -- UTC, ISO 8601
    seconds    REAL NOT NULL,          -- wall-clock seconds so far (updated with each batch)
    deals      INTEGER NOT NULL,       -- deals done by the run (solved, played or both)
    jobs       INTEGER NOT NULL,       -- processes, or the Dask cluster's threads
    executor   TEXT NOT NULL,          -- "local" or "dask <scheduler address>"
    args       TEXT NOT NULL,          -- JSON: rules hash, players, seeds, budget, policies
    version    TEXT NOT NULL           -- package version of the process that wrote
);
CREATE TABLE IF NOT EXISTS deals (
    rules_hash TEXT NOT NULL REFERENCES rules(hash),
    players    INTEGER NOT NULL,
    seed       INTEGER NOT NULL,
    verdict    TEXT NOT NULL CHECK (verdict IN ('win', 'no-win', 'unknown')),
    method     TEXT NOT NULL,          -- what decided: refute, greedy, exhaustive, cpsat; timeout
    seconds    REAL NOT NULL,          -- the solve's wall-clock seconds, in its worker
    time_limit REAL,                   -- seconds of the budget; NULL for a reproducible one
    budget     TEXT NOT NULL,          -- JSON of the whole Budget the solve ran under
    line_hash  TEXT,                   -- a win's: sha256 of its line file's canonical JSON
    version    TEXT NOT NULL,          -- package version of the worker that solved
    run_id     INTEGER REFERENCES runs(id),
    solved_at  TEXT NOT NULL,          -- UTC, ISO 8601
    PRIMARY KEY (rules_hash, players, seed)
);
CREATE TABLE IF NOT EXISTS plays (
    rules_hash   TEXT NOT NULL REFERENCES rules(hash),
    players      INTEGER NOT NULL,
    seed         INTEGER NOT NULL,
    policy       TEXT NOT NULL,        -- a policy of tranquility.solver.simulate.POLICIES
    sim_seed     INTEGER NOT NULL,     -- the policy's own seed: the deal's seed
    won          INTEGER NOT NULL CHECK (won IN (0, 1)),
    turns        INTEGER NOT NULL,
    cells_filled INTEGER NOT NULL,
    seconds      REAL NOT NULL,
    version      TEXT NOT NULL,
    run_id       INTEGER REFERENCES runs(id),
    played_at    TEXT NOT NULL,
    PRIMARY KEY (rules_hash, players, seed, policy)
);
"""

# A stored unknown gives way to a decided verdict; nothing else is ever overwritten.
_WRITE_DEAL = """
INSERT INTO deals (rules_hash, players, seed, verdict, method, seconds, time_limit, budget,
                   line_hash, version, run_id, solved_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (rules_hash, players, seed) DO UPDATE SET
    verdict = excluded.verdict, method = excluded.method, seconds = excluded.seconds,
    time_limit = excluded.time_limit, budget = excluded.budget, line_hash = excluded.line_hash,
    version = excluded.version, run_id = excluded.run_id, solved_at = excluded.solved_at
WHERE deals.verdict = 'unknown' AND excluded.verdict <> 'unknown'
"""

_WRITE_PLAY = """
INSERT OR IGNORE INTO plays (rules_hash, players, seed, policy, sim_seed, won, turns,
                             cells_filled, seconds, version, run_id, played_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


def canonical_json(data: Any) -> str:
    """The one spelling of a JSON value that hashes are taken of: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def line_hash(line: Line) -> str:
    """sha256 (hex) of the line file's canonical JSON: the same line, the same hash."""
    from .formats import line_to_json

    return hashlib.sha256(canonical_json(line_to_json(line)).encode()).hexdigest()


def budget_json(budget: Budget) -> dict[str, Any]:
    return asdict(budget)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# -- the intervals ------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (95% at the default
    ``z``); ``(0, 1)`` when there is no trial."""
    if not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # 0 of n starts at exactly 0 and n of n ends at exactly 1 (not at a rounding error off).
    low = max(0.0, centre - half) if k > 0 else 0.0
    high = min(1.0, centre + half) if k < n else 1.0
    return low, high


def odds_interval(win: int, unknown: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Winnability's interval, honest about what is undecided: its low end counts every
    unknown as a loss (the Wilson low of ``win`` of ``n``), its high end counts every
    unknown as a win (the Wilson high of ``win + unknown`` of ``n``)."""
    return wilson(win, n, z)[0], wilson(win + unknown, n, z)[1]


# -- the work of one task ------------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    """One deal to do: solve it (``solve``) and/or play it with ``policies``."""

    players: int
    seed: int
    solve: bool
    policies: tuple[str, ...] = ()


@dataclass(frozen=True)
class Solved:
    players: int
    seed: int
    verdict: str
    method: str
    seconds: float
    line_hash: str | None
    version: str


@dataclass(frozen=True)
class Played:
    players: int
    seed: int
    policy: str
    won: bool
    turns: int
    cells_filled: int
    seconds: float
    version: str


@dataclass(frozen=True)
class Batch:
    """What ``solve_batch`` hands back: plain values, cheap to pickle."""

    solved: tuple[Solved, ...] = ()
    played: tuple[Played, ...] = ()

    @classmethod
    def joined(cls, batches: Sequence[Batch]) -> Batch:
        return cls(tuple(s for b in batches for s in b.solved), tuple(p for b in batches for p in b.played))


def solve_batch(rules: dict[str, Any], work: Sequence[Work], budget: Budget) -> Batch:
    """Solve and play the deals of ``work`` under ``rules`` (a ``Rules.to_dict()``), in
    this process: the task a worker runs. A play uses the deal's seed as its sim seed.

    A solve that was interrupted (Ctrl-C reached it) raises KeyboardInterrupt instead of
    returning ``unknown``: only a verdict the budget gave is ever stored."""
    from .simulate import simulate

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
            sim = simulate(game, policy, item.seed)
            took = time.monotonic() - began
            played.append(
                Played(item.players, item.seed, policy, sim.won, sim.turns, sim.cells_filled, took, __version__)
            )
    return Batch(tuple(solved), tuple(played))


# -- the database ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Scope:
    """Which stored deals a summary counts: one rule set, some player counts, a seed range."""

    rules_hash: str
    players: tuple[int, ...]
    seeds: range

    def where(self, table: str) -> tuple[str, list[Any]]:
        marks = ", ".join("?" for _ in self.players)
        sql = f"{table}.rules_hash = ? AND {table}.players IN ({marks}) AND {table}.seed BETWEEN ? AND ?"
        return sql, [self.rules_hash, *self.players, self.seeds.start, self.seeds.stop - 1]


class OddsStore:
    """The SQLite database of a batch of solves (schema: ``SCHEMA``, docs/odds.md).

    WAL mode, so that readers never block the writer and two runs can share the file;
    every write is one short transaction (``BEGIN IMMEDIATE``) that waits up to
    ``BUSY_SECONDS`` for another; ``synchronous=FULL``, so that a committed batch survives
    a power cut. ``create=False`` opens an existing database only (for ``--report``)."""

    def __init__(self, path: str | Path, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise BadInput(f"{self.path}: no such database (run tranquility odds with --db {self.path} first)")
        try:
            self.conn = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise BadInput(f"{self.path}: cannot open the database: {exc}") from None
        # Two runs opening the same new file at once: switching it to WAL needs the file to
        # itself, and SQLite answers "locked" at once there (no busy wait), to the switch and
        # to the other side's reads. Every step is idempotent, so wait and start again, up
        # to BUSY_SECONDS, as every other statement waits.
        until = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=FULL")
                self.conn.execute("PRAGMA foreign_keys=ON")
                self._migrate(create)
                return
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) and time.monotonic() < until:
                    if self.conn.in_transaction:
                        self.conn.rollback()
                    time.sleep(0.02)
                    continue
                self.conn.close()
                raise BadInput(f"{self.path}: cannot open the odds database: {exc}") from None
            except sqlite3.DatabaseError as exc:
                self.conn.close()
                raise BadInput(f"{self.path}: not an odds database: {exc}") from None
            except BadInput:
                self.conn.close()
                raise

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> OddsStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self, create: bool) -> None:
        """Create the tables in a new (empty) file; refuse a database that holds other
        tables, or (``create`` False) none: it is not this program's."""
        tables = {name for (name,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            raise BadInput(f"{self.path}: not an odds database (it holds other tables: {', '.join(sorted(tables))})")
        if not tables and not create:
            raise BadInput(f"{self.path}: not an odds database (it is empty)")
        # One transaction, so that two runs creating the same new file do not interleave.
        self.conn.executescript(f"BEGIN IMMEDIATE; {SCHEMA}; COMMIT;")
        with self._transaction():
            self.conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            (found,) = self.conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if found != str(SCHEMA_VERSION):
            raise BadInput(f"{self.path}: odds database schema {found}; this version reads schema {SCHEMA_VERSION}")

    def _transaction(self):
        return _Transaction(self.conn)

    # -- writing

    def add_rules(self, rules: Rules) -> str:
        digest = rules.digest()
        with self._transaction():
            self.conn.execute("INSERT OR IGNORE INTO rules (hash, json) VALUES (?, ?)", (digest, canonical_json(rules.to_dict())))
        return digest

    def start_run(self, jobs: int, executor: str, args: dict[str, Any]) -> int:
        with self._transaction():
            cursor = self.conn.execute(
                "INSERT INTO runs (started_at, seconds, deals, jobs, executor, args, version) VALUES (?, 0, 0, ?, ?, ?, ?)",
                (_now(), jobs, executor, canonical_json(args), __version__),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def write(
        self, rules_hash: str, budget: Budget, batch: Batch, run: int | None = None, seconds: float = 0.0, deals: int = 0
    ) -> None:
        """Store finished work (one batch, or several ``Batch.joined``) in one transaction,
        with the run's counters when ``run`` is given: all of it or, if the process dies
        first, none of it."""
        stamp = _now()
        limit = None if budget.reproducible else budget.seconds
        spent = canonical_json(budget_json(budget))
        with self._transaction():
            self.conn.executemany(
                _WRITE_DEAL,
                [
                    (rules_hash, s.players, s.seed, s.verdict, s.method, s.seconds, limit, spent, s.line_hash, s.version,
                     run, stamp)
                    for s in batch.solved
                ],
            )
            self.conn.executemany(
                _WRITE_PLAY,
                [
                    (rules_hash, p.players, p.seed, p.policy, p.seed, int(p.won), p.turns, p.cells_filled, p.seconds,
                     p.version, run, stamp)
                    for p in batch.played
                ],
            )
            if run is not None:
                self.conn.execute("UPDATE runs SET seconds = ?, deals = deals + ? WHERE id = ?", (seconds, deals, run))

    # -- reading

    def missing(
        self,
        rules_hash: str,
        players: Iterable[int],
        seeds: range,
        policies: Sequence[str] = (),
        retry_unknown: bool = False,
    ) -> list[Work]:
        """What is left to do, seed by seed (each seed's player counts together): the
        deals not stored (or stored unknown, with ``retry_unknown``), and the plays of
        ``policies`` not stored."""
        counts = tuple(players)
        stored: dict[tuple[int, int], str] = {}
        have: dict[tuple[int, int], set[str]] = {}
        for p in counts:
            rows = self.conn.execute(
                "SELECT seed, verdict FROM deals WHERE rules_hash = ? AND players = ? AND seed BETWEEN ? AND ?",
                (rules_hash, p, seeds.start, seeds.stop - 1),
            )
            stored.update(((p, seed), verdict) for seed, verdict in rows)
            if policies:
                rows = self.conn.execute(
                    "SELECT seed, policy FROM plays WHERE rules_hash = ? AND players = ? AND seed BETWEEN ? AND ?",
                    (rules_hash, p, seeds.start, seeds.stop - 1),
                )
                for seed, policy in rows:
                    have.setdefault((p, seed), set()).add(policy)
        work = []
        for seed in seeds:
            for p in counts:
                verdict = stored.get((p, seed))
                again = verdict is None or (retry_unknown and verdict == Verdict.UNKNOWN)
                owed = tuple(name for name in policies if name not in have.get((p, seed), ()))
                if again or owed:
                    work.append(Work(p, seed, again, owed))
        return work

    def verdicts(self, scope: Scope | None = None) -> dict[tuple[str, int, int], str]:
        """(rules hash, players, seed) -> verdict of every stored deal (in ``scope``)."""
        sql, args = scope.where("deals") if scope is not None else ("1", [])
        rows = self.conn.execute(f"SELECT rules_hash, players, seed, verdict FROM deals WHERE {sql}", args)
        return {(h, p, s): v for h, p, s, v in rows}

    def counts(self, scope: Scope) -> dict[str, int]:
        """How many stored deals in ``scope`` have each verdict."""
        sql, args = scope.where("deals")
        found = dict(self.conn.execute(f"SELECT verdict, COUNT(*) FROM deals WHERE {sql} GROUP BY verdict", args).fetchall())
        return {str(v): found.get(str(v), 0) for v in Verdict}

    def throughput(self) -> float | None:
        """Deals per second over the runs recorded (deals they did over their seconds)."""
        deals, seconds = self.conn.execute("SELECT SUM(deals), SUM(seconds) FROM runs WHERE deals > 0").fetchone()
        return deals / seconds if deals and seconds else None


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception (Ctrl-C too)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")


# -- the summary ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PolicyRate:
    policy: str
    deals: int
    won: int

    @property
    def rate(self) -> float | None:
        return self.won / self.deals if self.deals else None

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.won, self.deals)

    def to_json(self) -> dict[str, Any]:
        return {"won": self.won, "deals": self.deals, "rate": _round(self.rate), "ci95": [_round(x) for x in self.ci95]}


@dataclass(frozen=True)
class Group:
    """One (rule set, player count) of the summary."""

    rules: Rules
    rules_hash: str
    players: int
    win: int
    no_win: int
    unknown: int
    median_s: float | None
    p90_s: float | None
    policies: tuple[PolicyRate, ...] = ()

    @property
    def deals(self) -> int:
        return self.win + self.no_win + self.unknown

    @property
    def winnability(self) -> float | None:
        return self.win / self.deals if self.deals else None

    @property
    def ci95(self) -> tuple[float, float]:
        return odds_interval(self.win, self.unknown, self.deals)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "rules_hash": self.rules_hash,
            "players": self.players,
            "deals": self.deals,
            "win": self.win,
            "no_win": self.no_win,
            "unknown": self.unknown,
            "winnability": _round(self.winnability),
            "ci95": [_round(x) for x in self.ci95],
            "median_s": _round(self.median_s),
            "p90_s": _round(self.p90_s),
            "policies": {p.policy: p.to_json() for p in self.policies},
        }


@dataclass(frozen=True)
class OddsSummary:
    """Per (rule set, player count): the verdicts, winnability with its interval, solve
    times, and the policies' win rates; ``deals_per_s``: of the run (None when it did
    nothing), or, for a report, over the runs recorded."""

    groups: tuple[Group, ...]
    deals_per_s: float | None = None

    @property
    def policies(self) -> tuple[str, ...]:
        """The policies played in any group, in the order they first appear."""
        return tuple(dict.fromkeys(p.policy for g in self.groups for p in g.policies))

    def to_json(self) -> dict[str, Any]:
        return {"groups": [g.to_json() for g in self.groups], "deals_per_s": _round(self.deals_per_s, 2)}


def shown_share(value: float, digits: int, outward: Callable[[float], float] | None = None) -> str:
    """A share as a percentage with ``digits`` decimals, for people. An interval's ends are
    rounded outward (``math.floor`` / ``math.ceil``), so 10,000 wins of 10,000 show [99.9,
    100.0], never a certain [100.0, 100.0]; a share short of all or above none never shows
    100 or 0."""
    scaled = 100 * value * 10**digits
    if outward is not None:
        shown = outward(scaled + (1e-9 if outward is math.floor else -1e-9))
    else:
        shown = round(scaled)
        if shown == 100 * 10**digits and value < 1:
            shown -= 1
        elif shown == 0 and value > 0:
            shown = 1
    return f"{max(0, min(shown, 100 * 10**digits)) / 10**digits:.{digits}f}"


def shown_interval(ci: tuple[float, float], digits: int = 1) -> tuple[str, str]:
    """An interval's ends as percentages, rounded outward."""
    return shown_share(ci[0], digits, math.floor), shown_share(ci[1], digits, math.ceil)


def shown_bracket(ci: tuple[float, float]) -> str:
    """An interval for people: ``[80.3, 82.0]``."""
    low, high = shown_interval(ci)
    return f"[{low}, {high}]"


def shown_percent(value: float | None, ci: tuple[float, float] | None = None) -> str:
    """A share for people: ``81.2%``, or with its interval ``81.2% [80.3, 82.0]``; ``-`` for no deals."""
    if value is None:
        return "-"
    if ci is None:
        return f"{shown_share(value, 1)}%"
    return f"{shown_share(value, 1)}% {shown_bracket(ci)}"


def _md_row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def odds_markdown(summary: OddsSummary) -> str:
    """The summary as Markdown tables (docs/odds.md): perfect play per rule set and player
    count, then, where policies were played, their rates beside it."""
    head = ("rules", "players", "deals", "win", "no-win", "unknown", "winnable", "95% interval", "median s", "p90 s")
    lines = [_md_row(head), _md_row("---" for _ in head)]
    for g in summary.groups:
        counts = [f"{n:,}" for n in (g.deals, g.win, g.no_win, g.unknown)]
        times = ["-" if t is None else f"{t:.3f}" for t in (g.median_s, g.p90_s)]
        share = shown_percent(g.winnability)
        lines.append(_md_row([rules_name(g.rules), str(g.players), *counts, share, shown_bracket(g.ci95), *times]))
    policies = summary.policies
    if policies:
        columns = ("rules", "players", "perfect play", *policies)
        lines += ["", _md_row(columns), _md_row("---" for _ in columns)]
        for g in (g for g in summary.groups if g.policies):
            rates = {p.policy: p for p in g.policies}
            cells = [shown_percent(rates[n].rate, rates[n].ci95) if n in rates else "-" for n in policies]
            lines.append(_md_row([rules_name(g.rules), str(g.players), shown_percent(g.winnability), *cells]))
    return "\n".join(lines)


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def p90(values: Sequence[float]) -> float:
    """The nearest-rank 90th percentile (as ``tranquility bench`` reports it)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def summarise(store: OddsStore, scope: Scope | None = None, deals_per_s: float | None = None) -> OddsSummary:
    """The summary of what ``store`` holds (in ``scope``, else all of it), one group per
    (rule set, player count), rule sets in the order they were first stored."""
    sql, args = scope.where("d") if scope is not None else ("1", [])
    times: dict[tuple[str, int], list[float]] = {}
    verdicts: dict[tuple[str, int], dict[str, int]] = {}
    rules_of: dict[str, Rules] = {}
    order: list[tuple[str, int]] = []
    rows = store.conn.execute(
        f"SELECT d.rules_hash, r.json, d.players, d.verdict, d.seconds FROM deals d JOIN rules r ON r.hash = d.rules_hash "
        f"WHERE {sql} ORDER BY r.rowid, d.players",
        args,
    )
    for digest, text, players, verdict, seconds in rows:
        key = (digest, players)
        if key not in verdicts:
            order.append(key)
            verdicts[key] = {str(v): 0 for v in Verdict}
            times[key] = []
            if digest not in rules_of:
                rules_of[digest] = Rules.from_dict(json.loads(text))
        verdicts[key][verdict] += 1
        times[key].append(seconds)
    rates: dict[tuple[str, int], list[PolicyRate]] = {}
    sql, args = scope.where("p") if scope is not None else ("1", [])
    for digest, players, policy, n, won in store.conn.execute(
        f"SELECT p.rules_hash, p.players, p.policy, COUNT(*), SUM(p.won) FROM plays p WHERE {sql} GROUP BY 1, 2, 3", args
    ):
        rates.setdefault((digest, players), []).append(PolicyRate(policy, n, won))
    groups = []
    for key in order:
        counts, spent = verdicts[key], times[key]
        groups.append(
            Group(
                rules=rules_of[key[0]],
                rules_hash=key[0],
                players=key[1],
                win=counts[Verdict.WIN],
                no_win=counts[Verdict.NO_WIN],
                unknown=counts[Verdict.UNKNOWN],
                median_s=statistics.median(spent) if spent else None,
                p90_s=p90(spent) if spent else None,
                policies=tuple(sorted(rates.get(key, ()), key=lambda r: _policy_order(r.policy))),
            )
        )
    if scope is None and deals_per_s is None:
        deals_per_s = store.throughput()
    return OddsSummary(tuple(groups), deals_per_s)


def _policy_order(name: str) -> tuple[int, str]:
    from .simulate import POLICIES

    names = list(POLICIES)
    return (names.index(name), name) if name in names else (len(names), name)


# -- the runner ------------------------------------------------------------------------------


def check_odds(rules: Rules, players: Iterable[int], seeds: range) -> None:
    """BadInput unless every deal of the run can be dealt, and its seeds fit the database
    (0 .. 2^63-1). Every rule set the engine accepts is solved (the modules too)."""
    if seeds.start < 0 or seeds.stop - 1 > MAX_SEED:
        raise BadInput(f"the seeds of an odds run must lie in 0..{MAX_SEED} (SQLite integers)")
    for p in players:
        check_players(rules, p)
        deal(rules, p, seeds.start).check()


@dataclass
class RunProgress:
    """What ``run_odds`` tells ``on_batch`` after each stored batch: deals done of the
    run's ``total``, and the verdicts stored in the run's scope (earlier runs' included)."""

    done: int
    total: int
    counts: dict[str, int]
    seconds: float

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

    @property
    def deals_per_s(self) -> float | None:
        return self.done / self.seconds if self.done and self.seconds > 0 else None


def batches(work: Sequence[Work], size: int) -> Iterator[list[Work]]:
    for start in range(0, len(work), size):
        yield list(work[start : start + size])


def batch_size(deals: int, slots: int) -> int:
    """About four batches per slot, at most ``MAX_BATCH`` deals each (at least one)."""
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
    check_odds(rules, players, seeds)
    digest = store.add_rules(rules)
    scope = Scope(digest, tuple(players), seeds)
    work = store.missing(digest, players, seeds, policies, retry_unknown)
    report = RunReport(scope, total=len(work), counts=store.counts(scope))
    began = time.monotonic()
    if on_start is not None:
        on_start(RunProgress(0, len(work), dict(report.counts), 0.0))
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
    size = batch if batch is not None else batch_size(len(work), slots)
    todo = batches(work, size)
    limit = max(1, slots) * (1 + IN_FLIGHT)
    pending: dict[cf.Future, int] = {}
    rules_dict = rules.to_dict()

    def submit() -> None:
        while len(pending) < limit:
            items = next(todo, None)
            if items is None:
                return
            pending[executor.submit(solve_batch, rules_dict, items, budget)] = len(items)

    finished: list[tuple[Batch, int]] = []  # (batch, deals) back from the executor, not stored yet
    saved_at = time.monotonic()

    def save() -> None:
        nonlocal saved_at
        if not finished:
            return
        # Taken off the list first: were the write interrupted, its batches would be solved
        # again by the next run, never counted twice in this run's counters.
        taken = finished[:]
        finished.clear()
        deals = sum(n for _, n in taken)
        elapsed = time.monotonic() - began
        store.write(digest, budget, Batch.joined([b for b, _ in taken]), report.run_id, elapsed, deals)
        saved_at = time.monotonic()
        report.done += deals
        report.seconds = elapsed
        report.counts = store.counts(scope)
        if on_batch is not None:
            on_batch(RunProgress(report.done, report.total, dict(report.counts), elapsed))

    try:
        submit()
        while pending:
            done, _ = cf.wait(pending, timeout=COMMIT_SECONDS, return_when=cf.FIRST_COMPLETED)
            for future in done:
                size_done = pending.pop(future)
                finished.append((future.result(), size_done))  # a task's error ends the run here (a bug: exit 3)
            submit()
            if not pending or time.monotonic() - saved_at >= COMMIT_SECONDS:
                save()
    except KeyboardInterrupt:
        report.interrupted = True
        halt(executor, pending)
        if store.conn.in_transaction:  # Ctrl-C between a write and its COMMIT
            store.conn.execute("ROLLBACK")
        save()
        report.counts = store.counts(scope)
    except BaseException:
        halt(executor, pending)
        save()
        raise
    report.seconds = time.monotonic() - began
    return report


def halt(executor: cf.Executor, pending: Iterable[cf.Future]) -> None:
    """Cancel what is queued and stop what runs, without waiting for it."""
    for future in pending:
        future.cancel()
    stop = getattr(executor, "terminate_workers", None)  # ProcessPoolExecutor, Python 3.14 on
    if stop is not None:
        stop()
    elif isinstance(executor, cf.ProcessPoolExecutor):
        processes = getattr(executor, "_processes", None) or {}  # before 3.14: no public way
        for process in list(processes.values()):
            process.terminate()
        executor.shutdown(wait=False, cancel_futures=True)
    else:
        executor.shutdown(wait=False)


def _ignore_interrupts() -> None:
    """A worker leaves Ctrl-C to the main process, which stops the pool itself: a solve
    never ends early as 'interrupted', so nothing half-done is stored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def local_executor(jobs: int) -> cf.ProcessPoolExecutor:
    """A process pool of ``jobs`` workers for ``run_odds``: 'forkserver' processes (never
    forked from a parent that runs threads, such as a progress display) with the solver
    loaded once in the server, ignoring Ctrl-C."""
    import multiprocessing

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tranquility.solver.odds", "tranquility.solver.simulate"])
    return cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_interrupts)


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


# -- the figure ---------------------------------------------------------------------------------

PLOT_FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> str:
    """The figure's format from the extension (png or svg); BadInput otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise BadInput(f"{path}: the plot is written as PNG or SVG: name it .png or .svg")
    return suffix[1:]


def plot(summary: OddsSummary, path: str | Path) -> None:
    """Draw winnability per player count with its 95% interval as error bars, one series
    per rule set, and each policy's win rate beside it (offset a little, dashed), into
    ``path`` (PNG or SVG by the extension). matplotlib is imported here only, and draws
    without a display (a bare ``Figure`` renders through Agg)."""
    from matplotlib.figure import Figure

    fmt = check_plot_path(path)
    figure = Figure(figsize=(10, 5), dpi=100)
    axes = figure.add_subplot()
    by_rules: dict[str, list[Group]] = {}
    for group in summary.groups:
        by_rules.setdefault(group.rules_hash, []).append(group)
    policies = sorted({p.policy for g in summary.groups for p in g.policies}, key=_policy_order)
    series = len(by_rules) * (1 + len(policies))
    width = 0.6 / max(1, series)
    counts: set[int] = set()
    index = 0
    for groups in by_rules.values():
        name = rules_name(groups[0].rules)
        perfect = [g for g in groups if g.deals]
        points = [(g.players, g.winnability, g.ci95) for g in perfect]
        _errorbar(axes, points, _offset(index, series, width), f"{name}: perfect play", "o", "-")
        counts.update(g.players for g in perfect)
        index += 1
        for policy in policies:
            points = [(g.players, r.rate, r.ci95) for g in groups for r in g.policies if r.policy == policy and r.deals]
            _errorbar(axes, points, _offset(index, series, width), f"{name}: {policy}", "s", "--")
            index += 1
    axes.set_xticks(sorted(counts))
    axes.set_xlabel("players")
    axes.set_ylabel("deals won")
    axes.set_ylim(-0.02, 1.02)
    axes.yaxis.set_major_formatter(_percent)
    axes.set_title("Winnability, 95% Wilson interval (unknowns: lost at the low end, won at the high end)", fontsize=9)
    axes.grid(True, alpha=0.3)
    if index:
        # Beside the axes, not on them: with several rule sets any corner hides a point.
        axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    figure.tight_layout()
    figure.savefig(path, format=fmt)


def _percent(value: float, _position: object = None) -> str:
    return f"{100 * value:.0f}%"


def _offset(index: int, series: int, width: float) -> float:
    return (index - (series - 1) / 2) * width


def _errorbar(
    axes: Any, points: list[tuple[int, float | None, tuple[float, float]]], dx: float, label: str, marker: str, style: str
) -> None:
    shown: list[tuple[int, float, tuple[float, float]]] = [(x, y, ci) for x, y, ci in points if y is not None]
    if not shown:
        return
    xs = [x + dx for x, _, _ in shown]
    ys = [y for _, y, _ in shown]
    errors = [[y - ci[0] for _, y, ci in shown], [ci[1] - y for _, y, ci in shown]]
    axes.errorbar(xs, ys, yerr=errors, marker=marker, linestyle=style, capsize=3, label=label)
