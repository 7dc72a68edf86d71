"""``tranquility moves`` and the library behind it (``solver.analysis.ranking``): every
move at a position with a real verdict after it, ranked; each win's line replays as a win
from where the game given starts; each no-win carries its proof; Ctrl-C keeps what was
decided."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.ranking import RankedMove, Ranking, rank_moves
from tranquility.solver.analysis.results import Result, Step
from tranquility.solver.engine.actions import ChoiceKind, PlayIsland, PlayStart
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.verify import position_after, verify
from tranquility.solver.formats.codecs import line_from_json
from tranquility.solver.formats.notation import format_action, parse_notation
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.complete import exhaustive
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict

from ..helpers import ENV, run, write

# 18 turns into a 2-player game: one move alone keeps the win (63 at cell 27, paying two
# cards; which two the solve finds first depends on its clock: several win); the other
# nine are proven lost (docs/explain.md shows it).
THE_WIN = re.compile(r"63@27-\d+,\d+")
TIGHT = (
    "deal 4 2\n73@32 1@0 32@14 43@19 24@10 28@12 60@26 69@30 78@34\n"
    "18@7 48@21 65@28 40@16 35@15-9,27,75 56@24 22@9-31,54 55@23-34 x16,61\n"
)
# Seat 0 holds the Start: it must play it, so the Start is the one move.
FORCED_START = "deal 3 2\n71@31 31@13 54@23\n"


@pytest.fixture(scope="module")
def tight() -> Line:
    return parse_notation(TIGHT)


@pytest.fixture(scope="module")
def tight_ranking(tight) -> Ranking:
    return rank_moves(tight, Budget(seconds=3))


def check_win(move: RankedMove, given: Line) -> None:
    """A win's line starts where the game given starts, plays its actions and the move, and
    the engine's verifier replays it as a win, keeping ``spare`` cards in ``turns`` turns."""
    assert move.line is not None and move.line.start == given.start
    assert move.line.actions[: len(given.actions) + 1] == (*given.actions, move.action)
    replayed = verify(move.line)
    assert replayed.legal and replayed.won, replayed.error
    assert replayed.state is not None and move.spare == replayed.state.cards_left
    assert move.turns == len(move.line.actions)


def check_order(moves: tuple[RankedMove, ...]) -> None:
    """Wins (most spare first, then fewest turns), then unknown, then no-win."""
    kinds = [m.verdict for m in moves]
    assert kinds == sorted(kinds, key=[Verdict.WIN, Verdict.UNKNOWN, Verdict.NO_WIN].index)
    wins = [(-m.spare, m.turns) for m in moves if m.verdict == Verdict.WIN and m.spare is not None]
    assert wins == sorted(wins)


# -- the library ------------------------------------------------------------------------------


def test_the_one_move_that_keeps_the_win_is_found_and_every_other_is_proven_lost(tight, tight_ranking):
    state = position_after(tight)
    assert {m.move.choice for m in tight_ranking.moves} == set(state.legal_choices())  # one entry each, as the board lists
    win, *rest = tight_ranking.moves
    assert win.verdict == Verdict.WIN and THE_WIN.fullmatch(win.notation)
    check_win(win, tight)
    assert not win.proven and win.reason is None  # no objective: nothing is claimed of its value
    for move in rest:
        assert move.verdict == Verdict.NO_WIN and move.reason, move.notation
        assert move.line is None and move.spare is None and move.turns is None
        # The proof holds: the complete search alone finds no win after any payment of it.
        for action in state.actions_for(move.move.choice):
            verdict, _ = exhaustive(state.apply(action), Deadline(seconds=5), SearchStats())
            assert verdict == Verdict.NO_WIN, format_action(action)
    check_order(tight_ranking.moves)
    assert not tight_ranking.interrupted and tight_ranking.state == state


