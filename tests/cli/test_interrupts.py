"""Ctrl-C at any moment ends with an outcome of the exit-code table, never an abort, a
traceback or a hang (docs/cli.md, "Ctrl-C").

The stress test runs the program as a user does, in processes of their own, on a CPU kept
busy, and sends SIGINT to each one's process group (as a terminal does) at a seeded random
moment from 50 ms after spawn: start-up, option parsing, every phase of the work and the
exit are all hit.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main

from ..helpers import default_ctrl_c

INTERRUPTS = 56
SEED = 20261202
PARALLEL = 3  # processes at once, beside one busy loop: the 2-core machine is overloaded on purpose
EARLIEST, LATEST = 0.05, 2.0  # seconds after spawn
HANG = 30.0  # seconds a process may take to end after its Ctrl-C
READY = 10.0  # seconds the interpreter may take to reach the entry module
ENTRY = "tranquility.cli.entry"

# What must never be on stderr: a Python traceback, a C++ abort, click's own "Aborted!"
# (exit 1, not the table's 130), a bug report.
FORBIDDEN = ("Traceback", "terminate called", "Aborted!", "internal error", "Exception ignored")
ALLOWED = {0, 1, 130}  # done, the answer is no (a solve, a grade, a generate that found too few), interrupted


def program() -> list[str]:
    """The installed ``tranquility`` beside this interpreter, else the same entry by -m."""
    script = shutil.which("tranquility", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "tranquility.cli"]


def commands(tmp: Path) -> dict[str, list[str]]:
    line = tmp / "line.json"
    result = CliRunner().invoke(main, ["simulate", "--seed", "1", "--players", "3", "--policy", "greedy", "--out", str(line)])
    assert result.exit_code in (0, 1), result.output
    grid = ["--seed", "3", "--players", "2", "--rule", "order=grid", "--time-limit", "5"]
    return {
        "solve auto": ["solve", *grid],
        "solve search": ["solve", *grid, "--method", "search", "--json"],
        "solve cpsat": ["solve", *grid, "--method", "cpsat", "--json"],
        "solve spare": ["solve", "--seed", "1", "--players", "3", "--objective", "spare", "--time-limit", "5"],
        "explain": ["explain", "--seed", "1", "--players", "3", "--time-limit", "5", "--json"],
        "analyze": ["analyze", str(line), "--time-limit", "2"],
        "bench": ["bench", "--suite", "official", "--deals", "1", "--time-limit", "1", "--json"],
        "odds": ["odds", "--players", "2", "--deals", "3", "--time-limit", "1", "--jobs", "1", "--db", "{tmp}/odds.db"],
        "generate": ["generate", "--players", "2", "--grade", "2", "--count", "2", "--out", "{tmp}/puzzles"],
        "grade": ["grade", "--seed", "5", "--players", "2"],
    }


def interrupt(argv: list[str], delay: float, folder: Path) -> tuple[int, str]:
    """Run the program in ``folder``, send Ctrl-C ``delay`` seconds after spawn, and return
    its exit code and stderr.

    The moment is never before the entry module has run (its import reported by
    PYTHONPROFILEIMPORTTIME): before that it is the interpreter starting, not the program,
    and on a busy machine that takes longer than the 50 ms the earliest moment allows."""
    folder.mkdir()
    argv = [a.replace("{tmp}", str(folder)) for a in argv]
    child = subprocess.Popen(
        [*program(), *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=folder,
        start_new_session=True,
        env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"},
    )
    spawned = time.monotonic()
    ready, said = threading.Event(), []

    def read() -> None:
        assert child.stderr is not None
        for raw in child.stderr:
            text = raw.decode(errors="replace")
            if text.startswith("import time:"):
                ready.set() if text.rstrip().endswith(ENTRY) else None
            else:
                said.append(text)

    reader = threading.Thread(target=read)
    reader.start()
    ready.wait(READY)
    time.sleep(max(0.0, spawned + delay - time.monotonic()))
    with contextlib.suppress(ProcessLookupError):  # it had ended already
        os.killpg(child.pid, signal.SIGINT)
    try:
        child.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
        said.append(f"\n(still running {HANG:.0f} s after Ctrl-C)")
    reader.join()
    return child.returncode, "".join(said)


def stored_intact(folder: Path) -> str | None:
    """What a batch stored stays stored: the odds database is sound, every puzzle file whole."""
    db = folder / "odds.db"
    if db.exists():
        with sqlite3.connect(db) as connection:
            check = connection.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            return f"{db}: {check}"
    for path in sorted((folder / "puzzles").glob("*.json")):
        text = path.read_text()
        if not text.rstrip().endswith("}"):
            return f"{path}: cut short"
    return None


@pytest.mark.slow
def test_ctrl_c_at_random_moments_ends_with_a_documented_outcome(tmp_path: Path):
    rng = random.Random(SEED)
    known = commands(tmp_path)
    names = sorted(known)
    plan = [(names[i % len(names)], rng.uniform(EARLIEST, LATEST)) for i in range(INTERRUPTS)]
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        with ThreadPoolExecutor(PARALLEL) as pool:
            outcomes = list(
                pool.map(lambda item: interrupt(known[item[1][0]], item[1][1], tmp_path / f"run{item[0]}"), enumerate(plan))
            )
    finally:
        busy.kill()
        busy.wait()
    failures = []
    codes: dict[int, int] = {}
    for i, ((name, delay), (code, err)) in enumerate(zip(plan, outcomes, strict=True)):
        codes[code] = codes.get(code, 0) + 1
        said = next((word for word in FORBIDDEN if word in err), None)
        intact = stored_intact(tmp_path / f"run{i}")
        if code not in ALLOWED or said or intact:
            failures.append(f"{name} at {delay:.2f} s: exit {code}; {intact or ''}\n{err[-600:]}")
    print(f"{INTERRUPTS} interrupts, exit codes seen: {dict(sorted(codes.items()))}")
    assert not failures, "\n---\n".join(failures)


# -- each defect on its own ------------------------------------------------------------------


def test_a_cp_sat_solve_leaves_ctrl_c_to_python():
    """CP-SAT's own handler resets SIGINT to "kill the process" when a solve ends: after
    one, Ctrl-C killed the program silently (exit -2 here, no "Interrupted.")."""
    script = (
        "import os, signal, time\n"
        "from ortools.sat.python import cp_model\n"
        "from tranquility.solver.cpsat.run_model import CpsatLimits, new_solver\n"
        "m = cp_model.CpModel(); x = m.new_int_var(0, 9, 'x'); m.add(x > 3)\n"
        "assert new_solver(CpsatLimits(workers=2)).solve(m) == cp_model.OPTIMAL\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT); time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, preexec_fn=default_ctrl_c)
    assert (done.returncode, done.stdout) == (0, "interrupted\n"), done.stderr


@pytest.mark.slow
def test_ctrl_cs_in_a_row_never_end_the_wait_before_its_threads():
    """Before Python 3.13 a Ctrl-C landing inside Thread.join marks the thread as ended while
    it still runs: the wait returned under a running CP-SAT, and the process aborted at exit
    ("terminate called without an active exception")."""
    script = (
        "import os, signal, threading, time\n"
        "from tranquility.solver.cpsat.run_model import run_stoppable\n"
        "finished, sent = [], threading.Event()\n"
        # The tasks outlast the Ctrl-Cs, however slow the machine: every one lands in the wait.
        "def task():\n"
        "    sent.wait(); time.sleep(0.1); finished.append(True)\n"
        "def ctrl_c():\n"
        "    time.sleep(0.1)\n"  # the tasks are running
        "    for _ in range(300):\n"
        "        os.kill(os.getpid(), signal.SIGINT); time.sleep(0.001)\n"
        "    sent.set()\n"
        "threading.Thread(target=ctrl_c).start()\n"
        "print(run_stoppable([task, task], lambda: None), len(finished))\n"
    )
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, preexec_fn=default_ctrl_c
        )
        assert (done.returncode, done.stdout) == (0, "True 2\n"), done.stderr


def test_an_error_that_ctrl_c_caused_is_an_interrupt_not_a_bug(monkeypatch):
    """An extension module whose import Ctrl-C cut short raises ImportError from it: exit
    130, not "internal error (a bug)"."""
    import tranquility.cli.commands.games as cli

    def cut_short(*args, **kwargs):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ImportError("initialization failed") from None

    monkeypatch.setattr(cli, "render_deal", cut_short)
    result = CliRunner().invoke(main, ["deal", "--seed", "1", "--players", "4"])
    assert result.exit_code == 130, result.output
    assert "Interrupted." in result.output and "bug" not in result.output


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", "--seed", "1", "--players", "4"],
        ["deal", "--seed", "1", "--players", "4", "--json"],
        ["puzzles"],
        ["puzzles", "--json"],
    ],
)
def test_a_reader_gone_away_is_a_quiet_130_for_text_and_json(argv):
    child = subprocess.Popen([*program(), *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    child.stdout.close()  # the reader goes away before the first line
    _, err = child.communicate(timeout=60)
    assert (child.returncode, err) == (130, b"")


class _Clock:
    """``time`` for the bench module, with a monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 0.0
        self.perf_counter = time.perf_counter

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def bench_ctrl_c(monkeypatch):
    """Solves that Ctrl-C cuts short at the cases listed, each case 1.5 s on the clock."""
    from types import SimpleNamespace

    import tranquility.solver.batch.bench as bench
    from tranquility.solver.verdicts import DecidedBy, Verdict

    clock, solved, cut = _Clock(), [], {1, 4, 7, 8}
    monkeypatch.setattr(bench, "time", clock)

    def solve(game, budget):
        clock.now += 1.5
        solved.append(game)
        how = DecidedBy.INTERRUPTED if len(solved) - 1 in cut else DecidedBy.TIMEOUT
        return SimpleNamespace(verdict=Verdict.UNKNOWN, method=how, seconds=0.1, interrupted=how == DecidedBy.INTERRUPTED)

    monkeypatch.setattr(bench, "solve", solve)
    return solved


