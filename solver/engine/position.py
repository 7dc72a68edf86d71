"""A position without its history (docs/formats.md): what the table shows when it turns
every card face up. A ``Position`` holds the rules, each cell's card, each seat's hand and
pile (top first), the seat to move, whether the Start has been played (or the game won),
the islands the Sea Monsters sank, the islands the Islands module removed (when known), and
the Jagged Rocks' row and remaining rolls. Nothing else changes what can be played: the
discards are whatever card of the game is nowhere else, and the turn number is not kept
(no rule reads it; a line from a position counts its turns from there).

``Position.of`` takes an engine ``State``; ``position.state()`` gives one that plays on
exactly as the original would. A position that the rules make impossible is refused on
construction with a ``PositionError`` naming the field.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, card_label, is_island, sorted_cards
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.rules import MAX_PLAYERS, Rocks, Rules
from tranquility.solver.engine.state import State, geometry_of
from tranquility.solver.engine.text_form import playable_rolls, position_text
from tranquility.solver.errors import BadInput

_SPECIALS = (START, FINISH, MONSTER)


class PositionError(BadInput):
    """A position the rules make impossible, or text / JSON that is not one; the message
    names the field."""


@dataclass(frozen=True)
class Position:
    rules: Rules
    grid: tuple[int | None, ...]  # cell = row x cols + col, row 0 the bottom row
    hands: tuple[tuple[Card, ...], ...]  # kept sorted: a hand is a multiset
    piles: tuple[tuple[Card, ...], ...]  # the cards still to be drawn, top first
    seat: int = 0  # the seat to move
    start_played: bool = False
    won: bool = False  # the Finish has been played: the game is over
    sunk: tuple[int, ...] = ()  # islands sent out of the game by Sea Monsters (one each)
    removed: tuple[int, ...] = ()  # islands the Islands module set aside, as far as known
    rocks_row: int | None = None  # None: rocks off, or gone from the game
    rocks_rolls: tuple[int, ...] = ()  # rocks=auto: the rolls still to come

    def __post_init__(self) -> None:
        # Canonical forms, so that two equal positions compare equal: sorted multisets, and
        # only as much of the roll stream as can still matter (``playable_rolls``).
        object.__setattr__(self, "hands", tuple(sorted_cards(h) for h in self.hands))
        object.__setattr__(self, "sunk", tuple(sorted(self.sunk)))
        object.__setattr__(self, "removed", tuple(sorted(self.removed)))
        _check(self)
        object.__setattr__(
            self, "rocks_rolls", playable_rolls(self.rules, self.rocks_row, self.hands, self.piles, self.rocks_rolls)
        )

    # -- with the engine --------------------------------------------------------------------

    @classmethod
    def of(cls, state: State) -> Position:
        """The position ``state`` stands at (its history dropped)."""
        return cls(**state.position_fields())

    def text(self) -> str:
        """The one-line text form (``tq1 official 3,_5/... 4,9,F:22,S/... 0 S``, docs/formats.md),
        as a chess position has its FEN."""
        return position_text(
            self.rules,
            self.grid,
            self.hands,
            self.piles,
            self.seat,
            self.start_played,
            self.won,
            self.sunk,
            self.removed,
            self.rocks_row,
            self.rocks_rolls,
        )

    def __repr__(self) -> str:
        return f"Position({self.text()!r})"

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def monsters_played(self) -> int:
        return len(self.sunk)  # each Sea Monster sinks exactly one island

    @cached_property
    def deal(self) -> Deal:
        """The deal made for this position: its piles are the cards still to be drawn."""
        return Deal(
            rules=self.rules,
            piles=self.piles,
            removed_islands=self.removed,
            rocks_row=self.rocks_row,
            rocks_rolls=self.rocks_rolls,
        )

    def state(self) -> State:
        """An engine state at this position; it plays on as the position's game would."""
        return State(
            deal=self.deal,
            grid=self.grid,
            hands=self.hands,
            drawn=(0,) * self.players,
            seat=self.seat,
            start_played=self.start_played,
            won=self.won,
            monsters_played=self.monsters_played,
            rocks_row=self.rocks_row,
            discarded=self.discarded,
            gone=sorted_cards((MONSTER,) * self.monsters_played + self.sunk),
        )

    @property
    def discarded(self) -> tuple[Card, ...]:
        """Every card of the game that is nowhere else: paid, discarded, or (removed
        islands not listed) set aside. The played Start and Finish are not discards."""
        left = _game_cards(self) - _placed(self)
        left[START] -= self.start_played
        left[FINISH] -= self.won
        return sorted_cards(left.elements())


