"""Deal and line files (tranquility-deal/1, tranquility-line/1) and the replay verifier."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tranquility.solver.engine.actions import (
    Action,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from tranquility.solver.engine.cards import FINISH, MONSTER, START
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL, PRESETS, Rules
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import (
    DEAL_FORMAT,
    LINE_FORMAT,
    action_from_json,
    action_to_json,
    deal_from_json,
    deal_to_json,
    line_from_json,
    line_to_json,
)
from tranquility.solver.formats.json_values import FormatError, read_json, write_json
from tranquility.solver.formats.reading import read_game_file

from ..helpers import TINY, simple_deal, tiny_rules

# A won game on one row of four cells (hand-checked, see test_won_line).
WIN_RULES = tiny_rules(start_discards=1)
WIN = (
    PlayIsland(seat=0, card=1, cell=0),
    PlayStart(seat=0, team_discard=((3,),)),
    PlayIsland(seat=0, card=5, cell=3),
    PlayIsland(seat=0, card=2, cell=1, discard=(6,)),
    PlayIsland(seat=0, card=4, cell=2, discard=(7,)),
    PlayFinish(seat=0),
)


def win_line(actions=WIN) -> Line:
    return Line(simple_deal(WIN_RULES), tuple(actions))


def through_json(data):
    return json.loads(json.dumps(data))


def format_error(read, data, *words: str) -> str:
    with pytest.raises(FormatError) as err:
        read(data)
    for word in words:
        assert word in str(err.value)
    return str(err.value)


# -- round trips -----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_round_trip(name):
    d = deal(PRESETS[name], 3, 5)
    data = through_json(deal_to_json(d))
    assert data["format"] == DEAL_FORMAT and data["dealer"] == "v1" and data["seed"] == 5
    assert set(data["rules"]) == set(OFFICIAL.to_dict())
    assert deal_from_json(data) == d


def test_deal_tokens():
    data = deal_to_json(deal(Rules(monsters=3), 2, 1))
    tokens = {c for pile in data["piles"] for c in pile if isinstance(c, str)}
    assert tokens == {START, FINISH, MONSTER}


ALL_ACTIONS: list[Action] = [
    PlayIsland(seat=0, card=41, cell=20, discard=(3, 77)),
    PlayIsland(seat=0, card=41, cell=20),
    PlayStart(seat=1, team_discard=((12,), (44, FINISH), (5, 9, 60), (71, 2))),
    DiscardTwo(seat=2, discard=(12, FINISH)),
    PlayMonster(seat=3, cell=20),
    PlayFinish(seat=0),
    PlayIsland(seat=0, card=4, cell=2, discard=(1,), rocks=RocksMove(3)),
    DiscardTwo(seat=1, discard=(START, MONSTER), rocks=RocksMove(None, (8, 9))),
    PlayStart(seat=0, team_discard=((), ()), rocks=RocksMove(0)),
    PlayMonster(seat=0, cell=1, rocks=RocksMove(None, (FINISH, FINISH))),
]


@pytest.mark.parametrize("action", ALL_ACTIONS, ids=repr)
def test_action_round_trip(action):
    assert action_from_json(through_json(action_to_json(action)), "a") == action


def test_the_format_examples_of_actions_parse():
    example = [
        {"seat": 0, "play": 41, "cell": 20, "discard": [3, 77]},
        {"seat": 1, "play": "S", "team_discard": [[12], [44, "F"], [5, 9, 60], [71, 2]]},
        {"seat": 2, "discard": [12, "F"]},
        {"seat": 3, "play": "M", "cell": 20},
        {"seat": 0, "play": "F"},
    ]
    assert [action_from_json(a, "a") for a in example] == ALL_ACTIONS[:1] + ALL_ACTIONS[2:6]


def test_action_json_shapes():
    assert action_to_json(ALL_ACTIONS[1]) == {"seat": 0, "play": 41, "cell": 20, "discard": []}
    assert action_to_json(ALL_ACTIONS[3]) == {"seat": 2, "discard": [12, "F"]}
    assert action_to_json(ALL_ACTIONS[5]) == {"seat": 0, "play": "F"}
    assert action_to_json(ALL_ACTIONS[7]) == {"seat": 1, "discard": [MONSTER, START], "rocks": "stay", "rocks_discard": [8, 9]}
    assert action_to_json(ALL_ACTIONS[6])["rocks"] == 3


def test_discards_are_multisets():
    a = action_from_json({"seat": 0, "discard": ["F", 3]}, "a")
    b = action_from_json({"seat": 0, "discard": [3, "F"]}, "a")
    assert a == b


def test_line_round_trip():
    line = win_line()
    data = through_json(line_to_json(line))
    assert data["format"] == LINE_FORMAT
    assert data["deal"]["format"] == DEAL_FORMAT
    assert line_from_json(data) == line


def test_line_without_actions_is_a_position():
    data = {"format": LINE_FORMAT, "deal": deal_to_json(simple_deal(WIN_RULES))}
    assert line_from_json(data).actions == ()


# -- partial rules, unknown keys --------------------------------------------------------


def tiny_deal_json(**changes) -> dict:
    data = through_json(deal_to_json(simple_deal(tiny_rules(), 2)))
    data.update(changes)
    return data


def test_partial_rules_take_defaults_and_are_written_in_full():
    data = tiny_deal_json(rules=dict(TINY))
    d = deal_from_json(data)
    assert d.rules == tiny_rules()
    assert deal_to_json(d)["rules"] == tiny_rules().to_dict()
    # No rules at all: the official game (and then these piles are wrong for it).
    data = through_json(deal_to_json(simple_deal(tiny_rules(), 1)))
    del data["rules"]
    assert deal_from_json(data).rules == OFFICIAL


def test_unknown_rule_key_names_it():
    format_error(deal_from_json, tiny_deal_json(rules={**TINY, "colour": "red"}), "deal.rules", "'colour'")


def test_bad_rule_value_names_it():
    format_error(deal_from_json, tiny_deal_json(rules={**TINY, "rows": 0}), "deal.rules", "'rows'")
    format_error(deal_from_json, tiny_deal_json(rules={**TINY, "order": "spiral"}), "'order'")
    format_error(deal_from_json, tiny_deal_json(rules=[1]), "deal.rules", "object")


def test_unknown_action_key_names_it():
    format_error(lambda a: action_from_json(a, "turn 4"), {"seat": 0, "discard": [1, 2], "why": "x"}, "turn 4", "'why'")


def test_unknown_top_level_keys_are_ignored():
    data = tiny_deal_json(puzzle={"goal": "win"}, comment="hello")
    assert deal_from_json(data) == simple_deal(tiny_rules(), 2)
    line = through_json(line_to_json(win_line()))
    line["note"] = 1
    assert line_from_json(line) == win_line()


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"format": "tranquility-deal/2"}, ["deal.format", "tranquility-deal/1"]),
        ({"format": None}, ["deal.format"]),
        ({"piles": "abc"}, ["deal.piles", "list of piles"]),
        ({"piles": [[1, 2, "X"]]}, ["deal.piles[0][2]", "not a card"]),
        ({"piles": [[1, 2.5]]}, ["deal.piles[0][1]"]),
        ({"piles": [[1, True]]}, ["deal.piles[0][1]"]),
        ({"piles": [[1, None]]}, ["deal.piles[0][1]"]),
        ({"piles": [5]}, ["deal.piles[0]", "list of cards"]),
        ({"seed": -1}, ["deal.seed", ">= 0"]),
        ({"seed": "42"}, ["deal.seed"]),
        ({"rocks_row": "2"}, ["deal.rocks_row"]),
        ({"rocks_rolls": 5}, ["deal.rocks_rolls"]),
        ({"rocks_rolls": [1, -2]}, ["deal.rocks_rolls[1]"]),
        ({"removed_islands": 3}, ["deal.removed_islands"]),
        ({"removed_islands": [0]}, ["deal.removed_islands[0]", ">= 1"]),
        ({"dealer": 1}, ["deal.dealer"]),
    ],
)
def test_deal_format_errors(changes, words):
    format_error(deal_from_json, tiny_deal_json(**changes), *words)


def test_deal_must_be_an_object_with_piles():
    format_error(deal_from_json, [1, 2], "must be a JSON object")
    data = tiny_deal_json()
    del data["piles"]
    format_error(deal_from_json, data, "missing key 'piles'")


@pytest.mark.parametrize(
    "action, words",
    [
        ([1], ["must be a JSON object"]),
        ({"play": 5, "cell": 1}, ["missing key 'seat'"]),
        ({"seat": -1, "discard": []}, [".seat"]),
        ({"seat": "0", "discard": []}, [".seat"]),
        ({"seat": 0}, ["needs 'play' or 'discard'"]),
        ({"seat": 0, "play": 5}, ["needs 'cell'"]),
        ({"seat": 0, "play": 5, "cell": -1}, [".cell"]),
        ({"seat": 0, "play": 5, "cell": 1, "discard": "12"}, [".discard", "list of cards"]),
        ({"seat": 0, "play": 5, "cell": 1, "team_discard": []}, ["'team_discard' does not belong to a play 5"]),
        ({"seat": 0, "play": "M"}, ["Sea Monster play needs 'cell'"]),
        ({"seat": 0, "play": "M", "cell": 1, "discard": []}, ["'discard' does not belong"]),
        ({"seat": 0, "play": "S"}, ["team_discard"]),
        ({"seat": 0, "play": "S", "team_discard": [[1], "x"]}, ["team_discard[1]"]),
        ({"seat": 0, "play": "S", "team_discard": [[1]], "cell": 3}, ["'cell' does not belong"]),
        ({"seat": 0, "play": "F", "discard": []}, ["'discard' does not belong"]),
        ({"seat": 0, "discard": [1, 2], "cell": 3}, ["'cell' does not belong to a discard-two"]),
        ({"seat": 0, "play": "X"}, [".play", "not a card"]),
        ({"seat": 0, "play": True, "cell": 1}, [".play"]),
        ({"seat": 0, "play": 2.0, "cell": 1}, [".play"]),
        ({"seat": 0, "discard": [1, 2], "rocks_discard": [3, 4]}, ["needs \"rocks\": \"stay\""]),
        ({"seat": 0, "discard": [1, 2], "rocks": 1, "rocks_discard": [3, 4]}, ["only goes with"]),
        ({"seat": 0, "discard": [1, 2], "rocks": "up"}, [".rocks"]),
        ({"seat": 0, "discard": [1, 2], "rocks": "stay", "rocks_discard": ["Q"]}, [".rocks_discard[0]"]),
    ],
)
def test_action_format_errors(action, words):
    format_error(lambda a: action_from_json(a, "line.actions[2] (turn 3)"), action, "turn 3", *words)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"format": "tranquility-deal/1"}, ["line.format"]),
        ({"deal": None}, ["line.deal"]),
        ({"actions": {}}, ["line.actions", "list of actions"]),
        ({"actions": [{"seat": 0, "play": 1, "cell": 0}, {"seat": 0, "oops": 1}]}, ["line.actions[1] (turn 2)", "'oops'"]),
    ],
)
def test_line_format_errors(changes, words):
    data = through_json(line_to_json(win_line()))
    data.update(changes)
    format_error(line_from_json, data, *words)


def test_line_needs_a_deal():
    data = through_json(line_to_json(win_line()))
    del data["deal"]
    format_error(line_from_json, data, "missing key 'deal'")


# -- files -----------------------------------------------------------------------------


def test_files(tmp_path):
    path = tmp_path / "line.json"
    write_json(path, line_to_json(win_line()))
    assert read_game_file(path) == win_line()
    with pytest.raises(FileExistsError):
        write_json(path, {})
    write_json(path, deal_to_json(simple_deal(WIN_RULES)), force=True)
    assert read_game_file(path) == simple_deal(WIN_RULES)


@pytest.mark.parametrize(
    "content, words",
    [
        (b"{not json", "not valid JSON (line 1"),
        (b"\xff\xfe\x00", "cannot be read"),
        (b"[1, 2]", "JSON object with a 'format' key"),
        (b'{"format": "chess"}', "'format' must be"),
        (b'{"format": "tranquility-deal/1", "piles": 3}', "deal.piles"),
    ],
)
def test_bad_files(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    message = format_error(read_game_file, path, words)
    assert str(path) in message


def test_missing_file(tmp_path):
    format_error(read_json, tmp_path / "nope.json", "no such file")


# -- verify() --------------------------------------------------------------------------


def test_verify_a_deal():
    verdict = verify(deal(OFFICIAL, 4, 1))
    assert verdict.to_json() == {"legal": True, "won": False, "status": "open", "turns": 0, "error": None}


def test_verify_a_bad_deal():
    d = simple_deal(tiny_rules(), 2)
    bad = type(d)(rules=d.rules, piles=(d.piles[0] + (1,), d.piles[1]))
    verdict = verify(bad)
    assert not verdict.legal and verdict.turns == 0
    assert verdict.error is not None
    assert verdict.error.startswith("deal: ") and "island 1" in verdict.error


def test_won_line():
    verdict = verify(win_line())
    assert verdict.to_json() == {"legal": True, "won": True, "status": "won", "turns": 6, "error": None}
    assert verdict.state is not None and verdict.state.grid == (1, 2, 4, 5)


def test_line_that_stops_early_is_legal_and_open():
    verdict = verify(win_line(WIN[:3]))
    assert verdict.to_json() == {"legal": True, "won": False, "status": "open", "turns": 3, "error": None}


def test_line_that_ends_lost():
    # After 1 2 are discarded the seat holds 3 4 S over 5 6 7 8 F: 7 cards can pay a Start.
    discard = DiscardTwo(seat=0, discard=(1, 2))
    verdict = verify(Line(simple_deal(tiny_rules(start_discards=8)), (discard,)))
    assert verdict.to_json() == {"legal": True, "won": False, "status": "lost", "turns": 1, "error": None}
    # Owed 6: forced 3 4, then 5 6 7, then the team picks 1 of 8 F; a lone F cannot act.
    start = PlayStart(seat=0, team_discard=((8,),))
    verdict = verify(Line(simple_deal(tiny_rules(start_discards=6)), (discard, start)))
    assert verdict.legal and verdict.turns == 2 and verdict.status == "lost"
    assert verdict.state is not None
    assert verdict.state.hands == ((FINISH,),) and verdict.state.start_played


def test_illegal_action_names_turn_seat_action_and_rule():
    actions = list(WIN)
    actions[3] = PlayIsland(seat=0, card=2, cell=1)  # costs 1, pays nothing
    verdict = verify(win_line(actions))
    assert not verdict.legal and not verdict.won
    assert verdict.turns == 3 and verdict.status == "open"
    assert verdict.error is not None
    assert verdict.error.startswith("turn 4")
    assert "seat 0 plays 2 at cell 1, paying nothing" in verdict.error
    assert verdict.error.endswith("2 at cell 1 costs 1; the action discards 0 card(s)")


def test_wrong_seat_and_actions_after_the_end():
    verdict = verify(win_line([DiscardTwo(seat=1, discard=(1, 2))]))
    assert verdict.error is not None
    assert verdict.error.startswith("turn 1") and "seat 1 discards" in verdict.error
    assert "it is seat 0's turn" in verdict.error
    verdict = verify(win_line([*WIN, DiscardTwo(seat=0, discard=(8, 8))]))
    assert verdict.turns == 6 and verdict.won and verdict.status == "won"
    assert verdict.error is not None
    assert "turn 7" in verdict.error and "already won" in verdict.error


def test_verify_through_files(tmp_path):
    path = tmp_path / "line.json"
    write_json(path, line_to_json(win_line()))
    assert verify(read_game_file(path)).won


# -- fuzz: damaged files give FormatError or a verdict, never anything else ------------


def mutate(data, path, value):
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


def paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, child in node.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from paths(child, prefix + (i,))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["S", "F", "M", "stay", "x", ""]),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(st.sampled_from(["seat", "play", "cell", "rows", "z"]), children, max_size=3),
    max_leaves=6,
)
BASE_LINE = through_json(
    line_to_json(
        Line(
            simple_deal(tiny_rules(rows=2, cols=2, rocks="manual", monsters=1), 2),
            (
                PlayIsland(seat=0, card=1, cell=0, rocks=RocksMove(1)),
                DiscardTwo(seat=1, discard=(6, 7), rocks=RocksMove(None, (5, 8))),
            ),
        )
    )
)
BASE_PATHS = [p for p in paths(BASE_LINE) if p]


@given(st.lists(st.tuples(st.sampled_from(BASE_PATHS), JSON_VALUES), min_size=1, max_size=3))
def test_damaged_lines_never_crash(changes):
    data = BASE_LINE
    for path, value in changes:
        try:
            data = mutate(data, path, value)
        except (KeyError, IndexError, TypeError):
            continue
    try:
        line = line_from_json(data)
    except FormatError:
        return
    verdict = verify(line)
    assert verdict.legal == (verdict.error is None)
    assert verdict.status in ("won", "lost", "open")
