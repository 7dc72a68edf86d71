"""The greedy baseline: the first seeded greedy playouts with each Finish keeper, scored on an
objective. ``solve --objective`` runs it before CP-SAT, so that its line is never worse than
the baseline's best, and the optimal suite (``bench --suite optimal``) measures against it:
one definition for both (docs/model.md, Objectives)."""

from __future__ import annotations

from dataclasses import dataclass

from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.state import State
from tranquility.solver.search.budget import Budget, Deadline
from tranquility.solver.search.greedy import FinishKeeper, Playouts
from tranquility.solver.search.objectives import objective_bound, objective_value, score, scorer
from tranquility.solver.verdicts import Objective

GREEDY_BASELINE = Budget().greedy_playouts  # playouts per Finish keeper (1,000)
BASELINE = "baseline"  # the solve's phase (Phase.method) and its statistics' key
KEEPERS = tuple(FinishKeeper)  # each series in turn: a baseline cut short has played both


@dataclass(frozen=True)
class Baseline:
    """What the baseline played: ``playouts`` of the ``of`` asked for (``of`` per keeper
    times the keepers), how many won, the best winning continuation and its value (None
    when none won), and why it stopped short, if it did: the best meets the objective's
    bound (nothing can beat it), the time ran out, or Ctrl-C came."""

    playouts: int
    of: int
    wins: int
    line: tuple[Action, ...] | None
    value: int | None
    at_bound: bool = False
    interrupted: bool = False

    @property
    def in_words(self) -> str:
        """In words: "2000 of 2000 playouts, best 19" (", the bound" when it stopped there)."""
        best = "none won" if self.value is None else f"best {self.value}"
        return f"{self.playouts} of {self.of} playouts, {best}{', the bound' if self.at_bound else ''}"

    def to_json(self) -> dict:
        return {
            "playouts": self.playouts,
            "of": self.of,
            "wins": self.wins,
            "best": self.value,
            "at_bound": self.at_bound,
            "interrupted": self.interrupted,
        }


def greedy_baseline(
    position: State,
    objective: Objective,
    playouts: int = GREEDY_BASELINE,
    seed: int = 0,
    seconds: float | None = None,
) -> Baseline:
    """The first ``playouts`` seeded greedy playouts from ``position`` with each Finish
    keeper (``Playouts``, from ``seed``), the best for ``objective`` kept; within
    ``seconds`` when given (a count alone is the same on every machine). It stops at the
    objective's bound, which no line beats. Ctrl-C ends it with what it found."""
    series = BaselineSeries(position, objective, playouts, seed)
    series.play(Deadline(seconds=seconds))
    return series.result()


class BaselineSeries:
    """The greedy baseline played in parts (``greedy_baseline`` plays it in one): each
    ``play`` plays on from where the last stopped, so that other work can come between
    the parts (the restarts beside the ladder)."""

    def __init__(self, position: State, objective: Objective, playouts: int = GREEDY_BASELINE, seed: int = 0):
        self.position, self.objective = position, objective
        self.series = Playouts(position, seed, scorer(position, objective), KEEPERS)
        self.total = playouts * len(KEEPERS)
        self.enough = score(objective, objective_bound(position, objective))
        self.interrupted = False

    @property
    def at_bound(self) -> bool:
        return self.series.best_value is not None and self.series.best_value >= self.enough

    @property
    def done(self) -> bool:
        """Every playout asked for played, or one met the bound."""
        return self.series.played >= self.total or self.at_bound

    @property
    def best(self) -> list[Action] | None:
        return self.series.best

    def play(self, deadline: Deadline, per_keeper: int | None = None) -> None:
        """Play on until the first ``per_keeper`` playouts with each keeper (all of them when
        None) have been played, within ``deadline``."""
        upto = self.total if per_keeper is None else min(self.total, per_keeper * len(KEEPERS))
        try:
            while self.series.played < upto and deadline.tick():
                self.series.play(Deadline(nodes=1), self.enough)
                if self.at_bound:
                    break
        except KeyboardInterrupt:
            self.interrupted = True

    def result(self, per_keeper: int | None = None) -> Baseline:
        """What the series has played, of its first ``per_keeper`` playouts per keeper (of
        all of them when None)."""
        best = self.series.best
        return Baseline(
            self.series.played,
            self.total if per_keeper is None else min(self.total, per_keeper * len(KEEPERS)),
            self.series.wins,
            None if best is None else tuple(best),
            None if best is None else objective_value(self.position, best, self.objective),
            at_bound=self.at_bound,
            interrupted=self.interrupted,
        )
