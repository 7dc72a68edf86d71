"""``odds --policy lookahead``: plays stored under ``lookahead:N`` (N its worlds per
decision), plays of two budgets never mixed in the store, the summary, the tables or the
plot, each decision's CPU seconds stored with its play, a run resumed without playing
or counting a game twice, the games spread one deal per task, and the usage errors.

Tiny runs: official 2-player deals 0-2, 1 or 2 worlds per decision (about a second a game)."""

from __future__ import annotations

import concurrent.futures as cf
import json
import sqlite3
import subprocess
import sys

import pytest
from tranquility.solver.batch.odds_runner import RunProgress, batch_size, check_odds, run_odds
from tranquility.solver.batch.odds_store import OddsStore, Scope
from tranquility.solver.batch.odds_summary import odds_markdown, summarise
from tranquility.solver.batch.plays import TimedLookahead, budget_of, is_searching, play, player, seat_of, stored_name
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.errors import BadInput
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import Lookahead
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import wilson

from ..helpers import run
from .test_odds import killed_mid_run

OFFICIAL = PRESETS["official"]
REPRODUCIBLE = Budget(reproducible=True, workers=1)
TRANQUILITY = [sys.executable, "-m", "tranquility.cli"]


class Recording(cf.ThreadPoolExecutor):
    """One thread; it notes the deals of every task it is given."""

    def __init__(self) -> None:
        super().__init__(1)
        self.sizes: list[int] = []

    def submit(self, fn, /, *args, **kwargs):
        self.sizes.append(len(args[1]))
        return super().submit(fn, *args, **kwargs)


def test_stored_names_carry_the_budget():
    assert stored_name("lookahead", 12) == "lookahead:12" and stored_name("thrifty") == "thrifty"
    assert budget_of("lookahead:12") == 12 and budget_of("thrifty") is None
    assert is_searching("lookahead:3") and not is_searching("thrifty")
    for bad in ("lookahead", "lookahead:0", "lookahead:x", "lookahead:012", "nobody", "thrifty:3"):
        with pytest.raises(BadInput):
            budget_of(bad)
    with pytest.raises(BadInput):
        stored_name("thrifty", 4)
    made = player("lookahead:3", 7)
    assert isinstance(made, TimedLookahead) and (made.seed, made.samples, made.seat) == (7, 3, None)


def test_a_lookahead_at_one_seat_is_stored_with_its_seat():
    assert stored_name("lookahead", 60, 1) == "lookahead:60@1"
    assert (budget_of("lookahead:60@1"), seat_of("lookahead:60@1"), seat_of("lookahead:60")) == (60, 1, None)
    made = player("lookahead:3@1", 7)
    assert isinstance(made, TimedLookahead) and (made.seed, made.samples, made.seat) == (7, 3, 1)
    for bad in ("lookahead:3@", "lookahead:3@x", "lookahead:3@01", "lookahead:3@-1", "open-hands:3@0", "tuned@0"):
        with pytest.raises(BadInput):
            budget_of(bad)
    with pytest.raises(BadInput, match="only lookahead searches at one seat"):
        stored_name("open-hands", 8, 0)


