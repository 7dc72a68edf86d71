"""Finding puzzles of a chosen grade among seeded deals, and the puzzle file format
(docs/puzzles.md): a deal file (tranquility-deal/1) with a ``puzzle`` block, and its
solution as a line file beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Rules
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.formats.json_values import write_json

from .grade import GRADER, Grading, grade, silent_table
from .puzzle_file import puzzle_id


@dataclass(frozen=True)
class Puzzle:
    """A deal that was graded: its grading has a grade, a score, metrics and a solution."""

    id: str
    deal: Deal
    grading: Grading

    def __post_init__(self) -> None:
        g = self.grading
        assert None not in (g.grade, g.score, g.metrics, g.solution), "a puzzle is a graded deal"

    @property
    def solution(self) -> Line:
        assert self.grading.solution is not None
        return self.grading.solution

    def to_json(self) -> dict:
        """The puzzle file: the deal file and a ``puzzle`` block."""
        g = self.grading
        assert g.score is not None and g.metrics is not None
        block = {
            "id": self.id,
            "grade": g.grade,
            "grader": GRADER,
            "calibrated": g.calibrated,
            "calibration": g.calibration,
            "score": round(g.score, 4),
            "metrics": g.metrics.to_json(),
            "silent": None if g.silent is None else g.silent.to_json(),
        }
        return {**deal_to_json(self.deal), "puzzle": block}

    def write(self, directory: Path, with_solution: bool, force: bool = False) -> list[Path]:
        """Write ``<id>.json`` (and ``<id>.solution.json``); never overwrite unless ``force``."""
        written = [directory / f"{self.id}.json"]
        if with_solution:
            written.append(directory / f"{self.id}.solution.json")
        write_json(written[0], self.to_json(), force)
        if with_solution:
            write_json(written[1], line_to_json(self.solution), force)
        return written


def generate(
    rules: Rules,
    players: int,
    grades: set[int],
    count: int,
    start_seed: int = 0,
    max_seeds: int = 10_000,
    on_seed: Callable[[int, Grading | None], None] | None = None,
    seeds: Iterable[int] | None = None,
) -> Iterator[Puzzle]:
    """Grade seeds start_seed, start_seed+1, ... (or the ``seeds`` given, in their order) and
    yield the first ``count`` puzzles of each grade in ``grades``; stop after ``max_seeds``
    seeds whatever was found. The silent table is played only for the deals kept (it is
    beside the grade, not part of it)."""
    found = dict.fromkeys(grades, 0)
    if seeds is None:
        seeds = range(start_seed, min(start_seed + max_seeds, 2**64))  # seeds are 64-bit
    for seed in seeds:
        if all(n >= count for n in found.values()):
            return
        game = deal(rules, players, seed)
        graded = grade(game, with_silent=False)
        if on_seed is not None:
            on_seed(seed, graded)
        if graded.grade in found and found[graded.grade] < count:
            found[graded.grade] += 1
            yield Puzzle(puzzle_id(game), game, replace(graded, silent=silent_table(game)))
