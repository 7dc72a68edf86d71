"""Worlds a seat cannot tell apart from the real game: the hidden cards dealt again.

A seat sees the grid, the cards gone, its own hand and the faces of its own discards
(``SeatMemory``). Every other card is somewhere it cannot see: another seat's hand, a
pile (its own pile too), face down on the discard pile, or out of the game (the Islands
module). ``sample_world`` deals those unseen cards into those places at random, keeping
every count the seat knows: each hand and pile size, how many cards each seat has put
face down. Each seat's Start card stays its own: it is still in that seat's hand or pile,
or (once a Start was played) among that seat's discards. The result is a full ``State``
the engine plays on, equal to the real one in everything the seat sees.

``dealing`` works out what stays the same from world to world of one decision as arrays, and
``deal_on_core`` deals the very same worlds from them on the compiled core (core/worlds.py),
as the core's arrays: the lookahead's worlds once the process has the core.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from tranquility.solver.engine.actions import ChoiceKind
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island, remove_held, sorted_cards
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.observation import Observation
from tranquility.solver.engine.rules import Rocks
from tranquility.solver.engine.state import State
from tranquility.solver.search.compiled import ready
from tranquility.solver.search.memory import SeatMemory, TurnRecord

if TYPE_CHECKING:  # numpy and the core load only when the core deals: the quick commands never import them
    import numpy as np
    from tranquility.solver.core.layout import RulesArray


@dataclass(frozen=True)
class Places:
    """Where the unseen cards go: how many each place holds, as the seat knows it."""

    hands: tuple[int, ...]  # cards in each hand the seat cannot see (0 for its own)
    piles: tuple[int, ...]  # cards left in each pile
    discards: tuple[int, ...]  # each other seat's face-down cards (0 for its own: it knows them)
    earlier: int  # face-down cards from before the seat's memory begins
    out: int  # islands out of the game (the Islands module), or face down from before


def unseen_cards(memory: SeatMemory, obs: Observation) -> Counter[Card]:
    """Every card of the game the seat has not seen where it is now."""
    rules = obs.rules
    cards: Counter[Card] = Counter(range(1, rules.islands + 1))
    cards[START] = obs.players - obs.start_played  # the played Start card left the game
    cards[FINISH] = rules.finish
    cards[MONSTER] = rules.monsters
    cards.subtract(v for v in obs.grid if v is not None)
    cards.subtract(obs.gone)
    cards.subtract(obs.hand)
    cards.subtract(memory.own_discards)
    if any(n < 0 for n in cards.values()):
        raise ValueError(f"seat {obs.seat}'s memory holds a card twice")
    return +cards


def places(memory: SeatMemory, obs: Observation, unseen: int) -> Places:
    seat = obs.seat
    discards = tuple(0 if s == seat else memory.discarded_by(s) for s in range(obs.players))
    hands = tuple(0 if s == seat else n for s, n in enumerate(obs.hand_sizes))
    earlier = obs.discarded - len(memory.own_discards) - sum(discards)
    out = unseen - sum(hands) - sum(obs.pile_sizes) - sum(discards) - earlier
    if earlier < 0 or out < 0:
        raise ValueError(f"seat {seat}'s memory does not match the table's counts")
    return Places(hands, obs.pile_sizes, discards, earlier, out)


def sample_world(memory: SeatMemory, obs: Observation, rng: random.Random, weights: Mapping[Card, float] | None = None) -> State:
    """One world consistent with what ``obs.seat`` has seen, the hidden cards dealt by ``rng``.

    ``weights`` (by card; 1 if absent) lean the face-down places towards some cards: a card
    goes face down in proportion to its weight (drawn without replacement). Without them
    every deal that fits the counts is equally likely."""
    players, seat = obs.players, obs.seat
    unseen = unseen_cards(memory, obs)
    slots = places(memory, obs, sum(unseen.values()))
    # Each place as a list of slots to fill; a seat's Start goes first, into one of its own.
    hands: list[list[Card | None]] = [[None] * n for n in slots.hands]
    piles: list[list[Card | None]] = [[None] * n for n in slots.piles]
    discards: list[list[Card | None]] = [[None] * n for n in slots.discards]
    starts = _unplaced_starts(memory, obs)
    unseen[START] -= len(starts)
    for owner in starts:
        spots = [(hands[owner], i) for i in range(len(hands[owner]))]
        spots += [(piles[owner], i) for i in range(len(piles[owner]))]
        if obs.start_played:  # a dead Start may have been given away
            spots += [(discards[owner], i) for i in range(len(discards[owner]))]
        if not spots:
            raise ValueError(f"seat {owner}'s Start card has nowhere to be")
        place, i = rng.choice(spots)
        place[i] = START
    pool = list(sorted_cards(unseen.elements()))  # one order before shuffling, on every machine
    # The islands out of the game come first, from the unseen islands (then, for a line
    # that starts in the middle, whatever else was already face down).
    islands = [c for c in pool if is_island(c)]
    out: list[Card] = rng.sample(islands, min(slots.out, len(islands)))
    for card in out:
        pool.remove(card)
    rng.shuffle(pool)
    short = slots.out - len(out)
    out += pool[:short]
    pool = pool[short:]
    down = slots.earlier + sum(held is None for place in discards for held in place)
    given = _draw(pool, down, weights, rng) if weights is not None else pool[:down]
    for card in given:
        pool.remove(card)
    earlier = given[: slots.earlier]
    _fill(discards, given[slots.earlier :])
    _fill([*hands, *piles], pool)
    world_hands = tuple(obs.hand if s == seat else sorted_cards(_filled(hands[s])) for s in range(players))
    face_down = memory.own_discards + tuple(earlier) + tuple(c for d in discards for c in _filled(d))
    world_piles = tuple(tuple(_filled(p)) for p in piles)
    rolls: tuple[int, ...] = ()
    if obs.rules.rocks == Rocks.AUTO and obs.rocks_row is not None:
        # The future rolls are unknown too: one per action that can still come.
        rolls = tuple(rng.getrandbits(32) for _ in range(sum(obs.hand_sizes) + sum(obs.pile_sizes) + players))
    # The seat's view holds every public field already; the world fills in the hidden cards.
    return replace(
        obs.view,
        deal=Deal(
            rules=obs.rules,
            piles=world_piles,
            removed_islands=tuple(sorted(c for c in out if is_island(c))),
            rocks_row=obs.rocks_row,
            rocks_rolls=rolls,
        ),
        hands=world_hands,
        seat=obs.to_move,
        discarded=sorted_cards(face_down),
    )


def open_world(state: State, rng: random.Random) -> State:
    """One world the open-hands mind (lookahead.py's ``OpenHands``) cannot tell apart from
    ``state``: it sees every hand, the grid, the cards gone and the face-down ones (each left
    a hand it saw), so those stay as they are; the undrawn cards and the islands out of the
    game (the Islands module) are dealt again by ``rng``, every pile keeping its size. A
    seat's undrawn Start stays in its own pile (where it must be, since the mind sees it
    nowhere else), and the automatic Jagged Rocks' future rolls are drawn again. The piles'
    order never reaches the world: the cards are gathered in one sorted order first."""
    players = state.players
    piles: list[list[Card | None]] = [[None] * len(state.pile(s)) for s in range(players)]
    hidden: Counter[Card] = Counter(state.deal.removed_islands)
    for seat in range(players):
        hidden.update(state.pile(seat))
    for seat in range(players):
        if START in state.pile(seat):  # a Start is dealt into its owner's pile only
            hidden[START] -= 1
            piles[seat][rng.randrange(len(piles[seat]))] = START
    pool = list(sorted_cards(hidden.elements()))  # one order before shuffling, whatever the piles' order
    islands = [c for c in pool if is_island(c)]
    out: list[int] = rng.sample(islands, len(state.deal.removed_islands))
    for card in out:
        pool.remove(card)
    rng.shuffle(pool)
    _fill(piles, pool)
    rolls: tuple[int, ...] = ()
    if state.rules.rocks == Rocks.AUTO and state.rocks_row is not None:
        rolls = tuple(rng.getrandbits(32) for _ in range(state.cards_left + players))  # one per action that can still come
    world_deal = Deal(
        rules=state.rules,
        piles=tuple(tuple(_filled(p)) for p in piles),
        removed_islands=tuple(sorted(out)),
        rocks_row=state.rocks_row,
        rocks_rolls=rolls,
    )
    return replace(state, deal=world_deal, drawn=(0,) * players, rolls_used=0)


def _unplaced_starts(memory: SeatMemory, obs: Observation) -> list[int]:
    """The seats whose Start card the seat has not seen: its own if not in its hand, not
    played and not among its discards; every other seat's unless that seat played it."""
    played = memory.start_player()
    if obs.start_played and played is None:
        return []  # played before the seat's memory begins: whose it was is not known
    mine_seen = START in obs.hand or START in memory.own_discards or played == obs.seat
    return [s for s in range(obs.players) if s != played and (s != obs.seat or not mine_seen)]


