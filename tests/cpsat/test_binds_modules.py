"""What binds under the modules: the rule groups "monsters" and "rocks" are in a
position's model while the module is in play there, and switching a group off only removes
constraints, so "these groups together bind" stays a proof. A deal lost only through the
rocks names "rocks", one lost through the monsters names "monsters", explain says them in
words (text, --json, --html), and a base-game answer is the one it always was."""

from __future__ import annotations

import json
import re

import pytest
from ortools.sat.python import cp_model
from tranquility.solver.cpsat.binds import Binding, what_binds
from tranquility.solver.cpsat.model import RULE_GROUPS, Frame, build_model, horizon, rule_groups
from tranquility.solver.cpsat.run_model import CpsatLimits, cpsat, new_solver
from tranquility.solver.engine.actions import DiscardTwo
from tranquility.solver.engine.cards import MONSTER
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Rocks, Rules
from tranquility.solver.engine.state import State
from tranquility.solver.engine.verify import position_after
from tranquility.solver.formats.codecs import deal_to_json
from tranquility.solver.verdicts import Verdict

from ..helpers import run, small_deals
from ..search.test_modules import ROCKS, ROCKS_PILE, SINK_DEAL, SINK_OPENING
from .test_binds import status_with
from .test_model_modules import _positions

BASE = ("order", "cost", "draw", "finish", "start", "hand", "discards")
WON = (cp_model.FEASIBLE, cp_model.OPTIMAL)
# Solo 1x3, islands 1..4 and one Sea Monster (seed 0: M 3 F 1 4 S 2): the monster's cell is
# filled again, so the plays take every card and nothing is left to pay a cost.
REFILL = deal(Rules(rows=1, cols=3, islands=4, finish=1, hand=3, start_discards=0, monsters=1), 1, 0)


def _rocks() -> State:
    return State.initial(Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1))


def _binds(state: State) -> Binding:
    return what_binds(state, seconds=300, deterministic=5.0)


def _necessary(state: State, binding: Binding, group: str) -> bool:
    """The binding groups are infeasible together, and feasible without ``group``."""
    rest = [g for g in binding.groups if g != group]
    return status_with(state, binding.groups) == cp_model.INFEASIBLE and status_with(state, rest) in WON


def test_the_module_groups_are_there_only_with_their_module():
    assert rule_groups(Frame.of(_rocks(), 0)) == (*BASE, "rocks")
    assert rule_groups(Frame.of(State.initial(REFILL), 0)) == (*BASE, "monsters")
    base = State.initial(small_deals(1, seed=78)[0])
    assert rule_groups(Frame.of(base, 0)) == BASE
    assert tuple(build_model(base, horizon(base), relaxable=True).rule_on) == BASE
    assert set(RULE_GROUPS) == {*BASE, "monsters", "rocks"}


def test_a_deal_lost_only_through_the_rocks_names_the_rocks():
    """The golden of tests/search/test_modules.py: won without the rocks, lost with them."""
    state = _rocks()
    binding = _binds(state)
    assert binding.status == "proven" and binding.minimal and "rocks" in binding.groups, binding
    assert _necessary(state, binding, "rocks")
    said = dict(zip(binding.groups, binding.facts, strict=True))
    assert said["rocks"].startswith("The Jagged Rocks block row 1 (row 0 is the bottom row)")


def test_a_discarded_monster_binds_by_the_monsters_alone():
    state = position_after(Line(SINK_DEAL, (*SINK_OPENING, DiscardTwo(seat=0, discard=(1, MONSTER)))))
    binding = _binds(state)
    assert (binding.status, binding.groups, binding.minimal) == ("proven", ("monsters",), True)
    assert status_with(state, []) in WON  # the frame alone has a win: the monsters bind
    assert "none is left in a hand or pile: 1 too few, as a discarded Sea Monster can never be played" in binding.facts[0]


@pytest.mark.slow
def test_a_monster_that_takes_the_last_cards_binds_with_the_costs():
    state = State.initial(REFILL)
    assert cpsat(state, CpsatLimits(workers=1, seconds=20))[0] == Verdict.NO_WIN
    binding = _binds(state)
    assert (binding.status, binding.groups, binding.minimal) == ("proven", ("cost", "monsters"), True)
    assert _necessary(state, binding, "monsters") and _necessary(state, binding, "cost")
    assert "With 1 Sea Monster(s) to go, the plays alone take 7 of them: 4 islands" in binding.facts[0]
    assert "Sea Monster cards lie in seat 1's hand" in binding.facts[1]