def test_bench_one_ctrl_c_ends_the_case_and_a_second_within_2_s_stops(bench_ctrl_c):
    from tranquility.solver.batch.bench import run

    report = run("official", 3, 1.0)
    # Cases 1 and 4 are 4.5 s apart: each ends its case and the run goes on; 8 comes 1.5 s after 7.
    assert len(report.outcomes) == 9 and report.interrupted
    assert [o.method for o in report.outcomes].count("interrupted") == 4
    assert report.to_json(cases=False)["interrupted"] is True


def test_bench_stopped_by_ctrl_c_prints_its_partial_report_and_exits_130(bench_ctrl_c):
    import json

    result = CliRunner().invoke(main, ["bench", "--suite", "official", "--deals", "3", "--json"])
    assert result.exit_code == 130
    report = json.loads(result.stdout)
    assert report["interrupted"] is True and sum(g["count"] for g in report["groups"]) == 9
    assert "Interrupted: the report covers the cases done so far." in result.stderr


# -- SIGTERM: Ctrl-C's outcome, then exit 143 ----------------------------------------------


@pytest.fixture
def told_to_stop(monkeypatch):
    """SIGTERM has come (``interrupts`` notes it so, then raises KeyboardInterrupt)."""
    from tranquility.solver import stop_signals

    monkeypatch.setattr(stop_signals, "_terminated", True)