def _draw(pool: list[Card], k: int, weights: Mapping[Card, float], rng: random.Random) -> list[Card]:
    """``k`` cards of ``pool`` drawn one by one, each in proportion to its weight (sums and
    products only: the same draw on every machine)."""
    left = list(pool)
    drawn = []
    for _ in range(k):
        mass = [weights.get(c, 1.0) for c in left]
        point = rng.random() * sum(mass)
        at = 0
        while at < len(left) - 1 and point >= mass[at]:
            point -= mass[at]
            at += 1
        drawn.append(left.pop(at))
    return drawn


def _fill(places: list[list[Card | None]], cards: list[Card]) -> None:
    """Put ``cards`` in order into the empty slots of ``places``, which they fill exactly."""
    cards = list(cards)
    for place in places:
        for i, held in enumerate(place):
            if held is None:
                place[i] = cards.pop()
    assert not cards, "the unseen cards and the places to put them do not match"


def _filled(place: list[Card | None]) -> list[Card]:
    cards = [c for c in place if c is not None]
    assert len(cards) == len(place), "a place was left unfilled"
    return cards


def undo_turn(world: State, record: TurnRecord, own_discards: Counter[Card], rng: random.Random) -> State | None:
    """``world`` as it was before ``record``'s turn, another seat's island play or discard:
    the cards it drew since go back on top of its pile (which ones of its hand: at random),
    the cards it paid go back to its hand (at random among the face-down cards the seat
    that samples did not put down itself), and its island leaves the grid. None when the
    world cannot hold that turn (its hand too small, too few face-down cards to return) or
    the turn is another kind (the Start event, a Sea Monster), or the rocks are in play."""
    seat = record.seat
    if record.kind not in (ChoiceKind.ISLAND, ChoiceKind.DISCARD) or world.rules.rocks != Rocks.OFF:
        return None
    hand = list(world.hands[seat])
    pile = world.pile(seat)
    drawn = record.piles[seat] - len(pile)
    if not 0 <= drawn <= len(hand):
        return None
    back = rng.sample(hand, drawn)  # the cards drawn after the turn, in the order they were drawn
    for card in back:
        hand.remove(card)
    returned = Counter(world.discarded) - own_discards
    del returned[START]  # a dead Start face down is its owner's: never another seat's payment
    if returned.total() < record.discards[seat]:
        return None
    paid = rng.sample(sorted_cards(returned.elements()), record.discards[seat])
    grid = list(world.grid)
    if record.card is not None and record.cell is not None:
        grid[record.cell] = None
        hand.append(record.card)
    piles = [world.pile(s) for s in range(world.players)]  # what is left to draw, as ``drawn`` is reset
    piles[seat] = tuple(back) + pile
    hands = list(world.hands)
    hands[seat] = sorted_cards(hand + paid)
    return replace(
        world,
        deal=replace(world.deal, piles=tuple(piles)),
        grid=tuple(grid),
        hands=tuple(hands),
        drawn=(0,) * world.players,
        seat=seat,
        turn=world.turn - 1,
        discarded=sorted_cards(remove_held(world.discarded, paid)),
    )


