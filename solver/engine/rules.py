"""The rule set of a game: every option the rulebook retellings describe (docs/rules.md).

A ``Rules`` value is immutable and validated on construction; every error names the key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from tranquility.solver.errors import BadInput

MAX_PLAYERS = 5


class Order(StrEnum):
    """Rule ``order``: how the grid must ascend."""

    SEQUENCE = "sequence"  # one ascending sequence in reading order
    GRID = "grid"  # rows ascend left to right and columns bottom to top


class Adjacency(StrEnum):
    """Rule ``adjacency``: which placed cards set a play's cost."""

    SEQUENCE = "sequence"  # the cells just before and after in reading order
    ORTHOGONAL = "orthogonal"  # left, right, below, above
    BOTH = "both"


class OneCard(StrEnum):
    """Rule ``one_card``: may a seat holding a single card still play?"""

    PLAY = "play"
    LOSE = "lose"  # a seat that begins its turn with 0 or 1 cards loses


class Rocks(StrEnum):
    """Rule ``rocks``: the Jagged Rocks module."""

    OFF = "off"
    AUTO = "auto"  # the deal's rolls move the rocks
    MANUAL = "manual"  # the seat moves them, or keeps them for two cards


class FinishSetup(StrEnum):
    """Rule ``finish_setup``: where the Finish cards go when dealing."""

    DECK = "deck"  # shuffled into the deck before dealing
    AFTER_HANDS = "after_hands"  # added to the piles after the opening hands


# The keys whose value is one of a fixed set of words.
CHOICES: dict[str, type[StrEnum]] = {
    "order": Order,
    "adjacency": Adjacency,
    "one_card": OneCard,
    "rocks": Rocks,
    "finish_setup": FinishSetup,
}

# Value ranges of the numeric keys. The upper ends are far beyond any real game; they keep
# a hostile file from asking for a billion cards.
LIMITS: dict[str, tuple[int, int]] = {
    "rows": (1, 20),
    "cols": (1, 20),
    "islands": (1, 2000),
    "finish": (1, 100),
    "hand": (1, 100),
    "start_discards": (0, 1000),
    "monsters": (0, 100),
    "removed": (0, 2000),
}


class RulesError(BadInput):
    """A rule key is unknown or its value is out of range; ``key`` names it."""

    def __init__(self, key: str, message: str):
        super().__init__(f"rule '{key}': {message}")
        self.key = key


@dataclass(frozen=True)
class Rules:
    rows: int = 6
    cols: int = 6
    islands: int = 80
    finish: int = 5
    hand: int = 5
    start_discards: int = 8
    order: Order = Order.SEQUENCE
    adjacency: Adjacency = Adjacency.SEQUENCE
    one_card: OneCard = OneCard.PLAY
    monsters: int = 0
    rocks: Rocks = Rocks.OFF
    removed: int = 0
    finish_setup: FinishSetup = FinishSetup.DECK

    def __post_init__(self) -> None:
        for key in LIMITS:
            value = getattr(self, key)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(key, f"must be an integer, got {value!r}")
        for key, (low, high) in LIMITS.items():
            _in_range(key, getattr(self, key), low, high)
        for key, kind in CHOICES.items():
            # Words given as plain strings become the enum (equal to the word either way).
            object.__setattr__(self, key, _one_of(key, getattr(self, key), kind))
        if self.islands - self.removed < self.cells + self.monsters:
            # Name the key that breaks it: too few islands even for the grid, then the
            # monsters (each sinks an island), then the removed islands.
            if self.islands < self.cells:
                key = "islands"
            elif self.islands < self.cells + self.monsters:
                key = "monsters"
            else:
                key = "removed"
            raise RulesError(
                key,
                f"{self.islands - self.removed} islands left after removing {self.removed}, "
                f"but the grid has {self.cells} cells and {self.monsters} monsters may each "
                "send one island away",
            )
        if self.rocks != Rocks.OFF and self.rows < 2:
            raise RulesError("rocks", "the Jagged Rocks need a grid of at least 2 rows")

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def rocks_leave_rows(self) -> int:
        """Complete rows after which the Jagged Rocks card leaves the game."""
        return 4 if self.rows >= 5 else self.rows - 1

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON values: the words as ``str``, not as enums."""
        return {k: (str(v) if isinstance(v, StrEnum) else v) for k, v in asdict(self).items()}

    def digest(self) -> str:
        """A stable hash of the full rule set (hex), for ids and caches."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def with_options(self, options: Mapping[str, Any]) -> Rules:
        return replace(self, **_checked_keys(options))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a (possibly partial) mapping; missing keys take the defaults."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be an object")
        return cls(**_checked_keys(data))


