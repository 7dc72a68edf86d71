"""Search over the rules engine's states: a randomised greedy player that finds wins fast,
and a complete depth-first search that proves NO-WIN where the state space allows.

Both only ever move by ``State.apply``, so every line they return is legal by
construction (and is still replayed by the verifier before anyone sees it).

Dominance rules (docs/model.md, "Search"):
- *Junk first*: a card that can never be played again (an island that fits no empty cell,
  a dead Start, a second Finish in the same hand) is interchangeable with any other junk
  card and worth no more than a live card, so a payment that leaves junk in hand while
  paying a live card is never better. Payments pay junk first. While a Sea Monster is
  still to be played, a cell can be emptied again, so no island is junk then (and a
  monster card never is).
- *Canonical states*: junk cards are written as one token in the transposition key, so
  positions that differ only in which junk they hold are searched once.

The modules: the search moves by the engine, so the rocks and the monsters are played by
the rules; it also tries every Sea Monster play and, with manual rocks, every row and the
paid stay (``choice_actions``).
"""

from __future__ import annotations

import random
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache

from .actions import (
    Action,
    Choice,
    ChoiceKind,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from .cards import FINISH, MONSTER, START, Card, is_island, remove_held
from .rules import Order, Rocks
from .state import IslandPlay, State, Status, geometry_of, sub_multisets
from .verdicts import Verdict

JUNK = 0  # the token that stands for any junk card in a canonical key


class Deadline:
    """A wall-clock limit and a node budget, whichever comes first; also stops on request."""

    def __init__(self, seconds: float | None = None, nodes: int | None = None):
        self.until = None if seconds is None else time.monotonic() + seconds
        self.nodes_left = nodes
        self.stopped = False

    def tick(self) -> bool:
        """Count one node; True while there is budget left."""
        if self.nodes_left is not None:
            self.nodes_left -= 1
            if self.nodes_left < 0:
                return False
        return not self.stopped and (self.until is None or time.monotonic() < self.until)

    def expired(self) -> bool:
        return (
            self.stopped
            or (self.until is not None and time.monotonic() >= self.until)
            or (self.nodes_left is not None and self.nodes_left < 0)
        )


# -- what can still be played ----------------------------------------------------------


def monsters_left(state: State) -> int:
    """Sea Monsters still to be played: the Finish needs every one (docs/rules.md)."""
    return state.rules.monsters - state.monsters_played


def turns_without_discards(position: State) -> int:
    """The turns of every win from ``position`` that are not discard-two turns: one per
    empty cell, the Start if still to come, the Finish, and two per Sea Monster still to
    play (the monster, and the island that refills the cell it empties). Every turn is
    one of these or a discard two, so a win takes exactly this many turns plus D, its
    discard-two turns (docs/model.md, The finisher check)."""
    empty = sum(v is None for v in position.grid)
    return empty + (0 if position.start_played else 1) + 1 + 2 * monsters_left(position)


def finishing_seat(position: State, discards: int = 0) -> int:
    """The seat that plays the Finish of a win from ``position`` with ``discards`` more
    discard-two turns: seats take turns in order, and the win takes exactly
    ``turns_without_discards`` turns plus its discard twos."""
    return (position.seat + turns_without_discards(position) - 1 + discards) % position.players


@cache
def _every_island(islands: int) -> frozenset[int]:
    return frozenset(range(1, islands + 1))


def _islands_out(state: State) -> tuple[Iterable, ...]:
    """Where the cards no hand or pile holds any more are: every island is in a hand or a
    pile, or else on the grid, discarded, gone (a Sea Monster sank it) or removed. For
    ``frozenset.difference``, which needs no set of them built."""
    return (state.grid, state.discarded, state.gone, state.deal.removed_islands)


def live_islands(state: State) -> frozenset[int]:
    """Islands that fit at least one empty cell, the Jagged Rocks' row included (the rocks
    move on after every action or are paid to stay, so no cell is covered for good: a
    superset of the islands playable later is what junk needs).

    A card that fits nowhere now never fits again while cells only fill up. A Sea Monster
    still to be played can sink the card that bounds a cell and so open any interval:
    then every island counts as live."""
    if monsters_left(state):
        return _every_island(state.rules.islands)
    return state.fitting_islands


def is_junk(card: Card, live: frozenset[int], start_played: bool) -> bool:
    if is_island(card):
        return card not in live
    return card == START and start_played


def canonical_hand(hand: tuple[Card, ...], live: frozenset[int], start_played: bool) -> tuple:
    out = []
    seen_finish = False
    for card in hand:
        if card == FINISH:
            out.append(JUNK if seen_finish else FINISH)
            seen_finish = True
        else:
            out.append(JUNK if is_junk(card, live, start_played) else card)
    return tuple(sorted(out, key=lambda c: (0, c) if is_island(c) else (1, str(c))))


def state_key(state: State, live: frozenset[int]) -> tuple:
    """What the rest of the game depends on. The modules add the monsters played (the
    Finish waits for all of them), the rocks' row and the rolls used (auto rocks follow
    the deal's roll stream from there). The cards gone (monsters and the islands they
    sank) need no place of their own: what is still playable is the grid, the hands and
    the undrawn piles, and no rule reads the cards out of the game."""
    return (
        state.grid,
        tuple(canonical_hand(h, live, state.start_played) for h in state.hands),
        state.drawn,
        state.seat,
        state.start_played,
        state.monsters_played,
        state.rocks_row,
        state.rolls_used,
    )


# -- necessary conditions ----------------------------------------------------------------


def refutation(state: State, live: frozenset[int] | None = None) -> str | None:
    """A reason the team can no longer win from ``state``, or None if none is found.

    Each check is a necessary condition of every winning continuation (docs/model.md),
    under every module: the Jagged Rocks only delay placements (and a stay costs cards the
    checks never count on), and each Sea Monster still to play is counted as what it
    takes: its card, one more island to refill the cell it empties, and a turn."""
    if state.won:
        return None
    if live is None:
        live = live_islands(state)
    rules = state.rules
    in_play = [c for h in state.hands for c in h] + [c for s in range(state.players) for c in state.pile(s)]
    if FINISH not in in_play:
        return "no Finish card is left in any hand or pile"
    sinks = monsters_left(state)
    if sinks and in_play.count(MONSTER) < sinks:
        return (
            f"the Finish needs all {rules.monsters} Sea Monsters played; {state.monsters_played} "
            f"{'is' if state.monsters_played == 1 else 'are'} played and only {in_play.count(MONSTER)} "
            "left in the hands and piles (a discarded Sea Monster can never be played)"
        )
    doomed = _finish_cannot_survive_the_start(state) or _the_start_event_takes_what_the_win_needs(state)
    if doomed is not None:
        return doomed
    empty = [cell for cell, v in enumerate(state.grid) if v is None]
    available = sorted(c for c in in_play if is_island(c) and c in live)
    # Every empty cell needs its own island, and so does each cell a monster empties;
    # runs of empty cells between two placed cards (reading order, or along a row/column
    # on the grid order) need that many islands between.
    if sinks and len(available) < len(empty) + sinks:
        return (
            f"filling {len(empty)} empty cell(s) and refilling the {sinks} that the Sea Monsters "
            f"still to play will empty needs {len(empty) + sinks} islands; only {len(available)} "
            f"{'is' if len(available) == 1 else 'are'} left"
        )
    costs = least_total_cost(state)
    need = len(empty) + 2 * sinks + costs + 1 + (0 if state.start_played else 1 + rules.start_discards)
    if len(in_play) < need:
        monsters = f"{sinks} Sea Monster(s) and the islands that refill their cells, " if sinks else ""
        return (
            f"the hands and piles hold {len(in_play)} cards; filling {len(empty)} cells "
            f"(paying at least {costs} in costs), {monsters}"
            f"{'' if state.start_played else 'the Start event and '}a Finish need at least {need}"
        )
    if sinks:
        # A monster can sink a card that closes a run, so a run's islands are not bounded
        # by its ends now: the counts above are all that holds.
        return None
    for low, high, run in empty_runs(state):
        fits = sum(1 for c in available if low < c < high)
        if fits < run:
            cells = f"{run} empty cells need {run} islands" if run > 1 else "1 empty cell needs an island"
            between = f"between {low or 'the start'} and {high if high <= rules.islands else 'the end'}"
            left = "none is left" if fits == 0 else f"only {fits} {'is' if fits == 1 else 'are'} left"
            return f"{cells} {between}; {left}"
    return None


def _finish_cannot_survive_the_start(state: State) -> str | None:
    """Solo: when one hand minus the Start cannot pay the Start event, its first round is
    forced and throws away the whole hand, so every Finish card drawn by then is lost. A
    Finish can only survive from deeper in the pile than the Start card. The modules do
    not touch the Start event, so this holds under every one of them."""
    rules = state.rules
    if state.players != 1 or state.start_played or rules.hand - 1 >= rules.start_discards:
        return None
    pile = state.pile(0)
    if START in state.hand or START not in pile:
        return None
    if FINISH not in pile[pile.index(START) + 1 :]:
        return (
            "every Finish card left comes before the Start card, and the Start event's first "
            "round (forced: one hand cannot pay it) throws away the whole hand"
        )
    return None


def _the_start_event_takes_what_the_win_needs(state: State) -> str | None:
    """Solo: the Start event discards what the hand holds, and then, round by round, the
    cards drawn after it, until it has taken ``start_discards`` cards; only its last round
    lets the player choose what to keep (docs/rules.md, ``State.start_rounds``). The Sea
    Monsters that come after the Start card in the pile can only be played after the
    event, each with an island to refill its cell, and a Finish must outlast it too.

    Whatever the hand holds when the Start comes (up to ``hand - 1`` other cards, of
    which the first ``j`` cards after the Start card in the pile, for every possible
    ``j``), the event is played out on the pile as it lies: if it always takes one of those
    monsters, or every Finish after the Start, or leaves too few cards or islands for the
    monsters, their refills and a Finish, no win is left. Other rules only take more
    cards (a rocks stay, costs), so this holds under every module."""
    rules = state.rules
    if state.players != 1 or state.start_played:
        return None
    pile, owed = state.pile(0), rules.start_discards
    if START in state.hand:
        # The event is this turn: every monster still to play must come from the pile.
        held = len(state.hand) - 1
        if MONSTER in state.hand and held < owed:
            return "the Start must be played now, and the Start event throws away the Sea Monster in hand"
        cases = [(pile, held)]
    elif START in pile:
        after = pile[pile.index(START) + 1 :]
        # The first j cards after the Start card may be in the hand with it: a forced first
        # round throws them away, so j stops short of the first monster.
        cases = [
            (after[j:], held)
            for j in range(min(rules.hand - 1, len(after)) + 1)
            for held in range(j, rules.hand)
            if held >= owed or MONSTER not in after[:j]
        ]
    else:
        return None
    if any(_outlasts_the_start(rest, owed - held, rules.hand) for rest, held in cases):
        return None
    return (
        "solo, the Start event discards the hand and then the cards drawn after it "
        f"({rules.start_discards} in all): however the Start comes, it takes a Sea Monster still to "
        "play or every Finish card left, or leaves too few cards for the monsters, the islands that "
        "refill their cells and a Finish"
    )


def _outlasts_the_start(rest: tuple[Card, ...], owed: int, hand: int) -> bool:
    """Whether the Sea Monsters in ``rest`` (the pile still to draw when the Start is played,
    in order), a Finish, and an island to refill each monster's cell can outlast a Start
    event that still owes ``owed`` cards once the hand is discarded (solo)."""
    monsters = rest.count(MONSTER)
    if owed <= 0:
        return True  # the hand pays it all (with a choice): nothing in the pile is touched
    at = 0
    while True:
        batch = rest[at : at + hand]
        if not batch:
            return False  # hands and piles run dry: the Start cannot be played
        if len(batch) < owed:  # a forced round: the whole batch goes
            if MONSTER in batch:
                return False
            owed -= len(batch)
            at += len(batch)
            continue
        keep, later = len(batch) - owed, rest[at + len(batch) :]
        needed = batch.count(MONSTER) + (FINISH in batch and FINISH not in later)
        if needed > keep or (FINISH not in batch and FINISH not in later):
            return False
        # Kept islands come out of what the monsters and a Finish leave of the choice.
        islands = min(keep - needed, sum(1 for c in batch if is_island(c))) + sum(1 for c in later if is_island(c))
        return islands >= monsters and keep + len(later) >= 2 * monsters + 1


def least_total_cost(state: State) -> int:
    """A lower bound on the costs still to pay: a play costs nothing only into a cell with
    no placed neighbour, and of two neighbouring empty cells at most one can be filled for
    free (the second then has a placed neighbour, and distinct islands differ by >= 1).
    So the bound is: cells that already touch a card, plus a matching among the others.

    Sea Monsters: each one still to play may sink a placed card first, and then its
    neighbours may be filled for free. Count only the last placement into each cell: the
    cells never sunk stay filled, and of two adjacent last placements the later one sees
    the earlier, so the argument above holds for the grid with the sunk cells emptied.
    Emptying a cell adds it to the cells to fill and may free its d neighbours; it touches
    them all, so the free plays gain at most d while the cells gain one: the bound less
    (d - 1) per monster still to play is still a bound."""
    geo = geometry_of(state.rules)
    grid = state.grid
    free = [k for k, v in enumerate(grid) if v is None and all(grid[j] is None for j in geo.neighbours[k])]
    touching = sum(1 for v in grid if v is None) - len(free)
    free_set, matched = set(free), set[int]()
    pairs = 0
    for k in free:
        if k in matched:
            continue
        mate = next((j for j in geo.neighbours[k] if j in free_set and j not in matched), None)
        if mate is not None:
            matched.update((k, mate))
            pairs += 1
    sinks = monsters_left(state)
    if sinks:
        return max(0, touching + pairs - sinks * (max(len(near) for near in geo.neighbours) - 1))
    return touching + pairs


def empty_runs(state: State) -> Iterator[tuple[int, int, int]]:
    """(low, high, length) of each maximal run of empty cells along the order's lines."""
    rules = state.rules
    grid = state.grid
    if rules.order == Order.SEQUENCE:
        lines = [list(range(rules.cells))]
    else:
        lines = [[r * rules.cols + c for c in range(rules.cols)] for r in range(rules.rows)]
        lines += [[r * rules.cols + c for r in range(rules.rows)] for c in range(rules.cols)]
    for line in lines:
        low, run = 0, 0
        for cell in line:
            value = grid[cell]
            if value is None:
                run += 1
            else:
                if run:
                    yield low, value, run
                low, run = value, 0
        if run:
            yield low, rules.islands + 1, run


# -- candidate moves ---------------------------------------------------------------------


def payments(cards: tuple[Card, ...], k: int, live: frozenset[int], start_played: bool) -> list[tuple[Card, ...]]:
    """The payments of k cards worth trying: junk first, then every choice of live cards."""
    junk = [c for c in cards if is_junk(c, live, start_played)]
    keep_one_finish = _spare_finishes(cards)
    junk += keep_one_finish
    if len(junk) >= k:
        return [tuple(junk[:k])]
    rest = remove_held(cards, junk)
    return [tuple(junk) + tuple(p) for p in sub_multisets(rest, k - len(junk))]


def _spare_finishes(cards: tuple[Card, ...]) -> list[Card]:
    n = cards.count(FINISH)
    return [FINISH] * (n - 1) if n > 1 else []


def candidate_actions(state: State, live: frozenset[int]) -> Iterator[Action]:
    """Every legal action up to the dominance rules above (complete for proofs)."""
    for choice in state.legal_choices():
        yield from choice_actions(state, choice, live)


def choice_actions(state: State, choice: Choice, live: frozenset[int]) -> Iterator[Action]:
    """The actions of ``choice`` worth trying, each with every rocks move worth trying."""
    for action in _paid_actions(state, choice, live):
        yield from rocks_moves(state, action, live)


def rocks_moves(state: State, action: Action, live: frozenset[int]) -> Iterator[Action]:
    """Manual Jagged Rocks: ``action`` moving the rocks to each row they may go to, then
    keeping them for two cards, junk first (the two cards join the action's other
    payments, so the same dominance holds). Otherwise the action as it is."""
    manual = state.rules.rocks == Rocks.MANUAL and state.rocks_row is not None and not isinstance(action, PlayFinish)
    after = state.before_rocks(action) if manual else None
    if after is None or not after.rocks_choice_due:
        yield action
        return
    moves = [RocksMove(row) for row in after.eligible_rock_rows()]
    moves += [RocksMove(None, paid) for paid in payments(after.hands[state.seat], 2, live, after.start_played)]
    for move in moves:
        yield replace(action, rocks=move)


def _paid_actions(state: State, choice: Choice, live: frozenset[int]) -> Iterator[Action]:
    seat, hand = state.seat, state.hand
    if choice.kind == ChoiceKind.ISLAND:
        cost = state.cost_of(choice)
        after = remove_held(hand, [choice.island])
        # The played card leaves the live set only through this play; judge junk without it.
        for paid in payments(after, cost, live, state.start_played):
            yield PlayIsland(seat=seat, card=choice.island, cell=choice.target, discard=paid)
    elif choice.kind == ChoiceKind.DISCARD:
        for paid in payments(hand, 2, live, state.start_played):
            yield DiscardTwo(seat=seat, discard=paid)
    elif choice.kind == ChoiceKind.FINISH:
        yield PlayFinish(seat=seat)
    elif choice.kind == ChoiceKind.START:
        yield from start_actions(state, live)
    elif choice.kind == ChoiceKind.MONSTER:
        yield PlayMonster(seat=seat, cell=choice.target)


def start_actions(state: State, live: frozenset[int]) -> Iterator[PlayStart]:
    """Start event splits: each seat pays junk first; live cards are split every way."""
    hands, _, owed, _ = state.start_event()
    # After the Start every other Start card is dead: count them as junk here.
    seen = set()
    for split in _team_splits_junk_first(hands, owed, live):
        if split not in seen:
            seen.add(split)
            yield PlayStart(seat=state.seat, team_discard=split)


def _team_splits_junk_first(hands, owed, live) -> Iterator[tuple[tuple[Card, ...], ...]]:
    # How many cards each seat pays is free; within a seat, junk goes first.
    sizes = [len(h) for h in hands]
    for counts in _compositions(owed, sizes):
        per_seat = [payments(h, k, live, True) for h, k in zip(hands, counts, strict=True)]
        yield from _product(per_seat)


def _compositions(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    later = sum(caps[1:])
    for k in range(max(0, total - later), min(total, caps[0]) + 1):
        for tail in _compositions(total - k, caps[1:]):
            yield (k, *tail)


def _product(options: list[list]) -> Iterator[tuple]:
    if not options:
        yield ()
        return
    for first in options[0]:
        for tail in _product(options[1:]):
            yield (first, *tail)


# -- the greedy player ---------------------------------------------------------------------


@dataclass
class SearchStats:
    nodes: int = 0
    playouts: int = 0
    cache_hits: int = 0
    refuted: int = 0
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return {
            "nodes": self.nodes,
            "playouts": self.playouts,
            "cache_hits": self.cache_hits,
            "refuted": self.refuted,
            **self.extra,
        }


class FinishKeeper(StrEnum):
    """Whose Finish card the Start's team discard keeps, when the other cards can pay."""

    # The first seat holding one: the greedy's decisions, the puzzles' grades and the
    # odds' lines were measured with it, and it wins the same deals as DUE (docs/model.md).
    FIRST = "first"
    # The seat due to play the Finish if no discard two comes (``finishing_seat``): kept by
    # another seat, the Finish needs discard twos to come round to it, each one turn and
    # two cards more. The improving playouts of ``solve --objective`` use both.
    DUE = "due"


@dataclass(frozen=True)
class Style:
    """The greedy player's weights; restarts draw new ones so that playouts differ."""

    noise: float = 0.0  # random jitter added to each play's score
    room: float = 1.0  # weight of playing away from where a card's rank puts it
    economy: float = 3.0  # weight of paying more than the seat can spare
    dear: float = 3.0  # a play scoring this much or more is worse than discarding junk
    keeper: FinishKeeper = FinishKeeper.FIRST  # whose Finish the Start keeps

    @classmethod
    def draw(cls, rng: random.Random, playout: int) -> Style:
        if playout == 0:
            return cls()
        return cls(
            noise=rng.uniform(0.0, min(4.0, 0.5 * playout)),
            room=rng.uniform(0.3, 1.5),
            economy=rng.uniform(1.0, 5.0),
            dear=rng.uniform(2.0, 4.5),
        )


def greedy_action(state: State, rng: random.Random, live: frozenset[int], style: Style) -> Action:
    """A quick heuristic move: the island play that costs least and keeps the most room for
    the cards still to come; a Sea Monster once no island play is nearly free; discard two
    when every play is dear; pay the least useful cards; with manual rocks, move them
    where they block least (or pay two junk cards to keep them, when every row would
    block more)."""
    return _greedy_rocks(state, _greedy_choice(state, rng, live, style), live)


def _greedy_choice(state: State, rng: random.Random, live: frozenset[int], style: Style) -> Action:
    kinds = {c.kind for c in state.other_choices}  # and the island plays, read below
    if ChoiceKind.FINISH in kinds:
        return next(choice_actions(state, Choice(ChoiceKind.FINISH, FINISH), live))
    if ChoiceKind.START in kinds:
        return _greedy_start(state, live, style.keeper)
    hand = state.hand
    junk = sum(1 for c in hand if is_junk(c, live, state.start_played)) + len(_spare_finishes(hand))
    draw = rng.random
    reserve, room, economy, noise = _reserve(state), style.room, style.economy, style.noise
    best: tuple[float, int, int, int] | None = None  # (score, card, cell, cost)
    for card, cell, cost, misplaced in _Room(state, live).placed(state.island_plays):
        # max(0, x) written out: this loop scores every play of every turn.
        live_paid = cost - junk if cost > junk else 0
        short = cost - reserve if cost > reserve else 0
        score = cost + 2 * live_paid + room * misplaced + economy * short + draw() * noise
        if best is None or score < best[0]:
            best = (score, card, cell, cost)
    if ChoiceKind.MONSTER in kinds:
        sink = _greedy_sink(state, None if best is None else best[0], style, rng)
        if sink is not None:
            return sink
    if ChoiceKind.DISCARD in kinds and (best is None or (best[0] >= style.dear and junk >= 2)):
        return DiscardTwo(seat=state.seat, discard=_pick_cheapest(state, hand, 2, live))
    if best is None:  # every island play is hopeless: the first, as good as any
        return _paid_island(state, *state.island_plays[0], live)
    return _paid_island(state, *best[1:], live)


NEARLY_FREE = 0.5  # an island play scoring at most this is worth more than a Sea Monster now


def _greedy_sink(state: State, best: float | None, style: Style, rng: random.Random) -> PlayMonster | None:
    """A Sea Monster play, or None to play an island instead. The Finish needs every
    monster played and each needs a cell refilled, which is cheapest while the grid is
    open: so a monster is played as soon as no island play is (nearly) free (``best``, the
    best island play's score, None when there is none). Measured: 29 of 36 hard deals
    (monsters=5; removed=8 with monsters=3) won in 100 playouts, against 20 when waiting for
    every play to be dear. The island sunk is the one whose cell, opened, makes the most
    islands in hand placeable, cheapest, with islands left in play to refill it."""
    if best is not None and best <= NEARLY_FREE and any(v is None for v in state.grid):
        return None
    in_play = [c for h in state.hands for c in h if is_island(c)]
    in_play += [c for s in range(state.players) for c in state.pile(s) if is_island(c)]
    # The islands in the hands once the monster is played, each with what its seat can pay.
    hands = list(state.hands)
    hands[state.seat] = remove_held(state.hand, [MONSTER])
    held = [(card, len(hand) - 1) for hand in hands for card in hand if is_island(card)]
    cards = [card for card, _ in held]
    chosen: tuple[float, int] | None = None
    for cell, v in enumerate(state.grid):
        if v is None:
            continue
        # How many of those islands fit a cell once this one is empty, at a cost their seat
        # can pay, and those least costs in all.
        fits = total = 0
        for (_, can_pay), cost in zip(held, state.cheapest_costs_if_emptied(cell, cards), strict=True):
            if cost is not None and cost <= can_pay:
                fits += 1
                total += cost
        low, high = state.island_bounds(cell)  # from the other cells: the same once it is empty
        refills = sum(1 for c in in_play if low < c < high)
        value = 10.0 * fits - 0.5 * total + min(refills, 3) + rng.random() * style.noise
        if chosen is None or value > chosen[0]:
            chosen = (value, cell)
    return None if chosen is None else PlayMonster(seat=state.seat, cell=chosen[1])


def _greedy_rocks(state: State, action: Action, live: frozenset[int]) -> Action:
    """Manual Jagged Rocks: move them to the row where they block the fewest placements of
    the islands in hand; keep them, paying two junk cards, when every row they may move to
    blocks at least two more than where they are."""
    if state.rules.rocks != Rocks.MANUAL or state.rocks_row is None or isinstance(action, PlayFinish):
        return action
    after = state.before_rocks(action)
    if not after.rocks_choice_due:
        return action
    held = [c for h in after.hands for c in h if is_island(c)]
    geo = geometry_of(state.rules)

    def blocked(row: int) -> int:
        bounds = [after.island_bounds(c) for c in geo.row_cells(row) if after.grid[c] is None]
        return sum(1 for low, high in bounds for c in held if low < c < high)

    row = min(after.eligible_rock_rows(), key=blocked)
    hand = after.hands[state.seat]
    junk = [c for c in hand if is_junk(c, live, after.start_played)] + _spare_finishes(hand)
    if len(junk) >= 2 and blocked(state.rocks_row) + 2 <= blocked(row):
        return replace(action, rocks=RocksMove(None, tuple(junk[:2])))
    return replace(action, rocks=RocksMove(row))


def plausible_first(state: State, choices: list[Choice], live: frozenset[int]) -> list[Choice]:
    """Choices ordered as the greedy player would rank them (the likeliest wins first)."""
    room = _Room(state, live)

    def rank(choice: Choice) -> float:
        if choice.kind == ChoiceKind.FINISH:
            return -1.0
        if choice.kind != ChoiceKind.ISLAND:
            return 50.0
        misplaced = room.misplacement(choice.island, choice.target)
        if misplaced is None:
            return 100.0
        return state.cost_of(choice) + misplaced

    return sorted(choices, key=rank)


def _reserve(state: State) -> int:
    """Cards the seat to move can spare: what it holds and has still to draw, less one card
    for each turn it will probably still have to take before the grid is full."""
    # Each Sea Monster still to play takes a turn and one more island.
    empty = state.grid.count(None) + 2 * monsters_left(state)
    turns_left = -(-(empty + 1) // state.players)
    seat = state.seat
    return len(state.hand) + len(state.deal.piles[seat]) - state.drawn[seat] - turns_left


class _Room:
    """Along each run of empty cells in reading order, which islands in hands and piles can
    still fill it.

    ``misplacement`` is how far a play sits from where its rank among those islands puts
    it (0 = just right). With order=sequence a play that leaves a side with fewer islands
    than cells is hopeless (None). With order=grid the reading order is only a plan (an
    ascending reading order also ascends every row and column), so breaking it costs a
    penalty instead."""

    OFF_PLAN = 4.0

    def __init__(self, state: State, live: frozenset[int]):
        # Strict with monsters to come too: a sink could reopen a crowded run, but playouts
        # that keep every run fillable win more (measured: 22 against 20 of 36 deals).
        self.strict = state.rules.order == Order.SEQUENCE
        self.available = sorted(live.difference(*_islands_out(state)))
        self.runs = state.reading_runs
        self.pools: dict[tuple[int, int], list[int]] = {}  # (low, high): the available islands between

    def placed(self, plays: Iterable[IslandPlay]) -> list[tuple[int, int, int, float]]:
        """(card, cell, cost, misplacement) of each of ``plays`` that keeps the plan, in
        their order (with order=grid every play does, off the plan at a penalty)."""
        runs, pools, available, strict, off = self.runs, self.pools, self.available, self.strict, self.OFF_PLAN
        found: list[tuple[int, int, int, float]] = []
        asked: tuple[int, tuple[int, int, int, int]] | None = None
        span, ideal = (1, 0), None
        for card, cell, cost in plays:
            run = runs[cell]
            assert run is not None, f"a play into the filled cell {cell}"
            # The plays come card by card, each card's cells in order: a card's span and
            # ideal offset in a run are worked out once.
            if asked is None or asked[0] != card or asked[1] is not run:
                asked = (card, run)
                first, last, low, high = run
                pool = pools.get((low, high))
                if pool is None:
                    pool = pools[low, high] = available[bisect_right(available, low) : bisect_left(available, high)]
                rank, size = bisect_left(pool, card), len(pool)
                # Both sides keep enough islands: at most ``rank`` cells before it, and at
                # most ``size - rank - 1`` after it.
                span = (last - (size - rank - 1), first + rank) if low < card < high else (1, 0)
                ideal = rank * (last - first) / (size - 1) if size > 1 else None  # None: one island
            if not span[0] <= cell <= span[1]:
                if not strict:
                    found.append((card, cell, cost, off))
            elif ideal is None:
                found.append((card, cell, cost, 0.0))
            else:
                found.append((card, cell, cost, abs((cell - run[0]) - ideal) * 0.7))  # Style.room scales this
        return found

    def misplacement(self, card: int, cell: int) -> float | None:
        """How far playing ``card`` into ``cell`` sits from its plan, or None off it."""
        found = self.placed([(card, cell, 0)])
        return found[0][3] if found else None


SCARCE = 16.0  # Sea Monsters: what keeping an island is worth per card of slack its run lacks (of 3)


def _scarcity(state: State, cards: tuple[Card, ...]) -> dict[int, float]:
    """With Sea Monsters in the game, the islands among ``cards`` whose run of empty cells
    has little slack (few more islands left in the hands and piles than cells to fill),
    each with how much more it is worth keeping (``SCARCE`` per card of slack short of 3).
    Paying such an island can leave a cell nothing fits, and then a monster must go to
    reopen it: most lost playouts (removed=8 with monsters=3) lost that way, by a payment,
    a discard or the Start's team discard. Measured on seeds 0-7 at 1, 2 and 4 players, 20
    playouts each (480 per group), with the Start's monster rule below: wins 35 -> 96
    (removed=8 with monsters=3), 140 -> 303 (monsters=3), 115 -> 218 (monsters=5);
    ``SCARCE`` 2, 4, 8, 14, 24 gave 50, 58, 90, 97 and 96 on the first group, a slack
    window of 2 or 5 in place of 3 fewer. Empty without monsters, so the base game's lines
    stay as they were."""
    islands = [c for c in cards if is_island(c)]
    if not state.rules.monsters or not islands:
        return {}
    held = sorted(_every_island(state.rules.islands).difference(*_islands_out(state)))
    worth: dict[int, float] = {}
    for low, high, run in empty_runs(state):
        short = 3 - (bisect_left(held, high) - bisect_right(held, low) - run)
        if short > 0:
            for card in islands:
                if low < card < high:
                    worth[card] = max(worth.get(card, 0.0), SCARCE * short)
    return worth


def _usefulness(state: State, card: Card, live: frozenset[int], scarce: dict[int, float]) -> float:
    """How much a card is worth keeping: lower is discarded first (``scarce``: _scarcity)."""
    if card == MONSTER:
        return 100.0  # a discarded Sea Monster loses the game: paid last of all
    if card == FINISH:
        return 50.0
    if not is_island(card) or card not in live:
        return -1.0
    best = state.cheapest_cost(card)
    return -1.0 if best is None else 40.0 - best + scarce.get(card, 0.0)


def _pick_cheapest(state: State, cards: tuple[Card, ...], k: int, live: frozenset[int]) -> tuple[Card, ...]:
    if k == 0:
        return ()  # most plays are free: nothing to rank
    scarce = _scarcity(state, cards)
    ranked = sorted(cards, key=lambda c: _usefulness(state, c, live, scarce))
    # Keep one Finish card when possible: the team needs one to win (the Sea Monsters,
    # ranked last, stay behind it: every one of them is needed).
    if FINISH in ranked[:k] and cards.count(FINISH) == 1 and len(cards) > k:
        ranked.remove(FINISH)
        ranked.insert(len(ranked) - ranked.count(MONSTER), FINISH)
    return tuple(ranked[:k])


def _paid_island(state: State, card: int, cell: int, cost: int, live: frozenset[int]) -> PlayIsland:
    """Play ``card`` on ``cell`` (a legal island play that costs ``cost``), paying the least
    useful cards."""
    hand = state.hand
    at = hand.index(card)
    rest = hand[:at] + hand[at + 1 :]  # the hand is sorted: so is what is left
    return PlayIsland(seat=state.seat, card=card, cell=cell, discard=_pick_cheapest(state, rest, cost, live))


def _greedy_start(state: State, live: frozenset[int], keeper: FinishKeeper) -> PlayStart:
    """Split the Start event's discards: junk first, then the least useful cards of the
    seats with the most cards left (a seat that runs dry loses the game for everyone)."""
    hands, drawn, owed, _ = state.start_event()
    left = [len(h) + len(state.deal.piles[s]) - drawn[s] for s, h in enumerate(hands)]
    scarce = _scarcity(state, tuple(c for h in hands for c in h))
    worth = {c: _usefulness(state, c, live, scarce) for h in hands for c in h}  # asked again and again below
    pools = [sorted(h, key=worth.__getitem__) for h in hands]
    # Keep one Finish card in hand when the others can pay: it may be the team's last. But
    # never at the price of a Sea Monster: the game has more Finish cards, and no monster
    # to spare (a discarded one loses the game).
    holders = [s for s, h in enumerate(hands) if FINISH in h]
    due = finishing_seat(state) if keeper == FinishKeeper.DUE else None
    kept = due if due in holders else next(iter(holders), None)
    monsters = sum(h.count(MONSTER) for h in hands)
    if kept is not None and sum(len(p) for p in pools) - 1 - monsters >= owed:
        pools[kept].remove(FINISH)
    paid: list[list[Card]] = [[] for _ in hands]
    for _ in range(owed):
        # A seat whose least useful card is a monster pays last (seats draw up after).
        seat = max(
            (s for s in range(len(hands)) if pools[s]),
            key=lambda s: (
                pools[s][0] != MONSTER,
                worth[pools[s][0]] < 0,
                left[s] - len(paid[s]),
            ),
        )
        paid[seat].append(pools[seat].pop(0))
    return PlayStart(seat=state.seat, team_discard=tuple(tuple(p) for p in paid))


def greedy_playout(state: State, rng: random.Random, style: Style) -> tuple[list[Action], State]:
    line: list[Action] = []
    while not state.won and state.status == Status.OPEN:
        live = live_islands(state)
        action = greedy_action(state, rng, live, style)
        state = state.apply(action)
        line.append(action)
    return line, state


def greedy(state: State, deadline: Deadline, stats: SearchStats, seed: int = 0) -> list[Action] | None:
    """Randomised greedy restarts until a win or the deadline; the first playout is plain,
    each later one draws its own weights (``Style.draw``)."""
    rng = random.Random(seed)
    while deadline.tick():
        style = Style.draw(rng, stats.playouts)
        stats.playouts += 1
        line, end = greedy_playout(state, rng, style)
        if end.won:
            return line
    return None


def best_playout(
    state: State,
    count: int,
    seed: int,
    value: Callable[[list[Action], State], float],
    keepers: Iterable[FinishKeeper] = (FinishKeeper.FIRST,),
):
    """``count`` seeded greedy playouts (as ``greedy`` draws them) for each of ``keepers``,
    each series from ``seed`` (so ``FIRST``'s are ``greedy``'s own): the number that win, and
    the winning line with the highest ``value`` (the first on ties), or None."""
    wins, best, best_value = 0, None, None
    for keeper in keepers:
        rng = random.Random(seed)
        for k in range(count):
            line, end = greedy_playout(state, rng, replace(Style.draw(rng, k), keeper=keeper))
            if end.won:
                wins += 1
                v = value(line, end)
                if best_value is None or v > best_value:
                    best, best_value = line, v
    return wins, best


# -- the complete search -------------------------------------------------------------------


def exhaustive(
    state: State,
    deadline: Deadline,
    stats: SearchStats,
    lost: set | None = None,
) -> tuple[str, list[Action] | None]:
    """Depth-first search over canonical states with a transposition table of lost
    positions. Returns ("win", line), ("no-win", None) when the whole tree was refuted,
    or ("unknown", None) when the budget ran out. ``lost`` may be shared between searches
    of the same deal: a lost canonical state is lost whichever line reached it."""
    lost = set() if lost is None else lost
    path: list[Action] = []

    def dfs(s: State) -> bool | None:
        if s.won:
            return True
        node = _node(s, deadline, stats)
        if node is None:
            return None
        live, key = node
        if key in lost:
            stats.cache_hits += 1
            return False
        if refutation(s, live) is not None:
            stats.refuted += 1
            lost.add(key)
            return False
        unknown = False
        for action in _ordered(s, live):
            path.append(action)
            result = dfs(s.apply(action))
            if result:
                return True
            path.pop()
            if result is None:
                unknown = True
                if deadline.expired():
                    return None
        if unknown:
            return None
        lost.add(key)
        return False

    result = dfs(state)
    stats.extra["lost_positions"] = len(lost)
    if result:
        return Verdict.WIN, list(path)
    if result is None:
        return Verdict.UNKNOWN, None
    return Verdict.NO_WIN, None


def _node(state: State, deadline: Deadline, stats: SearchStats) -> tuple[frozenset[int], tuple] | None:
    """Count a search node: its live islands and canonical key, or None when the budget
    has run out."""
    stats.nodes += 1
    if not deadline.tick():
        return None
    live = live_islands(state)
    return live, state_key(state, live)


def _ordered(state: State, live: frozenset[int]) -> list[Action]:
    """Candidate actions, cheapest island plays first (finds wins early)."""
    actions = list(candidate_actions(state, live))

    def rank(a: Action) -> tuple[int, int]:
        # A paid stay of the rocks counts as two more cards paid.
        stay = 2 if a.rocks is not None and a.rocks.row is None else 0
        match a:
            case PlayFinish():
                return (0, 0)
            case PlayIsland():
                return (1, len(a.discard) + stay)
            case PlayStart():
                return (1, stay)
        return (2, stay)

    actions.sort(key=rank)
    return actions
