"""The puzzle catalogue shipped with the package (``puzzles/catalogue/``, package data):
its index, and each puzzle and solution by id. Engine imports only, so an installed tool
can list and open a puzzle without the solver."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable

from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.codecs import game_from_json
from tranquility.solver.formats.json_values import FormatError


def catalogue_root() -> Traversable:
    return files(__package__) / "catalogue"


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    players: int
    seed: int
    grade: int
    score: float
    file: str  # relative to the catalogue root
    solution: str
    rules: str = "official"  # the preset of its rules (each catalogued preset has its calibration)


class UnknownPuzzle(BadInput):
    """No shipped puzzle has this id."""


@cache
def catalogue() -> tuple[CatalogueEntry, ...]:
    """Every shipped puzzle, by players, grade and seed."""
    index = json.loads((catalogue_root() / "index.json").read_text(encoding="utf-8"))
    return tuple(CatalogueEntry(**entry) for entry in index["puzzles"])


def entry(puzzle_id: str) -> CatalogueEntry:
    for found in catalogue():
        if found.id == puzzle_id:
            return found
    raise UnknownPuzzle(f"no shipped puzzle has the id {puzzle_id!r} (tranquility puzzles lists them)")


def _read(relative: str) -> Game:
    resource = catalogue_root().joinpath(*relative.split("/"))
    return game_from_json(json.loads(resource.read_text(encoding="utf-8")), f"catalogue/{relative}")


def puzzle(puzzle_id: str) -> Deal:
    """The puzzle's deal (its file also holds the grade block; the deal is what is played)."""
    game = _read(entry(puzzle_id).file)
    if not isinstance(game, Deal):
        raise FormatError(f"catalogue/{entry(puzzle_id).file}: not a deal file")
    return game


def solution(puzzle_id: str) -> Line:
    """The winning line shipped with the puzzle."""
    game = _read(entry(puzzle_id).solution)
    if not isinstance(game, Line):
        raise FormatError(f"catalogue/{entry(puzzle_id).solution}: not a line file")
    return game
