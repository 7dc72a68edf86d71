"""Text output details every command shares: nothing wrapped when stdout is not a terminal,
rule sets named by their nearest preset, rulebook sources named by language."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import EXPLANATIONS, OFFICIAL, PRESETS, Adjacency, Order, Rules, nearest_preset
from tranquility.solver.formats.codecs import deal_to_json
from tranquility.solver.formats.rules_text import rules_name

from ..helpers import ENV, run, write

ROOT = Path(__file__).resolve().parents[2]


def piped(*args, columns: str | None = None):
    return CliRunner(env={**ENV, "COLUMNS": columns}).invoke(main, [str(a) for a in args], catch_exceptions=False)


# -- piped text is not wrapped -------------------------------------------------------------


def test_piped_rules_keep_every_explanation_on_one_line():
    out = piped("rules").stdout
    for key, meaning in EXPLANATIONS.items():
        assert any(key in row and meaning in row for row in out.splitlines()), key


def test_piped_show_keeps_a_long_pile_on_one_line(tmp_path):
    game = deal(OFFICIAL, 1, 3)
    path = write(tmp_path / "deal.json", deal_to_json(game))
    rest = " ".join(map(str, game.piles[0][OFFICIAL.hand :]))
    assert len(rest) > 200
    assert any(rest in row for row in piped("show", path).stdout.splitlines())


def test_columns_still_sets_the_width(tmp_path):
    """COLUMNS, when set, is the width asked for, piped or not."""
    out = piped("rules", columns="60").stdout
    assert max(len(row) for row in out.splitlines()) <= 60


@pytest.mark.skipif(shutil.which("tranquility") is None, reason="the tranquility command is not installed")
def test_a_real_pipe_is_not_wrapped():
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE")}
    done = subprocess.run(["tranquility", "rules"], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert EXPLANATIONS["adjacency"] in done.stdout


# -- rule sets are named by the nearest preset ------------------------------------------------


@pytest.mark.parametrize(
    "rules, name",
    [
        (OFFICIAL, "official"),
        (PRESETS["hungarian"], "hungarian"),
        (PRESETS["hungarian"].with_options({"monsters": 4}), "hungarian + monsters=4"),
        (Rules(monsters=4), "monsters"),
        (Rules(monsters=3), "official + monsters=3"),  # a tie goes to official
        (Rules(rows=4, cols=5), "official + rows=4 cols=5"),
        (Rules(order=Order.GRID, adjacency=Adjacency.ORTHOGONAL), "hungarian + finish=5"),
    ],
)
def test_rules_name(rules, name):
    assert rules_name(rules) == name
    preset, changes = nearest_preset(rules)
    assert PRESETS[preset].with_options(changes) == rules


def test_rules_command_names_the_preset_and_its_overrides():
    result = run("rules", "--rules", "hungarian", "--rule", "monsters=4")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "Rules in force: hungarian + monsters=4"
    # The JSON label stays what it was: a preset's exact name, or custom.
    assert json.loads(run("rules", "--rules", "hungarian", "--rule", "monsters=4", "--json").stdout)["label"] == "custom"


def test_deal_names_the_preset_and_its_overrides():
    out = piped("deal", "--seed", 7, "--players", 3, "--rules", "hungarian", "--rule", "monsters=4").stdout
    assert "Rules: hungarian + monsters=4: 6x6 grid, islands 1..80, 1 Finish, hand 5; order=grid adjacency=orthogonal\n" in out


# -- rulebook sources are named by language, never by a seed --------------------------------


@pytest.mark.slow
def test_no_rulebook_is_cited_by_seed():
    """The rulebooks are the English, Hungarian, French... ones: a "(seed 001)" citation is
    an internal name that means nothing to a reader. Checked where a reader meets them: what
    the commands print (the rules of every preset, every help), the rule explanations, the
    docstrings of every module (pydoc, help()), the README and the docs."""
    cited = re.compile(r"seed 0\d\d|seed-0\d\d|seed_0\d\d", re.IGNORECASE)
    assert not cited.search(run("rules").stdout)
    assert not cited.search(run("rules", "--json").stdout)
    shown = {"tranquility --help": run("--help").stdout}
    for name in PRESETS:
        shown[f"tranquility rules --rules {name}"] = run("rules", "--rules", name).stdout
        shown[f"tranquility rules --rules {name} --json"] = run("rules", "--rules", name, "--json").stdout
    for command in main.commands:
        shown[f"tranquility {command} --help"] = run(command, "--help").stdout
    shown |= {f"EXPLANATIONS[{key!r}]": text for key, text in EXPLANATIONS.items()}
    for package in ("tranquility.solver", "tranquility.cli", "tranquility.puzzles"):
        top = importlib.import_module(package)
        shown[package] = top.__doc__ or ""
        for module in pkgutil.walk_packages(top.__path__, f"{package}."):
            shown[module.name] = importlib.import_module(module.name).__doc__ or ""
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        shown[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    found = [f"{where}: {m.group()}" for where, text in shown.items() for m in cited.finditer(text)]
    assert not found


def test_advice_after_an_unknown_fits_the_flags_given():
    """--reproducible takes no --time-limit: its unknown must not send the user there alone."""
    import io

    from rich.console import Console
    from tranquility.cli.render.verdicts import render_solve
    from tranquility.solver.analysis.portfolio import solve
    from tranquility.solver.search.budget import Budget
    from tranquility.solver.verdicts import Method, Verdict

    grid = Rules.from_dict({**OFFICIAL.to_dict(), "order": "grid"})
    result = solve(deal(grid, 2, 3), Budget(seconds=0.05), method=Method.CPSAT)
    assert result.verdict == Verdict.UNKNOWN
    said = {}
    for reproducible in (False, True):
        out = io.StringIO()
        render_solve(Console(file=out, width=200), result, 0, reproducible=reproducible)
        said[reproducible] = out.getvalue()
    assert "try a longer --time-limit" in said[False]
    assert "--reproducible ran out" in said[True] and "without --reproducible, a longer --time-limit" in said[True]


def test_explain_from_a_line_says_its_turns_count_from_the_position(tmp_path):
    line = tmp_path / "line.json"
    run("simulate", "--seed", "1", "--players", "4", "--policy", "greedy", "--out", str(line))
    data = json.loads(line.read_text())
    data["actions"] = data["actions"][:8]
    line.write_text(json.dumps(data))
    result = CliRunner().invoke(main, ["explain", str(line), "--objective", "turns", "--time-limit", "5"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())  # the sentence wraps at spaces in 80 columns
    assert re.search(r"Turns 1-8 are the position given; this line plays turns 9-\d+, and its objective counts turns", said)
    assert re.search(r"^\s+9\. seat 0 plays", result.stdout, re.M)


# -- text that fits: no number or word split across lines, at any width from 80 up ------------------

WIDTHS = range(80, 161)


def _odds_summary():
    """From the summary of docs/odds.json: official 1-5 players with five policies, and a
    variant rule set's solo and 2-player rows."""
    from tranquility.solver.batch.odds_summary import OddsGroup, OddsSummary, PolicyRate

    data = json.loads((ROOT / "docs" / "odds.json").read_text(encoding="utf-8"))
    groups = []
    for g in [g for g in data["groups"] if g["rules_hash"] == OFFICIAL.digest()] + data["groups"][5:7]:
        rates = tuple(PolicyRate(name, p["deals"], p["won"]) for name, p in g["policies"].items())
        counts = (g["win"], g["no_win"], g["unknown"], g["median_s"], g["p90_s"])
        groups.append(OddsGroup(Rules.from_dict(g["rules"]), g["rules_hash"], g["players"], *counts, rates))
    return OddsSummary(tuple(groups), data["deals_per_s"])


