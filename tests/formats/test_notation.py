"""The game notation (docs/notation.md): tokens, files, round trips, errors, and the CLI."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tranquility.solver.engine.actions import (
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import PRESETS, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.formats.json_values import FormatError
from tranquility.solver.formats.notation import (
    NotationError,
    format_action,
    format_actions,
    parse_actions,
    parse_notation,
    read_notation_file,
    write_notation,
)
from tranquility.solver.formats.reading import read_game_file

from ..helpers import SMALL, WON, dense, random_game, run, sparse, write

# A rule set the solver decides in well under a second.


# (rules, players): every kind of token, monsters and both rocks modes among them.
CONFIGS = [
    (dense(), 1),
    (dense(), 2),
    (dense(rocks="manual"), 1),
    (dense(rocks="manual", monsters=1), 2),
    (dense(monsters=1), 1),
    (sparse(), 4),
    (sparse(rocks="manual", monsters=2, order="grid"), 3),
    (sparse(rocks="auto", removed=2), 2),
    (sparse(adjacency="orthogonal", order="grid", finish=1), 5),
    (sparse(start_discards=10), 3),
]


def playout(rules: Rules, players: int, seed: int, play_seed: int) -> Line:
    game = deal(rules, players, seed)
    _, actions = random_game(State.initial(game), random.Random(play_seed))
    return Line(game, tuple(actions))


# -- tokens ------------------------------------------------------------------------------


EXAMPLES = [
    ("41@20", PlayIsland(seat=0, card=41, cell=20)),
    ("41@20-3,77", PlayIsland(seat=0, card=41, cell=20, discard=(3, 77))),
    ("S/12|44,F|5,9,60|2,71", PlayStart(seat=0, team_discard=((12,), (44, "F"), (5, 9, 60), (2, 71)))),
    ("S/|12|", PlayStart(seat=0, team_discard=((), (12,), ()))),
    ("S/", PlayStart(seat=0, team_discard=((),))),
    ("F", PlayFinish(seat=0)),
    ("x12,F", DiscardTwo(seat=0, discard=(12, "F"))),
    ("M@20", PlayMonster(seat=0, cell=20)),
    ("41@20>3", PlayIsland(seat=0, card=41, cell=20, rocks=RocksMove(3))),
    ("41@20-3>stay-12,44", PlayIsland(seat=0, card=41, cell=20, discard=(3,), rocks=RocksMove(None, (12, 44)))),
    ("S/4|>0", PlayStart(seat=0, team_discard=((4,), ()), rocks=RocksMove(0))),
    ("xM,S>stay-1,F", DiscardTwo(seat=0, discard=("S", "M"), rocks=RocksMove(None, (1, "F")))),
    ("M@0>stay", PlayMonster(seat=0, cell=0, rocks=RocksMove(None))),
]


@pytest.mark.parametrize("text, action", EXAMPLES, ids=[t for t, _ in EXAMPLES])
def test_each_token(text, action):
    assert parse_actions(text, 1) == (action,)
    assert format_action(action) == text


def test_payments_are_multisets_and_written_sorted():
    (action,) = parse_actions("5@3-F,9,2", 1)
    assert isinstance(action, PlayIsland)
    assert action.discard == (2, 9, "F")
    assert format_action(action) == "5@3-2,9,F"


def test_seats_follow_turn_order_and_whitespace_and_comments_are_free():
    text = "# a game\n12@1  x3,4 # seat 1\n\n\tF   M@2#no space needed\nS/||\n"
    actions = parse_actions(text, 3)
    assert [a.seat for a in actions] == [0, 1, 2, 0, 1]
    assert [type(a) for a in actions] == [PlayIsland, DiscardTwo, PlayFinish, PlayMonster, PlayStart]
    assert parse_actions("", 2) == () and parse_actions("# nothing\n", 2) == ()


def test_counts_are_the_engines_business():
    """Shape only: a one-card discard or a short Start reads; the engine rejects them."""
    (discard,) = parse_actions("x12", 1)
    assert isinstance(discard, DiscardTwo) and discard.discard == (12,)
    (start,) = parse_actions("S/1|2", 4)
    assert isinstance(start, PlayStart) and start.team_discard == ((1,), (2,))


@pytest.mark.parametrize(
    "action",
    [
        DiscardTwo(seat=0),
        PlayStart(seat=0),
        PlayIsland(seat=0, card=3, cell=1, rocks=RocksMove(2, (4, 5))),
        PlayIsland(seat=0, card=-3, cell=1),
    ],
)
def test_actions_no_token_holds(action):
    with pytest.raises(ValueError):
        format_action(action)


def test_format_actions_lines():
    actions = parse_actions("1@0 2@1-1 x3,4 S/5| F", 2)
    assert format_actions(actions) == "1@0 2@1-1 x3,4 S/5| F"
    assert format_actions(actions, per_line=2) == (
        "1@0   2@1-1  # turns 1-2\nx3,4  S/5|   # turns 3-4\nF            # turn 5"
    )
    assert parse_actions(format_actions(actions, per_line=2), 2) == actions


def test_docs_example():
    actions = parse_actions("41@20-3,77 S/12|44,F|5,9,60|71,2 x12,F F", players=4)
    assert format_actions(actions) == "41@20-3,77 S/12|44,F|5,9,60|2,71 x12,F F"


# -- round trips -------------------------------------------------------------------------


@given(
    config=st.sampled_from(range(len(CONFIGS))),
    seed=st.integers(0, 2**64 - 1),
    play_seed=st.integers(0, 2**32),
)
def test_round_trip_random_playouts(config, seed, play_seed):
    rules, players = CONFIGS[config]
    line = playout(rules, players, seed, play_seed)
    assert parse_actions(format_actions(line.actions), players) == line.actions
    text = write_notation(line)
    assert parse_notation(text) == line
    assert write_notation(parse_notation(text)) == text


def token_kinds(token: str) -> set[str]:
    kinds = {
        "free island": r"^\d+@\d+(>|$)",
        "paid island": r"^\d+@\d+-",
        "start": r"^S/",
        "finish": r"^F",
        "discard": r"^x",
        "monster": r"^M@",
        "rocks row": r">\d",
        "rocks stay": r">stay-",
    }
    return {kind for kind, pattern in kinds.items() if re.search(pattern, token)}


def test_round_trips_cover_every_kind_of_token():
    """Fixed playouts (a won game among them) that use every kind of token and suffix."""
    seen: set[str] = set()
    games = [(dense(), 1, 20), (dense(rocks="manual"), 1, 1), *[(dense(rocks="manual", monsters=1), 2, s) for s in range(6)]]
    for rules, players, seed in games:
        line = playout(rules, players, seed, seed)
        text = format_actions(line.actions)
        assert parse_actions(text, players) == line.actions
        for token in text.split():
            seen |= token_kinds(token)
    assert seen == {"free island", "paid island", "start", "finish", "discard", "monster", "rocks row", "rocks stay"}


def test_seeded_header_picks_the_closest_preset():
    cases = {
        (PRESETS["official"], 4, 1): "deal 1 4\n",
        (PRESETS["hungarian"].with_options({"monsters": 4}), 3, 7): "deal 7 3 rules hungarian rule monsters=4\n",
        (PRESETS["rocks-manual"].with_options({"rows": 3}), 2, 12): "deal 12 2 rules rocks-manual rule rows=3\n",
        (dense(), 2, 2**64 - 1): "deal 18446744073709551615 2 rule rows=2 rule cols=2 rule islands=10 "
        "rule finish=3 rule hand=4 rule start_discards=1\n",
    }
    for (rules, players, seed), text in cases.items():
        game = deal(rules, players, seed)
        assert write_notation(game) == text
        assert parse_notation(text) == Line(game)


def test_a_deal_no_seed_gives_needs_a_deal_file(tmp_path):
    line = playout(dense(), 2, 5, 5)
    moved = Line(replace(line.deal, seed=None), line.actions)
    with pytest.raises(ValueError, match="deal-file"):
        write_notation(moved)
    write(tmp_path / "deal.json", deal_to_json(moved.deal))
    text = write_notation(moved, deal_file="deal.json")
    assert text.startswith("deal-file deal.json\n")
    assert parse_notation(text, tmp_path) == moved


# -- files -------------------------------------------------------------------------------


def test_deal_file_is_relative_to_the_notation_file(tmp_path):
    game = deal(dense(), 2, 3)
    (tmp_path / "deals dir").mkdir()
    write(tmp_path / "deals dir" / "my deal.json", deal_to_json(game))
    (tmp_path / "games").mkdir()
    path = write(tmp_path / "games" / "g.tq", "# comment first\n\ndeal-file ../deals dir/my deal.json  # spaces\n")
    assert read_notation_file(path) == Line(game)
    assert read_game_file(path) == Line(game)


def test_deal_file_may_be_a_line_file_whose_actions_are_ignored(tmp_path):
    line = playout(dense(), 2, 3, 3)
    write(tmp_path / "line.json", line_to_json(line))
    path = write(tmp_path / "g.tq", "deal-file line.json\n" + format_actions(line.actions[:2]))
    assert read_notation_file(path) == Line(line.deal, line.actions[:2])


def test_read_game_file_tells_notation_from_json(tmp_path):
    line = playout(dense(), 1, 4, 4)
    assert read_game_file(write(tmp_path / "a.json", line_to_json(line))) == line
    assert read_game_file(write(tmp_path / "a.tq", "\n  " + write_notation(line))) == line
    assert read_game_file(write(tmp_path / "bom.tq", "\ufeff" + write_notation(line))) == line
    for content, message in [("[1, 2]", "JSON object"), ("{oops", "not valid JSON"), ("", "not valid JSON")]:
        with pytest.raises(FormatError, match=message) as caught:
            read_game_file(write(tmp_path / "b.json", content))
        assert not isinstance(caught.value, NotationError)


# -- errors ------------------------------------------------------------------------------

# (text after a good first token on line 1, message, column of the error on line 2)
TOKEN_ERRORS = {
    "island-no-cell": ("41@", "expected a cell number after '@'", 6),
    "island-no-at": ("41x", "expected '@' and a cell", 5),
    "island-empty-cost": ("41@20-", "expected a card", 9),
    "island-cost-trailing-comma": ("41@20-3,", "expected a card", 11),
    "island-bad-card": ("41@20-3,Q", "expected a card (an island number, S, F or M), got 'Q'", 11),
    "long-number": ("1234567890@1", "at most 9 digits", 3),
    "start-no-slash": ("S", "expected '/' after S", 4),
    "start-bad-group": ("S/1|x", "'|' in a Start", 7),
    "discard-nothing": ("x", "expected a card", 4),
    "monster-no-cell": ("M@", "expected a cell number after 'M@'", 5),
    "monster-no-at": ("M20", "expected '@' and a cell after M", 4),
    "finish-extra": ("F3", "expected the end of the token", 4),
    "rocks-empty": ("41@20>", "expected a row number or 'stay'", 9),
    "rocks-bad-word": ("41@20>st", "expected a row number or 'stay'", 11),
    "rocks-stay-dash": ("41@20>stay-", "expected a card", 14),
    "unknown-letter": ("Q", "expected an action: ISLAND@CELL", 3),
    "lowercase-finish": ("f", "expected an action", 3),
    "negative": ("-4@2", "expected an action", 3),
    "unicode-digit": ("\u0664@2", "expected an action", 3),
}


@pytest.mark.parametrize("name", list(TOKEN_ERRORS))
def test_token_errors(name):
    bad, message, column = TOKEN_ERRORS[name]
    with pytest.raises(NotationError) as caught:
        parse_actions("12@1\n  " + bad + " 3@4", 2)
    error = caught.value
    assert message in str(error)
    assert (error.line, error.column, error.token) == (2, column, bad)
    assert str(error).startswith(f"line 2, column {column}: {bad!r}: ")


HEADER_ERRORS = {
    "empty": ("", "no header"),
    "comments-only": ("# nothing\n", "no header"),
    "unknown-word": ("dael 1 2", "expected the header 'deal SEED PLAYERS"),
    "tokens-first": ("12@1", "expected the header"),
    "deal-alone": ("deal", "'deal SEED PLAYERS'"),
    "deal-no-players": ("deal 1", "'deal SEED PLAYERS'"),
    "bad-seed": ("deal x 2", "expected a seed"),
    "seed-too-big": ("deal 18446744073709551616 2", "cannot deal: seed must be"),
    "players-zero": ("deal 1 0", "cannot deal: players must be 1 to 5, got 0"),
    "players-word": ("deal 1 two", "expected a player count"),
    "unknown-preset": ("deal 1 2 rules foo", "expected a preset (official, hungarian"),
    "preset-missing": ("deal 1 2 rules", "expected a value after 'rules'"),
    "two-presets": ("deal 1 2 rules official rules hungarian", "a second 'rules PRESET'"),
    "rule-no-equals": ("deal 1 2 rule rows", "expected KEY=VALUE"),
    "rule-unknown-key": ("deal 1 2 rule colour=3", "rule 'colour': unknown rule key"),
    "rule-not-int": ("deal 1 2 rule rows=six", "rule 'rows': must be an integer"),
    "rule-out-of-range": ("deal 1 2 rule rows=0", "cannot deal: rule 'rows': must be in 1..20, got 0"),
    "too-few-cards": ("deal 1 5 rule islands=10", "cannot deal:"),
    "junk-word": ("deal 1 2 monsters=4", "expected 'rules PRESET' or 'rule KEY=VALUE'"),
    "deal-file-no-path": ("deal-file", "expected a path after 'deal-file'"),
    "deal-file-missing": ("deal-file nope.json", "cannot read the deal file: "),
}


@pytest.mark.parametrize("name", list(HEADER_ERRORS))
def test_header_errors(tmp_path, name):
    header, message = HEADER_ERRORS[name]
    with pytest.raises(NotationError, match=re.escape(message)) as caught:
        parse_notation(header, tmp_path)
    assert re.match(r"line \d+, column \d+: ", str(caught.value))


def test_deal_file_must_be_json(tmp_path):
    write(tmp_path / "other.tq", "deal 1 1\n")
    write(tmp_path / "bad.json", {"format": "tranquility-deal/1"})
    for target, message in [("other.tq", "not valid JSON"), ("bad.json", "missing key 'piles'")]:
        with pytest.raises(NotationError, match=message):
            parse_notation(f"deal-file {target}\n", tmp_path)


def test_players_must_be_1_to_5():
    for players in (0, 6, True):
        with pytest.raises(NotationError, match="players must be 1 to 5"):
            parse_actions("F", players)


# -- the command line --------------------------------------------------------------------


def small_game(tmp_path, tokens: str = "", name: str = "game.tq"):
    return write(tmp_path / name, f"deal 1 1 {SMALL}\n{tokens}\n")




def test_verify_a_notation_file(tmp_path):
    path = small_game(tmp_path, WON)
    result = run("verify", path, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"legal": True, "won": True, "status": "won", "turns": 8, "error": None}
    text = run("verify", path)
    assert text.exit_code == 0 and "line of 8 action(s)" in text.stdout


def test_verify_a_notation_file_that_breaks_a_rule_exit_1(tmp_path):
    path = small_game(tmp_path, "10@4 7@2 1@0 S/2,5 8@3")
    result = run("verify", path, "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"] == (
        "turn 5: seat 0 plays 8 at cell 3, paying nothing: 8 at cell 3 costs 1; the action discards 0 card(s)"
    )


@pytest.mark.parametrize(
    "content, message",
    [
        ("deal 1 1\n41@", "line 2, column 4: '41@': expected a cell number"),
        (f"deal 1 1 {SMALL}\n10@4 7@2\n  1@0 S2,5", "line 3, column 8: 'S2,5': expected '/' after S"),
        ("deal 1 9", "line 1, column 1: 'deal': cannot deal: players must be 1 to 5"),
        ("game on", "line 1, column 1: 'game': expected the header"),
        ("deal-file missing.json", "missing.json: no such file"),
    ],
)
def test_verify_bad_notation_exit_2(tmp_path, content, message):
    path = write(tmp_path / "bad.tq", content)
    for extra in ([], ["--json"], ["--notation"]):
        result = run("verify", path, *extra)
        assert result.exit_code == 2, result.output
        assert result.stdout == "" and "Traceback" not in result.output
        assert result.stderr.startswith(f"Error: {path}: ") and message in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_verify_notation_output_reads_back(tmp_path):
    line = playout(sparse(rocks="manual", monsters=2, order="grid"), 3, 11, 11)
    source = write(tmp_path / "line.json", line_to_json(line))
    result = run("verify", source, "--notation")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("deal 11 3 rules rocks-manual rule rows=3 rule cols=3 ")
    verdict = verify(line)
    assert result.stdout.endswith(f"# verify: legal, status {verdict.status} after {verdict.turns} turn(s)\n")
    assert read_game_file(write(tmp_path / "back.tq", result.stdout)) == line


def test_verify_notation_names_the_deal_file_when_no_seed_gives_it(tmp_path, monkeypatch):
    line = playout(dense(), 2, 5, 5)
    data = line_to_json(line)
    data["deal"]["seed"] = None
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "line.json", data)
    printed = run("verify", "line.json", "--notation").stdout
    assert printed.startswith("deal-file line.json\n")
    write(tmp_path / "game.tq", printed)
    # A notation file's deal file is named again, not the notation file itself.
    assert run("verify", "game.tq", "--notation").stdout == printed
    assert run("verify", "game.tq", "--json").exit_code == 0


def test_verify_notation_of_an_illegal_line_says_so(tmp_path):
    path = small_game(tmp_path, "10@4 7@2 1@0 S/2,5 8@3")
    result = run("verify", path, "--notation")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1].startswith("# verify: ILLEGAL: turn 5: seat 0 plays 8 at cell 3")


def test_verify_json_and_notation_do_not_mix(tmp_path):
    result = run("verify", small_game(tmp_path), "--json", "--notation")
    assert result.exit_code == 2 and "do not mix" in result.stderr


def test_solve_a_notation_file(tmp_path):
    path = small_game(tmp_path, "10@4 7@2")
    result = run("solve", path, "--time-limit", 5, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["verdict"] == "win"
    assert data["line"]["actions"][:2] == line_to_json(read_notation_file(path))["actions"]
    won = write(tmp_path / "won.json", data["line"])
    assert json.loads(run("verify", won, "--json").stdout)["won"] is True
