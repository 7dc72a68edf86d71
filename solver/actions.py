"""Actions: one per turn, exactly as a line file records them (docs/formats.md).

Discards are multisets; they are stored sorted so equal actions compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .cards import Card, card_name, sorted_cards


def _normalise(obj: object, name: str) -> None:
    object.__setattr__(obj, name, sorted_cards(getattr(obj, name)))


@dataclass(frozen=True)
class RocksMove:
    """Manual Jagged Rocks: move the card to ``row``, or leave it (``row`` None) and pay
    two more cards (``discard``)."""

    row: int | None
    discard: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        _normalise(self, "discard")


@dataclass(frozen=True, kw_only=True)
class PlayIsland:
    seat: int
    card: int
    cell: int
    discard: tuple[Card, ...] = ()
    rocks: RocksMove | None = None

    def __post_init__(self) -> None:
        _normalise(self, "discard")


@dataclass(frozen=True, kw_only=True)
class PlayStart:
    seat: int
    team_discard: tuple[tuple[Card, ...], ...] = ()
    rocks: RocksMove | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "team_discard", tuple(sorted_cards(d) for d in self.team_discard))


@dataclass(frozen=True, kw_only=True)
class PlayFinish:
    seat: int
    rocks: RocksMove | None = None


@dataclass(frozen=True, kw_only=True)
class DiscardTwo:
    seat: int
    discard: tuple[Card, ...] = ()
    rocks: RocksMove | None = None

    def __post_init__(self) -> None:
        _normalise(self, "discard")


@dataclass(frozen=True, kw_only=True)
class PlayMonster:
    seat: int
    cell: int
    rocks: RocksMove | None = None


Action = Union[PlayIsland, PlayStart, PlayFinish, DiscardTwo, PlayMonster]


@dataclass(frozen=True)
class Choice:
    """An action without its payment: (card, cell) for an island or a monster, and one
    choice each for Start, Finish and discard-two. ``kind`` is island|start|finish|discard|monster."""

    kind: str
    card: Card | None = None
    cell: int | None = None

    def __str__(self) -> str:
        if self.kind == "island":
            return f"{self.card} at cell {self.cell}"
        if self.kind == "monster":
            return f"Sea Monster on cell {self.cell}"
        return {"start": "Start", "finish": "Finish", "discard": "discard two"}[self.kind]


def choice_of(action: Action) -> Choice:
    if isinstance(action, PlayIsland):
        return Choice("island", action.card, action.cell)
    if isinstance(action, PlayMonster):
        return Choice("monster", "M", action.cell)
    if isinstance(action, PlayStart):
        return Choice("start", "S")
    if isinstance(action, PlayFinish):
        return Choice("finish", "F")
    return Choice("discard")


def describe(action: Action) -> str:
    """One line of plain English for an action."""
    paid = lambda cards: ", ".join(card_name(c) for c in cards) or "nothing"  # noqa: E731
    if isinstance(action, PlayIsland):
        text = f"seat {action.seat} plays {action.card} at cell {action.cell}, paying {paid(action.discard)}"
    elif isinstance(action, PlayStart):
        split = "; ".join(f"seat {s}: {paid(d)}" for s, d in enumerate(action.team_discard))
        text = f"seat {action.seat} plays the Start card; the team discards ({split})"
    elif isinstance(action, PlayFinish):
        text = f"seat {action.seat} plays a Finish card"
    elif isinstance(action, DiscardTwo):
        text = f"seat {action.seat} discards {paid(action.discard)}"
    else:
        text = f"seat {action.seat} plays a Sea Monster on cell {action.cell}"
    if action.rocks is not None:
        if action.rocks.row is None:
            text += f"; the rocks stay (paying {paid(action.rocks.discard)})"
        else:
            text += f"; the rocks move to row {action.rocks.row}"
    return text
