"""Graded puzzles: grades are deterministic, given only to proven wins, two-sided;
generate finds what it promises and writes readable files; the catalogue holds 20 per
grade and player count, every solution replays, and a sample re-grades the same."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.puzzles import calibrate
from tranquility.puzzles.build_catalogue import CATALOGUE, foreseen, per_grade
from tranquility.puzzles.generate import generate, puzzle_id
from tranquility.puzzles.grade import (
    CALIBRATED,
    GRADER,
    GRADES,
    calibration,
    calibration_file,
    grade,
    grade_of,
    score_range,
)
from tranquility.puzzles.shipped import catalogue, puzzle, solution
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL, PRESETS, Rules
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import deal_from_json, line_from_json

from ..helpers import make_deal, tiny_rules


def test_puzzle_ids_are_stable_and_readable():
    game = deal(OFFICIAL, 4, 17)
    assert puzzle_id(game) == f"tq1-4p-{OFFICIAL.digest()[:8]}-17"
    other = deal(Rules(finish=1), 4, 17)
    assert puzzle_id(other) != puzzle_id(game)
    with pytest.raises(ValueError):
        puzzle_id(make_deal([[1, 2, 3, "S", 4, 5, 6, 7, 8, "F"]], tiny_rules()))


@pytest.mark.slow
def test_grading_is_deterministic_and_backed_by_a_replayed_win():
    game = deal(OFFICIAL, 3, 4)
    first, second = grade(game), grade(game)
    assert first.to_json(game) == second.to_json(game)
    assert first.verdict == "win" and first.grade in GRADES
    assert first.solution is not None and first.metrics is not None
    check = verify(first.solution)
    assert check.legal and check.won and check.state is not None
    assert first.metrics.spare == check.state.cards_left <= first.metrics.spare_bound


def test_an_unwinnable_deal_gets_no_grade():
    game = deal(OFFICIAL, 1, 6)  # every Finish card lies above the Start card
    graded = grade(game)
    assert graded.verdict == "no-win" and graded.grade is None and graded.solution is None


def test_grades_are_two_sided_bands_of_the_score():
    for players in range(1, 6):
        thresholds = calibration()["thresholds"][str(players)]
        assert thresholds == sorted(thresholds)
        for g in GRADES:
            low, high = score_range(g, players)
            if low is not None:
                assert grade_of(low, players) == g
                assert grade_of(low - 1e-9, players) == g - 1
            if high is not None:
                assert grade_of(high - 1e-9, players) == g


def test_spearman_matches_hand_computed_values():
    assert calibrate.ranks([10, 20, 20, 30]) == [0, 1.5, 1.5, 3]
    assert calibrate.spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert calibrate.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert calibrate.spearman([1, 1, 1], [1, 2, 3]) == 0.0


@pytest.mark.parametrize("preset", CALIBRATED)
def test_calibration_weights_come_from_the_shipped_data(preset):
    # Every calibrated preset ships its file, fitted on its 2,500 shipped records.
    records = calibrate.load(sorted(Path(calibrate.__file__).with_name("data").glob(f"{preset}.*.jsonl")), preset)
    fitted = calibrate.fit(records, preset)
    shipped = calibration(preset)
    assert fitted["weights"] == shipped["weights"] and fitted["thresholds"] == shipped["thresholds"]
    assert fitted["deals_per_player_count"] == {str(p): 500 for p in range(1, 6)}


@pytest.mark.slow
def test_generate_finds_puzzles_of_the_grade_asked(tmp_path):
    puzzles = list(generate(OFFICIAL, 2, {2}, 2, start_seed=100))
    assert [p.grading.grade for p in puzzles] == [2, 2]
    for p in puzzles:
        assert p.grading.silent is not None
        paths = p.write(tmp_path, with_solution=True)
        data = json.loads(paths[0].read_text())
        assert data["puzzle"]["id"] == p.id and data["puzzle"]["grade"] == 2 and data["puzzle"]["grader"] == GRADER
        assert deal_from_json(data) == p.deal  # a puzzle file is a deal file
        solution = line_from_json(json.loads(paths[1].read_text()))
        assert verify(solution).won
        with pytest.raises(FileExistsError):
            p.write(tmp_path, with_solution=True)


@pytest.mark.slow
def test_cli_generate_and_grade_agree(tmp_path):
    runner = CliRunner()
    out = tmp_path / "found"
    args = ["generate", "--players", "3", "--grade", "1", "--start-seed", "200", "--out", str(out), "--with-solutions"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    files = sorted(p for p in out.glob("*.json") if not p.name.endswith(".solution.json"))
    assert len(files) == 1
    assert (out / files[0].name.replace(".json", ".solution.json")).exists()
    graded = runner.invoke(main, ["grade", str(files[0]), "--json"])
    assert graded.exit_code == 0, graded.output
    data = json.loads(graded.output)
    assert data["grade"] == 1 and data["id"] == files[0].stem and data["metrics"]["playouts"] == 32
    # verify and solve take a puzzle file as the deal it is
    assert runner.invoke(main, ["verify", str(files[0])]).exit_code == 0
    again = runner.invoke(main, ["generate", "--players", "3", "--grade", "1", "--start-seed", "200", "--out", str(out)])
    assert again.exit_code == 2 and "already exists" in again.output


def test_cli_grade_errors(tmp_path):
    runner = CliRunner()
    lost = runner.invoke(main, ["grade", "--seed", "6", "--players", "1"])
    assert lost.exit_code == 1 and "Not graded: NO-WIN" in lost.output
    line = tmp_path / "line.json"
    runner.invoke(main, ["simulate", "--seed", "1", "--players", "2", "--out", str(line)])
    refused = runner.invoke(main, ["grade", str(line)])
    assert refused.exit_code == 2 and "not a line file" in refused.output
    assert "Traceback" not in refused.output


# -- the shipped catalogue -------------------------------------------------------------------



def test_the_catalogue_holds_its_count_per_grade_and_player_count_of_each_calibrated_preset():
    # 20 official puzzles per grade and player count, 10 of each module preset; every
    # calibrated preset ships its calibration file and is catalogued.
    counts = Counter((e.rules, e.players, e.grade) for e in catalogue())
    assert all(calibration_file(name).exists() for name in CALIBRATED)
    assert counts == {(r, p, g): per_grade(r) for r in CALIBRATED for p in range(1, 6) for g in GRADES}
    assert set(CALIBRATED) == {"official", "monsters", "rocks-manual"}


@pytest.mark.slow
def test_every_catalogue_puzzle_is_its_seeded_deal_and_its_solution_wins():
    for e in catalogue():
        game = puzzle(e.id)
        assert game == deal(PRESETS[e.rules], e.players, e.seed) and puzzle_id(game) == e.id
        won = solution(e.id)
        assert won.deal == game
        check = verify(won)
        assert check.legal and check.won, e.id


@pytest.mark.slow
def test_a_sample_of_the_catalogue_regrades_the_same():
    for e in random.Random(5).sample(catalogue(), 10):
        data = json.loads((CATALOGUE / e.file).read_text())
        graded = grade(deal(PRESETS[e.rules], e.players, e.seed), with_silent=False)
        assert graded.grade == data["puzzle"]["grade"] == e.grade and graded.metrics is not None
        assert graded.metrics.to_json() == data["puzzle"]["metrics"]


def test_the_calibration_records_foresee_the_catalogue_exactly(tmp_path):
    # build_catalogue --from regrades only the seeds the records foresee generate keeping:
    # the records must name exactly the catalogue's seeds and grades, from seed 0 on.
    data = Path(__file__).parents[2] / "puzzles" / "data"
    checked = 0
    for preset in CALIBRATED:
        records = sorted(data.glob(f"{preset}.*.jsonl"))
        if not records or not calibration_file(preset).exists():
            continue
        for players in range(1, 6):
            shipped = {e.seed: e.grade for e in catalogue() if (e.rules, e.players) == (preset, players)}
            assert foreseen(players, preset, records) == shipped, (preset, players)
            checked += 1
    assert checked >= 5
    solo = [r for r in calibrate.load(sorted(data.glob("official.*.jsonl"))) if r["players"] == 1]
    few, gap = tmp_path / "few.jsonl", tmp_path / "gap.jsonl"
    few.write_text("".join(json.dumps(r) + "\n" for r in solo[:60]))
    gap.write_text("".join(json.dumps(r) + "\n" for r in solo[:3] + solo[4:]))
    with pytest.raises(SystemExit, match="hold only"):
        foreseen(1, "official", [few])
    with pytest.raises(SystemExit, match="skip seed 3"):
        foreseen(1, "official", [gap])


def test_a_rule_set_is_graded_against_its_presets_calibration_or_else_the_official_one():
    from tranquility.puzzles.grade import calibration_for

    assert calibration_for(OFFICIAL) == "official"
    assert calibration_for(Rules(finish=1)) == "official"  # no preset: the official thresholds
    for name in ("monsters", "rocks-manual"):
        assert calibration_for(PRESETS[name]) == name
    with pytest.raises(SystemExit, match="--rules must be one of"):
        calibrate.main(["fit", "--rules", "hungarian"])
