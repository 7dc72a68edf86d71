"""The lookahead's worlds dealt on the core: search/worlds.py's ``sample_world`` and
``undo_turn`` and the lookahead's ``agreeing_world``, compiled by numba.

A world must be the reference's very world: the same draws from the same generator
(CPython's Mersenne Twister on an array, twister.py), taken in the same order by the same
algorithms (CPython 3.11's ``random.choice``, ``sample``, ``shuffle``, ``random`` and
``getrandbits(32)``), the same cards in the same places, the generator left in the same
state (tests/core/test_world_parity.py). What does not change from world to world (the
unseen cards in ``sorted_cards``' order, how many cards each place holds, whose Start is
still to place, the face-down weights, the other seats' last turns) is worked out once a
decision in Python (search/worlds.py's ``Dealing``) and comes here as arrays.

Cards here are the core's codes (layout.py). The face-down cards, which the core's position
counts but does not name, are counted by card in ``faces``: an island at its number, the
Finish, Sea Monster and Start after the islands (``face``), so that counting them up runs
in ``sorted_cards``' order.

The places, ``P`` (P = players): hand sizes [0:P] (0 for the seat that deals: it knows its
hand), pile sizes [P:2P], each seat's face-down cards since the seat's memory starts
[2P:3P], then ``P_EARLIER`` (face down from before), ``P_OUT`` (out of the game), whether a
Start may lie face down (``P_START_DOWN``) and how many rolls of the Jagged Rocks to deal
(``P_ROLLS``). A turn of the window is a row of ``T_*``: the seat, its island (0 for a
discard), the island's cell, the cards it paid and its pile's size before the turn.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.types import Array, boolean, float64, int64, void
from tranquility.solver.core.kernel import (
    apply,
    drawn_at,
    hand_n_at,
    hands_at,
    insert_into,
    must_play_start,
    new_observation,
    observe,
    remove_from,
)
from tranquility.solver.core.layout import (
    A_CARD,
    A_CELL,
    A_KIND,
    A_PAID,
    A_PAID_N,
    C_START,
    G_DISCARDED,
    G_HEADER,
    G_SEAT,
    G_TURN,
    K_DISCARD,
    K_ISLAND,
    R_HMAX,
    R_ISLANDS,
    R_PLAYERS,
    R_ROCKS,
)
from tranquility.solver.core.silent import act
from tranquility.solver.core.twister import S, below, draw, next_word

I8, B, F8 = int64, boolean, float64
A = Array(int64, 1, "C")
M = Array(int64, 2, "C")
F = Array(float64, 1, "C")

P_EARLIER, P_OUT, P_START_DOWN, P_ROLLS = range(4)  # after the 3P place sizes
T_SEAT, T_CARD, T_CELL, T_PAID, T_PILE = range(5)
T_WIDTH = 5


@njit(I8(A, I8), cache=True)
def face(R, card):
    """Where ``card`` is counted in ``faces``."""
    return card if card > 0 else R[R_ISLANDS] - card


@njit(I8(A, I8), cache=True)
def card_at(R, index):
    return index if index <= R[R_ISLANDS] else R[R_ISLANDS] - index


# -- CPython 3.11's random.Random, on twister.py's generator ---------------------------------


@njit(I8(I8), cache=True)
def set_size(k):
    """``random.sample``'s threshold: 21, plus 4 ** ceil(log(3k, 4)) (the smallest power of 4
    not below 3k, which no power of 4 equals) when k > 5."""
    size = 21
    if k > 5:
        power = 1
        while power < 3 * k:
            power *= 4
        size += power
    return size


@njit(void(S, A, I8, I8, A), cache=True)
def sample(s, population, n, k, result):
    """``random.sample(population[:n], k)`` into ``result[:k]``: a pool drawn down when the
    population is small, else indices drawn again until new."""
    if n <= set_size(k):
        pool = population[:n].copy()
        for i in range(k):
            j = below(s, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
        return
    selected = np.zeros(n, np.bool_)
    for i in range(k):
        j = below(s, n)
        while selected[j]:
            j = below(s, n)
        selected[j] = True
        result[i] = population[j]


@njit(void(S, A, I8, I8), cache=True)
def shuffle(s, x, at, n):
    """``random.shuffle(x[at:at+n])``."""
    for i in range(n - 1, 0, -1):
        j = below(s, i + 1)
        x[at + i], x[at + j] = x[at + j], x[at + i]


@njit(I8(A, I8, I8, I8), cache=True)
def drop(x, at, n, card):
    """``list.remove``: the first ``card`` of ``x[at:at+n]`` taken out, the rest moved up;
    the new count."""
    for k in range(n):
        if x[at + k] == card:
            for j in range(k, n - 1):
                x[at + j] = x[at + j + 1]
            return n - 1
    return n


# -- sample_world --------------------------------------------------------------------------


@njit(void(A, A, A, F, A, A, A, S, A, M, A, A, A), cache=True)
def deal_world(R, G0, pool0, mass, places, starts, own, s, G, piles, pile_n, faces, rolls):
    """``sample_world``: one world into ``G`` (from the public position ``G0``), ``piles``
    (a row a seat, ``pile_n`` long), ``faces`` and ``rolls``. ``mass`` holds each card's
    face-down weight by ``face`` (empty: no weights, every deal as likely)."""
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    at = 3 * players
    earlier, out = places[at + P_EARLIER], places[at + P_OUT]
    # One row of slots: every hand, then every pile, then every seat's face-down cards; 0 is empty.
    begin = np.zeros(3 * players + 1, np.int64)
    for k in range(3 * players):
        begin[k + 1] = begin[k] + places[k]
    slots = np.zeros(begin[3 * players], np.int64)
    for owner in starts:
        spots = places[owner] + places[players + owner]
        if places[at + P_START_DOWN]:
            spots += places[2 * players + owner]
        j = below(s, spots)
        if j < places[owner]:
            slots[begin[owner] + j] = C_START
        elif j < places[owner] + places[players + owner]:
            slots[begin[players + owner] + j - places[owner]] = C_START
        else:
            slots[begin[2 * players + owner] + j - places[owner] - places[players + owner]] = C_START
    pool = pool0.copy()
    n = len(pool)
    islands = np.empty(n, np.int64)
    n_islands = 0
    for card in pool:
        if card > 0:
            islands[n_islands] = card
            n_islands += 1
    gone = np.empty(n, np.int64)
    taken = min(out, n_islands)
    sample(s, islands, n_islands, taken, gone)
    for k in range(taken):
        n = drop(pool, 0, n, gone[k])
    shuffle(s, pool, 0, n)
    first = out - taken  # the rest of the cards out of the game come off the shuffled pool
    n -= first
    down = earlier
    for k in range(begin[2 * players], begin[3 * players]):
        if slots[k] == 0:
            down += 1
    given = np.empty(down, np.int64)
    if len(mass) > 0:  # one by one, each card in proportion to its weight
        left = pool[first : first + n].copy()
        n_left = n
        for i in range(down):
            total = 0.0
            for k in range(n_left):
                total += mass[face(R, left[k])]
            point = draw(s) * total
            j = 0
            while j < n_left - 1 and point >= mass[face(R, left[j])]:
                point -= mass[face(R, left[j])]
                j += 1
            given[i] = left[j]
            for k in range(j, n_left - 1):  # list.pop(j): equal cards may lie at several places
                left[k] = left[k + 1]
            n_left -= 1
        for i in range(down):
            n = drop(pool, first, n, given[i])
    else:
        for i in range(down):
            given[i] = pool[first + i]
        first += down
        n -= down
    faces[:] = own
    for i in range(down):
        faces[face(R, given[i])] += 1
    # The cards fill the empty slots from the end of their list (``_fill``'s pop).
    i = down - 1
    for k in range(begin[2 * players], begin[3 * players]):
        if slots[k] == 0:
            slots[k] = given[i]
            i -= 1
        else:
            faces[face(R, slots[k])] += 1
    i = first + n - 1
    for k in range(begin[2 * players]):
        if slots[k] == 0:
            slots[k] = pool[i]
            i -= 1
    G[:] = G0
    for seat in range(players):
        if places[seat] == 0:
            continue
        h = 0
        for k in range(begin[seat], begin[seat + 1]):
            h = insert_into(G, hands_at(R) + seat * hmax, h, slots[k])
        G[hand_n_at(R) + seat] = h
    for seat in range(players):
        pile_n[seat] = places[players + seat]
        for k in range(pile_n[seat]):
            piles[seat, k] = slots[begin[players + seat] + k]
    for k in range(places[at + P_ROLLS]):
        rolls[k] = next_word(s)


@njit(void(M, A, A, I8, A), cache=True)
def deal_row(piles, pile_n, rolls, n_rolls, D):
    """The core's ``D`` for these piles and rolls (layout.py's ``deal_array``), 0 after them."""
    players = len(pile_n)
    D[:] = 0
    at = players + 1
    D[0] = at
    for seat in range(players):
        for k in range(pile_n[seat]):
            D[at + k] = piles[seat, k]
        at += pile_n[seat]
        D[seat + 1] = at
    for k in range(n_rolls):
        D[at + k] = rolls[k]


# -- undo_turn -----------------------------------------------------------------------------


@njit(B(A, A, M, A, A, A, A, S), cache=True)
def undo(R, G, piles, pile_n, faces, own, turn, s):
    """``undo_turn`` in place: the world before ``turn``, another seat's island play or
    discard, or False when the world cannot hold it (the generator has then drawn what the
    reference draws before it gives up)."""
    if R[R_ROCKS] != 0:
        return False
    seat, hmax = turn[T_SEAT], R[R_HMAX]
    h0, n_at = hands_at(R) + seat * hmax, hand_n_at(R) + seat
    n = G[n_at]
    drawn = turn[T_PILE] - pile_n[seat]
    if drawn < 0 or drawn > n:
        return False
    back = np.empty(drawn, np.int64)
    sample(s, G[h0 : h0 + n].copy(), n, drawn, back)
    returned = np.empty(G[G_DISCARDED], np.int64)
    n_returned = 0
    start = face(R, C_START)
    for index in range(1, len(faces)):
        if index != start:
            for _ in range(faces[index] - own[index]):
                returned[n_returned] = card_at(R, index)
                n_returned += 1
    paid = turn[T_PAID]
    if n_returned < paid:
        return False
    given = np.empty(paid, np.int64)
    sample(s, returned, n_returned, paid, given)
    for k in range(drawn):
        n = remove_from(G, h0, n, back[k])
    if turn[T_CARD] != 0:
        G[G_HEADER + turn[T_CELL]] = 0
        n = insert_into(G, h0, n, turn[T_CARD])
    for k in range(paid):
        n = insert_into(G, h0, n, given[k])
        faces[face(R, given[k])] -= 1
    G[n_at] = n
    size = pile_n[seat]
    for k in range(size - 1, -1, -1):
        piles[seat, k + drawn] = piles[seat, k]
    for k in range(drawn):
        piles[seat, k] = back[k]
    pile_n[seat] = size + drawn
    for other in range(R[R_PLAYERS]):
        G[drawn_at(R) + other] = 0
    G[G_SEAT] = seat
    G[G_TURN] -= 1
    G[G_DISCARDED] -= paid
    return True


# -- agreeing_world --------------------------------------------------------------------------


@njit(B(A, A), cache=True)
def same_public_move(Act, turn):
    """Whether the action looks like ``turn`` to the table: the same kind, island and cell."""
    if Act[A_KIND] == K_ISLAND:
        return Act[A_CARD] == turn[T_CARD] and Act[A_CELL] == turn[T_CELL]
    return Act[A_KIND] == K_DISCARD and turn[T_CARD] == 0


@njit(void(A, F, A, A, F, A, A, A, M, I8, I8, S, M, M, M), cache=True)
def deal_worlds(R, W, G0, pool0, mass, places, starts, own, window, tries, width, s, Gs, Ds, Fs):
    """``len(Gs)`` worlds, each as the lookahead's ``world`` deals it, into the rows of
    ``Gs``, ``Ds`` (0 after the deal) and ``Fs`` (the face-down cards by ``face``). With a
    ``window`` (the other seats' last turns, oldest first): ``agreeing_world``, worlds dealt
    until the policy ``W`` replayed at those seats makes their moves (at most ``tries``)."""
    players = R[R_PLAYERS]
    rows, room = Gs.shape[0], Ds.shape[1]  # no pile outgrows the deal's row
    n_rolls = places[3 * players + P_ROLLS]
    G, past = np.empty_like(G0), np.empty_like(G0)
    piles, past_piles = np.zeros((players, room), np.int64), np.zeros((players, room), np.int64)
    pile_n, past_n = np.zeros(players, np.int64), np.zeros(players, np.int64)
    faces, past_faces = np.empty_like(own), np.empty_like(own)
    rolls = np.zeros(max(n_rolls, 1), np.int64)
    best_G, best_piles, best_n = np.empty_like(G0), np.zeros((players, room), np.int64), np.zeros(players, np.int64)
    best_faces, best_rolls = np.empty_like(own), np.zeros(max(n_rolls, 1), np.int64)
    O = new_observation(R)
    Act = np.zeros(width, np.int64)
    for w in range(rows):
        if window.shape[0] == 0:
            deal_world(R, G0, pool0, mass, places, starts, own, s, Gs[w], piles, pile_n, Fs[w], rolls)
            deal_row(piles, pile_n, rolls, n_rolls, Ds[w])
            continue
        agreed = -1
        done = False
        for _ in range(tries):
            deal_world(R, G0, pool0, mass, places, starts, own, s, G, piles, pile_n, faces, rolls)
            past[:] = G
            past_piles[:, :] = piles
            past_n[:] = pile_n
            past_faces[:] = faces
            undone = True
            for t in range(window.shape[0] - 1, -1, -1):
                if not undo(R, past, past_piles, past_n, past_faces, own, window[t], s):
                    undone = False
                    break
            if not undone:  # a turn the undo cannot take back: the plain belief
                Gs[w, :], Fs[w, :] = G, faces
                deal_row(piles, pile_n, rolls, n_rolls, Ds[w])
                done = True
                break
            deal_row(past_piles, past_n, rolls, n_rolls, Ds[w])
            matched = 0
            for t in range(window.shape[0]):
                if must_play_start(past, R):  # the seat played no Start then: it held none
                    break
                observe(past, Ds[w], R, window[t, T_SEAT], O)
                act(O, R, W, Act)
                if not same_public_move(Act, window[t]):
                    break
                apply(past, Ds[w], R, Act)
                for k in range(Act[A_PAID_N]):
                    past_faces[face(R, Act[A_PAID + k])] += 1
                matched += 1
            if matched == window.shape[0]:
                Gs[w, :], Fs[w, :] = past, past_faces
                done = True
                break
            if matched > agreed:
                agreed = matched
                best_G[:], best_piles[:, :], best_n[:] = G, piles, pile_n
                best_faces[:], best_rolls[:] = faces, rolls
        if not done:
            Gs[w, :], Fs[w, :] = best_G, best_faces
            deal_row(best_piles, best_n, best_rolls, n_rolls, Ds[w])
