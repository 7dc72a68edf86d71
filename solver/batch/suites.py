"""Every suite of ``tranquility bench``, by name, in the order the command lists them: each
declared by its own module (``Suite``: the player counts it plays, the options it takes and
those it refuses)."""

from __future__ import annotations

from tranquility.solver.batch.bench import PUZZLES_SUITE, SOLVE_SUITES, Suite
from tranquility.solver.batch.core_bench import CORE
from tranquility.solver.batch.explain_bench import EXPLAIN
from tranquility.solver.batch.fair_bench import FAIR
from tranquility.solver.batch.optimal_bench import OPTIMAL
from tranquility.solver.batch.table_bench import TABLE

# The puzzles suite runs in the puzzles layer, above this one (tranquility.puzzles.timing):
# it is declared here.
PUZZLES = Suite(
    PUZZLES_SUITE,
    (1, 2, 3, 4, 5),
    refuses=("time_limit", "workers", "reproducible"),
    why="the grader has fixed, deterministic budgets",
)
SUITES: dict[str, Suite] = {suite.name: suite for suite in (*SOLVE_SUITES, EXPLAIN, OPTIMAL, PUZZLES, TABLE, FAIR, CORE)}
