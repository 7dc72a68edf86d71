"""A puzzle's name in a game file: its id and grade (docs/puzzles.md).

A puzzle file carries it in its ``puzzle`` block (with the grader's score and metrics:
puzzles/puzzle_file.py); a game played on a puzzle keeps it so that it stays that puzzle
when saved and read back: a line file in its deal's ``puzzle`` block (docs/formats.md), a
notation file on a ``puzzle ID grade G`` line after the header (docs/notation.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranquility.solver.formats.json_values import FormatError

GRADES = range(1, 6)


@dataclass(frozen=True)
class PuzzleTag:
    id: str
    grade: int  # 1..5

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "grade": self.grade}


def puzzle_tag_from_json(block: Any, where: str = "deal.puzzle") -> PuzzleTag:
    """The id and grade of a ``puzzle`` block; a malformed one is a FormatError naming the key."""
    if not isinstance(block, dict):
        raise FormatError(f"{where}: must be a JSON object")
    ident, grade = block.get("id"), block.get("grade")
    if not isinstance(ident, str) or not ident:
        raise FormatError(f"{where}.id: must be a non-empty string, got {ident!r}")
    if not isinstance(grade, int) or isinstance(grade, bool) or grade not in GRADES:
        raise FormatError(f"{where}.grade: must be an integer 1..5, got {grade!r}")
    return PuzzleTag(ident, grade)
