"""``tranquility odds`` and ``tranquility.solver.batch``: the Wilson interval against the
textbook formula, the store (one row per deal, unknowns replaced only by decided verdicts,
missing policy rows added), a run killed with SIGKILL and started again (every deal once,
the same summary as an uninterrupted run), a Dask cluster giving the local pool's verdicts,
two runs on one database at once, the plot read back as PNG and SVG, and the options.

Small and reproducible throughout: official 4-player deals are decided by greedy playouts
in a few hundredths of a second each, and --reproducible makes every verdict the same."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import multiprocessing
import os
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import pytest
from tranquility.solver.batch.odds_plot import plot
from tranquility.solver.batch.odds_runner import RunProgress, local_executor, run_odds, solve_batch
from tranquility.solver.batch.odds_store import Batch, OddsStore, Played, Scope, Solved
from tranquility.solver.batch.odds_summary import odds_interval, summarise
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.search.budget import Budget
from tranquility.solver.stats import Z95, Z95_ONE_SIDED, wilson
from tranquility.solver.version import __version__

from ..helpers import default_ctrl_c, run

OFFICIAL = PRESETS["official"]
REPRODUCIBLE = Budget(reproducible=True, workers=1)
TIMING = ("median_s", "p90_s")  # what differs between two runs of the same deals
TRANQUILITY = [sys.executable, "-m", "tranquility.cli"]


# The normal quantile of a two-sided 95% interval, worked out here apart from the library's.
TEXTBOOK_Z = statistics.NormalDist().inv_cdf(0.975)


def textbook_wilson(k: int, n: int, z: float = TEXTBOOK_Z) -> tuple[float, float]:
    """(p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)."""
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)


def without_timing(summary: dict) -> dict:
    groups = [{k: v for k, v in g.items() if k not in TIMING} for g in summary["groups"]]
    return {"groups": groups}


def odds_cli(*args, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*TRANQUILITY, "odds", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)


# -- the interval ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "k, n, known",
    [(0, 10, (0.0, 0.2775)), (10, 10, (0.7225, 1.0)), (5, 10, (0.2366, 0.7634)), (50, 100, (0.4038, 0.5962))],
)
def test_wilson_matches_the_textbook(k, n, known):
    low, high = wilson(k, n)
    assert (low, high) == pytest.approx(textbook_wilson(k, n), abs=1e-12)
    assert (low, high) == pytest.approx(known, abs=5e-5)


def test_the_quantiles_are_the_normal_ones():
    """One z for every 95% interval, and one for the lookahead's one-sided bound."""
    assert abs(Z95 - TEXTBOOK_Z) < 1e-15 and Z95 != 1.96
    assert abs(Z95_ONE_SIDED - statistics.NormalDist().inv_cdf(0.95)) < 1e-15


def test_wilson_ends_and_empty():
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_unknowns_count_as_losses_low_and_as_wins_high():
    # 3 wins, 2 unknowns, 5 no-wins of 10: low as if 3 of 10 won, high as if 5 of 10 did.
    low, high = odds_interval(3, 2, 10)
    assert low == pytest.approx(textbook_wilson(3, 10)[0])
    assert high == pytest.approx(textbook_wilson(5, 10)[1])
    assert odds_interval(3, 0, 10) == wilson(3, 10)
    # Every deal unknown: nothing is known, the interval spans 0 to 1.
    assert odds_interval(0, 10, 10) == (0.0, 1.0)
    # Unknowns only widen it, at both ends, against their counting as decided either way.
    assert odds_interval(3, 2, 10)[0] == wilson(3, 10)[0] < wilson(5, 10)[0]
    assert odds_interval(3, 2, 10)[1] == wilson(5, 10)[1] > wilson(3, 10)[1]


# -- the store --------------------------------------------------------------------------------