def test_a_busy_position_ranks_real_verdicts_within_the_time():
    """A 4-player deal after five turns of a winning line: 39 moves; every win replays as a
    win, every no-win has its proof, and the whole takes about the time limit."""
    game = deal(OFFICIAL, 4, 1)
    line = Line(game, solve(game, Budget(seconds=5)).winning_line.actions[:5])
    started = time.monotonic()
    ranking = rank_moves(line, Budget(seconds=2))
    assert time.monotonic() - started < 2 + 1.5
    assert len(ranking.moves) == len(list(position_after(line).legal_choices()))
    for move in ranking.moves:
        if move.verdict == Verdict.WIN:
            check_win(move, line)
        elif move.verdict == Verdict.NO_WIN:
            assert move.reason
    assert {m.verdict for m in ranking.moves} >= {Verdict.WIN, Verdict.NO_WIN}
    check_order(ranking.moves)


def test_a_forced_start_is_solved_from_the_position_before_it():
    """The Start can have tens of thousands of payments: as the one move, it is decided by
    the solve of the position itself, whose line chooses the payment."""
    line = parse_notation(FORCED_START)
    ranking = rank_moves(line, Budget(seconds=2))
    (move,) = ranking.moves
    assert move.move.choice.kind == ChoiceKind.START and isinstance(move.action, PlayStart)
    assert move.verdict == Verdict.WIN and move.notation.startswith("S/")
    check_win(move, line)


def test_a_position_that_is_over_has_no_moves():
    game = deal(OFFICIAL, 2, 1)
    won = solve(game, Budget(seconds=5)).winning_line
    ranking = rank_moves(won, Budget(seconds=1))
    assert ranking.moves == () and ranking.state.won


@pytest.mark.slow
def test_with_an_objective_the_values_are_improved_and_proven():
    """Late in a 4-player game the spare proofs are quick: the one move left (discard two,
    many payments) keeps a number of cards proven the most over every payment: no win
    found after any payment keeps more."""
    game = deal(OFFICIAL, 4, 1)
    line = Line(game, solve(game, Budget(seconds=5)).winning_line.actions[:31])
    (move,) = rank_moves(line, Budget(seconds=3), Objective.SPARE).moves
    assert move.verdict == Verdict.WIN and move.proven and move.move.choice.kind == ChoiceKind.DISCARD
    assert move.spare is not None
    check_win(move, line)
    state = position_after(line)
    for action in state.actions_for(move.move.choice):
        after = solve(line.with_actions((*line.actions, action)), Budget(seconds=0.3))
        if after.verdict == Verdict.WIN:
            assert after.end is not None and after.end.cards_left <= move.spare, format_action(action)
    # Without an objective nothing is claimed.
    assert not any(m.proven for m in rank_moves(line, Budget(seconds=1)).moves)


@pytest.mark.slow
def test_reproducible_gives_the_same_ranking_twice(tight):
    budget = Budget(reproducible=True, workers=1, cpsat_deterministic=2.0)
    first, second = (rank_moves(tight, budget).to_json() for _ in range(2))
    for data in (first, second):
        data.pop("seconds")
    assert first == second
    assert [m["verdict"] for m in first["moves"]] == ["win"] + ["no-win"] * 9


def test_progress_hears_each_solve(tight):
    steps: list[Step] = []
    rank_moves(tight, Budget(seconds=1), progress=steps.append)
    assert steps and steps[0].phase.startswith("first look, 1 of ")
    assert "win" in (steps[-1].found or "") and steps[0].until is not None


def interrupting(monkeypatch, at: int) -> None:
    """The solve raises KeyboardInterrupt on its ``at``-th call (Ctrl-C between solves)."""
    calls = []
    real = solve

    def stand_in(*args, **kwargs):
        calls.append(args)
        if len(calls) == at:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr("tranquility.solver.analysis.ranking.solve", stand_in)