def _game_cards(p: Position) -> Counter[Card]:
    """Every card the rules put in this game (the removed islands listed aside)."""
    rules = p.rules
    cards: Counter[Card] = Counter(c for c in range(1, rules.islands + 1) if c not in p.removed)
    cards[START] = p.players
    cards[FINISH] = rules.finish
    cards[MONSTER] = rules.monsters
    return cards


def _placed(p: Position) -> Counter[Card]:
    """The cards the position shows: grid, hands, piles, and the monsters with what they sank."""
    seen: Counter[Card] = Counter(c for c in p.grid if c is not None)
    for cards in (*p.hands, *p.piles):
        seen.update(cards)
    seen.update(p.sunk)
    seen[MONSTER] += len(p.sunk)
    return seen


def _check(p: Position) -> None:
    rules = p.rules
    if not isinstance(rules, Rules):
        raise PositionError("rules: must be a rules object")
    players = len(p.hands)
    if not 1 <= players <= MAX_PLAYERS:
        raise PositionError(f"hands: one hand per seat, 1 to {MAX_PLAYERS} seats; got {players}")
    if len(p.piles) != players:
        raise PositionError(f"piles: one pile per seat; {players} hand(s) but {len(p.piles)} pile(s)")
    if not (is_island(p.seat) and 0 <= p.seat < players):
        raise PositionError(f"seat: the seat to move must be one of 0..{players - 1}, got {p.seat!r}")
    if len(p.grid) != rules.cells:
        raise PositionError(f"grid: {len(p.grid)} cells, but the {rules.rows}x{rules.cols} grid has {rules.cells}")
    _check_cards(p)
    _check_order(p)
    _check_hands(p)
    _check_starts(p)
    _check_rocks(p)


def _where_cards(p: Position) -> list[tuple[str, Card]]:
    """Every card the position shows, with the field that holds it."""
    found: list[tuple[str, Card]] = [(f"grid[{i}]", c) for i, c in enumerate(p.grid) if c is not None]
    for seat in range(len(p.hands)):
        found += [(f"hands[{seat}]", c) for c in p.hands[seat]]
        found += [(f"piles[{seat}][{i}]", c) for i, c in enumerate(p.piles[seat])]
    found += [("sunk", c) for c in p.sunk]
    return found


def _check_cards(p: Position) -> None:
    rules = p.rules
    for i, island in enumerate(p.removed):
        if not (is_island(island) and 1 <= island <= rules.islands):
            raise PositionError(f"removed_islands[{i}]: {island!r} is not an island of 1..{rules.islands}")
    if len(p.removed) > rules.removed:
        raise PositionError(f"removed_islands: {len(p.removed)} islands, but rule 'removed' sets aside {rules.removed}")
    if len(set(p.removed)) != len(p.removed):
        raise PositionError("removed_islands: an island is listed twice")
    if len(p.sunk) > rules.monsters:
        raise PositionError(f"sunk: {len(p.sunk)} islands sunk, but the game has {rules.monsters} Sea Monster(s)")
    expected = _game_cards(p)
    # The played Sea Monsters, Start and Finish are out of sight but still of the game.
    played: dict[Card, int] = {MONSTER: len(p.sunk), START: int(p.start_played), FINISH: int(p.won)}
    seen: Counter[Card] = Counter()
    first: dict[Card, str] = {}
    for field, card in _where_cards(p):
        if not (is_island(card) or card in _SPECIALS):
            raise PositionError(f"{field}: {card!r} is not a card")
        if (field == "sunk" or field.startswith("grid")) and not is_island(card):
            raise PositionError(f"{field}: {card_label(card)} is not an island")
        if is_island(card) and card in p.removed:
            raise PositionError(f"{field}: island {card} is listed in removed_islands")
        if expected[card] == 0:
            raise PositionError(f"{field}: {card_label(card)} is not in the game ({_range_text(p, card)})")
        seen[card] += 1
        if seen[card] > expected[card] - played.get(card, 0):
            if is_island(card):
                raise PositionError(f"{field}: island {card} appears twice (first in {first[card]})")
            assert isinstance(card, str)
            why = f" ({played[card]} played)" if played.get(card) else ""
            raise PositionError(f"{field}: more {_plural(card)} than the game's {expected[card]}{why}")
        first.setdefault(card, field)


