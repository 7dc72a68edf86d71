"""Teaching the blueprint the lookahead's choices: fit ``tuned``'s weights to the labels.

``tuned`` scores an island play as a sum of terms, each times a weight (labels.py's
``island_terms``: cost, pressure, paid, misplaced, deficit, relief), and plays the lowest
score, unless it may discard two and the best play costs ``discard_cost`` or more or scores
``discard_score`` or more. The score is linear in those six weights, so fitting them is a
conditional logit (a softmax over the seat's legal island plays, of minus the score), fitted
here with numpy by Newton's method to the decisions where the lookahead chose an island:
first its scale for ``tuned``'s own weights, then each weight's move away from ``tuned``'s,
against a ridge (``fit_terms``). The discard thresholds are then chosen on a grid, and a
search one weight at a time keeps any change that agrees with more training labels; of
all that, ``tuned``'s own weights included, the fit keeps what agrees with the most
(``fit``). The other weights (the keep values, the Start event's) stay ``tuned``'s: the
labels do not show them.

The labels are split by game: games whose seed is a multiple of ``HELD_OUT`` are held out,
and the agreement (how often ``tuned``'s choice is the lookahead's) is reported on both
parts, before and after. Beside the fit (``fit``: the most agreement on the training part),
the conditional logit's own weights at each ridge (``logit_only``) are reported too. Each is
played with ``tuned`` on the same seeded deals (0-999 by default, which no label came from),
paired deal by deal (``wins``, ``paired``).

    python -m tranquility.solver.batch.taught --labels labels.jsonl --out taught.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, replace

import numpy as np
from tranquility.solver.batch.labels import DISCARD, TERMS
from tranquility.solver.batch.tuning import STEPS
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.policies import Tuned, playouts
from tranquility.solver.search.weights import WeightBook, Weights, shipped_book
from tranquility.solver.stats import paired_interval, wilson

HELD_OUT = 5  # a game whose seed is a multiple of this is held out of the fit
# The ridges tried: per STEPS unit squared a weight moves from tuned's, against the mean
# log-likelihood of a decision (the strongest first).
RIDGES = (1.0, 0.1, 0.01, 0.001)
DISCARD_COSTS = (2.0, 3.0, 4.0, 5.0, 6.0)  # the grid of discard_cost (a play's cost is a whole number)
SCORE_GRID = 41  # discard_score tried from half to twice tuned's, this many values
NEWTON_STEPS = 50
SWEEPS = 2
NUDGES = tuple(float(v) for v in np.linspace(-2.0, 2.0, 17) if v != 0.0)


@dataclass(frozen=True)
class LabelledDecision:
    terms: np.ndarray  # one row of TERMS per legal island play
    costs: np.ndarray  # each play's cost
    can_discard: bool
    chosen: int  # the lookahead's move: an index into the plays, or DISCARD
    blueprint: int = DISCARD  # tuned's own move, the same way


def read_decisions(path: str) -> tuple[dict[int, list[LabelledDecision]], dict[int, list[LabelledDecision]]]:
    """The journal's decisions by player count: (training, held out)."""
    train: dict[int, list[LabelledDecision]] = {}
    held: dict[int, list[LabelledDecision]] = {}
    try:
        with open(path, encoding="utf-8") as lines:
            next(lines, None)  # the header
            games = [json.loads(line) for line in lines]
    except (OSError, json.JSONDecodeError) as error:
        raise BadInput(f"{path}: not a labels journal ({error})") from None
    for game in games:
        into = held if game["seed"] % HELD_OUT == 0 else train
        for d in game["decisions"]:
            plays = np.array(d["plays"], np.float64).reshape(-1, 3)
            terms = np.array(d["terms"], np.float64).reshape(-1, len(TERMS))
            decision = LabelledDecision(terms, plays[:, 2], d["can_discard"], d["chosen"], d["blueprint"])
            into.setdefault(game["players"], []).append(decision)
    return train, held


def coefficients(weights: Weights) -> np.ndarray:
    return np.array([getattr(weights, name) for name in TERMS])


def choice(weights: Weights, d: LabelledDecision) -> int:
    """``tuned``'s move at ``d`` with ``weights``: the first best-scored play, or DISCARD."""
    if len(d.costs) == 0:
        return DISCARD
    scores = d.terms @ coefficients(weights)
    best = int(np.argmin(scores))
    if d.can_discard and (d.costs[best] >= weights.discard_cost or scores[best] >= weights.discard_score):
        return DISCARD
    return best


def agreement(weights: Weights, decisions: list[LabelledDecision]) -> float:
    """The share of ``decisions`` where ``tuned`` with ``weights`` makes the lookahead's move."""
    return Padded.of(decisions).agreement(weights)


