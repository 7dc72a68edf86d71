"""The CP-SAT model of Tranquility from any position (docs/model.md).

The model encodes the rules on its own, from the rulebook, never by calling the rules
engine's move logic: that independence is what makes the engine's replay of a model's
line a real check. It reads only the position's data (grid, hands, piles, seat).

Formulation, in short: one slot per turn up to a proven horizon; each slot holds one
action kind. Island-to-cell and cell-to-turn Booleans place the islands (with Sea Monsters
to come, island-to-spot and spot-to-turn: each cell's successive islands, placed and sunk
on slots; the Jagged Rocks are a row per slot that moves after every action); each seat's
removal counter R[s][t] (cards that have left the seat's hand before turn t) says which
pile cards it has drawn (the hand is always full while the pile lasts, so a seat has drawn
its first R pile cards). Discards are counted, not named: only cards that are never
played are discarded, so it is enough that each seat has drawn as many never-played
cards as it has discarded so far.

``build_model`` adds the rules one function each, named after the rule, in an explicit
order; each rule function takes the variables it constrains and returns the ones it
creates. Reading a solution, hints and objectives are in solver/cpsat/run_model.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.rules import Adjacency, OneCard, Order, Rocks, Rules
from tranquility.solver.engine.state import State

IntVar = cp_model.IntVar
Expr = cp_model.LinearExpr | int  # an IntVar is a LinearExpr
Bit = IntVar | int  # a Boolean variable, or a constant 0 or 1 where the rules decide it


# -- the geometry, written again apart from the rules engine's -------------------------------


def precedes(rules: Rules, j: int, k: int) -> bool:
    """Rule 'order': must cell j hold a smaller island than cell k? (Written here again,
    apart from the rules engine, so that the engine's replay checks the model.)"""
    if rules.order == Order.SEQUENCE:
        return j < k
    (rj, cj), (rk, ck) = divmod(j, rules.cols), divmod(k, rules.cols)
    return (rj == rk and cj < ck) or (cj == ck and rj < rk)


def successors(rules: Rules, k: int) -> list[int]:
    """Rule 'order': the cells next to k that must hold a larger card; by transitivity
    enough to imply the whole order."""
    cols, cells = rules.cols, rules.cells
    if rules.order == Order.SEQUENCE:
        return [k + 1] if k + 1 < cells else []
    out = []
    if (k + 1) % cols:
        out.append(k + 1)
    if k + cols < cells:
        out.append(k + cols)
    return out


def cost_neighbours(rules: Rules, k: int) -> list[int]:
    """Rule 'adjacency': the cells whose placed islands set the cost of a play into k."""
    cols, cells = rules.cols, rules.cells
    near: set[int] = set()
    if rules.adjacency in (Adjacency.SEQUENCE, Adjacency.BOTH):
        near.update(j for j in (k - 1, k + 1) if 0 <= j < cells)
    if rules.adjacency in (Adjacency.ORTHOGONAL, Adjacency.BOTH):
        row, col = divmod(k, cols)
        near.update(
            j for j, ok in ((k - 1, col > 0), (k + 1, col < cols - 1), (k - cols, row > 0), (k + cols, k + cols < cells)) if ok
        )
    return sorted(near)


def horizon(state: State) -> int:
    """A proven bound on the number of turns of any winning continuation.

    Every turn takes at least one card out of the hands: an island play takes the island
    and its cost, a discard-two two cards, a Sea Monster the monster, the Start event the
    Start and its discards, a Finish the Finish (a manual rocks "stay" takes two more). A
    win plays every monster still to come (M), each sinking an island, so one island per
    empty cell and M more; the Start event (if not yet played) and one Finish; every other
    turn is a discard-two taking two cards. With N cards left in hands and piles:
    discard turns <= (N - empty - 2M - start - 1) // 2.
    """
    rules = state.rules
    left = state.cards_left
    empty = sum(v is None for v in state.grid)
    monsters = rules.monsters - state.monsters_played
    start = 0 if state.start_played else 1 + rules.start_discards
    spare = left - empty - 2 * monsters - start - 1
    if spare < 0:
        return 0
    return empty + 2 * monsters + (0 if state.start_played else 1) + 1 + spare // 2


# Rule groups that can be switched off (``build_model(..., relaxable=True)``) to find out
# which rules together make a position unwinnable (solver.binds). What stays on always is
# the frame: one action per turn, every cell filled, a Finish played, the counters.
RULE_GROUPS: dict[str, str] = {
    "order": "the grid ascends (rule 'order')",
    "cost": "a placement costs the gap to the closest placed neighbour (rule 'adjacency')",
    "draw": "an island is played from hand, so only once its seat has drawn it",
    "finish": "the Finish card is played from hand after the Start, so only once drawn",
    "start": "the Start card is played as soon as it is held, and the team discards start_discards cards",
    "hand": "an action needs the cards: cost + 1 to play, two to discard, one to act at all",
    "discards": "paid and discarded cards come from the seat's own hand (cards it never plays)",
    # The modules' groups, in a position's model only while the module is in play there
    # (rule_groups), so that a base-game model is the one it always was.
    "monsters": "the Finish waits for every Sea Monster: each is played from hand and sinks a placed island",
    "rocks": "no island in the Jagged Rocks' row, which moves after every action as the rolls or the seat say "
    "(keeping it costs two cards)",
}


def rule_groups(f: Frame) -> tuple[str, ...]:
    """The rule groups of a position's model: the base groups, then "monsters" while Sea
    Monsters are still to be played and "rocks" while the Jagged Rocks are in play."""
    modules = {"monsters": f.monsters_left > 0, "rocks": f.rocks}
    return tuple(g for g in RULE_GROUPS if modules.get(g, True))


# -- what the model reads, and the variables it declares ---------------------------------------


@dataclass(frozen=True, eq=False)
class PlayCard:
    """A card of a seat that the line may play (an island, a Finish or a Sea Monster):
    where it sits. Compared by identity: two Finish cards in one hand are two cards."""

    card: Card
    seat: int
    queue: int  # -1 = already in hand; else its index among the seat's undrawn cards

    @property
    def number(self) -> int:
        """An island card's number."""
        assert is_island(self.card)
        return self.card


def playable(card: Card) -> bool:
    """The cards a line may play: islands, Finish cards and Sea Monsters (a Start is the
    Start rule's; a monster that is not played makes the Finish impossible, so a win plays
    every one)."""
    return is_island(card) or card in (FINISH, MONSTER)


@dataclass(frozen=True)
class Frame:
    """What the model reads of the position, and its T turn slots (docs/model.md, Notation)."""

    state: State
    T: int
    seat_of: tuple[int, ...]  # the seat that moves in each slot
    turns_of: tuple[tuple[int, ...], ...]  # each seat's slots
    queue: tuple[tuple[Card, ...], ...]  # each seat's undrawn pile, top first
    held: tuple[int, ...]  # cards in each hand at the position
    empty: tuple[int, ...]  # the empty cells
    cards: tuple[PlayCard, ...]  # the islands and Finish cards in hands and piles, seat by seat

    @staticmethod
    def of(state: State, T: int) -> Frame:
        P = state.players
        seat_of = tuple((state.seat + t) % P for t in range(T))
        queue = tuple(state.pile(s) for s in range(P))
        cards: list[PlayCard] = []
        for s in range(P):
            cards += [PlayCard(c, s, -1) for c in state.hands[s] if playable(c)]
            cards += [PlayCard(c, s, q) for q, c in enumerate(queue[s]) if playable(c)]
        return Frame(
            state=state,
            T=T,
            seat_of=seat_of,
            turns_of=tuple(tuple(t for t in range(T) if seat_of[t] == s) for s in range(P)),
            queue=queue,
            held=tuple(len(h) for h in state.hands),
            empty=tuple(k for k, v in enumerate(state.grid) if v is None),
            cards=tuple(cards),
        )

    @property
    def rules(self) -> Rules:
        return self.state.rules

    @property
    def P(self) -> int:
        return self.state.players

    @property
    def H(self) -> int:
        return self.state.rules.hand

    @property
    def start_played(self) -> bool:
        return self.state.start_played

    @property
    def islands(self) -> list[PlayCard]:
        return [c for c in self.cards if is_island(c.card)]

    @property
    def finishes(self) -> list[PlayCard]:
        return [c for c in self.cards if c.card == FINISH]

    @property
    def monsters(self) -> list[PlayCard]:
        """The Sea Monsters in hands and piles: a win plays every one (rule 'monsters')."""
        return [c for c in self.cards if c.card == MONSTER]

    @property
    def monsters_left(self) -> int:
        """M: the Sea Monsters still to be played before the Finish."""
        return self.rules.monsters - self.state.monsters_played

    @property
    def rocks(self) -> bool:
        """The Jagged Rocks are in play at the position."""
        return self.rules.rocks != Rocks.OFF and self.state.rocks_row is not None

    @property
    def cards_left(self) -> int:
        """N: the cards in all hands and piles."""
        return sum(self.held) + sum(len(q) for q in self.queue)

    def value_of(self, value: Mapping[int, IntVar], k: int) -> IntVar | int:
        """The island in cell k: placed already, or the model's ``value[k]``."""
        v = self.state.grid[k]
        return v if v is not None else value[k]


@dataclass(frozen=True)
class Context:
    """What every rule function adds to: the model, the frame, and one switch per rule
    group (``rule_on``; empty unless the model is relaxable)."""

    m: cp_model.CpModel
    f: Frame
    rule_on: Mapping[str, IntVar]

    @property
    def relaxable(self) -> bool:
        return bool(self.rule_on)

    def bool(self, name: str) -> IntVar:
        return self.m.new_bool_var(name)

    def when(self, group: str, *literals) -> list:
        """Enforcement literals for a constraint of a rule group: its own conditions, and
        the group's switch when the model is relaxable."""
        return [*literals, *([self.rule_on[group]] if self.relaxable else [])]


@dataclass(frozen=True)
class Turns:
    """One Boolean per slot and action kind; exactly one of them is true. ``monster`` is
    0 in every slot unless Sea Monsters are still to be played."""

    island: tuple[IntVar, ...]
    start: tuple[IntVar, ...]
    finish: tuple[IntVar, ...]
    discard: tuple[IntVar, ...]
    idle: tuple[IntVar, ...]
    monster: tuple[Bit, ...]

    def moves_rocks(self, t: int) -> Expr:
        """1 if slot t's action moves the Jagged Rocks: every action but the Finish."""
        return self.island[t] + self.start[t] + self.discard[t] + self.monster[t]


Spot = tuple[int, int]  # (cell, i): the i-th island a cell holds from the position on


@dataclass(frozen=True)
class Occupancies:
    """Sea Monsters: each cell's successive islands, spot (k, i) for i = 0..M, and the slots
    that place and sink them (each_cell_is_filled_sunk_and_filled_again). A spot's island is
    on the grid from slot start (placed then; -1 = at the position; T = never) until slot
    end (sunk then; T = never)."""

    spots: tuple[Spot, ...]
    initial: frozenset[Spot]  # the islands on the grid at the position: spot (k, 0)
    used: Mapping[Spot, Bit]  # the cell holds an i-th island at all
    start: Mapping[Spot, Expr]
    end: Mapping[Spot, Expr]
    fill: Mapping[tuple[Spot, int], IntVar]  # spot filled on slot t
    sink: Mapping[tuple[Spot, int], IntVar]  # spot sunk by a monster on slot t
    cache: dict[str, Bit] = field(default_factory=dict)  # half-reified comparisons by name, shared by the rules

    def earlier(self, ctx: Context, x: Expr, y: Expr, name: str) -> Bit:
        """A literal that is 1 whenever x < y (slot times; it may be 1 otherwise too, so it
        only ever enables the constraints it guards): ``not lit -> x >= y``. Constant when
        the bounds decide it."""
        if name not in self.cache:
            if isinstance(x, int) and isinstance(y, int):
                self.cache[name] = int(x < y)
            elif isinstance(x, int) and x < 0:  # at the position: before every slot
                self.cache[name] = 1
            else:
                lit = ctx.bool(name)
                ctx.m.add(x >= y).only_enforce_if(lit.negated())
                self.cache[name] = lit
        return self.cache[name]


@dataclass(frozen=True)
class JaggedRocks:
    """The Jagged Rocks' row as each slot begins (at[t][r], t = 0..T; all 0 once they have
    left) and, with rocks=manual, the slots that keep them in place for two cards."""

    at: tuple[tuple[IntVar, ...], ...]
    stay: tuple[Bit, ...]


@dataclass(frozen=True)
class StartRounds:
    """The Start event's slot and its rounds (start_event_rounds)."""

    turn: IntVar  # the Start slot
    forced: tuple[tuple[IntVar, tuple[IntVar, ...]], ...]  # per round: forced?, and each seat's draws as it begins
    chosen: tuple[tuple[IntVar, ...], ...]  # per round: the cards each seat picks (0 unless it is the last round)
    drawn: tuple[IntVar, ...]  # each seat's draws by the last round


@dataclass(frozen=True)
class GameModel:
    """A built model (``build_model``) and the variables read after building: by solutions,
    hints and objectives (solver/cpsat/run_model.py) and by what binds (``rule_on``)."""

    frame: Frame
    model: cp_model.CpModel
    rule_on: Mapping[str, IntVar]  # one switch per rule group when relaxable, else empty
    turns: Turns  # one_action_per_turn
    finish_turn: IntVar  # the_game_ends_with_a_finish
    fill: Mapping[tuple, IntVar]  # each_island_turn_fills_one_cell: cell k (a spot with monsters) on slot t
    goes: Mapping[tuple, IntVar]  # every_empty_cell_gets_an_island: island c into cell k (or spot)
    value: Mapping  # every_empty_cell_gets_an_island: the island in each empty cell (or spot)
    removed: tuple[tuple[IntVar, ...], ...]  # removal_counters: R[s][t]
    team_choice: tuple[tuple[IntVar, ...], ...] | None  # start_event_rounds; None once a Start is played
    played: Mapping[PlayCard, IntVar]  # every_empty_cell_gets_an_island, cards_are_played_from_hand
    turn: Mapping[PlayCard, IntVar]  # cards_are_played_from_hand
    cost: Mapping[Any, IntVar]  # placement_cost (per cell; per spot with Sea Monsters)
    sink: Mapping[tuple[Spot, int], IntVar]  # each_cell_is_filled_sunk_and_filled_again; empty without monsters
    rocks: JaggedRocks | None  # the_rocks_move_after_every_action; None without rocks in play

    def size(self) -> dict:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints), "horizon": self.frame.T}


