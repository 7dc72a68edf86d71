"""Calibrating the grader (docs/puzzles.md): grade many seeded deals of a preset, fit the
weights of the precision components and the grade thresholds of each player count.

    python -m tranquility.puzzles.calibrate collect --players 4 --deals 500 --out data.jsonl [--shard 0/2] [--rules PRESET]
    python -m tranquility.puzzles.calibrate fit [--rules PRESET] data*.jsonl     # writes the preset's calibration file
    python -m tranquility.puzzles.calibrate report [--rules PRESET] data*.jsonl  # the Markdown tables of docs/puzzles.md

PRESET is one of ``grade.CALIBRATED`` (default official: ``puzzles/calibration.json``; the
others ``puzzles/calibration-PRESET.json``). A data file holds one preset's deals.

Weights: each component's rank correlation (Spearman) with how often a silent table loses
the deal (the wavering policy's loss rate), averaged over player counts; negative
correlations count as 0; normalised to sum 1. Thresholds: the score quantiles ``SHARES`` of
the winnable deals of each player count, so grade 5 is the most precise 7% of that count's
winnable deals, grade 1 the easiest 30%.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.formats.puzzle_tag import GRADES

from .grade import (
    CALIBRATED,
    GRADER,
    OFFICIAL_CALIBRATION,
    WAVERING_PLAYS,
    Metrics,
    calibration_file,
    measure,
    silent_table,
)

SHARES = (0.30, 0.60, 0.80, 0.93)  # cumulative shares of winnable deals below grades 2..5
COMPONENTS = ("policy", "first_moves", "spare")


def collect(
    players: int, deals: int, out: Path, shard: tuple[int, int] = (0, 1), preset: str = OFFICIAL_CALIBRATION
) -> None:
    """Measure seeds 0..deals-1 (those of this shard) of the preset's rules, appending one
    JSON line per deal; seeds already in ``out`` are skipped, so an interrupted run resumes."""
    done = set()
    if out.exists():
        done = {(r["players"], r["seed"]) for r in map(json.loads, out.read_text().splitlines())}
    index, count = shard
    with out.open("a", encoding="utf-8") as sink:
        for seed in range(index, deals, count):
            if (players, seed) in done:
                continue
            game = deal(PRESETS[preset], players, seed)
            started = time.monotonic()
            verdict, metrics, solution, reason = measure(game)
            measured = time.monotonic() - started
            record = {
                "rules": preset,
                "players": players,
                "seed": seed,
                "verdict": verdict,
                "reason": reason,
                "grade_seconds": round(measured, 3),
            }
            if metrics is not None and solution is not None:
                silent = silent_table(game)
                record |= {
                    "metrics": metrics.to_json(),
                    "silent": silent.to_json(),
                    "wavering_wins": silent.wavering_wins,
                    "turns": len(solution.actions),
                }
            sink.write(json.dumps(record) + "\n")
            sink.flush()


def load(paths: list[Path], preset: str = OFFICIAL_CALIBRATION) -> list[dict]:
    """The preset's records in the files (a record without ``rules`` is an official deal's)."""
    records = {}
    for path in paths:
        for row in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(row)
            if r.get("rules", OFFICIAL_CALIBRATION) == preset:
                records[(r["players"], r["seed"])] = r
    return [records[k] for k in sorted(records)]


def metrics_of(record: dict) -> Metrics:
    fields = {k: v for k, v in record["metrics"].items() if k != "playouts"}
    return Metrics(**fields)


def ranks(values: list[float]) -> list[float]:
    """Average ranks (ties share their mean rank)."""
    order = sorted(range(len(values)), key=values.__getitem__)
    result = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            result[order[k]] = (i + j) / 2
        i = j + 1
    return result


def spearman(xs: list[float], ys: list[float]) -> float:
    rx, ry = ranks(xs), ranks(ys)
    if len(set(rx)) < 2 or len(set(ry)) < 2:
        return 0.0
    return statistics.correlation(rx, ry)


def quantile(sorted_values: list[float], share: float) -> float:
    """The value below which ``share`` of the values lie (nearest rank)."""
    index = min(len(sorted_values) - 1, max(0, round(share * len(sorted_values))))
    return sorted_values[index]


def winnable_by_players(records: list[dict]) -> dict[int, list[dict]]:
    groups: dict[int, list[dict]] = {}
    for r in records:
        if r["verdict"] == "win":
            groups.setdefault(r["players"], []).append(r)
    return groups


def correlations(records: list[dict]) -> dict[int, dict[str, float]]:
    """Per player count: each component's Spearman correlation with the silent loss rate."""
    table = {}
    for players, group in sorted(winnable_by_players(records).items()):
        loss = [1 - r["wavering_wins"] / WAVERING_PLAYS for r in group]
        comps = [metrics_of(r).components for r in group]
        table[players] = {c: spearman([x[c] for x in comps], loss) for c in COMPONENTS}
    return table