@dataclass(frozen=True)
class Padded:
    """Decisions as arrays, their plays padded to the most any has (``mask`` says which
    are real): what the fit weighs many weights on."""

    X: np.ndarray  # (decisions, plays, TERMS)
    costs: np.ndarray  # (decisions, plays)
    mask: np.ndarray
    can_discard: np.ndarray
    chosen: np.ndarray

    @classmethod
    def of(cls, decisions: list[LabelledDecision]) -> Padded:
        width = max((len(d.costs) for d in decisions), default=0)
        X = np.zeros((len(decisions), width, len(TERMS)))
        costs = np.zeros((len(decisions), width))
        mask = np.zeros((len(decisions), width), bool)
        for i, d in enumerate(decisions):
            X[i, : len(d.costs)], costs[i, : len(d.costs)], mask[i, : len(d.costs)] = d.terms, d.costs, True
        can_discard = np.array([d.can_discard for d in decisions], bool)
        return cls(X, costs, mask, can_discard, np.array([d.chosen for d in decisions], np.int64))

    def choices(self, weights: Weights) -> np.ndarray:
        """``choice`` at every decision."""
        scores = np.where(self.mask, self.X @ coefficients(weights), np.inf)
        best = scores.argmin(axis=1)
        rows = np.arange(len(best))
        low = scores[rows, best]
        discards = ~self.mask.any(axis=1) | (
            self.can_discard & ((self.costs[rows, best] >= weights.discard_cost) | (low >= weights.discard_score))
        )
        return np.where(discards, DISCARD, best)

    def agreement(self, weights: Weights) -> float:
        """The share of the decisions where ``tuned`` with ``weights`` makes the lookahead's move."""
        return float((self.choices(weights) == self.chosen).mean()) if len(self.chosen) else 0.0


def fit_terms(batch: Padded, start: Weights, ridge: float) -> np.ndarray:
    """The weights of TERMS, fitted by a conditional logit to the decisions where the
    lookahead played an island, in two steps. First the logit's scale alone, for ``start``'s
    weights (how sharply ``start``'s scores predict the labels). Then a move of each weight
    away from ``start``'s, in units of its ``STEPS`` (tuning.py), with a ridge of ``ridge``
    per unit squared: the labels move a weight only as far as they show it should go."""
    islands = batch.chosen != DISCARD
    base = coefficients(start)
    if not islands.any():
        return base
    X, mask, chosen = batch.X[islands], batch.mask[islands], batch.chosen[islands]
    scores = X @ base
    sharp = newton(Logit(scores[:, :, None], np.zeros_like(scores), mask, chosen, 1e-9), np.ones(1))[0]
    steps = np.array([STEPS[name] for name in TERMS])
    moved = newton(Logit(sharp * X * steps, sharp * scores, mask, chosen, ridge), np.zeros(len(TERMS)))
    return base + steps * moved


