"""What a solve returns and what its parts share: the ``Result`` (verdict, line, proof,
phases), the ``Best`` value of an objective, the progress ``Step`` and the timed ``Phase``,
and the two checks every part relies on: the position a game reaches, and the replay of a
won line by the engine before anyone sees it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import Replayed, replayed, verify
from tranquility.solver.errors import InternalError
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict

DECIDE, IMPROVE = "decide", "improve"  # the phases of a solve (Phase.name)


# What a decide phase found (Phase.found).
FOUND_WIN, FOUND_NO_WIN, FOUND_NOTHING, FOUND_INTERRUPTED = "win", "no win", "nothing", "nothing (interrupted)"


@dataclass(frozen=True)
class Step:
    """What a long computation is doing now, for a progress display: the phase, when its
    budget ends (a ``time.monotonic()`` instant; None when it has no clock) and what it
    has found so far (the best line's value, the turns checked...). ``str`` gives the
    phase and what was found, for a callback that only shows text."""

    phase: str
    until: float | None = None
    found: str | None = None

    def __str__(self) -> str:
        return self.phase if self.found is None else f"{self.phase} ({self.found})"


Progress = Callable[[Step], None]


@dataclass(frozen=True)
class Phase:
    """One part of the work as it happened: ``name`` (decide, improve; explain adds its
    own), the ``method`` that ran, its ``seconds``, and what it ``found``: for decide,
    win, no win or nothing; for improve, the objective's value before and after."""

    name: str
    method: str
    seconds: float
    found: str

    def to_json(self) -> dict:
        return {"phase": self.name, "method": self.method, "seconds": round(self.seconds, 4), "found": self.found}


@dataclass(frozen=True)
class Result:
    verdict: Verdict
    method: DecidedBy
    seconds: float
    line: Line | None = None
    reason: str | None = None  # for no-win: the proof in words
    stats: dict = field(default_factory=dict)
    best: Best | None = None  # with --objective: the value of the line, its bound
    prefix: int = 0  # actions of the line that were given (the position), before the solve's
    phases: tuple[Phase, ...] = ()  # each part of the portfolio that ran, in order, timed
    interrupted: bool = False  # Ctrl-C ended it (the verdict is unknown, or the win found so far)
    end: State | None = None  # where the line ends, as the engine's replay of it found it (not in the JSON)

    @property
    def winning_line(self) -> Line:
        """The line of a win (replayed by the rules engine before it was returned)."""
        assert self.verdict == Verdict.WIN and self.line is not None, f"a {self.verdict} has no winning line"
        return self.line

    def to_json(self) -> dict:
        """The result as ``tranquility solve --json`` prints it (docs/solving.md): the
        winning line, when there is one, as a line file from the deal."""
        from tranquility.solver.formats.codecs import line_to_json

        data = {
            "verdict": self.verdict,
            "method": self.method,
            "seconds": round(self.seconds, 4),
            "line": None if self.line is None else line_to_json(self.line),
            "reason": self.reason,
            "phases": [p.to_json() for p in self.phases],
            "stats": self.stats,
        }
        if self.best is not None:
            data["objective"] = self.best.to_json()
        return data


# Per objective: what its value counts, and what its bound says no win can do.
OBJECTIVE_WORDS = {
    Objective.SPARE: ("cards left at the win", "no win keeps more than"),
    Objective.TURNS: ("turns to the win", "no win takes fewer than"),
    Objective.COST: ("cards paid as costs", "no win pays fewer than"),
}


@dataclass(frozen=True)
class Best:
    """How good the returned line is for an objective: its value, the best bound known
    (None when none was proven), and whether the value is proven optimal."""

    objective: str
    value: int
    bound: int | None
    optimal: bool
    value_by: str | None = None  # the search that found the line (objectives.FoundBy)
    bound_by: str | None = None  # the proof that gave the bound (objectives.BoundBy)

    @property
    def in_words(self) -> str:
        """The proven interval in words: "23 cards left at the win, the best found in the
        time limit; no win keeps more than 25"."""
        what, limit = OBJECTIVE_WORDS[Objective(self.objective)]
        if self.optimal:
            return f"{self.value} {what}, proven optimal"
        if self.bound is None:
            return f"{self.value} {what}, the best found in the time limit; no bound proven"
        return f"{self.value} {what}, the best found in the time limit; {limit} {self.bound}"

    def to_json(self) -> dict:
        return {
            "name": self.objective,
            "value": self.value,
            "bound": self.bound,
            "optimal": self.optimal,
            "in_words": self.in_words,
            "value_by": self.value_by,
            "bound_by": self.bound_by,
        }


def position_of(game: Game | Replayed) -> tuple[Line, State]:
    """The line so far (empty for a deal) and the position it reaches (a game already
    replayed is not replayed again)."""
    checked = replayed(game)
    return checked.line, checked.state


def cpsat_limits(budget: Budget, seconds: float):
    """CP-SAT's share of the budget: ``seconds`` on the budget's workers, or when
    reproducible, the deterministic time on one worker with the budget's seed."""
    from tranquility.solver.cpsat.run_model import CpsatLimits

    if budget.reproducible:
        return CpsatLimits(workers=1, deterministic=budget.cpsat_deterministic, seed=budget.seed)
    return CpsatLimits(workers=budget.workers, seconds=seconds)


def check_line(line: Line) -> State:
    """Replay a solver's line and return the won position; anything but a legal win is an
    internal error."""
    verdict = verify(line)
    if verdict.state is None or not (verdict.legal and verdict.won):
        raise InternalError(f"the solver's line does not replay as a win: {verdict.error or verdict.status}")
    return verdict.state
