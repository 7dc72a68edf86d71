"""``tranquility show``: a deal, position or line drawn at its end or after N actions."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.puzzles.shipped import catalogue, catalogue_root
from tranquility.solver.engine.actions import PlayIsland, PlayMonster
from tranquility.solver.engine.cards import sorted_cards
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Adjacency, Order, Rocks, Rules
from tranquility.solver.engine.state import State, replay
from tranquility.solver.formats.codecs import deal_to_json, line_to_json
from tranquility.solver.formats.notation import parse_notation

from ..helpers import ENV, SMALL, WON, random_game, run, write

# show --json prints the one JSON shape of a position (tranquility-position/1).
KEYS = (
    "format", "rules", "grid", "hands", "piles", "seat", "start_played", "won", "sunk", "removed_islands", "rocks_row",
    "rocks_rolls",
)


@pytest.fixture
def won_game(tmp_path):
    """Seed 1, one seat, a 2x3 grid: won in 8 turns, the Start at turn 4."""
    return write(tmp_path / "game.tq", f"deal 1 1 {SMALL}\n{WON}\n")


def show_json(*args):
    result = run("show", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def expected_json(line: Line, turn: int) -> dict:
    """The position replayed independently of the command."""
    state = replay(line.deal, line.actions[:turn])
    piles = [list(state.pile(seat)) for seat in range(state.players)]
    hands = [list(h) for h in state.hands]
    values: tuple[object, ...] = (
        "tranquility-position/1", state.rules.to_dict(), list(state.grid), hands, piles, state.seat,
        state.start_played, state.won, [c for c in state.gone if c != "M"], list(line.deal.removed_islands),
        state.rocks_row, [],  # no fixture here has rocks=auto
    )
    return dict(zip(KEYS, values, strict=True))


def test_help_shows_examples():
    result = run("show", "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.output and "  tranquility show " in result.output
    assert "--turn" in result.output and "--json" in result.output


@pytest.mark.parametrize("turn", [0, 3, 4, 7, 8])
def test_json_at_several_turns(won_game, turn):
    line = parse_notation(won_game.read_text())
    data = show_json(won_game, "--turn", turn)
    assert list(data) == list(KEYS)
    assert data == expected_json(line, turn)


def test_json_values_along_the_won_line(won_game):
    start, before, after, end = (show_json(won_game, "--turn", t) for t in (0, 3, 4, 8))
    opening = parse_notation(won_game.read_text()).deal.piles[0][:3]
    assert start["grid"] == [None] * 6 and start["hands"] == [sorted(opening)]
    assert start["start_played"] is False and start["won"] is False
    assert "S" in before["hands"][0] and before["start_played"] is False
    assert after["start_played"] is True and 2 not in after["hands"][0] + after["piles"][0]
    assert end["won"] is True and None not in end["grid"]
    assert end["piles"] == [[]]
    # Without --turn: the end of the line.
    assert show_json(won_game) == end


def test_text_at_the_start_middle_and_end(won_game):
    start = piped("show", won_game, "--turn", 0)
    assert start.exit_code == 0, start.output
    out = start.stdout
    assert f"{won_game}: line of 8 action(s), 1 player(s)" in out
    assert "Rules: official + rows=2 cols=3 islands=12 finish=1 hand=3 start_discards=2: 2x3 grid, islands 1..12" in out
    assert "Starting position (turn 0 of 8)" in out
    assert "Start not yet played; 0/6 cells filled" in out
    assert "Discarded: none" in out and "Status: open, seat 0 to move" in out
    assert "Next in the line: turn 1: seat 0 plays 10 at cell 4, paying nothing" in out

    middle = piped("show", won_game, "--turn", 3).stdout
    assert "After turn 3 of 8: seat 0 plays 1 at cell 0, paying nothing" in middle
    assert "(it holds the Start card and must play it)" in middle
    assert "Next in the line: turn 4: seat 0 plays the Start card" in middle
    grid = middle.split("After turn 3")[1]
    # Top row first; an empty cell shows its index, the last move's card is marked.
    assert "  1  .3  10  .5\n" in grid and "  0  *1  .1   7\n" in grid

    end = piped("show", won_game).stdout
    assert "After turn 8 of 8: seat 0 plays a Finish card" in end
    assert "Discarded: 2 3 4 5 9" in end and "Status: won" in end
    assert "Next in the line" not in end


def test_a_deal_file_is_its_starting_position(tmp_path):
    game = deal(Rules(), 4, 1)
    path = write(tmp_path / "deal.json", deal_to_json(game))
    data = show_json(path)
    assert data == expected_json(Line(game), 0)
    assert data["piles"] == [list(p[5:]) for p in game.piles]
    text = run("show", path, "--turn", 0).stdout
    # A long temporary path wraps the header at a space in the test's 100 columns.
    assert f"{path}: deal, 4 player(s)" in " ".join(text.split()) and "Starting position (turn 0 of 0)" in text


def test_a_lost_position_with_monsters_and_rocks(tmp_path):
    rules = Rules(rows=3, cols=3, islands=18, finish=2, hand=3, start_discards=3, monsters=2, rocks=Rocks.MANUAL)
    game = deal(rules, 2, 4)
    state, actions = random_game(State.initial(game), random.Random(4))
    assert state.status == "lost"
    line = Line(game, tuple(actions))
    path = write(tmp_path / "lost.json", line_to_json(line))
    data = show_json(path)
    assert data == expected_json(line, len(actions)) and data["sunk"] and data["rocks_row"] is not None
    text = run("show", path).stdout
    assert f"Status: lost: seat {state.seat}, to move, has no legal action" in text
    assert state.rocks_row == 2 and f"rocks {state.rocks_row}" in text
    assert "Out of the game (monsters and sunk islands): 17 M" in text


@pytest.mark.parametrize("turn, total", [(9, 8), (100, 8)])
def test_turn_beyond_the_line_exit_2(won_game, turn, total):
    for extra in ([], ["--json"]):
        result = run("show", won_game, "--turn", turn, *extra)
        assert result.exit_code == 2
        assert result.stdout == "" and "Traceback" not in result.output
        assert f"{turn} is beyond the end of the line ({total} action(s))" in result.stderr


def test_turn_beyond_a_deal_and_negative_turns_exit_2(tmp_path):
    path = write(tmp_path / "deal.json", deal_to_json(deal(Rules(), 2, 1)))
    assert "beyond the end of the line (0 action(s))" in run("show", path, "--turn", 1).stderr
    result = run("show", path, "--turn", -1)
    assert result.exit_code == 2 and "'--turn'" in result.stderr


def test_an_illegal_action_before_the_turn_exit_2(tmp_path):
    """show cannot use a line that breaks a rule before turn N: exit 2 (only verify answers 1)."""
    path = write(tmp_path / "bad.tq", f"deal 1 1 {SMALL}\n10@4 7@2 1@0 S/2,5 8@3 F\n")
    result = run("show", path, "--turn", 5)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: turn 5: seat 0 plays 8 at cell 3, paying nothing: "
        "8 at cell 3 costs 1; the action discards 0 card(s) (cannot show turn 5)\n"
    )
    # The turns before the illegal action still show.
    assert show_json(path, "--turn", 4)["start_played"] is True


@pytest.mark.parametrize(
    "content, message",
    [("{oops", "not valid JSON"), ("deal 1 1\n12@", "line 2, column 4"), ("[1]", "JSON object")],
)
def test_bad_files_exit_2(tmp_path, content, message):
    path = write(tmp_path / "bad.txt", content)
    result = run("show", path)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.startswith(f"Error: {path}: ") and message in result.stderr


def test_a_deal_that_breaks_a_rule_exit_2(tmp_path):
    """show cannot use a deal with a card dealt twice: exit 2, one line naming the card."""
    data = deal_to_json(deal(Rules(), 2, 1))
    card = data["piles"][0][0]
    data["piles"][1].append(card)
    path = write(tmp_path / "twice.json", data)
    for extra in ([], ["--json"], ["--turn", 0]):
        result = run("show", path, *extra)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr == f"Error: {path}: deal: island {card} is dealt 2 times, expected 1 (cannot show turn 0)\n"


# -- every card face up: hands and piles, and a puzzle's own header ---------------------------


def piped(*args):
    """The command as a pipe sees it: no terminal and no COLUMNS, so nothing is wrapped."""
    return CliRunner(env={**ENV, "COLUMNS": None}).invoke(main, [str(a) for a in args], catch_exceptions=False)


def seat_rows(text: str) -> dict[int, str]:
    """Each seat's row of the (first) hands table, by seat."""
    lines = text.splitlines()
    first = next(i for i, row in enumerate(lines) if row.startswith("Seat "))
    rows = {}
    for row in lines[first + 1 :]:
        words = row.split()
        if not words or not words[0].isdigit():
            break
        rows[int(words[0])] = row
    return rows


