"""How long grading and generating take (``tranquility bench --suite puzzles``).

Per player count, grade the official seeds FIRST_SEED..FIRST_SEED+N-1 in turn, as ``generate``
does, timing each grade (without and with the silent table). Generating one puzzle of
grade g takes, in expectation, the time to grade the seeds it has to try: the scan's total
grading time divided by the puzzles of grade g it found (plus one silent table).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tranquility.solver.engine.deal import MAX_PLAYERS, deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.formats.puzzle_tag import GRADES

from .grade import grade, silent_table

FIRST_SEED = 10_000  # away from the calibration seeds (0..499)


@dataclass(frozen=True)
class PuzzleRow:
    players: int
    deals: int
    graded: dict[int, int]  # grade -> deals of that grade (0 = not graded)
    grade_seconds: dict[int, list[float]]  # grade -> grading seconds of its deals
    silent_seconds: float  # mean seconds of one silent table
    scan_seconds: float

    def per_puzzle(self, g: int) -> float | None:
        """Expected seconds for ``generate`` to find one puzzle of grade g."""
        found = self.graded.get(g, 0)
        return None if not found else self.scan_seconds / found + self.silent_seconds

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "deals": self.deals,
            "graded": {str(g): n for g, n in self.graded.items()},
            "median_grade_seconds": {
                str(g): round(statistics.median(v), 3) for g, v in self.grade_seconds.items() if v
            },
            "silent_seconds": round(self.silent_seconds, 3),
            "generate_seconds_per_puzzle": {str(g): _rounded(self.per_puzzle(g), 2) for g in GRADES},
        }


def run_puzzle_suite(
    deals: int, on_step: Callable[[str], None] | None = None, players: Iterable[int] = range(1, MAX_PLAYERS + 1)
) -> list[PuzzleRow]:
    rows = []
    for count in players:
        graded = dict.fromkeys((0, *GRADES), 0)
        seconds: dict[int, list[float]] = {g: [] for g in (0, *GRADES)}
        silent = []
        scan_started = time.monotonic()
        for seed in range(FIRST_SEED, FIRST_SEED + deals):
            if on_step is not None:
                on_step(f"grade {count} players, seed {seed}")
            game = deal(OFFICIAL, count, seed)
            started = time.monotonic()
            g = grade(game, with_silent=False).grade or 0
            seconds[g].append(time.monotonic() - started)
            graded[g] += 1
        scan = time.monotonic() - scan_started
        for seed in range(FIRST_SEED, FIRST_SEED + min(deals, 5)):
            started = time.monotonic()
            silent_table(deal(OFFICIAL, count, seed))
            silent.append(time.monotonic() - started)
        rows.append(PuzzleRow(count, deals, graded, seconds, statistics.fmean(silent), scan))
    return rows


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def puzzle_markdown(rows: list[PuzzleRow]) -> str:
    grades = " | ".join(f"grade {g}: deals, grade s, generate s" for g in GRADES)
    head = f"| players | deals | {grades} | not graded | silent table s |"
    lines = [head, "|---" * (len(GRADES) + 4) + "|"]
    for r in rows:
        cells = []
        for g in GRADES:
            times = r.grade_seconds[g]
            median = f"{statistics.median(times):.2f}" if times else "-"
            per = r.per_puzzle(g)
            cells.append(f"{r.graded[g]}, {median}, {per:.1f}" if per is not None else "0, -, -")
        lines.append(f"| {r.players} | {r.deals} | " + " | ".join(cells) + f" | {r.graded[0]} | {r.silent_seconds:.2f} |")
    return "\n".join(lines)
