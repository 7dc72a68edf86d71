"""The rules of Tranquility on the core's arrays (layout.py), compiled by numba.

A second, fast reading of the rules the engine states (engine/state.py): the legal island
plays with their costs, the other choices, the Start event's rounds, applying an action in
place, and one seat's observation. It is held to the engine by parity tests
(tests/core/): the same choices, costs and next states on every rule set. It checks
nothing: the actions it is given are legal ones, as its policies and the engine make them.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.types import Array, UniTuple, boolean, float64, int64, void
from tranquility.solver.core.layout import (
    A_CARD,
    A_CELL,
    A_KIND,
    A_PAID,
    A_PAID_N,
    A_ROCKS,
    A_ROCKS_PAID,
    A_ROCKS_ROW,
    C_FINISH,
    C_MONSTER,
    C_START,
    G_DISCARDED,
    G_GONE_N,
    G_HEADER,
    G_MONSTERS_PLAYED,
    G_ROCKS_ROW,
    G_ROLLS_USED,
    G_SEAT,
    G_START_PLAYED,
    G_TURN,
    G_WON,
    K_DISCARD,
    K_FINISH,
    K_ISLAND,
    K_MONSTER,
    K_START,
    NEAR_MAX,
    O_DISCARDED,
    O_GONE_N,
    O_HAND_N,
    O_HEADER,
    O_MONSTERS_PLAYED,
    O_ROCKS_ROW,
    O_SEAT,
    O_START_PLAYED,
    O_TO_MOVE,
    R_AFTER,
    R_BEFORE,
    R_CELLS,
    R_COLS,
    R_GONE_MAX,
    R_HAND,
    R_HMAX,
    R_ISLANDS,
    R_LEAVE_ROWS,
    R_MONSTERS,
    R_NEAR,
    R_O_SIZE,
    R_ONE_CARD,
    R_ORDER,
    R_PLAYERS,
    R_ROCKS,
    R_ROWS,
    R_START_DISCARDS,
    ROCKS_MOVE,
    ROCKS_STAY,
)

# The signatures each function is compiled for, once, when the module loads (or read back
# from numba's cache): constants passed as arguments would otherwise compile a copy apiece.
I8, B, F8 = int64, boolean, float64
A = Array(int64, 1, "C")  # R, D, G, O, an action, a hand
M = Array(int64, 2, "C")  # rows of (card, cell, cost); a hand per seat
F = Array(float64, 1, "C")  # the weights, a hand's keep values

BIG = 1 << 20


@njit(I8(I8), cache=True)
def card_key(card):
    """Islands by number, then Finish, Sea Monster, Start (engine/cards.py's order)."""
    if card > 0:
        return card
    return BIG - 1 - card  # Finish -1 -> BIG, Monster -2 -> BIG+1, Start -3 -> BIG+2


# -- where things are in G --------------------------------------------------------------


@njit(I8(A), cache=True)
def grid_at(R):
    return G_HEADER


@njit(I8(A), cache=True)
def hand_n_at(R):
    return G_HEADER + R[R_CELLS]


@njit(I8(A), cache=True)
def hands_at(R):
    return G_HEADER + R[R_CELLS] + R[R_PLAYERS]


@njit(I8(A), cache=True)
def drawn_at(R):
    return G_HEADER + R[R_CELLS] + R[R_PLAYERS] + R[R_PLAYERS] * R[R_HMAX]


@njit(I8(A), cache=True)
def gone_at(R):
    return drawn_at(R) + R[R_PLAYERS]


# -- where things are in O --------------------------------------------------------------


@njit(I8(A), cache=True)
def o_grid(R):
    return O_HEADER


@njit(I8(A), cache=True)
def o_hand_sizes(R):
    return O_HEADER + R[R_CELLS]


@njit(I8(A), cache=True)
def o_pile_sizes(R):
    return O_HEADER + R[R_CELLS] + R[R_PLAYERS]


@njit(I8(A), cache=True)
def o_hand(R):
    return O_HEADER + R[R_CELLS] + 2 * R[R_PLAYERS]


@njit(I8(A), cache=True)
def o_gone(R):
    return o_hand(R) + R[R_HMAX]


# -- hands and piles --------------------------------------------------------------------


@njit(I8(A, I8, I8, I8), cache=True)
def remove_from(cards, at, n, card):
    """Take one ``card`` out of the sorted cards ``cards[at:at+n]``; the new count, or -1."""
    for k in range(n):
        if cards[at + k] == card:
            for j in range(k, n - 1):
                cards[at + j] = cards[at + j + 1]
            cards[at + n - 1] = 0
            return n - 1
    return -1


@njit(I8(A, I8, I8, I8), cache=True)
def insert_into(cards, at, n, card):
    """Put ``card`` into the sorted cards ``cards[at:at+n]``; the new count."""
    key = card_key(card)
    k = n
    while k > 0 and card_key(cards[at + k - 1]) > key:
        cards[at + k] = cards[at + k - 1]
        k -= 1
    cards[at + k] = card
    return n + 1


@njit(B(A, I8, I8, I8), cache=True)
def holds(cards, at, n, card):
    for k in range(n):
        if cards[at + k] == card:
            return True
    return False


@njit(void(A, A, I8, I8), cache=True)
def take(G, R, seat, card):
    """Seat ``seat`` gives up one ``card`` from its hand."""
    at = hand_n_at(R) + seat
    G[at] = remove_from(G, hands_at(R) + seat * R[R_HMAX], G[at], card)


@njit(I8(A, A, A, I8), cache=True)
def pile_left(G, D, R, seat):
    return D[seat + 1] - D[seat] - G[drawn_at(R) + seat]


@njit(void(A, A, A, I8), cache=True)
def draw_up(G, D, R, seat):
    """Draw back up to the hand size from the seat's own pile while cards remain."""
    n_at, at = hand_n_at(R) + seat, hands_at(R) + seat * R[R_HMAX]
    d_at = drawn_at(R) + seat
    while G[n_at] < R[R_HAND] and pile_left(G, D, R, seat) > 0:
        G[n_at] = insert_into(G, at, G[n_at], D[D[seat] + G[d_at]])
        G[d_at] += 1


# -- the grid ----------------------------------------------------------------------------


@njit(void(A, I8, A, A, A), cache=True)
def bounds(grid, g0, R, low, high):
    """``island_bounds`` of every cell of the grid ``grid[g0:]``: the open interval of island
    numbers the order lets the cell hold, from the other cells alone (rule ``order``)."""
    cells, top = R[R_CELLS], R[R_ISLANDS] + 1
    if R[R_ORDER] == 0:
        lo = 0
        for cell in range(cells):
            low[cell] = lo
            v = grid[g0 + cell]
            if v != 0 and v > lo:
                lo = v
        hi = top
        for cell in range(cells - 1, -1, -1):
            high[cell] = hi
            v = grid[g0 + cell]
            if v != 0 and v < hi:
                hi = v
        return
    before, after = R[R_BEFORE], R[R_AFTER]
    for cell in range(cells):
        lo = 0
        for k in range(cells):
            other = R[before + cell * cells + k]
            if other < 0:
                break
            v = grid[g0 + other]
            if v != 0 and v > lo:
                lo = v
        hi = top
        for k in range(cells):
            other = R[after + cell * cells + k]
            if other < 0:
                break
            v = grid[g0 + other]
            if v != 0 and v < hi:
                hi = v
        low[cell], high[cell] = lo, hi


@njit(I8(A, I8, A, I8, I8), cache=True)
def gap(grid, g0, R, card, cell):
    """The cost of ``card`` on ``cell``: the smallest difference to a card on a neighbouring
    cell (rule ``adjacency``), 0 if none."""
    best = -1
    at = R[R_NEAR] + cell * NEAR_MAX
    for k in range(NEAR_MAX):
        other = R[at + k]
        if other < 0:
            break
        v = grid[g0 + other]
        if v != 0:
            d = card - v if card > v else v - card
            if best < 0 or d < best:
                best = d
    return 0 if best < 0 else best


@njit(I8(A, I8, I8, A, I8, I8, A, M), cache=True)
def island_plays(grid, g0, rocks_row, hand, h0, n, R, out):
    """(card, cell, cost) of every legal island play of a seat holding ``hand[h0:h0+n]``,
    cards ascending and each card's cells ascending, into ``out``; how many. The seat pays
    with the rest of its hand, so a play may cost at most ``n - 1``."""
    cells, cols = R[R_CELLS], R[R_COLS]
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    bounds(grid, g0, R, low, high)
    found = 0
    for k in range(n):
        card = hand[h0 + k]
        if card <= 0:
            continue
        for cell in range(cells):
            if grid[g0 + cell] != 0 or (rocks_row >= 0 and cell // cols == rocks_row):
                continue
            if low[cell] < card < high[cell]:
                cost = gap(grid, g0, R, card, cell)
                if cost <= n - 1:
                    out[found, 0], out[found, 1], out[found, 2] = card, cell, cost
                    found += 1
    return found


@njit(I8(A, I8, A), cache=True)
def complete_rows(grid, g0, R):
    rows, cols = R[R_ROWS], R[R_COLS]
    done = 0
    for r in range(rows):
        full = True
        for c in range(cols):
            if grid[g0 + r * cols + c] == 0:
                full = False
                break
        if full:
            done += 1
    return done


@njit(I8(A, I8, I8, A, A), cache=True)
def eligible_rows(grid, g0, rocks_row, R, out):
    """Rows the Jagged Rocks may move to: another row with an empty cell; how many."""
    rows, cols = R[R_ROWS], R[R_COLS]
    n = 0
    for r in range(rows):
        if r == rocks_row:
            continue
        for c in range(cols):
            if grid[g0 + r * cols + c] == 0:
                out[n] = r
                n += 1
                break
    return n


@njit(B(A, I8, A), cache=True)
def grid_full(grid, g0, R):
    for cell in range(R[R_CELLS]):
        if grid[g0 + cell] == 0:
            return False
    return True


@njit(B(A, I8, A), cache=True)
def any_island(grid, g0, R):
    for cell in range(R[R_CELLS]):
        if grid[g0 + cell] != 0:
            return True
    return False


# -- what the seat to move may do ---------------------------------------------------------


@njit(B(A, A), cache=True)
def must_play_start(G, R):
    seat = G[G_SEAT]
    return G[G_START_PLAYED] == 0 and holds(G, hands_at(R) + seat * R[R_HMAX], G[hand_n_at(R) + seat], C_START)


@njit(B(A, A), cache=True)
def out_of_cards(G, R):
    """Rule one_card=lose: a seat beginning its turn with 0 or 1 cards loses."""
    return R[R_ONE_CARD] == 1 and G[hand_n_at(R) + G[G_SEAT]] <= 1


@njit(UniTuple(I8, 2)(A, A, A, M, A, A), cache=True)
def start_rounds(G, D, R, hands, hand_n, drawn):
    """The Start event's payment (engine: ``State.start_rounds``): while the hands together
    hold fewer cards than are owed, every card in hand is discarded and all seats draw back
    up. Fills the last round's ``hands``/``hand_n``/``drawn``; returns (owed, forced), or
    (-1, 0) when hands and piles run dry first."""
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    seat = G[G_SEAT]
    for s in range(players):
        n = G[hand_n_at(R) + s]
        for k in range(n):
            hands[s, k] = G[hands_at(R) + s * hmax + k]
        hand_n[s] = n
        drawn[s] = G[drawn_at(R) + s]
    flat = hands[seat]
    hand_n[seat] = remove_from(flat, 0, hand_n[seat], C_START)
    owed, forced = R[R_START_DISCARDS], 0
    while True:
        held = 0
        for s in range(players):
            held += hand_n[s]
        if held >= owed:
            return owed, forced
        dry = held == 0
        for s in range(players):
            if drawn[s] != D[s + 1] - D[s]:
                dry = False
        if dry:
            return -1, 0
        forced += held
        owed -= held
        for s in range(players):
            hand_n[s] = 0
            while hand_n[s] < R[R_HAND] and drawn[s] < D[s + 1] - D[s]:
                hand_n[s] = insert_into(hands[s], 0, hand_n[s], D[D[s] + drawn[s]])
                drawn[s] += 1


@njit(B(A, A), cache=True)
def finish_allowed(G, R):
    """Finish cards: every cell filled, a Start played and every monster played."""
    return G[G_START_PLAYED] != 0 and grid_full(G, G_HEADER, R) and G[G_MONSTERS_PLAYED] == R[R_MONSTERS]


@njit(B(A, A, A), cache=True)
def is_open(G, D, R):
    """Whether the seat to move has a legal action (the game is neither won nor lost)."""
    if G[G_WON] != 0 or out_of_cards(G, R):
        return False
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    seat = G[G_SEAT]
    h0, n = hands_at(R) + seat * hmax, G[hand_n_at(R) + seat]
    if must_play_start(G, R):
        hands = np.zeros((players, hmax), np.int64)
        hand_n = np.zeros(players, np.int64)
        drawn = np.zeros(players, np.int64)
        return start_rounds(G, D, R, hands, hand_n, drawn)[0] >= 0
    if n >= 2:
        return True
    if holds(G, h0, n, C_FINISH) and finish_allowed(G, R):
        return True
    if holds(G, h0, n, C_MONSTER) and any_island(G, G_HEADER, R):
        return True
    out = np.empty((n * R[R_CELLS] + 1, 3), np.int64)
    return island_plays(G, G_HEADER, G[G_ROCKS_ROW], G, h0, n, R, out) > 0


# -- applying an action -----------------------------------------------------------------


@njit(void(A, A, A, A), cache=True)
def move_rocks(G, D, R, A):
    """Jagged Rocks: after each action the card moves to another row with an empty cell (auto:
    by the deal's next roll; manual: the action's choice, or stay for two cards); it leaves
    the game once enough rows are complete."""
    row = G[G_ROCKS_ROW]
    if row < 0:
        return
    if complete_rows(G, G_HEADER, R) >= R[R_LEAVE_ROWS]:
        G[G_ROCKS_ROW] = -1
        return
    if R[R_ROCKS] == 1:
        rows = np.empty(R[R_ROWS], np.int64)
        n = eligible_rows(G, G_HEADER, row, R, rows)
        rolls_at = D[R[R_PLAYERS]]  # the rolls follow the last pile
        G[G_ROCKS_ROW] = rows[D[rolls_at + G[G_ROLLS_USED]] % n]
        G[G_ROLLS_USED] += 1
        return
    if A[A_ROCKS] == ROCKS_MOVE:
        G[G_ROCKS_ROW] = A[A_ROCKS_ROW]
    elif A[A_ROCKS] == ROCKS_STAY:
        take(G, R, G[G_SEAT], A[A_ROCKS_PAID])
        take(G, R, G[G_SEAT], A[A_ROCKS_PAID + 1])
        G[G_DISCARDED] += 2


@njit(void(A, A, A, A), cache=True)
def apply(G, D, R, A):
    """Play the legal action row ``A`` in place (engine: ``State.apply``)."""
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    seat = G[G_SEAT]
    kind = A[A_KIND]
    if kind == K_FINISH:
        take(G, R, seat, C_FINISH)
        G[G_WON] = 1
        G[G_TURN] += 1
        return
    if kind == K_ISLAND:
        take(G, R, seat, A[A_CARD])
        for k in range(A[A_PAID_N]):
            take(G, R, seat, A[A_PAID + k])
        G[G_HEADER + A[A_CELL]] = A[A_CARD]
        G[G_DISCARDED] += A[A_PAID_N]
    elif kind == K_DISCARD:
        for k in range(A[A_PAID_N]):
            take(G, R, seat, A[A_PAID + k])
        G[G_DISCARDED] += A[A_PAID_N]
    elif kind == K_MONSTER:
        take(G, R, seat, C_MONSTER)
        cell = A[A_CELL]
        n = insert_into(G, gone_at(R), G[G_GONE_N], C_MONSTER)
        G[G_GONE_N] = insert_into(G, gone_at(R), n, G[G_HEADER + cell])
        G[G_HEADER + cell] = 0
        G[G_MONSTERS_PLAYED] += 1
    else:  # the Start: the forced rounds, then the team's split
        hands = np.zeros((players, hmax), np.int64)
        hand_n = np.zeros(players, np.int64)
        drawn = np.zeros(players, np.int64)
        forced = start_rounds(G, D, R, hands, hand_n, drawn)[1]
        paid = 0
        for s in range(players):
            at = A_PAID + hmax + s * (hmax + 1)
            for k in range(A[at]):
                hand_n[s] = remove_from(hands[s], 0, hand_n[s], A[at + 1 + k])
            paid += A[at]
            G[hand_n_at(R) + s] = hand_n[s]
            for k in range(hmax):
                G[hands_at(R) + s * hmax + k] = hands[s, k] if k < hand_n[s] else 0
            G[drawn_at(R) + s] = drawn[s]
        G[G_START_PLAYED] = 1
        G[G_DISCARDED] += forced + paid
    move_rocks(G, D, R, A)
    if kind != K_START:
        draw_up(G, D, R, seat)
    else:
        for s in range(players):
            draw_up(G, D, R, s)
    G[G_SEAT] = (seat + 1) % players
    G[G_TURN] += 1


@njit(I8(A, A, A, A, A, M, A), cache=True)
def before_rocks(G, D, R, Act, grid, hands, hand_n):
    """The grid and hands once ``Act`` is played, before the rocks move and anyone draws
    (engine: ``State.before_rocks``); the Start's flag after it."""
    players, hmax, cells = R[R_PLAYERS], R[R_HMAX], R[R_CELLS]
    seat = G[G_SEAT]
    for c in range(cells):
        grid[c] = G[G_HEADER + c]
    kind = Act[A_KIND]
    if kind == K_START:
        drawn = np.zeros(players, np.int64)
        start_rounds(G, D, R, hands, hand_n, drawn)
        for s in range(players):
            at = A_PAID + hmax + s * (hmax + 1)
            for k in range(Act[at]):
                hand_n[s] = remove_from(hands[s], 0, hand_n[s], Act[at + 1 + k])
        return 1
    for s in range(players):
        hand_n[s] = G[hand_n_at(R) + s]
        for k in range(hmax):
            hands[s, k] = G[hands_at(R) + s * hmax + k]
    hand = hands[seat]
    if kind == K_ISLAND:
        hand_n[seat] = remove_from(hand, 0, hand_n[seat], Act[A_CARD])
        grid[Act[A_CELL]] = Act[A_CARD]
    elif kind == K_MONSTER:
        hand_n[seat] = remove_from(hand, 0, hand_n[seat], C_MONSTER)
        grid[Act[A_CELL]] = 0
    for k in range(Act[A_PAID_N]):
        hand_n[seat] = remove_from(hand, 0, hand_n[seat], Act[A_PAID + k])
    return G[G_START_PLAYED]


# -- what one seat sees -----------------------------------------------------------------


@njit(void(A, A, A, I8, A), cache=True)
def observe(G, D, R, seat, O):
    """Fill ``O`` with what ``seat`` sees of ``G`` (engine: ``observe``): the public part of the
    position and its own hand, nothing else."""
    players, hmax, cells = R[R_PLAYERS], R[R_HMAX], R[R_CELLS]
    O[O_SEAT], O[O_TO_MOVE] = seat, G[G_SEAT]
    O[O_START_PLAYED], O[O_MONSTERS_PLAYED] = G[G_START_PLAYED], G[G_MONSTERS_PLAYED]
    O[O_ROCKS_ROW], O[O_DISCARDED] = G[G_ROCKS_ROW], G[G_DISCARDED]
    for cell in range(cells):
        O[O_HEADER + cell] = G[G_HEADER + cell]
    for s in range(players):
        O[o_hand_sizes(R) + s] = G[hand_n_at(R) + s]
        O[o_pile_sizes(R) + s] = pile_left(G, D, R, s)
    n = G[hand_n_at(R) + seat]
    O[O_HAND_N] = n
    for k in range(hmax):
        O[o_hand(R) + k] = G[hands_at(R) + seat * hmax + k] if k < n else 0
    O[O_GONE_N] = G[G_GONE_N]
    for k in range(R[R_GONE_MAX]):
        O[o_gone(R) + k] = G[gone_at(R) + k]


@njit(A(A), cache=True)
def new_observation(R):
    return np.zeros(R[R_O_SIZE], np.int64)


@njit(I8(A, A, A), cache=True)
def cards_left(G, D, R):
    """Cards still in the hands and the undrawn piles."""
    total = 0
    for s in range(R[R_PLAYERS]):
        total += G[hand_n_at(R) + s] + pile_left(G, D, R, s)
    return total


@njit(I8(A, A), cache=True)
def filled(G, R):
    n = 0
    for cell in range(R[R_CELLS]):
        if G[G_HEADER + cell] != 0:
            n += 1
    return n