def test_bench_stops_at_the_first_case_sigterm_cuts(bench_ctrl_c, told_to_stop):
    from tranquility.solver.batch.bench import run

    report = run("official", 3, 1.0)
    # Case 1 is the first cut short: one Ctrl-C would let the run go on, SIGTERM does not.
    assert len(report.outcomes) == 2 and report.interrupted


def test_bench_told_to_stop_prints_its_partial_report_and_exits_143(bench_ctrl_c, told_to_stop):
    import json

    result = CliRunner().invoke(main, ["bench", "--suite", "official", "--deals", "3", "--json"])
    assert result.exit_code == 143
    assert json.loads(result.stdout)["interrupted"] is True
    assert "the report covers the cases done so far" in result.stderr


def test_a_command_that_ends_after_sigterm_exits_143_with_its_answer(told_to_stop):
    result = CliRunner().invoke(main, ["deal", "--seed", "1", "--players", "2", "--json"])
    assert result.exit_code == 143
    assert result.stdout.startswith("{")


def test_sigterm_in_a_held_step_comes_after_it_and_before_ctrl_c():
    from tranquility.solver.stop_signals import held

    came: list[int] = []
    previous = {
        signum: signal.signal(signum, lambda signum, frame: came.append(signum)) for signum in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        with held():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)
            assert came == []
        assert came == [signal.SIGTERM]  # the stronger one; the Ctrl-C is spent with it
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def test_sigterm_before_the_command_starts_exits_143_at_once():
    script = (
        "import os, signal\n"
        "from tranquility.cli import interrupts\n"
        "interrupts.install()\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "print('not reached')\n"
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert (child.returncode, child.stdout, child.stderr) == (143, b"", b"Terminated.\n")


def test_ctrl_c_that_lands_where_python_would_drop_it_is_delivered_after():
    # A finalizer (or the import system's weak-reference callback) cannot pass an exception
    # on: a Ctrl-C handled there would be printed as "Exception ignored" and lost, and the
    # command would go on to exit 0. The handler sends it again, to land once that returns.
    script = """
import os, signal, time
from tranquility.cli import interrupts
interrupts.install()
interrupts.command_started()

class Finalized:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass

Finalized()
try:
    time.sleep(5)
    print("lost")
except KeyboardInterrupt:
    print("delivered")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "delivered" and "Exception ignored" not in done.stderr, (done.stdout, done.stderr)