# -- the same worlds, dealt on the compiled core (core/worlds.py) --------------------------------

CORE_WORLDS = "tranquility.solver.core.worlds"


@dataclass(frozen=True)
class Dealt:
    """Worlds as the core's arrays, one row each: positions ``Gs`` and deals ``Ds`` (0 after
    the deal) for the table ``tab``, and each world's face-down cards counted by card
    (core/worlds.py's ``face``)."""

    tab: RulesArray
    Gs: np.ndarray
    Ds: np.ndarray
    faces: np.ndarray

    def __len__(self) -> int:
        return len(self.Gs)


@dataclass(frozen=True)
class Dealing:
    """What stays the same from world to world of one decision, as the core reads it
    (core/worlds.py's ``deal_worlds``)."""

    tab: RulesArray
    G0: np.ndarray  # the public position, the seat's own hand, the other hands empty
    pool: np.ndarray  # the unseen cards, but the Starts placed first, in sorted_cards' order
    mass: np.ndarray  # each card's face-down weight, by face (empty: no weights)
    places: np.ndarray  # each place's size and the other counts (core/worlds.py's P_*)
    starts: np.ndarray  # the seats whose Start goes into one of their own places
    own: np.ndarray  # the seat's own face-down cards, by face
    window: np.ndarray  # the turns to agree with, oldest first, one T_* row each
    room: int  # a deal's row: the piles as the window's turns are taken back, and the rolls


