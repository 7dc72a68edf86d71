"""The ceiling ladder of an odds store (``odds --ladder``) and ``open-hands:N``'s plays.

The ladder's rungs from the top (perfect play, open hands, the lookahead, tuned, thrifty),
each rate on its own deals, each step between neighbours paired on the deals both played,
and the price of silence; read from a store written by hand, so that every count is known."""

from __future__ import annotations

import json

import pytest
from tranquility.solver.batch.odds_ladder import ladder, ladder_markdown, rung_order
from tranquility.solver.batch.odds_store import Batch, OddsStore, Played, Solved
from tranquility.solver.batch.plays import TimedOpenHands, budget_of, is_searching, play, player, stored_name
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.errors import BadInput
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import OpenHands
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import paired_interval, wilson

from ..helpers import run

OFFICIAL = PRESETS["official"]
BUDGET = Budget(reproducible=True, workers=1)


@pytest.mark.slow
def test_open_hands_is_stored_with_its_budget_and_timed():
    assert stored_name("open-hands", 60) == "open-hands:60" and budget_of("open-hands:60") == 60
    assert is_searching("open-hands:60")
    for bad in ("open-hands", "open-hands:0"):
        with pytest.raises(BadInput):
            budget_of(bad)
    made = player("open-hands:2", 5)
    assert isinstance(made, TimedOpenHands) and (made.seed, made.samples) == (5, 2)
    game = deal(OFFICIAL, 2, 1)
    result, decisions = play(game, made, 5)
    assert result.line == simulate(game, OpenHands(5, 2), 5).line  # timing changes nothing
    assert 0 < len(decisions) < result.turns and {d.seat for d in decisions} == {0, 1}


def test_the_paired_interval_is_agresti_and_mins():
    # 3 deals only the first won, 1 only the second, of 10: half a deal added to each cell,
    # (3.5 - 1.5) / 12 = 16.7 points, spread 1.96 x sqrt((5/12 - (2/12)^2) / 12) = 35.3
    assert paired_interval(3, 1, 10) == pytest.approx((-18.62, 51.95), abs=0.01)
    assert paired_interval(0, 0, 1) == pytest.approx((-65.33, 65.33), abs=0.01)  # one deal tells nothing
    assert paired_interval(1000, 0, 1000)[1] == 100.0
    with pytest.raises(ValueError):
        paired_interval(6, 5, 10)


# Seeds 0-9 at 3 players: which deals each player won. Perfect play loses seed 9 (unknown
# counts as not won); open hands and the lookahead played seeds 0-5 only.
WON = {
    "perfect": [1, 1, 1, 1, 1, 1, 1, 1, 1, 0],
    "open-hands:8": [1, 1, 1, 1, 0, 1],
    "lookahead:8": [1, 0, 1, 1, 1, 0],
    "tuned": [1, 0, 1, 0, 1, 0, 1, 1, 0, 0],
    "thrifty": [0, 0, 1, 0, 1, 1, 1, 0, 0, 0],
    "greedy": [0] * 10,  # no rung: left out of the ladder
}


@pytest.fixture
def store(tmp_path):
    with OddsStore(tmp_path / "ladder.sqlite") as found:
        digest = found.add_rules(OFFICIAL)
        verdicts = ["win"] * 9 + ["unknown"]
        solved = tuple(Solved(3, seed, verdict, "greedy", 0.01, None, "test") for seed, verdict in enumerate(verdicts))
        played = tuple(
            Played(3, seed, name, bool(won), 40, 36, 0.1, "test")
            for name, wins in WON.items()
            if name != "perfect"
            for seed, won in enumerate(wins)
        )
        found.write(digest, BUDGET, Batch(solved, played), None, 1.0, 10)
        yield found


