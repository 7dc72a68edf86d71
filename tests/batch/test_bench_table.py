"""``bench --suite table``: its JSON shape and that its numbers agree with each other (wins
within deals, each interval around its rate, differences and paired counts from the wins,
a game shared by two sections played once), the games being simulate's, Ctrl-C as in every
suite (the first ends the game under way, a second within 2 s stops with a partial report),
the pool giving the same games, and the usage errors.

Tiny runs: official 2-player deals 0-1, 1 or 2 worlds per decision."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.batch import table_bench
from tranquility.solver.batch.table_bench import SECTIONS, Arm, TableCase, TableGame, TableSettings, run_table_suite
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.search.lookahead import BELIEFS, Lookahead
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import wilson

from ..helpers import run

TINY = TableSettings(players=(2,), deals=2, samples=1, budgets=(1, 2), silent_deals=3)


def check_consistent(data: dict, settings: TableSettings) -> None:
    """Every section's numbers agree with each other and with the settings."""
    for name in SECTIONS:
        for comparison in data[name]:
            deals = comparison["deals"]
            base = comparison["arms"][0]
            assert deals <= (settings.silent_deals if name == "silent" else settings.deals) and base["deals"] == deals
            assert "difference_points" not in base
            for arm in comparison["arms"]:
                assert arm["deals"] == deals and 0 <= arm["won"] <= deals
                if not deals:  # every deal of the section had a game cut short
                    assert (arm["rate"], arm["ci95"], arm.get("difference_points")) == (None, [0.0, 1.0], None)
                    continue
                low, high = arm["ci95"]
                assert [low, high] == pytest.approx(list(wilson(arm["won"], deals)), abs=1e-4)
                assert low <= arm["rate"] <= high and arm["rate"] == pytest.approx(arm["won"] / deals, abs=1e-4)
                assert ("decisions" in arm) == (arm["samples"] is not None)  # thrifty times nothing
                if "decisions" in arm:
                    assert arm["decisions"] > 0 and 0 <= arm["cpu_s_median"] <= arm["cpu_s_p90"]
                if arm is not base:
                    assert arm["only_this"] - arm["only_baseline"] == arm["won"] - base["won"]
                    assert arm["only_this"] <= arm["won"] and arm["only_baseline"] <= base["won"]
                    assert arm["difference_points"] == pytest.approx(100 * (arm["won"] - base["won"]) / deals, abs=0.01)
                    low, high = arm["difference_interval"]
                    assert -100 <= low < high <= 100  # never of no width, even when no deal tells them apart