def _odds_with_lookahead():
    """The summary of docs/odds.json with a lookahead row beside the silent policies, and
    the CPU seconds of its decisions."""
    from tranquility.solver.batch.odds_summary import PolicyRate

    summary = _odds_summary()
    ahead = PolicyRate("lookahead:12", 1_000, 912, 41_234, 0.265, 0.773)
    groups = tuple(replace(g, policies=(*g.policies, ahead)) if g.policies else g for g in summary.groups)
    return replace(summary, groups=groups)


def _table_report():
    """``bench --suite table`` at its default settings, on games made up (not played)."""
    from tranquility.solver.batch.table_bench import Rollouts, TableGame, TableReport, TableSettings, compare

    settings = TableSettings()
    spent = (0.1234, 0.5, 4.25)
    games = {
        c: TableGame(c, won=(3 * c.seed + c.players + (c.arm.samples or 0)) % 5 > 0, decisions=spent * bool(c.arm.samples))
        for c in settings.cases()
    }
    comparisons = [compare(s, games) for s in settings.sections()]
    return TableReport(settings, comparisons, list(games.values()), Rollouts(200, 1.62), "x86_64, 2 cores, Python 3.11.7, Linux")


def _fair_report():
    """``bench --suite fair`` at its default settings, on games made up (not played)."""
    from tranquility.solver.analysis.fair import Judgement
    from tranquility.solver.batch.fair_bench import LOST, OWN, FairCase, FairGame, FairReport, FairSettings, LostScan

    settings = FairSettings()
    scan = LostScan(4, 100, 712, tuple(range(0, 700, 7)))
    verdicts = (Judgement.MISTAKE, Judgement.BAD_LUCK, Judgement.BAD_LUCK, Judgement.UNDECIDED, Judgement.NEVER_WINNABLE)
    games = [FairGame(FairCase(LOST, 4, seed), verdicts[seed % 5], 45, cpu_seconds=12.345 + seed) for seed in scan.seeds]
    games += [
        FairGame(FairCase(OWN, 4, seed), Judgement.WON, 44, examined=43, mistakes=(3,) * (seed % 3), cpu_seconds=312.5)
        for seed in range(20)
    ]
    return FairReport(settings, (scan,), games, "x86_64, 2 cores, Python 3.11.7, Linux", from_journal=37)


