"""tranquility.app's reading of a request: any body or query a client sends is either read
or refused with one line naming what is wrong (BadInput, a 400), never another exception;
the game a request names, in each of its forms, is the game the CLI reads."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tranquility.app import fields, source, work
from tranquility.puzzles import shipped
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.errors import BadInput

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [*source.GAME_KEYS, *source.SEEDED_KEYS, *work.BUDGET_KEYS, "fair", "samples", "turns", "sim_seed", "kind"]
)


@given(st.text(max_size=30) | st.binary(max_size=30).map(lambda raw: raw.decode("latin-1")))
def test_any_text_is_a_body_or_a_one_line_refusal(text):
    try:
        assert isinstance(fields.json_object(text), dict)
    except BadInput as exc:
        assert str(exc) and "\n" not in str(exc)


@given(st.dictionaries(st.sampled_from(["seed", "players", "grade", "rule", "rules"]), st.text(max_size=12)))
def test_any_query_is_read_and_its_game_named_or_refused(pairs):
    body = fields.query_object(pairs, ("seed", "players", "grade"))
    try:
        source.seeded_deal(body)
    except BadInput as exc:
        assert "\n" not in str(exc)


@given(st.dictionaries(KEYS, JSON, max_size=4))
def test_any_fields_name_a_game_or_are_refused_naming_one(body):
    try:
        _read(body)
    except BadInput as exc:
        assert str(exc) and "\n" not in str(exc)


def _read(body: dict) -> None:
    """Every field a long job reads: its game, its kind (an analysis when it names none)."""
    source.named_game(body)
    if "kind" in body:
        work.job_kind(body)
    else:
        work.checked("analyze", body)


@pytest.mark.parametrize(
    "body, said",
    [
        ({"seed": 1, "players": 2, "time_limit": None}, "time_limit: expected a number, got null"),
        ({"seed": 1, "players": 2, "rule": None}, "rule: expected an object, got null"),
        ({"seed": 1, "players": 2, "rule": {"monsters": None}}, "rule.monsters: expected"),
        ({"seed": 1, "players": 2, "samples": None}, "samples: expected an integer, got null"),
        ({"seed": 1, "players": 2, "turns": 10**40}, "turns: an integer from 0 to"),
        ({"seed": float("1" * 5000), "players": 2}, "seed: expected an integer, got a number too large to use"),
        ({"seed": -1, "players": 2}, "seed: an integer from 0 to 18446744073709551615, not integer -1"),
        ({"puzzle": "tq1-1p-8cf48077-2", "rules": "official"}, "rules: only a seeded deal takes"),
        ({"seed": 1, "players": 2, "kind": "rm"}, "kind: one of solve, moves, explain, analyze, verify"),
    ],
)
def test_a_bad_field_is_named(body, said):
    with pytest.raises(BadInput) as caught:
        _read(body)
    assert said in str(caught.value), str(caught.value)


def test_a_5000_digit_seed_in_a_body_or_a_query_is_named():
    digits = "9" * 5000
    for body in (
        fields.json_object(f'{{"seed": {digits}, "players": 2}}'),
        fields.query_object({"seed": digits, "players": "2"}, ("seed", "players")),
    ):
        with pytest.raises(BadInput, match=r"^seed: expected an integer, got a number too large to use$"):
            source.seeded_deal(body)


def test_every_form_names_the_game_the_cli_reads():
    rules = PRESETS["official"].with_options({"monsters": 4})
    assert source.named_game({"seed": 7, "players": 3, "rule": {"monsters": 4}}).game == deal(rules, 3, 7)
    named = source.named_game({"puzzle": "tq1-1p-8cf48077-2"})
    assert named.puzzle == "tq1-1p-8cf48077-2" and named.game == shipped.puzzle("tq1-1p-8cf48077-2")
    from tranquility.solver.formats.codecs import deal_to_json

    assert source.named_game({"game": json.loads(json.dumps(deal_to_json(deal(rules, 3, 7))))}).game == deal(rules, 3, 7)