def _checked_keys(data: Mapping[str, Any]) -> dict[str, Any]:
    known = {f.name for f in fields(Rules)}
    for key in data:
        if key not in known:
            raise RulesError(str(key), f"unknown rule key (known: {', '.join(sorted(known))})")
    return dict(data)


def _in_range(key: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise RulesError(key, f"must be in {low}..{high}, got {value}")


def _one_of(key: str, value: object, kind: type[StrEnum]) -> StrEnum:
    if isinstance(value, str) and value in kind._value2member_map_:
        return kind(value)
    raise RulesError(key, f"must be one of {', '.join(kind)}; got {value!r}")


def parse_rule_value(key: str, text: str) -> Any:
    """Parse ``--rule KEY=VALUE``'s value by the key's type."""
    known = {f.name for f in fields(Rules)}
    if key not in known:
        raise RulesError(key, f"unknown rule key (known: {', '.join(sorted(known))})")
    if key in LIMITS:
        try:
            return int(text)
        except ValueError:
            raise RulesError(key, f"must be an integer, got {text!r}") from None
    return text


OFFICIAL = Rules()

PRESETS: dict[str, Rules] = {
    "official": OFFICIAL,
    "hungarian": Rules(order=Order.GRID, adjacency=Adjacency.ORTHOGONAL, finish=1),
    "french": Rules(adjacency=Adjacency.ORTHOGONAL, finish_setup=FinishSetup.AFTER_HANDS),
    "strict": Rules(one_card=OneCard.LOSE),
    "monsters": Rules(monsters=4),
    "rocks": Rules(rocks=Rocks.AUTO),
    "rocks-manual": Rules(rocks=Rocks.MANUAL),
    "islands": Rules(removed=8),
}

EXPLANATIONS: dict[str, str] = {
    "rows": "rows of the grid (row 0 is the bottom row)",
    "cols": "columns of the grid (column 0 is the leftmost)",
    "islands": "island cards numbered 1..islands",
    "finish": "Finish cards in the game (5 official; 1 in the Hungarian rulebook)",
    "hand": "hand size: each seat draws back up to this many cards",
    "start_discards": "cards the team discards in total when the Start card is played",
    "order": "sequence = one ascending sequence in reading order; grid = rows ascend left "
    "to right and columns bottom to top (the Hungarian rulebook)",
    "adjacency": "which placed cards set a play's cost: sequence = the cells just before "
    "and after in reading order (wrapping rows); orthogonal = left/right/below/above "
    "(the French rulebook); both = either",
    "one_card": "play = a seat with one card may still play it; lose = a seat that begins "
    "its turn with 0 or 1 cards loses (strict reading of the Italian and German rulebooks)",
    "monsters": "Sea Monster cards shuffled in (module; 3..5 recommended, 0 = off)",
    "rocks": "Jagged Rocks module: off, auto (random row moves) or manual (the seat chooses)",
    "removed": "island cards taken out at random before dealing (Islands module; 4..12 "
    "recommended, 0 = off)",
    "finish_setup": "deck = Finish cards shuffled into the deck before dealing; after_hands "
    "= added to the piles after the opening hands (the French rulebook)",
}


def rules_diff(rules: Rules, base: Rules = OFFICIAL) -> dict[str, Any]:
    """The keys of ``rules`` that differ from ``base`` (a partial rules object)."""
    mine, theirs = rules.to_dict(), base.to_dict()
    return {k: v for k, v in mine.items() if v != theirs[k]}


def nearest_preset(rules: Rules) -> tuple[str, dict[str, Any]]:
    """The preset that differs from ``rules`` in the fewest keys (the first in ``PRESETS``
    order on a tie, so official first), and those keys with the values of ``rules``."""
    diffs = {name: rules_diff(rules, preset) for name, preset in PRESETS.items()}
    name = min(diffs, key=lambda n: len(diffs[n]))
    return name, diffs[name]
