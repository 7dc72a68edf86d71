"""bench --suite core: the compiled core and the reference side by side, the same games."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main


@pytest.mark.slow
def test_the_core_suite_plays_the_same_games_on_both_sides():
    result = CliRunner().invoke(main, ["bench", "--suite", "core", "--players", "2", "--deals", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    rows = report["rows"]
    assert [row["what"] for row in rows] == [
        "tuned",
        "cautious",
        "thrifty",
        "greedy",
        "playouts",
        "greedy playouts",
        "complete search nodes",
    ]
    for row in rows:
        assert row["same_games"] is True, row
        assert row["reference_games"] > 0 and row["core_games"] > 0


def test_the_core_suite_refuses_a_time_limit():
    result = CliRunner().invoke(main, ["bench", "--suite", "core", "--time-limit", "5"])
    assert result.exit_code == 2 and "--time-limit" in result.output


def test_ctrl_c_reports_the_rows_measured_so_far(monkeypatch):
    from tranquility.solver.batch import core_bench

    measured = core_bench._row

    def then_ctrl_c(what, players, states, policy):
        if what == "cautious":
            raise KeyboardInterrupt
        return measured(what, players, states, policy)

    monkeypatch.setattr(core_bench, "_row", then_ctrl_c)
    result = CliRunner().invoke(main, ["bench", "--suite", "core", "--players", "1", "--deals", "2", "--json"])
    assert result.exit_code == 130, result.output
    report = json.loads(result.stdout)
    assert report["interrupted"] is True
    assert [row["what"] for row in report["rows"]] == ["tuned"]