def test_ctrl_c_keeps_the_moves_decided(monkeypatch, tight):
    interrupting(monkeypatch, 3)
    ranking = rank_moves(tight, Budget(seconds=3))
    assert ranking.interrupted
    decided = [m for m in ranking.moves if m.verdict != Verdict.UNKNOWN]
    # The first two moves of the board's list (15 at cells 2 and 3) were solved, and lost.
    assert sorted(m.notation for m in decided) == ["15@2", "15@3"]
    assert all(m.verdict == Verdict.NO_WIN and m.reason for m in decided)
    assert len(ranking.moves) == 10
    check_order(ranking.moves)


def test_a_solve_cut_short_by_ctrl_c_stops_the_ranking(monkeypatch, tight):
    """A solve answers Ctrl-C itself with an interrupted unknown: the ranking stops there."""
    calls = []

    def cut(*args, **kwargs):
        calls.append(args)
        return Result(Verdict.UNKNOWN, DecidedBy.INTERRUPTED, 0.0, interrupted=True)

    monkeypatch.setattr("tranquility.solver.analysis.ranking.solve", cut)
    ranking = rank_moves(tight, Budget(seconds=3))
    assert ranking.interrupted and len(calls) == 1
    assert {m.verdict for m in ranking.moves} == {Verdict.UNKNOWN}


# -- the command --------------------------------------------------------------------------------


@pytest.fixture
def tight_file(tmp_path) -> Path:
    return write(tmp_path / "tight.tq", TIGHT)


def test_json_shape_and_each_line_replays(tight_file):
    result = run("moves", tight_file, "--time-limit", 3, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"position", "to_move", "objective", "seconds", "interrupted", "moves"}
    assert data["position"]["format"] == "tranquility-position/1" and data["to_move"] == 0
    assert data["objective"] == "any" and data["interrupted"] is False and 0 < data["seconds"] < 4.5
    assert len(data["moves"]) == 10
    for move in data["moves"]:
        assert set(move) == {"notation", "choice", "action", "verdict", "spare", "turns", "proven", "reason", "line"}
    win, lost = data["moves"][0], data["moves"][1]
    assert THE_WIN.fullmatch(win["notation"]) and win["choice"] == "63 at cell 27"
    assert win["action"]["play"] == 63 and win["action"]["cell"] == 27 and len(win["action"]["discard"]) == 2
    assert win["verdict"] == "win" and win["proven"] is False and win["reason"] is None
    line = line_from_json(win["line"])
    replayed = verify(line)
    assert replayed.won and replayed.state is not None and replayed.state.cards_left == win["spare"]
    assert len(line.actions) == win["turns"] and line.actions[:18] == parse_notation(TIGHT).actions
    assert isinstance(line.actions[18], PlayIsland) and line.actions[18].card == 63
    assert lost["verdict"] == "no-win" and lost["reason"] and lost["line"] is None and lost["spare"] is None