def shown(row: str) -> list[str]:
    """A hands-table row's words after the seat (and its ``<``): hand, pile, count."""
    words = row.split()[1:]
    return words[1:] if words[:1] == ["<"] else words


def face_up(hand, pile) -> list[str]:
    return [*map(str, hand), *map(str, pile), str(len(pile))]


def shipped_puzzle(tmp_path, players: int = 4):
    """A shipped puzzle file copied out of the catalogue, and its catalogue entry."""
    entry = next(e for e in catalogue() if e.players == players)
    text = catalogue_root().joinpath(*entry.file.split("/")).read_text(encoding="utf-8")
    return write(tmp_path / "puzzle.json", text), entry


def test_a_puzzle_file_shows_its_id_grade_rules_and_every_card(tmp_path):
    path, entry = shipped_puzzle(tmp_path)
    result = piped("show", path)
    assert result.exit_code == 0, result.output
    head, rules = result.stdout.splitlines()[:2]
    assert head == f"{path}: puzzle {entry.id}, grade {entry.grade} of 5, 4 player(s)"
    assert rules == "Rules: official: 6x6 grid, islands 1..80, 5 Finish, hand 5; other options official"
    game = json.loads(path.read_text())
    rows = seat_rows(result.stdout.split("Starting position")[1])
    assert sorted(rows) == [0, 1, 2, 3]
    for seat, pile in enumerate(game["piles"]):
        assert shown(rows[seat]) == face_up(sorted_cards(pile[:5]), pile[5:]), seat  # the whole pile, top first


