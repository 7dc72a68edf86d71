"""The game state and its transitions: the one place where the rules of Tranquility live.

``State`` is immutable: ``apply`` checks an action against every rule and returns the
next state; ``legal_actions`` / ``legal_choices`` enumerate what the active seat may do.
Each rule is a small function named after it; docs/rules.md cites the rulebook for each.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from functools import cache
from itertools import combinations
from typing import Any, Generic, NamedTuple, TypeVar, assert_never, overload

from tranquility.solver.engine.actions import (
    Action,
    Choice,
    ChoiceKind,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
    island_choice,
)
from tranquility.solver.engine.cards import (
    FINISH,
    MONSTER,
    START,
    Card,
    card_label,
    is_island,
    remove_cards,
    sorted_cards,
    without,
)
from tranquility.solver.engine.deal import Deal, DealError
from tranquility.solver.engine.rules import Adjacency, OneCard, Order, Rocks, Rules
from tranquility.solver.engine.text_form import position_text
from tranquility.solver.errors import BadInput

T = TypeVar("T")


class kept(Generic[T]):
    """A value worked out from a position once, on first use, and kept in the instance
    (``functools.cached_property`` without its lock, which costs more than most of these
    values: two threads asking at once would only work the same value out twice)."""

    def __init__(self, compute: Callable[[Any], T]):
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> kept[T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...
    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        # A frozen dataclass refuses setattr; the instance dict then shadows this descriptor.
        value = obj.__dict__[self.name] = self.compute(obj)
        return value


class GridReading(Generic[T]):
    """A value a search reads off a position's grid (and its rules) alone, kept with the
    position as the engine keeps its own: worked out on first use, handed on to the next
    position while the grid stays the same, and after a placement either updated by
    ``after`` (from the position before it and the card placed) or worked out again when
    asked. The engine never reads one: the searches that do define them."""

    def __init__(self, compute: Callable[[State], T], after: Callable[[State, int, int], T | None] | None = None):
        self.compute, self.after = compute, after
        self.__doc__ = compute.__doc__

    def __call__(self, state: State) -> T:
        readings = state._readings
        try:
            return readings[self]
        except KeyError:
            value = readings[self] = self.compute(state)
            return value


IslandPlay = tuple[int, int, int]  # (card, cell, cost): a legal island choice and its cost
IslandPlays = tuple[IslandPlay, ...]


class IllegalAction(BadInput):
    """An action breaks a rule; the message names the rule."""


class StartEvent(NamedTuple):
    """The Start event's last round, where the team chooses what to discard."""

    hands: tuple[tuple[Card, ...], ...]  # the hands the team pays from
    drawn: tuple[int, ...]  # cards drawn from each pile by then
    owed: int  # cards still owed in this round
    forced: tuple[Card, ...]  # cards discarded by the earlier, forced rounds


class Status(StrEnum):
    """What the rules say of a position now (not what is provable: that is ``Verdict``)."""

    WON = "won"
    LOST = "lost"  # the seat to move has no legal action
    OPEN = "open"


# ---------------------------------------------------------------------------------------
# Geometry: cells, rows, adjacency and the ascending order (rules "order", "adjacency")


@dataclass(frozen=True)
class Geometry:
    rows: int
    cols: int
    neighbours: tuple[tuple[int, ...], ...]  # cells whose card sets a play's cost
    before: tuple[tuple[int, ...], ...]  # cells that must hold smaller cards
    after: tuple[tuple[int, ...], ...]  # cells that must hold larger cards

    def row_cells(self, row: int) -> range:
        return range(row * self.cols, (row + 1) * self.cols)


@cache
def geometry(rows: int, cols: int, order: Order, adjacency: Adjacency) -> Geometry:
    cells = rows * cols
    neighbours = []
    for cell in range(cells):
        near: set[int] = set()
        if adjacency in (Adjacency.SEQUENCE, Adjacency.BOTH):
            # Reading order wraps from the end of a row to the start of the next (the German rulebook).
            near |= {c for c in (cell - 1, cell + 1) if 0 <= c < cells}
        if adjacency in (Adjacency.ORTHOGONAL, Adjacency.BOTH):
            r, c = divmod(cell, cols)
            if c > 0:
                near.add(cell - 1)
            if c < cols - 1:
                near.add(cell + 1)
            if r > 0:
                near.add(cell - cols)
            if r < rows - 1:
                near.add(cell + cols)
        neighbours.append(tuple(sorted(near)))
    before, after = [], []
    for cell in range(cells):
        if order == Order.SEQUENCE:
            before.append(tuple(range(cell)))
            after.append(tuple(range(cell + 1, cells)))
        else:
            r, c = divmod(cell, cols)
            before.append(tuple([r * cols + k for k in range(c)] + [k * cols + c for k in range(r)]))
            after.append(tuple([r * cols + k for k in range(c + 1, cols)] + [k * cols + c for k in range(r + 1, rows)]))
    return Geometry(rows, cols, tuple(neighbours), tuple(before), tuple(after))