@dataclass(frozen=True)
class Logit:
    """A conditional logit over each decision's plays: play j of decision n has utility
    ``-(offset[n, j] + Z[n, j] @ x)``; ``chosen`` the play made; ``ridge`` x |x|^2 added."""

    Z: np.ndarray
    offset: np.ndarray
    mask: np.ndarray
    chosen: np.ndarray
    ridge: float

    def __call__(self, x: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """The mean negative log-likelihood with the ridge, its gradient and its Hessian."""
        Z, n = self.Z, len(self.chosen)
        rows = np.arange(n)
        u = np.where(self.mask, -(self.offset + Z @ x), -np.inf)
        top = u.max(axis=1, keepdims=True)
        p = np.exp(u - top)
        total = p.sum(axis=1, keepdims=True)
        p /= total
        nll = -(u[rows, self.chosen] - top[:, 0] - np.log(total[:, 0])).mean()
        Zm = np.where(self.mask[:, :, None], Z, 0.0)
        mean = np.einsum("nm,nmk->nk", p, Zm)
        grad = (Zm[rows, self.chosen] - mean).mean(axis=0)
        hess = (np.einsum("nm,nmk,nml->kl", p, Zm, Zm) - mean.T @ mean) / n
        return nll + self.ridge * x @ x, grad + 2 * self.ridge * x, hess + 2 * self.ridge * np.eye(len(x))


def newton(loss: Logit, x: np.ndarray) -> np.ndarray:
    """The minimum of the convex ``loss`` from ``x``: Newton's method with a halving step
    (a few weights: exact, and the same steps on every run)."""
    value, grad, hess = loss(x)
    for _ in range(NEWTON_STEPS):
        step = np.linalg.solve(hess, grad)
        size = 1.0
        while size > 1e-6:
            tried = loss(x - size * step)
            if tried[0] <= value:
                break
            size /= 2
        else:
            return x
        x = x - size * step
        done = value - tried[0] < 1e-10
        value, grad, hess = tried
        if done:
            break
    return x


def fit(decisions: list[LabelledDecision], start: Weights) -> Weights:
    """The weights that agree with the most of ``decisions``. The first guesses: ``start``'s,
    and TERMS fitted (``fit_terms``) at each of ``RIDGES``, each with the discard thresholds
    of the grid that agree the most. From the best, a search one weight at a time (TERMS
    and the two thresholds, ``SWEEPS`` times over, each tried at ``NUDGES`` of its STEPS
    unit) keeps every change that agrees with more. Ties keep the earlier: ``start`` first."""
    batch = Padded.of(decisions)
    scores = [start.discard_score, *(start.discard_score * np.linspace(0.5, 2.0, SCORE_GRID))]
    costs = [start.discard_cost, *DISCARD_COSTS]
    best, most = start, batch.agreement(start)
    for ridge in RIDGES:
        fitted = replace(start, **dict(zip(TERMS, map(float, fit_terms(batch, start, ridge)), strict=True)))
        for c in costs:
            for score in scores:
                tried = replace(fitted, discard_cost=c, discard_score=float(score))
                found = batch.agreement(tried)
                if found > most:
                    best, most = tried, found
    for _ in range(SWEEPS):
        for name in (*TERMS, "discard_cost", "discard_score"):
            at = getattr(best, name)
            for nudge in NUDGES:
                tried = replace(best, **{name: at + nudge * STEPS[name]})
                found = batch.agreement(tried)
                if found > most:
                    best, most = tried, found
    return best


@dataclass(frozen=True)
class Paired:
    players: int
    deals: int
    tuned: int  # deals won
    taught: int
    only_taught: int
    only_tuned: int

    def to_json(self) -> dict:
        low, high = paired_interval(self.only_taught, self.only_tuned, self.deals)
        return {
            "players": self.players,
            "deals": self.deals,
            "tuned": self.tuned,
            "tuned_interval": [round(100 * v, 1) for v in wilson(self.tuned, self.deals)],
            "taught": self.taught,
            "taught_interval": [round(100 * v, 1) for v in wilson(self.taught, self.deals)],
            "points": round(100 * (self.taught - self.tuned) / self.deals, 1),
            "points_interval": [round(low, 1), round(high, 1)],
            "only_taught": self.only_taught,
            "only_tuned": self.only_tuned,
        }


def wins(players: int, weights: Weights, deals: int) -> list[bool]:
    """Whether ``tuned`` with ``weights`` wins each of the seeded deals 0..deals-1."""
    states = [State.initial(deal(OFFICIAL, players, seed)) for seed in range(deals)]
    return [end.won for end in playouts(states, Tuned(random.Random(0), WeightBook(OFFICIAL, {players: weights}, {})))]


def paired(players: int, ours: list[bool], theirs: list[bool]) -> Paired:
    """``ours`` against ``theirs`` (``tuned``'s), deal by deal."""
    return Paired(
        players,
        len(ours),
        sum(theirs),
        sum(ours),
        sum(a and not b for a, b in zip(ours, theirs, strict=True)),
        sum(b and not a for a, b in zip(ours, theirs, strict=True)),
    )


def logit_only(decisions: list[LabelledDecision], start: Weights, ridge: float) -> Weights:
    """``start`` with TERMS as the conditional logit fits them at ``ridge`` alone (its own
    discard thresholds): what the likelihood, not the agreement, prefers."""
    fitted = fit_terms(Padded.of(decisions), start, ridge)
    return replace(start, **dict(zip(TERMS, map(float, fitted), strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", required=True, help="the labels journal (labels.py)")
    parser.add_argument("--deals", type=int, default=1000, help="evaluation deals 0..N-1 (default 1000)")
    parser.add_argument("--out", help="write the fits and their measurements here (JSON)")
    args = parser.parse_args(argv)
    try:
        train, held = read_decisions(args.labels)
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    book = shipped_book()
    report = []
    for players in sorted(train):
        tuned = book.weights[players]
        parts = (train[players], held.get(players, []))
        arms = {"taught": fit(train[players], tuned)}
        arms |= {f"logit {ridge}": logit_only(train[players], tuned, ridge) for ridge in RIDGES}
        theirs = wins(players, tuned, args.deals)
        row = {
            "players": players,
            "train": len(parts[0]),
            "held_out": len(parts[1]),
            # How often the lookahead left tuned's move (tuned's own, as the game played it).
            "departures": [round(sum(d.chosen != d.blueprint for d in part) / max(len(part), 1), 4) for part in parts],
            "agreement_tuned": [round(agreement(tuned, part), 4) for part in parts],
            "arms": {
                name: {
                    "agreement": [round(agreement(weights, part), 4) for part in parts],
                    "weights": weights.to_json(),
                    "measured": paired(players, wins(players, weights, args.deals), theirs).to_json() if args.deals else None,
                }
                for name, weights in arms.items()
            },
        }
        report.append(row)
        print(json.dumps(row), file=sys.stderr)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