# -- building ----------------------------------------------------------------------------------


# One call per rule, in the order docs/model.md proves them; splitting it would hide that order.
def build_model(state: State, T: int, relaxable: bool = False) -> GameModel:
    """The model of the winning continuations of at most ``T`` turns from ``state``.
    ``relaxable`` adds one switch per rule group (RULE_GROUPS, solver.binds).

    Each rule comes after the rules whose variables it reads; the order is also the order
    of the model's variables and constraints, which reproducible CP-SAT runs depend on."""
    m = cp_model.CpModel()
    frame = Frame.of(state, T)
    rule_on = {g: m.new_bool_var(f"rule_on[{g}]") for g in rule_groups(frame)} if relaxable else {}
    ctx = Context(m, frame, rule_on)
    turns = one_action_per_turn(ctx)
    finish_turn, start_turn = the_game_ends_with_a_finish(ctx, turns)
    cells = None
    spots: list
    cost: Mapping
    if ctx.f.monsters_left:
        # Sea Monsters empty cells again: each cell holds a sequence of islands over time.
        cells = each_cell_is_filled_sunk_and_filled_again(ctx, turns)
        fill, placed_at, spots = cells.fill, cells.start, list(cells.spots)
        goes, value, island_played = every_spot_gets_an_island(ctx, cells)
        the_grid_ascends_at_every_moment(ctx, cells, value)
    else:
        fill, placed_at = each_island_turn_fills_one_cell(ctx, turns)
        spots = list(ctx.f.empty)
        goes, value, island_played = every_empty_cell_gets_an_island(ctx)
        the_grid_ascends(ctx, value)
    rocks = None
    if ctx.f.rocks:
        complete = rows_complete_after_each_turn(ctx, fill, {} if cells is None else cells.sink)
        rocks = the_rocks_move_after_every_action(ctx, turns, complete)
        no_island_in_the_rocks_row(ctx, fill, rocks)
    removed, cost_at, event = removal_counters(ctx, turns, rocks)
    hand = hand_sizes(ctx, removed)
    start_seat = the_start_must_be_played(ctx, turns, removed)
    rounds = None if start_turn is None else start_event_rounds(ctx, turns, removed, start_seat, event, start_turn)
    played, turn = cards_are_played_from_hand(ctx, goes, spots, placed_at, island_played, finish_turn, removed)
    if cells is not None:
        monsters_played, monsters_turn = every_monster_is_played_from_hand(ctx, turns, removed)
        played |= monsters_played
        turn |= monsters_turn
    if rounds is not None:
        played_cards_survive_forced_rounds(ctx, played, turn, rounds)
    if cells is None:
        cost = placement_cost(ctx, turns, value, fill, placed_at, cost_at)
    else:
        cost = placement_cost_among_present_islands(ctx, turns, cells, value, cost_at)
    a_play_cannot_cost_more_than_the_hand_holds(ctx, turns, cost_at, hand)
    discard_two_needs_two_cards(ctx, turns, hand)
    one_card_rule(ctx, turns, hand)
    if rocks is not None and ctx.f.rules.rocks == Rocks.MANUAL:
        keeping_the_rocks_costs_two_more_cards(ctx, turns, removed, hand, rocks, rounds)
    discards_are_never_played_cards(ctx, turns, removed, played, start_seat, rounds)
    return GameModel(
        frame=ctx.f,
        model=m,
        rule_on=rule_on,
        turns=turns,
        finish_turn=finish_turn,
        fill=fill,
        goes=goes,
        value=value,
        removed=removed,
        team_choice=None if rounds is None else rounds.chosen,
        played=played,
        turn=turn,
        cost=cost,
        sink={} if cells is None else cells.sink,
        rocks=rocks,
    )


