"""tranquility play (the Textual board, driven headlessly by its pilot), the board it draws
(solver/analysis/board.py) and tranquility puzzles (the shipped catalogue)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Input, OptionList
from tranquility.cli.exits import InputError
from tranquility.cli.game_input import DealSource
from tranquility.cli.play.app import PlayApp
from tranquility.cli.play.opening import load_board, open_board
from tranquility.cli.play.widgets import BoardView, MoveList
from tranquility.puzzles.generate import Puzzle, puzzle_id
from tranquility.puzzles.grade import grade
from tranquility.puzzles.shipped import catalogue
from tranquility.solver.analysis.board import Board, BoardError, FileExists, Goal, Hint, MoveCheck, MoveRefused, Proofs, offering
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.actions import Choice, ChoiceKind, DiscardTwo, PlayIsland
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL, PRESETS
from tranquility.solver.engine.state import IllegalAction, Status, sub_multisets
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json
from tranquility.solver.formats.notation import NotationError, parse_notation
from tranquility.solver.formats.reading import read_game_file
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict

from ..helpers import SMALL, WON, run

HINT = Budget(seconds=2)
# Few greedy playouts: a lost position goes to the complete search at once (a tenth of a second
# on the small deal) instead of spending a share of the time on playouts that cannot win.
QUICK = Budget(seconds=2, greedy_playouts=100)


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
        assert list(dict.fromkeys(m.choice for m in board.moves)) == list(state.legal_choices())
        # Discarding two: one move per pair of the hand it may discard (which two go is the choice).
        pairs = [m.action.discard for m in board.moves if isinstance(m.action, DiscardTwo)]
        discards = [a for a in state.actions_for(Choice(ChoiceKind.DISCARD)) if isinstance(a, DiscardTwo)]
        legal = {a.discard for a in discards if state.explain_illegal(a) is None}
        assert set(pairs) == legal
        assert len(pairs) == len(set(pairs)) and set(pairs) <= set(sub_multisets(state.hand, 2))
        for move in board.moves:
            assert state.explain_illegal(move.action) is None
            paid = getattr(move.action, "discard", ())
            assert move.cost == (state.rules.start_discards if move.choice.kind == "start" else len(paid))
            assert board.play(move.token).actions[-1] == move.action  # the token plays that action


def test_every_pair_to_discard_is_listed_and_a_hints_move_is_one_of_the_list():
    board = Board.open(deal(OFFICIAL, 2, 1)).play("66@29 17@7 32@14 6@2")  # seat 0 holds 19 48 57 62 72
    discards = [m for m in board.moves if m.choice.kind == ChoiceKind.DISCARD]
    assert [m.token for m in discards][:3] == ["x19,48", "x19,57", "x19,62"] and len(discards) == 10
    assert discards[1].words == "discard 19, 57" and discards[1].cost == 2
    same, at = offering(board.moves, DiscardTwo(seat=0, discard=(57, 72))) or ((), -1)
    assert same == board.moves and same[at].token == "x57,72"
    paid_otherwise = PlayIsland(seat=0, card=19, cell=8, discard=(62, 72))  # the list pays 48, 57
    offered, at = offering(board.moves, paid_otherwise) or ((), -1)
    assert offered[at].token == "19@8-62,72" and offered[at].cost == 2 and len(offered) == len(board.moves)
    assert [m for i, m in enumerate(offered) if i != at] == [m for i, m in enumerate(board.moves) if i != at]
    assert offering(board.moves, PlayIsland(seat=0, card=19, cell=35)) is None


def test_play_refuses_an_illegal_move_with_the_engines_reason_and_changes_nothing():
    board = Board.open(small())
    with pytest.raises(MoveRefused) as refused:
        board.play("1@5")
    assert isinstance(refused.value.reason, IllegalAction)
    assert str(refused.value) == board.state.explain_illegal(next(iter(parse_notation(f"deal 1 1 {SMALL}\n1@5\n").actions)))
    assert "island 1 is not in seat 0's hand" in str(refused.value)
    with pytest.raises(MoveRefused, match=r"^column 4: '10@': expected a cell number") as refused:
        board.play("10@")
    assert isinstance(refused.value.reason, NotationError)
    with pytest.raises(MoveRefused, match=r"^move 3 of 3, 1@5 \(turn 3\): .*breaks the ascending order") as refused:
        board.play("10@4 7@2  1@5")  # the first two are legal: all or nothing
    assert refused.value.column == 11  # where 1@5 starts in the line typed
    with pytest.raises(MoveRefused, match=r"^move 2 of 2, 7@ \(turn 2\): column 8: '7@': expected a cell number"):
        board.play("10@4 7@")
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
    assert hint.verdict == Verdict.WIN and hint.judgement == MoveCheck.KEPT and hint.best is not None
    after = board.play_action(hint.best)
    assert solve(after.line, HINT).verdict == Verdict.WIN  # the best move keeps the win
    assert hint.words()[1].startswith("best next move: ")
    assert hint.words()[-1] == "the last move (turn 1, 10@4) kept the win"


@pytest.mark.slow
def test_hint_says_when_a_move_threw_the_win_away_and_when_the_game_was_already_lost():
    threw = Board.open(small()).play("5@4")  # proven by the complete search: no line wins after it
    hint = threw.hint(HINT)
    assert hint.verdict == Verdict.NO_WIN and hint.best is None
    assert hint.judgement == MoveCheck.THREW and "threw the win away" in hint.words()[-1]
    later = threw.play("2@0").hint(HINT)
    assert later.verdict == Verdict.NO_WIN and later.judgement == MoveCheck.ALREADY_LOST
    assert later.words()[0].startswith("lost: ")


@pytest.mark.slow
def test_a_hint_that_runs_out_of_time_says_unknown():
    board = Board.open(deal(OFFICIAL, 4, 1)).play("19@8")
    nothing = Budget(reproducible=True, greedy_playouts=0, search_nodes=0, cpsat_deterministic=0.001)
    hint = board.hint(nothing)
    assert hint.verdict == Verdict.UNKNOWN and hint.best is None and hint.judgement == MoveCheck.UNKNOWN
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
    board = load_board(str(Path(__file__).parents[2] / "puzzles" / "catalogue" / entry.file))
    assert board.goal is not None and (board.goal.id, board.goal.grade) == (entry.id, entry.grade)
    assert board.goal.solution_spare is not None and board.turn == 0


def test_a_moves_words_name_its_rocks_move():
    board = Board.open(deal(PRESETS["rocks-manual"], 1, 1))
    move = next(m for m in board.moves if m.token == "19@0>0")
    assert move.words == "19 at cell 0; the rocks move to row 0"
    assert Board.open(small()).moves[0].words == "2 at cell 0"


def test_back_to_undoes_to_a_turn_and_redo_plays_the_moves_again():
    board = Board.open(small()).play("10@4 7@2 1@0")
    back = board.back_to(1)
    assert back.turn == 1 and back.undone == board.actions[1:] and back.state == board.states[1]
    assert back.redo().redo().state == board.state
    with pytest.raises(BoardError, match=r"not one of this game's 0\.\.3"):
        board.back_to(4)


def test_the_check_proves_which_move_threw_the_win_away():
    start = Board.open(small())
    threw = start.play("5@4")  # proven lost by the complete search; the deal is a proven win
    proofs = Proofs().check(start, QUICK).check(threw, QUICK)
    assert (proofs.at(threw, 0), proofs.at(threw, 1)) == (Verdict.WIN, Verdict.NO_WIN)
    assert proofs.judge(threw) == MoveCheck.THREW and proofs.thrown_at(threw) == 1 and proofs.last_winnable(threw) == 0
    later = threw.play("2@0")
    assert proofs.check(later, QUICK) == proofs  # after a proven loss nothing is solved: lost too
    assert proofs.judge(later) == MoveCheck.ALREADY_LOST and proofs.thrown_at(later) == 1
    kept = start.play("10@4")
    assert Proofs().check(kept, QUICK).judge(kept) == MoveCheck.KEPT
    # Several moves at once: the check walks back from the last to the one that threw the win.
    several = start.play("10@4 2@1 1@0-5")
    walked = Proofs().check(several, QUICK, since=0)
    assert walked.thrown_at(several) == 2 and walked.last_winnable(several) == 1
    assert walked.at(several, 0) is None  # the walk stops at the first proven win


def test_a_saved_puzzle_game_stays_that_puzzle_in_both_forms(tmp_path):
    board = open_board(DealSource(), None, "tq1-2p-8cf48077-5")
    goal = board.goal
    assert goal is not None and goal.solution_spare is not None
    for _ in range(2):
        board = board.play(board.moves[0].token)
    assert "on puzzle tq1-2p-8cf48077-5" in board.save(tmp_path / "game.tq")
    board.save(tmp_path / "game.json")
    lines = (tmp_path / "game.tq").read_text().splitlines()
    assert lines[:2] == ["deal 5 2", f"puzzle tq1-2p-8cf48077-5 grade {goal.grade}"]
    data = json.loads((tmp_path / "game.json").read_text())
    assert data["deal"]["puzzle"] == {"id": "tq1-2p-8cf48077-5", "grade": goal.grade}
    for name in ("game.tq", "game.json"):
        loaded = load_board(str(tmp_path / name))
        assert loaded.goal == goal and loaded.actions == board.actions  # grade, solution and target
        shown = " ".join(run("show", tmp_path / name).output.split())
        assert f"{name}: line of 2 action(s) on puzzle tq1-2p-8cf48077-5, grade {goal.grade} of 5" in shown
    data["deal"]["puzzle"]["grade"] = 9  # a block that is there must be right
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"bad\.json: line\.deal\.puzzle\.grade: must be an integer 1\.\.5, got 9"):
        load_board(str(tmp_path / "bad.json"))


def test_a_won_puzzle_game_saved_and_loaded_is_compared_with_the_solution(tmp_path):
    won = load_board(str(small_puzzle(tmp_path))).play(WON)
    for name in ("won.tq", "won.json"):  # beside the puzzle's solution
        won.save(tmp_path / name)
        assert load_board(str(tmp_path / name)).goal_words() == won.goal_words()
    assert won.goal_words()[-1] == "you won with 1 spare card(s): as many as the puzzle's solution"


def test_a_puzzle_line_of_the_notation_is_checked():
    for line, error in (
        ("puzzle", "expected 'puzzle ID grade G'"),
        ("puzzle p1 grade 6", "expected a grade (1 to 5)"),
        ("puzzle p1 level 2", "column 11: 'level': expected 'puzzle ID grade G'"),
        ("puzzle p1 grade 2 extra", "'extra': expected 'puzzle ID grade G'"),
    ):
        with pytest.raises(NotationError, match=re.escape(error)):
            parse_notation(f"deal 1 1 {SMALL}\n{line}\n10@4\n")
    assert parse_notation(f"deal 1 1 {SMALL}\npuzzle p1 grade 2\n10@4\n") == Board.open(small()).play("10@4").line


@pytest.mark.slow
def test_in_a_puzzle_the_hints_head_for_the_most_spare_cards():
    line = parse_notation(f"deal 7 1 {SMALL}\n")  # a deal whose first win found keeps no card
    board = Board.open(line, Goal.of("p", 2, solve(line, QUICK, objective=Objective.SPARE).line, line.deal))
    assert board.objective == Objective.SPARE and Board.open(line).objective == Objective.ANY

    def follow(board: Board, objective: Objective | None) -> Board:
        while not board.over:
            best = board.hint(QUICK, objective).best
            assert best is not None
            board = board.play_action(best)
        return board

    assert board.goal is not None and follow(board, None).state.cards_left == board.goal.solution_spare == 1
    assert follow(board, Objective.ANY).state.cards_left == 0  # any win: fewer spare cards


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
    """Wait for every solve (hint, check, analysis); a check that ends may start the next."""
    await pilot.pause()
    while any(worker.is_running for worker in app.workers):
        await app.workers.wait_for_complete()
        await pilot.pause()


def _screen(app) -> str:
    """The screen as a player reads it: one line of text per row."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


