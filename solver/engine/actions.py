"""Actions: one per turn, exactly as a line file records them (docs/formats.md).

Discards are multisets; they are stored sorted so equal actions compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import assert_never

from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, card_name, sorted_cards


def _normalise(obj: object, name: str) -> None:
    cards = getattr(obj, name)
    if type(cards) is not tuple or len(cards) > 1:  # most plays pay nothing: nothing to sort
        object.__setattr__(obj, name, sorted_cards(cards))


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


Action = PlayIsland | PlayStart | PlayFinish | DiscardTwo | PlayMonster


class ChoiceKind(StrEnum):
    ISLAND = "island"
    START = "start"
    FINISH = "finish"
    DISCARD = "discard"  # discard two cards
    MONSTER = "monster"


@dataclass(frozen=True)
class Choice:
    """An action without its payment: (card, cell) for an island or a monster, and one
    choice each for Start, Finish and discard-two."""

    kind: ChoiceKind
    card: Card | None = None
    cell: int | None = None

    @property
    def island(self) -> int:
        """The island card of an island choice."""
        assert self.kind == ChoiceKind.ISLAND and isinstance(self.card, int), self
        return self.card

    @property
    def target(self) -> int:
        """The cell of an island or monster choice."""
        assert self.cell is not None, self
        return self.cell

    def __str__(self) -> str:
        match self.kind:
            case ChoiceKind.ISLAND:
                return f"{self.card} at cell {self.cell}"
            case ChoiceKind.MONSTER:
                return f"Sea Monster on cell {self.cell}"
            case ChoiceKind.START:
                return "Start"
            case ChoiceKind.FINISH:
                return "Finish"
            case ChoiceKind.DISCARD:
                return "discard two"
            case _:
                assert_never(self.kind)


@cache
def island_choice(card: int, cell: int) -> Choice:
    """The choice to play ``card`` at ``cell`` (one shared value each: positions list many)."""
    return Choice(ChoiceKind.ISLAND, card, cell)


def choice_of(action: Action) -> Choice:
    match action:
        case PlayIsland():
            return Choice(ChoiceKind.ISLAND, action.card, action.cell)
        case PlayMonster():
            return Choice(ChoiceKind.MONSTER, MONSTER, action.cell)
        case PlayStart():
            return Choice(ChoiceKind.START, START)
        case PlayFinish():
            return Choice(ChoiceKind.FINISH, FINISH)
        case DiscardTwo():
            return Choice(ChoiceKind.DISCARD)
        case _:
            assert_never(action)


def _paid(cards: tuple[Card, ...]) -> str:
    return ", ".join(card_name(c) for c in cards) or "nothing"


def describe(action: Action) -> str:
    """One line of plain English for an action."""
    match action:
        case PlayIsland():
            text = f"seat {action.seat} plays {action.card} at cell {action.cell}, paying {_paid(action.discard)}"
        case PlayStart():
            split = "; ".join(f"seat {s}: {_paid(d)}" for s, d in enumerate(action.team_discard))
            text = f"seat {action.seat} plays the Start card; the team discards ({split})"
        case PlayFinish():
            text = f"seat {action.seat} plays a Finish card"
        case DiscardTwo():
            text = f"seat {action.seat} discards {_paid(action.discard)}"
        case PlayMonster():
            text = f"seat {action.seat} plays a Sea Monster on cell {action.cell}"
        case _:
            assert_never(action)
    if action.rocks is not None:
        text += f"; {describe_rocks(action.rocks)}"
    return text


def describe_rocks(rocks: RocksMove) -> str:
    """A manual Jagged Rocks move in plain English."""
    if rocks.row is None:
        return f"the rocks stay (paying {_paid(rocks.discard)})"
    return f"the rocks move to row {rocks.row}"
