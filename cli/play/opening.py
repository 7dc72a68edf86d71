"""The board ``play`` opens: a seeded deal, a file (a line goes on where it stops) or a
catalogue puzzle, checked against a seating."""

from __future__ import annotations

from pathlib import Path

from tranquility.solver.analysis.board import Board, Goal
from tranquility.solver.analysis.table import Seating
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Line
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.reading import read_game_file

from ..exits import InputError
from ..game_input import INPUT_ERRORS, STDIN, DealSource, GameFile, checked, input_error, read_game, usage_error


def open_board(source: DealSource, file: str | None, puzzle_id: str | None) -> Board:
    """The board ``play`` starts on: a seeded deal, a game FILE or a catalogue puzzle.
    Bad input is an InputError (exit 2) naming the file."""
    if puzzle_id is not None:
        if file is not None or source.seeded or source.has_rules:
            raise usage_error("--puzzle ID opens a catalogue puzzle: give no FILE, --seed, --players or rules")
        return _catalogue_board(puzzle_id)
    if file is None:
        return Board.open(checked(*source.resolve(None)))
    if source.seeded or source.has_rules:
        source.resolve(file)  # the usage error for FILE with the seed or rules options
    return load_board(file)


def load_board(path: str) -> Board:
    """A deal, line, notation or puzzle file as a board (at the end of its line)."""
    if path == STDIN:
        raise InputError("play reads its moves from the keyboard, so its game cannot come from - (standard input): give a file")
    read = read_game(path)
    header = read.puzzle()
    game = checked(read.game, path)  # replayed once, the board opened from it: a broken rule names the file
    try:
        start = game.line.start
        goal = None
        if header is not None and isinstance(start, Deal):  # a puzzle, or a game saved from one
            goal = Goal.of(header.id, header.grade, _solution_of(read, header.id, start), start)
        return Board.open(game, goal, source=path)
    except INPUT_ERRORS as exc:
        raise input_error(path, exc) from None


def _solution_of(read: GameFile, puzzle_id: str, game: Deal) -> Line | None:
    """A puzzle's solution: ``<id>.solution.json`` beside the file, or beside the deal file
    its notation names (``generate --with-solutions`` writes it beside the puzzle), else the
    catalogue's when it ships that puzzle."""
    from tranquility.puzzles import shipped

    for folder in dict.fromkeys(Path(p).parent for p in (read.name, read.deal_file())):
        beside = folder / f"{puzzle_id}.solution.json"
        if beside.exists():
            found = read_game_file(beside)
            return found if isinstance(found, Line) else None
    try:
        ships = shipped.puzzle(puzzle_id) == game
    except shipped.UnknownPuzzle:
        return None
    return shipped.solution(puzzle_id) if ships else None


def _catalogue_board(puzzle_id: str) -> Board:
    from tranquility.app.source import puzzle_board

    try:
        return puzzle_board(puzzle_id)
    except BadInput as exc:
        raise InputError(str(exc)) from None


def seated_board(source: DealSource, file: str | None, puzzle_id: str | None, seating: Seating | None) -> Board:
    """The board ``play`` opens, checked against the seating: a seat the game does not
    have is a usage error (exit 2)."""
    board = open_board(source, file, puzzle_id)
    if seating is not None:
        try:
            seating.sit(board)
        except BadInput as exc:
            raise usage_error(f"--{exc}") from None  # "seat K: ...", given as --seat K
    return board