def test_the_rungs_stand_from_the_top_with_their_own_deals(store):
    (group,) = ladder(store).groups
    assert [r.policy for r in group.rungs] == ["perfect", "open-hands:8", "lookahead:8", "tuned", "thrifty"]
    assert [(r.deals, r.won) for r in group.rungs] == [(10, 9), (6, 5), (6, 4), (10, 5), (10, 4)]
    assert group.rungs[1].ci95 == wilson(5, 6)
    assert rung_order("greedy") is None
    ladder_names = ("perfect", "open-hands:60", "open-hands:8", "lookahead:60", "lookahead:60@0", "lookahead:8", "tuned")
    orders = [rung_order(name) for name in ladder_names]
    assert orders == sorted(o for o in orders if o is not None)  # every one a rung, from the top


def test_each_step_is_paired_on_the_deals_both_played(store):
    (group,) = ladder(store).groups
    steps = {(s.upper, s.lower): s for s in group.steps}
    assert list(steps) == [
        ("perfect", "open-hands:8"),
        ("open-hands:8", "lookahead:8"),
        ("lookahead:8", "tuned"),
        ("tuned", "thrifty"),
    ]
    piles = steps["perfect", "open-hands:8"]
    assert (piles.deals, piles.only_upper, piles.only_lower) == (6, 1, 0)  # seed 4; seeds 6-9 not played by open hands
    below = steps["lookahead:8", "tuned"]
    assert (below.deals, below.only_upper, below.only_lower) == (6, 1, 0)  # seed 3, on seeds 0-5 alone
    silent = steps["tuned", "thrifty"]
    assert (silent.deals, silent.only_upper, silent.only_lower) == (10, 2, 1)  # seeds 0 and 7; seed 5
    assert silent.points == pytest.approx(10.0) and silent.interval == paired_interval(2, 1, 10)
    silence = {s.lower: (s.deals, s.only_upper, s.only_lower) for s in group.silence}
    assert silence == {"lookahead:8": (6, 2, 1), "tuned": (6, 3, 1), "thrifty": (6, 3, 1)}


def test_the_ladder_in_markdown_and_on_the_command_line(store):
    table = ladder_markdown(ladder(store))
    assert "| official | 3 | open-hands:8 | 6 | 5 | 83.3% [43.6, 97.0] | 6 | +16.7" in table
    assert "| official | 3 | open-hands:8 | tuned | 6 | +33.3" in table
    store.close()
    result = run("odds", "--db", store.path, "--report", "--ladder", "--json")
    assert result.exit_code == 0, result.output
    (group,) = json.loads(result.output)["ladder"]
    assert [r["name"] for r in group["rungs"]][:2] == ["perfect", "open-hands:8"]
    assert group["steps"][-1] == {
        "upper": "tuned",
        "lower": "thrifty",
        "deals": 10,
        "only_upper": 2,
        "only_lower": 1,
        "points": 10.0,
        "ci95": [round(x, 2) for x in paired_interval(2, 1, 10)],
    }
    shown = run("odds", "--db", store.path, "--report", "--ladder", "--markdown")
    assert shown.exit_code == 0 and shown.output.strip() == table


@pytest.mark.slow
def test_odds_plays_open_hands(tmp_path):
    db = tmp_path / "odds.sqlite"
    result = run(
        "odds", "--players", "2", "--deals", "1", "--reproducible", "--jobs", "1", "--db", db, "--policy", "open-hands",
        "--samples", "1", "--ladder", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (group,) = json.loads(result.output)["ladder"]
    assert [r["name"] for r in group["rungs"]] == ["perfect", "open-hands:1"]
    bad = run("odds", "--players", "2", "--deals", "1", "--policy", "thrifty", "--samples", "2", "--db", db)
    assert bad.exit_code == 2 and "--samples goes with --policy lookahead or open-hands" in bad.output


@pytest.mark.slow
def test_the_plot_says_that_open_hands_sees_every_hand(store):
    from tranquility.solver.batch.odds_plot import figure
    from tranquility.solver.batch.odds_summary import summarise

    silent = figure(summarise(store)).axes[1]
    assert silent.get_title() == "Silent table (each policy plays each deal once; open-hands sees every hand)"
    labels = [t.get_text() for t in silent.get_legend().get_texts()]
    assert "official: open-hands:8 (n = 6 deals per point)" in labels
