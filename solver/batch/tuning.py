"""Fitting the ``tuned`` policy's weights: CMA-ES on common random numbers, resumable.

Every candidate of a generation plays the same training deals (seeds from
``TRAINING_SEEDS`` up, a fresh block each generation; never the evaluation seeds 0-999),
so the differences between candidates are not the deals' luck. A candidate's value is its
mean over the deals of won + ``CELLS_WEIGHT`` x the share of cells filled: win first, then
how far the game got, which separates candidates the wins alone leave tied. The search is
pycma's CMA-ES in a space where each weight moves by its own ``STEPS`` unit.

Every evaluation is written to a journal (JSON lines) as it ends. A run killed and started
again with the same journal asks CMA-ES for the same candidates (its seed fixes them),
takes the journal's values for those evaluated and plays only the rest: nothing is lost
and nothing counted twice. At the end the best candidate of the run and CMA-ES's mean are
played again on fresh validation deals (``VALIDATION_SEEDS`` up) beside thrifty, since the
best of many noisy scores overstates itself; the better of the two on those deals is kept.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.policies import Policy, Tuned, make_policy, playouts
from tranquility.solver.search.weights import CELLS_WEIGHT, THRIFTY_LIKE, WeightBook, Weights

TRAINING_SEEDS = 1_000_000  # the first training deal; evaluation seeds are 0-999
VALIDATION_SEEDS = 5_000_000  # the fresh deals the chosen weights are re-tested on
JOURNAL_FORMAT = "tranquility-tune/1"
# Settings a journal may be resumed with other values of: a run can be stopped early or
# carried on for more generations, and re-tested on more or fewer deals.
EXTENDABLE = ("generations", "validation")

# How far one unit of the search space moves each weight (the scale CMA-ES starts at).
STEPS: dict[str, float] = {
    "cost": 1.0,
    "pressure": 2.0,
    "paid": 0.03,
    "misplaced": 0.3,
    "deficit": 4.0,
    "relief": 4.0,
    "discard_cost": 1.0,
    "discard_score": 10.0,
    "keep_base": 8.0,
    "keep_cost": 2.0,
    "keep_tight": 15.0,
    "tight_cap": 0.5,
    "finish_second": 25.0,
    "finish_later": 20.0,
    "give_dead": 5.0,
}


@dataclass(frozen=True)
class TuneSettings:
    players: int
    rules: Rules = OFFICIAL
    generations: int = 20
    population: int = 12
    deals: int = 200  # training deals per generation (every candidate plays the same ones)
    validation: int = 1000  # fresh deals the chosen weights are re-tested on
    seed: int = 0  # CMA-ES's own random numbers
    sigma: float = 0.5  # its first step, in STEPS units
    start: Weights = THRIFTY_LIKE  # where the search starts (thrifty's constants, or weights fitted before)

    def check(self) -> None:
        for name in ("generations", "population", "deals", "validation"):
            if getattr(self, name) < (2 if name == "population" else 1):
                raise BadInput(f"--{name} must be at least {2 if name == 'population' else 1}, got {getattr(self, name)}")
        if not 0 < self.sigma <= 10:
            raise BadInput(f"--sigma must be in (0, 10], got {self.sigma}")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rules"] = self.rules.to_dict()
        data["start"] = self.start.to_json()
        return data

    def seeds(self, generation: int) -> range:
        first = TRAINING_SEEDS + generation * self.deals
        return range(first, first + self.deals)

    def validation_seeds(self) -> range:
        return range(VALIDATION_SEEDS, VALIDATION_SEEDS + self.validation)


def weights_at(x: Sequence[float], base: Weights = THRIFTY_LIKE) -> Weights:
    """The weights at point ``x`` of the search space (the origin is ``base``)."""
    return Weights.from_vector([b + STEPS[name] * v for name, b, v in zip(Weights.names(), base.as_vector(), x, strict=True)])


@dataclass(frozen=True)
class Score:
    """How a policy did on some deals: wins, and the cells filled summed over the deals."""

    deals: int
    wins: int
    cells: int  # cells filled, summed
    grid: int  # cells of one grid

    @property
    def value(self) -> float:
        return (self.wins + CELLS_WEIGHT * self.cells / self.grid) / self.deals


def play_deals(rules: Rules, players: int, seeds: range, weights: Weights | None) -> Score:
    """``tuned`` with ``weights`` (or thrifty, for None) on the seeded deals ``seeds``."""
    policy: Policy = make_policy("thrifty") if weights is None else Tuned(random.Random(0), _book(rules, players, weights))
    ends = playouts([State.initial(deal(rules, players, number)) for number in seeds], policy)
    return Score(len(seeds), sum(end.won for end in ends), sum(end.filled for end in ends), rules.cells)


def _book(rules: Rules, players: int, weights: Weights) -> WeightBook:
    return WeightBook(rules, {players: weights}, {})


@dataclass
class TuningJournal:
    """The run's evaluations, one JSON line each, after a header line with the settings."""

    path: Path
    settings: TuneSettings
    done: dict[tuple[int, int], dict] = field(default_factory=dict)  # (generation, index) -> entry

    @classmethod
    def open(cls, path: Path, settings: TuneSettings) -> TuningJournal:
        journal = cls(path, settings)
        text = path.read_bytes() if path.exists() else b""
        if not text.endswith(b"\n"):
            # The last line, cut short by a kill: dropped, and its candidate evaluated again.
            with path.open("ab") as out:
                out.truncate(text.rfind(b"\n") + 1)
        if path.stat().st_size == 0:
            with path.open("w", encoding="utf-8") as out:
                out.write(json.dumps({"format": JOURNAL_FORMAT, "settings": settings.to_json()}) + "\n")
            return journal
        with path.open(encoding="utf-8") as lines:
            header = _json_line(path, 1, lines.readline())
            if header.get("format") != JOURNAL_FORMAT:
                raise BadInput(f"{path}: not a tune journal ({JOURNAL_FORMAT})")
            # A journal from before the search could start elsewhere started at thrifty's constants.
            started = {"start": THRIFTY_LIKE.to_json()} | (header.get("settings") or {})
            started = {k: v for k, v in started.items() if k not in EXTENDABLE}
            wanted = {k: v for k, v in settings.to_json().items() if k not in EXTENDABLE}
            if started != wanted:
                differ = sorted(k for k in wanted.keys() | started.keys() if started.get(k) != wanted.get(k))
                raise BadInput(f"{path}: the journal was started with other settings ({', '.join(differ)} differ): {started}")
            for number, line in enumerate(lines, start=2):
                entry = _json_line(path, number, line)
                journal.done[entry["generation"], entry["index"]] = entry
        return journal

    def record(self, entry: dict) -> None:
        self.done[entry["generation"], entry["index"]] = entry
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry) + "\n")
            out.flush()
            os.fsync(out.fileno())


