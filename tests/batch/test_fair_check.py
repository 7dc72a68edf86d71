"""``fair_check``: one turn from each lost game, the turn the perfect analysis places the
loss of the win in, judged by the fair analysis and again with ``--factor`` times the
worlds; its journal (``--out``) resumes a killed run from the seed after its last, each
seed once; Ctrl-C prints the summary of the turns done and exits 130; a bad ``--out`` is
a clear error.

The real run plays thrifty's official 3-player games from seed 0 (the first two lost
games whose loss is placed on one turn are seeds 0 and 3); the resume and Ctrl-C tests
stand the 4-player seed 20's lost line in for every lost game, judged for real at a few
worlds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count
from types import SimpleNamespace

import pytest
from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import MISTAKE_MARGIN
from tranquility.solver.batch import fair_check
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.policies import simulate

FEW = ["--samples", "2", "--factor", "3"]


def journal(path) -> list[dict]:
    return [json.loads(text) for text in path.read_text().splitlines()]


@pytest.mark.slow
def test_a_real_run_checks_the_turn_each_lost_game_lost_its_win(tmp_path, capsys):
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "2", "--players", "3", "--samples", "4", "--out", str(out)]) == 0
    header, *turns = journal(out)
    assert header == {
        "tool": "fair_check",
        "settings": {"players": 3, "policy": "thrifty", "samples": 4, "factor": 10, "time_limit": 10.0, "margin": 8.0},
    }
    assert [(t["seed"], t["turn"]) for t in turns] == [(0, 42), (3, 38)]
    for t in turns:
        line = simulate(deal(OFFICIAL, 3, t["seed"]), "thrifty", t["seed"]).line
        assert not line.end_state().won
        assert analyze(line, Budget(seconds=10.0)).lost_at == t["turn"]
        assert t["small"]["worlds"] == 4 and t["large"]["worlds"] == 40
        played = format_action(line.actions[t["turn"] - 1])
        assert t["small"]["played"][0] == played and t["large"]["played"][0] == played
        assert t["agree"] == (t["small"]["verdict"] == t["large"]["verdict"])
        for said in (t["small"], t["large"]):
            assert said["verdict"] == ("mistake" if said["lead"][0] >= MISTAKE_MARGIN else "bad luck")
    printed = capsys.readouterr()
    assert [json.loads(text) for text in printed.out.splitlines()[:2]] == turns
    agree = sum(t["agree"] for t in turns)
    assert printed.out.splitlines()[2].startswith(f"{agree} of 2 verdicts agree, a mistake costing at least 8 points (")
    assert "1 of 2: seed 0 turn 42, " in printed.err and "2 of 2: seed 3 turn 38, " in printed.err


@pytest.fixture(scope="module")
def lost_line() -> Line:
    return simulate(deal(OFFICIAL, 4, 20), "thrifty", 20).line


@pytest.fixture
def every_third_seed_lost(lost_line, monkeypatch) -> list[int]:
    """Seeds 0, 3, 6, ... lose, each with seed 20's line (lost at turn 17); the seeds each
    search started from."""
    starts: list[int] = []

    def stand_in(players: int, policy: str, budget: Budget, start: int = 0) -> Iterator[tuple[int, Line, int]]:
        starts.append(start)
        for seed in count(start):
            if seed % 3 == 0:
                yield seed, lost_line, 17

    monkeypatch.setattr(fair_check, "lost_turns", stand_in)
    return starts


def test_a_rerun_goes_on_from_the_journal_each_seed_once(tmp_path, every_third_seed_lost, capsys):
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "2", *FEW, "--out", str(out)]) == 0
    first = journal(out)
    assert [t["seed"] for t in first[1:]] == [0, 3]
    # A kill while a line was written leaves it cut short: the rerun drops it.
    with out.open("a") as file:
        file.write('{"seed": 6, "tu')
    capsys.readouterr()
    assert fair_check.main(["--turns", "4", *FEW, "--out", str(out)]) == 0
    assert every_third_seed_lost == [0, 4]
    again = journal(out)
    assert again[:3] == first and [t["seed"] for t in again[1:]] == [0, 3, 6, 9]
    assert again[3]["small"] == again[1]["small"]  # the same line and turn, judged alike
    printed = capsys.readouterr()
    assert "2 turn(s) from " in printed.err and "going on from seed 4" in printed.err
    assert printed.out.splitlines()[-1].startswith(f"{sum(t['agree'] for t in again[1:])} of 4 verdicts agree")
    # Done already: nothing more is checked.
    assert fair_check.main(["--turns", "3", *FEW, "--out", str(out)]) == 0
    assert journal(out) == again


def test_a_journal_of_other_settings_is_refused(tmp_path, every_third_seed_lost, capsys):
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "1", *FEW, "--out", str(out)]) == 0
    kept = out.read_text()
    capsys.readouterr()
    assert fair_check.main(["--turns", "2", "--samples", "5", "--factor", "3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {out}: a journal of a run with other settings (samples 2 there, 5 now)")
    assert out.read_text() == kept


def test_first_seed_starts_on_fresh_deals_and_a_rerun_goes_on_past_it(tmp_path, every_third_seed_lost, capsys):
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "1", *FEW, "--first-seed", "628", "--out", str(out)]) == 0
    assert [t["seed"] for t in journal(out)[1:]] == [630]
    assert fair_check.main(["--turns", "2", *FEW, "--first-seed", "628", "--out", str(out)]) == 0
    assert every_third_seed_lost == [628, 631] and [t["seed"] for t in journal(out)[1:]] == [630, 633]
    with pytest.raises(SystemExit) as stopped:
        fair_check.main(["--first-seed", "-1"])
    assert stopped.value.code == 2 and "--first-seed must be 0 or above" in capsys.readouterr().err


def test_a_journal_of_the_rule_before_the_margin_is_refused(tmp_path, capsys):
    """Its verdicts were made by another rule: they cannot count toward this run's."""
    out = tmp_path / "fair.jsonl"
    settings = {"players": 4, "policy": "thrifty", "samples": 2, "factor": 3, "time_limit": 10.0}
    out.write_text(json.dumps({"tool": "fair_check", "settings": settings}) + "\n")
    assert fair_check.main(["--turns", "1", *FEW, "--out", str(out)]) == 2
    assert "other settings (margin None there, 8.0 now)" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["missing/fair.jsonl", "."])