def one_action_per_turn(ctx: Context) -> Turns:
    """The turn (docs/rules.md, The turn): exactly one action, an island, the Start, a
    Finish, discard two or a Sea Monster. After the Finish the remaining slots are idle."""
    m, T = ctx.m, ctx.f.T
    kinds = [tuple(ctx.bool(f"{kind}[{t}]") for t in range(T)) for kind in ("island", "start", "finish", "discard", "idle")]
    # Sea Monster (docs/rules.md, Sea Monsters): playing one is an action of its own.
    monster: tuple[Bit, ...] = tuple(ctx.bool(f"monster[{t}]") for t in range(T)) if ctx.f.monsters_left else (0,) * T
    island, start, finish, discard, idle = kinds
    turns = Turns(island, start, finish, discard, idle, monster)
    for t in range(T):
        also = [turns.monster[t]] if ctx.f.monsters_left else []
        m.add_exactly_one(turns.island[t], turns.start[t], turns.finish[t], turns.discard[t], turns.idle[t], *also)
        if t + 1 < T:
            m.add_implication(turns.idle[t], turns.idle[t + 1])
            m.add_implication(turns.finish[t], turns.idle[t + 1])
    if ctx.f.start_played:
        for t in range(T):
            m.add(turns.start[t] == 0)
    return turns


def the_game_ends_with_a_finish(ctx: Context, turns: Turns) -> tuple[IntVar, IntVar | None]:
    """Finish card (docs/rules.md, Finish card): one is played, after a Start, and it ends
    the game (a win). Returns the Finish slot, and the Start slot (None once played)."""
    m, T = ctx.m, ctx.f.T
    m.add_exactly_one(turns.finish)
    finish_turn = m.new_int_var(0, max(0, T - 1), "finish_turn")
    m.add(finish_turn == sum(t * turns.finish[t] for t in range(T)))
    if ctx.f.start_played:
        return finish_turn, None
    m.add_exactly_one(turns.start)
    start_turn = m.new_int_var(0, max(0, T - 1), "start_turn")
    m.add(start_turn == sum(t * turns.start[t] for t in range(T)))
    m.add(start_turn < finish_turn).only_enforce_if(ctx.when("finish"))
    return finish_turn, start_turn


def every_turn_before_the_finish_is_counted(game: GameModel) -> None:
    """The Finish-turn equality (docs/model.md, The Finish-turn equality): every turn is one
    action and the Finish needs a full grid, so the Finish comes on slot E + M (island
    plays) + S (the Start, if still to come) + M (monsters) + D (discard twos). Implied by
    the model, so a cut: it ties the Finish's slot, and so its seat, to the discard twos."""
    f, turns = game.frame, game.turns
    before = len(f.empty) + (0 if f.start_played else 1) + 2 * f.monsters_left
    game.model.add(game.finish_turn == before + sum(turns.discard))


def no_cell_costs_more_than_one_beyond_the_slack(game: GameModel, slack: int) -> None:
    """The cost cap of a ladder step (docs/model.md, The restricted-horizon ladder): a win
    paying at most ``least_total_cost + slack`` pays at most 1 + slack on any one cell, as
    that bound counts cells that must be paid, each at least 1. A cut, stated only
    without Sea Monsters to come (a cell may then be filled, and paid, twice)."""
    if game.frame.monsters_left:
        return
    for cost in game.cost.values():
        game.model.add(cost <= 1 + slack)


def each_island_turn_fills_one_cell(ctx: Context, turns: Turns) -> tuple[dict, dict]:
    """Island play (docs/rules.md, Island play), cell to turn: each empty cell is filled on
    exactly one island turn, and each island turn fills exactly one cell. Returns
    fill[k, t] and placed_at[k], the slot that fills cell k."""
    m, f = ctx.m, ctx.f
    fill = {(k, t): ctx.bool(f"fill[{k},{t}]") for k in f.empty for t in range(f.T)}
    for k in f.empty:
        m.add_exactly_one(fill[k, t] for t in range(f.T))
    for t in range(f.T):
        m.add(sum(fill[k, t] for k in f.empty) == turns.island[t])
    placed_at = {}
    for k in f.empty:
        v = m.new_int_var(0, max(0, f.T - 1), f"placed_at[{k}]")
        m.add(v == sum(t * fill[k, t] for t in range(f.T)))
        placed_at[k] = v
    return fill, placed_at


def every_empty_cell_gets_an_island(ctx: Context) -> tuple[dict, dict, dict]:
    """Island play, island to cell: each empty cell gets exactly one island of the hands
    and piles, and an island goes into at most one cell. Only islands between the cell's
    placed smaller and larger cells can ever go there (rule 'order'); a relaxable model
    offers the others too, for when the order is off. Returns goes[c, k], value[k] and
    played[pc] for each island."""
    m, f = ctx.m, ctx.f
    rules = f.rules
    placed = [(j, v) for j, v in enumerate(f.state.grid) if v is not None]
    goes, value = {}, {}
    for k in f.empty:
        low = max((v for j, v in placed if precedes(rules, j, k)), default=0)
        high = min((v for j, v in placed if precedes(rules, k, j)), default=rules.islands + 1)
        options = []
        for pc in f.islands:
            fits = low < pc.number < high
            if fits or ctx.relaxable:
                flag = ctx.bool(f"goes[{pc.number},{k}]")
                goes[pc.number, k] = flag
                options.append((pc.number, flag))
                if not fits:  # only with the order switched off
                    m.add_implication(flag, ctx.rule_on["order"].negated())
        m.add_exactly_one(flag for _, flag in options)
        if ctx.relaxable:
            low, high = 0, rules.islands + 1
        v = m.new_int_var(low + 1 if options else 0, max(low + 1, high - 1), f"value[{k}]")
        m.add(v == sum(card * flag for card, flag in options))
        value[k] = v
    played = {}
    for pc in f.islands:
        uses = [flag for (card, _), flag in goes.items() if card == pc.number]
        played[pc] = ctx.bool(f"played[{pc.card}]")
        m.add(sum(uses) == played[pc])
    return goes, value, played


def the_grid_ascends(ctx: Context, value: Mapping[int, IntVar]) -> None:
    """Ascending order (docs/rules.md, Island play, rule 'order'). Every grid on the way is
    part of the final one, so it is enough that the final grid ascends."""
    f = ctx.f
    grid = f.state.grid
    for k in range(f.rules.cells):
        for j in successors(f.rules, k):
            if grid[k] is None or grid[j] is None:
                ctx.m.add(f.value_of(value, k) < f.value_of(value, j)).only_enforce_if(ctx.when("order"))


