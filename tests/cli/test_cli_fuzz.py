"""Whatever the options, the command line answers with the exit-code table, never a bug.

A property test over each command's option space: random combinations of its options with
values of every kind (valid, wrong types, extremes, NaN, infinity, empty strings, missing
and unwritable paths). A combination may be refused (exit 2, one line) or run; it must
never end in exit 3 or a traceback. It runs in process (click's CliRunner), derandomized so
CI sees the same cases every run. Work is kept short: every time limit is at most 1 s (the
option is always given), seed counts are small, paths are only under a temporary folder and
addresses only on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tranquility.cli.main import main
from tranquility.solver.search.policies import POLICIES

# Each option's values: (valid, odd). An example takes a valid value but once in
# ODD_ONE_IN, so most combinations get past the parsing to the work, and the odd ones reach
# every check.
SECONDS = (["0.05", "0.2", "1"], ["0", "-1", "nan", "NaN", "inf", "-inf", "1e400", "", "x"])
SHORT = (["0.01", "0.05"], SECONDS[1])  # per position (analyze): a line has about forty
FEW = (["1", "2"], ["0", "-1", "x", "", "nan", "1e3"])  # counts of work: never more than a few deals or seeds
SEEDS = (["0", "1", "7", "18446744073709551615"], ["-1", "x", "", "nan", "1e3", "18446744073709551616"])
PLAYERS = (["1", "2", "3", "4", "5"], ["0", "6", "-1", "x", "", "1.5"])
ODD_TEXT = ["", " ", "x", "tq1", "tq1 2 0 -", "\x00", "é", "--help"]

# Given every time, so that no example runs for long.
ALWAYS = {
    "time_limit": SECONDS,
    "critical_time": SECONDS,
    "hint_time": SECONDS,
    "deals": FEW,
    "max_seeds": FEW,
    "jobs": (["1"], ["0", "x"]),
}
BY_COMMAND = {
    ("analyze", "time_limit"): SHORT,
    ("explain", "time_limit"): (["0.2", "1"], SECONDS[1]),
    ("explain", "critical_time"): (["0.01", "0.05"], SECONDS[1]),
    ("odds", "players"): (["1", "2", "1-2"], ["5-1", "0-3", "x", "", "6"]),
    # lookahead takes seconds a game at its default budget (tests/search/test_lookahead.py runs it):
    # here its options meet the silent policies, which refuse them.
    ("simulate", "policy"): (list(POLICIES), ["", "nope"]),
    ("simulate", "samples"): (["1", "4"], ["0", "-1", "x", ""]),
    ("simulate", "lookahead_seat"): (["0", "1"], ["-1", "x", ""]),
    ("odds", "policy_names"): (list(POLICIES), ["", "nope"]),  # as simulate's: lookahead runs in its own tests
    ("odds", "samples"): (["1", "4"], ["0", "-1", "x", ""]),
    ("odds", "lookahead_seat"): (["0", "1"], ["-1", "x", ""]),
    # --suite table's and fair's own options, which the other suites refuse.
    ("bench", "samples"): (["1", "4"], ["0", "-1", "x", ""]),
    ("bench", "budgets"): (["1", "1,2"], ["0", "1,0", "x", "", "1,,2"]),
    ("bench", "budget_deals"): FEW,
    ("bench", "own_deals"): FEW,
    ("bench", "silent_deals"): FEW,
    ("bench", "sections"): (["silent", "rates,modes"], ["", "x", ",", "silent,x"]),
    # analyze --fair plays every move of a turn in each world: a few worlds and turns at most.
    ("analyze", "samples"): (["1", "2"], ["0", "-1", "x", ""]),
    ("analyze", "turns"): (["0", "1"], ["-1", "x", "", "1.5"]),
    ("play", "seat"): (["0", "1"], ["-1", "x", "", "5"]),
    ("play", "bot_delay"): (["0", "0.5"], ["-1", "nan", "inf", "1e400", "x", ""]),
    ("play", "hint_samples"): (["1", "4"], ["0", "-1", "x", ""]),
    ("serve", "queue"): (["0", "4"], ["-1", "1001", "x", ""]),
    # a fit of a generation or two of two or three candidates on a few deals: seconds.
    ("tune", "generations"): (["1", "2"], ["0", "-1", "x", ""]),
    ("tune", "population"): (["2", "3"], ["1", "0", "x", ""]),
    ("tune", "validation"): FEW,
    ("tune", "seed"): (["0", "7"], ["-1", "2147483647", "x", ""]),
    ("tune", "sigma"): (["0.3", "1"], ["0", "-1", "11", "nan", "x"]),
    ("tune", "start_players"): (["1", "2"], ["0", "6", "x"]),
    ("serve", "job_cap"): (["1", "2.5"], ["0", "3601", "x", ""]),
    ("serve", "keep_jobs"): (["0", "60"], ["-1", "86401", "x", ""]),
    ("serve", "allow_origins"): (["http://localhost:3000"], ["localhost:3000", "http://x/path", ""]),
}
# Given every time (analyze: so that --fair, when chosen, stays short; without it they are refused).
ALWAYS_IN = {("odds", "players"), ("analyze", "samples"), ("analyze", "turns")} | {
    ("tune", name) for name in ("generations", "population", "deals", "validation")
}
ODD_ONE_IN = 8  # an option's value is odd once in this many
# The ways a command takes its game: given together, or not at all.
SOURCES = {"seeded": ("seed", "players"), "file": ("file",), "position": ("position_text",)}
BY_NAME = {
    "seed": SEEDS,
    "sim_seed": SEEDS,
    "start_seed": SEEDS,
    "players": PLAYERS,
    "workers": (["1", "2"], ["0", "-1", "x", ""]),
    "count": FEW,
    "batch": FEW,
    "wanted": (["1", "2", "3"], ["0", "6", "x"]),
    "grade": (["1", "3", "5"], ["0", "6", "x"]),
    "turn": (["0", "5", "30", "200"], ["-1", "x", "", "nan"]),
    "rules_spec": (
        ["official", "hungarian", "monsters", "rocks-manual", "{folder}/rules.json"],
        ["nope", "", "missing.json", "{folder}/nan.json"],
    ),
    "rule_overrides": (
        ["monsters=4", "order=grid", "rows=4"],
        ["cols=x", "x", "=", "monsters=nan", "rows=0", "rows=99", "finish="],
    ),
    "position_text": (["{position}"], ODD_TEXT),
    "scheduler": (["127.0.0.1:1"], ["tcp://127.0.0.1:x", "127.0.0.1", "", "x://y", "tcp://[::1"]),
    "scheduler_timeout": (["0.2", "1"], SECONDS[1]),
    "host": (["127.0.0.1"], ["", "x"]),
    "port": (["0", "8000"], ["-1", "65536", "x", ""]),
    "puzzle_id": (["tq1-2p-8cf48077-5"], ["x", "", "tq1-2p-00000000-1"]),
    "suite": (["official"], ["nope", ""]),  # the other suites take minutes
    "file": (
        ["{folder}/deal.json", "{folder}/line.json", "{folder}/position.json", "{folder}/game.tq"],
        ["{folder}/nan.json", "{folder}/empty.json", "{folder}/missing.json", "{folder}/folder", "", "-"],
    ),
    "db": (["odds.db"], ["", "folder", "missing/odds.db"]),
    "html_out": (["page.html"], ["", "folder", "missing/page.html"]),
    "plot": (["plot.png"], ["", "folder", "plot.txt"]),
}
OUTPUTS = (["out.json"], ["", "folder", "missing/out.json"])  # relative: inside the example's own folder
EXAMPLES = 40  # per command


def option_values(command: str, param: click.Parameter) -> tuple[list[str], list[str]]:
    name = param.name or ""
    if (command, name) in BY_COMMAND:
        return BY_COMMAND[(command, name)]
    if name in ALWAYS:
        return ALWAYS[name]
    if name in BY_NAME:
        return BY_NAME[name]
    if isinstance(param.type, click.Path):
        return OUTPUTS
    if isinstance(param.type, click.Choice):
        return [str(c) for c in param.type.choices], ["", "nope"]
    raise AssertionError(f"{command} {name}: give its values here")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Input files of every kind, made once with the program itself."""
    base = tmp_path_factory.mktemp("fuzz")
    runner = CliRunner()
    for argv in (
        ["deal", "--seed", "1", "--players", "2", "--out", str(base / "deal.json")],
        ["simulate", "--seed", "1", "--players", "2", "--policy", "greedy", "--out", str(base / "line.json")],
        ["show", str(base / "line.json"), "--turn", "9", "--position", "--json"],
    ):
        result = runner.invoke(main, argv)
        assert result.exit_code in (0, 1), result.output
        if argv[0] == "show":
            (base / "position.json").write_text(result.stdout)
    text = runner.invoke(main, ["show", str(base / "line.json"), "--turn", "9", "--position"]).stdout
    (base / "position.txt").write_text(next(line for line in text.splitlines() if line.startswith("tq1 ")))
    (base / "rules.json").write_text('{"rows": 4, "monsters": 3}')
    (base / "nan.json").write_text('{"format": "tranquility-deal/1", "seed": NaN, "players": 2}')
    (base / "empty.json").write_text("")
    (base / "game.tq").write_text("deal 1 2\n19@8\n")
    (base / "folder").mkdir()
    return base


