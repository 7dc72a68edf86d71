"""A deal played by a policy named as the odds store and the benchmark name it: a silent policy
by its name (``thrifty``), a searching one with its budget (``lookahead:12``, 12 worlds per
decision; ``open-hands:60``, the ceiling that sees every hand), and a lookahead searching at
one seat only, the others playing its blueprint, with that seat (``lookahead:60@0``), so
that plays of different budgets or modes never share a name. Every decision a searching
player makes is timed in CPU seconds of the thread that makes it (``time.thread_time``): one
core's seconds, in a pool's process or a Dask worker's thread."""

from __future__ import annotations

import time
from typing import Any

from tranquility.solver.batch.odds_store import Decision
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.line import Game
from tranquility.solver.engine.state import State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.lookahead import CEILINGS, Lookahead, OpenHands
from tranquility.solver.search.memory import SeatMemory
from tranquility.solver.search.policies import POLICIES, Policy, SimResult, make_policy, simulate

SEARCHING = Lookahead.name
SEARCHERS = (Lookahead.name, OpenHands.name)  # the players stored with their worlds per decision


class Timed:
    """A searching player (the same arguments, the same moves) that notes the CPU seconds of
    each decision a searching seat makes (every seat, or its ``seat``), in ``decisions``."""

    seat: int | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.decisions: list[Decision] = []

    def decide_at(self, state: State, memory: SeatMemory | None) -> Action:
        began = time.thread_time()
        action = super().decide_at(state, memory)  # type: ignore[misc]
        if self.seat is None or state.seat == self.seat:
            self.decisions.append(Decision(state.turn, state.seat, time.thread_time() - began))
        return action


class TimedLookahead(Timed, Lookahead):
    """``Lookahead``, its decisions timed."""


class TimedOpenHands(Timed, OpenHands):
    """``OpenHands``, its decisions timed."""


TIMED: dict[str, type[Lookahead]] = {Lookahead.name: TimedLookahead, OpenHands.name: TimedOpenHands}


def stored_name(policy: str, samples: int | None = None, seat: int | None = None) -> str:
    """The name a play is stored under: a silent policy's own, ``lookahead:N`` or
    ``open-hands:N`` for a searching one with ``samples`` worlds per decision (which it needs),
    ``lookahead:N@K`` for a lookahead that searches at ``seat`` K alone."""
    if seat is not None and (policy != SEARCHING or seat < 0):
        raise BadInput(f"only {SEARCHING} searches at one seat ({SEARCHING}:N@K, K a seat from 0), not {policy}")
    if policy in SEARCHERS:
        if samples is None or samples < 1:
            raise BadInput(f"{policy} is stored with its worlds per decision: {policy}:N, N at least 1")
        return f"{policy}:{samples}" + ("" if seat is None else f"@{seat}")
    if samples is not None:
        raise BadInput(f"{policy} does not sample worlds: only {' and '.join(SEARCHERS)} take a budget")
    if policy not in POLICIES:
        raise BadInput(f"unknown policy {policy!r} (known: {', '.join((*POLICIES, *SEARCHERS))})")
    return policy


def budget_of(name: str) -> int | None:
    """The worlds per decision of a stored ``lookahead:N``, ``lookahead:N@K`` or
    ``open-hands:N``; None for a silent policy's name. BadInput for a name that is neither."""
    return _parsed(name)[0]


def seat_of(name: str) -> int | None:
    """The one seat that searches in a stored ``lookahead:N@K``; None when every seat does
    (or for a player that does not search)."""
    return _parsed(name)[1]


def _parsed(name: str) -> tuple[int | None, int | None]:
    """(worlds per decision, searching seat) of a stored name, each None where it has none."""
    policy, colon, rest = name.partition(":")
    samples, at, seat = rest.partition("@")
    if colon and policy in SEARCHERS and samples.isdigit() and (not at or seat.isdigit()):
        found = int(samples), int(seat) if at else None
        if stored_name(policy, *found) == name:
            return found
    stored_name(name)  # a silent policy's name, or BadInput
    return None, None


def is_searching(name: str) -> bool:
    """Whether a stored name is a searching player's (its plays carry timed decisions)."""
    return name.partition(":")[0] in SEARCHERS


def is_ceiling(name: str) -> bool:
    """Whether a stored name is a ceiling's, a player that is no seat (``open-hands:N``)."""
    return name.partition(":")[0] in CEILINGS


def player(name: str, seed: int) -> Policy:
    """The policy a stored name stands for, made with ``seed`` (the sim seed)."""
    samples, seat = _parsed(name)
    if samples is None:
        return make_policy(name, seed)
    made = TIMED[name.partition(":")[0]]
    return made(seed, samples) if seat is None else made(seed, samples, seat)


def play(game: Game, policy: Policy, seed: int) -> tuple[SimResult, tuple[Decision, ...]]:
    """``simulate(game, policy, seed)`` (the engine checks every action; a silent policy
    plays on the compiled core) and the timed decisions of a searching player (none for
    any other policy)."""
    result = simulate(game, policy, seed, compiled=True)
    return result, tuple(policy.decisions) if isinstance(policy, Timed) else ()