@pytest.mark.slow
def test_the_table_suite_through_the_command(tmp_path):
    out = tmp_path / "table.json"
    tiny = ["--players", "2", "--deals", "2", "--samples", "1", "--budgets", "1,2", "--silent-deals", "3"]
    done = run("bench", "--suite", "table", *tiny, "--json", "--out", out)
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert set(data) == {"suite", "interrupted", "machine", "settings", *SECTIONS, "decisions", "rollouts", "games"} | {
        "silent_game_cpu_s_median"
    }
    assert set(data["silent_game_cpu_s_median"]) == {"thrifty", "tuned"}
    assert (data["suite"], data["interrupted"]) == ("table", False)
    assert data["settings"] == {
        "rules": "official",
        "rate_players": [2],
        "compare_players": [2],
        "deals": 2,
        "samples": 1,
        "budgets": [1, 2],
        "budget_deals": 2,
        "workers": 1,
        "silent_deals": 3,
        "sections": list(SECTIONS),
    }
    check_consistent(data, TINY)
    names = {name: [[a["policy"] for a in c["arms"]] for c in data[name]] for name in SECTIONS}
    assert names == {
        "silent": [["thrifty", "tuned"]],
        "rates": [["tuned", "lookahead:1"]],
        "budgets": [["tuned", "lookahead:1", "lookahead:2"]],
        "modes": [["lookahead:1", "lookahead:1, seat 0 only"]],
        "beliefs": [["lookahead:1", *(f"lookahead:1, belief {b}" for b in BELIEFS[1:])]],
    }
    # lookahead:1 at every seat is one set of games, whichever section shows it.
    shared = [c["arms"][i] for name, i in (("rates", 1), ("budgets", 1), ("modes", 0), ("beliefs", 0)) for c in data[name]]
    assert all(
        {k: v for k, v in a.items() if k.startswith(("won", "cpu", "decisions"))}
        == {k: v for k, v in shared[0].items() if k.startswith(("won", "cpu", "decisions"))}
        for a in shared
    )
    # Each game once: thrifty and tuned on 3 deals; lookahead:1, lookahead:2, seat 0 only and
    # each other belief on 2 (tuned's first 2 are the silent section's).
    assert data["games"] == {"played": 2 * 3 + 2 * (3 + len(BELIEFS) - 1), "interrupted": 0, "lines_ok": True}
    assert data["decisions"]["count"] == data["rates"][0]["arms"][1]["decisions"]
    assert data["decisions"]["cpu_s_median"] == data["rates"][0]["arms"][1]["cpu_s_median"]
    rollouts = data["rollouts"]
    assert rollouts["playouts"] == table_bench.ROLLOUT_SEEDS * table_bench.ROLLOUT_REPEATS and rollouts["per_second"] > 0
    # The games are simulate's: the silent policies' wins, and lookahead's (seed = the deal's seed).
    thrifty, tuned = data["silent"][0]["arms"]
    assert thrifty["won"] == sum(simulate(deal(OFFICIAL, 2, s), "thrifty", s).won for s in range(3))
    assert tuned["won"] == sum(simulate(deal(OFFICIAL, 2, s), "tuned", s).won for s in range(3))
    ahead = data["rates"][0]["arms"][1]
    cases = json.loads(out.read_text())["cases"]
    assert len(cases) == data["games"]["played"] and all(c["checked"] for c in cases)
    won = [c["won"] for c in cases if c["policy"] == "lookahead:1"]
    assert sum(won) == ahead["won"]
    assert won[0] == simulate(deal(OFFICIAL, 2, 0), Lookahead(0, 1), 0).won


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def test_ctrl_c_ends_the_game_under_way_and_a_second_within_2_s_stops(monkeypatch):
    """Games take 1.5 s on the clock; Ctrl-C cuts games 1 and 4 (4.5 s apart: each is left
    out and the run goes on), then 7 and 8 (1.5 s apart: the run stops)."""
    import tranquility.solver.batch.bench as bench

    clock, played, cut = _Clock(), [], {1, 4, 7, 8}
    monkeypatch.setattr(bench, "time", clock)

    def play_case(case: TableCase) -> TableGame:
        clock.now += 1.5
        played.append(case)
        if len(played) - 1 in cut:
            raise KeyboardInterrupt
        return TableGame(case, won=case.seed % 2 == 0, decisions=(0.1,) if case.arm.samples else ())

    monkeypatch.setattr(table_bench, "play_case", play_case)
    settings = TableSettings(players=(2,), deals=10, samples=2, budgets=(2,), silent_deals=10)
    report = run_table_suite(settings)
    assert report.interrupted and len(played) == 9 and report.rollouts is None
    assert [g.interrupted for g in report.games].count(True) == 4
    data = report.to_json()
    assert data["interrupted"] is True and data["games"] == {"played": 5, "interrupted": 4, "lines_ok": True}
    # Cases run deal by deal, tuned then lookahead: of deals 0-3, only deal 1 is whole.
    (rates,) = data["rates"]
    assert rates["deals"] == 1 and [a["won"] for a in rates["arms"]] == [0, 0]
    check_consistent(data, settings)


def test_stopped_by_ctrl_c_the_command_prints_the_partial_report_and_exits_130(monkeypatch):
    import tranquility.solver.batch.bench as bench

    clock, played = _Clock(), []
    monkeypatch.setattr(bench, "time", clock)

    def play_case(case: TableCase) -> TableGame:
        played.append(case)
        if len(played) > 2:
            raise KeyboardInterrupt
        return TableGame(case, won=True)

    monkeypatch.setattr(table_bench, "play_case", play_case)
    result = CliRunner().invoke(main, ["bench", "--suite", "table", "--players", "2", "--deals", "3", "--json"])
    assert result.exit_code == 130, result.output
    report = json.loads(result.stdout)
    assert report["interrupted"] is True and report["games"]["played"] == 2 and report["rates"][0]["deals"] == 1
    assert "Interrupted: the report covers the cases done so far." in result.stderr