# What binds on lost base deals (small_deals(10, seed=78)), pinned from the code before the
# module groups with the same budget: the groups, the solves and the facts.
BASE_ANSWERS = {
    1: (("start",), 3, ("The Start card (card 10 of 10 in seat 1's pile) must be played when held and costs the team 3 cards.",)),
    3: (
        ("draw", "start", "discards"),
        8,
        (
            "Islands are played from hand, drawn in pile order; the islands that fit the tightest run lie at: "
            "1 (in seat 2's hand); 2 (card 1 of 3 in seat 2's pile); 3 (card 1 of 4 in seat 3's pile); "
            "4 (in seat 1's hand); 5 (card 4 of 4 in seat 3's pile); 6 (in seat 3's hand).",
            "The Start card (card 1 of 3 in seat 1's pile) must be played when held and costs the team 3 cards.",
            "Costs and discards come from the paying seat's own hand, with cards the line never plays.",
        ),
    ),
    4: (
        ("start",),
        2,
        (
            "The Start card (card 6 of 10 in seat 1's pile) must be played when held and costs the team 3 cards; "
            "one hand of 2 card(s) cannot pay it, so the first round throws the whole hand away, with every Finish "
            "card drawn by then (Finish cards at 1, 5 of the pile before it, none after it).",
        ),
    ),
}


@pytest.mark.slow
def test_a_base_game_answer_is_unchanged():
    deals = small_deals(10, seed=78)
    for index, (groups, solves, facts) in BASE_ANSWERS.items():
        binding = what_binds(State.initial(deals[index]), seconds=300, deterministic=2.0)
        assert binding == Binding("proven", groups, True, solves, facts), index


def _fixed_to(state: State, groups: list[str], solution: list[int]) -> cp_model.CpSolverStatus:
    """The relaxable model with ``groups`` on, the others off, and every variable of the
    plain model fixed to ``solution`` (the relaxable model declares the same variables, in
    the same order, after its switches)."""
    game = build_model(state, horizon(state), relaxable=True)
    for group, literal in game.rule_on.items():
        game.model.add(literal == int(group in groups))
    shift = len(game.rule_on)
    for index, value in enumerate(solution):
        game.model.add(game.model.get_int_var_from_proto_index(index + shift) == value)
    return new_solver(CpsatLimits(workers=1, deterministic=10.0)).solve(game.model)


def _module_wins() -> list[State]:
    """Won module positions: a monster win, manual and auto rocks, and both modules (a manual
    line that keeps the rocks for two cards among them)."""

    def small(players: int, seed: int, **modules) -> State:
        return State.initial(deal(Rules(rows=2, cols=2, finish=3, hand=3, start_discards=0, **modules), players, seed))

    return [
        position_after(Line(SINK_DEAL, SINK_OPENING)),
        small(2, 1, islands=6, rocks=Rocks.MANUAL),
        small(2, 5, islands=6, rocks=Rocks.AUTO),
        small(2, 2, islands=7, monsters=1, rocks=Rocks.MANUAL),
        small(1, 0, islands=7, monsters=1, rocks=Rocks.AUTO),
    ]


@pytest.mark.slow
def test_switching_groups_off_keeps_every_win_of_a_module_model():
    """Superset: a win of the plain model (its every variable) is a solution of the
    relaxable model with every group on, with all off, and with each one off alone."""
    for state in _module_wins():
        plain = build_model(state, horizon(state))
        solver = new_solver(CpsatLimits(workers=1, deterministic=10.0))
        assert solver.solve(plain.model) in WON
        groups = list(rule_groups(Frame.of(state, 0)))
        assert {"monsters", "rocks"} & set(groups)
        named = [v.name for v in build_model(state, horizon(state), relaxable=True).model.proto.variables]
        assert named[len(groups) :] == [v.name for v in plain.model.proto.variables]
        solution = [solver.value(plain.model.get_int_var_from_proto_index(i)) for i in range(len(named) - len(groups))]
        for on in (groups, [], *([g for g in groups if g != off] for off in groups)):
            assert _fixed_to(state, on, solution) in WON, (state.rules.to_dict(), on)


@pytest.mark.slow
def test_every_group_on_decides_as_the_plain_module_model():
    decided = {cp_model.INFEASIBLE: 0, cp_model.OPTIMAL: 0}
    for state in _positions(20, seed=11):
        if horizon(state) > 12 or not (state.rules.monsters or state.rules.rocks != Rocks.OFF):
            continue  # the oracle's size: the slow ones add nothing here
        status = new_solver(CpsatLimits(workers=1, deterministic=10.0)).solve(build_model(state, horizon(state)).model)
        assert status_with(state, rule_groups(Frame.of(state, 0))) == status
        decided[status] += 1
    assert decided[cp_model.INFEASIBLE] >= 10 and decided[cp_model.OPTIMAL] >= 4, decided


@pytest.mark.slow
def test_explain_names_the_module_groups_in_every_view(tmp_path):
    """Text, the JSON (--out) and the HTML replay of one explain of the rocks golden."""
    game = tmp_path / "rocks.json"
    game.write_text(json.dumps(deal_to_json(Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1))))
    out, page = tmp_path / "explained.json", tmp_path / "replay.html"
    result = run("explain", str(game), "--reproducible", "--out", str(out), "--html", str(page))
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"* {RULE_GROUPS['rocks']}. The Jagged Rocks block row 1" in text
    binding = json.loads(out.read_text())["reach"]["binding"]
    assert binding["status"] == "proven" and "rocks" in binding["groups"]
    shown = re.search(r'<p id="binding">([^<]*)</p>', page.read_text())
    assert shown is not None and "The Jagged Rocks block row 1" in shown.group(1)
