"""The ``tranquility`` command line, through click's CliRunner.

Goldens live in tests/golden/; regenerate them (after checking the change is wanted) with
``TRANQUILITY_UPDATE_GOLDEN=1 python -m pytest tests/cli/test_cli.py``.
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
from tranquility.cli.exits import EXIT_CODES, exit_line
from tranquility.cli.game_input import DealSource
from tranquility.cli.main import main as main_group
from tranquility.cli.options import deal_source, game_file_argument
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import PRESETS, Adjacency, Order, Rocks, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.verdicts import Objective

from ..helpers import ENV, run, write

GOLDEN = Path(__file__).parents[1] / "golden"
UPDATE = os.environ.get("TRANQUILITY_UPDATE_GOLDEN") == "1"
REPO = Path(__file__).resolve().parents[2]


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
            difflib.unified_diff(expected.splitlines(keepends=True), text.splitlines(keepends=True), f"golden/{name}", "output")
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
    game = seeded(3, 2, Rules(rocks=Rocks.AUTO, monsters=4, removed=6))
    assert "Rules: monsters + rocks=auto removed=6: 6x6 grid, islands 1..80, 5 Finish, hand 5; monsters=4\n" in result.stdout
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
    assert data["rules"] == Rules(order=Order.GRID, adjacency=Adjacency.ORTHOGONAL, finish=1, monsters=4).to_dict()
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
    game, _ = source.resolve(file)
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


# -- one exit-code table, one place that maps exceptions to it ----------------------------

COMMANDS = main_group.list_commands(click.Context(main_group))


def command_of(name: str) -> click.Command:
    """A command of the group, its module imported when first asked for."""
    command = main_group.get_command(click.Context(main_group), name)
    assert command is not None, name
    return command
SMALL_RULES = Rules(rows=2, cols=3, islands=12, finish=1, hand=3, start_discards=2)


def flat(text: str) -> str:
    """Help text with its line wrapping undone."""
    return " ".join(text.split())


def small_deal_file(tmp_path: Path, seed: int = 1, players: int = 1) -> Path:
    return write(tmp_path / "deal.json", deal_to_json(deal(SMALL_RULES, players, seed)))


def raising(exc: BaseException):
    def fail(*args, **kwargs):
        raise exc

    return fail


def test_every_command_help_ends_with_the_exit_table_line():
    assert COMMANDS == [
        "analyze",
        "bench",
        "deal",
        "explain",
        "generate",
        "grade",
        "moves",
        "odds",
        "play",
        "puzzles",
        "rules",
        "serve",
        "show",
        "simulate",
        "solve",
        "tune",
        "verify",
    ]
    for command in COMMANDS:
        result = run(command, "--help")
        assert result.exit_code == 0, command
        text = flat(result.output)
        assert "Exit status: 0 " in text, command
        assert "2 the input cannot be used, 3 a bug, 130 interrupted, 143 told to stop (docs/cli.md)." in text, command
        assert "Examples:" in text and f"tranquility {command} " in text.split("Examples:")[1], command
    # A command that answers a question says what 1 means.
    assert "0 legal (also a line that has not won yet), 1 well-formed but" in flat(run("verify", "--help").output)
    assert "0 graded, 1 not graded" in flat(run("grade", "--help").output)
    assert "1 fewer found than asked" in flat(run("generate", "--help").output)


def test_the_group_help_shows_the_whole_table_and_debug():
    text = run("--help").output
    for code, _, full in EXIT_CODES:
        assert f"{code:>3}  {full}" in text
    assert "--debug" in text


def test_the_exit_line_comes_from_one_table():
    assert exit_line() == (
        "Exit status: 0 done, 2 the input cannot be used, 3 a bug, 130 interrupted, 143 told to stop (docs/cli.md)."
    )
    assert exit_line("yes", "no").startswith("Exit status: 0 yes, 1 no, 2 ")
    assert [code for code, _, _ in EXIT_CODES] == [0, 1, 2, 3, 130, 143]


def test_a_bug_is_exit_3_with_a_hint_and_no_traceback(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.engine.verify.verify", raising(RuntimeError("boom")))
    result = run("verify", path)
    assert result.exit_code == 3
    assert result.stderr == "Error: internal error (a bug): RuntimeError: boom; rerun with --debug for the traceback\n"
    assert "Traceback" not in result.output


def test_debug_shows_the_traceback_of_a_bug(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.engine.verify.verify", raising(RuntimeError("boom")))
    for args in (["--debug", "verify", path], ["verify", path]):
        env = {"TRANQUILITY_DEBUG": "1"} if args[0] == "verify" else {}
        result = CliRunner(env={**ENV, **env}).invoke(main_group, [str(a) for a in args], catch_exceptions=False)
        assert result.exit_code == 3
        assert "Traceback (most recent call last)" in result.stderr and "RuntimeError: boom" in result.stderr
        assert result.stderr.endswith("Error: internal error (a bug): RuntimeError: boom\n")


def test_a_plain_value_error_is_a_bug_not_bad_input(tmp_path, monkeypatch):
    """Only the library's typed input errors (BadInput) are exit 2; any other ValueError is a bug."""
    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.analysis.portfolio.solve", raising(ValueError("not the user's fault")))
    result = run("solve", path)
    assert result.exit_code == 3
    assert "internal error (a bug): ValueError: not the user's fault" in result.stderr


