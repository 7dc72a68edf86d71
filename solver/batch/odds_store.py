"""The odds database (docs/odds.md): one SQLite file, WAL mode, unique keys, one row per
deal keyed by (rules hash, players, seed), one per (deal, policy) and one per timed
decision of a searching policy's play (``lookahead:N``). Rows are only ever
inserted, except that a stored unknown is replaced by a decided verdict
(``--retry-unknown``): a decided verdict never changes. Also the rows a batch returns."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Rules
from tranquility.solver.errors import BadInput
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Verdict
from tranquility.solver.version import __version__

SCHEMA_VERSION = 1


MAX_SEED = 2**63 - 1  # SQLite integers are signed 64-bit: the seeds stored stay below this


BUSY_SECONDS = 60.0  # how long a write waits for another run's transaction on the same file


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
    policy       TEXT NOT NULL,        -- a silent policy (policies.POLICIES), or lookahead:N (plays.py)
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
CREATE TABLE IF NOT EXISTS decisions (
    rules_hash  TEXT NOT NULL,
    players     INTEGER NOT NULL,
    seed        INTEGER NOT NULL,
    policy      TEXT NOT NULL,         -- a searching policy's play: lookahead:N
    turn        INTEGER NOT NULL,      -- the turn the decision played
    seat        INTEGER NOT NULL,
    cpu_seconds REAL NOT NULL,         -- the decision's CPU seconds, in the thread that played
    PRIMARY KEY (rules_hash, players, seed, policy, turn),
    FOREIGN KEY (rules_hash, players, seed, policy) REFERENCES plays (rules_hash, players, seed, policy)
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


# A play's decisions go in with it: a play stored by another run keeps its own.
_WRITE_DECISION = """
INSERT OR IGNORE INTO decisions (rules_hash, players, seed, policy, turn, seat, cpu_seconds)
VALUES (?, ?, ?, ?, ?, ?, ?)
"""


def canonical_json(data: Any) -> str:
    """The one spelling of a JSON value that hashes are taken of: sorted keys, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def line_hash(line: Line) -> str:
    """sha256 (hex) of the line file's canonical JSON: the same line, the same hash."""
    from tranquility.solver.formats.codecs import line_to_json

    return hashlib.sha256(canonical_json(line_to_json(line)).encode()).hexdigest()


def budget_json(budget: Budget) -> dict[str, Any]:
    return asdict(budget)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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
class Decision:
    """One decision of a searching seat: its turn, its seat, its CPU seconds."""

    turn: int
    seat: int
    cpu_seconds: float


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
    decisions: tuple[Decision, ...] = ()  # a searching policy's, timed


@dataclass(frozen=True)
class Batch:
    """What ``solve_batch`` hands back: plain values, cheap to pickle."""

    solved: tuple[Solved, ...] = ()
    played: tuple[Played, ...] = ()

    @classmethod
    def joined(cls, batches: Sequence[Batch]) -> Batch:
        return cls(tuple(s for b in batches for s in b.solved), tuple(p for b in batches for p in b.played))


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
            self.conn.executemany(
                _WRITE_DECISION,
                [
                    (rules_hash, p.players, p.seed, p.policy, d.turn, d.seat, d.cpu_seconds)
                    for p in batch.played
                    for d in p.decisions
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

    def plays(self, scope: Scope) -> dict[str, tuple[int, int]]:
        """Per policy played in ``scope``: (games won, games stored)."""
        sql, args = scope.where("plays")
        rows = self.conn.execute(f"SELECT policy, SUM(won), COUNT(*) FROM plays WHERE {sql} GROUP BY policy", args)
        return {policy: (won, games) for policy, won, games in rows}

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