def test_an_out_path_that_cannot_be_written_is_a_clear_error(tmp_path, where, capsys):
    out = tmp_path / where
    assert fair_check.main(["--turns", "1", *FEW, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    reason = "No such file or directory" if where != "." else "Is a directory"
    assert err == f"error: cannot use --out {out}: {reason}\n"


def test_ctrl_c_prints_the_turns_done_and_exits_130(tmp_path, every_third_seed_lost, monkeypatch, capsys):
    real, judged = fair_check.check, list[tuple]()

    def ctrl_c_on_the_second(*args, **kwargs):
        if judged:
            raise KeyboardInterrupt
        judged.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(fair_check, "check", ctrl_c_on_the_second)
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "3", *FEW, "--out", str(out)]) == 130
    kept = journal(out)[1:]
    assert [t["seed"] for t in kept] == [0]
    assert capsys.readouterr().out.splitlines()[-1].startswith(f"interrupted: {int(kept[0]['agree'])} of 1 verdicts agree, ")


def test_ctrl_c_in_the_perfect_analysis_stops_the_run_too(tmp_path, monkeypatch, capsys):
    """The perfect analysis turns Ctrl-C into an analysis cut short; the run stops there
    rather than go on to the next seed."""
    analysed = []

    def cut_short(line: Line, budget: Budget) -> SimpleNamespace:
        analysed.append(line)
        return SimpleNamespace(interrupted=True)

    monkeypatch.setattr(fair_check, "analyze", cut_short)
    out = tmp_path / "fair.jsonl"
    assert fair_check.main(["--turns", "1", *FEW, "--out", str(out)]) == 130
    assert len(analysed) == 1 and not analysed[0].end_state().won
    assert journal(out)[1:] == []
    none = "0 mistakes and 0 bad luck"
    said = f"interrupted: 0 of 0 verdicts agree, a mistake costing at least 8 points ({none} at 2 worlds; {none} at 6)\n"
    assert capsys.readouterr().out == said