def test_an_internal_error_is_exit_3_in_its_own_words(tmp_path, monkeypatch):
    from tranquility.solver.errors import InternalError

    path = small_deal_file(tmp_path)
    bug = InternalError("the CP-SAT plan's turn 3 is illegal")
    monkeypatch.setattr("tranquility.solver.analysis.portfolio.solve", raising(bug))
    result = run("solve", path, "--json")
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.startswith("Error: internal error (a bug): the CP-SAT plan's turn 3 is illegal; rerun with --debug")


def test_bad_input_from_deep_in_the_library_is_exit_2_in_one_line(tmp_path, monkeypatch):
    from tranquility.solver.engine.deal import DealError

    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.engine.verify.verify", raising(DealError("seat 2 holds two Start cards")))
    result = run("verify", path)
    assert result.exit_code == 2
    assert result.stderr == "Error: seat 2 holds two Start cards\n"


def test_ctrl_c_is_exit_130(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.search.policies.simulate", raising(KeyboardInterrupt()))
    result = run("simulate", path, "--policy", "thrifty")  # tuned would add its note on these rules' weights
    assert result.exit_code == 130
    assert result.stderr == "Interrupted.\n" and "Aborted" not in result.output


def test_a_closed_output_pipe_is_not_a_bug(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    monkeypatch.setattr("tranquility.solver.engine.verify.verify", raising(BrokenPipeError(32, "Broken pipe")))
    result = run("verify", path)
    assert result.exit_code == 130 and "internal error" not in result.output


def test_an_unwritable_output_path_is_exit_2(tmp_path):
    out = tmp_path / "a-directory"
    out.mkdir()
    result = run("deal", "--seed", 1, "--players", 2, "--out", out / "x" / "deal.json")
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: {out / 'x' / 'deal.json'}: ")
    html = out / "no-such-folder" / "replay.html"
    result = run("explain", small_deal_file(tmp_path), "--time-limit", 3, "--html", html)
    assert result.exit_code == 2 and result.stderr == f"Error: {html}: No such file or directory\n"


# -- shared options ------------------------------------------------------------------------

BOUNDS = {
    "solve": "Seconds for the whole command",
    "explain": "Seconds for the whole command",
    "analyze": "Seconds for each position",
    "moves": "Seconds for the whole command, shared over the moves",
    "grade": "Seconds for the proving solve",
    "bench": "Seconds for each case",
}


@pytest.mark.parametrize("command", sorted(BOUNDS))
def test_solver_commands_share_the_budget_options(command):
    text = flat(run(command, "--help").output)
    for flag in ("--time-limit SECONDS", "--workers N", "--reproducible"):
        assert flag in text, (command, flag)
    assert BOUNDS[command] in text
    params = {p.name: p for p in command_of(command).params if isinstance(p, click.Option)}
    assert params["workers"].default == 2 and params["reproducible"].is_flag


WRITERS = {
    "deal": "--out PATH",
    "solve": "--out PATH",
    "simulate": "--out PATH",
    "bench": "--out PATH",
    "generate": "--out DIR",
    "explain": "--out PATH",
    "analyze": "--out PATH",
    "moves": "--out PATH",
    "grade": "--out PATH",
}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_output_commands_share_out_and_force(command):
    """Every command that produces a result can write it with --out (before, explain had
    --force but no --out; analyze and grade could not write their result)."""
    text = flat(run(command, "--help").output)
    assert WRITERS[command] in text and "--force Let --out" in text
    if command == "explain":
        assert "--html PATH" in text and "--force Let --out and --html overwrite" in text


def test_the_commands_that_write_are_the_ones_listed():
    writers = {name for name in COMMANDS if any(p.name == "force" for p in command_of(name).params)}
    assert writers == {*WRITERS, "tune"}  # tune writes a weights file, not a result: its own --out and --force


def _not_called(name: str):
    def fail(*args, **kwargs):
        raise AssertionError(f"{name} ran before its output path was checked")

    return fail


# (command line, the library function that does the long work)
WORK: dict[str, tuple[list[object], str]] = {
    "solve": (["solve", "--seed", 1, "--players", 2], "tranquility.solver.analysis.portfolio.solve"),
    "explain": (["explain", "--seed", 1, "--players", 2], "tranquility.solver.analysis.explain.explain"),
    "analyze": (["analyze", "LINE"], "tranquility.solver.analysis.analyze.analyze"),
    "moves": (["moves", "LINE"], "tranquility.solver.analysis.ranking.rank_moves"),
    "grade": (["grade", "--seed", 1, "--players", 2], "tranquility.puzzles.grade.grade"),
    "simulate": (["simulate", "--seed", 1, "--players", 2], "tranquility.solver.search.policies.simulate"),
    "bench": (["bench", "--deals", 1], "tranquility.solver.batch.bench.run"),
    "generate": (["generate", "--players", 1, "--grade", 1], "tranquility.puzzles.generate.generate"),
}


def _unwritable(tmp_path: Path) -> list[tuple[Path, str]]:
    """Paths no command can write, and the reason each error gives."""
    a_file = write(tmp_path / "a-file", "x")
    paths = [(tmp_path / "no-such-folder" / "out.json", "No such file or directory"), (a_file / "out.json", "Not a directory")]
    if Path("/sys").is_dir():  # read-only even for root
        paths.append((Path("/sys/tranquility-out.json"), "Permission denied"))
    return paths


@pytest.mark.parametrize("command", sorted(WORK))
def test_every_output_path_is_checked_before_the_work_starts(tmp_path, monkeypatch, command):
    """Fixed: `explain --html /nonexistent/x.html` ran the whole solve, then died with a
    traceback. Every path a command writes is checked first: exit 2, one line, no work."""
    args, work = WORK[command]
    line = write(tmp_path / "line.json", line_to_json(random_line(seeded(1, 2), 4)))
    args = [line if a == "LINE" else a for a in args]
    monkeypatch.setattr(work, _not_called(work))
    flags = ["--out", "--html"] if command == "explain" else ["--out"]
    for flag in flags:
        for path, reason in _unwritable(tmp_path):
            if command == "generate" and reason == "No such file or directory":
                continue  # generate creates its --out DIR, missing folders included
            result = run(*args, flag, path)
            assert result.exit_code == 2, (flag, path, result.output)
            assert result.stderr == f"Error: {path}: {reason}\n", (flag, path)
    if command != "generate":
        taken = write(tmp_path / "taken.json", "{}")
        result = run(*args, "--out", taken)
        assert result.exit_code == 2 and "already exists (use --force to overwrite it)" in result.stderr
        assert taken.read_text() == "{}"
    assert not list(tmp_path.glob(".tranquility-check-*")), "the probe left a file behind"


def test_every_command_with_output_takes_json():
    # play is the interactive board: it prints nothing to pipe (its saves are line files).
    for command in COMMANDS:
        assert ("--json" in run(command, "--help").output) == (command != "play"), command


def test_choice_lists_come_from_the_library():
    from tranquility.solver.batch.suites import SUITES
    from tranquility.solver.search.lookahead import MEASURED_POLICIES, SIMULATE_POLICIES
    from tranquility.solver.verdicts import Method, Objective

    def choices(command, name):
        param = next(p for p in command_of(command).params if p.name == name)
        assert isinstance(param.type, click.Choice)
        return tuple(param.type.choices)

    assert choices("solve", "method") == tuple(m.value for m in Method)
    assert choices("solve", "objective") == choices("explain", "objective") == tuple(o.value for o in Objective)
    assert choices("simulate", "policy") == choices("odds", "policy_names") == MEASURED_POLICIES
    assert choices("play", "bots") == SIMULATE_POLICIES  # a bot is a seat: never open-hands
    assert choices("bench", "suite") == tuple(SUITES)


def test_every_bench_suite_of_the_registry_has_its_run():
    from tranquility.cli.commands.bench import RUNS
    from tranquility.solver.batch.bench import SOLVE_SUITES
    from tranquility.solver.batch.suites import SUITES

    assert sorted(SUITES) == sorted([*RUNS, *(suite.name for suite in SOLVE_SUITES)])


def test_help_stays_light():
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "import tranquility.cli.main as m\n"
        "assert CliRunner().invoke(m.main, ['--help']).exit_code == 0\n"
        "commands = sorted(n for n in sys.modules if n.startswith('tranquility.cli.commands.'))\n"
        "assert commands == [], f'--help imported {commands}'\n"
        "for args in (['deal', '--help'], ['rules', '--help'], ['verify', '--help']):\n"
        "    assert CliRunner().invoke(m.main, args).exit_code == 0\n"
        "heavy = ('ortools', 'tranquility.solver.search.policies', 'tranquility.solver.batch.bench',"
        " 'tranquility.solver.search.greedy')\n"
        "heavy = [n for n in heavy if n in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_each_command_entry_names_its_command_and_the_first_sentence_of_its_help():
    from tranquility.cli.commands import COMMANDS as ENTRIES

    for name, entry in ENTRIES.items():
        command = entry.load()
        assert command.name == name
        assert entry.summary == command.get_short_help_str(limit=10**6), name


def test_every_command_has_its_row_in_the_docs_table_of_commands():
    table = (REPO / "docs" / "cli.md").read_text(encoding="utf-8").split("## Commands")[1].split("\n## ")[0]
    rows = [line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")]
    assert rows and sorted(rows) == COMMANDS


# -- flags a command would not honour are rejected ------------------------------------------


TIME_AND_REPRODUCIBLE = "--time-limit is not taken with --reproducible"
WORKERS_AND_REPRODUCIBLE = "--workers is not taken with --reproducible"


@pytest.mark.parametrize(
    "args, message",
    [
        (["bench", "--suite", "puzzles", "--workers", 3], "--workers is not taken by --suite puzzles"),
        (["bench", "--suite", "puzzles", "--time-limit", 5], "--time-limit is not taken by --suite puzzles"),
        (["bench", "--suite", "puzzles", "--reproducible"], "--reproducible is not taken by --suite puzzles"),
        (["bench", "--suite", "explain", "--workers", 3], "--workers is not taken by --suite explain"),
        (["bench", "--suite", "explain", "--reproducible"], "--reproducible is not taken by --suite explain"),
        (["bench", "--json", "--markdown"], "--json and --markdown do not mix"),
        (["solve", "--seed", 1, "--players", 2, "--reproducible", "--time-limit", 5], TIME_AND_REPRODUCIBLE),
        (["solve", "--seed", 1, "--players", 2, "--reproducible", "--workers", 1], WORKERS_AND_REPRODUCIBLE),
        (["analyze", "x.json", "--reproducible", "--time-limit", 5], TIME_AND_REPRODUCIBLE),
        (["explain", "--seed", 1, "--players", 2, "--reproducible", "--workers", 4], WORKERS_AND_REPRODUCIBLE),
        (["explain", "--seed", 1, "--players", 2, "--time-limit", 10, "--critical-time", 10], "no time for the line"),
        (["grade", "--seed", 1, "--players", 2, "--workers", 3], "--workers goes with --time-limit"),
        (["grade", "--seed", 1, "--players", 2, "--reproducible", "--time-limit", 5], TIME_AND_REPRODUCIBLE),
        (["deal", "--seed", 1, "--players", 2, "--force"], "--force only says that --out may overwrite"),
        (["solve", "--seed", 1, "--players", 2, "--force"], "give --out too"),
        (["explain", "--seed", 1, "--players", 2, "--force"], "--force only says that --out or --html may overwrite"),
        (["analyze", "x.json", "--force"], "--force only says that --out or --html may overwrite"),
        (["generate", "--players", 1, "--grade", 1, "--with-solutions"], "--with-solutions writes each solution beside"),
        (["solve", "--seed", 1, "--players", 2, "--time-limit", 0], "'--time-limit'"),
    ],
)
def test_flags_not_honoured_are_rejected(args, message):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in flat(result.stderr) and "Traceback" not in result.output


# -- the options reach the library ------------------------------------------------------------


class Captured(Exception):
    """Raised by a stand-in library function with what it was called with."""


def capture(monkeypatch, target: str):
    calls = []

    def stand_in(*args, **kwargs):
        calls.append((args, kwargs))
        raise KeyboardInterrupt  # stop the command there (exit 130)

    monkeypatch.setattr(target, stand_in)
    return calls


def budget_of(call):
    from tranquility.solver.search.budget import Budget

    args, kwargs = call
    return next(v for v in (*args, *kwargs.values()) if isinstance(v, Budget))


def test_a_solve_replays_the_game_once_and_the_line_it_found_once(monkeypatch):
    """The command checks the game and hands the state it reached to the solver, which
    replays only the line it found (before printing a win): two replays from the start, and
    the final grid is the one that replay reached."""
    from tranquility.solver.engine.state import State

    starts: list[Line] = []
    built: list = []
    initial_state, initial = Line.initial_state, State.initial

    def counted_start(line: Line) -> State:
        starts.append(line)
        return initial_state(line)

    def counted_initial(deal) -> State:
        built.append(deal)
        return initial(deal)

    monkeypatch.setattr(Line, "initial_state", counted_start)
    monkeypatch.setattr(State, "initial", counted_initial)
    done = run("solve", "--seed", 3, "--players", 4)
    assert done.exit_code == 0 and "WIN" in done.output and "Final grid:" in done.output
    assert len(starts) == 2 and len(built) == 2
    assert starts[0].actions == () and len(starts[1].actions) >= 38  # the deal given, then the win


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e400"])
@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["solve", "--seed", 1, "--players", 4, "--time-limit"], "--time-limit"),
        (["odds", "--players", 4, "--deals", 1, "--time-limit"], "--time-limit"),
        (["odds", "--players", 4, "--deals", 1, "--scheduler", "127.0.0.1:1", "--scheduler-timeout"], "--scheduler-timeout"),
        (["explain", "--seed", 1, "--players", 2, "--critical-time"], "--critical-time"),
        (["play", "--seed", 1, "--players", 2, "--hint-time"], "--hint-time"),
    ],
)
def test_seconds_are_finite_numbers(tmp_path, monkeypatch, args, flag, value):
    """A number of seconds is positive and finite: NaN (which passes every comparison) and
    infinity are refused as input, exit 2, naming the flag; nothing runs."""
    monkeypatch.chdir(tmp_path)
    done = run(*args, value)
    assert done.exit_code == 2, done.output
    assert f"Invalid value for '{flag}'" in done.output
    assert "finite number of seconds" in done.output or "not in the range x>0" in done.output
    assert not list(tmp_path.iterdir())  # no odds database was created


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["deal", "--seed", 1, "--players", 4, "--out", ""], "--out '': an empty path names no file"),
        (["solve", "--seed", 1, "--players", 4, "--out", " "], "--out ' ': an empty path names no file"),
        (["explain", "--seed", 1, "--players", 3, "--html", ""], "--html '': an empty path names no file"),
        (["generate", "--players", 1, "--grade", 5, "--out", ""], "--out '': an empty path names no folder"),
        (["odds", "--players", 4, "--deals", 1, "--plot", ""], "--plot '': an empty path names no file"),
    ],
)
def test_an_empty_output_path_is_named_with_its_flag(tmp_path, monkeypatch, args, said):
    """An empty path is the current folder to the file system ("Is a directory"): say which
    flag was given an empty path instead, in one line, exit 2, and write nothing."""
    monkeypatch.chdir(tmp_path)
    done = run(*args)
    assert done.exit_code == 2, done.output
    assert done.output.strip().splitlines() == [f"Error: {said}"]
    assert not list(tmp_path.iterdir())


