"""The docs against the code: their examples, numbers and output samples are what the tool
does today. (The README's examples are run by tests/test_readme.py.)"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.analysis.portfolio import GREEDY_SHARE
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import game_from_json
from tranquility.solver.search.budget import Budget

from .helpers import ENV
from .test_readme import files_used, sh_blocks

DOCS = Path(__file__).resolve().parent.parent / "docs"


def doc(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def json_blocks(text: str) -> list[str]:
    return re.findall(r"^```json\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


@pytest.mark.parametrize("name", sorted(p.name for p in DOCS.glob("*.md")))
def test_doc_examples_make_their_files_first(name):
    """A shell example that reads a file follows one that writes it (or says how)."""
    made: list[str] = []
    for block in sh_blocks(doc(name)):
        for raw in block.splitlines():
            line = raw.strip() if raw.strip().startswith("printf") else raw.split("#")[0].strip()
            if not line.startswith(("tranquility ", "printf ")):
                continue
            reads, writes = files_used(line.replace(";", " "))
            for path in reads:
                assert any(path == m or path.startswith(m.rstrip("/") + "/") for m in made), (
                    f"docs/{name}: {line!r} reads {path}, which no example before it writes"
                )
            made += writes


# -- formats.md ------------------------------------------------------------------------------


def test_formats_examples_verify_as_the_text_says():
    deal_file, won_line, rocks_line, error = json_blocks(doc("formats.md"))[:4]
    assert verify(game_from_json(json.loads(deal_file), "deal")).to_json()["legal"] is True
    assert verify(game_from_json(json.loads(won_line), "line")).to_json() == {
        "legal": True, "won": True, "status": "won", "turns": 9, "error": None
    }
    assert verify(game_from_json(json.loads(rocks_line), "line")).to_json()["turns"] == 10
    # The error sample: the winning line with turn 3's payment left out.
    line = json.loads(won_line)
    line["actions"][2]["discard"] = []
    assert json.loads(error) == verify(game_from_json(line, "line")).to_json()


def test_formats_describes_the_error_as_verify_writes_it():
    text = doc("formats.md")
    assert "`turn N: <the action in words>: <the broken rule>`" in text
    assert "turn N, seat S" not in text
    wrong = json.loads(json_blocks(text)[1])
    wrong["actions"][0]["seat"] = 1
    error = verify(game_from_json(wrong, "line")).error
    assert error is not None and error.startswith("turn 1: seat 1 plays 2 at cell 0, paying nothing: ")


# -- solving.md ------------------------------------------------------------------------------


def test_solving_gives_greedy_its_budget():
    """The greedy phase's playouts (Budget.greedy_playouts) and share of the time left
    (GREEDY_SHARE), as the portfolio and --reproducible state them."""
    share = GREEDY_SHARE
    playouts = f"{Budget().greedy_playouts:,} playouts"
    text = doc("solving.md")
    assert f"at most {playouts}, and at most {share:.0%} of the time left" in text
    assert f"greedy: {playouts} and {share:.0%} of the time left" in text
    assert f"The greedy phase gets {playouts}" in text


# -- dealing.md ------------------------------------------------------------------------------


def test_dealing_worked_check_is_the_dealer_output():
    text = doc("dealing.md")
    printed = text.split('print(deal(OFFICIAL,4,1).piles)"\n', 1)[1].split("\n```", 1)[0]
    assert ast.literal_eval(printed.replace("\n", "")) == deal(OFFICIAL, 4, 1).piles


# -- puzzles.md ------------------------------------------------------------------------------


def test_puzzles_sample_is_what_grade_prints():
    """The sample of `tranquility grade --seed 1 --players 1`, as a pipe receives it."""
    text = doc("puzzles.md")
    sample = text.split("$ tranquility grade --seed 1 --players 1\n", 1)[1].split("```", 1)[0]
    result = CliRunner(env={**ENV, "COLUMNS": None}).invoke(main, ["grade", "--seed", "1", "--players", "1"])
    assert result.exit_code == 0, result.output
    strip = lambda t: [row.rstrip() for row in t.strip("\n").splitlines()]  # noqa: E731
    assert strip(result.stdout) == strip(sample)


def test_the_odds_table_is_the_committed_report():
    # docs/odds.md's perfect-play rows are docs/odds.json's groups (the --report --json of
    # the store), each interval the Wilson interval of its counts, for every rule set.
    from tranquility.solver.batch.odds_summary import odds_interval
    from tranquility.solver.engine.rules import Rules
    from tranquility.solver.formats.rules_text import rules_name

    report = json.loads(doc("odds.json"))
    assert report["groups"] and set(report) == {"groups", "deals_per_s"}
    row = r"^\| ([a-z_=+ 1-9-]+?) \| (\d) \| ([\d,]+)(?: \(seeds [\d-]+\))? \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \|"
    rows = re.findall(row, doc("odds.md"), re.MULTILINE)
    table = {(name, int(p)): tuple(int(n.replace(",", "")) for n in counts) for name, p, *counts in rows}
    for g in report["groups"]:
        key = (rules_name(Rules.from_dict(g["rules"])), g["players"])
        assert table[key] == (g["deals"], g["win"], g["no_win"], g["unknown"]), key
        low, high = odds_interval(g["win"], g["unknown"], g["deals"])
        assert g["ci95"] == [round(low, 4), round(high, 4)]
    assert len(table) == len(report["groups"])


# -- the architecture ------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("solver", "cli", "app", "puzzles")


def test_the_architecture_names_every_module():
    """docs/architecture.md says where things go: a module it does not name is a room nobody
    has been told about."""
    text = doc("architecture.md")
    missing = [
        str(path.relative_to(ROOT))
        for folder in LAYERS
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.name != "__init__.py" and not re.search(rf"`([\w.]+\.)?{path.stem}`", text)
    ]
    assert not missing, f"docs/architecture.md does not name {', '.join(missing)}"


def test_every_package_folder_is_a_package_of_the_distribution():
    """A folder of modules left out of pyproject.toml's packages is missing from the wheel
    (each top-level folder is tranquility.<folder>, its package-dir)."""
    import tomllib

    packages = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
    found = {
        ".".join(("tranquility", *path.parent.relative_to(ROOT).parts))
        for folder in LAYERS
        for path in (ROOT / folder).rglob("__init__.py")
    }
    assert sorted(found - set(packages)) == []