async def _play_a_whole_puzzle(folder: Path) -> None:
    app = PlayApp(load_board(str(small_puzzle(folder))), hint_time=2)
    app.budget = QUICK
    async with app.run_test(size=(150, 50)) as pilot:
        assert app.said.startswith("Type a move (41@20)")
        await _type(pilot, "help")
        assert app.reported.startswith("Type a move in the notation") and "ctrl+g back" in app.reported
        await _type(pilot, "1@5")  # seat 0 holds 2, 5 and 10
        assert app.said == "refused: play: island 1 is not in seat 0's hand" and app.board.turn == 0
        assert app.query_one("#command", Input).value == "1@5"  # kept, to be mended
        app.query_one("#command", Input).value = ""
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
        await pilot.press("ctrl+b")  # the best three moves, ranked by their verdicts
        await _settle(app, pilot)
        ranked = app.reported.splitlines()
        assert re.fullmatch(r"\d+ move\(s\) ranked in [\d.]+ s; the best:", ranked[0]), ranked
        assert re.fullmatch(r"1\. \S+ wins: \d+ spare, \d+ turns( \(proven\))?", ranked[1]) and len(ranked) == 4, ranked
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
        shown = _screen(app).splitlines()
        # The analysis has a screen of its own, its verdict first, above the table.
        assert shown[1].startswith("Deal: WIN") and shown[2].startswith("The win was never lost.")
        assert any(line.startswith("before turn") for line in shown[3:])
        await pilot.press("ctrl+z")  # the board's keys wait while the analysis covers it
        assert app.board.turn == 8
        app.checked(app.board, app.proofs)  # a check, and a hint, that end meanwhile
        app.hinted(app.board.undo(), "no hint: late")
        assert app.said.startswith("the hint for turn 8 came after the board changed")
        await pilot.press("escape")
        await _enter(pilot, f"load {folder / 'game.json'}")
        assert app.board.turn == 5 and app.said.startswith("loaded ")
        # The game loaded is another: nothing of the last one's analysis is kept or shown.
        assert app.analysis is None and "never lost" not in _screen(app)
        await _enter(pilot, "load nowhere.json")
        assert app.said.startswith("not loaded: ") and app.board.turn == 5
        await _enter(pilot, "analyze")
        assert "for a game that is over" in app.said


