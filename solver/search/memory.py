"""What one seat remembers of a game: the public history and its own cards.

An ``Observation`` (policies.py) is one moment. A seat at a real table also remembers
what happened before: every island placed and every Sea Monster played, how many cards
each seat put face down on each turn (in the Start event: who gave how many), where the
Jagged Rocks went, and its own hands and the faces of its own discards. ``SeatMemory``
holds exactly that, and nothing a seat cannot see: ``TurnRecord.of`` keeps the public
part of a turn, and ``SeatMemory.after`` adds one turn from that record, the seat's new
hand and the cards it paid itself. ``remember`` builds a seat's memory of a whole line.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranquility.solver.engine.actions import Action, ChoiceKind, DiscardTwo, PlayIsland, PlayMonster, PlayStart, choice_of
from tranquility.solver.engine.cards import START, Card, remove_held, sorted_cards
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.state import State


@dataclass(frozen=True)
class TurnRecord:
    """The public part of one turn: what every seat at the table saw happen."""

    seat: int  # who acted
    kind: ChoiceKind
    card: Card | None  # the island placed (None for any other action)
    cell: int | None  # its cell, or the cell a Sea Monster emptied
    discards: tuple[int, ...]  # cards each seat put face down this turn (the faces stay hidden)
    rocks_row: int | None  # where the Jagged Rocks lie after the turn
    piles: tuple[int, ...]  # cards left in each pile before the turn

    @classmethod
    def of(cls, before: State, action: Action, after: State) -> TurnRecord:
        card = action.card if isinstance(action, PlayIsland) else None
        cell = action.cell if isinstance(action, PlayIsland | PlayMonster) else None
        return cls(
            seat=action.seat,
            kind=choice_of(action).kind,
            card=card,
            cell=cell,
            discards=tuple(len(paid_faces(before, action, s)) for s in range(before.players)),
            rocks_row=after.rocks_row,
            piles=tuple(len(before.pile(s)) for s in range(before.players)),
        )


def paid_faces(before: State, action: Action, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` put face down on ``action`` (known to that seat alone). In the
    Start event these are the cards its forced rounds took (its hand and what it drew,
    less the last round's hand) and its share of the last round."""
    if isinstance(action, PlayStart):
        hands, drawn, _, _ = before.start_event()
        held = before.hands[seat]
        if seat == before.seat:
            held = remove_held(held, [START])
        passed = held + before.deal.piles[seat][before.drawn[seat] : drawn[seat]]
        return sorted_cards(remove_held(passed, hands[seat]) + action.team_discard[seat])
    if seat != action.seat:
        return ()
    rocks = action.rocks.discard if action.rocks is not None else ()
    paid = action.discard if isinstance(action, PlayIsland | DiscardTwo) else ()
    return sorted_cards(paid + rocks)


@dataclass(frozen=True)
class SeatMemory:
    """One seat's memory of the game so far (from where its line starts)."""

    seat: int
    players: int
    hands: tuple[tuple[Card, ...], ...]  # its own hand where the line starts and after each turn
    history: tuple[TurnRecord, ...] = ()
    own_discards: tuple[Card, ...] = ()  # the faces of the cards it put face down itself
    earlier: int = 0  # cards already face down where the line starts (faces and seats unknown)

    @classmethod
    def first(cls, state: State, seat: int) -> SeatMemory:
        """What ``seat`` knows where a line starts: its own hand and the discard count."""
        return cls(seat=seat, players=state.players, hands=(state.hands[seat],), earlier=len(state.discarded))

    def after(self, record: TurnRecord, hand: tuple[Card, ...], paid: tuple[Card, ...]) -> SeatMemory:
        """The memory one turn later: its public record, the seat's own hand after it and
        the cards the seat itself put face down on it."""
        return SeatMemory(
            seat=self.seat,
            players=self.players,
            hands=(*self.hands, hand),
            history=(*self.history, record),
            own_discards=sorted_cards(self.own_discards + paid),
            earlier=self.earlier,
        )

    def witness(self, before: State, action: Action, after: State) -> SeatMemory:
        """This seat's memory after watching ``action`` take ``before`` to ``after``: only the
        public record, its own hand and its own payment reach it."""
        return self.after(TurnRecord.of(before, action, after), after.hands[self.seat], paid_faces(before, action, self.seat))

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.hands[-1]

    def discarded_by(self, seat: int) -> int:
        """How many cards ``seat`` has put face down since the line started."""
        return sum(record.discards[seat] for record in self.history)

    def start_player(self) -> int | None:
        """The seat that played the Start card, if one was played since the line started."""
        return next((r.seat for r in self.history if r.kind == ChoiceKind.START), None)


def remember(line: Line, seat: int) -> SeatMemory:
    """What ``seat`` remembers at the end of ``line`` (a legal line, replayed here)."""
    state = line.initial_state()
    memory = SeatMemory.first(state, seat)
    for action in line.actions:
        after = state.apply(action)
        memory = memory.witness(state, action, after)
        state = after
    return memory
