"""The ``tuned`` policy: its weights file, the weights it plays per count, and the fit
(``tranquility tune``): deterministic, resumable without loss or double counting."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from tranquility.solver.batch.tuning import STEPS, TuneSettings, TuningJournal, play_deals, tune, weights_at
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import OFFICIAL, PRESETS
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import BadInput
from tranquility.solver.search.policies import Tuned, make_policy, simulate
from tranquility.solver.search.weights import THRIFTY_LIKE, WeightBook, Weights, shipped_book, weights_for

from ..helpers import run

SMALL = TuneSettings(players=2, generations=2, population=4, deals=6, validation=8)


def test_every_weight_has_a_search_step():
    assert set(STEPS) == set(Weights.names())
    assert weights_at([0.0] * len(STEPS)) == THRIFTY_LIKE


def test_weights_round_trip_and_refuse_bad_values():
    weights = replace(THRIFTY_LIKE, cost=1.5, give_dead=3.0)
    assert Weights.from_json(weights.to_json()) == weights
    with pytest.raises(BadInput, match="unknown weight 'bogus'"):
        Weights.from_json({"bogus": 1.0})
    with pytest.raises(BadInput, match="weight 'cost' must be a number"):
        Weights.from_json({"cost": "high"})
    with pytest.raises(BadInput, match="not a tranquility-weights/1 file"):
        WeightBook.from_json({"format": "other"})


def test_the_shipped_weights_are_for_the_official_rules_and_every_count():
    book = shipped_book()
    assert book.rules == OFFICIAL
    assert sorted(book.weights) == [1, 2, 3, 4, 5]
    for fit in book.fits.values():
        assert fit["validation_deals"] >= 1000 and fit["training_seeds"].startswith("1000000..")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_tuned_plays_the_weights_fitted_for_its_count(players):
    obs = observe(State.initial(deal(OFFICIAL, players, 3)), 0)
    policy = make_policy("tuned")
    assert isinstance(policy, Tuned)
    assert policy.weights(obs) == shipped_book().weights[players]
    assert weights_for(OFFICIAL, players) == (shipped_book().weights[players], None)


def test_other_rules_play_the_official_weights_and_say_so():
    weights, note = weights_for(PRESETS["hungarian"], 3)
    assert weights == shipped_book().weights[3]
    assert note is not None and "official rules" in note
    empty = WeightBook(OFFICIAL, {}, {})
    assert weights_for(OFFICIAL, 2, empty)[0] == THRIFTY_LIKE


def test_weights_change_the_play():
    """The weights are not decoration: a seat that never pays more than it must plays
    another game than one that discards two at any cost of one."""
    game = deal(OFFICIAL, 2, 4)
    eager = Tuned(random.Random(0), WeightBook(OFFICIAL, {2: replace(THRIFTY_LIKE, discard_cost=1.0)}, {}))
    plain = Tuned(random.Random(0), WeightBook(OFFICIAL, {2: THRIFTY_LIKE}, {}))
    assert simulate(game, eager).line != simulate(game, plain).line


@pytest.mark.parametrize("players", [1, 3, 5])
def test_tuned_is_deterministic_and_legal(players):
    game = deal(OFFICIAL, players, 8)
    first, again = simulate(game, "tuned", 0), simulate(game, "tuned", 7)
    assert first.line == again.line  # no noise: the sim seed changes nothing
    assert verify(first.line).legal


@pytest.mark.slow
def test_the_fit_is_deterministic_and_resumes_without_loss_or_double_counting(tmp_path):
    whole = tune(SMALL, tmp_path / "whole.jsonl")
    assert tune(SMALL, tmp_path / "again.jsonl") == whole
    # A kill after the first generation, with the last line cut short: the run goes on.
    lines = (tmp_path / "whole.jsonl").read_text().splitlines(keepends=True)
    first = 1 + SMALL.population + 1  # the header, the candidates and thrifty of generation 0
    (tmp_path / "killed.jsonl").write_text("".join(lines[:first]) + lines[first][:20])
    resumed = tune(SMALL, tmp_path / "killed.jsonl")
    assert resumed == whole
    entries = (tmp_path / "killed.jsonl").read_text().splitlines()[1:]
    keys = [(e["generation"], e["index"]) for e in map(json.loads, entries)]
    assert len(keys) == len(set(keys)) == SMALL.generations * (SMALL.population + 1)
    # Every candidate plays the same deals as thrifty in its generation.
    assert resumed.curve[0].deals == SMALL.deals
    assert resumed.validation["thrifty"] == play_deals(OFFICIAL, 2, SMALL.validation_seeds(), None)


def test_a_journal_of_other_settings_is_refused(tmp_path):
    path = tmp_path / "j.jsonl"
    TuningJournal.open(path, SMALL)
    with pytest.raises(BadInput, match="other settings \\(deals differ\\)"):
        TuningJournal.open(path, replace(SMALL, deals=7))
    TuningJournal.open(path, replace(SMALL, generations=9, validation=3))  # a run may be cut short or carried on
    with pytest.raises(BadInput, match="start differ"):
        TuningJournal.open(path, replace(SMALL, start=replace(THRIFTY_LIKE, cost=1.0)))


def test_training_and_validation_never_touch_the_evaluation_seeds():
    settings = TuneSettings(players=3)
    for generation in range(settings.generations):
        assert min(settings.seeds(generation)) >= 1_000_000
    assert min(settings.validation_seeds()) >= 1_000_000
    assert not set(settings.validation_seeds()) & {s for g in range(settings.generations) for s in settings.seeds(g)}


@pytest.mark.slow
def test_tune_command_writes_merges_and_refuses_to_overwrite(tmp_path):
    options = ["--generations", "1", "--population", "2", "--deals", "3", "--validation", "3"]
    out = tmp_path / "w.json"
    first = run("tune", "--players", "2", *options, "--journal", str(tmp_path / "a.jsonl"), "--out", str(out))
    assert first.exit_code == 0, first.stderr
    assert first.stderr == "" and "wrote" in first.stdout  # progress is for a terminal, not a pipe
    again = run("tune", "--players", "2", *options, "--journal", str(tmp_path / "a.jsonl"), "--out", str(out))
    assert again.exit_code == 2 and "--force" in again.stderr
    merged = run("tune", "--players", "3", *options, "--journal", str(tmp_path / "b.jsonl"), "--out", str(out), "--merge")
    assert merged.exit_code == 0, merged.stderr
    book = WeightBook.from_json(json.loads(out.read_text()))
    assert sorted(book.weights) == [2, 3]
    # Started from the 2-player weights just fitted: the search's origin is theirs.
    started = run(
        "tune", "--players", "3", *options, "--journal", str(tmp_path / "c.jsonl"), "--out", str(tmp_path / "c.json"),
        "--start", str(out), "--start-players", "2", "--json",
    )
    assert started.exit_code == 0, started.stderr
    assert json.loads(started.stdout)["settings"]["start"] == book.weights[2].to_json()
    lone = run("tune", "--players", "3", *options, "--start-players", "2", "--out", str(tmp_path / "d.json"))
    assert lone.exit_code == 2 and "--start-players goes with --start" in lone.stderr
    (tmp_path / "bad.jsonl").write_text("not json\n")
    bad = run("tune", "--players", "2", *options, "--journal", str(tmp_path / "bad.jsonl"), "--out", str(tmp_path / "x.json"))
    assert bad.exit_code == 2 and "bad.jsonl, line 1: not JSON" in bad.stderr and "Traceback" not in bad.stderr