def test_a_run_at_one_seat_plays_that_seats_search_and_times_its_decisions_alone(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        run_odds(store, OFFICIAL, [2], range(1), REPRODUCIBLE, pool, policies=("lookahead:1@1",))
        assert store.conn.execute("SELECT policy FROM plays").fetchall() == [("lookahead:1@1",)]
        seats = store.conn.execute("SELECT DISTINCT seat FROM decisions WHERE policy = 'lookahead:1@1'").fetchall()
        won, turns = store.conn.execute("SELECT won, turns FROM plays").fetchone()
    assert seats == [(1,)]
    game = simulate(deal(OFFICIAL, 2, 0), Lookahead(0, 1, seat=1), 0)
    assert (bool(won), turns) == (game.won, game.turns)
    with pytest.raises(BadInput, match=r"a lookahead at seat 2 cannot play: a 2-player game has seats 0\.\.1"):
        check_odds(OFFICIAL, [3, 2], range(1), ("lookahead:1@2",))


def test_a_timed_play_is_lookaheads_own_line_with_every_decision_timed():
    game = deal(OFFICIAL, 2, 1)
    result, decisions = play(game, player("lookahead:1", 1), 1)
    assert result.line == simulate(game, Lookahead(1, 1), 1).line  # timing changes nothing
    # One decision a turn but the Start event's (played by the table, not decided)
    assert 0 < len(decisions) < result.turns and len({d.turn for d in decisions}) == len(decisions)
    assert all(d.cpu_seconds >= 0 for d in decisions)
    # One seat only: only its decisions are timed.
    _, mine = play(game, TimedLookahead(1, 1, 0), 1)
    assert mine and {d.seat for d in mine} == {0}
    assert play(game, player("thrifty", 1), 1)[1] == ()


@pytest.mark.slow
def test_budgets_are_stored_apart_and_shown_apart(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, Recording() as pool:
        steps: list[RunProgress] = []
        first = run_odds(
            store, OFFICIAL, [2], range(2), REPRODUCIBLE, pool, slots=2, policies=("lookahead:2",), on_batch=steps.append
        )
        assert pool.sizes == [1, 1]  # lookahead's games are shared out deal by deal
        assert steps[-1].plays == {"lookahead:2": (first.plays["lookahead:2"][0], 2)}
        second = run_odds(store, OFFICIAL, [2], range(2), REPRODUCIBLE, pool, policies=("lookahead:1", "thrifty"))
        assert second.done == 2
        plays = store.conn.execute("SELECT policy, COUNT(*) FROM plays GROUP BY policy ORDER BY policy").fetchall()
        assert plays == [("lookahead:1", 2), ("lookahead:2", 2), ("thrifty", 2)]
        timed = dict(store.conn.execute("SELECT policy, COUNT(*) FROM decisions GROUP BY policy").fetchall())
        stored = dict(store.conn.execute("SELECT policy, SUM(won) FROM plays GROUP BY policy").fetchall())
        assert set(timed) == {"lookahead:1", "lookahead:2"} and all(timed.values())
        summary = summarise(store)
    (group,) = summary.groups
    rates = {p.policy: p for p in group.policies}
    assert list(rates) == ["thrifty", "lookahead:1", "lookahead:2"]  # silent first, then by budget
    for name in ("lookahead:1", "lookahead:2"):
        rate = rates[name]
        assert rate.deals == 2 and rate.decisions == timed[name]
        assert rate.cpu_median is not None and rate.cpu_p90 is not None and 0 <= rate.cpu_median <= rate.cpu_p90
        assert rate.won == stored[name] and rate.ci95 == wilson(rate.won, 2)
        data = rate.to_json()
        assert data["decisions"] == timed[name] and data["cpu_s_median"] <= data["cpu_s_p90"]
    assert set(rates["thrifty"].to_json()) == {"won", "deals", "rate", "ci95"}  # a silent policy times nothing
    table = odds_markdown(summary)
    assert "| rules | players | perfect play | thrifty | lookahead:1 | lookahead:2 |" in table
    assert sum(line.startswith("| official | 2 | lookahead:") for line in table.splitlines()) == 2


def test_a_resumed_run_plays_only_what_is_missing(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        run_odds(store, OFFICIAL, [2], range(1), REPRODUCIBLE, pool, policies=("lookahead:1",))
        before = store.conn.execute("SELECT turn, cpu_seconds FROM decisions WHERE seed = 0 ORDER BY turn").fetchall()
        again = run_odds(store, OFFICIAL, [2], range(3), REPRODUCIBLE, pool, policies=("lookahead:1",))
        assert (again.total, again.done) == (2, 2)
        assert store.conn.execute("SELECT seed FROM plays ORDER BY seed").fetchall() == [(0,), (1,), (2,)]
        after = store.conn.execute("SELECT turn, cpu_seconds FROM decisions WHERE seed = 0 ORDER BY turn").fetchall()
        assert after == before  # the stored game was not played again
        assert run_odds(store, OFFICIAL, [2], range(3), REPRODUCIBLE, pool, policies=("lookahead:1",)).total == 0
        assert store.plays(Scope(OFFICIAL.digest(), (2,), range(3)))["lookahead:1"][1] == 3


def test_batches_are_one_deal_each_with_a_searching_policy():
    assert batch_size(100, 2, searching=True) == 1
    assert batch_size(100, 2) == 10


@pytest.mark.slow
def test_a_killed_lookahead_run_resumes_and_counts_each_game_once(tmp_path):
    args = ["--players", "2", "--deals", 3, "--reproducible", "--jobs", "1", "--policy", "lookahead", "--samples", 1, "--json"]
    killed = tmp_path / "killed.sqlite"
    before = killed_mid_run(args, killed, tmp_path, table="plays")
    assert 0 < before < 3, f"killed with {before} of 3 games stored: not mid-run"
    resumed = subprocess.run(
        [*TRANQUILITY, "odds", *map(str, args), "--db", str(killed)], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert resumed.returncode == 0, resumed.stderr
    with sqlite3.connect(killed) as conn:
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT seed) FROM plays").fetchone() == (3, 3)
        assert conn.execute("SELECT deals FROM runs ORDER BY id DESC LIMIT 1").fetchone() == (3 - before,)
        timed = conn.execute("SELECT COUNT(*), COUNT(DISTINCT seed || '/' || turn) FROM decisions").fetchone()
        assert timed[0] == timed[1] > 0
    rate = json.loads(resumed.stdout)["groups"][0]["policies"]["lookahead:1"]
    won = sum(simulate(deal(OFFICIAL, 2, s), Lookahead(s, 1), s).won for s in range(3))
    assert (rate["deals"], rate["won"], rate["decisions"]) == (3, won, timed[0])


def test_odds_policy_lookahead_through_the_command(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["odds", "--players", "2", "--deals", 2, "--reproducible", "--jobs", 1, "--policy", "lookahead", "--samples", 2]
    done = run(*args, "--policy", "thrifty", "--json")
    assert done.exit_code == 0, done.output
    rates = json.loads(done.stdout)["groups"][0]["policies"]
    assert list(rates) == ["thrifty", "lookahead:2"]
    assert rates["lookahead:2"]["decisions"] > 0 and rates["lookahead:2"]["deals"] == 2
    with OddsStore("odds.sqlite") as store:
        assert json.loads(store.conn.execute("SELECT args FROM runs").fetchone()[0])["policies"] == ["lookahead:2", "thrifty"]
    text = run("odds", "--report").stdout
    assert "lookahead:2" in text and "CPU seconds of each decision" in text
    # --policies keeps its meaning: the silent ones only.
    silent = json.loads(run("odds", "--players", "2", "--deals", 2, "--reproducible", "--jobs", 1, "--policies", "--json").stdout)
    assert "lookahead:2" in silent["groups"][0]["policies"]  # stored before, still in the run's deals
    with OddsStore("odds.sqlite") as store:
        assert store.conn.execute("SELECT COUNT(*) FROM plays WHERE policy LIKE 'lookahead%'").fetchone() == (2,)


@pytest.mark.slow
def test_the_plot_draws_each_budget_as_its_own_series():
    from tranquility.solver.batch.odds_plot import figure
    from tranquility.solver.batch.odds_summary import OddsGroup, OddsSummary, PolicyRate

    rates = (
        PolicyRate("thrifty", 10, 7),
        PolicyRate("lookahead:2", 10, 6, 400, 0.05, 0.1),
        PolicyRate("lookahead:12", 10, 8, 380, 0.3, 0.8),
    )
    groups = tuple(OddsGroup(OFFICIAL, OFFICIAL.digest(), p, 10, 0, 0, 0.01, 0.02, rates) for p in (2, 4))
    silent = figure(OddsSummary(groups)).axes[1]
    labels = [t.get_text() for t in silent.get_legend().get_texts()]
    assert labels == [f"official: {name} (n = 10 deals per point)" for name in ("thrifty", "lookahead:2", "lookahead:12")]


@pytest.mark.slow
def test_a_dask_cluster_plays_the_local_pools_lookahead_games(tmp_path):
    distributed = pytest.importorskip("distributed")
    games = "SELECT seed, won, turns, cells_filled FROM plays ORDER BY seed"
    timed = "SELECT seed, turn, seat FROM decisions ORDER BY seed, turn"
    with OddsStore(tmp_path / "local.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        run_odds(store, OFFICIAL, [2], range(2), REPRODUCIBLE, pool, policies=("lookahead:1",))
        local = store.conn.execute(games).fetchall(), store.conn.execute(timed).fetchall()
    cluster = distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client, OddsStore(tmp_path / "dask.sqlite") as store:
        run_odds(
            store, OFFICIAL, [2], range(2), REPRODUCIBLE, client.get_executor(pure=False), slots=2, policies=("lookahead:1",)
        )
        assert (store.conn.execute(games).fetchall(), store.conn.execute(timed).fetchall()) == local
