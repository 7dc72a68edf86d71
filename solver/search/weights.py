"""The named weights of the ``tuned`` silent policy, and the fitted ones the package ships.

``Weights`` holds every judgement the policy makes as a number (what a card of cost is
worth, how much a gap left short hurts, when to discard two rather than pay...). Their
defaults are ``thrifty``'s own constants, so an unfitted ``tuned`` plays close to thrifty.
The fitted values, one set per player count, live in ``tuned_weights.json`` beside this
module, together with the rules they were fitted for and how (``tranquility tune`` writes
that file: solver/batch/tuning.py, docs/simulate.md).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from functools import cache
from importlib import resources
from typing import Any

from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.errors import BadInput

WEIGHTS_FORMAT = "tranquility-weights/1"
# The shaped value of a game: 1 for a win, plus this times the share of cells filled, so that
# two lost games still tell how far each got. The weights are fitted on it (tuning.py) and the
# lookahead scores its playouts with it.
CELLS_WEIGHT = 0.25
WEIGHTS_FILE = "tuned_weights.json"


@dataclass(frozen=True)
class Weights:
    """Every judgement of the ``tuned`` policy. A play's score is a sum of penalties
    (lower is better); a card's keep value says how much a seat wants to hold it."""

    # A play's score.
    cost: float = 2.0  # per card the play costs
    pressure: float = 0.0  # more per card of cost, times the share of the team's cards the empty cells need
    paid: float = 0.05  # per point of keep value of the cards paid
    misplaced: float = 0.5  # per cell between the cell and where the card's rank puts it in its gap
    deficit: float = 8.0  # per expected island the play takes from gaps that already lack them
    relief: float = 0.0  # per expected island the play gives back to such gaps (a bonus)
    # Discarding two instead of the best play, while the seat's pile still has cards.
    discard_cost: float = 3.0  # when the best play costs this much or more
    discard_score: float = 40.0  # or when its score is this high or higher
    # A card's keep value (what paying or discarding it loses).
    keep_base: float = 20.0  # a live island's value before its cost and its gap
    keep_cost: float = 3.0  # less per card its cheapest placement costs (up to 5)
    keep_tight: float = 30.0  # more per unit of its tightest gap's need (cells / islands that may fill it)
    tight_cap: float = 1.5  # the need counts up to this much
    finish_second: float = 70.0  # a second Finish card in hand (the first is worth 95)
    finish_later: float = 40.0  # every further one
    # The Start event: cards worth this little or less count as dead, and a seat gives them
    # all (within what is owed) even beyond its public quota.
    give_dead: float = 0.0

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, where: str = "weights") -> Weights:
        if not isinstance(data, dict):
            raise BadInput(f"{where}: expected an object of weights")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise BadInput(f"{where}: unknown weight {unknown[0]!r} (known: {', '.join(sorted(names))})")
        for key, value in data.items():
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BadInput(f"{where}: weight {key!r} must be a number, got {value!r}")
        return cls(**{key: float(value) for key, value in data.items()})

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def as_vector(self) -> list[float]:
        return [getattr(self, name) for name in self.names()]

    @classmethod
    def from_vector(cls, values: list[float]) -> Weights:
        return cls(**dict(zip(cls.names(), (float(v) for v in values), strict=True)))


THRIFTY_LIKE = Weights()


@dataclass(frozen=True)
class WeightBook:
    """Fitted weights per player count, for one rule set (``rules``), with how each set
    was fitted (``fits``: free-form, as ``tranquility tune`` records it)."""

    rules: Rules
    weights: dict[int, Weights]
    fits: dict[int, dict]

    def to_json(self) -> dict:
        return {
            "format": WEIGHTS_FORMAT,
            "rules": self.rules.to_dict(),
            "players": {
                str(p): {"weights": self.weights[p].to_json(), "fit": self.fits.get(p, {})} for p in sorted(self.weights)
            },
        }

    @classmethod
    def from_json(cls, data: Any, where: str = WEIGHTS_FILE) -> WeightBook:
        if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
            raise BadInput(f"{where}: not a {WEIGHTS_FORMAT} file")
        rules = Rules.from_dict(data.get("rules", {}))
        weights: dict[int, Weights] = {}
        fits: dict[int, dict] = {}
        for key, entry in (data.get("players") or {}).items():
            if not (isinstance(key, str) and key.isdigit()) or not isinstance(entry, dict):
                raise BadInput(f"{where}: players key {key!r} must be a player count with an object")
            weights[int(key)] = Weights.from_json(entry.get("weights"), f"{where}: players {key}")
            fits[int(key)] = entry.get("fit") or {}
        return cls(rules, weights, fits)

    def with_fit(self, players: int, weights: Weights, fit: dict) -> WeightBook:
        return WeightBook(self.rules, {**self.weights, players: weights}, {**self.fits, players: fit})


@cache
def shipped_book() -> WeightBook:
    """The weights the package ships (fitted for the official rules)."""
    text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return WeightBook.from_json(json.loads(text))


def weights_for(rules: Rules, players: int, book: WeightBook | None = None) -> tuple[Weights, str | None]:
    """The weights ``tuned`` plays ``rules`` with at ``players`` seats, and a note when they
    were not fitted for exactly that (None when they were)."""
    book = book or shipped_book()
    if players not in book.weights:
        return THRIFTY_LIKE, f"tuned: no weights fitted for {players} players; playing thrifty's constants"
    if rules != book.rules:
        fitted = "the official rules" if book.rules == OFFICIAL else "other rules"
        return book.weights[players], f"tuned: no weights fitted for these rules; playing those fitted for {fitted}"
    return book.weights[players], None