# -- Sea Monsters: cells that empty again ----------------------------------------------------


def cell_of(spot: int | Spot) -> int:
    """The cell of a fill key: a cell, or a (cell, i) spot with Sea Monsters."""
    return spot if isinstance(spot, int) else spot[0]


def _enforced(*literals: Bit) -> list | None:
    """Enforcement literals without the constant ones: None when one is 0 (the constraint
    never applies)."""
    if any(isinstance(lit, int) and not lit for lit in literals):
        return None
    return [lit for lit in literals if not isinstance(lit, int)]


def each_cell_is_filled_sunk_and_filled_again(ctx: Context, turns: Turns) -> Occupancies:
    """Sea Monsters (docs/rules.md, Sea Monsters): a monster sinks the island on a cell,
    which is empty again and can be filled again. Cell k holds the islands of its spots
    (k, 0), (k, 1), ... in turn: (k, 0) is the position's island or the first one placed,
    and (k, i + 1) is used only once a monster has sunk (k, i), and placed after that. With
    M monsters still to play exactly M islands are sunk, so M + 1 spots per cell are enough
    (docs/model.md); the last spot used in a cell is never sunk, so the grid is full at the
    Finish. Island slots fill one spot each, monster slots sink one."""
    m, f = ctx.m, ctx.f
    T, M = f.T, f.monsters_left
    grid = f.state.grid
    spots = tuple((k, i) for k in range(f.rules.cells) for i in range(M + 1))
    initial = frozenset((k, 0) for k, v in enumerate(grid) if v is not None)
    used: dict[Spot, Bit] = {}
    start: dict[Spot, Expr] = {}
    end: dict[Spot, Expr] = {}
    fill: dict[tuple[Spot, int], IntVar] = {}
    sink: dict[tuple[Spot, int], IntVar] = {}
    for k, i in spots:
        o = (k, i)
        used[o] = 1 if i == 0 else ctx.bool(f"used[{k},{i}]")
        if i > 1:
            m.add_implication(used[o], used[k, i - 1])
        if o in initial:
            start[o] = -1
            continue
        for t in range(T):
            fill[o, t] = ctx.bool(f"fill[{k},{i},{t}]")
        m.add(sum(fill[o, t] for t in range(T)) == used[o])
        start[o] = m.new_int_var(0, T, f"placed_at[{k},{i}]")
        m.add(start[o] == sum(t * fill[o, t] for t in range(T)) + T * (1 - used[o]))
    for k, i in spots:
        o = (k, i)
        if i == M:
            end[o] = T  # the last spot is never sunk
            continue
        later = used[k, i + 1]
        for t in range(T):
            sink[o, t] = ctx.bool(f"sink[{k},{i},{t}]")
        m.add(sum(sink[o, t] for t in range(T)) == later)
        end[o] = m.new_int_var(0, T, f"sunk_at[{k},{i}]")
        m.add(end[o] == sum(t * sink[o, t] for t in range(T)) + T * (1 - later))
        if o not in initial:  # a monster needs an island on its cell
            m.add(start[o] < end[o]).only_enforce_if(later)
        m.add(end[o] < start[k, i + 1]).only_enforce_if(later)
    for t in range(T):
        m.add(sum(fill[o, t] for o in spots if (o, t) in fill) == turns.island[t])
        m.add(sum(sink[o, t] for o in spots if (o, t) in sink) == turns.monster[t])
    # Exactly M sunk: the Finish waits for every monster (rule group 'monsters'; switched
    # off, the monsters are optional and fewer sink).
    m.add(sum(used[o] for o in spots if o[1] > 0) == M).only_enforce_if(ctx.when("monsters"))
    return Occupancies(spots, initial, used, start, end, fill, sink)


def every_spot_gets_an_island(ctx: Context, cells: Occupancies) -> tuple[dict, dict, dict]:
    """Island play with Sea Monsters, island to spot: each spot used gets exactly one
    island of the hands and piles, and an island goes to at most one spot (a sunk island
    leaves the game). Any island may go to any spot: a placed island that bounds a cell
    may be sunk first. Returns goes[c, spot], value[spot] and played[pc] for each island."""
    m, f = ctx.m, ctx.f
    goes: dict[tuple[int, Spot], IntVar] = {}
    value: dict[Spot, Expr] = {}
    uses: dict[int, list[IntVar]] = {pc.number: [] for pc in f.islands}
    for o in cells.spots:
        k, i = o
        if o in cells.initial:
            v = f.state.grid[k]
            assert v is not None  # an initial spot holds the position's island
            value[o] = v
            continue
        options = []
        for pc in f.islands:
            flag = ctx.bool(f"goes[{pc.number},{k},{i}]")
            goes[pc.number, o] = flag
            uses[pc.number].append(flag)
            options.append((pc.number, flag))
        m.add(sum(flag for _, flag in options) == cells.used[o])
        var = m.new_int_var(0, f.rules.islands, f"value[{k},{i}]")
        m.add(var == sum(card * flag for card, flag in options))
        value[o] = var
    played = {}
    for pc in f.islands:
        played[pc] = ctx.bool(f"played[{pc.card}]")
        m.add(sum(uses[pc.number]) == played[pc])
    return goes, value, played


def the_grid_ascends_at_every_moment(ctx: Context, cells: Occupancies, value: Mapping) -> None:
    """Ascending order with Sea Monsters (docs/rules.md, Island play, rule 'order'): a
    placement is compared with every island on the grid at that moment, and a cell may be
    empty in between, so order holds between the islands of two ordered cells whenever
    they are on the grid together (the islands of the position ascend already). Two
    islands are on the grid together exactly when each is placed before the other is sunk."""
    m, f = ctx.m, ctx.f
    by_cell: dict[int, list[Spot]] = {}
    for o in cells.spots:
        by_cell.setdefault(o[0], []).append(o)
    for j in range(f.rules.cells):
        for k in range(f.rules.cells):
            if not precedes(f.rules, j, k):
                continue
            for a in by_cell[j]:
                for b in by_cell[k]:
                    if a in cells.initial and b in cells.initial:
                        continue
                    both = _enforced(_before_sunk(ctx, cells, a, b), _before_sunk(ctx, cells, b, a))
                    if both is not None:
                        m.add(value[a] < value[b]).only_enforce_if(ctx.when("order", *both))


def _before_sunk(ctx: Context, cells: Occupancies, a: Spot, b: Spot) -> Bit:
    """1 whenever spot a's island is placed before spot b's is sunk."""
    return cells.earlier(ctx, cells.start[a], cells.end[b], f"placed_before_sunk[{a[0]},{a[1]};{b[0]},{b[1]}]")


def every_monster_is_played_from_hand(ctx: Context, turns: Turns, removed: tuple) -> tuple[dict, dict]:
    """Sea Monsters: the Finish waits for every monster of the game (monsters_played ==
    monsters), so a win plays each monster card in the hands and piles, from its seat's
    hand: on one of its seat's slots, once drawn, one card per monster slot. Fewer cards
    than monsters to play (one was discarded) leave no win. Returns played[pc] (always 1,
    unless the relaxable model's 'monsters' group is off) and turn[pc] for each monster card."""
    m, f = ctx.m, ctx.f
    played: dict[PlayCard, IntVar] = {}
    turn: dict[PlayCard, IntVar] = {}
    by_slot: dict[int, list[IntVar]] = {t: [] for t in range(f.T)}
    for pc in f.monsters:
        own = f.turns_of[pc.seat]
        at = [(t, ctx.bool(f"monster_from[{pc.seat},{pc.queue},{t}]")) for t in own]
        turn[pc] = m.new_int_var_from_domain(cp_model.Domain.from_values(own or [0]), f"turn[{pc.seat},{pc.queue}]")
        played[pc] = ctx.bool(f"monster_played[{pc.seat},{pc.queue}]")
        if ctx.relaxable:  # with 'monsters' off, a monster card may stay unplayed (and be discarded)
            m.add(sum(flag for _, flag in at) == played[pc])
            m.add(turn[pc] == sum(t * flag for t, flag in at)).only_enforce_if(played[pc])
            m.add(played[pc] == 1).only_enforce_if(ctx.rule_on["monsters"])
        else:
            m.add_exactly_one(flag for _, flag in at)
            m.add(turn[pc] == sum(t * flag for t, flag in at))
            m.add(played[pc] == 1)
        for t, flag in at:
            by_slot[t].append(flag)
            if pc.queue >= 0:
                m.add(removed[pc.seat][t] >= pc.queue + 1).only_enforce_if(ctx.when("draw", flag))
    for t in range(f.T):
        m.add(turns.monster[t] == sum(by_slot[t]))
    return played, turn