def _json_line(path: Path, number: int, text: str) -> dict:
    try:
        entry = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadInput(f"{path}, line {number}: not JSON ({error.msg})") from None
    if not isinstance(entry, dict):
        raise BadInput(f"{path}, line {number}: expected an object")
    return entry


@dataclass(frozen=True)
class Generation:
    """One generation's figures, for the progress line and the curve."""

    generation: int
    best: float  # the best candidate's value on this generation's deals
    mean: float  # the candidates' mean value
    thrifty: float  # thrifty's value on the same deals
    best_wins: int
    thrifty_wins: int
    deals: int


@dataclass(frozen=True)
class TuneResult:
    settings: TuneSettings
    weights: Weights
    chosen: str  # "best" (the run's best candidate) or "mean" (CMA-ES's mean)
    curve: tuple[Generation, ...]
    validation: dict[str, Score]  # thrifty, best, mean on the validation deals
    games: int  # games played in all, journal included

    def fit_json(self) -> dict:
        """What the weights file records of this fit."""
        tuned, thrifty = self.validation[self.chosen], self.validation["thrifty"]
        s = self.settings
        return {
            "method": "CMA-ES (pycma) on common random numbers",
            "training_seeds": f"{TRAINING_SEEDS}..{TRAINING_SEEDS + s.generations * s.deals - 1}",
            "generations": s.generations,
            "population": s.population,
            "deals_per_generation": s.deals,
            "seed": s.seed,
            "sigma": s.sigma,
            "start": "thrifty's constants" if s.start == THRIFTY_LIKE else s.start.to_json(),
            "chosen": self.chosen,
            "validation_seeds": f"{VALIDATION_SEEDS}..{VALIDATION_SEEDS + s.validation - 1}",
            "validation_wins": tuned.wins,
            "validation_thrifty_wins": thrifty.wins,
            "validation_deals": s.validation,
            "games": self.games,
        }

    def to_json(self) -> dict:
        return {
            "settings": self.settings.to_json(),
            "weights": self.weights.to_json(),
            "fit": self.fit_json(),
            "curve": [asdict(g) for g in self.curve],
            "validation": {name: asdict(score) | {"value": round(score.value, 4)} for name, score in self.validation.items()},
        }


