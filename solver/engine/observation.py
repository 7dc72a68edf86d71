"""What one seat sees: a rule of the game, since nobody may talk at the table.

An ``Observation`` (``observe``) holds the public part of a position (the grid, the cards
gone, how many cards each seat holds and has left to draw, how many lie face down on the
discard pile, whether a Start was played, the rocks' row) and that seat's own hand, nothing
else: other hands, the piles' order, the faces of discarded cards and the removed islands
never reach it. Everything that plays or judges "as a seat" (the silent-table policies, the
lookahead's worlds, the fair analysis, a table with bots) decides from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from tranquility.solver.engine.cards import Card
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.rules import Rules
from tranquility.solver.engine.state import State

UNKNOWN: Card = 0  # stands for a card the seat cannot see (island numbers start at 1)


@dataclass(frozen=True)
class Observation:
    """One seat's view: public information plus its own hand, nothing else."""

    rules: Rules
    seat: int  # whose view this is
    to_move: int  # the seat whose turn it is
    turn: int
    grid: tuple[int | None, ...]
    hand: tuple[Card, ...]  # this seat's own hand (the only cards it sees besides the grid)
    hand_sizes: tuple[int, ...]  # cards in each seat's hand
    pile_sizes: tuple[int, ...]  # cards left to draw in each seat's pile
    discarded: int  # cards face down on the discard pile (their faces are unknown)
    start_played: bool
    monsters_played: int
    gone: tuple[Card, ...]  # played Sea Monsters and the islands they sank (seen by all)
    rocks_row: int | None
    won: bool = False

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @cached_property
    def view(self) -> State:
        """A State holding only what this seat knows: every unseen card is ``UNKNOWN``.
        Its legal choices for this seat are the real ones, since they depend only on the
        seat's own hand and public counts."""
        piles = tuple((UNKNOWN,) * n for n in self.pile_sizes)
        hands = tuple(self.hand if s == self.seat else (UNKNOWN,) * n for s, n in enumerate(self.hand_sizes))
        return State(
            deal=Deal(rules=self.rules, piles=piles, rocks_row=self.rocks_row),
            grid=self.grid,
            hands=hands,
            drawn=(0,) * self.players,
            seat=self.seat,
            turn=self.turn,
            start_played=self.start_played,
            won=self.won,
            monsters_played=self.monsters_played,
            rocks_row=self.rocks_row,
            discarded=(UNKNOWN,) * self.discarded,
            gone=self.gone,
        )


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` sees of ``state``."""
    return Observation(
        rules=state.rules,
        seat=seat,
        to_move=state.seat,
        turn=state.turn,
        grid=state.grid,
        hand=state.hands[seat],
        hand_sizes=tuple(len(h) for h in state.hands),
        pile_sizes=tuple(len(state.pile(s)) for s in range(state.players)),
        discarded=len(state.discarded),
        start_played=state.start_played,
        monsters_played=state.monsters_played,
        gone=state.gone,
        rocks_row=state.rocks_row,
        won=state.won,
    )
