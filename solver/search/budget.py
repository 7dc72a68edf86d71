"""What a solve may spend (``Budget``: seconds, threads, node and deterministic budgets, as
the command line's shared flags give them), when one search within it stops (``Deadline``:
a wall-clock limit and a node budget), and what a search counted (``SearchStats``). The
budget travels whole to where it is split into deadlines and CP-SAT limits."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field, replace

from tranquility.solver.verdicts import Proof


class Deadline:
    """A wall-clock limit and a node budget, whichever comes first; also stops once ``stop``
    is set (from another thread)."""

    def __init__(self, seconds: float | None = None, nodes: int | None = None, stop: threading.Event | None = None):
        self.until = None if seconds is None else time.monotonic() + seconds
        self.nodes_left = nodes
        self.stop = stop

    def tick(self) -> bool:
        """Count one node; True while there is budget left."""
        if self.nodes_left is not None:
            self.nodes_left -= 1
            if self.nodes_left < 0:
                return False
        return not self._stopped() and (self.until is None or time.monotonic() < self.until)

    def expired(self) -> bool:
        return (
            self._stopped()
            or (self.until is not None and time.monotonic() >= self.until)
            or (self.nodes_left is not None and self.nodes_left < 0)
        )

    def _stopped(self) -> bool:
        return self.stop is not None and self.stop.is_set()


@dataclass
class SearchStats:
    nodes: int = 0
    playouts: int = 0
    cache_hits: int = 0
    refuted: int = 0
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "nodes": self.nodes,
            "playouts": self.playouts,
            "cache_hits": self.cache_hits,
            "refuted": self.refuted,
            **self.extra,
        }


@dataclass(frozen=True)
class Budget:
    """Limits for one solve. Reproducible mode uses node budgets and CP-SAT deterministic
    time instead of seconds, and one CP-SAT worker."""

    seconds: float = 60.0
    workers: int = 2
    reproducible: bool = False
    greedy_playouts: int = 1000  # the decision's greedy phase at most; the greedy baseline's per Finish keeper
    search_nodes: int = 5_000  # auto: a short complete search before CP-SAT
    cpsat_deterministic: float = 60.0
    seed: int = 0
    proof: Proof = Proof.BOTH  # how the ladder decides its steps (--proof)

    @property
    def threads(self) -> int:
        """The threads a solve can run at once: its workers, at most one per core this
        process may use (more CP-SAT workers than cores starve each other)."""
        return max(1, min(self.workers, cores()))

    def part(self, share: float, seconds_left: float) -> Budget:
        """The budget of one part of a solve: ``share`` of the ``seconds_left`` on the clock,
        and the same share of the CP-SAT deterministic time."""
        return replace(self, seconds=share * seconds_left, cpsat_deterministic=share * self.cpsat_deterministic)


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
