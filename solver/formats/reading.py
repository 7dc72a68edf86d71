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
    """A deal, a position or a line from the file at ``path`` (``game_from_text``)."""
    return game_from_text(read_text(path), path)


def game_from_text(text: str, path: str | Path) -> Game:
    """A deal, a position or a line from a game file's text: JSON by its ``format`` key, a
    position's text form when its first word is ``tq1``, or the notation (docs/notation.md)
    when the text starts with another word or a ``#`` comment. ``path`` names the file in
    errors, and a notation file's ``deal-file`` is relative to its folder (to the current
    folder for a name without one, such as ``<stdin>``)."""
    if is_position_text(text):
        try:
            return position_from_text(text)
        except FormatError as exc:
            raise FormatError(f"{path}: {exc}") from None
    if looks_like_notation(text):
        return notation_from_text(text, path)
    return game_from_json(parse_json(text, path), path)
