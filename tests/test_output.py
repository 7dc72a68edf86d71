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
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import EXPLANATIONS, OFFICIAL, PRESETS, Adjacency, Order, Rules
from tranquility.solver.formats.codecs import deal_to_json
from tranquility.solver.formats.rules_text import nearest_preset, rules_name

from .helpers import ENV, run, write

ROOT = Path(__file__).resolve().parent.parent


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
    out = run("deal", "--seed", 7, "--players", 3, "--rules", "hungarian", "--rule", "monsters=4").stdout
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
    from tranquility.cli.render import render_solve
    from tranquility.solver.analysis.solve import solve
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
    assert re.search(
        r"^Turns 1-8 are the position given; this line plays turns 9-\d+, and its objective counts turns", result.stdout, re.M
    )
    assert re.search(r"^\s+9\. seat 0 plays", result.stdout, re.M)