def _bench_reports():
    from tranquility.puzzles.timing import PuzzleRow
    from tranquility.solver.batch.bench import GroupSummary, Report, SuiteReport
    from tranquility.solver.batch.explain_bench import ExplainRow

    methods = {"cpsat": 3, "exhaustive": 10, "greedy": 30, "refute": 7}
    groups = [
        GroupSummary(name, players, 50, 0.98, {"win": 40, "no-win": 9, "unknown": 1}, methods, 0.012, 0.5, 12.345, True, 3.2)
        for name in ("official", "silent play, 30 turns") for players in (2, 4)
    ]
    spare = tuple((seed, 20 + seed % 3, 23, seed % 2 == 0) for seed in range(12))
    explain_rows = [ExplainRow(players, 50, 12.34, 0.96, 0.875, 20, 0.95, spare) for players in (2, 5)]
    graded, seconds = {0: 3, 1: 12, 2: 10, 3: 0, 4: 8, 5: 8}, {g: [0.5, 1.25, 2.0] for g in range(6)}
    puzzle_rows = [PuzzleRow(players, 50, graded, seconds, 0.42, 123.4) for players in (1, 4)]
    return Report("all", 60.0, "2 cores, Linux", groups), SuiteReport("explain", explain_rows, 30.0), SuiteReport(
        "puzzles", puzzle_rows
    )


