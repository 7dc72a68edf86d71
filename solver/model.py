"""The CP-SAT model of Tranquility from any position (docs/model.md).

The model encodes the rules on its own, from the rulebook, never by calling the rules
engine's move logic: that independence is what makes the engine's replay of a model's
line a real check. It reads only the position's data (grid, hands, piles, seat).

Formulation, in short: one slot per turn up to a proven horizon; each slot holds one
action kind. Island-to-cell and cell-to-turn Booleans place the islands; each seat's
removal counter R[s][t] (cards that have left the seat's hand before turn t) says which
pile cards it has drawn (the hand is always full while the pile lasts, so a seat has drawn
its first R pile cards). Discards are counted, not named: only cards that are never
played are discarded, so it is enough that each seat has drawn as many never-played
cards as it has discarded so far.

``build_model`` adds the rules one function each, named after the rule, in an explicit
order; each rule function takes the variables it constrains and returns the ones it
creates. Reading a solution, hints and objectives are in solver/cpsat.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ortools.sat.python import cp_model

from .cards import FINISH, START, Card, is_island
from .rules import Adjacency, OneCard, Order, Rules
from .state import State
from .supported import check_supported

IntVar = cp_model.IntVar
Expr = cp_model.LinearExpr | int  # an IntVar is a LinearExpr


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
    and its cost, a discard-two two cards, the Start event the Start and its discards, a
    Finish the Finish. A win plays one island per empty cell, the Start event (if not yet
    played) and one Finish; every other turn is a discard-two taking two cards. With N
    cards left in hands and piles: discard turns <= (N - empty - start - 1) // 2.
    """
    rules = state.rules
    left = state.cards_left
    empty = sum(v is None for v in state.grid)
    start = 0 if state.start_played else 1 + rules.start_discards
    spare = left - empty - start - 1
    if spare < 0:
        return 0
    return empty + (0 if state.start_played else 1) + 1 + spare // 2


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
}


# -- what the model reads, and the variables it declares ---------------------------------------


@dataclass(frozen=True, eq=False)
class PlayCard:
    """A card of a seat that the line may play (an island or a Finish): where it sits.
    Compared by identity: two Finish cards in one hand are two cards."""

    card: Card
    seat: int
    queue: int  # -1 = already in hand; else its index among the seat's undrawn cards

    @property
    def number(self) -> int:
        """An island card's number."""
        assert is_island(self.card)
        return self.card


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
            cards += [PlayCard(c, s, -1) for c in state.hands[s] if is_island(c) or c == FINISH]
            cards += [PlayCard(c, s, q) for q, c in enumerate(queue[s]) if is_island(c) or c == FINISH]
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
    """One Boolean per slot and action kind; exactly one of the five is true."""

    island: tuple[IntVar, ...]
    start: tuple[IntVar, ...]
    finish: tuple[IntVar, ...]
    discard: tuple[IntVar, ...]
    idle: tuple[IntVar, ...]


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
    hints and objectives (solver/cpsat.py) and by what binds (``rule_on``)."""

    frame: Frame
    model: cp_model.CpModel
    rule_on: Mapping[str, IntVar]  # one switch per rule group when relaxable, else empty
    turns: Turns  # one_action_per_turn
    finish_turn: IntVar  # the_game_ends_with_a_finish
    fill: Mapping[tuple[int, int], IntVar]  # each_island_turn_fills_one_cell: cell k on slot t
    goes: Mapping[tuple[int, int], IntVar]  # every_empty_cell_gets_an_island: island c into cell k
    value: Mapping[int, IntVar]  # every_empty_cell_gets_an_island: the island in each empty cell
    removed: tuple[tuple[IntVar, ...], ...]  # removal_counters: R[s][t]
    team_choice: tuple[tuple[IntVar, ...], ...] | None  # start_event_rounds; None once a Start is played
    played: Mapping[PlayCard, IntVar]  # every_empty_cell_gets_an_island, cards_are_played_from_hand
    turn: Mapping[PlayCard, IntVar]  # cards_are_played_from_hand
    cost: Mapping[int, IntVar]  # placement_cost

    def size(self) -> dict:
        proto = self.model.proto
        return {"variables": len(proto.variables), "constraints": len(proto.constraints), "horizon": self.frame.T}


# -- building ----------------------------------------------------------------------------------


def build_model(state: State, T: int, relaxable: bool = False) -> GameModel:
    """The model of the winning continuations of at most ``T`` turns from ``state``.
    ``relaxable`` adds one switch per rule group (RULE_GROUPS, solver.binds).

    Each rule comes after the rules whose variables it reads; the order is also the order
    of the model's variables and constraints, which reproducible CP-SAT runs depend on."""
    check_supported(state)
    m = cp_model.CpModel()
    rule_on = {g: m.new_bool_var(f"rule_on[{g}]") for g in RULE_GROUPS} if relaxable else {}
    ctx = Context(m, Frame.of(state, T), rule_on)
    turns = one_action_per_turn(ctx)
    finish_turn, start_turn = the_game_ends_with_a_finish(ctx, turns)
    fill, placed_at = each_island_turn_fills_one_cell(ctx, turns)
    goes, value, island_played = every_empty_cell_gets_an_island(ctx)
    the_grid_ascends(ctx, value)
    removed, cost_at, event = removal_counters(ctx, turns)
    hand = hand_sizes(ctx, removed)
    start_seat = the_start_must_be_played(ctx, turns, removed)
    rounds = None if start_turn is None else start_event_rounds(ctx, turns, removed, start_seat, event, start_turn)
    played, turn = cards_are_played_from_hand(ctx, goes, placed_at, island_played, finish_turn, removed)
    if rounds is not None:
        played_cards_survive_forced_rounds(ctx, played, turn, rounds)
    cost = placement_cost(ctx, turns, value, fill, placed_at, cost_at)
    a_play_cannot_cost_more_than_the_hand_holds(ctx, turns, cost_at, hand)
    discard_two_needs_two_cards(ctx, turns, hand)
    one_card_rule(ctx, turns, hand)
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
    )