def test_solve_passes_its_budget(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    calls = capture(monkeypatch, "tranquility.solver.analysis.portfolio.solve")
    assert run("solve", path, "--time-limit", 7, "--workers", 3).exit_code == 130
    assert run("solve", path, "--reproducible").exit_code == 130
    clock, fixed = (budget_of(c) for c in calls)
    assert (clock.seconds, clock.workers, clock.reproducible) == (7, 3, False)
    assert (fixed.workers, fixed.reproducible) == (1, True)


def test_analyze_honours_reproducible_and_workers(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    calls = capture(monkeypatch, "tranquility.solver.analysis.analyze.analyze")
    assert run("analyze", path, "--time-limit", 4, "--workers", 3).exit_code == 130
    assert run("analyze", path, "--reproducible").exit_code == 130
    clock, fixed = (budget_of(c) for c in calls)
    assert (clock.seconds, clock.workers, clock.reproducible) == (4, 3, False)
    assert fixed.reproducible and fixed.workers == 1


def test_explain_splits_its_whole_time_limit(tmp_path, monkeypatch):
    path = small_deal_file(tmp_path)
    calls = capture(monkeypatch, "tranquility.solver.analysis.explain.explain")
    assert run("explain", path, "--time-limit", 30, "--workers", 3).exit_code == 130
    assert run("explain", path, "--time-limit", 30, "--critical-time", 5).exit_code == 130
    assert run("explain", path, "--reproducible").exit_code == 130
    (default, given, fixed) = calls
    assert budget_of(default).seconds == 20 and default[1]["critical_budget"] == 10 and default[1]["total"] == 30
    assert budget_of(default).workers == 3
    assert budget_of(given).seconds == 25 and given[1]["critical_budget"] == 5
    assert budget_of(fixed).reproducible and fixed[1]["total"] is None and fixed[1]["critical_budget"] == 30


def test_grade_is_deterministic_unless_given_a_time_limit(tmp_path, monkeypatch):
    from tranquility.puzzles.grade import PROOF_BUDGET

    path = small_deal_file(tmp_path)
    calls = capture(monkeypatch, "tranquility.puzzles.grade.grade")
    for extra in ([], ["--reproducible"], ["--time-limit", 9, "--workers", 3]):
        assert run("grade", path, *extra).exit_code == 130
    default, explicit, clock = (c[1]["proof"] for c in calls)
    assert default == PROOF_BUDGET and explicit == PROOF_BUDGET
    assert (clock.seconds, clock.workers, clock.reproducible) == (9, 3, False)
    assert clock.search_nodes == PROOF_BUDGET.search_nodes


def test_bench_passes_reproducible_to_the_solve_suites(monkeypatch):
    calls = capture(monkeypatch, "tranquility.solver.batch.bench.run")
    assert run("bench", "--deals", 1, "--reproducible").exit_code == 130
    assert run("bench", "--deals", 1, "--time-limit", 3, "--workers", 4).exit_code == 130
    (fixed, clock) = calls
    assert fixed[1]["reproducible"] is True
    assert clock[0][2:4] == (3, 4) and clock[1]["reproducible"] is False


# -- the JSON is the library's -------------------------------------------------------------------


@pytest.mark.slow
def test_solve_json_is_the_results_to_json(tmp_path, monkeypatch):
    from tranquility.solver.analysis.portfolio import solve
    from tranquility.solver.search.budget import Budget

    path = small_deal_file(tmp_path)
    game = deal(SMALL_RULES, 1, 1)
    for objective in (Objective.ANY, Objective.TURNS):
        result = solve(game, Budget(reproducible=True, workers=1), objective=objective)
        monkeypatch.setattr("tranquility.solver.analysis.portfolio.solve", lambda *a, result=result, **k: result)
        printed = run("solve", path, "--json", "--objective", objective)
        assert printed.exit_code == 0, printed.output
        assert printed.stdout == json.dumps(result.to_json(), indent=1) + "\n"
        assert result.line is not None and result.to_json()["line"] == line_to_json(result.line)


def test_simulate_json_is_the_results_to_json(tmp_path):
    from tranquility.solver.search.policies import simulate

    path = small_deal_file(tmp_path, players=2)
    result = simulate(deal(SMALL_RULES, 2, 1), "random", 5)
    printed = run("simulate", path, "--policy", "random", "--sim-seed", 5, "--json")
    assert printed.exit_code == 0
    assert printed.stdout == json.dumps(result.to_json(), indent=1) + "\n"
    assert (result.policy, result.sim_seed) == ("random", 5)


def test_grade_json_is_the_gradings_to_json():
    from tranquility.puzzles.grade import grade

    game = deal(PRESETS["official"], 1, 6)
    printed = run("grade", "--seed", 6, "--players", 1, "--json")
    assert printed.exit_code == 1  # not graded: no win
    assert printed.stdout == json.dumps(grade(game).to_json(game), indent=1) + "\n"
    data = json.loads(printed.stdout)
    assert data["id"] == "tq1-1p-8cf48077-6" and data["players"] == 1 and data["seed"] == 6
    assert "reproducible" not in data


def test_a_clock_bound_grade_says_it_is_not_reproducible(tmp_path, monkeypatch):
    from dataclasses import replace

    from tranquility.puzzles.grade import grade

    game = deal(PRESETS["official"], 1, 6)
    graded = replace(grade(game), reproducible=False)
    monkeypatch.setattr("tranquility.puzzles.grade.grade", lambda *a, **k: graded)
    text = run("grade", "--seed", 6, "--players", 1, "--time-limit", 5)
    assert text.exit_code == 1 and "Not reproducible" in text.stdout
    data = json.loads(run("grade", "--seed", 6, "--players", 1, "--time-limit", 5, "--json").stdout)
    assert data["reproducible"] is False and data == graded.to_json(game)


def test_explain_json_is_the_explanations_to_json(tmp_path, monkeypatch):
    from tranquility.solver.analysis.explain import explain
    from tranquility.solver.search.budget import Budget

    path = small_deal_file(tmp_path)
    explained = explain(deal(SMALL_RULES, 1, 1), budget=Budget(seconds=2), critical_budget=1)
    monkeypatch.setattr("tranquility.solver.analysis.explain.explain", lambda *a, **k: explained)
    printed = run("explain", path, "--json")
    assert printed.exit_code == 0
    assert printed.stdout == json.dumps(explained.to_json(), indent=1) + "\n"


def test_rules_json_is_the_librarys():
    from tranquility.solver.formats.rules_text import rules_json

    printed = run("rules", "--rules", "hungarian", "--json")
    assert printed.stdout == json.dumps(rules_json(PRESETS["hungarian"]), indent=1) + "\n"


def fake_report():
    from tranquility.solver.batch.bench import GroupSummary, Report

    group = GroupSummary("official", 1, 1, 1.0, {"win": 1, "no-win": 0, "unknown": 0}, {"greedy": 1}, 0.1, 0.1, 0.1, True)
    return Report("official", 60.0, "a test machine", [group], [])


def test_bench_json_and_out_are_the_reports(tmp_path, monkeypatch):
    report = fake_report()
    monkeypatch.setattr("tranquility.solver.batch.bench.run", lambda *a, **k: report)
    out = tmp_path / "bench.json"
    printed = run("bench", "--deals", 1, "--json", "--out", out)
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == json.dumps(report.to_json(cases=False), indent=1) + "\n"
    assert json.loads(out.read_text()) == report.to_json()
    assert "| official | 1 | 1 | 100.0% |" in run("bench", "--deals", 1, "--markdown").stdout


def test_bench_puzzles_honours_markdown(monkeypatch):
    from tranquility.puzzles.timing import PuzzleRow

    rows = [PuzzleRow(1, 2, {0: 1, 1: 1, 2: 0, 3: 0, 4: 0, 5: 0}, {0: [0.5], 1: [0.25], 2: [], 3: [], 4: [], 5: []}, 0.1, 0.75)]
    monkeypatch.setattr("tranquility.puzzles.timing.run_puzzle_suite", lambda *a, **k: rows)
    markdown = run("bench", "--suite", "puzzles", "--deals", 2, "--markdown")
    assert markdown.exit_code == 0 and markdown.stdout.startswith("| players | deals |")
    table = run("bench", "--suite", "puzzles", "--deals", 2)
    assert table.exit_code == 0 and "Benchmark: suite puzzles" in table.stdout and "| players" not in table.stdout
    data = json.loads(run("bench", "--suite", "puzzles", "--deals", 2, "--json").stdout)
    assert data == {"suite": "puzzles", "interrupted": False, "rows": [rows[0].to_json()]}


@pytest.mark.parametrize("command", ["solve", "explain", "analyze", "moves", "grade", "simulate", "show"])
def test_a_deal_that_breaks_a_rule_is_unusable_input(tmp_path, command):
    """Every command but verify (whose question it is) exits 2 on an impossible deal, in
    verify's words: the file, "deal:", the card."""
    data = deal_to_json(seeded(1, 2))
    card = data["piles"][0][0]
    data["piles"][1].append(card)
    path = write(tmp_path / "twice.json", data)
    result = run(command, path)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"Error: {path}: deal: island {card} is dealt 2 times, expected 1")
    assert len(result.stderr.splitlines()) == 1


def test_solve_out_without_a_win_says_so(tmp_path):
    out = tmp_path / "win.json"
    result = run("solve", "--seed", 6, "--players", 1, "--out", out)
    assert result.exit_code == 0 and not out.exists()
    assert f"{out} not written: no winning line (no-win)" in result.stderr


# -- standard input (FILE -), and every FILE read once ------------------------------------------

# Where each working command hands its game on (stopped there: exit 130).
GAME_WORK = {
    "solve": "tranquility.solver.analysis.portfolio.solve",
    "explain": "tranquility.solver.analysis.explain.explain",
    "analyze": "tranquility.solver.analysis.analyze.analyze",
    "moves": "tranquility.solver.analysis.ranking.rank_moves",
    "simulate": "tranquility.solver.search.policies.simulate",
    "grade": "tranquility.puzzles.grade.grade",
}
GAME_COMMANDS = ["verify", "show", *GAME_WORK]


def piped(text: str, *args):
    return CliRunner(env=ENV).invoke(main_group, [str(a) for a in args], input=text, catch_exceptions=False)


def small_puzzle_file(tmp_path: Path) -> Path:
    """The small deal with a puzzle block (what only verify, show and play read)."""
    data = {**deal_to_json(deal(SMALL_RULES, 1, 1)), "puzzle": {"id": "tq1-test", "grade": 3}}
    return write(tmp_path / "puzzle.json", data)


@pytest.mark.parametrize("command", ["verify", "show"])
def test_dash_reads_standard_input_for_verify_and_show(tmp_path, command):
    path = small_puzzle_file(tmp_path)
    from_file = run(command, path, "--json")
    from_stdin = piped(path.read_text(), command, "-", "--json")
    assert from_stdin.exit_code == from_file.exit_code == 0, from_stdin.output
    assert from_stdin.stdout == from_file.stdout
    drawn = piped(path.read_text(), command, "-")
    assert drawn.exit_code == 0 and drawn.stdout.startswith("<stdin>: puzzle tq1-test, grade 3 of 5, 1 player(s)")


@pytest.mark.parametrize("command", sorted(GAME_WORK))
def test_dash_hands_the_game_on_standard_input_to_the_work(tmp_path, monkeypatch, command):
    path = small_deal_file(tmp_path)
    calls = capture(monkeypatch, GAME_WORK[command])
    assert run(command, path).exit_code == 130
    done = piped(path.read_text(), command, "-")
    assert done.exit_code == 130, done.output
    from_file, from_stdin = calls
    assert from_stdin[0][0] == from_file[0][0]


def test_bad_input_on_standard_input_is_named_stdin(tmp_path, monkeypatch):
    for command in GAME_COMMANDS:
        done = piped("{oops", command, "-")
        assert done.exit_code == 2, (command, done.output)
        assert done.stderr.startswith("Error: <stdin>: not valid JSON (line 1, column 2") and len(done.stderr.splitlines()) == 1
    twice = deal_to_json(seeded(1, 2))
    twice["piles"][1].append(twice["piles"][0][0])
    done = piped(json.dumps(twice), "solve", "-")
    assert done.exit_code == 2 and done.stderr.startswith("Error: <stdin>: deal: island ")


def test_a_notation_game_on_standard_input_names_its_deal_file_from_the_current_folder(tmp_path, monkeypatch):
    unseeded = {k: v for k, v in deal_to_json(seeded(1, 2)).items() if k != "seed"}
    write(tmp_path / "deal.json", unseeded)
    monkeypatch.chdir(tmp_path)
    done = piped("deal-file deal.json\n", "verify", "-", "--notation")
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("deal-file deal.json\n")
    # A deal no seed gives is named by its file in the notation; standard input has no path.
    done = piped(json.dumps(unseeded), "verify", "-", "--notation")
    assert done.exit_code == 2 and done.stderr.startswith("Error: <stdin>: ") and "give the file instead of -" in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_play_refuses_standard_input_which_is_its_keyboard(tmp_path):
    done = piped(small_deal_file(tmp_path).read_text(), "play", "-")
    assert done.exit_code == 2
    assert done.stderr.startswith("Error: play reads its moves from the keyboard, so its game cannot come from - ")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("form", ["json", "notation"])
@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_opens_its_file_once(tmp_path, monkeypatch, command, form):
    """A pipe, a FIFO or /dev/stdin gives its bytes once: the game, a puzzle's header and
    the deal a notation file names all come from one read of FILE."""
    path = small_puzzle_file(tmp_path)
    if form == "notation":
        path = write(tmp_path / "game.tq", "deal-file puzzle.json\n")
    if command in GAME_WORK:
        capture(monkeypatch, GAME_WORK[command])
    opened: dict[str, int] = {}
    real_open = Path.open

    def counted(self, *args, **kwargs):
        opened[str(self)] = opened.get(str(self), 0) + 1
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", counted)
    done = run(command, path, *(["--notation"] if command == "verify" else []))
    refused = (command, form) == ("grade", "notation")  # a notation file is a line, which grade refuses
    assert done.exit_code == (2 if refused else 130 if command in GAME_WORK else 0), done.output
    assert opened[str(path)] == 1


@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="no /dev/stdin here")
@pytest.mark.parametrize("command", ["verify", "show"])
def test_a_real_pipe_to_dev_stdin_works(tmp_path, command):
    path = small_puzzle_file(tmp_path)
    program = "from tranquility.cli.main import main; main(prog_name='tranquility')"
    done = subprocess.run(
        [sys.executable, "-c", program, command, "/dev/stdin"],
        input=path.read_text(),
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("/dev/stdin: puzzle tq1-test, grade 3 of 5")


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["solve", "--seed", "x"],
            "Error: Invalid value for '--seed': 'x' is not a valid integer range. (see 'tranquility solve --help')",
        ),
        (["solvee"], "Error: No such command 'solvee'. Did you mean 'solve'? (see 'tranquility --help')"),
        (["--debugx", "deal"], "Error: No such option '--debugx'. Did you mean '--debug'? (see 'tranquility --help')"),
        (
            ["deal", "--seed", "1"],
            "Error: missing option --players: a seeded deal needs --seed N and --players P (see 'tranquility deal --help')",
        ),
        (
            ["bench", "--json", "--markdown"],
            "Error: --json and --markdown do not mix; choose one (see 'tranquility bench --help')",
        ),
    ],
)
def test_a_usage_error_is_one_line_naming_the_help(argv, says):
    """As every input error: one line, exit 2 (click's own is four: usage, hint, blank, error)."""
    result = CliRunner().invoke(main_group, argv, prog_name="tranquility")
    assert (result.exit_code, result.stderr, result.stdout) == (2, says + "\n", "")


@pytest.mark.parametrize("command", ["verify", "show", "solve", "analyze", "moves", "simulate", "grade", "explain", "play"])
def test_an_empty_file_argument_is_named_not_read_as_the_current_folder(command):
    result = CliRunner().invoke(main_group, [command, ""])
    assert (result.exit_code, result.stderr) == (2, "Error: FILE is empty: give a file's path, or - for standard input\n")