Task = tuple[Rules, int, range, Weights | None]  # play_deals' arguments
Evaluate = Callable[[list[Task]], list[Score]]


def serial(tasks: list[Task]) -> list[Score]:
    return [play_deals(*task) for task in tasks]


def pooled(executor: cf.Executor) -> Evaluate:
    """Play the tasks on ``executor``'s workers, one task each."""

    def run(tasks: list[Task]) -> list[Score]:
        return [future.result() for future in [executor.submit(play_deals, *task) for task in tasks]]

    return run


def tune(
    settings: TuneSettings,
    journal_path: Path,
    evaluate: Evaluate = serial,
    on_generation: Callable[[Generation], None] | None = None,
) -> TuneResult:
    """Fit ``tuned``'s weights for ``settings.players`` (module docstring)."""
    import cma  # loaded only to tune

    settings.check()
    journal = TuningJournal.open(journal_path, settings)
    dims = len(Weights.names())
    # pycma seeds numpy's global generator; 0 would mean "from the clock".
    es = cma.CMAEvolutionStrategy(
        [0.0] * dims, settings.sigma, {"seed": settings.seed + 1, "popsize": settings.population, "verbose": -9}
    )
    curve: list[Generation] = []
    best_x, best_value = [0.0] * dims, float("-inf")
    games = 0
    for generation in range(settings.generations):
        xs = [list(map(float, x)) for x in es.ask()]
        seeds = settings.seeds(generation)
        # Index -1 is thrifty on the same deals; the journal's entries are not played again.
        todo = [i for i in range(-1, len(xs)) if (generation, i) not in journal.done]
        tasks: list[Task] = [
            (settings.rules, settings.players, seeds, None if i < 0 else weights_at(xs[i], settings.start)) for i in todo
        ]
        # Evaluated in one batch, then journaled together: a kill loses at most a generation.
        for i, score in zip(todo, evaluate(tasks), strict=True):
            journal.record({"generation": generation, "index": i, "x": None if i < 0 else xs[i], **asdict(score)})
        scores = {i: _score(journal.done[generation, i]) for i in range(-1, len(xs))}
        for i, x in enumerate(xs):
            if journal.done[generation, i]["x"] != x:
                raise BadInput(f"{journal_path}: generation {generation} holds other candidates than this run asks for")
        values = [scores[i].value for i in range(len(xs))]
        es.tell([list(x) for x in xs], [-v for v in values])
        top = max(range(len(xs)), key=lambda i: (values[i], -i))
        if values[top] - scores[-1].value > best_value:  # against thrifty: the deals' luck cancels
            best_x, best_value = xs[top], values[top] - scores[-1].value
        games += (len(xs) + 1) * settings.deals
        thrifty = scores[-1]
        average = sum(values) / len(values)
        point = Generation(generation, values[top], average, thrifty.value, scores[top].wins, thrifty.wins, settings.deals)
        curve.append(point)
        if on_generation is not None:
            on_generation(point)
    mean = [float(v) for v in es.mean]
    checks = evaluate(
        [
            (settings.rules, settings.players, settings.validation_seeds(), None),
            (settings.rules, settings.players, settings.validation_seeds(), weights_at(best_x, settings.start)),
            (settings.rules, settings.players, settings.validation_seeds(), weights_at(mean, settings.start)),
        ]
    )
    validation = dict(zip(("thrifty", "best", "mean"), checks, strict=True))
    games += 3 * settings.validation
    chosen = "best" if validation["best"].value > validation["mean"].value else "mean"
    weights = weights_at(best_x if chosen == "best" else mean, settings.start)
    return TuneResult(settings, weights, chosen, tuple(curve), validation, games)


def _score(entry: dict) -> Score:
    return Score(entry["deals"], entry["wins"], entry["cells"], entry["grid"])