def placement_cost_among_present_islands(
    ctx: Context, turns: Turns, cells: Occupancies, value: Mapping, cost_at: tuple
) -> dict[Spot, IntVar]:
    """Cost with Sea Monsters (docs/rules.md, Island play, rule 'adjacency'): the smallest
    difference to an island on a neighbouring cell at the moment of the placement (placed
    before it and not sunk yet), 0 if there is none. Returns cost[spot] for each spot
    placed in the line (0 for a spot not used)."""
    m, f = ctx.m, ctx.f
    by_cell: dict[int, list[Spot]] = {}
    for o in cells.spots:
        by_cell.setdefault(o[0], []).append(o)
    cost = {}
    for b in cells.spots:
        if b in cells.initial:
            continue
        k, i = b
        options = []
        for j in cost_neighbours(f.rules, k):
            for a in by_cell[j]:
                here = _enforced(
                    cells.earlier(ctx, cells.start[a], cells.start[b], f"placed_before[{a[0]},{a[1]};{k},{i}]"),
                    _before_sunk(ctx, cells, b, a),
                )
                if here is None:
                    continue
                gap = m.new_int_var(0, f.rules.islands, f"gap[{k},{i};{a[0]},{a[1]}]")
                m.add_abs_equality(gap, value[b] - value[a])
                options.append((a, here, gap))
        c = m.new_int_var(0, f.H - 1, f"cost[{k},{i}]")
        picks = []
        none = ctx.bool(f"no_neighbour[{k},{i}]")
        for a, here, gap in options:
            m.add(c <= gap).only_enforce_if(here)
            pick = ctx.bool(f"cost_from[{k},{i}]")
            m.add(c == gap).only_enforce_if(pick)
            if a not in cells.initial:
                m.add(cells.start[a] < cells.start[b]).only_enforce_if(pick)
            m.add(cells.start[b] < cells.end[a]).only_enforce_if(pick)
            picks.append(pick)
            m.add_bool_or([lit.negated() for lit in here]).only_enforce_if(none)
        m.add_exactly_one([*picks, none])
        m.add(c == 0).only_enforce_if(none)
        for t in range(f.T):
            m.add(cost_at[t] == c).only_enforce_if(ctx.when("cost", cells.fill[b, t]))
        cost[b] = c
    for t in range(f.T):
        m.add(cost_at[t] == 0).only_enforce_if(turns.island[t].negated())
    return cost


# -- Jagged Rocks: a row blocked, moving after every action ----------------------------------


def rows_complete_after_each_turn(ctx: Context, fill: Mapping, sink: Mapping) -> tuple[tuple[Bit, ...], ...]:
    """Jagged Rocks, what they look at (docs/rules.md, Jagged Rocks): which rows are
    complete after each slot's action. A cell holds an island after slot t if it held one
    before and nothing sank it, or an island was placed (at most one of the two happens,
    and the 0/1 domain keeps fills and sinkings alternating). Returns complete[t][r]."""
    m, f = ctx.m, ctx.f
    cols = f.rules.cols
    enters: dict[tuple[int, int], list[IntVar]] = {}
    leaves: dict[tuple[int, int], list[IntVar]] = {}
    for (spot, t), flag in fill.items():
        enters.setdefault((cell_of(spot), t), []).append(flag)
    for (spot, t), flag in sink.items():
        leaves.setdefault((cell_of(spot), t), []).append(flag)
    full: list[Bit] = [int(v is not None) for v in f.state.grid]
    complete = []
    for t in range(f.T):
        for k in range(f.rules.cells):
            came, went = enters.get((k, t), []), leaves.get((k, t), [])
            if came or went:
                now = ctx.bool(f"held[{k},{t}]")
                m.add(now == full[k] + sum(came) - sum(went))
                full[k] = now
        rows: list[Bit] = []
        for r in range(f.rules.rows):
            row = full[r * cols : (r + 1) * cols]
            if all(isinstance(v, int) for v in row):
                rows.append(int(all(row)))
                continue
            done = ctx.bool(f"row_complete[{r},{t}]")
            for v in row:
                m.add(done <= v)
            m.add(done >= sum(row) - (cols - 1))
            rows.append(done)
        complete.append(tuple(rows))
    return tuple(complete)


def the_rocks_move_after_every_action(ctx: Context, turns: Turns, complete: tuple) -> JaggedRocks:
    """Jagged Rocks (docs/rules.md): after every action but the winning Finish, before any
    draw, the rocks leave for good if rocks_leave_rows rows are complete, and otherwise
    move to an eligible row (another row with an empty cell): by the deal's rolls (auto) or
    the seat's choice, or stay for two more cards (manual)."""
    m, f = ctx.m, ctx.f
    rows, T = f.rules.rows, f.T
    at = tuple(tuple(ctx.bool(f"rocks_at[{t},{r}]") for r in range(rows)) for t in range(T + 1))
    for r in range(rows):
        m.add(at[0][r] == int(r == f.state.rocks_row))
    stay: list[Bit] = []
    for t in range(T):
        here = sum(at[t])
        m.add(here <= 1)
        acts = turns.moves_rocks(t)
        due = ctx.bool(f"rocks_due[{t}]")  # in play, and the action moves them
        m.add(due <= here)
        m.add(due <= acts)
        m.add(due >= here + acts - 1)
        enough = ctx.bool(f"rocks_leave_rows[{t}]")
        m.add(sum(complete[t]) >= f.rules.rocks_leave_rows).only_enforce_if(enough)
        m.add(sum(complete[t]) < f.rules.rocks_leave_rows).only_enforce_if(enough.negated())
        move = ctx.bool(f"rocks_move[{t}]")  # due, and not leaving
        m.add(move <= due)
        m.add(move + enough <= 1)
        m.add(move >= due - enough)
        m.add(sum(at[t + 1]) == here - due + move)
        for r in range(rows):
            m.add(at[t + 1][r] == at[t][r]).only_enforce_if(due.negated())
        eligible = []
        for r in range(rows):
            e = ctx.bool(f"rocks_eligible[{t},{r}]")  # another row, with an empty cell
            m.add(e + at[t][r] <= 1)
            m.add(e + complete[t][r] <= 1)
            m.add(e + at[t][r] + complete[t][r] >= 1)
            eligible.append(e)
        if f.rules.rocks == Rocks.AUTO:
            the_rolls_choose_the_row(ctx, t, at, eligible, move)
            stay.append(0)
        else:
            stay.append(the_seat_moves_the_rocks_or_keeps_them(ctx, t, at, eligible, move))
    return JaggedRocks(at, tuple(stay))


def the_rolls_choose_the_row(ctx: Context, t: int, at: tuple, eligible: list, move: IntVar) -> None:
    """rocks=auto: the new row is eligible[rolls[k] mod len(eligible)], eligible in
    ascending order, k the moves so far. The rocks are still in play on slot t only if
    every earlier slot moved them, so k = the position's rolls used + t: a constant.
    Rule group 'rocks': switched off, the rocks may go to any row."""
    m, f = ctx.m, ctx.f
    k = f.state.rolls_used + t
    rolls = f.state.deal.rocks_rolls
    if k >= len(rolls):
        m.add(move == 0).only_enforce_if(ctx.when("rocks"))  # the engine stops: the deal has run out of rolls
        return
    size = {c: ctx.bool(f"rocks_choices[{t},{c}]") for c in range(1, f.rules.rows)}
    m.add(sum(size.values()) == move)
    m.add(sum(c * flag for c, flag in size.items()) == sum(eligible)).only_enforce_if(ctx.when("rocks", move))
    index = sum((rolls[k] % c) * flag for c, flag in size.items())
    for r in range(f.rules.rows):
        m.add_bool_or([eligible[r]]).only_enforce_if(ctx.when("rocks", at[t + 1][r], move))
        m.add(sum(eligible[:r]) == index).only_enforce_if(ctx.when("rocks", at[t + 1][r], move))


