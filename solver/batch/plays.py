"""A deal played by a policy named as the odds store and the benchmark name it: a silent
policy by its name (``thrifty``), the searching one with its budget (``lookahead:12``, 12
worlds per decision), so that plays of different budgets never share a name. Every
decision a searching seat makes is timed in CPU seconds of the thread that makes it
(``time.thread_time``): one core's seconds, in a pool's process or a Dask worker's thread."""

from __future__ import annotations

import time
from typing import Any

from tranquility.solver.batch.odds_store import Decision
from tranquility.solver.engine.line import Game
from tranquility.solver.engine.observation import Observation
from tranquility.solver.errors import BadInput
from tranquility.solver.search.lookahead import Lookahead
from tranquility.solver.search.memory import SeatMemory
from tranquility.solver.search.policies import POLICIES, Policy, SimResult, make_policy, simulate

SEARCHING = Lookahead.name


class TimedLookahead(Lookahead):
    """``Lookahead`` (the same arguments, the same moves) that notes the CPU seconds of each
    decision a searching seat makes (every seat, or its ``seat``), in ``decisions``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions: list[Decision] = []

    def decide(self, obs: Observation, memory: SeatMemory | None):
        began = time.thread_time()
        action = super().decide(obs, memory)
        if self.seat is None or obs.seat == self.seat:
            self.decisions.append(Decision(obs.turn, obs.seat, time.thread_time() - began))
        return action


def stored_name(policy: str, samples: int | None = None) -> str:
    """The name a play is stored under: a silent policy's own, ``lookahead:N`` for the
    searching one with ``samples`` worlds per decision (which it needs)."""
    if policy == SEARCHING:
        if samples is None or samples < 1:
            raise BadInput(f"{SEARCHING} is stored with its worlds per decision: {SEARCHING}:N, N at least 1")
        return f"{SEARCHING}:{samples}"
    if samples is not None:
        raise BadInput(f"{policy} does not sample worlds: only {SEARCHING} takes a budget")
    if policy not in POLICIES:
        raise BadInput(f"unknown policy {policy!r} (known: {', '.join((*POLICIES, SEARCHING))})")
    return policy


def budget_of(name: str) -> int | None:
    """The worlds per decision of a stored ``lookahead:N``; None for a silent policy's name.
    BadInput for a name that is neither."""
    policy, colon, samples = name.partition(":")
    if colon and policy == SEARCHING and samples.isdigit() and stored_name(policy, int(samples)) == name:
        return int(samples)
    stored_name(name)  # a silent policy's name, or BadInput
    return None


def is_searching(name: str) -> bool:
    """Whether a stored name is the searching policy's (its plays carry timed decisions)."""
    return name.partition(":")[0] == SEARCHING


def player(name: str, seed: int) -> Policy:
    """The policy a stored name stands for, made with ``seed`` (the sim seed)."""
    samples = budget_of(name)
    return make_policy(name, seed) if samples is None else TimedLookahead(seed, samples)


def play(game: Game, policy: Policy, seed: int) -> tuple[SimResult, tuple[Decision, ...]]:
    """``simulate(game, policy, seed)`` (the engine checks every action; a silent policy
    plays on the compiled core) and the timed decisions of a ``TimedLookahead`` (none for
    any other policy)."""
    result = simulate(game, policy, seed, compiled=True)
    return result, tuple(policy.decisions) if isinstance(policy, TimedLookahead) else ()
