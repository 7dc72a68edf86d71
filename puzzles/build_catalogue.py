"""Build the shipped catalogue (puzzles/catalogue/): the first 20 puzzles of each grade among
official seeds 0, 1, 2, ... for each player count (``catalogue/<P>p/``), and the first 10 of
each grade of the module presets with a calibration of their own
(``catalogue/<preset>/<P>p/``), found by ``generate`` exactly as ``tranquility generate
--players P --grade G --count N --with-solutions [--rules PRESET]`` finds them.

    python -m tranquility.puzzles.build_catalogue 1 2 3 4 5                  # player counts; run them in parallel
    python -m tranquility.puzzles.build_catalogue --rules monsters 1 2 3 4 5
    python -m tranquility.puzzles.build_catalogue --rules monsters --from puzzles/data/monsters.*.jsonl 1 2 3 4 5
    python -m tranquility.puzzles.build_catalogue --index                    # rewrite catalogue/index.json

``--from DATA...`` reads the grades of seeds 0, 1, 2, ... off the preset's calibration
records (``puzzles.calibrate collect`` measured them with the same greedy playouts and proof
budget as the grader), grades again only the seeds it foresees ``generate`` keeping, and stops
with the seed if one of them grades otherwise: the same catalogue at a fraction of the work.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.formats.puzzle_tag import GRADES

from .calibrate import load, metrics_of
from .generate import generate
from .grade import CALIBRATED, GRADER, OFFICIAL_CALIBRATION, grade_of, score_of

CATALOGUE = Path(__file__).with_name("catalogue")
PER_GRADE = {OFFICIAL_CALIBRATION: 20}  # puzzles of each grade and player count
MODULE_PER_GRADE = 10


def per_grade(preset: str) -> int:
    return PER_GRADE.get(preset, MODULE_PER_GRADE)


def directory_of(preset: str, players: int) -> Path:
    """``<P>p/`` for official puzzles (where they have always been), ``<preset>/<P>p/`` else."""
    return CATALOGUE / f"{players}p" if preset == OFFICIAL_CALIBRATION else CATALOGUE / preset / f"{players}p"


def foreseen(players: int, preset: str, data: list[Path]) -> dict[int, int]:
    """seed -> grade of the puzzles ``generate`` keeps from seed 0, read off the records."""
    records = [r for r in load(data, preset) if r["players"] == players]
    kept: dict[int, int] = {}
    found = dict.fromkeys(GRADES, 0)
    for expected, r in enumerate(records):
        if all(n >= per_grade(preset) for n in found.values()):
            return kept
        if r["seed"] != expected:
            raise SystemExit(f"{preset} {players}p: the records skip seed {expected}")
        if r["verdict"] == "win":
            g = grade_of(score_of(metrics_of(r), preset), players, preset)
            if found[g] < per_grade(preset):
                found[g] += 1
                kept[r["seed"]] = g
    raise SystemExit(f"{preset} {players}p: {len(records)} records hold only {found} puzzles of grades 1-5")


def build(players: int, preset: str = OFFICIAL_CALIBRATION, data: list[Path] | None = None) -> None:
    directory = directory_of(preset, players)
    directory.mkdir(parents=True, exist_ok=True)
    expected = foreseen(players, preset, data) if data else None
    seeds = None if expected is None else sorted(expected)
    for puzzle in generate(PRESETS[preset], players, set(GRADES), per_grade(preset), start_seed=0, seeds=seeds):
        said = None if expected is None else expected.get(puzzle.deal.seed or 0)
        if expected is not None and said != puzzle.grading.grade:
            raise SystemExit(f"{puzzle.id}: the records say grade {said}, grading says {puzzle.grading.grade}")
        puzzle.write(directory, with_solution=True, force=True)
        print(puzzle.id, puzzle.grading.grade, flush=True)


def write_index() -> None:
    """catalogue/index.json: every puzzle's id, file, players, seed and grade."""
    entries = []
    for path in sorted([*CATALOGUE.glob("*p/*.json"), *CATALOGUE.glob("*/*p/*.json")]):
        if path.name.endswith(".solution.json"):
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        block = data["puzzle"]
        preset = path.parent.parent.name if path.parent.parent != CATALOGUE else OFFICIAL_CALIBRATION
        entries.append(
            {
                "id": block["id"],
                "rules": preset,
                "file": str(path.relative_to(CATALOGUE)),
                "solution": str(path.relative_to(CATALOGUE)).replace(".json", ".solution.json"),
                "players": len(data["piles"]),
                "seed": data["seed"],
                "grade": block["grade"],
                "score": block["score"],
            }
        )
    entries.sort(key=lambda e: (CALIBRATED.index(e["rules"]), e["players"], e["grade"], e["seed"]))
    counts = {preset: per_grade(preset) for preset in CALIBRATED}
    index = {"grader": GRADER, "per_grade": counts, "puzzles": entries}
    (CATALOGUE / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--index"]:
        write_index()
    else:
        preset = OFFICIAL_CALIBRATION
        if args[:1] == ["--rules"]:
            preset, args = args[1], args[2:]
        if preset not in CALIBRATED:
            raise SystemExit(f"--rules must be one of {', '.join(CALIBRATED)}, got {preset!r}")
        data = None
        if args[:1] == ["--from"]:
            counts = [a for a in args[1:] if a.isdigit()]
            data, args = [Path(a) for a in args[1:] if not a.isdigit()], counts
        for p in args:
            build(int(p), preset, data)