def test_store_keeps_one_row_per_deal_and_replaces_only_unknowns(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store:
        digest = store.add_rules(OFFICIAL)
        assert digest == OFFICIAL.digest()

        def row(verdict: str, method: str = "greedy") -> Batch:
            return Batch(solved=(Solved(4, 7, verdict, method, 0.5, None, __version__),))

        store.write(digest, REPRODUCIBLE, row("unknown", "timeout"))
        assert [w.seed for w in store.missing(digest, [4], range(7, 8))] == []
        again = store.missing(digest, [4], range(7, 8), retry_unknown=True)
        assert [(w.seed, w.solve) for w in again] == [(7, True)]
        store.write(digest, REPRODUCIBLE, row("unknown", "timeout"))  # still unknown: kept as it was
        store.write(digest, Budget(seconds=600, workers=1), row("no-win", "cpsat"))  # decided: replaces it
        store.write(digest, REPRODUCIBLE, row("win"))  # a decided verdict never changes
        store.write(digest, REPRODUCIBLE, row("unknown"))
        rows = store.conn.execute("SELECT verdict, method, time_limit, budget FROM deals").fetchall()
        assert len(rows) == 1
        verdict, method, time_limit, budget = rows[0]
        assert (verdict, method, time_limit) == ("no-win", "cpsat", 600.0)
        assert json.loads(budget)["seconds"] == 600
        assert store.missing(digest, [4], range(7, 8), retry_unknown=True) == []
        assert store.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_policies_are_added_to_deals_already_stored(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        first = run_odds(store, OFFICIAL, [4], range(3), REPRODUCIBLE, pool)
        assert (first.total, first.done) == (3, 3)
        later = store.missing(OFFICIAL.digest(), [4], range(3), policies=("thrifty", "greedy"))
        assert [(w.seed, w.solve, w.policies) for w in later] == [(s, False, ("thrifty", "greedy")) for s in range(3)]
        second = run_odds(store, OFFICIAL, [4], range(3), REPRODUCIBLE, pool, policies=("thrifty", "greedy"))
        assert second.done == 3
        plays = store.conn.execute("SELECT seed, policy, sim_seed FROM plays ORDER BY seed, policy").fetchall()
        assert plays == [(s, p, s) for s in range(3) for p in ("greedy", "thrifty")]
        solved_by = store.conn.execute("SELECT DISTINCT run_id FROM deals").fetchall()
        assert solved_by == [(first.run_id,)]  # the second run solved nothing again
        assert run_odds(store, OFFICIAL, [4], range(3), REPRODUCIBLE, pool, policies=("thrifty",)).total == 0
        group = summarise(store).groups[0]
        assert {p.policy: p.deals for p in group.policies} == {"thrifty": 3, "greedy": 3}
        # The silent-table result is simulate's, with the deal's seed as the sim seed.
        from tranquility.solver.engine.deal import deal
        from tranquility.solver.search.policies import simulate

        won = sum(simulate(deal(OFFICIAL, 4, s), "greedy", s).won for s in range(3))
        assert next(p for p in group.policies if p.policy == "greedy").won == won


def test_solve_batch_rows_are_the_solver_verdicts():
    from tranquility.solver.analysis.portfolio import solve
    from tranquility.solver.batch.odds_store import Work, line_hash
    from tranquility.solver.engine.deal import deal

    batch = solve_batch(OFFICIAL.to_dict(), [Work(4, 1, True), Work(1, 0, False, ("cautious",))], REPRODUCIBLE)
    assert [(s.players, s.seed) for s in batch.solved] == [(4, 1)]
    result = solve(deal(OFFICIAL, 4, 1), REPRODUCIBLE)
    assert batch.solved[0].verdict == result.verdict
    if result.verdict == "win":
        assert batch.solved[0].line_hash == line_hash(result.winning_line)
    assert [(p.players, p.seed, p.policy) for p in batch.played] == [(1, 0, "cautious")]


def test_batches_that_finish_together_are_stored_together(tmp_path):
    """A commit waits for the disk: batches finished within COMMIT_SECONDS of each other go
    in one transaction, and the progress hears each commit, the run's counters exact."""
    steps: list[RunProgress] = []
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        report = run_odds(store, OFFICIAL, [4], range(12), REPRODUCIBLE, pool, batch=1, on_batch=steps.append)
        assert store.conn.execute("SELECT deals FROM runs").fetchone() == (12,)
    done = [step.done for step in steps]
    assert report.done == 12 and done[-1] == 12
    assert done == sorted(set(done)) and len(done) < 12  # twelve quick batches, a few commits


def test_two_runs_at_once_on_one_database(tmp_path):
    """Two runners, each with its own connection and workers, on the same file: every deal
    stored once, the database intact."""
    path = tmp_path / "odds.sqlite"
    reports = []

    def runner() -> None:
        with OddsStore(path) as store, cf.ThreadPoolExecutor(1) as pool:
            reports.append(run_odds(store, OFFICIAL, [4], range(12), REPRODUCIBLE, pool, batch=1))

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(reports) == 2 and not any(r.interrupted for r in reports)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT seed) FROM deals").fetchone() == (12, 12)


# -- resuming after SIGKILL -------------------------------------------------------------------


def stored_deals(path: Path, table: str = "deals") -> int:
    """The rows of ``table`` (the deals, or the plays) in the database at ``path``."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as conn:
            return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet
        return 0


def odds_process(args: list, cwd: Path, quiet: bool = False) -> subprocess.Popen[str]:
    """``tranquility odds ARGS`` started as a user's shell starts it, in a process group of
    its own with its pool (a terminal's Ctrl-C, or ``killpg``, reaches them all); its
    output captured as text, or thrown away (``quiet``)."""
    out = subprocess.DEVNULL if quiet else subprocess.PIPE
    # The installed script where there is one, as users run it: its workers import it again.
    script = shutil.which("tranquility", path=os.path.dirname(sys.executable))
    command = [*([script] if script else TRANQUILITY), "odds", *map(str, args)]
    return subprocess.Popen(
        command, cwd=cwd, stdout=out, stderr=out, text=True, start_new_session=True, preexec_fn=default_ctrl_c
    )


def killed_mid_run(args: list, db: Path, cwd: Path, table: str = "deals") -> int:
    """``tranquility odds ARGS --db DB`` killed with SIGKILL once ``table`` holds a row: the
    rows it holds then."""
    # The run and its pool are one process group, killed at once (a power cut).
    proc = odds_process([*args, "--db", db], cwd, quiet=True)
    try:
        give_up = time.monotonic() + 60
        while stored_deals(db, table) < 1 and proc.poll() is None and time.monotonic() < give_up:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    return stored_deals(db, table)


@pytest.mark.slow
def test_a_run_killed_with_sigkill_resumes_and_counts_each_deal_once(tmp_path):
    # Enough deals that the run is still going at its first commit (a second in: COMMIT_SECONDS).
    deals = 240
    args = ["--players", "4", "--deals", deals, "--reproducible", "--jobs", "1", "--batch", "1", "--json"]
    killed = tmp_path / "killed.sqlite"
    before = killed_mid_run(args, killed, tmp_path)
    assert 0 < before < deals, f"killed with {before} of {deals} deals stored: not mid-run"

    resumed = odds_cli(*args, "--db", killed, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    whole = odds_cli(*args, "--db", tmp_path / "whole.sqlite", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert without_timing(json.loads(resumed.stdout)) == without_timing(json.loads(whole.stdout))
    with sqlite3.connect(killed) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT COUNT(*), COUNT(DISTINCT seed), MIN(seed), MAX(seed) FROM deals").fetchone() == (
            deals, deals, 0, deals - 1
        )
        # The second run did only what the first had not stored.
        last = conn.execute("SELECT deals FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]
        assert last == deals - before
    with sqlite3.connect(killed) as a, sqlite3.connect(tmp_path / "whole.sqlite") as b:
        query = "SELECT players, seed, verdict, method, line_hash FROM deals ORDER BY players, seed"
        assert a.execute(query).fetchall() == b.execute(query).fetchall()
    report = odds_cli("--db", killed, "--report", "--json", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert without_timing(json.loads(report.stdout)) == without_timing(json.loads(whole.stdout))


@pytest.mark.slow
def test_ctrl_c_keeps_what_is_stored_and_prints_the_summary_so_far(tmp_path):
    db = tmp_path / "odds.sqlite"
    args = ["--players", "4", "--deals", 400, "--reproducible", "--jobs", 1, "--batch", 1, "--json", "--db", db]
    proc = odds_process(args, tmp_path)
    try:
        give_up = time.monotonic() + 60
        while stored_deals(db) < 2 and proc.poll() is None and time.monotonic() < give_up:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the run and its workers
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Interrupted" in err
    stored = stored_deals(db)
    assert 2 <= stored < 400
    summary = json.loads(out)
    assert summary["groups"][0]["deals"] == stored
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM deals WHERE method = 'interrupted'").fetchone() == (0,)


def group_running(pgid: int) -> list[int]:
    """The processes of group ``pgid`` still running (a zombie has ended: only unreaped)."""
    running = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it ended while we looked
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            running.append(int(stat.parent.name))
    return running


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_sigterm_stops_the_workers_mid_game_and_exits_143(tmp_path):
    # `kill PID` reaches the run alone, not its workers: before SIGTERM was answered, each
    # worker played its game to the end (seconds of lookahead, minutes of a long solve) as
    # an orphan after the run had gone.
    db = tmp_path / "odds.sqlite"
    args = ["--players", "2", "--deals", 40, "--reproducible", "--policy", "lookahead", "--jobs", 2, "--batch", 1, "--db", db]
    proc = odds_process(args, tmp_path)
    try:
        give_up = time.monotonic() + 60
        while len(group_running(proc.pid)) < 4 and proc.poll() is None and time.monotonic() < give_up:
            time.sleep(0.05)  # the run, the fork server and two workers
        time.sleep(2.0)  # the workers are in their first games (a lookahead game takes seconds)
        assert stored_deals(db, "plays") < 2
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        ended = time.monotonic() + 5
        while group_running(proc.pid) and time.monotonic() < ended:
            time.sleep(0.05)
        left = group_running(proc.pid)
    finally:
        if proc.poll() is None or group_running(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 143, err
    # One line, the run's own: a worker stopped by the pool says nothing.
    assert err == "Interrupted: what was stored is kept; the same command again finishes the rest.\n"
    assert left == [], f"still running after the run ended: {left}"
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT COUNT(*) FROM deals WHERE method = 'interrupted'").fetchone() == (0,)


def test_ctrl_c_while_the_pool_warms_up_stops_the_pool(monkeypatch):
    # A pool left to the garbage collector raced Python's exit over its wake-up pipe: an
    # "OSError: [Errno 9] Bad file descriptor" traceback after the exit code (8 runs in 40
    # on a loaded machine). Stopped at once, its thread and its workers are gone.
    def managers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if type(t).__name__ == "_ExecutorManagerThread" and t.is_alive()}

    before = managers()
    real = cf.wait

    def warmed_then_ctrl_c(futures, *args, **kwargs):
        real(futures, *args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr("tranquility.solver.batch.odds_runner.cf.wait", warmed_then_ctrl_c)
    workers = set(multiprocessing.active_children())
    with pytest.raises(KeyboardInterrupt):
        local_executor(2)
    assert managers() == before
    for child in set(multiprocessing.active_children()) - workers:
        child.join(5)
        assert not child.is_alive(), child


# -- Dask -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_dask_cluster_stores_the_local_pools_verdicts(tmp_path):
    distributed = pytest.importorskip("distributed")
    players, seeds = [1, 4], range(10)
    with OddsStore(tmp_path / "local.sqlite") as store, local_executor(2) as pool:
        local = run_odds(store, OFFICIAL, players, seeds, REPRODUCIBLE, pool, slots=2)
        local_verdicts = store.verdicts(local.scope)
    assert len(local_verdicts) == 20
    # Over TCP, so that the command line can reach it by its address (in one process, a
    # LocalCluster would otherwise listen in memory only).
    cluster = distributed.LocalCluster(
        processes=False, protocol="tcp://", n_workers=1, threads_per_worker=2, dashboard_address=None
    )
    with (
        cluster,
        distributed.Client(cluster) as client,
    ):
        with OddsStore(tmp_path / "dask.sqlite") as store:
            remote = run_odds(store, OFFICIAL, players, seeds, REPRODUCIBLE, client.get_executor(pure=False), slots=2)
            assert store.verdicts(remote.scope) == local_verdicts
        with sqlite3.connect(tmp_path / "local.sqlite") as a, sqlite3.connect(tmp_path / "dask.sqlite") as b:
            lines = "SELECT players, seed, method, line_hash FROM deals ORDER BY players, seed"
            assert a.execute(lines).fetchall() == b.execute(lines).fetchall()  # the same lines too
        # The command line's --scheduler: the same cluster by its address.
        ran = run("odds", "--players", 4, "--deals", 10, "--reproducible", "--scheduler", cluster.scheduler_address,
                  "--db", tmp_path / "cli.sqlite", "--json")
        assert ran.exit_code == 0, ran.output
    with OddsStore(tmp_path / "cli.sqlite") as store:
        four = {k: v for k, v in local_verdicts.items() if k[1] == 4}
        assert store.verdicts() == four
        assert store.conn.execute("SELECT executor FROM runs").fetchone()[0].startswith("dask ")


# -- the plot ---------------------------------------------------------------------------------------


@pytest.mark.slow
def test_plot_writes_a_png_and_an_svg(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        run_odds(store, OFFICIAL, [1, 4], range(3), REPRODUCIBLE, pool, policies=("thrifty",))
        run_odds(store, PRESETS["hungarian"], [4], range(2), REPRODUCIBLE, pool)
        summary = summarise(store)
    assert [(PRESETS["official"].digest() == g.rules_hash, g.players) for g in summary.groups] == [
        (True, 1), (True, 4), (False, 4)
    ]
    png, svg = tmp_path / "odds.png", tmp_path / "odds.svg"
    plot(summary, png)
    plot(summary, svg)
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 600)
    from matplotlib.image import imread

    assert imread(png).shape[:2] == (600, 1200)
    root = ET.parse(svg).getroot()
    assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
    from tranquility.solver.errors import BadInput

    with pytest.raises(BadInput):
        plot(summary, tmp_path / "odds.jpg")


def made_summary(policies: bool = True):
    """A summary without a store: official 1, 2 and 4 players (20 deals each, one unknown at
    1 player), thrifty and random beside them; the hungarian preset at 1 and 2 players."""
    from tranquility.solver.batch.odds_summary import OddsGroup, OddsSummary, PolicyRate

    official, hungarian = OFFICIAL, PRESETS["hungarian"]

    def played(thrifty: int, random: int) -> tuple:
        return PolicyRate("thrifty", 20, thrifty), PolicyRate("random", 20, random)

    groups = [
        OddsGroup(official, official.digest(), 1, 15, 4, 1, 0.01, 0.02, played(9, 0)),
        OddsGroup(official, official.digest(), 2, 20, 0, 0, 0.01, 0.02, played(13, 0)),
        OddsGroup(official, official.digest(), 4, 20, 0, 0, 0.01, 0.02, played(17, 1)),
        OddsGroup(hungarian, hungarian.digest(), 1, 4, 6, 0, 0.01, 0.02),
        OddsGroup(hungarian, hungarian.digest(), 2, 10, 0, 0, 0.01, 0.02),
    ]
    if not policies:
        groups = [replace(g, policies=()) for g in groups]
    return OddsSummary(tuple(groups))


@pytest.mark.slow
def test_the_plot_has_a_panel_per_family_points_on_their_ticks_and_the_deals_behind_each():
    from tranquility.solver.batch.odds_plot import DODGE, figure

    drawn = figure(made_summary())
    perfect, silent = drawn.axes[:2]
    assert (perfect.get_title(), silent.get_title()) == ("Perfect play", "Silent table (each policy plays each deal once)")
    assert [t.get_text() for t in perfect.get_legend().get_texts()] == [
        "official (n = 20 deals per point)", "hungarian (n = 10 deals per point)"
    ]
    assert [t.get_text() for t in silent.get_legend().get_texts()] == [
        "official: thrifty (n = 20 deals per point)", "official: random (n = 20 deals per point)"
    ]
    for axes in (perfect, silent):
        assert list(axes.get_xticks()) == [1, 2, 4] and "at most 0.12 off" in axes.get_xlabel()
        for container in axes.containers:
            xs = container.lines[0].get_xdata()
            assert all(abs(x - round(x)) <= DODGE + 1e-9 for x in xs), xs
            assert len({round(x) for x in xs}) == len(xs)  # one point per player count
    # The points at 90% and above (every 2- and 4-player perfect play) again, zoomed to
    # their intervals (the lowest end: hungarian's 10 wins of 10).
    (inset,) = perfect.child_axes
    low, high = inset.get_ylim()
    assert 0.65 < low < wilson(10, 10)[0] and 1 < high < 1.05
    assert sorted(len(c.lines[0].get_xdata()) for c in inset.containers) == [1, 2]
    # Without plays, the one panel; points that stand on different deals each say how many.
    alone = figure(made_summary(policies=False))
    assert len([a for a in alone.axes if a not in alone.axes[0].child_axes]) == 1
    uneven = made_summary(policies=False)
    uneven = replace(uneven, groups=(*uneven.groups[:-1], replace(uneven.groups[-1], win=20)))
    texts = [t.get_text() for t in figure(uneven).axes[0].texts]
    assert texts == ["n=10", "n=20"] and "hungarian (n at each point)" in [
        t.get_text() for t in figure(uneven).axes[0].get_legend().get_texts()
    ]


def test_every_table_rounds_a_share_and_its_interval_the_same_way():
    """One decimal, an interval's ends rounded outward, in the main table, the policies'
    table (on a wide or a narrow console) and their Markdown: a policy's 65.0% of 20 is
    "65.0% [43.3, 81.9]" everywhere, never "65% (43-82)"."""
    from io import StringIO

    from rich.console import Console
    from tranquility.cli.render.odds import render_odds
    from tranquility.solver.batch.odds_summary import odds_markdown, shown_percent

    summary = made_summary()
    thrifty = summary.groups[1].policies[0]
    assert (thrifty.policy, thrifty.won, thrifty.deals) == ("thrifty", 13, 20)
    said = shown_percent(thrifty.rate, thrifty.ci95)
    low, high = (f"{x:.1f}" for x in (math.floor(1000 * thrifty.ci95[0]) / 10, math.ceil(1000 * thrifty.ci95[1]) / 10))
    assert said == f"65.0% [{low}, {high}]"
    solo = summary.groups[0]
    perfect = shown_percent(solo.winnability, solo.ci95)
    assert perfect.startswith("75.0% [")
    for width in (80, 240):
        out = StringIO()
        render_odds(Console(file=out, width=width, no_color=True), summary)
        text = out.getvalue()
        rows = text.splitlines()
        if width == 240:  # a row per player count
            assert any(said in row and "│       2 │" in row for row in rows) and any(perfect in row for row in rows)
        else:  # a row per policy
            assert any(row.split()[-4:] == ["thrifty", "65.0%", f"[{low},", f"{high}]"] for row in rows), text
        assert re.search(r"\d%? \(\d+-\d+\)", text) is None
        assert perfect.split(" ", 1)[1] in text  # the main table's interval, the same
    assert f"| {said} |" in odds_markdown(summary)


# -- the command --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_odds_command_text_json_report_and_plot(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("odds", "--players", "3-4", "--deals", 4, "--reproducible", "--jobs", 1, "--policies", "--json",
               "--plot", "run.svg")
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert [(g["players"], g["deals"]) for g in data["groups"]] == [(3, 4), (4, 4)]
    group = data["groups"][1]
    assert group["win"] + group["no_win"] + group["unknown"] == 4
    assert group["rules"] == OFFICIAL.to_dict()
    assert group["winnability"] == pytest.approx(group["win"] / 4, abs=1e-4)
    assert group["ci95"] == pytest.approx(list(odds_interval(group["win"], group["unknown"], 4)), abs=1e-4)
    from tranquility.solver.search.policies import POLICIES

    assert list(group["policies"]) == list(POLICIES)
    assert all(p["deals"] == 4 for p in group["policies"].values())
    assert data["deals_per_s"] > 0
    assert Path("odds.sqlite").is_file()  # the default --db, in the current folder
    assert ET.parse("run.svg").getroot().tag.endswith("svg")
    # Again: every deal is stored, nothing to do, the same summary.
    again = run("odds", "--players", "3-4", "--deals", 4, "--reproducible", "--jobs", 1, "--policies", "--json")
    assert again.exit_code == 0
    assert without_timing(json.loads(again.stdout)) == without_timing(data)
    assert json.loads(again.stdout)["deals_per_s"] is None
    text = run("odds", "--report")
    assert text.exit_code == 0
    assert "official" in text.stdout and "thrifty" in text.stdout and "deals/s over the runs recorded" in text.stdout
    report = run("odds", "--db", "odds.sqlite", "--report", "--json", "--plot", "report.png")
    assert report.exit_code == 0
    assert without_timing(json.loads(report.stdout)) == without_timing(data)
    assert Path("report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_retry_unknown_replaces_a_stored_unknown(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with OddsStore("odds.sqlite") as store:
        digest = store.add_rules(OFFICIAL)
        store.write(digest, Budget(seconds=0.01, workers=1), Batch(solved=(Solved(4, 0, "unknown", "timeout", 0.01, None, "0"),)))
    args = ["odds", "--players", 4, "--deals", 2, "--reproducible", "--jobs", 1, "--json"]
    kept = json.loads(run(*args).stdout)["groups"][0]
    assert (kept["unknown"], kept["ci95"][1]) == (1, 1.0)
    retried = json.loads(run(*args, "--retry-unknown").stdout)["groups"][0]
    assert retried["unknown"] == 0 and retried["win"] + retried["no_win"] == 2
    with OddsStore("odds.sqlite") as store:
        assert store.conn.execute("SELECT time_limit FROM deals WHERE seed = 0").fetchone() == (None,)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--report", "--players", "4"], "--players is not taken with --report"),
        (["--report", "--reproducible"], "--reproducible is not taken with --report"),
        (["--players", "4", "--deals", "2", "--reproducible", "--time-limit", "5"], "--time-limit is not taken"),
        (["--players", "4"], "missing option --deals"),
        (["--deals", "4"], "missing option --players"),
        (["--players", "0-3", "--deals", "2"], "player counts run from 1 to 5"),
        (["--players", "four", "--deals", "2"], "is not a player count"),
        (["--players", "4", "--deals", "2", "--plot", "odds.jpg"], "PNG or SVG"),
        (["--players", "4", "--deals", "2", "--jobs", "2", "--scheduler", "tcp://127.0.0.1:1"], "--jobs sets the local"),
        (["--players", "4", "--deals", "2", "--start-seed", str(2**63 - 1)], "seeds of an odds run"),
        (["--report", "--db", "nowhere.sqlite"], "no such database"),
        (["--players", "2", "--deals", "2", "--samples", "2"], "--samples goes with --policy lookahead"),
        (["--players", "2", "--deals", "2", "--policy", "thrifty", "--samples", "2"], "--samples goes with --policy lookahead"),
        (["--players", "2", "--deals", "2", "--policy", "nobody"], "'nobody' is not one of"),
        (["--players", "2", "--deals", "2", "--policy", "lookahead", "--samples", "0"], "--samples"),
        (["--report", "--policy", "lookahead"], "--policy is not taken with --report"),
        (["--report", "--samples", "3"], "--samples is not taken with --report"),
        (["--players", "2", "--deals", "2", "--policy", "tuned", "--lookahead-seat", "0"], "--lookahead-seat goes with"),
        (
            ["--players", "3,2", "--deals", "2", "--policy", "lookahead", "--lookahead-seat", "2"],
            "a lookahead at seat 2 cannot play: a 2-player game has seats 0..1",
        ),
        (["--players", "2", "--deals", "2", "--policy", "lookahead", "--lookahead-seat", "-1"], "--lookahead-seat"),
        (["--report", "--lookahead-seat", "0"], "--lookahead-seat is not taken with --report"),
    ],
)
def test_odds_options_that_cannot_be_used_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    done = run("odds", *args)
    assert done.exit_code == 2, done.output
    assert message in done.output
    assert not Path("odds.sqlite").exists()  # nothing was created for a command that did not run


def test_the_scheduler_without_distributed_installed_is_one_line_naming_the_extra(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    done = run("odds", "--players", "4", "--deals", "2", "--scheduler", "tcp://127.0.0.1:1")
    assert done.exit_code == 2, done.output
    assert done.output.strip().splitlines()[-1].endswith("pip install 'tranquility-solver[cluster]'")
    assert "Traceback" not in done.output
    assert not Path("odds.sqlite").exists()


def test_a_file_that_is_not_an_odds_database_exits_2_untouched(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("odds.sqlite").write_text("not a database\n" * 100)
    done = run("odds", "--report")
    assert done.exit_code == 2 and "not an odds database" in done.output
    with sqlite3.connect("other.sqlite") as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    for args in (["--report"], ["--players", "4", "--deals", "1", "--reproducible", "--jobs", "1"]):
        done = run("odds", *args, "--db", "other.sqlite")
        assert done.exit_code == 2 and "not an odds database (it holds other tables: notes)" in done.output
    with sqlite3.connect("other.sqlite") as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("notes",)]


def test_odds_help_stays_light():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import tranquility.cli.main as m\n"
        "for args in (['--help'], ['odds', '--help']):\n"
        "    assert CliRunner().invoke(m.main, args).exit_code == 0\n"
        "heavy = ('dask', 'distributed', 'matplotlib', 'sqlite3', 'tranquility.solver.batch.odds_store',"
        " 'tranquility.solver.batch.odds_runner')\n"
        "heavy = [n for n in heavy if n in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_scope_counts_only_the_runs_deals(tmp_path):
    with OddsStore(tmp_path / "odds.sqlite") as store, cf.ThreadPoolExecutor(1) as pool:
        run_odds(store, OFFICIAL, [4], range(4), REPRODUCIBLE, pool)
        scope = Scope(OFFICIAL.digest(), (4,), range(1, 3))
        assert sum(store.counts(scope).values()) == 2
        assert [g.deals for g in summarise(store, scope).groups] == [2]
        assert [g.deals for g in summarise(store).groups] == [4]


def test_two_runs_opening_one_new_database_at_once_both_get_it(tmp_path):
    from tranquility.solver.errors import BadInput

    # Switching a new file to WAL makes SQLite answer "locked" at once to the other side;
    # the store waits and starts again (measured before: 69 of 150 such races failed).
    for attempt in range(30):
        path = tmp_path / f"new{attempt}.sqlite"
        failed: list[BadInput] = []

        def open_it(path=path, failed=failed) -> None:
            try:
                OddsStore(path).close()
            except BadInput as exc:
                failed.append(exc)

        threads = [threading.Thread(target=open_it) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failed, failed


def test_the_report_never_rounds_an_interval_to_a_certainty(tmp_path, monkeypatch):
    # 2,000 wins of 2,000: the Wilson low end is 99.81%; the table must not print [100.0, 100.0].
    monkeypatch.chdir(tmp_path)
    with OddsStore("odds.sqlite") as store:
        digest = store.add_rules(OFFICIAL)
        wins = tuple(Solved(4, seed, "win", "greedy", 0.01, "0" * 64, "0") for seed in range(2000))
        store.write(digest, Budget(seconds=1, workers=1), Batch(solved=wins))
    text = run("odds", "--report", "--json")
    assert json.loads(text.stdout)["groups"][0]["ci95"] == pytest.approx(list(wilson(2000, 2000)), abs=1e-4)
    shown = run("odds", "--report").stdout
    low = wilson(2000, 2000)[0]
    assert f"[{math.floor(1000 * low) / 10:.1f}, 100.0]" in shown and "[100.0, 100.0]" not in shown
    assert "100.0%" in shown  # every deal won: the share itself is exact
    markdown = run("odds", "--report", "--markdown").stdout
    assert f"| official | 4 | 2,000 | 2,000 | 0 | 0 | 100.0% | [{math.floor(1000 * low) / 10:.1f}, 100.0] |" in markdown


def test_the_markdown_report_gives_each_rule_set_and_its_policies(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with OddsStore("odds.sqlite") as store:
        for rules, won in ((OFFICIAL, 3), (OFFICIAL.with_options({"finish": 1}), 1)):
            digest = store.add_rules(rules)
            solved = tuple(Solved(2, s, "win" if s < won else "no-win", "greedy", 0.5, None, "0") for s in range(4))
            played = tuple(Played(2, s, "thrifty", s == 0, 38, 36, 0.1, "0") for s in range(4)) if won == 3 else ()
            store.write(digest, Budget(seconds=1, workers=1), Batch(solved=solved, played=played))
    shown = run("odds", "--report", "--markdown")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert "| official | 2 | 4 | 3 | 1 | 0 | 75.0% |" in shown.stdout
    assert "| official + finish=1 | 2 | 4 | 1 | 3 | 0 | 25.0% |" in shown.stdout
    assert lines[lines.index("| rules | players | perfect play | thrifty |") + 2].startswith("| official | 2 | 75.0% | 25.0% [")
    assert sum(line.startswith("| official + finish=1") for line in lines) == 1  # no policy row without policies
    clash = run("odds", "--report", "--markdown", "--json")
    assert clash.exit_code == 2 and "do not mix" in clash.output