def fit(records: list[dict], preset: str = OFFICIAL_CALIBRATION) -> dict:
    table = correlations(records)
    raw = {c: max(0.0, statistics.fmean(t[c] for t in table.values())) for c in COMPONENTS}
    total = sum(raw.values()) or 1.0
    weights = {c: round(raw[c] / total, 4) for c in COMPONENTS}
    thresholds = {}
    for players, group in sorted(winnable_by_players(records).items()):
        scores = sorted(sum(weights[c] * v for c, v in metrics_of(r).components.items()) for r in group)
        thresholds[str(players)] = [round(quantile(scores, s), 4) for s in SHARES]
    return {
        "grader": GRADER,
        "rules": preset,
        "deals_per_player_count": {
            str(p): len([r for r in records if r["players"] == p]) for p in sorted({r["players"] for r in records})
        },
        "shares": list(SHARES),
        "weights": weights,
        "correlations": {str(p): {c: round(v, 3) for c, v in t.items()} for p, t in table.items()},
        "thresholds": thresholds,
    }


def report(records: list[dict], calib: dict) -> str:
    """Markdown tables for docs/puzzles.md."""
    weights = calib["weights"]
    grades = " | ".join(f"grade {g}" for g in GRADES)
    out = [f"| Players | Deals | Winnable | {grades} | thresholds (score) |", "|---" * 9 + "|"]
    per_grade: dict[tuple[int, int], list[dict]] = {}
    for players, group in sorted(winnable_by_players(records).items()):
        thresholds = calib["thresholds"][str(players)]
        counts = dict.fromkeys(GRADES, 0)
        for r in group:
            score = sum(weights[c] * v for c, v in metrics_of(r).components.items())
            g = 1 + sum(score >= t for t in thresholds)
            counts[g] += 1
            per_grade.setdefault((players, g), []).append(r)
        total = len([r for r in records if r["players"] == players])
        lost = sum(r["verdict"] == "no-win" for r in records if r["players"] == players)
        out.append(
            f"| {players} | {total} | {len(group)} ({lost} lost, {total - len(group) - lost} unknown) | "
            + " | ".join(str(counts[g]) for g in GRADES)
            + " | " + ", ".join(f"{t:.3f}" for t in thresholds) + " |"
        )
    out += ["", "Distribution of the fixed policy's wins (of 32 playouts) over the winnable deals:", ""]
    bands = [(0, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 24), (25, 28), (29, 32)]
    out += ["| Players | " + " | ".join(f"{a}-{b}" for a, b in bands) + " |", "|---" * (len(bands) + 1) + "|"]
    for players, group in sorted(winnable_by_players(records).items()):
        wins = [r["metrics"]["policy_wins"] for r in group]
        out.append(f"| {players} | " + " | ".join(str(sum(a <= w <= b for w in wins)) for a, b in bands) + " |")
    out += [
        "",
        "Mean metrics per grade (policy wins of 32, first moves kept of the sample, best spare; "
        "silent: wavering wins of 12, fixed policies' wins of 3; grading seconds):",
        "",
    ]
    out += [
        "| Players | Grade | Deals | policy wins | first moves kept | spare | wavering wins | fixed wins "
        "| seconds (median, max) |",
        "|---" * 9 + "|",
    ]
    for (players, g), group in sorted(per_grade.items()):
        m = [r["metrics"] for r in group]
        fixed = [sum(v is True for v in r["silent"].values()) for r in group]
        secs = sorted(r["grade_seconds"] for r in group)
        out.append(
            f"| {players} | {g} | {len(group)} | {statistics.fmean(x['policy_wins'] for x in m):.1f} | "
            f"{statistics.fmean(x['first_kept'] / x['first_sampled'] for x in m):.0%} | "
            f"{statistics.fmean(x['spare'] for x in m):.1f} | "
            f"{statistics.fmean(r['wavering_wins'] for r in group):.1f} | {statistics.fmean(fixed):.2f} | "
            f"{statistics.median(secs):.2f}, {secs[-1]:.2f} |"
        )
    return "\n".join(out)


def _preset(rest: list[str]) -> tuple[str, list[str]]:
    """``--rules PRESET`` taken out of the arguments (default official)."""
    preset = OFFICIAL_CALIBRATION
    if "--rules" in rest:
        at = rest.index("--rules")
        preset, rest = rest[at + 1], rest[:at] + rest[at + 2 :]
    if preset not in CALIBRATED:
        raise SystemExit(f"--rules must be one of {', '.join(CALIBRATED)}, got {preset!r}")
    return preset, rest


def main(argv: list[str]) -> None:
    command, *rest = argv
    preset, rest = _preset(rest)
    if command == "collect":
        args = dict(zip(rest[::2], rest[1::2], strict=False))
        index, count = map(int, args.get("--shard", "0/1").split("/"))
        collect(int(args["--players"]), int(args["--deals"]), Path(args["--out"]), (index, count), preset)
    elif command == "fit":
        calib = fit(load([Path(p) for p in rest], preset), preset)
        calibration_file(preset).write_text(json.dumps(calib, indent=1) + "\n", encoding="utf-8")
        print(json.dumps(calib, indent=1))
    elif command == "report":
        print(report(load([Path(p) for p in rest], preset), json.loads(calibration_file(preset).read_text())))
    else:
        raise SystemExit(f"unknown command {command!r} (collect, fit, report)")


if __name__ == "__main__":
    main(sys.argv[1:])