def geometry_of(rules: Rules) -> Geometry:
    return geometry(rules.rows, rules.cols, rules.order, rules.adjacency)


# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class State:
    deal: Deal
    grid: tuple[int | None, ...]
    hands: tuple[tuple[Card, ...], ...]
    drawn: tuple[int, ...]  # cards taken so far from the top of each seat's pile
    seat: int = 0
    turn: int = 0
    start_played: bool = False
    won: bool = False
    monsters_played: int = 0
    rocks_row: int | None = None
    rolls_used: int = 0
    discarded: tuple[Card, ...] = ()
    gone: tuple[Card, ...] = ()  # out of the game: played monsters and the islands they sank

    # -- construction -------------------------------------------------------------------

    @classmethod
    def initial(cls, deal: Deal) -> State:
        """Each seat holds its opening hand; seat 0 moves first (docs/rules.md, Setup). A line
        from a position starts at ``Position.state()`` instead (``Line.initial_state``)."""
        deal.check()
        hand = deal.rules.hand
        return cls(
            deal=deal,
            grid=(None,) * deal.rules.cells,
            hands=tuple(sorted_cards(p[:hand]) for p in deal.piles),
            drawn=tuple(min(hand, len(p)) for p in deal.piles),
            rocks_row=deal.rocks_row,
        )

    # -- views ---------------------------------------------------------------------------

    def position_fields(self) -> dict[str, Any]:
        """What the position this state stands at is made of (``Position.of``), its history
        dropped: the piles are the cards still to be drawn, the rolls those still to come."""
        deal = self.deal
        return {
            "rules": deal.rules,
            "grid": self.grid,
            "hands": self.hands,
            "piles": tuple(self.pile(s) for s in range(self.players)),
            "seat": self.seat,
            "start_played": self.start_played,
            "won": self.won,
            "sunk": tuple(c for c in self.gone if is_island(c)),
            "removed": deal.removed_islands,
            "rocks_row": self.rocks_row,
            "rocks_rolls": deal.rocks_rolls[self.rolls_used :],
        }

    def __repr__(self) -> str:
        """The position's text form (``tq1 ...``), as a chess board shows its FEN."""
        return f"State({position_text(**self.position_fields())!r})"

    @property
    def rules(self) -> Rules:
        return self.deal.rules

    @property
    def players(self) -> int:
        return self.deal.players

    @property
    def hand(self) -> tuple[Card, ...]:
        return self.hands[self.seat]

    def pile(self, seat: int) -> tuple[Card, ...]:
        """The cards still to be drawn by ``seat``, top first."""
        return self.deal.piles[seat][self.drawn[seat] :]

    @property
    def cards_left(self) -> int:
        """Cards still in the hands and the undrawn piles."""
        return sum(len(h) for h in self.hands) + sum(len(self.pile(s)) for s in range(self.players))

    @property
    def filled(self) -> int:
        return sum(v is not None for v in self.grid)

    @property
    def status(self) -> Status:
        if self.won:
            return Status.WON
        return Status.OPEN if self.island_plays or self.other_choices else Status.LOST

    @property
    def complete_rows(self) -> int:
        geo = geometry_of(self.rules)
        return sum(all(self.grid[c] is not None for c in geo.row_cells(r)) for r in range(geo.rows))

    def eligible_rock_rows(self) -> list[int]:
        """Rows the Jagged Rocks may move to: another row with an empty cell."""
        geo = geometry_of(self.rules)
        return [r for r in range(geo.rows) if r != self.rocks_row and any(self.grid[c] is None for c in geo.row_cells(r))]

    @property
    def rocks_choice_due(self) -> bool:
        """Manual Jagged Rocks still in play: the action just taken must move them or pay to
        keep them (asked of the position ``before_rocks`` returns)."""
        return (
            self.rules.rocks == Rocks.MANUAL and self.rocks_row is not None and self.complete_rows < self.rules.rocks_leave_rows
        )

    def must_play_start(self) -> bool:
        """Start cards: a seat holding one while none has been played must play it."""
        return not self.start_played and START in self.hand

    # -- enumeration ---------------------------------------------------------------------

    def legal_choices(self) -> Iterator[Choice]:
        """Every choice (an action without its payment) that some legal action makes."""
        return iter(self._choices)

    @kept
    def _choices(self) -> tuple[Choice, ...]:
        # Worked out once per position: the players and the search ask.
        return tuple([island_choice(card, cell) for card, cell, _ in self.island_plays]) + self.other_choices

    @kept
    def other_choices(self) -> tuple[Choice, ...]:
        """The legal choices that are not island plays, in ``legal_choices``' order (after
        the islands): a Start, a Finish, the Sea Monsters' cells, discard two. The greedy
        player and the status read them with ``island_plays``, without a Choice per island."""
        if self.won or self._out_of_cards():
            return ()
        if self.must_play_start():
            return (Choice(ChoiceKind.START, START),) if self.start_rounds() is not None else ()
        hand = self.hand
        found = []
        if FINISH in hand and self.finish_allowed():
            found.append(_FINISH)
        if MONSTER in hand:
            found.extend(Choice(ChoiceKind.MONSTER, MONSTER, cell) for cell, v in enumerate(self.grid) if v is not None)
        if len(hand) >= 2:
            found.append(_DISCARD)
        return tuple(found)

    @kept
    def island_plays(self) -> IslandPlays:
        """(card, cell, cost) of each legal island choice, in ``legal_choices``' order (the
        cards ascending, each card's cells ascending): the island choices with their costs."""
        if self.won or self._out_of_cards() or self.must_play_start():
            return ()
        hand = self.hand
        spare = len(hand) - 1
        # A hand is sorted, islands first, and holds each island once (one card per number).
        return tuple(
            [(card, cell, cost) for card in hand if is_island(card) for cell, cost in self.placements(card) if cost <= spare]
        )

    def legal_actions(self) -> Iterator[Action]:
        """Every legal action, with every distinct payment (can be many for a Start)."""
        for choice in self.legal_choices():
            yield from self.actions_for(choice)

    def actions_for(self, choice: Choice) -> Iterator[Action]:
        seat, hand = self.seat, self.hand
        match choice.kind:
            case ChoiceKind.ISLAND:
                card, cell = choice.island, choice.target
                rest = remove_cards(hand, [card])
                cost = self.island_cost(card, cell)
                assert rest is not None and cost is not None, f"{choice} is not a legal choice"
                for paid in sub_multisets(rest, cost):
                    yield from self._with_rocks(PlayIsland(seat=seat, card=card, cell=cell, discard=paid))
            case ChoiceKind.START:
                hands, _, owed, _ = self.start_event()
                for split in _team_splits(hands, owed):
                    yield from self._with_rocks(PlayStart(seat=seat, team_discard=split))
            case ChoiceKind.FINISH:
                yield PlayFinish(seat=seat)
            case ChoiceKind.MONSTER:
                yield from self._with_rocks(PlayMonster(seat=seat, cell=choice.target))
            case ChoiceKind.DISCARD:
                for paid in sub_multisets(hand, 2):
                    yield from self._with_rocks(DiscardTwo(seat=seat, discard=paid))
            case _:
                assert_never(choice.kind)

    def _with_rocks(self, action: Action) -> Iterator[Action]:
        """Manual Jagged Rocks: each action also moves the rocks, or keeps them for two cards."""
        after = self.before_rocks(action)
        if not after.rocks_choice_due:
            yield action
            return
        for row in after.eligible_rock_rows():
            yield replace(action, rocks=RocksMove(row))
        for paid in sub_multisets(after.hands[self.seat], 2):
            yield replace(action, rocks=RocksMove(None, paid))

    # -- rule checks ---------------------------------------------------------------------

    def island_cost(self, card: int, cell: int) -> int | None:
        """The cost of playing ``card`` into ``cell``, or None when the placement is illegal
        (cell taken, blocked by the rocks, or the grid would stop ascending)."""
        grid = self.grid
        if not 0 <= cell < len(grid) or grid[cell] is not None:
            return None
        if self.rocks_row is not None and cell // self.rules.cols == self.rocks_row:
            return None
        # One cell's bounds and neighbours (a replay asks once per turn), unless the tables
        # for every cell are worked out already (legal_choices asks for them all).
        if "_bounds" in self.__dict__:
            (low, high), near = self._bounds[cell], self._near[cell]
        else:
            (low, high), near = self._cell_bounds(cell), self._cell_near(cell)
        if not low < card < high:
            return None
        return smallest_gap(card, near)

    def _cell_near(self, cell: int) -> tuple[int, ...]:
        """The cards on the cell's neighbours (rule ``adjacency``)."""
        grid = self.grid
        return tuple(v for c in geometry_of(self.rules).neighbours[cell] if (v := grid[c]) is not None)

    @kept
    def _near(self) -> list[tuple[int, ...]]:
        # Only the empty cells take a card, so only theirs are asked for (all of them, the
        # rocks' row too: the table then depends on the grid alone).
        grid, neighbours = self.grid, geometry_of(self.rules).neighbours
        near: list[tuple[int, ...]] = [()] * len(grid)
        for cell, v in enumerate(grid):
            if v is None:
                near[cell] = tuple([v for c in neighbours[cell] if (v := grid[c]) is not None])
        return near

    @kept
    def _fits(self) -> dict[int, tuple[tuple[int, int], ...]]:
        """card: its ``placements``, for the cards asked about so far in this position."""
        return {}

    def placements(self, card: int) -> tuple[tuple[int, int], ...]:
        """(cell, cost) of every open cell ``card`` may go to by the order, cells ascending.
        Worked out once per card and position: the choices, their costs and the players'
        cheapest costs all read them."""
        found = self._fits.get(card)
        if found is None:
            near = self._near
            # Most open cells have no card beside them (the inside of a run): free, no call.
            found = self._fits[card] = tuple(
                [(cell, smallest_gap(card, n) if (n := near[cell]) else 0) for cell in self._cells_for(card)]
            )
        return found

    def _cells_for(self, card: int) -> Sequence[int]:
        """The open cells ``card`` may go to by the order, ascending."""
        groups = self._open_groups
        if self.rules.order != Order.SEQUENCE:
            # Groups of equal bounds interleave on a grid; along one sequence they are runs.
            return sorted(c for (low, high), group in groups if low < card < high for c in group)
        # Along one sequence both bounds rise (or stay) from run to run: the runs a card
        # fits are those from the first whose upper bound is above it to the last whose
        # lower bound is below it.
        lows, highs = self._group_ends
        fit = groups[bisect_right(highs, card) : bisect_left(lows, card)]
        if len(fit) == 1:
            return fit[0][1]  # the common case: one run
        return [c for _, group in fit for c in group]

    @kept
    def _group_ends(self) -> tuple[list[int], list[int]]:
        """The lower and the upper bounds of the open groups, in their order."""
        groups = self._open_groups
        return [low for (low, _), _ in groups], [high for (_, high), _ in groups]

    @kept
    def _open_groups(self) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
        """The open cells grouped by their bounds, in order of their first cell: along the
        sequence order these are the runs of empty cells, so a card is checked once per run."""
        groups: dict[tuple[int, int], list[int]] = {}
        bounds = self._bounds
        for cell in self._open_cells:
            groups.setdefault(bounds[cell], []).append(cell)
        return tuple([(bounds, tuple(cells)) for bounds, cells in groups.items()])

    def island_bounds(self, cell: int) -> tuple[int, int]:
        """The open interval (low, high) of island numbers that the order lets ``cell`` hold
        now (the rocks aside): above every card that must be smaller, below every card that
        must be larger."""
        return self._bounds[cell]

    @property
    def every_island_bounds(self) -> tuple[tuple[int, int], ...]:
        """``island_bounds`` of every cell, by cell (one tuple, for a search that reads them all)."""
        return self._bounds

    def _cell_bounds(self, cell: int) -> tuple[int, int]:
        return _cell_bounds(self.grid, self.rules, cell)

    @kept
    def _bounds(self) -> tuple[tuple[int, int], ...]:
        # Once per position, for every cell: each legal choice and greedy move asks.
        return grid_bounds(self.grid, self.rules)

    @kept
    def _readings(self) -> dict[GridReading[Any], Any]:
        """The ``GridReading`` values of this grid worked out so far (or handed on)."""
        return {}

    @kept
    def _open_cells(self) -> tuple[int, ...]:
        """Empty cells outside the rocks' row."""
        cols, rocks = self.rules.cols, self.rocks_row
        if rocks is None:
            return tuple([c for c, v in enumerate(self.grid) if v is None])
        return tuple([c for c, v in enumerate(self.grid) if v is None and c // cols != rocks])

    def cost_of(self, choice: Choice) -> int:
        """The cost of a legal island choice."""
        cost = self.island_cost(choice.island, choice.target)
        assert cost is not None, f"{choice} is not a legal choice here"
        return cost

    def finish_allowed(self) -> bool:
        """Finish cards: every cell filled, a Start played and every monster played."""
        return self.start_played and None not in self.grid and self.monsters_played == self.rules.monsters

    def _out_of_cards(self) -> bool:
        """Rule option one_card=lose: a seat beginning its turn with 0 or 1 cards loses."""
        return self.rules.one_card == OneCard.LOSE and len(self.hand) <= 1

    def start_event(self) -> StartEvent:
        """The Start event of a seat that may play its Start card now."""
        event = self.start_rounds()
        assert event is not None, "the Start card cannot be played here"
        return event

    def start_rounds(self) -> StartEvent | None:
        """The Start event's payment (solo reading, docs/rules.md): while the hands together
        hold fewer cards than are owed, every card in hand is discarded and all seats draw
        back up. Returns the last round, where the team chooses, or None when hands and
        piles run dry first (the Start cannot be played)."""
        return self._start_round

    @kept
    def _start_round(self) -> StartEvent | None:
        # Once per position: the choices, a player and the move itself each ask.
        hands = list(self.hands)
        without_start = remove_cards(hands[self.seat], [START])
        assert without_start is not None, "start_rounds asked of a seat without a Start card"
        hands[self.seat] = without_start
        drawn = list(self.drawn)
        owed = self.rules.start_discards
        forced: list[Card] = []
        while True:
            held = sum(len(h) for h in hands)
            if held >= owed:
                return StartEvent(tuple(hands), tuple(drawn), owed, tuple(forced))
            if held == 0 and all(d == len(p) for d, p in zip(drawn, self.deal.piles, strict=True)):
                return None  # hands and piles have run dry (empty hands alone can happen at hand=1)
            for h in hands:
                forced.extend(h)
            owed -= held
            hands = [()] * len(hands)
            for seat in range(len(hands)):
                hands[seat], drawn[seat] = self._draw_up((), seat, drawn[seat])

    def _draw_up(self, hand: tuple[Card, ...], seat: int, drawn: int) -> tuple[tuple[Card, ...], int]:
        """Draw back up to the hand size from the seat's own pile while cards remain."""
        pile = self.deal.piles[seat]
        take = max(0, min(self.rules.hand - len(hand), len(pile) - drawn))
        if take == 0:
            return hand, drawn
        return sorted_cards(hand + pile[drawn : drawn + take]), drawn + take

    # -- transitions ---------------------------------------------------------------------

    def _with(self, **changes: Any) -> State:
        """This state with ``changes`` to its fields (``dataclasses.replace`` without its
        per-field work, which cost more than the rest of a replayed turn). The fields alone
        are copied, never the tables kept in the instance: ``_pass_tables`` hands those on."""
        child = object.__new__(State)
        mine, values = self.__dict__, child.__dict__
        for name in _FIELDS:
            values[name] = mine[name]
        values.update(changes)
        return child

    def apply(self, action: Action) -> State:
        """The state after ``action``; raises IllegalAction naming the broken rule."""
        if self.won:
            raise IllegalAction("the game is already won")
        if action.seat != self.seat:
            raise IllegalAction(f"it is seat {self.seat}'s turn, not seat {action.seat}'s")
        if self._out_of_cards():
            raise IllegalAction(f"seat {self.seat} begins its turn with {len(self.hand)} card(s) and loses (rule one_card=lose)")
        if self.must_play_start() and not isinstance(action, PlayStart):
            raise IllegalAction(f"seat {self.seat} holds a Start card and must play it")
        after = self.before_rocks(action)
        if isinstance(action, PlayFinish):
            if action.rocks is not None:
                raise IllegalAction("the winning Finish carries no rocks move")
            return after
        after = self._move_rocks(after, action)
        if isinstance(action, PlayStart):
            hands, drawn = list(after.hands), list(after.drawn)
            for seat in range(self.players):
                hands[seat], drawn[seat] = self._draw_up(hands[seat], seat, drawn[seat])
        else:
            hands, drawn = list(after.hands), list(after.drawn)
            hands[self.seat], drawn[self.seat] = self._draw_up(hands[self.seat], self.seat, drawn[self.seat])
        child = after._with(
            hands=tuple(hands),
            drawn=tuple(drawn),
            seat=(self.seat + 1) % self.players,
            turn=self.turn + 1,
        )
        return self._pass_tables(child, action)

    def _pass_tables(self, child: State, action: Action) -> State:
        """Give ``child`` the tables of the grid this position has worked out, updated for
        the one card placed (a placement changes the bounds of a run and the neighbours of
        a cell), or as they are when the grid has not changed; the searches' ``GridReading``
        values the same way, each updated by its own ``after``. Invisible: each is the value
        ``child`` would work out itself (tests/engine/test_speed_invariants.py); a replay, which
        never works them out, pays nothing for this."""
        mine, theirs = self.__dict__, child.__dict__
        readings = mine.get("_readings")
        if readings:
            if child.grid is self.grid:
                theirs["_readings"] = readings  # the same grid: the same values, one dict
            elif isinstance(action, PlayIsland):
                cell, card, handed = action.cell, action.card, {}
                for reading in list(readings):  # an update may work out another reading here
                    if reading.after is not None and (value := reading.after(self, cell, card)) is not None:
                        handed[reading] = value
                theirs["_readings"] = handed
        if "_bounds" not in mine:
            return child
        if child.grid is self.grid:
            for name in _GRID_TABLES:
                if name in mine:
                    theirs[name] = mine[name]
            if child.rocks_row == self.rocks_row:
                for name in _ROCKS_TABLES:
                    if name in mine:
                        theirs[name] = mine[name]
        elif isinstance(action, PlayIsland):
            theirs["_bounds"] = self._bounds_after(action.cell, action.card)
            if "_open_cells" in mine and child.rocks_row == self.rocks_row:
                cells = self._open_cells
                at = cells.index(action.cell)
                theirs["_open_cells"] = cells[:at] + cells[at + 1 :]
                if "_open_groups" in mine and self.rules.order == Order.SEQUENCE:
                    theirs["_open_groups"] = self._groups_after(action.cell, action.card)
            if "_near" in mine:
                near = list(self._near)
                near[action.cell] = ()
                for cell in geometry_of(self.rules).neighbours[action.cell]:
                    if child.grid[cell] is None:
                        near[cell] = child._cell_near(cell)
                theirs["_near"] = near
        return child

    def _groups_after(self, cell: int, card: int) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
        """``_open_groups`` once ``card`` is placed on the open ``cell`` (order=sequence, the
        rocks staying where they are): its group, a run, splits there into the cells before
        it, now below ``card``, and those after it, now above."""
        groups = list(self._open_groups)
        at = bisect_left(self._group_ends[0], self._bounds[cell][0])  # the runs' lower bounds rise
        (low, high), cells = groups[at]
        split = cells.index(cell)
        parts = [((low, card), cells[:split]), ((card, high), cells[split + 1 :])]
        groups[at : at + 1] = [part for part in parts if part[1]]
        return tuple(groups)

    def _bounds_after(self, cell: int, card: int) -> tuple[tuple[int, int], ...]:
        """``_bounds`` once ``card`` is placed on the empty ``cell``: the cells that must hold
        larger cards get ``card`` as a lower bound, those that must hold smaller ones as an
        upper bound."""
        bounds = list(self._bounds)
        geo = geometry_of(self.rules)
        sequence = self.rules.order == Order.SEQUENCE
        # Along one sequence the lower bounds never fall cell by cell and the upper ones
        # never rise: past the first cell a card does not tighten, it tightens none.
        for other in geo.after[cell]:
            low, high = bounds[other]
            if card > low:
                bounds[other] = (card, high)
            elif sequence:
                break
        for other in reversed(geo.before[cell]):
            low, high = bounds[other]
            if card < high:
                bounds[other] = (low, card)
            elif sequence:
                break
        return tuple(bounds)

    def before_rocks(self, action: Action) -> State:
        """The action itself, before the rocks move and the seat draws back up (unchecked
        for turn order and the forced Start: ``apply`` checks those)."""
        match action:
            case PlayIsland():
                return self._play_island(action)
            case PlayStart():
                return self._play_start(action)
            case PlayFinish():
                return self._play_finish()
            case DiscardTwo():
                return self._discard_two(action)
            case PlayMonster():
                return self._play_monster(action)
            case _:
                assert_never(action)

    def _pay(self, hand: tuple[Card, ...], cards: tuple[Card, ...], what: str) -> tuple[Card, ...]:
        rest = without(hand, cards)
        if rest is None:
            missing = Counter(cards) - Counter(hand)
            card = next(iter(missing))
            raise IllegalAction(f"{what}: {card_label(card)} is not in seat {self.seat}'s hand")
        return rest

    def _discarding(self, cards: Iterable[Card]) -> tuple[Card, ...]:
        """The discard pile with ``cards`` added (most plays add none: no sort then)."""
        cards = tuple(cards)
        return sorted_cards(self.discarded + cards) if cards else self.discarded

    def _with_hand(self, hand: tuple[Card, ...], **changes) -> State:
        hands = list(self.hands)
        hands[self.seat] = hand
        return self._with(hands=tuple(hands), **changes)

    def _play_island(self, action: PlayIsland) -> State:
        card, cell = action.card, action.cell
        if not is_island(card):
            raise IllegalAction(f"{card!r} is not an island card")
        hand = self._pay(self.hand, (card,), "play")
        if not 0 <= cell < self.rules.cells:
            raise IllegalAction(f"cell {cell} is not on the {self.rules.rows}x{self.rules.cols} grid")
        if self.grid[cell] is not None:
            raise IllegalAction(f"cell {cell} already holds {self.grid[cell]}")
        if self.rocks_row is not None and cell // self.rules.cols == self.rocks_row:
            raise IllegalAction(f"cell {cell} is in row {self.rocks_row}, blocked by the Jagged Rocks")
        cost = self.island_cost(card, cell)
        if cost is None:
            raise IllegalAction(f"{card} at cell {cell} breaks the ascending order ({self.rules.order})")
        if cost > len(hand):
            raise IllegalAction(f"{card} at cell {cell} costs {cost} but only {len(hand)} other card(s) are in hand")
        if len(action.discard) != cost:
            raise IllegalAction(f"{card} at cell {cell} costs {cost}; the action discards {len(action.discard)} card(s)")
        hand = self._pay(hand, action.discard, "cost")
        grid = self.grid[:cell] + (card,) + self.grid[cell + 1 :]
        return self._with_hand(hand, grid=grid, discarded=self._discarding(action.discard))

    def _play_start(self, action: PlayStart) -> State:
        if self.start_played:
            raise IllegalAction("a Start card has already been played")
        if START not in self.hand:
            raise IllegalAction(f"seat {self.seat} holds no Start card")
        rounds = self.start_rounds()
        if rounds is None:
            raise IllegalAction(f"the team cannot pay the {self.rules.start_discards} cards the Start card costs")
        hands, drawn, owed, forced = rounds
        split = action.team_discard
        if len(split) != self.players:
            raise IllegalAction(f"team_discard needs one list per seat ({self.players}), got {len(split)}")
        if sum(len(d) for d in split) != owed:
            raise IllegalAction(
                f"the team must discard {owed} card(s) now (of {self.rules.start_discards} in all); "
                f"team_discard lists {sum(len(d) for d in split)}"
            )
        new_hands = []
        for seat, (hand, paid) in enumerate(zip(hands, split, strict=True)):
            rest = remove_cards(hand, paid)
            if rest is None:
                missing = next(iter(Counter(paid) - Counter(hand)))
                raise IllegalAction(f"team_discard: {card_label(missing)} is not in seat {seat}'s hand")
            new_hands.append(rest)
        paid_all = [c for d in split for c in d]
        return self._with(
            hands=tuple(new_hands),
            drawn=drawn,
            start_played=True,
            discarded=sorted_cards(self.discarded + forced + tuple(paid_all)),
        )

    def _play_finish(self) -> State:
        if FINISH not in self.hand:
            raise IllegalAction(f"seat {self.seat} holds no Finish card")
        if not self.start_played:
            raise IllegalAction("a Finish card needs a Start card played first")
        if any(v is None for v in self.grid):
            raise IllegalAction(f"a Finish card needs a full grid ({self.filled} of {self.rules.cells} cells filled)")
        if self.monsters_played != self.rules.monsters:
            raise IllegalAction(f"a Finish card needs every Sea Monster played ({self.monsters_played} of {self.rules.monsters})")
        hand = self._pay(self.hand, (FINISH,), "play")
        return self._with_hand(hand, won=True, turn=self.turn + 1)

    def _discard_two(self, action: DiscardTwo) -> State:
        if len(action.discard) != 2:
            raise IllegalAction(f"discard-two discards exactly 2 cards, got {len(action.discard)}")
        hand = self._pay(self.hand, action.discard, "discard")
        return self._with_hand(hand, discarded=sorted_cards(self.discarded + action.discard))

    def _play_monster(self, action: PlayMonster) -> State:
        hand = self._pay(self.hand, (MONSTER,), "play")
        cell = action.cell
        sunk = self.grid[cell] if 0 <= cell < self.rules.cells else None
        if sunk is None:
            raise IllegalAction(f"a Sea Monster needs an island on its cell; cell {cell} is empty")
        grid = self.grid[:cell] + (None,) + self.grid[cell + 1 :]
        return self._with_hand(
            hand,
            grid=grid,
            monsters_played=self.monsters_played + 1,
            gone=sorted_cards(self.gone + (MONSTER, sunk)),
        )

    def _move_rocks(self, after: State, action: Action) -> State:
        """Jagged Rocks: after each action the card moves to another row with an empty cell
        (auto: by the deal's next roll; manual: the seat's choice, or stay for two cards).
        It leaves the game once enough rows are complete."""
        if after.rocks_row is None:
            if action.rocks is not None:
                raise IllegalAction("the Jagged Rocks are not in play; the action carries a rocks move")
            return after
        if after.complete_rows >= self.rules.rocks_leave_rows:
            if action.rocks is not None:
                raise IllegalAction("the Jagged Rocks leave the game on this action; it carries no rocks move")
            return after._with(rocks_row=None)
        eligible = after.eligible_rock_rows()
        if self.rules.rocks == Rocks.AUTO:
            if action.rocks is not None:
                raise IllegalAction("rocks=auto moves the rocks by the deal's rolls; the action carries a rocks move")
            rolls = self.deal.rocks_rolls
            if after.rolls_used >= len(rolls):
                raise DealError(f"the deal ran out of rocks_rolls after {len(rolls)} moves")
            row = eligible[rolls[after.rolls_used] % len(eligible)]
            return after._with(rocks_row=row, rolls_used=after.rolls_used + 1)
        move = action.rocks
        if move is None:
            raise IllegalAction('rocks=manual: the action must move the rocks or keep them ("stay")')
        if move.row is not None:
            if move.discard:
                raise IllegalAction('moving the rocks costs nothing; rocks_discard is only for "stay"')
            if move.row not in eligible:
                raise IllegalAction(f"the rocks may move to row {', '.join(map(str, eligible))}, not to row {move.row}")
            return after._with(rocks_row=move.row)
        if len(move.discard) != 2:
            raise IllegalAction("keeping the rocks in place costs exactly 2 more cards (rocks_discard)")
        hands = list(after.hands)
        rest = remove_cards(hands[self.seat], move.discard)
        if rest is None:
            missing = next(iter(Counter(move.discard) - Counter(hands[self.seat])))
            raise IllegalAction(f"rocks_discard: {card_label(missing)} is not in seat {self.seat}'s hand")
        hands[self.seat] = rest
        return after._with(hands=tuple(hands), discarded=sorted_cards(after.discarded + move.discard))

    # -- descriptions --------------------------------------------------------------------

    def explain_illegal(self, action: Action) -> str | None:
        """Why ``action`` is illegal here, or None if it is legal."""
        try:
            self.apply(action)
        except IllegalAction as exc:
            return str(exc)
        return None


_FIELDS = tuple(field.name for field in fields(State))

_FINISH, _DISCARD = Choice(ChoiceKind.FINISH, FINISH), Choice(ChoiceKind.DISCARD)  # one value each: choices are frozen

# The tables of a position that its grid alone decides, and those its rocks' row decides too
# (State._pass_tables hands them on).
_GRID_TABLES = ("_bounds", "_near")
_ROCKS_TABLES = ("_open_cells", "_open_groups", "_group_ends")


def _cell_bounds(grid: tuple[int | None, ...], rules: Rules, cell: int) -> tuple[int, int]:
    """``island_bounds`` of one cell of ``grid``: from the other cells alone."""
    geo = geometry_of(rules)
    # Loops, not max() and min() of generators: a replay asks this once a turn.
    low, high = 0, rules.islands + 1
    for c in geo.before[cell]:
        if (v := grid[c]) is not None and v > low:
            low = v
    for c in geo.after[cell]:
        if (v := grid[c]) is not None and v < high:
            high = v
    return low, high


def grid_bounds(grid: tuple[int | None, ...], rules: Rules) -> tuple[tuple[int, int], ...]:
    """``island_bounds`` of every cell of ``grid``."""
    top = rules.islands + 1
    if rules.order == Order.SEQUENCE:
        # The cells before a cell are all earlier ones: running maxima and minima.
        # (Comparisons, not max() and min() calls: this runs for every position searched.)
        lows, low = [], 0
        for v in grid:
            lows.append(low)
            if v is not None and v > low:
                low = v
        highs, high = [], top
        for v in reversed(grid):
            highs.append(high)
            if v is not None and v < high:
                high = v
        highs.reverse()
        return tuple(zip(lows, highs, strict=True))
    return tuple(_cell_bounds(grid, rules, cell) for cell in range(len(grid)))


def smallest_gap(card: int, near: tuple[int, ...]) -> int:
    """Placement cost: the smallest difference to a card on a neighbouring cell, 0 if none."""
    best = None
    for v in near:  # a loop: this is the engine's innermost step
        gap = card - v if card > v else v - card
        if best is None or gap < best:
            best = gap
    return 0 if best is None else best


def sub_multisets(cards: tuple[Card, ...], k: int) -> Iterator[tuple[Card, ...]]:
    """Distinct sub-multisets of size k (cards is sorted)."""
    seen = set()
    for combo in combinations(cards, k):
        if combo not in seen:
            seen.add(combo)
            yield combo


def _team_splits(hands: tuple[tuple[Card, ...], ...], owed: int) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every way for the team to discard ``owed`` cards from its hands."""
    if not hands:
        if owed == 0:
            yield ()
        return
    first, rest = hands[0], hands[1:]
    later = sum(len(h) for h in rest)
    for k in range(max(0, owed - later), min(owed, len(first)) + 1):
        for paid in sub_multisets(first, k):
            for tail in _team_splits(rest, owed - k):
                yield (paid, *tail)


def replay(deal: Deal, actions: Iterable[Action]) -> State:
    """Apply ``actions`` from the deal's start; raises IllegalAction on the first bad one."""
    state = State.initial(deal)
    for action in actions:
        state = state.apply(action)
    return state
