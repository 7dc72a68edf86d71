"""tranquility play (the Textual board, driven headlessly by its pilot), the board it draws
(solver/board.py) and tranquility puzzles (the shipped catalogue)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList
from tranquility.cli.play import PlayApp, load_board
from tranquility.puzzles.generate import Puzzle, puzzle_id
from tranquility.puzzles.grade import grade
from tranquility.puzzles.shipped import catalogue
from tranquility.solver.analysis.board import Board, BoardError, FileExists, Goal, Judgement
from tranquility.solver.analysis.solve import solve
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import IllegalAction, Status
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json
from tranquility.solver.formats.notation import NotationError, parse_notation
from tranquility.solver.formats.reading import read_game_file
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Verdict

from .helpers import SMALL, WON, run

HINT = Budget(seconds=2)


def small() -> Line:
    """Seed 1, one seat, a 2x3 grid: WON wins it in 8 turns."""
    return parse_notation(f"deal 1 1 {SMALL}\n")


def small_puzzle(folder: Path) -> Path:
    """The small deal graded and written as a puzzle file, its solution beside it."""
    game = small().deal
    paths = Puzzle(puzzle_id(game), game, grade(game, with_silent=False)).write(folder, with_solution=True)
    return paths[0]


def saved(path: Path) -> tuple:
    """The actions of the line file (or notation) at ``path``."""
    line = read_game_file(path)
    assert isinstance(line, Line)
    return line.actions


# -- the board ----------------------------------------------------------------------------


def test_moves_are_every_legal_choice_with_its_cost_and_a_legal_action():
    for board in (Board.open(small()), Board.open(deal(OFFICIAL, 4, 1)), Board.open(small()).play("10@4 7@2 1@0")):
        state = board.state
        assert [m.choice for m in board.moves] == list(state.legal_choices())
        for move in board.moves:
            assert state.explain_illegal(move.action) is None
            paid = getattr(move.action, "discard", ())
            assert move.cost == (state.rules.start_discards if move.choice.kind == "start" else len(paid))
            assert board.play(move.token).actions[-1] == move.action  # the token plays that action


def test_play_refuses_an_illegal_move_with_the_engines_reason_and_changes_nothing():
    board = Board.open(small())
    with pytest.raises(IllegalAction) as refused:
        board.play("1@5")
    assert str(refused.value) == board.state.explain_illegal(next(iter(parse_notation(f"deal 1 1 {SMALL}\n1@5\n").actions)))
    assert "island 1 is not in seat 0's hand" in str(refused.value)
    with pytest.raises(NotationError, match=r"^column 4: '10@': expected a cell number"):
        board.play("10@")
    with pytest.raises(IllegalAction, match="breaks the ascending order"):
        board.play("10@4 7@2 1@5")  # the first two are legal: all or nothing
    with pytest.raises(BoardError):
        board.play("   ")
    assert board.turn == 0 and board.state == Board.open(small()).state


def test_undo_and_redo():
    board = Board.open(small()).play("10@4 7@2 1@0")
    with pytest.raises(BoardError, match="nothing to redo"):
        board.redo()
    back = board.undo().undo()
    assert back.turn == 1 and len(back.undone) == 2
    assert back.redo().redo().state == board.state and not back.redo().redo().undone
    assert back.play("7@2").undone == board.actions[2:]  # the move undone, played again: the rest stays
    assert back.play("2@0").undone == ()  # another move: the redo list is gone
    with pytest.raises(BoardError, match="nothing to undo"):
        back.undo().undo()
    # A line file opens at its end; undo goes back into it.
    opened = Board.open(parse_notation(f"deal 1 1 {SMALL}\n10@4 7@2\n"))
    assert opened.turn == 2 and opened.undo().undo().state == Board.open(small()).state


def test_save_writes_a_line_file_or_notation_and_never_overwrites_unasked(tmp_path):
    board = Board.open(small()).play("10@4 7@2")
    said = board.save(tmp_path / "game.json")
    assert "game.json" in said
    assert read_game_file(tmp_path / "game.json") == board.line
    with pytest.raises(FileExists):
        board.play("1@0").save(tmp_path / "game.json")
    assert line_from_json(json.loads((tmp_path / "game.json").read_text())).actions == board.actions
    board.play("1@0").save(tmp_path / "game.json", force=True)
    assert len(saved(tmp_path / "game.json")) == 3
    board.save(tmp_path / "game.tq")
    assert (tmp_path / "game.tq").read_text().startswith("deal 1 1 ")
    assert read_game_file(tmp_path / "game.tq") == board.line


def test_save_names_an_unseeded_deal_by_its_file(tmp_path):
    game = small()
    unseeded = Line(type(game.deal)(game.deal.rules, game.deal.piles), ())
    (tmp_path / "deal.json").write_text(json.dumps({"format": "tranquility-line/1", "deal": _deal_json(unseeded), "actions": []}))
    board = load_board(str(tmp_path / "deal.json")).play("10@4")
    (tmp_path / "out").mkdir()
    board.save(tmp_path / "out" / "game.tq")
    assert (tmp_path / "out" / "game.tq").read_text().startswith("deal-file ../deal.json")
    assert saved(tmp_path / "out" / "game.tq") == board.actions
    with pytest.raises(BoardError, match="save it as a line file"):
        Board.open(unseeded).save(tmp_path / "other.tq")


def _deal_json(line: Line) -> dict:
    from tranquility.solver.formats.codecs import deal_to_json

    return deal_to_json(line.deal)


def test_hint_gives_the_next_move_of_a_replayed_win():
    board = Board.open(small()).play("10@4")
    hint = board.hint(HINT)
    assert hint.verdict == Verdict.WIN and hint.judgement == Judgement.KEPT and hint.best is not None
    after = board.play_action(hint.best)
    assert solve(after.line, HINT).verdict == Verdict.WIN  # the best move keeps the win
    assert hint.words()[1].startswith("best next move: ")
    assert hint.words()[-1] == "the last move (turn 1, 10@4) kept the win"


@pytest.mark.slow
def test_hint_says_when_a_move_threw_the_win_away_and_when_the_game_was_already_lost():
    threw = Board.open(small()).play("5@4")  # proven by the complete search: no line wins after it
    hint = threw.hint(HINT)
    assert hint.verdict == Verdict.NO_WIN and hint.best is None
    assert hint.judgement == Judgement.THREW and "threw the win away" in hint.words()[-1]
    later = threw.play("2@0").hint(HINT)
    assert later.verdict == Verdict.NO_WIN and later.judgement == Judgement.ALREADY_LOST
    assert later.words()[0].startswith("lost: ")


@pytest.mark.slow
def test_a_hint_that_runs_out_of_time_says_unknown():
    board = Board.open(deal(OFFICIAL, 4, 1)).play("19@8")
    nothing = Budget(reproducible=True, greedy_playouts=0, search_nodes=0, cpsat_deterministic=0.001)
    hint = board.hint(nothing)
    assert hint.verdict == Verdict.UNKNOWN and hint.best is None and hint.judgement == Judgement.UNKNOWN
    assert hint.words()[0].startswith("unknown: ") and "is unknown" in hint.words()[1]


def test_a_won_game_is_compared_with_the_puzzles_solution(tmp_path):
    board = load_board(str(small_puzzle(tmp_path)))
    goal = board.goal
    assert goal is not None and goal.solution is not None and goal.solution_spare is not None
    assert goal.grade in range(1, 6)
    replayed = verify(goal.solution).state
    assert replayed is not None and goal.solution_spare == replayed.cards_left
    assert board.goal_words()[0] == f"puzzle {goal.id}, grade {goal.grade} of 5"
    won = board.play(WON)
    assert won.state.status == Status.WON
    spare = won.state.cards_left
    expected = "as many as" if spare == goal.solution_spare else "fewer than" if spare < goal.solution_spare else "more than"
    assert won.goal_words()[-1].startswith(f"you won with {spare} spare card(s): ") and expected in won.goal_words()[-1]
    with pytest.raises(BoardError, match="for another deal"):
        Goal.of("x", 1, goal.solution, deal(OFFICIAL, 1, 2))


def test_a_catalogue_puzzle_opens_with_its_grade_and_solution():
    entry = catalogue()[0]
    board = load_board(str(Path(__file__).parents[1] / "puzzles" / "catalogue" / entry.file))
    assert board.goal is not None and (board.goal.id, board.goal.grade) == (entry.id, entry.grade)
    assert board.goal.solution_spare is not None and board.turn == 0


# -- the app, driven by Textual's pilot ---------------------------------------------------------


async def _type(pilot, text: str) -> None:
    """Type ``text`` key by key into the input line, and Enter."""
    await pilot.press(*["space" if c == " " else c for c in text], "enter")
    await pilot.pause()


async def _enter(pilot, text: str) -> None:
    """Fill the input line with ``text`` at once (a keypress takes a tenth of a second), and Enter."""
    pilot.app.query_one("#command", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


async def _settle(app, pilot) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()


async def _play_a_whole_puzzle(folder: Path) -> None:
    app = PlayApp(load_board(str(small_puzzle(folder))), hint_time=2)
    async with app.run_test(size=(150, 50)) as pilot:
        assert "Type a move in the notation" in app.said
        await _type(pilot, "1@5")  # seat 0 holds 2, 5 and 10
        assert app.said == "refused: play: island 1 is not in seat 0's hand" and app.board.turn == 0
        await _type(pilot, "10@4")
        assert app.board.turn == 1 and app.said == "played 10@4."
        await pilot.press("ctrl+z")
        assert app.board.turn == 0 and app.said == "undone: now at turn 1."
        await pilot.press("ctrl+y")
        assert app.board.turn == 1
        await pilot.press("ctrl+t")
        await _settle(app, pilot)
        assert app.last_hint is not None and app.last_hint.verdict == Verdict.WIN
        assert app.reported.startswith("still winnable") and "kept the win" in app.reported
        # Pick 7@2 from the list of legal moves: it fills the input line, Enter plays it.
        moves = app.query_one("#moves", OptionList)
        moves.focus()
        moves.highlighted = next(i for i, m in enumerate(app.board.moves) if m.token == "7@2")
        await pilot.press("enter")
        assert app.query_one("#command", Input).value == "7@2"
        await pilot.press("enter")
        await pilot.pause()
        assert app.board.turn == 2
        await _enter(pilot, "1@0 S/2,5")
        await _enter(pilot, f"save {folder / 'game.json'}")
        assert app.said.startswith("wrote ") and len(saved(folder / "game.json")) == 4
        await _type(pilot, "8@3-4")
        await _enter(pilot, f"save {folder / 'game.json'}")
        assert "already exists" in app.said and len(saved(folder / "game.json")) == 4
        await _enter(pilot, f"save! {folder / 'game.json'}")
        assert len(saved(folder / "game.json")) == 5
        await _enter(pilot, "6@1-3 11@5-9 F")
        assert app.board.state.won and "Game over: won" in app.said
        assert "you won with" in "\n".join(app.board.goal_words())
        await pilot.press("ctrl+r")
        await _settle(app, pilot)
        assert app.analysis is not None and app.analysis.deal_verdict == Verdict.WIN
        assert "The win was never lost." in app.reported
        await _enter(pilot, f"load {folder / 'game.json'}")
        assert app.board.turn == 5 and app.said.startswith("loaded ")
        await _enter(pilot, "load nowhere.json")
        assert app.said.startswith("not loaded: ") and app.board.turn == 5
        await _enter(pilot, "analyze")
        assert "for a game that is over" in app.said


@pytest.mark.slow
def test_play_a_whole_puzzle_on_the_board(tmp_path):
    asyncio.run(_play_a_whole_puzzle(tmp_path))


# -- the commands -------------------------------------------------------------------------------


def test_play_refuses_bad_input_before_the_board_opens(tmp_path):
    result = run("play", "--puzzle", "tq1-nothing")
    assert result.exit_code == 2 and "no shipped puzzle has the id 'tq1-nothing'" in result.output
    result = run("play", "--puzzle", catalogue()[0].id, "--seed", "1")
    assert result.exit_code == 2 and "--puzzle ID opens a catalogue puzzle" in result.output
    result = run("play", tmp_path / "missing.json")
    assert result.exit_code == 2 and "missing.json: no such file" in result.output
    result = run("play", "--seed", "1", "--players", "2")  # the test runner is no terminal
    assert result.exit_code == 2 and "needs a terminal" in result.output


def test_puzzles_lists_the_catalogue_and_filters_it():
    every = json.loads(run("puzzles", "--json").output)
    assert len(every) == len(catalogue()) and {p["id"] for p in every} == {e.id for e in catalogue()}
    assert set(every[0]) == {"id", "players", "grade", "rules", "seed", "score"}
    some = json.loads(run("puzzles", "--players", "3", "--grade", "5", "--rules", "official", "--json").output)
    assert some and all((p["players"], p["grade"], p["rules"]) == (3, 5, "official") for p in some)
    assert len(some) == sum((e.players, e.grade, e.rules) == (3, 5, "official") for e in catalogue())
    monsters = json.loads(run("puzzles", "--rules", "monsters", "--json").output)
    assert len(monsters) == 250 and {p["rules"] for p in monsters} == {"monsters"}
    assert json.loads(run("puzzles", "--rules", "hungarian", "--json").output) == []
    table = run("puzzles", "--players", "1", "--grade", "2").output
    assert table.splitlines()[0].split() == ["id", "players", "grade", "rules", "score"]
    assert f"{len([e for e in catalogue() if (e.players, e.grade) == (1, 2)])} puzzle(s)" in table
    assert run("puzzles", "--grade", "6").exit_code == 2


def test_a_position_file_plays_on_the_board_and_saves_as_a_line_from_it(tmp_path):
    line = tmp_path / "line.tq"
    line.write_text(f"deal 1 1 {SMALL}\n10@4 7@2\n")
    shown = run("show", line, "--turn", "2", "--position", "--json")
    assert shown.exit_code == 0, shown.output
    position = tmp_path / "position.json"
    position.write_text(shown.output)
    board = load_board(str(position))
    assert board.turn == 0 and board.state.grid == Board.open(small()).play("10@4 7@2").state.grid
    won = board.play("1@0 S/2,5 8@3-4 6@1-3 11@5-9 F")
    assert won.state.won
    won.save(tmp_path / "won.json")
    replayed = verify(read_game_file(tmp_path / "won.json"))
    assert replayed.legal and replayed.won and replayed.turns == 6


def test_play_opens_a_position_given_as_text():
    from tranquility.cli.options import DealSource
    from tranquility.cli.play import open_board
    from tranquility.solver.engine.position import Position
    from tranquility.solver.formats.position_forms import position_to_text

    start = Board.open(small()).play("10@4 7@2")
    text = position_to_text(Position.of(start.state))
    board = open_board(DealSource(position_text=text), None, None)
    assert board.state.grid == start.state.grid and board.state.hands == start.state.hands
    assert board.play("1@0 S/2,5 8@3-4 6@1-3 11@5-9 F").state.won
