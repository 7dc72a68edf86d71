"""explain, analyze, the moves and the board replay the game they are given once (a game
already replayed, not at all): the verifier's replay of it is handed on to every part."""

from __future__ import annotations

import json

import pytest
from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.board import Board
from tranquility.solver.analysis.explain import explain
from tranquility.solver.analysis.ranking import rank_moves
from tranquility.solver.engine import verify as verify_module
from tranquility.solver.engine.verify import replayed
from tranquility.solver.formats.codecs import line_to_json
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.policies import simulate

from ..helpers import run, small_deals

PLAYED = simulate(small_deals(3, seed=15)[2], "tuned").line
LINE = PLAYED.with_actions(PLAYED.actions[:3])

WORK = {
    "explain": lambda game: explain(game, budget=Budget(seconds=1), critical_budget=0.5),
    "analyze": lambda game: analyze(game, Budget(seconds=0.5)),
    "moves": lambda game: rank_moves(game, Budget(seconds=1)),
    "board": Board.open,
}


@pytest.fixture
def replays(monkeypatch):
    """The lines the verifier replays to hand on (``replayed``), as they come."""
    seen = []
    real = verify_module._replay

    def counted(line, states=None):
        if states is not None:
            seen.append(line)
        return real(line, states)

    monkeypatch.setattr(verify_module, "_replay", counted)
    return seen


@pytest.mark.parametrize("kind", WORK)
def test_a_game_is_replayed_once(replays, kind):
    WORK[kind](LINE)
    assert replays.count(LINE) == 1


@pytest.mark.parametrize("kind", WORK)
def test_a_game_already_replayed_is_not_replayed_again(replays, kind):
    checked = replayed(LINE)
    replays.clear()
    WORK[kind](checked)
    assert LINE not in replays


@pytest.mark.parametrize("kind", ["moves", "explain", "analyze"])
def test_the_command_and_the_servers_job_replay_a_game_once(replays, tmp_path, kind):
    from tranquility.app import work

    path = tmp_path / "line.json"
    path.write_text(json.dumps(line_to_json(LINE)), encoding="utf-8")
    assert run(kind, path, "--time-limit", 2, "--json").exit_code == 0
    assert replays.count(LINE) == 1
    replays.clear()
    work.JOBS[kind]({"game": line_to_json(LINE), "time_limit": 2}, lambda step: None)
    assert replays.count(LINE) == 1
