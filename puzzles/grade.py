"""Grading a deal as a puzzle (docs/puzzles.md): how precise the winning play must be.

A grade is given only to a deal proven winnable (a winning line the rules engine replays).
Every metric runs on fixed seeds and fixed budgets (playouts, search nodes, CP-SAT
deterministic time), never on the clock, so the same deal, rules and grader version always
get the same grade.

The precision metrics (each 0 = easy .. 1 = hard once turned into a component):
- ``policy``: the share of 32 seeded playouts of the solver's randomised greedy player
  (perfect information, ``solver.search``) that win: a simple fixed policy's win rate.
- ``first moves``: of an evenly spread sample of the legal first choices, the share from
  which the greedy player finds a win within a few seeded playouts (a lower bound on the
  share of first moves that keep the deal winnable).
- ``spare``: the most cards left in hands and piles at the win over those playouts (the
  team's safety margin on the best line found).
The grade weighs them (weights and per-player-count thresholds in ``calibration.json``,
fitted by ``puzzles.calibrate`` on 500 seeded deals per player count). The presets with a
calibration of their own (``CALIBRATED``: official and the two module presets) are graded
against it; any other rule set against the official one, and the grading says so.

Beside the grade, not part of it: how a silent table fares (``solver.simulate``): the
fixed policies tuned, cautious, thrifty and greedy once each, and wavering over 12 seeded plays.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import check_line
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import PRESETS, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.formats.puzzle_tag import GRADES
from tranquility.solver.search.bounds import live_islands, refutation
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.greedy import best_playout, greedy
from tranquility.solver.search.moves import choice_actions
from tranquility.solver.search.objectives import objective_bound, objective_value
from tranquility.solver.search.policies import simulate
from tranquility.solver.verdicts import Objective, Verdict

from .puzzle_file import puzzle_id

GRADER = "tq-grade/1"
PLAYOUTS = 32  # seeded greedy playouts from the deal
FIRST_SAMPLE = 16  # first choices checked
FIRST_TRIES = 6  # greedy playouts per first choice
SPARE_CAP = 30  # spare cards beyond this count as fully comfortable
SILENT_FIXED = ("tuned", "cautious", "thrifty", "greedy")
WAVERING_PLAYS = 12
# When no playout wins: the portfolio with node budgets and CP-SAT deterministic time only.
PROOF_BUDGET = Budget(reproducible=True, workers=1, greedy_playouts=500, search_nodes=20_000, cpsat_deterministic=20.0)
# The presets fitted on deals of their own (puzzles.calibrate), each with its file.
CALIBRATED = ("official", "monsters", "rocks-manual")
OFFICIAL_CALIBRATION = "official"


def calibration_file(preset: str) -> Path:
    name = "calibration.json" if preset == OFFICIAL_CALIBRATION else f"calibration-{preset}.json"
    return Path(__file__).with_name(name)


def calibration_for(rules: Rules) -> str:
    """The calibration a rule set is graded against: its preset's, when that preset has
    one shipped, else the official one."""
    for preset in CALIBRATED:
        if PRESETS[preset] == rules and calibration_file(preset).exists():
            return preset
    return OFFICIAL_CALIBRATION


@dataclass(frozen=True)
class Metrics:
    """What the grader measured on one deal (docs/puzzles.md)."""

    policy_wins: int  # of PLAYOUTS
    first_kept: int  # of first_sampled
    first_sampled: int
    first_choices: int  # legal first choices in all
    spare: int  # best spare found (cards left at the win)
    spare_bound: int  # no win can keep more (docs/model.md, Objectives)

    @property
    def components(self) -> dict[str, float]:
        """Each metric as a difficulty between 0 (easy) and 1 (hard)."""
        return {
            "policy": 1.0 - self.policy_wins / PLAYOUTS,
            "first_moves": 1.0 - self.first_kept / max(self.first_sampled, 1),
            "spare": 1.0 - min(self.spare, SPARE_CAP) / SPARE_CAP,
        }

    def to_json(self) -> dict:
        return {**asdict(self), "playouts": PLAYOUTS}


@dataclass(frozen=True)
class Silent:
    """How a silent table does: wins of each fixed policy (one play each) and of wavering."""

    fixed: dict[str, bool]
    wavering_wins: int
    wavering_plays: int = WAVERING_PLAYS

    @property
    def win_rate(self) -> float:
        """Wins over all silent plays (the fixed policies once, wavering 12 times)."""
        plays = len(self.fixed) + self.wavering_plays
        return (sum(self.fixed.values()) + self.wavering_wins) / plays

    def to_json(self) -> dict:
        return {
            **dict(self.fixed.items()),
            "wavering": f"{self.wavering_wins}/{self.wavering_plays}",
            "win_rate": round(self.win_rate, 4),
        }


@dataclass(frozen=True)
class Grading:
    """The verdict on a deal; a grade only for a deal proven winnable."""

    verdict: Verdict
    grade: int | None
    score: float | None
    metrics: Metrics | None
    solution: Line | None
    reason: str  # how the verdict was reached
    calibrated: bool  # thresholds fitted on this very rule set (and player count)
    silent: Silent | None = None
    reproducible: bool = True  # False when a clock-bound proving solve decided (grade(proof=...))
    calibration: str = OFFICIAL_CALIBRATION  # the preset whose calibration gave the grade

    def to_json(self, game: Deal | Position) -> dict:
        """The grading of ``game`` as ``tranquility grade --json`` prints it (docs/puzzles.md):
        the puzzle id (None for a deal without a seed), the deal's players, seed and rules,
        then the verdict, grade and every metric. ``"reproducible": false`` is added only
        when a clock-bound proof decided the verdict."""

        data = {
            "id": puzzle_id(game) if isinstance(game, Deal) and game.seed is not None else None,
            "players": game.players,
            "seed": game.seed if isinstance(game, Deal) else None,
            "rules": game.rules.to_dict(),
            "grader": GRADER,
            "verdict": self.verdict,
            "grade": self.grade,
            "score": None if self.score is None else round(self.score, 4),
            "metrics": None if self.metrics is None else self.metrics.to_json(),
            "components": None if self.metrics is None else {k: round(v, 4) for k, v in self.metrics.components.items()},
            "calibrated": self.calibrated,
            "calibration": self.calibration,
            "silent": None if self.silent is None else self.silent.to_json(),
            "reason": self.reason,
        }
        if not self.reproducible:
            data["reproducible"] = False
        return data


# -- the metrics -------------------------------------------------------------------------------


def first_moves(state: State) -> tuple[int, int, int]:
    """(kept, sampled, all): an even sample of the legal first choices, each played with
    its cheapest payment and kept when the greedy player then finds a win."""
    choices = list(state.legal_choices())
    n = len(choices)
    picks = sorted({round(i * (n - 1) / (FIRST_SAMPLE - 1)) for i in range(FIRST_SAMPLE)}) if n > 1 else range(n)
    live = live_islands(state)
    kept = 0
    for index in picks:
        after = state.apply(next(choice_actions(state, choices[index], live)))
        if after.won or (refutation(after) is None and greedy(after, Deadline(nodes=FIRST_TRIES), SearchStats(), index)):
            kept += 1
    return kept, len(picks), n


def silent_table(game: Deal | Position) -> Silent:
    fixed = {name: simulate(game, name, 0).won for name in SILENT_FIXED}
    wavering = sum(simulate(game, "wavering", seed).won for seed in range(WAVERING_PLAYS))
    return Silent(fixed, wavering)


# -- the grade ---------------------------------------------------------------------------------


@cache
def calibration(preset: str = OFFICIAL_CALIBRATION) -> dict:
    """Weights and thresholds fitted by ``puzzles.calibrate`` on the preset's deals
    (shipped with the package)."""
    return json.loads(calibration_file(preset).read_text(encoding="utf-8"))


def score_of(metrics: Metrics, preset: str = OFFICIAL_CALIBRATION) -> float:
    weights = calibration(preset)["weights"]
    return sum(weights[name] * value for name, value in metrics.components.items())


def grade_of(score: float, players: int, preset: str = OFFICIAL_CALIBRATION) -> int:
    """Grade g when thresholds[g-2] <= score < thresholds[g-1] (two-sided)."""
    thresholds = calibration(preset)["thresholds"][str(players)]
    return 1 + sum(score >= t for t in thresholds)


def measure(game: Deal | Position, proof: Budget = PROOF_BUDGET) -> tuple[Verdict, Metrics | None, Line | None, str]:
    """(verdict, metrics, solution, reason): the precision metrics of a deal, and its proof
    (the ``proof`` budget's solve, for a deal no greedy playout wins)."""
    state = Line(game).initial_state()
    wins, best = best_playout(state, PLAYOUTS, 0, lambda line, end: objective_value(state, line, Objective.SPARE, end))
    reason = f"{wins} of {PLAYOUTS} greedy playouts win"
    if best is None:
        result = solve(game, proof)
        if result.verdict != Verdict.WIN or result.line is None:
            undecided = "neither a win nor a proof of loss within the grader's deterministic budget"
            return result.verdict, None, None, result.reason or undecided
        best = list(result.line.actions)
        reason += f"; the solver's {result.method} found a win"
    solution = Line(game, tuple(best))
    spare = objective_value(state, best, Objective.SPARE, check_line(solution))
    kept, sampled, total = first_moves(state)
    metrics = Metrics(wins, kept, sampled, total, spare, objective_bound(state, Objective.SPARE))
    return Verdict.WIN, metrics, solution, reason


def grade(game: Deal | Position, with_silent: bool = True, proof: Budget = PROOF_BUDGET) -> Grading:
    """Grade ``game``: measure, weigh, compare with the thresholds of its player count.

    ``proof`` is the budget of the solve that proves a deal no greedy playout wins; the
    default is deterministic (the grade is the same on every run and machine). With a
    clock-bound one, the grading of such a deal is marked ``reproducible=False``."""
    verdict, metrics, solution, reason = measure(game, proof)
    preset = calibration_for(game.rules)
    calibrated = game.rules == PRESETS[preset]
    reproducible = proof.reproducible or (metrics is not None and metrics.policy_wins > 0)
    if metrics is None:
        return Grading(verdict, None, None, None, None, reason, calibrated, reproducible=reproducible, calibration=preset)
    score = score_of(metrics, preset)
    silent = silent_table(game) if with_silent else None
    graded = grade_of(score, game.players, preset)
    return Grading(Verdict.WIN, graded, score, metrics, solution, reason, calibrated, silent, reproducible, preset)


def score_range(grade: int, players: int, preset: str = OFFICIAL_CALIBRATION) -> tuple[float | None, float | None]:
    """The scores of a grade: at least the first (None: no floor), below the second."""
    thresholds = calibration(preset)["thresholds"][str(players)]
    low = thresholds[grade - 2] if grade > 1 else None
    high = thresholds[grade - 1] if grade < len(GRADES) else None
    return low, high


def meaning(grade: int, players: int, preset: str = OFFICIAL_CALIBRATION) -> str:
    """What a grade means at a player count, from the calibration's shares."""
    shares = [0.0, *calibration(preset)["shares"], 1.0]
    low, high = shares[grade - 1], shares[grade]
    if grade == len(GRADES):
        where = f"the most precise {1 - low:.0%}"
    elif grade == 1:
        where = f"the easiest {high:.0%}"
    else:
        where = f"the {low:.0%}-{high:.0%} band (by precision)"
    if preset == OFFICIAL_CALIBRATION:
        return f"{where} of winnable official {players}-player deals"
    return f"{where} of winnable {players}-player deals of the {preset} preset"
