"""Rules: defaults, presets, validation (every error names its key), helpers."""

import pytest
from tranquility.solver.engine.rules import (
    EXPLANATIONS,
    LIMITS,
    OFFICIAL,
    PRESETS,
    Order,
    Rules,
    RulesError,
    parse_rule_value,
)

OFFICIAL_DICT = {
    "rows": 6,
    "cols": 6,
    "islands": 80,
    "finish": 5,
    "hand": 5,
    "start_discards": 8,
    "order": "sequence",
    "adjacency": "sequence",
    "one_card": "play",
    "monsters": 0,
    "rocks": "off",
    "removed": 0,
    "finish_setup": "deck",
}


def test_defaults_are_the_official_game():
    assert Rules().to_dict() == OFFICIAL_DICT
    assert OFFICIAL == Rules() == PRESETS["official"]
    assert OFFICIAL.cells == 36


# Each preset differs from the official game in exactly these keys.
PRESET_CHANGES = {
    "official": {},
    "hungarian": {"order": "grid", "adjacency": "orthogonal", "finish": 1},
    "french": {"adjacency": "orthogonal", "finish_setup": "after_hands"},
    "strict": {"one_card": "lose"},
    "monsters": {"monsters": 4},
    "rocks": {"rocks": "auto"},
    "rocks-manual": {"rocks": "manual"},
    "islands": {"removed": 8},
}


def test_presets():
    assert set(PRESETS) == set(PRESET_CHANGES)
    for name, rules in PRESETS.items():
        changed = {k: v for k, v in rules.to_dict().items() if OFFICIAL_DICT[k] != v}
        assert changed == PRESET_CHANGES[name], name


def test_module_presets_are_in_the_recommended_ranges():
    assert 3 <= PRESETS["monsters"].monsters <= 5
    assert 4 <= PRESETS["islands"].removed <= 12


def test_from_dict_partial_takes_defaults():
    rules = Rules.from_dict({"rows": 3, "order": "grid"})
    assert rules == Rules(rows=3, order=Order.GRID)
    assert Rules.from_dict({}) == OFFICIAL


def test_to_dict_round_trip():
    for rules in PRESETS.values():
        assert Rules.from_dict(rules.to_dict()) == rules


def test_with_options():
    assert OFFICIAL.with_options({"monsters": 3}) == Rules(monsters=3)
    with pytest.raises(RulesError) as err:
        OFFICIAL.with_options({"colour": "red"})
    assert err.value.key == "colour"


def check_names(key, build):
    with pytest.raises(RulesError) as err:
        build()
    assert err.value.key == key
    assert f"'{key}'" in str(err.value)


@pytest.mark.parametrize(
    "data, key",
    [
        ({"size": 6}, "size"),
        ({"rows": 6, "Rows": 6}, "Rows"),
        ({"rows": "6"}, "rows"),
        ({"rows": 6.0}, "rows"),
        ({"cols": True}, "cols"),
        ({"hand": None}, "hand"),
        ({"order": 1}, "order"),
        ({"rows": 0}, "rows"),
        ({"cols": -1}, "cols"),
        ({"islands": 0}, "islands"),
        ({"finish": 0}, "finish"),
        ({"hand": 0}, "hand"),
        ({"start_discards": -1}, "start_discards"),
        ({"monsters": -1}, "monsters"),
        ({"removed": -2}, "removed"),
        ({"order": "spiral"}, "order"),
        ({"adjacency": "diagonal"}, "adjacency"),
        ({"one_card": "maybe"}, "one_card"),
        ({"rocks": "on"}, "rocks"),
        ({"finish_setup": "later"}, "finish_setup"),
        # Fewer islands left than cells plus monsters: the key that breaks it is named.
        ({"islands": 35}, "islands"),
        ({"islands": 30, "removed": 2}, "islands"),
        ({"islands": 38, "monsters": 3}, "monsters"),
        ({"monsters": 45}, "monsters"),
        ({"removed": 45}, "removed"),
        ({"removed": 40, "monsters": 5}, "removed"),
        ({"rows": 1, "cols": 4, "islands": 8, "rocks": "auto"}, "rocks"),
        ({"rows": 1, "cols": 4, "islands": 8, "rocks": "manual"}, "rocks"),
    ],
)
def test_bad_rules_name_the_key(data, key):
    check_names(key, lambda: Rules.from_dict(data))


def test_rules_must_be_a_mapping():
    check_names("rules", lambda: Rules.from_dict([("rows", 6)]))  # type: ignore[arg-type]


@pytest.mark.parametrize("key", sorted(LIMITS))
def test_numeric_limits_name_the_key(key):
    low, high = LIMITS[key]
    check_names(key, lambda: Rules.from_dict({key: low - 1}))
    check_names(key, lambda: Rules.from_dict({key: high + 1}))


@pytest.mark.parametrize(
    "options",
    [
        {"islands": 36},  # exactly enough islands
        {"islands": 40, "monsters": 4},
        {"removed": 44},
        {"removed": 12, "monsters": 5},
        {"rows": 2, "cols": 3, "islands": 6, "rocks": "auto"},
        {"rows": 1, "cols": 1, "islands": 1, "hand": 1, "start_discards": 0},
        {"monsters": 0, "removed": 0, "start_discards": 0},
    ],
)
def test_edge_values_are_allowed(options):
    Rules(**options)


@pytest.mark.parametrize("rows, leave", [(6, 4), (5, 4), (8, 4), (4, 3), (3, 2), (2, 1)])
def test_rocks_leave_after_four_rows_or_all_but_one(rows, leave):
    assert Rules(rows=rows, cols=2, islands=2 * rows).rocks_leave_rows == leave


def test_digest_is_stable_and_distinguishes():
    assert OFFICIAL.digest() == Rules.from_dict(dict(OFFICIAL_DICT)).digest()
    digests = {rules.digest() for rules in PRESETS.values()}
    assert len(digests) == len(PRESETS)
    assert len(OFFICIAL.digest()) == 64


def test_parse_rule_value():
    assert parse_rule_value("rows", "4") == 4
    assert parse_rule_value("order", "grid") == "grid"
    check_names("rows", lambda: parse_rule_value("rows", "four"))
    check_names("colour", lambda: parse_rule_value("colour", "red"))


def test_every_key_is_explained():
    assert set(EXPLANATIONS) == set(OFFICIAL_DICT)


def test_rules_are_immutable_and_hashable():
    with pytest.raises(AttributeError):
        OFFICIAL.rows = 5  # type: ignore[misc]
    assert len({Rules(), Rules(), Rules(rows=5)}) == 2
