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
cards as it has discarded so far. Each rule below is one function named after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from .cards import FINISH, START, Card, is_island
from .errors import BadInput
from .rules import Rules
from .state import State


class UnsupportedRules(BadInput):
    """The model does not cover this rule set (modules that change the board)."""


def check_supported(state: State) -> None:
    rules = state.rules
    if rules.monsters:
        raise UnsupportedRules("the Sea Monsters module (monsters > 0) is not supported by the solver yet")
    if rules.rocks != "off":
        raise UnsupportedRules("the Jagged Rocks module (rocks on) is not supported by the solver yet")


def precedes(rules: Rules, j: int, k: int) -> bool:
    """Rule 'order': must cell j hold a smaller island than cell k? (Written here again,
    apart from the rules engine, so that the engine's replay checks the model.)"""
    if rules.order == "sequence":
        return j < k
    (rj, cj), (rk, ck) = divmod(j, rules.cols), divmod(k, rules.cols)
    return (rj == rk and cj < ck) or (cj == ck and rj < rk)


def cost_neighbours(rules: Rules, k: int) -> list[int]:
    """Rule 'adjacency': the cells whose placed islands set the cost of a play into k."""
    cols, cells = rules.cols, rules.cells
    near = set()
    if rules.adjacency in ("sequence", "both"):
        near.update(j for j in (k - 1, k + 1) if 0 <= j < cells)
    if rules.adjacency in ("orthogonal", "both"):
        row, col = divmod(k, cols)
        near.update(j for j, ok in ((k - 1, col > 0), (k + 1, col < cols - 1), (k - cols, row > 0), (k + cols, k + cols < cells)) if ok)
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


@dataclass
class PlayCard:
    """A card of a seat that the line may play (an island or a Finish): where it sits."""

    card: Card
    seat: int
    queue: int  # -1 = already in hand; else its index among the seat's undrawn cards
    played: cp_model.IntVar | None = None
    turn: cp_model.IntVar | None = None
    after_start: cp_model.IntVar | None = None


# Rule groups that can be switched off (``GameModel(relaxable=True)``) to find out which
# rules together make a position unwinnable (solver.binds). What stays on always is the
# frame: one action per turn, every cell filled, a Finish played, the counters.
RULE_GROUPS: dict[str, str] = {
    "order": "the grid ascends (rule 'order')",
    "cost": "a placement costs the gap to the closest placed neighbour (rule 'adjacency')",
    "draw": "an island is played from hand, so only once its seat has drawn it",
    "finish": "the Finish card is played from hand after the Start, so only once drawn",
    "start": "the Start card is played as soon as it is held, and the team discards start_discards cards",
    "hand": "an action needs the cards: cost + 1 to play, two to discard, one to act at all",
    "discards": "paid and discarded cards come from the seat's own hand (cards it never plays)",
}


