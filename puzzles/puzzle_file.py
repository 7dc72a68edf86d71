"""The ``puzzle`` block of a puzzle file (docs/puzzles.md): a deal file with the puzzle's id,
grade and grader beside the deal. Reading a game ignores the block (the deal is what is
played); this reads it, for the commands that show it. Engine imports only."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tranquility.solver.engine.deal import Deal
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.codecs import DEAL_FORMAT, LINE_FORMAT
from tranquility.solver.formats.json_values import FormatError, parse_json, read_text
from tranquility.solver.formats.notation import looks_like_notation, notation_deal_file, notation_puzzle
from tranquility.solver.formats.puzzle_tag import puzzle_tag_from_json


def puzzle_id(game: Deal) -> str:
    """Stable and readable: ``tq1-<players>p-<first 8 hex of the rules hash>-<seed>``."""
    if game.seed is None:
        raise BadInput("only a seeded deal has a puzzle id")
    return f"tq1-{game.players}p-{game.rules.digest()[:8]}-{game.seed}"


@dataclass(frozen=True)
class PuzzleHeader:
    """What a puzzle file says about itself (``Puzzle.to_json`` writes it)."""

    id: str
    grade: int
    score: float | None = None
    grader: str | None = None


def puzzle_header(data: Any, where: str = "deal") -> PuzzleHeader | None:
    """The ``puzzle`` block of a deal file's JSON, or None when it has none; a block that is
    there but malformed is a FormatError naming the key."""
    if not isinstance(data, dict) or "puzzle" not in data:
        return None
    block = data["puzzle"]
    tag = puzzle_tag_from_json(block, f"{where}.puzzle")
    score, grader = block.get("score"), block.get("grader")
    return PuzzleHeader(
        id=tag.id,
        grade=tag.grade,
        score=float(score) if isinstance(score, (int, float)) and not isinstance(score, bool) else None,
        grader=grader if isinstance(grader, str) else None,
    )


def read_puzzle_header(path: str | Path) -> PuzzleHeader | None:
    """The puzzle block of the game file at ``path`` (``puzzle_header_from_text``)."""
    return puzzle_header_from_text(read_text(path), path)


def puzzle_header_from_text(text: str, path: str | Path) -> PuzzleHeader | None:
    """The puzzle block of a game file's text: of a JSON deal file, or of a line file's deal
    (a game saved from a puzzle); of a notation file, its ``puzzle ID grade G`` line, else
    the block of the deal file it names (``deal-file PATH``, relative to ``path``'s folder
    as the game's reading takes it); None for any other game file. Errors name the file."""
    if looks_like_notation(text):
        tag = notation_puzzle(text)
        if tag is not None:
            return PuzzleHeader(tag.id, tag.grade)
        deal_file = notation_deal_file(text, path)
        return None if deal_file is None else read_puzzle_header(deal_file)
    data = parse_json(text, path)
    if not isinstance(data, dict):
        return None
    try:
        if data.get("format") == DEAL_FORMAT:
            return puzzle_header(data)
        if data.get("format") == LINE_FORMAT:
            return puzzle_header(data.get("deal"), "line.deal")
    except FormatError as exc:
        raise FormatError(f"{path}: {exc}") from None
    return None
