"""``analyze --fair``: a played line judged by what each mover could know (solver/analysis/fair.py).

Small games (a 2x4 grid, twelve islands, two seats) keep every playout short: a lost thrifty
game, a constructed blunder (discarding two while a free play waits), a line from a position,
and the no-peeking check that re-deals every card the mover cannot see. One official game,
thrifty's at 4 seats on seed 20, has a loss of the win that was bad luck. The mistake rule
(a lead surely at least the margin) is checked on win counts fair_check measured."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.cli.render.analysis import bound_digits, chances, fair_verdict_text, rule_text
from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import (
    DEFAULT_TURNS,
    FAIR_SAMPLES,
    MISTAKE_MARGIN,
    FairAnalysis,
    FairTurn,
    Judgement,
    chosen_turns,
    examine,
    fair_analysis,
    spread,
)
from tranquility.solver.analysis.results import Step
from tranquility.solver.engine.actions import DiscardTwo, PlayIsland, PlayStart
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.observation import observe
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import Rules
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_to_json
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import Lookahead, MoveEstimate
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import difference_interval

from ..browser import needs_browser
from ..cli.test_html import browse, embedded, parse
from ..helpers import ENV, run, write
from ..search.test_lookahead import redealt

RULES = Rules(rows=2, cols=4, islands=12, hand=3, start_discards=2)
FAST = Budget(seconds=5, workers=1)
BLUNDER_TURN = 4


@pytest.fixture(scope="module")
def lost() -> Line:
    """A thrifty game on a small deal that was winnable: the perfect analysis loses the win at turn 6."""
    line = simulate(deal(RULES, 2, 1), "thrifty").line
    assert not verify(line).won
    return line


@pytest.fixture(scope="module")
def blunder() -> Line:
    """Thrifty's winning game, except that at turn 4 seat 1 discards two cards while it holds
    a free play; thrifty plays the rest, and loses."""
    game = deal(RULES, 2, 0)
    won = simulate(game, "thrifty").line
    before = Line(game, won.actions[: BLUNDER_TURN - 1])
    obs = observe(before.end_state(), won.actions[BLUNDER_TURN - 1].seat)
    moves = Lookahead().every_move(obs)
    assert any(isinstance(m, PlayIsland) and not m.discard for m in moves)  # a free play was there
    discard = next(m for m in moves if isinstance(m, DiscardTwo))
    played = simulate(before.with_actions(before.actions + (discard,)), "thrifty").line
    assert verify(won).won and not verify(played).won
    return played


@pytest.fixture(scope="module")
def seed20() -> Line:
    """``simulate --seed 20 --players 4 --policy thrifty``: with every card face up the win
    is lost at turn 17 (71@30 leaves cell 31 needing the 72, which went face down in the
    Start event at turn 10)."""
    return simulate(deal(Rules(), 4, 20), "thrifty").line


@pytest.fixture(scope="module")
def blunder_judged(blunder) -> FairAnalysis:
    return fair_analysis(analyze(blunder, FAST), others=0, samples=12)


def non_start_turns(line: Line) -> list[int]:
    return [t for t, a in enumerate(line.actions, start=1) if not isinstance(a, PlayStart)]


# -- the library -----------------------------------------------------------------------------


def test_discarding_two_while_a_free_play_waits_is_a_mistake(blunder, blunder_judged):
    fair = blunder_judged
    assert fair.perfect.lost_at == BLUNDER_TURN
    assert fair.planned == (BLUNDER_TURN,)  # --turns 0: the flagged turn alone
    (turn,) = fair.turns
    assert turn.turn == BLUNDER_TURN and turn.flagged and turn.seat == blunder.actions[BLUNDER_TURN - 1].seat
    assert isinstance(turn.played.action, DiscardTwo) and turn.played.action == blunder.actions[BLUNDER_TURN - 1]
    assert isinstance(turn.best.action, PlayIsland) and turn.best.rate > turn.played.rate
    assert turn.best.interval()[0] > turn.played.interval()[1] and turn.mistake
    assert turn.cost == pytest.approx(100 * (turn.best.rate - turn.played.rate))
    assert fair.judgement == Judgement.MISTAKE and fair.mistake_at() == turn


def test_a_loss_no_examined_turn_explains_is_bad_luck(lost):
    fair = fair_analysis(analyze(lost, FAST), None, samples=12)
    assert fair.perfect.lost_at is not None and not any(t.mistake for t in fair.turns) and fair.mistake_at() is None
    assert fair.judgement == Judgement.BAD_LUCK
    assert "no examined turn up to it was a mistake" in fair_verdict_text(fair.to_json()["fair"])


def estimate(card: int, wins: int, worlds: int) -> MoveEstimate:
    return MoveEstimate(PlayIsland(seat=0, card=card, cell=card // 3), (True,) * wins + (False,) * (worlds - wins), 0.0)


def judged(best: tuple[int, int], played: tuple[int, int]) -> FairTurn:
    """A flagged turn whose best move won ``best[0]`` of ``best[1]`` worlds and the move played ``played[0]``."""
    top, mine = estimate(30, *best), estimate(60, *played)
    return FairTurn(17, 0, (top, mine), mine, flagged=True)


def test_the_lead_interval_is_newcombes():
    """Newcombe (1998), the hybrid score interval on his examples (a), (b) and (d)."""
    assert difference_interval(56, 70, 48, 80) == pytest.approx((5.24, 33.39), abs=0.01)
    assert difference_interval(9, 10, 3, 10) == pytest.approx((17.05, 80.90), abs=0.01)
    assert difference_interval(5, 56, 0, 29) == pytest.approx((-3.81, 19.26), abs=0.01)


def test_a_mistake_costs_the_margin_surely_and_a_smaller_sure_gap_is_bad_luck():
    """Turns fair_check judged (docs/explain.md). Seed 49's turn 37 (4 seats, 320 worlds): the
    best won 305, the move played 109, a mistake. Seed 20's turn 17 at 3,200 worlds: 2,958
    against 2,684, surely ahead (8.6 points, 95% interval 7.0 to 10.1) but not surely by the
    margin; seed 277's turn 36, 3,200 against 3,192: a fifth of a point. Both were mistakes
    when the intervals had only to part, and are bad luck now."""
    assert MISTAKE_MARGIN == 8.0
    big = judged((305, 320), (109, 320))
    assert big.mistake and big.judged == "mistake" and big.lead() == pytest.approx((55.16, 66.55), abs=0.01)
    data = big.to_json()
    assert data["lead"] == list(big.lead()) and data["margin"] == 8.0 and data["mistake"]
    assert rule_text(data) == (
        "it costs at least 8 points of win chance (the best is 61 points ahead, 95% interval 55 to 67, wholly at or "
        "above the 8-point margin)"
    )
    for best, played, said in (
        ((2958, 3200), (2684, 3200), "the best is 9 points ahead, 95% interval 7 to 10"),
        ((3200, 3200), (3192, 3200), "the best is 0 points ahead, 95% interval 0.1 to 0.5"),
    ):
        small = judged(best, played)
        assert small.best.interval()[0] > small.played.interval()[1]  # the intervals part
        assert 0 < small.lead()[0] < MISTAKE_MARGIN and not small.mistake and small.judged == "bad luck"
        assert rule_text(small.to_json()) == (
            f"within the margin ({said}: surely ahead, but not surely by the 8 points a mistake costs)"
        )
    close = judged((226, 320), (222, 320))  # seed 92's turn 28
    assert close.lead()[0] < 0 and not close.mistake
    assert rule_text(close.to_json()) == "no move was clearly better (the best is 1 point ahead, 95% interval -6 to 8)"


def test_the_help_gives_the_margin():
    result = run("analyze", "--help")
    assert result.exit_code == 0
    assert f"surely cost at least {MISTAKE_MARGIN:g} points of win chance" in " ".join(result.output.split())


def test_the_printed_low_end_shows_what_the_rule_found():
    """69 against 26 of 320 worlds: the lead's low end is 7.996, which reads 8 in whole points
    (and 8.0, 8.00): printed to three decimals; 47 against 8 is 8.003, a mistake in whole points."""
    under, over = judged((69, 320), (26, 320)).to_json(), judged((47, 320), (8, 320)).to_json()
    assert under["lead"][0] == pytest.approx(7.9964, abs=1e-4) and not under["mistake"] and bound_digits(under) == 3
    assert "95% interval 7.996 to 18.885" in rule_text(under)
    assert over["lead"][0] == pytest.approx(8.0029, abs=1e-4) and over["mistake"] and bound_digits(over) == 0
    assert "95% interval 8 to 17" in rule_text(over)
    assert chances(under) == ("8% [6-12]", "22% [17-26]")


def test_the_turn_that_lost_the_win_is_bad_luck_with_the_card_it_needed(seed20):
    fair = fair_analysis(analyze(seed20, FAST), 0)
    assert fair.perfect.lost_at == 17 and fair.judgement == Judgement.BAD_LUCK
    (turn,) = fair.turns
    assert turn.turn == 17 and turn.seat == 0 and turn.judged == "bad luck" and not turn.mistake
    data = turn.to_json()
    assert data["judged"] == "bad luck" and data["why"]["hidden"] == [72]
    assert data["why"]["cards"] == [
        {
            "card": 72,
            "how": "start",
            "seat": 3,
            "turn": 10,
            "cell": None,
            "seen": False,
            "text": "72 went face down in the Start event at turn 10 (seat 3's share), which seat 0 could not see",
        }
    ]
    assert data["why"]["needs"] == "1 empty cell needs an island between 71 and 73; none is left"


def test_the_other_verdicts():
    won = simulate(deal(RULES, 2, 0), "thrifty").line
    unwinnable = simulate(deal(RULES, 2, 2), "thrifty").line
    cases = {
        Judgement.WON: analyze(won, FAST),
        Judgement.NEVER_WINNABLE: analyze(unwinnable, FAST),
        Judgement.STILL_WINNABLE: analyze(won.with_actions(won.actions[:3]), FAST),
    }
    begun = cases[Judgement.STILL_WINNABLE]  # as if Ctrl-C had stopped its perfect analysis
    cases[Judgement.UNDECIDED] = replace(begun, positions=begun.positions[:2], interrupted=True)
    for judgement, analysis in cases.items():
        fair = fair_analysis(analysis, 0, samples=2)
        assert fair.judgement == judgement and fair.interrupted == analysis.interrupted
        assert not fair.turns and fair_verdict_text(fair.to_json()["fair"])  # said in words


def test_moves_are_ranked_by_their_win_chance_and_the_played_one_is_among_them(blunder_judged):
    turn = blunder_judged.turns[0]
    keys = [(-m.wins, -m.rest) for m in turn.ranked]
    assert keys == sorted(keys)
    assert turn.played in turn.ranked and all(m.worlds == 12 for m in turn.ranked)
    assert len({m.action for m in turn.ranked}) == len(turn.ranked)


def test_a_payment_thrifty_would_not_make_is_judged_as_played(lost):
    """The move played joins the list when its payment is none of every_move's (here at
    turn 6: 6@3 paying a Finish, where thrifty would pay the 11)."""
    turn = 6
    state = lost.with_actions(lost.actions[: turn - 1]).end_state()
    listed = Lookahead().every_move(observe(state, state.seat))
    played = lost.actions[turn - 1]
    assert isinstance(played, PlayIsland) and played in listed
    other = next(a for a in state.legal_actions() if isinstance(a, PlayIsland) and a.card == played.card and a not in listed)
    judged = examine(lost.with_actions(lost.actions[: turn - 1] + (other,)), turn, samples=2)
    assert judged.played.action == other and len(judged.ranked) == len(listed) + 1
    assert {m.action for m in judged.ranked} == {*listed, other}


def test_the_turns_are_the_flagged_ones_and_others_spread_evenly(lost):
    perfect = analyze(lost, FAST)
    assert perfect.lost_at is not None
    playable = non_start_turns(lost)
    planned, flagged = chosen_turns(perfect, 2)
    assert flagged == {perfect.lost_at} and perfect.lost_at in planned and len(planned) == 3
    assert set(planned) <= set(playable) and list(planned) == sorted(planned)
    assert chosen_turns(perfect, None) == (tuple(playable), flagged)
    assert spread(list(range(10)), 2) == [2, 7] and spread([1, 2], 6) == [1, 2] and spread([4, 5], 0) == []


def test_a_turn_is_judged_the_same_whichever_turns_are_examined(lost):
    perfect = analyze(lost, FAST)
    every = fair_analysis(perfect, None, samples=4)
    flagged = fair_analysis(perfect, 0, samples=4)
    assert [t.turn for t in every.turns] == non_start_turns(lost)
    (turn,) = flagged.turns
    assert next(t for t in every.turns if t.turn == turn.turn) == turn
    assert fair_analysis(perfect, 0, samples=4) == flagged  # and again the same: a count budget, no clock


def test_progress_hears_each_turn_before_it_is_examined(lost):
    heard: list[Step] = []
    fair = fair_analysis(analyze(lost, FAST), 2, samples=2, progress=heard.append)
    assert [step.phase for step in heard] == [
        f"turn {t} ({k} of {len(fair.planned)}), seat {lost.actions[t - 1].seat}" for k, t in enumerate(fair.planned, start=1)
    ]
    assert all(step.until is None and (step.found or "").endswith("mistake(s) so far") for step in heard)


def test_no_peeking_the_estimates_ignore_every_card_the_mover_cannot_see(lost):
    """Every card the mover never saw dealt again (the other hand, the piles, the faces of
    the other seat's discards): its memory and view are the same, and so is every estimate."""
    checked = 0
    for turn in non_start_turns(lost)[2:5]:
        before = lost.with_actions(lost.actions[: turn - 1])
        state, played = before.end_state(), lost.actions[turn - 1]
        other = redealt(before, state, played.seat, random.Random(turn))
        hidden = other.end_state()
        assert (hidden.hands, hidden.deal.piles, hidden.discarded) != (state.hands, state.deal.piles, state.discarded)
        other = other.with_actions(other.actions + (played,))
        assert verify(other).legal
        assert examine(other, turn, samples=6) == examine(lost, turn, samples=6)
        checked += 1
    assert checked == 3


def test_ctrl_c_keeps_the_turns_examined(lost, monkeypatch):
    import tranquility.solver.analysis.fair as fair_module

    calls = []
    real = fair_module.examine

    def stopping(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(fair_module, "examine", stopping)
    fair = fair_analysis(analyze(lost, FAST), None, samples=2)
    assert fair.interrupted and [t.turn for t in fair.turns] == calls[:1]
    assert fair.judgement in (Judgement.UNDECIDED, Judgement.MISTAKE)


# -- the command line ------------------------------------------------------------------------


def line_file(tmp_path, line: Line, name: str = "played.json"):
    return write(tmp_path / name, line_to_json(line))


def test_cli_fair_json_has_both_analyses(lost, tmp_path):
    path = line_file(tmp_path, lost)
    result = run("analyze", path, "--fair", "--time-limit", 2, "--samples", 4, "--turns", 2, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"perfect", "fair"}
    perfect, fair = data["perfect"], data["fair"]
    assert perfect["deal_verdict"] == "win" and perfect["lost_at"] is not None
    assert fair["verdict"] in ("mistake", "bad luck") and fair["lost_at"] == perfect["lost_at"]
    assert fair["samples"] == 4 and fair["sim_seed"] == 0 and fair["turns_asked"] == 2 and fair["memory_from"] is None
    assert perfect["lost_at"] in fair["planned"] and len(fair["planned"]) == 3 and not fair["interrupted"]
    assert [t["turn"] for t in fair["turns"]] == fair["planned"]
    for turn in fair["turns"]:
        assert turn["flagged"] == (turn["turn"] == perfect["lost_at"])
        assert turn["best"] == turn["moves"][0] and turn["played"] in turn["moves"]
        for move in turn["moves"]:
            low, high = move["interval"]
            assert move["worlds"] == 4 and low <= move["rate"] <= high and move["rate"] == move["wins"] / 4
            assert set(move) == {"notation", "text", "action", "wins", "worlds", "rate", "interval"}
        low, high = difference_interval(turn["best"]["wins"], 4, turn["played"]["wins"], 4)
        assert turn["lead"] == [low, high] and turn["margin"] == fair["margin"] == MISTAKE_MARGIN
        assert turn["mistake"] == (low >= MISTAKE_MARGIN)
        if turn["flagged"]:
            assert turn["judged"] == ("mistake" if turn["mistake"] else "bad luck") and turn["why"]["after"] == turn["turn"]
        else:
            assert turn["judged"] is None and turn["why"] is None
        assert turn["cost"] == round(100 * (turn["best"]["rate"] - turn["played"]["rate"]), 1)


def test_cli_calls_the_blunder_a_mistake_and_fits_80_columns(blunder, tmp_path):
    path = line_file(tmp_path, blunder)
    args = ("analyze", path, "--fair", "--perfect", "--time-limit", 2, "--samples", 12, "--turns", 0)
    result = CliRunner(env={**ENV, "COLUMNS": "80"}).invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("Deal: WIN") and "Lost the win at turn 4" in text  # the perfect analysis first
    assert "Fair analysis: 1 turn(s) judged by what the mover could know; 12 worlds per move" in " ".join(text.split())
    assert "Verdict: MISTAKE. The win was lost at turn 4 (perfect information); turn 4 was a mistake by what seat 1" in " ".join(
        text.split()
    )
    assert max(len(line) for line in text.splitlines()) <= 80


def test_cli_turns_all_examines_every_turn_but_the_start(lost, tmp_path):
    path = line_file(tmp_path, lost)
    result = run("analyze", path, "--fair", "--time-limit", 2, "--samples", 2, "--turns", "all", "--sim-seed", 5, "--json")
    assert result.exit_code == 0, result.output
    fair = json.loads(result.stdout)["fair"]
    assert fair["turns_asked"] == "all" and fair["sim_seed"] == 5
    assert fair["planned"] == [t["turn"] for t in fair["turns"]] == non_start_turns(lost)
    assert len(non_start_turns(lost)) == len(lost.actions) - 1  # the Start event alone is left out


def test_cli_says_where_memory_starts_for_a_position(lost, tmp_path):
    cut = next(t for t, a in enumerate(lost.actions, start=1) if isinstance(a, PlayStart))
    given = Line(Position.of(Line(lost.deal, lost.actions[:cut]).end_state()), lost.actions[cut:])
    assert verify(given).legal
    path = line_file(tmp_path, given)
    text = run("analyze", path, "--fair", "--time-limit", 2, "--samples", 2, "--turns", 1)
    assert text.exit_code == 0, text.output
    assert "memory starts at turn 1" in text.stdout
    data = json.loads(run("analyze", path, "--fair", "--time-limit", 2, "--samples", 2, "--turns", 1, "--json").stdout)
    assert data["fair"]["memory_from"] == 1 and data["fair"]["turns"]
    from_deal = run("analyze", line_file(tmp_path, lost, "deal.json"), "--fair", "--time-limit", 2, "--samples", 2, "--turns", 0)
    assert "memory starts" not in from_deal.stdout


BAD_LUCK_17 = (
    "Turn 17: Bad luck. By what seat 0 could see, 71@30 (played) won in 88% [72-95] of its worlds, the best, "
    "32@14-43, in 97% [84-99]: no move was clearly better (the best is 9 points ahead, 95% interval -5 to 25). "
    "With every card face up, after turn 17, 1 empty cell needs an island between 71 and 73; none is left: "
    "72 went face down in the Start event at turn 10 (seat 3's share), which seat 0 could not see."
)


def test_cli_calls_the_lost_win_bad_luck_and_says_where_the_card_went(seed20, tmp_path):
    path, page = line_file(tmp_path, seed20), tmp_path / "seed20.html"
    result = run("analyze", path, "--fair", "--turns", 0, "--samples", 32, "--time-limit", 2, "--html", page)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "17* 0 71@30 88% [72-95] 32@14-43 97% [84-99] +9 bad luck" in text
    assert BAD_LUCK_17 in text and "cost = best less played, in percentage points" in text
    assert "mistake = the 95% interval of the best's lead over the move played lies wholly at or above 8 points" in text
    assert "Verdict: BAD LUCK. The win was lost at turn 17" in text
    (marks,) = [s["action"]["marks"] for s in embedded(page.read_text(encoding="utf-8"))["steps"][1:] if s["action"]["marks"]]
    assert [m["kind"] for m in marks] == ["lost", "bad-luck"] and marks[1]["text"] == BAD_LUCK_17.replace("Turn 17: ", "")


@pytest.mark.slow
def test_cli_seed_20_is_bad_luck_at_every_turn_by_the_tuned_judge(seed20, tmp_path):
    """Seed 20's lost game. Judged by thrifty's playouts in 24 worlds, turn 4 was a mistake
    (31@10 in 21 of 24 worlds against 17@7 in 12); the tuned blueprint in 32 worlds finds the
    played move nearly as good, and no examined turn a mistake."""
    result = run("analyze", line_file(tmp_path, seed20), "--fair", "--samples", 32, "--time-limit", 2)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "4 3 17@7 81% [65-91] 17@5 91% [76-97] +9" in text and " mistake " not in text.split("won in =")[0]
    assert BAD_LUCK_17 in text
    assert (
        "Verdict: BAD LUCK. The win was lost at turn 17 (perfect information), but no examined turn up to it was a "
        "mistake by what its mover could see (turns examined: 4, 13, 17, 21, 28, 36, 43). The nearest to one, turn 4: "
        "17@5 won in 91% [76-97] of seat 3's worlds, 17@7 (played) in 81% [65-91]: no move was clearly better (the "
        "best is 9 points ahead, 95% interval -8 to 27)."
    ) in text


def test_cli_says_no_move_was_clearly_better_where_no_mistake_is_called(lost, tmp_path):
    result = run("analyze", line_file(tmp_path, lost), "--fair", "--turns", "all", "--samples", 12, "--time-limit", 2)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    rows = text.split("cost ", 1)[1].split(" won in =")[0]
    assert " mistake" not in rows and "6* 1 6@3-11 58% [32-81] 6@3-11 58% [32-81] +0 bad luck" in rows
    assert "Verdict: BAD LUCK." in text and "no examined turn up to it was a mistake" in text
    assert (
        "The nearest to one, turn 3: 10@5 won in 50% [25-75] of seat 0's worlds, 7@4 (played) in 42% [19-68]: "
        "no move was clearly better (the best is 8 points ahead, 95% interval -28 to 42)."
    ) in text
    assert (
        "Turn 6: Bad luck. By what seat 1 could see, the move played, 6@3-11, was the best, won in 58% [32-81] of its "
        "worlds. With every card face up, after turn 6, 1 empty cell needs an island between 9 and 12; none is left: "
        "10 went face down in the Start event at turn 5 (seat 0's share), which seat 1 could not see; seat 1 paid 11 "
        "face down at turn 6, as seat 1 knew (its own card)."
    ) in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--samples", 3], "Error: --samples is taken only with --fair"),
        (["--turns", "all"], "Error: --turns is taken only with --fair"),
        (["--sim-seed", 2, "--turns", 1], "Error: --turns and --sim-seed are taken only with --fair"),
        (["--fair", "--turns", "x"], "Error: Invalid value for '--turns': 'x' is neither a count of turns"),
        (["--fair", "--turns", "-1"], "Error: Invalid value for '--turns'"),
        (["--fair", "--samples", 0], "Error: Invalid value for '--samples'"),
    ],
)
def test_cli_refuses_fair_options_that_do_not_fit(lost, tmp_path, args, message):
    result = run("analyze", line_file(tmp_path, lost), *args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1, result.output


def test_cli_help_gives_the_library_defaults():
    text = " ".join(run("analyze", "--help").output.split())
    assert f"each move played out once in each [default: {FAIR_SAMPLES}]" in text
    assert f"all = every turn [default: {DEFAULT_TURNS}]" in text


def test_cli_ctrl_c_prints_what_was_decided_then_exits_130(lost, tmp_path, monkeypatch):
    import tranquility.solver.analysis.fair as fair_module

    real = fair_module.examine
    done: list[int] = []

    def stopping(line, turn, *args, **kwargs):
        if done:
            raise KeyboardInterrupt
        done.append(turn)
        return real(line, turn, *args, **kwargs)

    monkeypatch.setattr(fair_module, "examine", stopping)
    result = run("analyze", line_file(tmp_path, lost), "--fair", "--time-limit", 2, "--samples", 2, "--json")
    assert result.exit_code == 130
    fair = json.loads(result.stdout)["fair"]
    assert fair["interrupted"] and [t["turn"] for t in fair["turns"]] == done
    assert "Interrupted" in result.stderr


# -- the replay page -------------------------------------------------------------------------


def marks_of(page: str) -> dict[int, set[str]]:
    steps = embedded(page)["steps"]
    return {s["step"]: {m["kind"] for m in s["action"]["marks"]} for s in steps[1:] if s["action"]["marks"]}


def test_the_html_page_holds_both_marks(blunder, lost, tmp_path):
    page = tmp_path / "blunder.html"
    args = ("--time-limit", 2, "--samples", 12, "--turns", 0)
    result = run("analyze", line_file(tmp_path, blunder), "--fair", *args, "--html", page)
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert marks_of(text) == {BLUNDER_TURN: {"lost", "mistake"}}  # the perfect loss and the fair mistake
    head = parse(text).text
    assert head["verdict"] == "mistake" and "the win was lost at turn 4" in head["perfect-verdict"]
    unlucky = tmp_path / "lost.html"
    made = run("analyze", line_file(tmp_path, lost, "lost.json"), "--fair", "--time-limit", 2, "--samples", 2, "--html", unlucky)
    assert made.exit_code == 0, made.output
    data = json.loads(run("analyze", tmp_path / "lost.json", "--fair", "--time-limit", 2, "--samples", 2, "--json").stdout)
    marks = marks_of(unlucky.read_text(encoding="utf-8"))
    lost_at = data["perfect"]["lost_at"]
    assert all(marks[t["turn"]] & {"mistake", "examined", "bad-luck"} for t in data["fair"]["turns"])
    judged = next(t["judged"] for t in data["fair"]["turns"] if t["turn"] == lost_at)
    assert marks[lost_at] == {"lost", "bad-luck" if judged == "bad luck" else "mistake"}
    plain = tmp_path / "plain.html"
    assert run("analyze", tmp_path / "lost.json", "--time-limit", 2, "--html", plain).exit_code == 0
    assert marks_of(plain.read_text(encoding="utf-8")) == {lost_at: {"lost"}}  # without --fair: the perfect mark alone


@pytest.mark.slow
@needs_browser
def test_browser_draws_the_marks(blunder, tmp_path):
    page = tmp_path / "blunder.html"
    args = ("--time-limit", 2, "--samples", 12, "--turns", 0, "--html", page)
    assert run("analyze", line_file(tmp_path, blunder), "--fair", *args).exit_code == 0
    dom = parse(browse(page, tmp_path, f"#step={BLUNDER_TURN}"))
    assert "the win was lost here" in dom.text["marks"] and "Mistake. By what seat 1 could see" in dom.text["marks"]
    assert "lost the win" in dom.text[f"turn-{BLUNDER_TURN}"] and "mistake" in dom.text[f"turn-{BLUNDER_TURN}"]