@pytest.mark.slow
def test_play_a_whole_puzzle_on_the_board(tmp_path):
    asyncio.run(_play_a_whole_puzzle(tmp_path))


def _drive(board: Board, script: Callable[[PlayApp, Pilot], Awaitable[None]], size=(80, 24), check=False) -> None:
    """Run ``script(app, pilot)`` on the board's app, headless at ``size``, its solves quick."""
    app = PlayApp(board, check=check)
    app.budget = QUICK

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(run())


def _rows_and_hands(state, last: int | None) -> tuple[list[str], list[str]]:
    """Patterns of each grid row (top first: ``.N`` an empty cell, ``*N`` the last card) and
    of each seat's line (its hand's cards in order)."""
    cols, rows = state.rules.cols, []
    for row in reversed(range(state.rules.rows)):
        cells = [
            ("*" if cell == last else "") + (f".{cell}" if state.grid[cell] is None else str(state.grid[cell]))
            for cell in range(row * cols, (row + 1) * cols)
        ]
        rows.append(rf"^ *{row} +" + " +".join(re.escape(c) for c in cells) + r"( |$)")
    hands = [rf"^ *{seat}( <)? +{' '.join(map(str, hand))} " for seat, hand in enumerate(state.hands)]
    return rows, hands


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_the_board_shows_the_grid_every_hand_and_the_moves(size):
    board = Board.open(deal(OFFICIAL, 5, 1)).play("19@8 41@10")

    async def script(app, pilot) -> None:
        shown = _screen(app).splitlines()
        rows, hands = _rows_and_hands(board.state, 10)
        for pattern in rows + hands:
            assert any(re.match(pattern, line) for line in shown), pattern
        for move in board.moves[:4]:  # the list, one move a line
            assert sum(line.count(f" {move.token} ") for line in shown) == 1
        assert any("  1. 19@8 " in line for line in shown)  # the history
        piles = [line for line in shown if any(re.match(h, line) for h in hands)]
        if size == (80, 24):  # each pile on one line, shortened with a count
            assert all(re.search(r"… \(\+\d+\) +1[23]( |$)", line) for line in piles[1:]), "\n".join(shown)
        else:  # every card of every pile
            for seat, line in enumerate(piles):
                assert " ".join(map(str, board.state.pile(seat))) in line
        assert app.said.startswith("Type a move") and len(app.said) < size[0]  # the help waits for help

    _drive(board, script, size)