@pytest.fixture(scope="module")
def outputs():
    """Each command's readable output, as a function of the console it prints on."""
    from tranquility.cli.render.analysis import render_explanation
    from tranquility.cli.render.bench import (
        render_bench,
        render_explain_bench,
        render_fair_bench,
        render_puzzle_bench,
        render_table_bench,
    )
    from tranquility.cli.render.board import render_deal, render_rules, render_show, render_verdict
    from tranquility.cli.render.odds import render_odds
    from tranquility.solver.analysis.explain import Critical, explain
    from tranquility.solver.analysis.results import Phase
    from tranquility.solver.engine.state import replay
    from tranquility.solver.engine.verify import verify
    from tranquility.solver.search.policies import simulate

    game = deal(OFFICIAL, 4, 3)
    line = simulate(game, "thrifty", 3).line
    assert line.end_state().won
    explained = explain(line, critical_budget=0.0)  # the line as played; its critical moves said below
    kinds = (Critical.ONLY, Critical.FEW, Critical.UNCHECKED)
    example = "seat 2 plays 49 at cell 18, paying 39, Finish"
    explained.critical = [replace(c, kind=kinds[c.number % 3], example=example) for c in explained.critical]
    explained.phases = (
        Phase("decide", "greedy", 0.04, "win"),
        Phase("improve", "greedy", 2.35, "spare 17 -> 20"),
        Phase("improve", "ladder", 3.66, "spare 20, no better line"),
        Phase("improve", "lns", 61.2, "spare 20, no better line"),
        *explained.phases,
    )
    bench, explain_bench, puzzle_bench = _bench_reports()

    def show(console) -> None:
        for turn in (0, 20, len(line.actions)):
            render_show(console, "/tmp/played.json", line, replay(game, line.actions[:turn]), turn)

    return {
        "show": show,
        "explain": lambda c: render_explanation(c, explained, hands="all"),
        "verify": lambda c: render_verdict(c, "/tmp/played.json", line, verify(line)),
        "deal": lambda c: render_deal(c, game),
        "rules": lambda c: render_rules(c, OFFICIAL),
        "odds": lambda c: render_odds(c, _odds_summary()),
        "odds lookahead": lambda c: render_odds(c, _odds_with_lookahead()),
        "bench table": lambda c: render_table_bench(c, _table_report()),
        "bench fair": lambda c: render_fair_bench(c, _fair_report()),
        "bench": lambda c: render_bench(c, bench),
        "bench explain": lambda c: render_explain_bench(c, explain_bench),
        "bench puzzles": lambda c: render_puzzle_bench(c, puzzle_bench),
    }


def printed(render, width: int) -> str:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    render(Console(file=out, width=width, highlight=False, markup=False, no_color=True, legacy_windows=False))
    return out.getvalue()


def words(text: str) -> set[str]:
    """The whitespace-separated words of ``text``, without the punctuation around them
    (a column may show ``12`` where a row shows ``12,``) and without table borders."""
    found = {w.strip(",;:()[]") for w in text.split()}
    return {w for w in found if w and not all("\u2500" <= ch <= "\u257f" for ch in w)}


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    ["show", "explain", "verify", "deal", "rules", "odds", "odds lookahead"]
    + ["bench", "bench explain", "bench puzzles", "bench table", "bench fair"],
)
def test_no_word_or_number_is_split_at_any_width(outputs, name):
    """At every width from 80 to 160 columns: no line is wider than the console (a terminal
    would fold it mid-number), nothing is cut short (…), and every word of the unwrapped
    text (as piped) is whole somewhere: a number split across two lines would be missing."""
    from rich.cells import cell_len
    from tranquility.cli.render.console import UNWRAPPED

    whole = printed(outputs[name], UNWRAPPED)
    assert "\u2026" not in whole
    for width in WIDTHS:
        text = printed(outputs[name], width)
        too_wide = [row for row in text.splitlines() if cell_len(row) > width]
        assert not too_wide, (width, too_wide[:2])
        assert "\u2026" not in text, width
        assert words(text) == words(whole), (width, sorted(words(text) ^ words(whole))[:10])


def test_a_time_keeps_its_unit_and_a_change_its_arrow():
    """explain's first line wraps between phases' words, never between "0.55" and "s" or
    around "17 -> 20"."""
    from tranquility.cli.render.console import fitted
    from tranquility.cli.render.verdicts import verdict_head
    from tranquility.solver.analysis.results import Phase

    phases = [Phase("decide", "greedy", 0.55, "win"), Phase("improve", "greedy", 2.35, "spare 17 -> 20")]
    phases += [Phase("improve", "cpsat", 61.2, "spare 21, no better line"), Phase("critical moves", "re-solves", 9.5, "39 of 39")]
    head = verdict_head("win", "greedy", 73.6, phases)
    for width in range(40, 161):
        text = printed(lambda c: c.print(fitted(head, c.width)), width)
        assert not re.search(r"\d\n(s|min)\b|\n->|->\n", text), (width, text)
        assert text.replace("\n", " ").split() == head.plain.split()
