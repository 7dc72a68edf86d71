"""The lookahead's labelled decisions (labels.py) and the blueprint fitted to them
(taught.py): the terms rebuild tuned's scores, the journal resumes a killed run without
playing a game twice and refuses other settings, the labels name the moves the lookahead
played, and the fit is deterministic and learns a choice rule it is shown."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import numpy as np
import pytest
from tranquility.solver.batch import labels, taught
from tranquility.solver.batch.labels import LabelSettings, island_terms, label_games
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.errors import BadInput
from tranquility.solver.search.lookahead import Lookahead
from tranquility.solver.search.policies import Reading, Tuned, simulate
from tranquility.solver.search.weights import shipped_book


def test_the_terms_times_the_weights_are_tuneds_scores():
    policy = Tuned(random.Random(0))
    checked = 0
    for players in (2, 4):
        line = simulate(deal(OFFICIAL, players, 100_001), "tuned").line
        state = line.initial_state()
        for action in line.actions:
            if not state.must_play_start():
                obs = observe(state, state.seat)
                islands, reading = obs.view.island_plays, Reading(obs)
                w = policy.weights(obs)
                coefs = np.array([getattr(w, name) for name in labels.TERMS])
                got = np.array(island_terms(policy, obs, reading, islands)).reshape(-1, len(coefs)) @ coefs
                assert got == pytest.approx(policy.island_scores(obs, reading, islands), rel=1e-9, abs=1e-9)
                checked += len(islands)
            state = state.apply(action)
    assert checked > 500


def records(path) -> list[dict]:
    return [json.loads(text) for text in path.read_text().splitlines()]


def test_a_rerun_plays_only_the_games_not_in_the_journal(tmp_path):
    out = tmp_path / "labels.jsonl"
    first = label_games(LabelSettings(games=2, samples=1), str(out))
    header, *games = records(out)
    assert header["settings"] == {"samples": 1, "first_seed": labels.LABEL_SEEDS}
    assert [(g["players"], g["seed"]) for g in games] == [(2, 100_000), (3, 100_000)]
    assert first == sum(len(g["decisions"]) for g in games) > 0
    kept = out.read_text()
    total = label_games(LabelSettings(games=3, samples=1), str(out))
    assert out.read_text().startswith(kept)  # the games there are not played again
    header, *games = records(out)
    assert [(g["players"], g["seed"]) for g in games] == [(2, 100_000), (3, 100_000), (4, 100_000)]
    assert total == sum(len(g["decisions"]) for g in games)
    with pytest.raises(BadInput, match="samples 1 there, 2 now"):
        label_games(LabelSettings(games=3, samples=2), str(out))
    for d in (d for g in games for d in g["decisions"]):
        indices = [move[0] for move in d["moves"]]
        assert indices[0] == d["blueprint"] and d["moves"][0][3] == 0.0  # the blueprint's move, against itself
        assert len(indices) > 1 and d["chosen"] in indices
        assert all(-1 <= i < len(d["plays"]) for i in indices)
        assert len(d["terms"]) == len(d["plays"])


def test_labelling_plays_the_lookaheads_own_line():
    game = deal(OFFICIAL, 3, 100_002)
    found: list[dict] = []
    labelled = simulate(game, labels.Labelling(5, 2, found.append), 5).line
    assert labelled == simulate(game, Lookahead(5, 2), 5).line
    assert found and all(d["seat"] in (0, 1, 2) for d in found)


def test_the_evaluation_seeds_are_refused_as_training_deals(tmp_path):
    with pytest.raises(BadInput, match="--first-seed must be 1000 or more"):
        label_games(LabelSettings(games=1, samples=1, first_seed=0), str(tmp_path / "x.jsonl"))
    assert labels.main(["--games", "1", "--first-seed", "10", "--out", str(tmp_path / "x.jsonl")]) == 2


def shown(weights, count: int, seed: int) -> list[taught.LabelledDecision]:
    """Random decisions whose chosen move is ``weights``' own choice."""
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(count):
        n = int(rng.integers(2, 12))
        costs = rng.integers(0, 4, n).astype(float)
        terms = np.column_stack(
            [
                costs,
                costs * rng.random(n),
                costs * 20 * rng.random(n),
                3 * rng.random(n),
                rng.random(n) * (rng.random(n) < 0.3),
                -rng.random(n) * (rng.random(n) < 0.3),
            ]
        )
        d = taught.LabelledDecision(terms, costs, bool(rng.random() < 0.5), 0)
        found.append(replace(d, chosen=taught.choice(weights, d)))
    return found


def test_the_fit_is_deterministic_and_learns_the_rule_it_is_shown():
    tuned = shipped_book().weights[3]
    teacher = replace(tuned, cost=3.0, misplaced=0.2, deficit=4.0, discard_cost=3.0)
    train, held = shown(teacher, 600, 1), shown(teacher, 300, 2)
    fitted = taught.fit(train, tuned)
    assert taught.fit(train, tuned) == fitted
    assert taught.agreement(fitted, held) > taught.agreement(tuned, held) + 0.1
    assert taught.agreement(fitted, held) > 0.9
    batch = taught.Padded.of(held)
    assert list(batch.choices(fitted)) == [taught.choice(fitted, d) for d in held]
    assert fitted.keep_base == tuned.keep_base and fitted.give_dead == tuned.give_dead  # the labels do not show them


def test_a_bad_labels_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\nnot json\n")
    assert taught.main(["--labels", str(bad), "--deals", "0"]) == 2
    assert "not a labels journal" in capsys.readouterr().err