def the_seat_moves_the_rocks_or_keeps_them(ctx: Context, t: int, at: tuple, eligible: list, move: IntVar) -> IntVar:
    """rocks=manual: the seat moves the rocks to an eligible row, or keeps them where they
    are (stay; it pays two more cards: keeping_the_rocks_costs_two_more_cards). Returns
    stay[t]. Rule group 'rocks': switched off, the rocks may go to any row, so no seat
    has to stay and pay."""
    m = ctx.m
    stay = ctx.bool(f"rocks_stay[{t}]")
    m.add_implication(stay, move)
    for r in range(ctx.f.rules.rows):
        m.add(at[t + 1][r] == at[t][r]).only_enforce_if(stay)
        m.add_bool_or([eligible[r]]).only_enforce_if(ctx.when("rocks", at[t + 1][r], move, stay.negated()))
    return stay


def no_island_in_the_rocks_row(ctx: Context, fill: Mapping, rocks: JaggedRocks) -> None:
    """Jagged Rocks, the blocked row: no island may be placed in the rocks' row (rule
    group 'rocks')."""
    cols = ctx.f.rules.cols
    for (spot, t), flag in fill.items():
        ctx.m.add(flag + rocks.at[t][cell_of(spot) // cols] <= 1).only_enforce_if(ctx.when("rocks"))


def removal_counters(ctx: Context, turns: Turns, rocks: JaggedRocks | None) -> tuple[tuple, tuple, tuple]:
    """The turn: an action takes cards out of the hand. removed[s][t] = the cards that have
    left seat s's hand before slot t: its own plays (a Sea Monster too), the cost
    cost_at[t] it pays (set by placement_cost), two for a discard, two for keeping manual
    Jagged Rocks in place, and its share event[s] of the Start event's discards (set by
    start_event_rounds)."""
    m, f = ctx.m, ctx.f
    big = f.cards_left
    removed = tuple(
        tuple(m.new_int_var(0, f.held[s] + len(f.queue[s]), f"removed[{s}][{t}]") for t in range(f.T + 1)) for s in range(f.P)
    )
    cost_at = tuple(m.new_int_var(0, f.H, f"cost_at[{t}]") for t in range(f.T))
    event = tuple(m.new_int_var(0, big, f"event_discards[{s}]") for s in range(f.P))
    for s in range(f.P):
        m.add(removed[s][0] == 0)
        for t in range(f.T):
            own: list[Expr] = []
            if f.seat_of[t] == s:
                own = [turns.island[t], cost_at[t], 2 * turns.discard[t], turns.finish[t], turns.start[t]]
                if f.monsters_left:
                    own.append(turns.monster[t])
                if rocks is not None and not isinstance(rocks.stay[t], int):
                    own.append(2 * rocks.stay[t])
            ev = m.new_int_var(0, big, f"event_at[{s},{t}]")
            m.add(ev == event[s]).only_enforce_if(turns.start[t])
            m.add(ev == 0).only_enforce_if(turns.start[t].negated())
            m.add(removed[s][t + 1] == removed[s][t] + sum(own) + ev)
    return removed, cost_at, event


def hand_sizes(ctx: Context, removed: tuple) -> tuple[IntVar, ...]:
    """The turn, its draw: the seat draws back up from its own pile. The hand is full while
    the pile lasts, so a seat has drawn its first min(removed, pile) pile cards
    (docs/model.md proves it). Returns the hand size of the seat to move at each slot."""
    m, f = ctx.m, ctx.f
    big = f.cards_left
    hand = []
    for t in range(f.T):
        s = f.seat_of[t]
        drawn = m.new_int_var(0, len(f.queue[s]), f"drawn[{t}]")
        m.add_min_equality(drawn, [removed[s][t], len(f.queue[s])])
        h = m.new_int_var(-big, big, f"hand[{t}]")
        m.add(h == f.held[s] + drawn - removed[s][t])
        hand.append(h)
    return tuple(hand)


def the_start_must_be_played(ctx: Context, turns: Turns, removed: tuple) -> tuple[Expr, ...]:
    """Start card, must play (docs/rules.md, Start card): a seat that begins its turn
    holding a Start while none has been played plays it now. Returns start_seat[s], whether
    seat s is the one that starts (0 for every seat once a Start has been played)."""
    m, f = ctx.m, ctx.f
    if f.start_played:
        return (0,) * f.P
    start_seat = []
    for s in range(f.P):
        q = _start_index(f, s)
        own = f.turns_of[s]
        start_seat.append(sum(turns.start[t] for t in own))
        for t in own:
            holds = ctx.bool(f"holds_start[{s},{t}]")
            if q is None:
                m.add(holds == 0)
            elif q < 0:
                m.add(holds == 1)
            else:
                m.add(removed[s][t] >= q + 1).only_enforce_if(holds)
                m.add(removed[s][t] <= q).only_enforce_if(holds.negated())
            m.add_implication(turns.start[t], holds)
            earlier = [turns.start[u] for u in range(t)]
            # Holding it with none played yet forces the Start now.
            m.add_bool_or([holds.negated(), turns.start[t], *earlier]).only_enforce_if(ctx.when("start"))
    return tuple(start_seat)


def _start_index(f: Frame, s: int) -> int | None:
    """Where seat s's Start card is: -1 in hand, its pile index, or None (it has none)."""
    if START in f.state.hands[s]:
        return -1
    queue = f.queue[s]
    return queue.index(START) if START in queue else None


def start_event_rounds(
    ctx: Context, turns: Turns, removed: tuple, start_seat: tuple, event: tuple, start_turn: IntVar
) -> StartRounds:
    """Start card, team discard (docs/rules.md, Start card, the solo reading), round by
    round. Round j: if the hands hold fewer cards than are still owed, all go and every
    seat draws back up; otherwise the team picks the owed cards and the event ends. Sets
    each seat's share event[s]."""
    m, f = ctx.m, ctx.f
    owed0 = f.rules.start_discards
    # Each forced round pays at least one card, except a first round with empty hands
    # (it only draws); hands and piles both dry leave the last round unpayable.
    rounds = owed0 + 2
    big = f.cards_left + owed0
    hand, drawn = _hands_as_the_start_is_played(ctx, turns, removed, start_seat, big)
    owed = m.new_constant(owed0)
    active = m.new_constant(1)
    paid: list[list] = [[] for _ in range(f.P)]
    ends, forced_rounds, chosen_rounds = [], [], []
    for j in range(rounds):
        forced, last, forced_paid, chosen = _event_round(ctx, j, hand, owed, active, big)
        forced_rounds.append((forced, drawn))
        ends.append(last)
        chosen_rounds.append(chosen)
        for s in range(f.P):
            paid[s] += [forced_paid[s], chosen[s]]
        if j + 1 == rounds:
            m.add(forced == 0).only_enforce_if(ctx.when("start"))
            break
        hand, drawn, owed = _draw_after_a_forced_round(ctx, j, hand, drawn, owed, forced, big)
        active = forced
    m.add(sum(ends) == 1).only_enforce_if(ctx.when("start"))
    for s in range(f.P):
        m.add(event[s] == sum(paid[s])).only_enforce_if(ctx.when("start"))
    return StartRounds(start_turn, tuple(forced_rounds), tuple(chosen_rounds), drawn)


def _hands_as_the_start_is_played(ctx: Context, turns: Turns, removed: tuple, start_seat: tuple, big: int) -> tuple[tuple, tuple]:
    """Each seat's hand and draws on the Start slot, the Start itself gone."""
    m, f = ctx.m, ctx.f
    removed_then = []
    for s in range(f.P):
        r = m.new_int_var(0, big, f"removed_at_start[{s}]")
        for t in range(f.T):
            m.add(r == removed[s][t]).only_enforce_if(turns.start[t])
        removed_then.append(r)
    hand, drawn = [], []
    for s in range(f.P):
        d = m.new_int_var(0, len(f.queue[s]), f"round_drawn[0,{s}]")
        m.add_min_equality(d, [removed_then[s], len(f.queue[s])])
        h = m.new_int_var(0, big, f"round_hand[0,{s}]")
        m.add(h == f.held[s] + d - removed_then[s] - start_seat[s])
        hand.append(h)
        drawn.append(d)
    return tuple(hand), tuple(drawn)


def _event_round(ctx: Context, j: int, hand: tuple, owed: IntVar, active: IntVar, big: int) -> tuple:
    """Round j of the event, if active: forced (every card in every hand goes) or the last
    (the team picks the owed cards). Returns forced, last, and each seat's cards paid."""
    m, f = ctx.m, ctx.f
    total = sum(hand)
    forced = ctx.bool(f"forced[{j}]")
    last = ctx.bool(f"last_round[{j}]")
    m.add(forced + last == active)
    m.add(total < owed).only_enforce_if(forced)
    m.add(total >= owed).only_enforce_if(last)
    forced_paid, chosen = [], []
    for s in range(f.P):
        fp = m.new_int_var(0, big, f"forced_paid[{j},{s}]")
        m.add(fp == hand[s]).only_enforce_if(forced)
        m.add(fp == 0).only_enforce_if(forced.negated())
        c = m.new_int_var(0, big, f"chosen_paid[{j},{s}]")
        m.add(c <= hand[s])
        m.add(c == 0).only_enforce_if(last.negated())
        forced_paid.append(fp)
        chosen.append(c)
    m.add(sum(chosen) == owed).only_enforce_if(last)
    return forced, last, tuple(forced_paid), tuple(chosen)


def _draw_after_a_forced_round(ctx: Context, j: int, hand: tuple, drawn: tuple, owed: IntVar, forced: IntVar, big: int) -> tuple:
    """After a forced round every seat draws back up from its own pile and the hands'
    cards are off the debt. Returns the next round's hands, draws and debt."""
    m, f = ctx.m, ctx.f
    next_owed = m.new_int_var(0, f.rules.start_discards, f"owed[{j + 1}]")
    m.add(next_owed == owed - sum(hand)).only_enforce_if(forced)
    m.add(next_owed == 0).only_enforce_if(forced.negated())
    next_hand, next_drawn = [], []
    for s in range(f.P):
        left = m.new_int_var(0, len(f.queue[s]), f"pile_left[{j},{s}]")
        m.add(left == len(f.queue[s]) - drawn[s])
        take = m.new_int_var(0, f.H, f"round_draw[{j + 1},{s}]")
        m.add_min_equality(take, [left, f.H])
        h = m.new_int_var(0, big, f"round_hand[{j + 1},{s}]")
        m.add(h == take).only_enforce_if(forced)
        m.add(h == 0).only_enforce_if(forced.negated())
        d = m.new_int_var(0, len(f.queue[s]), f"round_drawn[{j + 1},{s}]")
        m.add(d == drawn[s] + h)
        next_hand.append(h)
        next_drawn.append(d)
    return tuple(next_hand), tuple(next_drawn), next_owed


def cards_are_played_from_hand(
    ctx: Context, goes: Mapping, spots: list, placed_at: Mapping, island_played: Mapping, finish_turn: IntVar, removed: tuple
) -> tuple[dict, dict]:
    """Island play and Finish card: a card is played from its seat's hand, so on one of
    its seat's own turns and once it has been drawn. Exactly one Finish card is played, on
    the Finish slot. ``spots`` are where islands go (the empty cells; with Sea Monsters,
    every cell's spots). Returns played[pc] (the islands' and the Finish cards') and turn[pc]."""
    m, f = ctx.m, ctx.f
    played = dict(island_played)
    turn = {}
    for pc in f.islands:
        turn[pc] = _turn_of(ctx, pc, played[pc], removed)
        for k in spots:
            flag = goes.get((pc.card, k))
            if flag is not None:
                m.add(turn[pc] == placed_at[k]).only_enforce_if(flag)
    for pc in f.finishes:
        played[pc] = ctx.bool(f"finish_played[{pc.seat},{pc.queue}]")
        turn[pc] = _turn_of(ctx, pc, played[pc], removed)
        m.add(turn[pc] == finish_turn).only_enforce_if(played[pc])
    m.add_exactly_one(played[pc] for pc in f.finishes)
    return played, turn


def _turn_of(ctx: Context, pc: PlayCard, played: IntVar, removed: tuple) -> IntVar:
    """The slot a card is played on: one of its seat's, and for a pile card one by which
    the seat has drawn it."""
    m, f = ctx.m, ctx.f
    own = f.turns_of[pc.seat]
    if not own:
        m.add(played == 0)
        return m.new_constant(0)
    turn = m.new_int_var_from_domain(cp_model.Domain.from_values(own), f"turn[{pc.seat},{pc.queue}]")
    if pc.queue >= 0:
        index = m.new_int_var(0, len(own) - 1, f"turn_index[{pc.seat},{pc.queue}]")
        m.add(turn == own[0] + f.P * index)
        removed_then = m.new_int_var(0, f.held[pc.seat] + len(f.queue[pc.seat]), f"removed_when[{pc.seat},{pc.queue}]")
        m.add_element(index, [removed[pc.seat][t] for t in own], removed_then)
        group = "finish" if pc.card == FINISH else "draw"
        m.add(removed_then >= pc.queue + 1).only_enforce_if(ctx.when(group, played))
    return turn


def played_cards_survive_forced_rounds(ctx: Context, played: Mapping, turn: Mapping, rounds: StartRounds) -> None:
    """Start card, the solo reading: a forced round discards every card in every hand, so
    a card played after the Start is in no hand at a forced round (a card in hand now: no
    round is forced; a pile card: still undrawn)."""
    m = ctx.m
    for pc in ctx.f.cards:
        later = ctx.bool(f"after_start[{pc.seat},{pc.queue}]")
        m.add(turn[pc] > rounds.turn).only_enforce_if(later)
        m.add(turn[pc] <= rounds.turn).only_enforce_if(later.negated())
        both = ctx.bool(f"played_after_start[{pc.seat},{pc.queue}]")
        m.add_bool_and([played[pc], later]).only_enforce_if(both)
        m.add_bool_or([played[pc].negated(), later.negated(), both])
        for forced, drawn in rounds.forced:
            if pc.queue < 0:
                m.add_bool_or([both.negated(), forced.negated()]).only_enforce_if(ctx.when("start"))
            else:
                m.add(drawn[pc.seat] <= pc.queue).only_enforce_if(ctx.when("start", both, forced))


def placement_cost(
    ctx: Context, turns: Turns, value: Mapping, fill: Mapping, placed_at: Mapping, cost_at: tuple
) -> dict[int, IntVar]:
    """Cost (docs/rules.md, Island play, rule 'adjacency'): the smallest difference to an
    already placed neighbour, 0 if none is placed yet; cost_at[t] is what slot t pays.
    Returns cost[k] for each empty cell."""
    m, f = ctx.m, ctx.f
    cost = {}
    for k in f.empty:
        cost[k] = _smallest_gap(ctx, k, _gaps(ctx, k, value, placed_at))
        for t in range(f.T):
            m.add(cost_at[t] == cost[k]).only_enforce_if(ctx.when("cost", fill[k, t]))
    for t in range(f.T):
        m.add(cost_at[t] == 0).only_enforce_if(turns.island[t].negated())
    return cost


def _gaps(ctx: Context, k: int, value: Mapping, placed_at: Mapping) -> list[tuple[IntVar | None, IntVar]]:
    """Per cost neighbour of cell k: the gap, and the literal "placed before k" (None for
    a neighbour placed already at the position)."""
    m, f = ctx.m, ctx.f
    options: list[tuple[IntVar | None, IntVar]] = []
    for j in cost_neighbours(f.rules, k):
        gap = m.new_int_var(0, f.rules.islands, f"gap[{k},{j}]")
        m.add_abs_equality(gap, f.value_of(value, k) - f.value_of(value, j))
        if f.state.grid[j] is not None:
            options.append((None, gap))
        else:
            earlier = ctx.bool(f"before[{j},{k}]")
            m.add(placed_at[j] < placed_at[k]).only_enforce_if(earlier)
            m.add(placed_at[j] > placed_at[k]).only_enforce_if(earlier.negated())
            options.append((earlier, gap))
    return options


def _smallest_gap(ctx: Context, k: int, options: list[tuple[IntVar | None, IntVar]]) -> IntVar:
    """cost[k]: at most every gap that counts, and equal to one of them (a pick) or 0 when
    no neighbour is placed before k. Its domain stops at H - 1, the payment limit."""
    m = ctx.m
    cost = m.new_int_var(0, ctx.f.H - 1, f"cost[{k}]")
    picks = []
    for earlier, gap in options:
        cond = [] if earlier is None else [earlier]
        m.add(cost <= gap).only_enforce_if(cond)
        pick = ctx.bool(f"cost_from[{k}]")
        m.add(cost == gap).only_enforce_if(pick)
        if earlier is not None:
            m.add_implication(pick, earlier)
        picks.append(pick)
    none = ctx.bool(f"no_neighbour[{k}]")
    m.add_exactly_one([*picks, none])
    m.add(cost == 0).only_enforce_if(none)
    for earlier, _ in options:
        if earlier is None:
            m.add(none == 0)
        else:
            m.add_implication(none, earlier.negated())
    return cost


def a_play_cannot_cost_more_than_the_hand_holds(ctx: Context, turns: Turns, cost_at: tuple, hand: tuple) -> None:
    """Payment limit (docs/rules.md, Island play): a card may not be played if its cost
    exceeds the cards left in hand after playing it."""
    for t in range(ctx.f.T):
        ctx.m.add(cost_at[t] + 1 <= hand[t]).only_enforce_if(ctx.when("hand", turns.island[t]))


def discard_two_needs_two_cards(ctx: Context, turns: Turns, hand: tuple) -> None:
    """Discard two (docs/rules.md, Discard two): the seat must hold two. And a seat with no
    card has no action at all (Winning and losing)."""
    for t in range(ctx.f.T):
        ctx.m.add(hand[t] >= 2).only_enforce_if(ctx.when("hand", turns.discard[t]))
        ctx.m.add(hand[t] >= 1).only_enforce_if(ctx.when("hand", turns.idle[t].negated()))


def one_card_rule(ctx: Context, turns: Turns, hand: tuple) -> None:
    """Winning and losing, option one_card=lose (docs/rules.md): a seat that begins its turn
    with 0 or 1 cards loses."""
    if ctx.f.rules.one_card != OneCard.LOSE:
        return
    for t in range(ctx.f.T):
        ctx.m.add(hand[t] >= 2).only_enforce_if(ctx.when("hand", turns.idle[t].negated()))


def keeping_the_rocks_costs_two_more_cards(
    ctx: Context, turns: Turns, removed: tuple, hand: tuple, rocks: JaggedRocks, rounds: StartRounds | None
) -> None:
    """rocks=manual, stay (docs/rules.md, Jagged Rocks): the two cards come from the
    seat's own hand as it stands after the action (after the team payment, for a Start),
    so that hand must still hold them: what leaves the hand on the slot, the two included,
    is at most what it held."""
    m, f = ctx.m, ctx.f
    for t in range(f.T):
        stay = rocks.stay[t]
        if isinstance(stay, int):
            continue
        s = f.seat_of[t]
        taken = removed[s][t + 1] - removed[s][t]
        m.add(taken <= hand[t]).only_enforce_if(ctx.when("hand", stay, turns.start[t].negated()))
        if rounds is not None:
            # The event draws mid-way: the hand after it is what its rounds drew, less what left.
            m.add(removed[s][t + 1] <= f.held[s] + rounds.drawn[s]).only_enforce_if(ctx.when("hand", stay, turns.start[t]))


def discards_are_never_played_cards(
    ctx: Context, turns: Turns, removed: tuple, played: Mapping, start_seat: tuple, rounds: StartRounds | None
) -> None:
    """Any card may be paid or discarded (docs/rules.md); the line only ever discards cards
    it never plays (a card both played and discarded is impossible), so each seat must,
    whenever it discards, have drawn at least as many never-played cards as it has
    discarded so far. Dead Start cards count as never played."""
    m, f = ctx.m, ctx.f
    starts = _starter(ctx, start_seat)
    for s in range(f.P):
        plays_until = _plays_until(f, turns, s)
        spare_in_hand = _spare_in_hand(f, s, played, starts)
        previous = None
        for t in f.turns_of[s]:
            discarded = removed[s][t + 1] - plays_until[t + 1]
            # On the Start turn the event's own check below applies (it draws mid-way).
            spare, has = _spare_drawn(ctx, s, removed[s][t], f"{s},{t}", played, starts)
            m.add(discarded <= spare_in_hand + spare).only_enforce_if(ctx.when("discards", turns.start[t].negated()))
            # Redundant, for propagation: draws only grow, card by card and turn by turn.
            for q in range(1, len(has)):
                m.add_implication(has[q], has[q - 1])
            if previous is not None:
                for before, now in zip(previous, has, strict=True):
                    m.add_implication(before, now)
            previous = has
        if rounds is not None:
            # The event pays from cards drawn during its forced rounds too.
            by_event = m.new_int_var(-f.T, f.held[s] + len(f.queue[s]), f"discarded_by_event[{s}]")
            for u in range(f.T):
                m.add(by_event == removed[s][u + 1] - plays_until[u + 1]).only_enforce_if(turns.start[u])
            spare, _ = _spare_drawn(ctx, s, rounds.drawn[s], f"{s},event", played, starts)
            m.add(by_event <= spare_in_hand + spare).only_enforce_if(ctx.when("discards"))


def _starter(ctx: Context, start_seat: tuple) -> Callable[[int], IntVar]:
    """starts[s]: does seat s play the Start? A Boolean made when a seat's live Start is
    first counted, so seats without one get none."""
    flags: dict[int, IntVar] = {}

    def flag(s: int) -> IntVar:
        if s not in flags:
            flags[s] = ctx.bool(f"starts[{s}]")
            ctx.m.add(flags[s] == start_seat[s])
        return flags[s]

    return flag


def _spare_in_hand(f: Frame, s: int, played: Mapping, starts: Callable[[int], IntVar]) -> Expr:
    """Cards in seat s's hand now that the line never plays (as far as known now)."""
    hand = f.state.hands[s]
    fixed = sum(1 for c in hand if not (playable(c) or c == START))
    spare: Expr = fixed + sum(played[pc].negated() for pc in f.cards if pc.seat == s and pc.queue < 0)
    if START in hand:
        spare += 1 if f.start_played else starts(s).negated()
    return spare


def _plays_until(f: Frame, turns: Turns, s: int) -> list:
    """plays[t] = cards of seat s played on turns before t (islands, Start, Finish, Sea
    Monsters)."""
    out: list[Expr] = [0]
    acc: Expr = 0
    for t in range(f.T):
        if f.seat_of[t] == s:
            acc = acc + turns.island[t] + turns.finish[t] + turns.start[t]
            if f.monsters_left:
                acc = acc + turns.monster[t]
        out.append(acc)
    return out


def _spare_drawn(
    ctx: Context, s: int, drawn: IntVar, tag: str, played: Mapping, starts: Callable[[int], IntVar]
) -> tuple[Expr, list]:
    """Never-played cards among the first ``drawn`` pile cards of seat s, and the
    literals "pile card q is drawn" that count them."""
    m, f = ctx.m, ctx.f
    terms = []
    flags = []
    played_at = {pc.queue: played[pc] for pc in f.cards if pc.seat == s and pc.queue >= 0}
    for q, card in enumerate(f.queue[s]):
        has = ctx.bool(f"drawn[{tag},{q}]")
        m.add(drawn >= q + 1).only_enforce_if(has)
        m.add(drawn <= q).only_enforce_if(has.negated())
        flags.append(has)
        if card == MONSTER:
            continue  # every monster is played: never a spare card
        if card == START and not f.start_played:
            never = starts(s).negated()
        elif q in played_at:
            never = played_at[q].negated()
        else:
            terms.append(has)
            continue
        both = ctx.bool(f"spare_drawn[{tag},{q}]")
        m.add_bool_and([has, never]).only_enforce_if(both)
        m.add_bool_or([has.negated(), never.negated(), both])
        terms.append(both)
    return sum(terms), flags
