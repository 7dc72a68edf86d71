"""Build the shipped catalogue (puzzles/catalogue/): the first 20 puzzles of each grade among
official seeds 0, 1, 2, ... for each player count, found by ``generate`` exactly as
``tranquility generate --players P --grade G --count 20 --with-solutions`` finds them.

    python -m tranquility.puzzles.build_catalogue 1 2 3 4 5     # player counts; run them in parallel
    python -m tranquility.puzzles.build_catalogue --index       # rewrite catalogue/index.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tranquility.solver.rules import OFFICIAL

from .generate import generate
from .grade import GRADER, GRADES

CATALOGUE = Path(__file__).with_name("catalogue")
PER_GRADE = 20


def build(players: int) -> None:
    directory = CATALOGUE / f"{players}p"
    directory.mkdir(parents=True, exist_ok=True)
    for puzzle in generate(OFFICIAL, players, set(GRADES), PER_GRADE, start_seed=0):
        puzzle.write(directory, with_solution=True, force=True)
        print(puzzle.id, puzzle.grading.grade, flush=True)


def write_index() -> None:
    """catalogue/index.json: every puzzle's id, file, players, seed and grade."""
    entries = []
    for path in sorted(CATALOGUE.glob("*p/*.json")):
        if path.name.endswith(".solution.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        block = data["puzzle"]
        entries.append(
            {
                "id": block["id"],
                "file": str(path.relative_to(CATALOGUE)),
                "solution": str(path.relative_to(CATALOGUE)).replace(".json", ".solution.json"),
                "players": len(data["piles"]),
                "seed": data["seed"],
                "grade": block["grade"],
                "score": block["score"],
            }
        )
    entries.sort(key=lambda e: (e["players"], e["grade"], e["seed"]))
    index = {"grader": GRADER, "per_grade": PER_GRADE, "puzzles": entries}
    (CATALOGUE / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--index"]:
        write_index()
    else:
        for p in sys.argv[1:]:
            build(int(p))
