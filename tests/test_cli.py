"""The ``tranquility`` command line, through click's CliRunner.

Goldens live in tests/golden/; regenerate them (after checking the change is wanted) with
``TRANQUILITY_UPDATE_GOLDEN=1 python -m pytest tests/test_cli.py``.
"""

from __future__ import annotations

import difflib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from tranquility.cli.options import DealSource, deal_source, game_file_argument
from tranquility.solver.deal import deal
from tranquility.solver.formats import deal_to_json, line_to_json
from tranquility.solver.line import Line
from tranquility.solver.rules import PRESETS, Rules
from tranquility.solver.state import State

from .helpers import ENV, run, write

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("TRANQUILITY_UPDATE_GOLDEN") == "1"
REPO = Path(__file__).resolve().parent.parent




def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"golden {path} did not exist; written now, check it in and re-run")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), text.splitlines(keepends=True), f"golden/{name}", "output"
            )
        )
        pytest.fail(
            f"output differs from golden {path} (TRANQUILITY_UPDATE_GOLDEN=1 rewrites it):\n{diff}",
            pytrace=False,
        )




def seeded(seed: int = 1, players: int = 4, rules: Rules = PRESETS["official"]):
    return deal(rules, players, seed)


def random_line(game, turns: int, seed: int = 0) -> Line:
    """A few random legal actions from the start of ``game``."""
    rng = random.Random(seed)
    state = State.initial(game)
    actions = []
    for _ in range(turns):
        legal = list(state.legal_actions())
        if not legal:
            break
        action = rng.choice(legal)
        actions.append(action)
        state = state.apply(action)
    return Line(game, tuple(actions))


def verdict_json(path: Path):
    result = run("verify", path, "--json")
    return result.exit_code, json.loads(result.stdout)


# -- basics ---------------------------------------------------------------------------


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert "tranquility, version 0.1.0" in result.output