def _board_lines(app) -> list[str]:
    """The board's drawing, checked: no line wider than the board, and the seats' column
    holds seat numbers only (a pile that wraps goes on under its own column)."""
    view = app.query_one(BoardView)
    lines = view.render().plain.splitlines()
    assert max(map(cell_len, lines)) <= view.size.width <= app.size.width
    seats = lines.index(next(line for line in lines if line.startswith("Seat")))
    end = next(i for i, line in enumerate(lines) if line.startswith("Start "))
    for line in lines[seats + 1 : end]:
        assert re.fullmatch(r" {3}\d| \d <| {4}", line[:4]) and line[4:6] == "  ", line
    return lines


@pytest.mark.slow
def test_the_board_is_drawn_again_for_each_size_it_is_resized_to():
    board = Board.open(deal(OFFICIAL, 2, 1)).play("19@8 6@0")
    fresh: dict[tuple[int, int], list[str]] = {}
    for size in ((80, 24), (120, 40)):

        async def started(app, pilot, size=size) -> None:
            fresh[size] = _board_lines(app)

        _drive(board, started, size)

    async def resized(app, pilot) -> None:
        for size in ((80, 24), (120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert _board_lines(app) == fresh[size]  # drawn for the new size, as if started there
        assert max(map(len, fresh[120, 40])) > 60  # the piles use the room (not wrapped at 45)

    _drive(board, resized)


@pytest.mark.slow
def test_the_board_checks_each_move_and_goes_back_to_the_last_proven_win():
    async def script(app, pilot) -> None:
        await _settle(app, pilot)  # the start, solved when the board opens: a proven win
        await _type(pilot, "10@4")
        await _settle(app, pilot)
        assert "threw" not in _screen(app)
        await _type(pilot, "2@1")  # proven lost by the complete search
        await _settle(app, pilot)
        flag = "Turn 2 (2@1) threw the win away: a proven win before it, a proven loss after it."
        assert app.said.startswith(flag) and flag in " ".join(_screen(app).split())
        await _type(pilot, "1@0-5")  # the flag stays while the move that threw the win is in the game
        await _settle(app, pilot)
        assert "Turn 2 (2@1) threw" in _screen(app)
        await pilot.press("ctrl+g")  # back to the last position proven winnable
        assert app.board.turn == 1 and app.said.startswith("back to turn 2, a proven win: 2 move(s) undone")
        assert "threw" not in _screen(app)
        await pilot.press("ctrl+n")
        assert not app.checking and app.said.startswith("check off")
        await _type(pilot, "7@1")  # lost too
        await _settle(app, pilot)
        assert app.proofs.at(app.board, 2) is None and "threw" not in _screen(app)  # nothing solved
        await pilot.press("ctrl+n")
        await _settle(app, pilot)
        assert app.proofs.at(app.board, 2) == Verdict.NO_WIN and "Turn 2 (7@1) threw" in _screen(app)

    _drive(Board.open(small()), script, check=True)


@pytest.mark.slow
def test_with_the_check_off_no_move_is_solved():
    async def script(app, pilot) -> None:
        await _type(pilot, "5@4")
        assert not list(app.workers) and app.proofs == Proofs()
        await pilot.press("ctrl+g")
        assert app.board.turn == 1 and app.said.startswith("no position of this game is proven winnable yet")

    _drive(Board.open(small()), script)


@pytest.mark.slow
def test_a_hint_is_numbered_as_the_board_and_goes_when_the_board_changes():
    async def script(app, pilot) -> None:
        field = app.query_one("#command", Input)
        await _enter(pilot, "10@4 7@2  1@5")
        assert app.said.startswith("refused: move 3 of 3, 1@5 (turn 3): ") and app.board.turn == 0
        assert (field.value, field.selection) == ("10@4 7@2  1@5", (10, 13))  # kept, the move refused selected
        await _enter(pilot, "10@4")
        await pilot.press("ctrl+t")
        await _settle(app, pilot)
        shown = _screen(app)
        assert "Turn 2: seat 0 to move" in shown and "Hint: turn 2, seat 0 to move" in shown  # numbered alike
        assert "best next move: " in app.reported
        hint = app.last_hint
        assert hint is not None
        await pilot.press("ctrl+z")  # the hint was about another position: it goes
        assert app.reported == "" and "best next move" not in _screen(app)
        app.hinted(app.board.play("10@4"), hint)  # a hint that comes after the board changed
        assert app.reported == "" and app.said.startswith("the hint for turn 2 came after the board changed")

    _drive(Board.open(small()), script)


@pytest.mark.slow
def test_the_move_list_shows_when_it_has_the_focus():
    async def script(app, pilot) -> None:
        moves, field = app.query_one(MoveList), app.query_one("#command", Input)
        assert "Tab: pick from here" in _screen(app) and moves.highlighted == 0
        await pilot.press("tab")
        assert app.focused is moves and "arrows, Enter picks" in _screen(app)
        await pilot.press("down", "enter")
        assert app.focused is field and field.value == "2@1"
        assert "Tab: pick from here" in _screen(app)

    _drive(Board.open(small()), script)


@pytest.mark.slow
def test_a_puzzles_hint_heads_for_its_spare_cards(tmp_path):
    async def script(app, pilot) -> None:
        await pilot.press("ctrl+t")
        await _settle(app, pilot)
        assert "that line's spare: 1 (proven optimal)" in app.reported

    _drive(load_board(str(small_puzzle(tmp_path))), script)


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
    result = run("play", "--seed", "1", "--players", "2", "--no-check", "--objective", "spare")  # taken
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
    from tranquility.solver.engine.position import Position
    from tranquility.solver.formats.position_forms import position_to_text

    start = Board.open(small()).play("10@4 7@2")
    text = position_to_text(Position.of(start.state))
    board = open_board(DealSource(position_text=text), None, None)
    assert board.state.grid == start.state.grid and board.state.hands == start.state.hands
    assert board.play("1@0 S/2,5 8@3-4 6@1-3 11@5-9 F").state.won


# -- the typing line, the move list and the keys at 80x24 ------------------------------------------

FOUR_IN = "66@29 17@7 32@14 6@2"  # deal 1 2: seat 0 then holds 19 48 57 62 72


def _four_in() -> Board:
    return Board.open(deal(OFFICIAL, 2, 1)).play(FOUR_IN)


def test_a_refused_move_is_selected_so_that_the_next_one_replaces_it():
    async def script(app, pilot) -> None:
        field = app.query_one("#command", Input)
        await _type(pilot, "80@3")  # seat 0 holds no 80
        assert app.said == "refused: play: island 80 is not in seat 0's hand"
        assert (field.value, field.selection) == ("80@3", (0, 4))  # kept, and selected
        await _type(pilot, "72@32")  # typed over it: not glued to it (72@3280@3)
        assert app.board.turn == 5 and app.said == "played 72@32." and field.value == ""
        await _type(pilot, "14@5 99@1")  # of several moves, the one refused is selected
        assert (field.value, field.selection) == ("14@5 99@1", (5, 9))
        await _type(pilot, "19@9")  # seat 1 plays 14 at 5, then seat 0 19 at 9
        assert app.board.turn == 7 and field.value == "" and app.said == "played 14@5 19@9."

    _drive(_four_in(), script)


def _hint_of(board: Board, best) -> Hint:
    return Hint(Verdict.WIN, DecidedBy.GREEDY, 0.01, None, best, None, None, None, board.turn)


def test_the_list_offers_every_pair_to_discard_and_the_hints_move():
    board = _four_in()

    async def script(app, pilot) -> None:
        moves = app.query_one(MoveList)
        tokens = [m.token for m in app.listed]
        assert {"x19,48", "x57,72", "x62,72"} <= set(tokens) and f"Legal moves ({len(board.moves)})" in _screen(app)
        app.hinted(board, _hint_of(board, DiscardTwo(seat=0, discard=(57, 72))))
        assert app.listed[moves.highlighted].token == "x57,72" and "the move list highlights it" in app.reported
        app.hinted(board, _hint_of(board, PlayIsland(seat=0, card=19, cell=8, discard=(62, 72))))  # the list pays 48, 57
        assert app.listed[moves.highlighted].token == "19@8-62,72" and len(app.listed) == len(board.moves)
        await pilot.press("tab", "enter")  # Tab, Enter: the hint's move in the input line
        assert app.query_one("#command", Input).value == "19@8-62,72"

    _drive(board, script)


def _rows_of_the_list(app) -> list[str]:
    return [line.split("▊", 2)[-1].rstrip("▎ ▁▂▃▄▅▆▇█") for line in _screen(app).splitlines() if " cost " in line]


def test_at_80_columns_the_key_bar_and_the_moves_are_whole_and_a_hint_clears_a_refusal():
    async def script(app, pilot) -> None:
        shown = _screen(app).splitlines()
        assert shown[-1].rstrip().endswith("^r Analysis") and "^b Moves" in shown[-1]  # every key, whole
        rows = _rows_of_the_list(app)
        assert rows and not any("…" in row for row in rows), rows  # a move's words are left out, never cut
        assert all(re.fullmatch(r" cost \d  \S+ *", row) for row in rows), rows
        await _type(pilot, "80@3")
        assert app.said.startswith("refused: ")
        await pilot.press("ctrl+t")
        await _settle(app, pilot)
        assert app.reported.startswith("still winnable") and "refused" not in _screen(app)  # not stale
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        rows = _rows_of_the_list(app)  # room for the words
        assert rows and all(re.fullmatch(r" cost \d  (\S+) +(\d+ at cell \d+|discard \S+, \S+)", row) for row in rows), rows

    _drive(_four_in(), script)


def _contrast(style) -> float:
    """The WCAG contrast ratio of a segment's colours (1 to 21; text wants 4.5 at least)."""

    def luminance(color) -> float:
        channels = [c / 255 for c in color.get_truecolor()]
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(style.color), luminance(style.bgcolor)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("web", [False, True])
def test_the_web_board_takes_keys_no_browser_takes_and_its_titles_are_readable(web):
    board = _four_in()

    async def script(app, pilot) -> None:
        bar = _screen(app).splitlines()[-1]
        browsers = ("^r", "^t", "^n", "^s", "^o")
        assert not any(key in bar for key in browsers) if web else all(key in bar for key in browsers), bar
        if web:
            assert bar.split() == ["^z", "Undo", "^y", "Redo", "f8", "Back", "f2", "Hint", "f4", "Moves", "f9", "Analysis"]
            assert app.said.startswith("Type a move (41@20) and Enter") and "F2 hint" in app.said
            await pilot.press("ctrl+r", "ctrl+t", "ctrl+n")  # the browser's: nothing happens on the board
            assert app.checking is False and not app.reported and not app.workers
            await pilot.press("f2")  # the hint
            await _settle(app, pilot)
            assert app.reported.startswith("still winnable")
            await _enter(pilot, "help")
            assert "f2 hint" in app.reported and "ctrl+t" not in app.reported
            await _type(pilot, "72@32")
            await pilot.press("f8")  # back to the position the hint proved winnable
            assert app.board.turn == 4 and app.said.startswith("back to turn 5, a proven win")
            await pilot.press("ctrl+y", "ctrl+y")
            assert app.board.turn == 5 and app.said.startswith("nothing to redo")
        titled = [
            seg
            for strip in app.screen._compositor.render_strips()
            for seg in strip
            if "Legal moves" in seg.text or "Tab: pick" in seg.text
        ]
        assert len(titled) == 2 and all(_contrast(seg.style) >= 4.5 for seg in titled), [s.style for s in titled]

    app = PlayApp(board, check=False, web=web)
    app.budget = QUICK

    async def run_it() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await script(app, pilot)

    asyncio.run(run_it())


def test_one_table_gives_the_keys_the_typed_commands_and_the_help():
    from tranquility.cli.play.commands import BOARD_COMMANDS, KEYED

    keys = {key for command in KEYED for key in (command.key, command.web_key) if key}
    assert {binding.key for binding in PlayApp.BINDINGS if isinstance(binding, Binding)} == keys
    assert all(isinstance(binding, Binding) for binding in PlayApp.BINDINGS)
    app = PlayApp(Board.open(deal(OFFICIAL, 2, 1)), web=False)
    said = app.help_words()
    assert all(command.listed in said for command in BOARD_COMMANDS if command.listed)
    assert all(f"{command.key} {command.words}" in said for command in KEYED if command.key)
    assert app.keyed("hint") == "ctrl+t" and app.keyed("save!") == "save!"