def test_text_is_a_table_at_80_columns(tight_file):
    result = CliRunner(env={**ENV, "COLUMNS": "80"}).invoke(main, ["moves", str(tight_file), "--time-limit", "3"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Seat 0 to move, after 18 action(s) of the game given."
    assert lines[1].startswith("10 move(s) in ") and lines[1].endswith(" s: 1 win, 9 no-win")
    assert lines[2].split() == ["#", "move", "verdict", "spare", "turns", "why"]
    rank, notation, verdict = lines[3].split()[:3]
    assert (rank, verdict) == ("1", "win") and THE_WIN.fullmatch(notation)
    assert "no-win" in lines[4] and "empty cells need" in result.stdout
    assert max(len(line) for line in lines) <= 80


@pytest.mark.slow
def test_the_time_limit_is_shared_over_the_moves(tmp_path):
    """Eight turns into a 5-player deal one move stays undecided within 2 s: the command
    uses its time limit, and about no more; the other moves are decided."""
    path = write(tmp_path / "five.tq", "deal 2 5\n66@29 58@25 8@3 80@35 62@27 74@32 50@21 39@16\n")
    started = time.monotonic()
    result = run("moves", path, "--time-limit", 2, "--json")
    took = time.monotonic() - started
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    verdicts = [m["verdict"] for m in data["moves"]]
    assert "unknown" in verdicts and {"win", "no-win"} <= set(verdicts)
    assert 1.5 <= data["seconds"] <= 2 + 1.0 and took < 2 + 2.5


def test_the_complete_search_hears_its_deadline_at_a_start():
    """Fixed: at a position where the Start must be played, the complete search made the
    team's every way to pay for it (320,000 here) before trying one, whatever its deadline
    (3 s and more on a 0.01 s one): now it makes them as it tries them."""
    line = parse_notation("deal 1 5\n19@8 41@18 54@24 37@14\n")
    state = position_after(line)
    started = time.monotonic()
    verdict, _ = exhaustive(state, Deadline(seconds=0.05), SearchStats())
    assert verdict == Verdict.UNKNOWN or verdict == Verdict.WIN
    assert time.monotonic() - started < 0.5


def test_a_seeded_deal_and_a_position_are_games_too(tight_file):
    position = run("show", tight_file, "--position", "--json").stdout
    by_position = json.loads(run("moves", "--position", position, "--time-limit", 3, "--json").stdout)
    assert THE_WIN.fullmatch(by_position["moves"][0]["notation"])
    # From a position, the line starts at the position: its first action is the move.
    line = line_from_json(by_position["moves"][0]["line"])
    assert line.position is not None and verify(line).won


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["missing.tq"], "Error: missing.tq: no such file"),
        (["--seed", 1, "--players", 4, "--time-limit", 0], "Error: Invalid value for '--time-limit'"),
        (
            ["--seed", 1, "--players", 4, "--reproducible", "--time-limit", 5],
            "Error: --time-limit is not taken with --reproducible",
        ),
        (["--seed", 1, "--players", 4, "--objective", "most"], "Error: Invalid value for '--objective'"),
        (["--position", "tq1 nonsense"], "Error: --position: "),
    ],
)
def test_bad_input_is_one_line_exit_2(args, says):
    result = run("moves", *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(says) and len(result.stderr.splitlines()) == 1


def test_an_illegal_line_names_the_turn(tmp_path):
    path = write(tmp_path / "bad.tq", "deal 1 4\n19@8 19@9\n")
    result = run("moves", path)
    assert result.exit_code == 2 and result.stderr.startswith(f"Error: {path}: turn 2: ")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("as_json", [True, False])
def test_ctrl_c_prints_what_was_decided_then_exits_130(monkeypatch, tight_file, as_json):
    interrupting(monkeypatch, 3)
    result = run("moves", tight_file, "--time-limit", 3, *(["--json"] if as_json else []))
    assert result.exit_code == 130
    assert "Interrupted: the moves not decided by then are unknown." in result.stderr
    if as_json:
        data = json.loads(result.stdout)
        assert data["interrupted"] is True
        assert [m["verdict"] for m in data["moves"]] == ["unknown"] * 8 + ["no-win"] * 2
    else:
        assert "10 move(s) in " in result.stdout and " s: 2 no-win, 8 unknown" in result.stdout and "15@3" in result.stdout


def test_out_writes_what_json_prints(tight_file, tmp_path):
    out = tmp_path / "moves.json"
    result = run("moves", tight_file, "--time-limit", 3, "--out", out)
    assert result.exit_code == 0 and f"wrote {out}" in result.stderr
    assert THE_WIN.fullmatch(json.loads(out.read_text())["moves"][0]["notation"])


def test_a_game_that_is_over_says_so(tmp_path):
    game = deal(OFFICIAL, 2, 1)
    from tranquility.solver.formats.codecs import line_to_json

    path = write(tmp_path / "won.json", line_to_json(solve(game, Budget(seconds=5)).winning_line))
    result = run("moves", path)
    assert result.exit_code == 0 and result.stdout.startswith("No moves ") and "won" in result.stdout
    assert json.loads(run("moves", path, "--json").stdout)["moves"] == []
