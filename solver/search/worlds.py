"""Worlds a seat cannot tell apart from the real game: the hidden cards dealt again.

A seat sees the grid, the cards gone, its own hand and the faces of its own discards
(``SeatMemory``). Every other card is somewhere it cannot see: another seat's hand, a
pile (its own pile too), face down on the discard pile, or out of the game (the Islands
module). ``sample_world`` deals those unseen cards into those places at random, keeping
every count the seat knows: each hand and pile size, how many cards each seat has put
face down. Each seat's Start card stays its own: it is still in that seat's hand or pile,
or (once a Start was played) among that seat's discards. The result is a full ``State``
the engine plays on, equal to the real one in everything the seat sees.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace

from tranquility.solver.engine.actions import ChoiceKind
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island, remove_held, sorted_cards
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.observation import Observation
from tranquility.solver.engine.rules import Rocks
from tranquility.solver.engine.state import State
from tranquility.solver.search.memory import SeatMemory, TurnRecord


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