def commands() -> list[str]:
    return main.list_commands(click.Context(main))


@pytest.mark.slow
@pytest.mark.parametrize("name", commands())
def test_no_option_combination_is_a_bug(name: str, folder: Path, monkeypatch):
    # serve serves until Ctrl-C: everything up to the serving is checked, not the serving.
    monkeypatch.setattr("tranquility.cli.web_board.run.run", lambda *settings: None)
    command = main.get_command(click.Context(main), name)
    assert command is not None
    position = (folder / "position.txt").read_text()
    params = [p for p in command.params if p.name != "help"]

    def argv_of(param: click.Parameter, value: str | bool) -> list[str]:
        if isinstance(value, str):
            value = value.replace("{folder}", str(folder)).replace("{position}", position)
        if param.param_type_name == "argument":
            return [str(value)]
        flag = param.opts[0]
        return [flag] if getattr(param, "is_flag", False) else [flag, str(value)]

    def option(param: click.Parameter) -> st.SearchStrategy[list[str]]:
        if getattr(param, "is_flag", False):
            return st.just(argv_of(param, True))
        valid, odd = option_values(name, param)
        values = st.integers(0, ODD_ONE_IN - 1).flatmap(lambda k: st.sampled_from(valid if k else odd))
        if getattr(param, "multiple", False):
            return st.lists(values, max_size=3).map(lambda vs: [a for v in vs for a in argv_of(param, v)])
        return values.map(lambda v: argv_of(param, v))

    always = [p for p in params if p.name in ALWAYS or (name, p.name) in ALWAYS_IN or p.required]
    sources = [p for p in params if any(p.name in way for way in SOURCES.values()) and p not in always]
    optional = [p for p in params if p not in always and p not in sources]

    def source() -> st.SearchStrategy[list[list[str]]]:
        """Where the game comes from: one of the ways a command takes (the seeded deal's two
        options together, a FILE, a position), or any of them at random."""
        ways = [[p for p in sources if p.name in way] for way in SOURCES.values()]
        ways = [way for way in ways if way] + [sources]
        return (
            st.sampled_from(ways)
            .flatmap(
                lambda way: st.lists(
                    st.sampled_from(way), unique_by=lambda p: p.name, min_size=min(1, len(way)), max_size=len(way)
                )
            )
            .flatmap(lambda chosen: st.tuples(*(option(p) for p in chosen)).map(list) if chosen else st.just([]))
        )

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(
        st.tuples(*(option(p) for p in always)) if always else st.just(()),
        source() if sources else st.just([]),
        st.lists(st.sampled_from(optional), unique_by=lambda p: p.name, max_size=min(4, len(optional))).flatmap(
            lambda chosen: st.tuples(*(option(p) for p in chosen)) if chosen else st.just(())
        ),
    )
    def check(given_always, given_source, given_optional):
        argv = [name] + [a for part in (*given_always, *given_source, *given_optional) for a in part]
        with tempfile.TemporaryDirectory(dir=folder) as own, contextlib.chdir(own):
            os.mkdir("folder")
            result = CliRunner().invoke(main, argv, input="")
        assert result.exit_code in (0, 1, 2), f"{argv}: exit {result.exit_code}\n{result.output}"
        assert result.exception is None or isinstance(result.exception, SystemExit), f"{argv}: {result.exception!r}"
        assert "Traceback" not in result.output, argv
        if result.exit_code == 2:
            assert len(result.stderr.strip().splitlines()) == 1 or result.stdout.startswith("Usage:"), (argv, result.stderr)

    check()
