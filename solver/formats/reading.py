"""Reading a game file in any of its forms: a JSON deal, position or line file
(docs/formats.md), a position in the text form, or a game in the notation
(docs/notation.md), told apart by their content."""

from __future__ import annotations

from pathlib import Path

from tranquility.solver.engine.line import Game
from tranquility.solver.formats.codecs import game_from_json
from tranquility.solver.formats.json_values import FormatError, parse_json, read_text
from tranquility.solver.formats.notation import looks_like_notation, notation_from_text
from tranquility.solver.formats.position_forms import is_position_text, position_from_text


def read_game_file(path: str | Path) -> Game:
    """A deal, a position or a line: a JSON file by its ``format`` key, a position's text
    form when its first word is ``tq1``, or a notation file (docs/notation.md) when the text
    starts with another word or a ``#`` comment."""
    text = read_text(path)
    if is_position_text(text):
        try:
            return position_from_text(text)
        except FormatError as exc:
            raise FormatError(f"{path}: {exc}") from None
    if looks_like_notation(text):
        return notation_from_text(text, path)
    return game_from_json(parse_json(text, path), path)