def test_every_pile_along_a_line_top_first(won_game):
    line = parse_notation(won_game.read_text())
    for turn in (0, 3, 5):
        state = replay(line.deal, line.actions[:turn])
        text = piped("show", won_game, "--turn", turn).stdout
        assert "Pile (top first)" in text
        row = seat_rows(text.split("Starting position" if turn == 0 else f"After turn {turn}")[1])[0]
        assert shown(row) == face_up(state.hands[0], state.pile(0)), turn


def test_a_deal_file_shows_every_pile(tmp_path):
    game = deal(Rules(), 3, 5)
    path = write(tmp_path / "deal.json", deal_to_json(game))
    rows = seat_rows(piped("show", path).stdout.split("Starting position")[1])
    for seat, pile in enumerate(game.piles):
        assert shown(rows[seat]) == face_up(sorted_cards(pile[:5]), pile[5:]), seat


def test_hide_piles_shows_only_the_counts(tmp_path):
    path, _ = shipped_puzzle(tmp_path)
    game = json.loads(path.read_text())
    result = piped("show", path, "--hide-piles")
    assert result.exit_code == 0, result.output
    assert "Pile (top first)" not in result.stdout and " S " not in result.stdout
    rows = seat_rows(result.stdout.split("Starting position")[1])
    for seat, pile in enumerate(game["piles"]):
        assert shown(rows[seat]) == [*map(str, sorted_cards(pile[:5])), str(len(pile) - 5)]
    assert "puzzle tq1-4p-" in result.stdout  # the header stays
    rejected = run("show", path, "--hide-piles", "--json")
    assert rejected.exit_code == 2 and "--hide-piles" in rejected.stderr and rejected.stdout == ""


def test_a_line_on_a_puzzle_names_the_puzzle(tmp_path):
    _, entry = shipped_puzzle(tmp_path, players=1)
    game = write(tmp_path / "game.tq", "deal-file puzzle.json\n")
    head = piped("show", game).stdout.splitlines()[0]
    assert head == f"{game}: line of 0 action(s) on puzzle {entry.id}, grade {entry.grade} of 5, 1 player(s)"


def test_a_deal_without_a_puzzle_block_has_no_puzzle_header(tmp_path):
    path = write(tmp_path / "deal.json", deal_to_json(deal(Rules(), 2, 1)))
    assert piped("show", path).stdout.splitlines()[0] == f"{path}: deal, 2 player(s)"