def one_action_per_turn(ctx: Context) -> Turns:
    """The turn (docs/rules.md, The turn): exactly one action, an island, the Start, a
    Finish or discard two. After the Finish the remaining slots are idle."""
    m, T = ctx.m, ctx.f.T
    turns = Turns(
        *(tuple(ctx.bool(f"{kind}[{t}]") for t in range(T)) for kind in ("island", "start", "finish", "discard", "idle"))
    )
    for t in range(T):
        m.add_exactly_one(turns.island[t], turns.start[t], turns.finish[t], turns.discard[t], turns.idle[t])
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


def removal_counters(ctx: Context, turns: Turns) -> tuple[tuple, tuple, tuple]:
    """The turn: an action takes cards out of the hand. removed[s][t] = the cards that have
    left seat s's hand before slot t: its own plays, the cost cost_at[t] it pays (set by
    placement_cost), two for a discard, and its share event[s] of the Start event's
    discards (set by start_event_rounds)."""
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
            own = []
            if f.seat_of[t] == s:
                own = [turns.island[t], cost_at[t], 2 * turns.discard[t], turns.finish[t], turns.start[t]]
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
    ctx: Context, goes: Mapping, placed_at: Mapping, island_played: Mapping, finish_turn: IntVar, removed: tuple
) -> tuple[dict, dict]:
    """Island play and Finish card: a card is played from its seat's hand, so on one of
    its seat's own turns and once it has been drawn. Exactly one Finish card is played, on
    the Finish slot. Returns played[pc] (the islands' and the Finish cards') and turn[pc]."""
    m, f = ctx.m, ctx.f
    played = dict(island_played)
    turn = {}
    for pc in f.islands:
        turn[pc] = _turn_of(ctx, pc, played[pc], removed)
        for k in f.empty:
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
    fixed = sum(1 for c in hand if not (is_island(c) or c in (FINISH, START)))
    spare: Expr = fixed + sum(played[pc].negated() for pc in f.cards if pc.seat == s and pc.queue < 0)
    if START in hand:
        spare += 1 if f.start_played else starts(s).negated()
    return spare


def _plays_until(f: Frame, turns: Turns, s: int) -> list:
    """plays[t] = cards of seat s played on turns before t (islands, Start, Finish)."""
    out: list[Expr] = [0]
    acc: Expr = 0
    for t in range(f.T):
        if f.seat_of[t] == s:
            acc = acc + turns.island[t] + turns.finish[t] + turns.start[t]
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