@pytest.mark.slow
def test_a_pool_plays_the_same_games_and_ctrl_c_in_it_ends_only_the_games_under_way(monkeypatch):
    settings = TableSettings(players=(2,), deals=2, samples=1, budgets=(1,), silent_deals=2)
    alone = run_table_suite(settings)
    pooled = run_table_suite(TableSettings(players=(2,), deals=2, samples=1, budgets=(1,), workers=2, silent_deals=2))

    def untimed(report) -> list:
        arms = [a for c in report.comparisons for a in c.to_json()["arms"]]
        return [{k: v for k, v in a.items() if not k.startswith("cpu")} for a in arms]

    assert untimed(pooled) == untimed(alone)
    assert {g.case: g.won for g in pooled.games} == {g.case: g.won for g in alone.games}
    # A Ctrl-C while the pool plays: the games under way are cut short, a new pool plays the rest.
    real, calls = table_bench.cf.wait, []

    def wait(futures, timeout=None, return_when=table_bench.cf.ALL_COMPLETED):
        if return_when == table_bench.cf.FIRST_COMPLETED:  # waiting for games, not for a pool to start
            calls.append(1)
            if len(calls) == 1:
                raise KeyboardInterrupt
        return real(futures, timeout, return_when)

    monkeypatch.setattr(table_bench.cf, "wait", wait)
    cut = run_table_suite(TableSettings(players=(2,), deals=2, samples=1, budgets=(1,), workers=2, silent_deals=2))
    assert not cut.interrupted
    lost = [g for g in cut.games if g.interrupted]
    assert 1 <= len(lost) <= 2 and len(cut.games) == len(alone.games)
    assert all(g.won == next(a.won for a in alone.games if a.case == g.case) for g in cut.games if not g.interrupted)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--suite", "official", "--samples", "2"], "--samples is only taken by --suite table"),
        (["--suite", "official", "--budgets", "1,2"], "--budgets is only taken by --suite table"),
        (["--suite", "puzzles", "--budget-deals", "2"], "--budget-deals is only taken by --suite table"),
        (["--suite", "table", "--time-limit", "5"], "--time-limit is not taken by --suite table"),
        (["--suite", "table", "--reproducible"], "--reproducible is not taken by --suite table"),
        (["--suite", "table", "--budgets", "12,0"], "not a list of positive whole numbers"),
        (["--suite", "table", "--budgets", "many"], "not a list of positive whole numbers"),
        (["--suite", "table", "--samples", "0"], "--samples"),
        (["--suite", "table", "--json", "--markdown"], "do not mix"),
        (["--suite", "table", "--sections", "rates,bogus"], "'bogus': sections are silent, rates, budgets, modes, beliefs"),
        (["--suite", "official", "--silent-deals", "5"], "--silent-deals is only taken by --suite table"),
        (["--suite", "official", "--sections", "silent"], "--sections is only taken by --suite table"),
    ],
)
def test_table_options_that_cannot_be_used_exit_2(args, message):
    done = run("bench", *args)
    assert done.exit_code == 2, done.output
    assert message in done.output


def test_the_sections_share_their_games():
    cases = TINY.cases()
    # tuned, lookahead:1, lookahead:2, seat 0 only and each other belief on 2 deals; then the
    # silent section's thrifty on 3 and tuned on the one deal the others do not play.
    assert len(cases) == len(set(cases)) == 2 * (4 + len(BELIEFS) - 1) + 3 + 1
    assert TableCase(Arm.lookahead(2), 2, 0) in cases and TableCase(Arm(), 2, 1) in cases
    # The budgets play min(--deals, --budget-deals) deals; the rest play --deals.
    wide = TableSettings(players=(2, 4), deals=5, samples=2, budgets=(3,), budget_deals=2)
    budget = {c.seed for c in wide.cases() if c.arm == Arm.lookahead(3)}
    assert budget == {0, 1}
    defaults = TableSettings()
    assert [s.players for s in defaults.sections() if s.name == "rates"] == [1, 2, 3, 4, 5]
    assert [s.players for s in defaults.sections() if s.name == "silent"] == [1, 2, 3, 4, 5]
    assert {s.players for s in defaults.sections() if s.name not in ("rates", "silent")} == {2, 4}
    assert [s.name for s in replace(defaults, chosen=("silent",)).sections()] == ["silent"] * 5