@dataclass
class GameModel:
    state: State
    T: int
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    relaxable: bool = False  # one assumption literal per rule group (RULE_GROUPS)

    def __post_init__(self) -> None:
        check_supported(self.state)
        self.rule_on = {g: self.model.NewBoolVar(f"rule_on[{g}]") for g in RULE_GROUPS} if self.relaxable else {}
        st = self.state
        self.rules = st.rules
        self.P = st.players
        self.H = st.rules.hand
        self.seat_of = [(st.seat + t) % self.P for t in range(self.T)]
        self.turns_of = [[t for t in range(self.T) if self.seat_of[t] == s] for s in range(self.P)]
        self.queue = [st.pile(s) for s in range(self.P)]
        self.held = [len(st.hands[s]) for s in range(self.P)]
        self.empty = [k for k, v in enumerate(st.grid) if v is None]
        self.cards: list[PlayCard] = []
        for s in range(self.P):
            for card in st.hands[s]:
                if is_island(card) or card == FINISH:
                    self.cards.append(PlayCard(card, s, -1))
            for q, card in enumerate(self.queue[s]):
                if is_island(card) or card == FINISH:
                    self.cards.append(PlayCard(card, s, q))
        self.islands = [c for c in self.cards if is_island(c.card)]
        self.finishes = [c for c in self.cards if c.card == FINISH]
        self.build()

    # -- building -------------------------------------------------------------------------

    def build(self) -> None:
        self.one_action_per_turn()
        self.the_game_ends_with_a_finish()
        self.every_empty_cell_gets_an_island()
        self.the_grid_ascends()
        self.removal_counters()
        self.start_card()
        self.cards_are_played_from_hand()
        self.placement_cost()
        self.a_play_cannot_cost_more_than_the_hand_holds()
        self.discard_two_needs_two_cards()
        self.one_card_rule()
        self.discards_are_never_played_cards()

    def new_bool(self, name: str) -> cp_model.IntVar:
        return self.model.NewBoolVar(name)

    def when(self, group: str, *literals) -> list:
        """Enforcement literals for a constraint of a rule group: its own conditions, and
        the group's switch when the model is relaxable."""
        return [*literals, *([self.rule_on[group]] if self.relaxable else [])]

    def one_action_per_turn(self) -> None:
        """A turn is exactly one action: island, Start, Finish or discard two; after the
        Finish the remaining slots are idle."""
        m = self.model
        self.island = [self.new_bool(f"island[{t}]") for t in range(self.T)]
        self.start = [self.new_bool(f"start[{t}]") for t in range(self.T)]
        self.finish = [self.new_bool(f"finish[{t}]") for t in range(self.T)]
        self.discard = [self.new_bool(f"discard[{t}]") for t in range(self.T)]
        self.idle = [self.new_bool(f"idle[{t}]") for t in range(self.T)]
        for t in range(self.T):
            m.AddExactlyOne(self.island[t], self.start[t], self.finish[t], self.discard[t], self.idle[t])
            if t + 1 < self.T:
                m.AddImplication(self.idle[t], self.idle[t + 1])
                m.AddImplication(self.finish[t], self.idle[t + 1])
        if self.state.start_played:
            for t in range(self.T):
                m.Add(self.start[t] == 0)

    def the_game_ends_with_a_finish(self) -> None:
        """Finish cards: one is played, after a Start, and it ends the game (a win)."""
        m = self.model
        m.AddExactlyOne(self.finish)
        self.finish_turn = m.NewIntVar(0, max(0, self.T - 1), "finish_turn")
        m.Add(self.finish_turn == sum(t * self.finish[t] for t in range(self.T)))
        if not self.state.start_played:
            m.AddExactlyOne(self.start)
            self.start_turn = m.NewIntVar(0, max(0, self.T - 1), "start_turn")
            m.Add(self.start_turn == sum(t * self.start[t] for t in range(self.T)))
            m.Add(self.start_turn < self.finish_turn).OnlyEnforceIf(self.when("finish"))

    def every_empty_cell_gets_an_island(self) -> None:
        """Play an island card into an empty cell: each empty cell is filled on exactly one
        island turn, and each island turn fills exactly one cell."""
        m = self.model
        self.fill = {(k, t): self.new_bool(f"fill[{k},{t}]") for k in self.empty for t in range(self.T)}
        for k in self.empty:
            m.AddExactlyOne(self.fill[k, t] for t in range(self.T))
        for t in range(self.T):
            m.Add(sum(self.fill[k, t] for k in self.empty) == self.island[t])
        self.placed_at = {}
        for k in self.empty:
            v = m.NewIntVar(0, max(0, self.T - 1), f"placed_at[{k}]")
            m.Add(v == sum(t * self.fill[k, t] for t in range(self.T)))
            self.placed_at[k] = v

    def the_grid_ascends(self) -> None:
        """The grid stays ascending (rule 'order'). Every grid on the way is part of the
        final one, so it is enough that the final grid ascends."""
        m = self.model
        st = self.state
        self.value = {}
        self.goes = {}
        for k in self.empty:
            placed = [(j, v) for j, v in enumerate(st.grid) if v is not None]
            low = max((v for j, v in placed if precedes(self.rules, j, k)), default=0)
            high = min((v for j, v in placed if precedes(self.rules, k, j)), default=self.rules.islands + 1)
            options = []
            for pc in self.islands:
                fits = low < pc.card < high
                if fits or self.relaxable:
                    b = self.new_bool(f"goes[{pc.card},{k}]")
                    self.goes[pc.card, k] = b
                    options.append((pc.card, b))
                    if not fits:  # only with the order switched off
                        m.AddImplication(b, self.rule_on["order"].Not())
            m.AddExactlyOne(b for _, b in options)
            if self.relaxable:
                low, high = 0, self.rules.islands + 1
            v = m.NewIntVar(low + 1 if options else 0, max(low + 1, high - 1), f"value[{k}]")
            m.Add(v == sum(card * b for card, b in options))
            self.value[k] = v
        for pc in self.islands:
            uses = [b for (card, _), b in self.goes.items() if card == pc.card]
            pc.played = self.new_bool(f"played[{pc.card}]")
            m.Add(sum(uses) == pc.played)
        for k in range(self.rules.cells):
            for j in self._successors(k):
                if st.grid[k] is None or st.grid[j] is None:
                    m.Add(self._value_of(k) < self._value_of(j)).OnlyEnforceIf(self.when("order"))

    def _successors(self, k: int) -> list[int]:
        """Cells that must hold a larger card than k, enough to imply the whole order."""
        cols, cells = self.rules.cols, self.rules.cells
        if self.rules.order == "sequence":
            return [k + 1] if k + 1 < cells else []
        out = []
        if (k + 1) % cols:
            out.append(k + 1)
        if k + cols < cells:
            out.append(k + cols)
        return out

    def _value_of(self, k: int):
        v = self.state.grid[k]
        return v if v is not None else self.value[k]

    def removal_counters(self) -> None:
        """Each turn one action, then the active seat draws back up from its own pile.

        removed[s][t] = cards that have left seat s's hand before turn t. Since a seat always
        draws back up to the hand size while its pile lasts, it has then drawn its first
        min(pile, removed) pile cards."""
        m = self.model
        big = sum(self.held) + sum(len(q) for q in self.queue)
        self.removed = [[m.NewIntVar(0, self.held[s] + len(self.queue[s]), f"removed[{s}][{t}]") for t in range(self.T + 1)] for s in range(self.P)]
        self.cost_at = [m.NewIntVar(0, self.H, f"cost_at[{t}]") for t in range(self.T)]
        self.event = [m.NewIntVar(0, big, f"event_discards[{s}]") for s in range(self.P)]
        for s in range(self.P):
            m.Add(self.removed[s][0] == 0)
            for t in range(self.T):
                own = []
                if self.seat_of[t] == s:
                    own = [self.island[t], self.cost_at[t], 2 * self.discard[t], self.finish[t], self.start[t]]
                ev = m.NewIntVar(0, big, f"event_at[{s},{t}]")
                m.Add(ev == self.event[s]).OnlyEnforceIf(self.start[t])
                m.Add(ev == 0).OnlyEnforceIf(self.start[t].Not())
                m.Add(self.removed[s][t + 1] == self.removed[s][t] + sum(own) + ev)
        # Hand size of the seat to move at each turn.
        self.hand_size = []
        for t in range(self.T):
            s = self.seat_of[t]
            drawn = m.NewIntVar(0, len(self.queue[s]), f"drawn[{t}]")
            m.AddMinEquality(drawn, [self.removed[s][t], len(self.queue[s])])
            h = m.NewIntVar(-big, big, f"hand[{t}]")
            m.Add(h == self.held[s] + drawn - self.removed[s][t])
            self.hand_size.append(h)

    def start_card(self) -> None:
        """Start cards: a seat holding one while none has been played must play it; the
        team then discards start_discards cards (the solo reading: while the hands hold
        fewer than are owed, every card in hand goes and all seats draw back up)."""
        if self.state.start_played:
            self.start_seat = [0] * self.P
            return
        m = self.model
        self.start_seat = []
        for s in range(self.P):
            q = self._start_queue_index(s)
            own = self.turns_of[s]
            self.start_seat.append(sum(self.start[t] for t in own))
            for t in own:
                holds = self.new_bool(f"holds_start[{s},{t}]")
                if q is None:
                    m.Add(holds == 0)
                elif q < 0:
                    m.Add(holds == 1)
                else:
                    m.Add(self.removed[s][t] >= q + 1).OnlyEnforceIf(holds)
                    m.Add(self.removed[s][t] <= q).OnlyEnforceIf(holds.Not())
                m.AddImplication(self.start[t], holds)
                earlier = [self.start[u] for u in range(t)]
                # Holding it with none played yet forces the Start now.
                m.AddBoolOr([holds.Not(), self.start[t], *earlier]).OnlyEnforceIf(self.when("start"))
        self.start_event_rounds()

    def _start_queue_index(self, s: int) -> int | None:
        if START in self.state.hands[s]:
            return -1
        queue = self.queue[s]
        return queue.index(START) if START in queue else None

    def start_event_rounds(self) -> None:
        """The Start event round by round (docs/rules.md, solo reading). Round j: if the
        hands hold fewer cards than are still owed, all go and every seat draws back up;
        otherwise the team picks the owed cards and the event ends."""
        m = self.model
        owed0 = self.rules.start_discards
        # Each forced round pays at least one card, except a first round with empty hands
        # (it only draws); hands and piles both dry leave the last round unpayable.
        rounds = owed0 + 2
        big = sum(self.held) + sum(len(q) for q in self.queue) + owed0
        removed_then = []
        for s in range(self.P):
            r = m.NewIntVar(0, big, f"removed_at_start[{s}]")
            for t in range(self.T):
                m.Add(r == self.removed[s][t]).OnlyEnforceIf(self.start[t])
            removed_then.append(r)
        self.chosen_in_round = []
        self.forced_round = []
        hand = []
        drawn = []
        for s in range(self.P):
            d = m.NewIntVar(0, len(self.queue[s]), f"round_drawn[0,{s}]")
            m.AddMinEquality(d, [removed_then[s], len(self.queue[s])])
            h = m.NewIntVar(0, big, f"round_hand[0,{s}]")
            m.Add(h == self.held[s] + d - removed_then[s] - self.start_seat[s])
            hand.append(h)
            drawn.append(d)
        owed = m.NewConstant(owed0)
        active = m.NewConstant(1)
        paid = [[] for _ in range(self.P)]
        ends = []
        for j in range(rounds):
            total = sum(hand)
            forced = self.new_bool(f"forced[{j}]")
            last = self.new_bool(f"last_round[{j}]")
            m.Add(forced + last == active)
            m.Add(total < owed).OnlyEnforceIf(forced)
            m.Add(total >= owed).OnlyEnforceIf(last)
            self.forced_round.append((forced, list(drawn)))
            ends.append(last)
            chosen = []
            for s in range(self.P):
                f = m.NewIntVar(0, big, f"forced_paid[{j},{s}]")
                m.Add(f == hand[s]).OnlyEnforceIf(forced)
                m.Add(f == 0).OnlyEnforceIf(forced.Not())
                c = m.NewIntVar(0, big, f"chosen_paid[{j},{s}]")
                m.Add(c <= hand[s])
                m.Add(c == 0).OnlyEnforceIf(last.Not())
                chosen.append(c)
                paid[s] += [f, c]
            m.Add(sum(chosen) == owed).OnlyEnforceIf(last)
            self.chosen_in_round.append(chosen)
            if j + 1 == rounds:
                m.Add(forced == 0).OnlyEnforceIf(self.when("start"))
                break
            next_owed = m.NewIntVar(0, owed0, f"owed[{j + 1}]")
            m.Add(next_owed == owed - total).OnlyEnforceIf(forced)
            m.Add(next_owed == 0).OnlyEnforceIf(forced.Not())
            next_hand, next_drawn = [], []
            for s in range(self.P):
                left = m.NewIntVar(0, len(self.queue[s]), f"pile_left[{j},{s}]")
                m.Add(left == len(self.queue[s]) - drawn[s])
                take = m.NewIntVar(0, self.H, f"round_draw[{j + 1},{s}]")
                m.AddMinEquality(take, [left, self.H])
                h = m.NewIntVar(0, big, f"round_hand[{j + 1},{s}]")
                m.Add(h == take).OnlyEnforceIf(forced)
                m.Add(h == 0).OnlyEnforceIf(forced.Not())
                d = m.NewIntVar(0, len(self.queue[s]), f"round_drawn[{j + 1},{s}]")
                m.Add(d == drawn[s] + h)
                next_hand.append(h)
                next_drawn.append(d)
            hand, drawn, owed, active = next_hand, next_drawn, next_owed, forced
        m.Add(sum(ends) == 1).OnlyEnforceIf(self.when("start"))
        self.drawn_at_event = drawn
        for s in range(self.P):
            m.Add(self.event[s] == sum(paid[s])).OnlyEnforceIf(self.when("start"))

    def cards_are_played_from_hand(self) -> None:
        """A card is played on one of its own seat's turns, once it has been drawn, and not
        after a forced Start round threw it away."""
        m = self.model
        for pc in self.islands:
            pc.turn = self._turn_var(pc)
            for k in self.empty:
                b = self.goes.get((pc.card, k))
                if b is not None:
                    m.Add(pc.turn == self.placed_at[k]).OnlyEnforceIf(b)
        for pc in self.finishes:
            pc.played = self.new_bool(f"finish_played[{pc.seat},{pc.queue}]")
            pc.turn = self._turn_var(pc)
            m.Add(pc.turn == self.finish_turn).OnlyEnforceIf(pc.played)
        m.AddExactlyOne(pc.played for pc in self.finishes)
        if not self.state.start_played:
            for pc in self.cards:
                self._survives_forced_rounds(pc)

    def _turn_var(self, pc: PlayCard) -> cp_model.IntVar:
        m = self.model
        own = self.turns_of[pc.seat]
        if not own:
            m.Add(pc.played == 0)
            return m.NewConstant(0)
        turn = m.NewIntVarFromDomain(cp_model.Domain.FromValues(own), f"turn[{pc.seat},{pc.queue}]")
        if pc.queue >= 0:
            index = m.NewIntVar(0, len(own) - 1, f"turn_index[{pc.seat},{pc.queue}]")
            m.Add(turn == own[0] + self.P * index)
            removed = m.NewIntVar(0, self.held[pc.seat] + len(self.queue[pc.seat]), f"removed_when[{pc.seat},{pc.queue}]")
            m.AddElement(index, [self.removed[pc.seat][t] for t in own], removed)
            group = "finish" if pc.card == FINISH else "draw"
            m.Add(removed >= pc.queue + 1).OnlyEnforceIf(self.when(group, pc.played))
        return turn

    def _survives_forced_rounds(self, pc: PlayCard) -> None:
        m = self.model
        later = self.new_bool(f"after_start[{pc.seat},{pc.queue}]")
        m.Add(pc.turn > self.start_turn).OnlyEnforceIf(later)
        m.Add(pc.turn <= self.start_turn).OnlyEnforceIf(later.Not())
        both = self.new_bool(f"played_after_start[{pc.seat},{pc.queue}]")
        m.AddBoolAnd([pc.played, later]).OnlyEnforceIf(both)
        m.AddBoolOr([pc.played.Not(), later.Not(), both])
        pc.after_start = both
        for forced, drawn in self.forced_round:
            if pc.queue < 0:
                m.AddBoolOr([both.Not(), forced.Not()]).OnlyEnforceIf(self.when("start"))
            else:
                m.Add(drawn[pc.seat] <= pc.queue).OnlyEnforceIf(self.when("start", both, forced))

    def placement_cost(self) -> None:
        """Cost: the smallest difference to an already placed neighbour (rule
        'adjacency'), 0 if none is placed yet."""
        m = self.model
        st = self.state
        self.cost = {}
        for k in self.empty:
            options = []
            for j in cost_neighbours(self.rules, k):
                gap = m.NewIntVar(0, self.rules.islands, f"gap[{k},{j}]")
                m.AddAbsEquality(gap, self._value_of(k) - self._value_of(j))
                if st.grid[j] is not None:
                    options.append((None, gap))
                else:
                    earlier = self.new_bool(f"before[{j},{k}]")
                    m.Add(self.placed_at[j] < self.placed_at[k]).OnlyEnforceIf(earlier)
                    m.Add(self.placed_at[j] > self.placed_at[k]).OnlyEnforceIf(earlier.Not())
                    options.append((earlier, gap))
            cost = m.NewIntVar(0, self.H - 1, f"cost[{k}]")
            picks = []
            for earlier, gap in options:
                cond = [] if earlier is None else [earlier]
                m.Add(cost <= gap).OnlyEnforceIf(cond)
                pick = self.new_bool(f"cost_from[{k}]")
                m.Add(cost == gap).OnlyEnforceIf(pick)
                if earlier is not None:
                    m.AddImplication(pick, earlier)
                picks.append(pick)
            none = self.new_bool(f"no_neighbour[{k}]")
            m.AddExactlyOne([*picks, none])
            m.Add(cost == 0).OnlyEnforceIf(none)
            for earlier, _ in options:
                if earlier is None:
                    m.Add(none == 0)
                else:
                    m.AddImplication(none, earlier.Not())
            self.cost[k] = cost
            for t in range(self.T):
                m.Add(self.cost_at[t] == cost).OnlyEnforceIf(self.when("cost", self.fill[k, t]))
        for t in range(self.T):
            m.Add(self.cost_at[t] == 0).OnlyEnforceIf(self.island[t].Not())

    def a_play_cannot_cost_more_than_the_hand_holds(self) -> None:
        """A seat may not play a card whose cost exceeds the cards left after playing it."""
        for t in range(self.T):
            self.model.Add(self.cost_at[t] + 1 <= self.hand_size[t]).OnlyEnforceIf(self.when("hand", self.island[t]))

    def discard_two_needs_two_cards(self) -> None:
        """Discard two cards: the seat must hold two."""
        for t in range(self.T):
            self.model.Add(self.hand_size[t] >= 2).OnlyEnforceIf(self.when("hand", self.discard[t]))
            self.model.Add(self.hand_size[t] >= 1).OnlyEnforceIf(self.when("hand", self.idle[t].Not()))

    def one_card_rule(self) -> None:
        """Rule option one_card=lose: a seat that begins its turn with 0 or 1 cards loses."""
        if self.rules.one_card != "lose":
            return
        for t in range(self.T):
            self.model.Add(self.hand_size[t] >= 2).OnlyEnforceIf(self.when("hand", self.idle[t].Not()))

    def discards_are_never_played_cards(self) -> None:
        """Any card in hand may be paid or discarded; the line only ever discards cards it
        never plays (a card both played and discarded is impossible), so each seat must,
        whenever it discards, have drawn at least as many never-played cards as it has
        discarded so far. Dead Start cards count as never played."""
        m = self.model
        for s in range(self.P):
            plays_until = self._plays_until(s)
            spare_in_hand = self._spare_in_hand(s)
            previous = None
            for t in self.turns_of[s]:
                discarded = self.removed[s][t + 1] - plays_until[t + 1]
                # On the Start turn the event's own check below applies (it draws mid-way).
                spare, has = self._spare_drawn(s, self.removed[s][t], f"{s},{t}")
                m.Add(discarded <= spare_in_hand + spare).OnlyEnforceIf(self.when("discards", self.start[t].Not()))
                # Redundant, for propagation: draws only grow, card by card and turn by turn.
                for q in range(1, len(has)):
                    m.AddImplication(has[q], has[q - 1])
                if previous is not None:
                    for before, now in zip(previous, has):
                        m.AddImplication(before, now)
                previous = has
            if not self.state.start_played:
                # The event pays from cards drawn during its forced rounds too.
                by_event = m.NewIntVar(-self.T, self.held[s] + len(self.queue[s]), f"discarded_by_event[{s}]")
                for u in range(self.T):
                    m.Add(by_event == self.removed[s][u + 1] - plays_until[u + 1]).OnlyEnforceIf(self.start[u])
                spare, _ = self._spare_drawn(s, self.drawn_at_event[s], f"{s},event")
                m.Add(by_event <= spare_in_hand + spare).OnlyEnforceIf(self.when("discards"))

    def _spare_in_hand(self, s: int):
        """Cards in seat s's hand now that the line never plays (as far as known now)."""
        hand = self.state.hands[s]
        fixed = sum(1 for c in hand if not (is_island(c) or c == FINISH or c == START))
        spare = fixed + sum(pc.played.Not() for pc in self.cards if pc.seat == s and pc.queue < 0)
        if START in hand:
            spare += 1 if self.state.start_played else self.start_seat_flag(s).Not()
        return spare

    def _plays_until(self, s: int) -> list:
        """plays[t] = cards of seat s played on turns before t (islands, Start, Finish)."""
        out = [0]
        acc = 0
        for t in range(self.T):
            if self.seat_of[t] == s:
                acc = acc + self.island[t] + self.finish[t] + self.start[t]
            out.append(acc)
        return out

    def _spare_drawn(self, s: int, drawn, tag: str):
        """Never-played cards among the first ``drawn`` pile cards of seat s, and the
        literals "pile card q is drawn" that count them."""
        m = self.model
        terms = []
        flags = []
        played = {pc.queue: pc.played for pc in self.cards if pc.seat == s and pc.queue >= 0}
        for q, card in enumerate(self.queue[s]):
            has = self.new_bool(f"drawn[{tag},{q}]")
            m.Add(drawn >= q + 1).OnlyEnforceIf(has)
            m.Add(drawn <= q).OnlyEnforceIf(has.Not())
            flags.append(has)
            if card == START and not self.state.start_played:
                never = self.start_seat_flag(s).Not()
            elif q in played:
                never = played[q].Not()
            else:
                terms.append(has)
                continue
            both = self.new_bool(f"spare_drawn[{tag},{q}]")
            m.AddBoolAnd([has, never]).OnlyEnforceIf(both)
            m.AddBoolOr([has.Not(), never.Not(), both])
            terms.append(both)
        return sum(terms), flags

    def start_seat_flag(self, s: int):
        if not hasattr(self, "_start_flags"):
            self._start_flags = {}
        if s not in self._start_flags:
            b = self.new_bool(f"starts[{s}]")
            self.model.Add(b == self.start_seat[s])
            self._start_flags[s] = b
        return self._start_flags[s]

    # -- reading a solution ----------------------------------------------------------------

    def plan(self, solver: cp_model.CpSolver) -> "Plan":
        kinds = []
        for t in range(self.T):
            if solver.Value(self.island[t]):
                k = next(k for k in self.empty if solver.Value(self.fill[k, t]))
                card = solver.Value(self.value[k])
                kinds.append(("island", card, k))
            elif solver.Value(self.start[t]):
                kinds.append(("start", None, None))
            elif solver.Value(self.finish[t]):
                kinds.append(("finish", None, None))
            elif solver.Value(self.discard[t]):
                kinds.append(("discard", None, None))
            else:
                break
        team = None
        if not self.state.start_played:
            team = tuple(sum(solver.Value(c[s]) for c in self.chosen_in_round) for s in range(self.P))
        finish = next(pc for pc in self.finishes if solver.Value(pc.played))
        return Plan(tuple(kinds), team, (finish.seat, finish.queue))

    # -- objectives and hints -----------------------------------------------------------------

    def objective(self, name: str):
        """The objective as a linear expression to minimise (docs/model.md, Objectives):
        spare = cards still in hands and piles at the win (maximised: its negation),
        turns = turns to the win, cost = cards paid as placement costs."""
        if name == "spare":
            return sum(self.removed[s][self.T] for s in range(self.P)) - self.cards_left
        if name == "turns":
            return self.finish_turn + 1
        if name == "cost":
            return sum(self.cost.values())
        raise ValueError(f"unknown objective {name!r}")

    @property
    def cards_left(self) -> int:
        return sum(self.held) + sum(len(q) for q in self.queue)

    def hint(self, turns: list[tuple[str, int | None, int | None]], removed: list[list[int]], finish_card: tuple[int, int]) -> None:
        """Warm start from a known winning continuation (as the engine replayed it):
        per turn (kind, card, cell), and each seat's removal count before each turn."""
        m = self.model
        kinds = {"island": self.island, "start": self.start, "finish": self.finish, "discard": self.discard}
        placed = {}
        for t in range(self.T):
            kind = turns[t][0] if t < len(turns) else "idle"
            for name, flags in kinds.items():
                m.AddHint(flags[t], name == kind)
            m.AddHint(self.idle[t], kind == "idle")
            if kind == "island":
                placed[turns[t][2]] = (t, turns[t][1])
        for (k, t), flag in self.fill.items():
            m.AddHint(flag, placed.get(k, (None,))[0] == t)
        for (card, k), flag in self.goes.items():
            m.AddHint(flag, placed.get(k, (None, None))[1] == card)
        played_at = {card: t for t, card in placed.values()}
        for pc in self.islands:
            m.AddHint(pc.played, pc.card in played_at)
            if pc.card in played_at:
                m.AddHint(pc.turn, played_at[pc.card])
        for pc in self.finishes:
            m.AddHint(pc.played, (pc.seat, pc.queue) == finish_card)
        for s in range(self.P):
            for t in range(self.T + 1):
                m.AddHint(self.removed[s][t], removed[s][min(t, len(removed[s]) - 1)])

    def size(self) -> dict:
        proto = self.model.Proto()
        return {"variables": len(proto.variables), "constraints": len(proto.constraints), "horizon": self.T}


@dataclass(frozen=True)
class Plan:
    """What the model decided, turn by turn: (kind, card, cell). Which spare cards pay is
    left to ``realise`` (discards are counted in the model, not named)."""

    turns: tuple[tuple[str, int | None, int | None], ...]
    team_choice: tuple[int, ...] | None  # cards each seat picks in the Start event's last round
    finish_card: tuple[int, int]  # (seat, index among its undrawn cards, -1 = in hand)