@pytest.mark.parametrize(
    "block, message",
    [([1], "deal.puzzle: must be a JSON object"), ({"grade": 2}, "deal.puzzle.id: must be a non-empty string"),
     ({"id": "p", "grade": 9}, "deal.puzzle.grade: must be an integer 1..5, got 9")],
)
def test_a_broken_puzzle_block_exit_2(tmp_path, block, message):
    path = write(tmp_path / "puzzle.json", {**deal_to_json(deal(Rules(), 2, 1)), "puzzle": block})
    result = run("show", path)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"Error: {path}: {message}" + result.stderr.split(message)[1]
    assert result.stderr.count("\n") == 1


def test_the_rules_name_the_nearest_preset_and_the_changes(tmp_path):
    game = deal(Rules(order=Order.GRID, adjacency=Adjacency.ORTHOGONAL, finish=1, monsters=4), 2, 3)
    path = write(tmp_path / "deal.json", deal_to_json(game))
    text = piped("show", path).stdout
    assert "Rules: hungarian + monsters=4: 6x6 grid, islands 1..80, 1 Finish, hand 5; order=grid adjacency=orthogonal\n" in text


def test_verify_names_the_puzzle_too(tmp_path):
    """The sibling of show's header: verify's report on a puzzle file says which puzzle."""
    path, entry = shipped_puzzle(tmp_path)
    result = piped("verify", path)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"{path}: puzzle {entry.id}, grade {entry.grade} of 5, 4 player(s)"
    assert json.loads(run("verify", path, "--json").stdout)["legal"] is True
    broken = write(tmp_path / "broken.json", {**json.loads(path.read_text()), "puzzle": {"id": 7, "grade": 1}})
    assert run("verify", broken).exit_code == 2


# -- the grid: every empty cell's index, the last move's cell marked ------------------------------


def grid_cells(text: str, rules: Rules) -> tuple[list[str], list[str]]:
    """The (first) grid drawn in ``text``: each cell's word, cell 0 first, and its lines."""
    lines = text.splitlines()
    head = next(i for i, row in enumerate(lines) if row.split()[:1] == ["row"])
    drawn = lines[head : head + 1 + rules.rows]
    cells = [""] * rules.cells
    for row in drawn[1:]:
        words = row.split()
        words = words[1:] if words[0] == "rocks" else words
        first = int(words[0]) * rules.cols
        cells[first : first + rules.cols] = words[1:]
    return cells, drawn


def expected_cells(state: State, last: int | None) -> list[str]:
    """What each cell shows: its card, ``#`` for an empty cell the rocks block, else its
    index after a dot; the cell the last move played on with a ``*`` before."""
    shown = []
    for cell, value in enumerate(state.grid):
        if value is not None:
            word = str(value)
        elif state.rocks_row == cell // state.rules.cols:
            word = "#"
        else:
            word = f".{cell}"
        shown.append(f"*{word}" if cell == last else word)
    return shown


@pytest.mark.parametrize("case", ["won", "monsters and rocks"])
def test_the_grid_shows_each_empty_cells_index_and_marks_the_last_move(tmp_path, case):
    """Piped (no styles), at every turn: the index of each empty cell as a move names it
    (``.17`` for ``24@17``), ``*`` on the card the last move placed (or the cell a Sea
    Monster sank), and the columns still aligned."""
    if case == "won":
        line = parse_notation(f"deal 1 1 {SMALL}\n{WON}\n")
    else:
        rules = Rules(rows=3, cols=3, islands=18, finish=2, hand=3, start_discards=3, monsters=2, rocks=Rocks.MANUAL)
        game = deal(rules, 2, 4)
        _, actions = random_game(State.initial(game), random.Random(4))
        line = Line(game, tuple(actions))
        assert any(isinstance(a, PlayMonster) for a in actions)  # a sunk cell is marked too
    path = write(tmp_path / "line.json", line_to_json(line))
    marked = 0
    for turn in range(len(line.actions) + 1):
        text = piped("show", path, "--turn", turn).stdout
        action = line.actions[turn - 1] if turn else None
        last = action.cell if isinstance(action, (PlayIsland, PlayMonster)) else None
        cells, drawn = grid_cells(text, line.deal.rules)
        assert cells == expected_cells(replay(line.deal, line.actions[:turn]), last), turn
        assert len({len(row) for row in drawn}) == 1, drawn  # every column right-aligned
        assert ("* = the last move's cell" in text) == (last is not None)
        marked += last is not None
    assert marked >= 3