@pytest.mark.parametrize("command", [[], ["deal"], ["verify"], ["rules"]])
def test_every_help_shows_an_example(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.output
    assert "  tranquility " in result.output.split("Examples:")[1]


def test_cli_does_not_import_ortools():
    code = (
        "import sys\n"
        "import tranquility.cli.main\n"
        "assert 'ortools' not in sys.modules, 'import tranquility.cli.main loaded ortools'\n"
        "from click.testing import CliRunner\n"
        "r = CliRunner().invoke(tranquility.cli.main.main, ['--help'])\n"
        "assert r.exit_code == 0, r.output\n"
        "r = CliRunner().invoke(tranquility.cli.main.main, ['verify', 'no-such-file.json'])\n"
        "assert r.exit_code == 2, r.output\n"
        "assert 'ortools' not in sys.modules, '--help or verify loaded ortools'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# -- deal -----------------------------------------------------------------------------


def test_deal_text_shows_rules_hands_piles():
    result = run("deal", "--seed", 1, "--players", 4)
    assert result.exit_code == 0, result.output
    out = result.stdout
    game = seeded()
    assert "Deal: seed 1, 4 player(s), dealer v1" in out
    assert "Rules: official: 6x6 grid, islands 1..80, 5 Finish, hand 5" in out
    assert "Opening hand" in out and "Rest of the pile (top first)" in out
    for seat, pile in enumerate(game.piles):
        hand = " ".join(str(c) for c in sorted(pile[:5]))
        rest = " ".join(str(c) for c in pile[5:9])
        assert hand in out, f"seat {seat} opening hand"
        assert rest in out, f"seat {seat} pile top"
    assert "Removed islands: none" in out
    assert "Jagged Rocks: off" in out


def test_deal_text_with_modules():
    result = run("deal", "--seed", 3, "--players", 2, "--rules", "rocks", "--rule", "monsters=4", "--rule", "removed=6")
    assert result.exit_code == 0, result.output
    game = seeded(3, 2, Rules(rocks="auto", monsters=4, removed=6))
    assert "custom: 6x6 grid" in result.stdout and "monsters=4 rocks=auto removed=6" in result.stdout
    assert "Removed islands: " + ", ".join(map(str, game.removed_islands)) in result.stdout
    assert f"Jagged Rocks: auto, starting on row {game.rocks_row}" in result.stdout


def test_deal_json_golden():
    result = run("deal", "--seed", 1, "--players", 4, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == deal_to_json(seeded())
    check_golden("deal_seed1_players4.json", result.stdout)


def test_deal_json_round_trips_through_verify(tmp_path):
    result = run("deal", "--seed", 5, "--players", 3, "--rules", "hungarian", "--json")
    assert result.exit_code == 0
    path = write(tmp_path / "deal.json", result.stdout)
    code, verdict = verdict_json(path)
    assert code == 0
    assert verdict == {"legal": True, "won": False, "status": "open", "turns": 0, "error": None}


def test_deal_out_writes_the_json_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "deal.json"
    printed = run("deal", "--seed", 1, "--players", 4, "--json").stdout
    result = run("deal", "--seed", 1, "--players", 4, "--out", out)
    assert result.exit_code == 0, result.output
    assert out.read_text() == printed
    assert result.stdout == ""  # the note goes to stderr
    assert f"wrote {out}" in result.stderr

    write(out, "original content")
    refused = run("deal", "--seed", 2, "--players", 4, "--out", out)
    assert refused.exit_code == 2
    assert "already exists" in refused.stderr and "--force" in refused.stderr
    assert out.read_text() == "original content"

    forced = run("deal", "--seed", 2, "--players", 4, "--out", out, "--force")
    assert forced.exit_code == 0
    assert json.loads(out.read_text()) == deal_to_json(seeded(2))


# -- rules ----------------------------------------------------------------------------


def test_rules_text_golden():
    result = run("rules")
    assert result.exit_code == 0, result.output
    for key in Rules().to_dict():
        assert key in result.stdout
    for name in PRESETS:
        assert name in result.stdout
    check_golden("rules.txt", result.stdout)


def test_rules_json_with_preset_and_overrides():
    result = run("rules", "--rules", "hungarian", "--rule", "monsters=4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == Rules(order="grid", adjacency="orthogonal", finish=1, monsters=4).to_dict()
    assert data["label"] == "custom"
    assert set(data["explanations"]) == set(data["rules"])
    assert data["presets"]["official"] == {} and data["presets"]["islands"] == {"removed": 8}


def test_rules_from_partial_file_and_text_marks_changes(tmp_path):
    path = write(tmp_path / "small.json", {"rows": 3, "cols": 4, "islands": 30})
    data = json.loads(run("rules", "--rules", path, "--json").stdout)
    assert data["rules"] == Rules(rows=3, cols=4, islands=30).to_dict()
    text = run("rules", "--rules", path).stdout
    assert "(official 6)" in text and "(official 80)" in text


def test_preset_files_feed_back_into_rules(tmp_path):
    presets = json.loads(run("rules", "--json").stdout)["presets"]
    for name, diff in presets.items():
        path = write(tmp_path / f"{name}.json", diff)
        assert json.loads(run("rules", "--rules", path, "--json").stdout)["label"] == name


# -- verify ---------------------------------------------------------------------------


def test_verify_legal_line_exit_0(tmp_path):
    line = random_line(seeded(4, 3, PRESETS["rocks-manual"]), 10)
    path = write(tmp_path / "line.json", line_to_json(line))
    code, verdict = verdict_json(path)
    assert code == 0
    assert verdict == {"legal": True, "won": False, "status": "open", "turns": 10, "error": None}
    text = run("verify", path)
    assert text.exit_code == 0
    assert "legal: status open after 10 turn(s)" in text.stdout
    assert "Position after turn 10:" in text.stdout


def _bad_deal_duplicate(data):
    data["piles"][3].append(data["piles"][0][0])
    return data, f"{data['piles'][0][0]} is dealt 2 times, expected 1"


def _bad_deal_start_in_hand(data):
    pile = data["piles"][1]
    at = pile.index("S")
    pile[0], pile[at] = pile[at], pile[0]
    return data, "Start card is in the opening hand"


def _line_of(data, action):
    return {"format": "tranquility-line/1", "deal": data, "actions": [action]}


def _bad_line_island_not_in_hand(data):
    hand = data["piles"][0][:5]
    card = next(c for c in range(1, 81) if c not in hand)
    return _line_of(data, {"seat": 0, "play": card, "cell": 0, "discard": []}), "is not in seat 0's hand"


def _bad_line_wrong_seat(data):
    return _line_of(data, {"seat": 2, "discard": data["piles"][2][:2]}), "it is seat 0's turn"


@pytest.mark.parametrize(
    "breaker",
    [_bad_deal_duplicate, _bad_deal_start_in_hand, _bad_line_island_not_in_hand, _bad_line_wrong_seat],
    ids=lambda f: f.__name__.lstrip("_"),
)
def test_verify_rule_breaking_file_exit_1(tmp_path, breaker):
    data, message = breaker(deal_to_json(seeded()))
    path = write(tmp_path / "bad.json", data)
    code, verdict = verdict_json(path)
    assert code == 1
    assert verdict["legal"] is False and message in verdict["error"]
    assert verdict["turns"] == 0
    if data["format"].startswith("tranquility-line"):
        assert verdict["error"].startswith("turn 1: seat ")
    text = run("verify", path)
    assert text.exit_code == 1
    assert "ILLEGAL" in text.stdout and message in text.stdout


def test_verify_illegal_late_action_names_turn(tmp_path):
    line = line_to_json(random_line(seeded(9, 2), 6))
    line["actions"][4]["seat"] = 1 - line["actions"][4]["seat"]
    code, verdict = verdict_json(write(tmp_path / "line.json", line))
    assert code == 1
    assert verdict["turns"] == 4 and verdict["status"] == "open"
    assert verdict["error"].startswith(f"turn 5: seat {line['actions'][4]['seat']} ")


# -- bad input: exit 2, one clear line, never a traceback ----------------------------------


def _deal_with(**changes):
    data = deal_to_json(seeded())
    data.update(changes)
    return data


def _rules_with(**changes):
    data = deal_to_json(seeded())
    data["rules"].update(changes)
    return data


def _line_action(action):
    return _line_of(deal_to_json(seeded()), action)


BAD_FILES = {
    "bad-json": ('{"format": "tranquility-deal/1", ', "not valid JSON"),
    "not-an-object": ([1, 2, 3], "must be a JSON object"),
    "wrong-format-key": (_deal_with(format="tranquility-deal/9"), "'format' must be"),
    "no-format-key": ({"piles": []}, "'format' must be"),
    "unknown-rule-key": (_rules_with(colour=3), "rule 'colour': unknown rule key"),
    "rules-wrong-type": (_rules_with(rows="6"), "rule 'rows': must be an integer"),
    "rules-out-of-range": (_rules_with(rows=0), "rule 'rows': must be in 1..20, got 0"),
    "rules-too-few-islands": (_rules_with(removed=60), "rule 'removed'"),
    "rules-bad-choice": (_rules_with(order="spiral"), "rule 'order': must be one of"),
    "piles-wrong-type": (_deal_with(piles="abc"), "piles: must be a list"),
    "card-wrong-type": (_deal_with(piles=[[1.5]]), "is not a card"),
    "missing-piles": ({"format": "tranquility-deal/1"}, "missing key 'piles'"),
    "unknown-action-key": (_line_action({"seat": 0, "discard": [1, 2], "colour": 1}), "unknown key 'colour'"),
    "action-seat-wrong-type": (_line_action({"seat": "0", "discard": [1, 2]}), "seat: must be an integer"),
    "action-misplaced-key": (_line_action({"seat": 0, "play": "F", "cell": 3}), "does not belong"),
    "deeply-nested": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_verify_bad_file_exit_2(tmp_path, name):
    content, message = BAD_FILES[name]
    path = write(tmp_path / f"{name}.json", content)
    for extra in ([], ["--json"]):
        result = run("verify", path, *extra)
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        assert "Traceback" not in result.output
        assert result.stderr.startswith(f"Error: {path}: ")
        assert message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_verify_missing_file_exit_2(tmp_path):
    path = tmp_path / "missing.json"
    result = run("verify", path)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {path}: no such file\n"


@pytest.mark.parametrize(
    "args, message",
    [
        (["deal", "--seed", 1, "--players", 4, "--rule", "colour=3"], "rule 'colour': unknown rule key"),
        (["deal", "--seed", 1, "--players", 4, "--rule", "rows"], "is not KEY=VALUE"),
        (["deal", "--seed", 1, "--players", 4, "--rule", "rows=six"], "rule 'rows': must be an integer"),
        (["deal", "--seed", 1, "--players", 4, "--rule", "removed=50"], "rule 'removed'"),
        (["deal", "--seed", 1, "--players", 4, "--rules", "nonsense"], "neither a preset"),
        (["deal", "--seed", 1, "--players", 0], "players must be 1 to 5"),
        (["deal", "--seed", 1, "--players", 6], "players must be 1 to 5"),
        (["deal", "--seed", -1, "--players", 4], "'--seed'"),
        (["deal", "--seed", 1], "missing option --players"),
        (["deal", "--players", 2], "missing option --seed"),
        (["deal", "--seed", 1, "--players", 4, "--rule", "hand=30"], "opening hand"),
        (["rules", "--rule", "monsters=-1"], "rule 'monsters': must be in 0..100, got -1"),
        (["verify"], "Missing argument"),
    ],
)
def test_bad_options_exit_2(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert message in result.stderr


@pytest.mark.parametrize(
    "content, message",
    [
        ({"rows": 4, "colour": 1}, "rule 'colour': unknown rule key"),
        ({"rows": "4"}, "rule 'rows': must be an integer"),
        ([4], "must be an object"),
        ("{oops", "not valid JSON"),
    ],
)
def test_bad_rules_file_exit_2(tmp_path, content, message):
    path = write(tmp_path / "rules.json", content)
    for args in (["rules", "--rules", path], ["deal", "--seed", 1, "--players", 2, "--rules", path]):
        result = run(*args)
        assert result.exit_code == 2
        assert result.stderr.startswith(f"Error: {path}: ") and message in result.stderr


def test_out_to_missing_directory_exit_2(tmp_path):
    out = tmp_path / "no" / "such" / "deal.json"
    result = run("deal", "--seed", 1, "--players", 2, "--out", out)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: {out}: ")


# -- the shared deal-source options (later commands: solve, explain, grade) ----------------


@click.command()
@deal_source
@game_file_argument
def probe(source: DealSource, file: str | None) -> None:
    game = source.resolve(file)
    click.echo(type(game).__name__)


def run_probe(*args):
    return CliRunner(env=ENV).invoke(probe, [str(a) for a in args], catch_exceptions=False)


def test_deal_source_resolves_seed_or_file(tmp_path):
    assert run_probe("--seed", 1, "--players", 2).stdout == "Deal\n"
    path = write(tmp_path / "line.json", line_to_json(random_line(seeded(), 3)))
    assert run_probe(path).stdout == "Line\n"


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "give a deal or line FILE, or --seed N --players P"),
        (["--seed", 1], "missing option --players"),
        (["FILE", "--seed", 1, "--players", 2], "not both"),
        (["FILE", "--rules", "hungarian"], "FILE carries its own rules"),
        (["FILE", "--rule", "rows=4"], "FILE carries its own rules"),
        (["missing.json"], "missing.json: no such file"),
    ],
)
def test_deal_source_usage_errors(tmp_path, args, message):
    path = write(tmp_path / "deal.json", deal_to_json(seeded()))
    result = run_probe(*[path if a == "FILE" else a for a in args])
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.output