def dealing(
    memory: SeatMemory, obs: Observation, weights: Mapping[Card, float] | None, window: tuple[TurnRecord, ...]
) -> Dealing:
    """``sample_world``'s (and ``undo_turn``'s) counts for ``memory`` and ``obs``, worked out once."""
    import numpy as np
    from tranquility.solver.core.layout import code, position_array, table

    rules, players, seat = obs.rules, obs.players, obs.seat
    unseen = unseen_cards(memory, obs)
    slots = places(memory, obs, sum(unseen.values()))
    starts = _unplaced_starts(memory, obs)
    for owner in starts:
        if not slots.hands[owner] + slots.piles[owner] + (slots.discards[owner] if obs.start_played else 0):
            raise ValueError(f"seat {owner}'s Start card has nowhere to be")
    unseen[START] -= len(starts)
    grows = Counter[int]()  # a hand taken back through the window's turns holds their cards again
    for record in window:
        grows[record.seat] += record.discards[record.seat] + 1
    hmax = max(rules.hand, *(n + grows[s] for s, n in enumerate(obs.hand_sizes)))
    tab = table(rules, players, hmax)
    faces = rules.islands + 4

    def face(card: Card) -> int:
        number = code(card)
        return number if number > 0 else rules.islands - number

    mass = np.ones(faces if weights is not None else 0, np.float64)
    for card, weight in (weights or {}).items():
        mass[face(card)] = weight
    own = np.zeros(faces, np.int64)
    for card in memory.own_discards:
        own[face(card)] += 1
    rolls = 0
    if rules.rocks == Rocks.AUTO and obs.rocks_row is not None:
        rolls = sum(obs.hand_sizes) + sum(obs.pile_sizes) + players
    counts = [*slots.hands, *slots.piles, *slots.discards, slots.earlier, slots.out, int(obs.start_played), rolls]
    turns = [
        (r.seat, 0 if r.card is None else code(r.card), -1 if r.cell is None else r.cell, r.discards[r.seat], r.piles[r.seat])
        for r in window
    ]
    public = replace(obs.view, hands=tuple(obs.hand if s == seat else () for s in range(players)), seat=obs.to_move)
    return Dealing(
        tab=tab,
        G0=position_array(tab, public),
        pool=np.array([code(c) for c in sorted_cards(unseen.elements())], np.int64),
        mass=mass,
        places=np.array(counts, np.int64),
        starts=np.array(starts, np.int64),
        own=own,
        window=np.array(turns, np.int64).reshape(len(turns), 5),
        room=players + 1 + sum(obs.pile_sizes) + len(window) * hmax + rolls,
    )


def deal_on_core(plan: Dealing, state: np.ndarray, count: int, tries: int, policy: str, blueprint: Any = None) -> Dealt:
    """``count`` worlds of ``plan``, dealt from the generator ``state`` (twister.py's array,
    advanced in place) as ``count`` calls of the lookahead's ``world`` deal them from a
    ``random.Random`` in that state; ``policy`` (the core's name, with tuned's ``blueprint``
    weights) is replayed at the other seats of the window."""
    import numpy as np
    from tranquility.solver.core.games import weights_vector
    from tranquility.solver.core.worlds import deal_worlds

    tab = plan.tab
    Gs = np.zeros((count, len(plan.G0)), np.int64)
    Ds = np.zeros((count, plan.room), np.int64)
    faces = np.zeros((count, len(plan.own)), np.int64)
    W, p = weights_vector(policy, blueprint), plan
    deal_worlds(tab.R, W, p.G0, p.pool, p.mass, p.places, p.starts, p.own, p.window, tries, tab.width, state, Gs, Ds, faces)
    return Dealt(tab, Gs, Ds, faces)


def worlds_on_core() -> bool:
    """Whether the core deals the worlds: on CPython 3.11, whose ``random`` and ``sum`` it
    follows draw for draw (3.12 adds floats another way), once the process has it loaded
    (search/compiled.py: never with TRANQUILITY_CORE=off)."""
    return sys.version_info[:2] == (3, 11) and ready(CORE_WORLDS)
