"""Reading a game file in any of its forms: a JSON deal or line file (docs/formats.md), or
a game in the notation (docs/notation.md), told apart by their content."""

from __future__ import annotations

from pathlib import Path

from .deal import Deal
from .formats import game_from_json, parse_json, read_text
from .line import Line
from .notation import looks_like_notation, notation_from_text


def read_game_file(path: str | Path) -> Deal | Line:
    """A deal file or a line file: JSON by its ``format`` key, or a notation file
    (docs/notation.md) when the text starts with a word or a ``#`` comment."""
    text = read_text(path)
    if looks_like_notation(text):
        return notation_from_text(text, path)
    return game_from_json(parse_json(text, path), path)