def _plural(card: str) -> str:
    return {START: "Start cards", FINISH: "Finish cards", MONSTER: "Sea Monsters"}[card]


def _range_text(p: Position, card: Card) -> str:
    if is_island(card):
        return f"the islands are 1..{p.rules.islands}"
    return "rule monsters=0" if card == MONSTER else "no such card"


def _check_order(p: Position) -> None:
    """Rule ``order``: every placed card above the cards that must be smaller."""
    geo = geometry_of(p.rules)
    for cell, card in enumerate(p.grid):
        if card is None:
            continue
        for lower in geo.before[cell]:
            below = p.grid[lower]
            if below is not None and below >= card:
                raise PositionError(
                    f"grid[{cell}]: {card} must be larger than {below} in grid[{lower}] (rule order={p.rules.order})"
                )


def _check_hands(p: Position) -> None:
    hand = p.rules.hand
    for seat, (cards, pile) in enumerate(zip(p.hands, p.piles, strict=True)):
        if len(cards) > hand:
            raise PositionError(f"hands[{seat}]: {len(cards)} cards, more than a hand of {hand} (rule 'hand')")
        if len(cards) < hand and pile and not p.won:
            raise PositionError(
                f"hands[{seat}]: {len(cards)} card(s) while piles[{seat}] still holds {len(pile)}: "
                f"every action ends with drawing back up to {hand}"
            )
    if p.won:
        if not p.start_played:
            raise PositionError("won: a Finish card is only played after a Start card (start_played is false)")
        if any(c is None for c in p.grid) or len(p.sunk) != p.rules.monsters:
            raise PositionError("won: a Finish card needs a full grid and every Sea Monster played")


def _check_starts(p: Position) -> None:
    """Each seat's pile held one Start card, and cards never change seats: before the first
    Start is played every seat still holds its own (a seat holding one on its turn must
    play it); afterwards a seat holds at most one (_check_cards counts the one played)."""
    held = [h.count(START) + pile.count(START) for h, pile in zip(p.hands, p.piles, strict=True)]
    for seat, n in enumerate(held):
        if n > 1:
            raise PositionError(f"hands[{seat}]/piles[{seat}]: seat {seat} holds {n} Start cards; each seat has one")
        if n == 0 and not p.start_played:
            raise PositionError(
                f"start_played: false, but seat {seat}'s Start card is in neither its hand nor its pile "
                "(only a Start's own payment discards another Start)"
            )


def _check_rocks(p: Position) -> None:
    rules, row = p.rules, p.rocks_row
    if rules.rocks == Rocks.OFF:
        if row is not None or p.rocks_rolls:
            raise PositionError("rocks_row: the Jagged Rocks are set but rule 'rocks' is off")
        return
    if rules.rocks == Rocks.MANUAL and p.rocks_rolls:
        raise PositionError("rocks_rolls: rule rocks=manual moves the rocks by the seats' choice, not by rolls")
    if any(not (is_island(r) and r >= 0) for r in p.rocks_rolls):
        raise PositionError("rocks_rolls: must be integers >= 0")
    geo = geometry_of(rules)
    complete = sum(all(p.grid[c] is not None for c in geo.row_cells(r)) for r in range(rules.rows))
    if row is None:
        if rules.monsters == 0 and complete < rules.rocks_leave_rows and not p.won:
            raise PositionError(
                f"rocks_row: the Jagged Rocks stay until {rules.rocks_leave_rows} rows are complete ({complete} are)"
            )
        return
    if not (is_island(row) and 0 <= row < rules.rows):
        raise PositionError(f"rocks_row: must be a row of 0..{rules.rows - 1} or null (gone), got {row!r}")
    if complete >= rules.rocks_leave_rows:
        raise PositionError(f"rocks_row: {complete} rows are complete, so the Jagged Rocks have left the game")
    if all(p.grid[c] is not None for c in geo.row_cells(row)):
        raise PositionError(f"rocks_row: row {row} is full; the Jagged Rocks only move to a row with an empty cell")
