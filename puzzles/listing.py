"""``tranquility puzzles``: the shipped catalogue (``puzzles.shipped``) listed and filtered
by players, grade and rule preset, and its JSON shape. Engine imports only."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.formats.rules_text import rules_name

from .shipped import CatalogueEntry, catalogue, puzzle


@dataclass(frozen=True)
class Listed:
    """One catalogue puzzle as listed: its index entry and its rules by name."""

    entry: CatalogueEntry
    rules: str  # a preset's name, or the nearest preset and the keys that differ

    def to_json(self) -> dict:
        e = self.entry
        return {"id": e.id, "players": e.players, "grade": e.grade, "rules": self.rules, "seed": e.seed, "score": e.score}


@cache
def _preset_digests() -> dict[str, str]:
    """The first 8 hex digits of each preset's digest (as in a puzzle id), to its name."""
    return {rules.digest()[:8]: name for name, rules in reversed(PRESETS.items())}  # the first preset wins a tie


def rules_of(entry: CatalogueEntry) -> str:
    """The puzzle's rules by name: read from its id (``tq1-<P>p-<rules digest>-<seed>``)
    when they are a preset's, else from its file."""
    digest = entry.id.split("-")[2]
    return _preset_digests().get(digest) or rules_name(puzzle(entry.id).rules)


def listing(players: int | None = None, grade: int | None = None, rules: str | None = None) -> tuple[Listed, ...]:
    """The shipped puzzles (by players, grade and seed) that match every filter given."""
    found = []
    for entry in catalogue():
        if (players is not None and entry.players != players) or (grade is not None and entry.grade != grade):
            continue
        named = Listed(entry, rules_of(entry))
        if rules is None or named.rules == rules:
            found.append(named)
    return tuple(found)
