"""The greedy solver's randomised playouts (search/greedy.py) on the core's arrays, compiled by numba.

The same judgements as the reference, in the same order of arithmetic and of random draws
(from CPython's generator, twister.py), so that a seed gives the reference's line action for
action (tests/core/test_greedy_parity.py). Unlike the silent policies the solver sees the
whole game: it reads ``G`` and the deal ``D``. A style is five numbers (``Y_*``): the
reference's ``Style`` with its Finish keeper as 0 (first) or 1 (due).

Each position is read once (``Look``): the cells' bounds, the islands still in the hands and
piles, the live ones, the runs of empty cells in reading order; the decisions read that.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.types import Tuple, void
from tranquility.solver.core.kernel import (
    F8,
    I8,
    A,
    B,
    F,
    M,
    any_island,
    apply,
    before_rocks,
    bounds,
    complete_rows,
    drawn_at,
    eligible_rows,
    finish_allowed,
    gap,
    hand_n_at,
    hands_at,
    holds,
    is_open,
    island_plays,
    must_play_start,
    remove_from,
    start_rounds,
)
from tranquility.solver.core.layout import (
    A_CARD,
    A_CELL,
    A_KIND,
    A_PAID,
    A_PAID_N,
    A_ROCKS,
    A_ROCKS_PAID,
    A_ROCKS_ROW,
    A_SEAT,
    C_FINISH,
    C_MONSTER,
    C_START,
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
    R_CELLS,
    R_COLS,
    R_HMAX,
    R_ISLANDS,
    R_LEAVE_ROWS,
    R_MONSTERS,
    R_ORDER,
    R_PLAYERS,
    R_ROCKS,
    R_ROWS,
    ROCKS_MOVE,
    ROCKS_STAY,
    actions_of,
    card_of,
    deal_array,
    g_offsets,
    position_array,
    table,
)
from tranquility.solver.core.silent import clear, count_between
from tranquility.solver.core.twister import S, draw, uniform
from tranquility.solver.engine.actions import Action
from tranquility.solver.engine.cards import FINISH, START, sorted_cards
from tranquility.solver.engine.state import State

# A style's slots (search/greedy.py's Style).
Y_NOISE, Y_ROOM, Y_ECONOMY, Y_DEAR, Y_KEEPER = range(5)
Y_SIZE = 5
KEEP_DUE = 1

NEARLY_FREE = 0.5  # the reference's constants (search/greedy.py)
OFF_PLAN = 4.0
SCARCE = 16.0

# A position's reading: every cell's bounds (low, high); the islands in the hands and piles
# (ascending) and how many; the live ones (a mark per number); those both held and live, and
# how many; each cell's run of empty cells in reading order (first, last, low, high).
LOOK = Tuple((A, A, A, I8, A, A, I8, A, A, A, A))


@njit(LOOK(A, A, A), cache=True)
def look(G, D, R):
    cells, islands, players, hmax = R[R_CELLS], R[R_ISLANDS], R[R_PLAYERS], R[R_HMAX]
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    bounds(G, G_HEADER, R, low, high)
    mark = np.zeros(islands + 2, np.int64)
    for s in range(players):
        h0 = hands_at(R) + s * hmax
        for k in range(G[hand_n_at(R) + s]):
            if G[h0 + k] > 0:
                mark[G[h0 + k]] = 1
        for k in range(D[s] + G[drawn_at(R) + s], D[s + 1]):
            if D[k] > 0:
                mark[D[k]] = 1
    # Live (bounds.live_islands): every island while a Sea Monster is still to come, else
    # those fitting an empty cell's bounds (the rocks' row too).
    live = np.zeros(islands + 2, np.int64)
    if G[G_MONSTERS_PLAYED] < R[R_MONSTERS]:
        live[1 : islands + 1] = 1
    else:
        for cell in range(cells):
            if G[G_HEADER + cell] == 0:
                for c in range(low[cell] + 1, high[cell]):
                    live[c] = 1
    held = np.empty(islands + 1, np.int64)
    held_live = np.empty(islands + 1, np.int64)
    n_held = n_live = 0
    for c in range(1, islands + 1):
        if mark[c]:
            held[n_held] = c
            n_held += 1
            if live[c]:
                held_live[n_live] = c
                n_live += 1
    first = np.zeros(cells, np.int64)
    last = np.zeros(cells, np.int64)
    r_low = np.zeros(cells, np.int64)
    r_high = np.zeros(cells, np.int64)
    start, lo = -1, 0
    for cell in range(cells + 1):
        v = G[G_HEADER + cell] if cell < cells else islands + 1
        if v == 0:
            if start < 0:
                start = cell
            continue
        if start >= 0:
            for c in range(start, cell):
                first[c], last[c], r_low[c], r_high[c] = start, cell - 1, lo, v
            start = -1
        lo = v
    return low, high, held, n_held, live, held_live, n_live, first, last, r_low, r_high


@njit(I8(A, A, A, A, I8), cache=True)
def cheapest(G, R, low, high, card):
    """placements.cheapest_cost: the least cost of ``card`` on an empty cell out of the
    rocks' row, on the grid ``G`` with the bounds ``low``/``high``; -1 if it fits nowhere."""
    cols, rocks = R[R_COLS], G[G_ROCKS_ROW]
    best = -1
    for cell in range(R[R_CELLS]):
        if G[G_HEADER + cell] == 0 and (rocks < 0 or cell // cols != rocks) and low[cell] < card < high[cell]:
            cost = gap(G, G_HEADER, R, card, cell)
            if best < 0 or cost < best:
                best = cost
    return best


@njit(void(A, A, A, I8, A, I8, I8, I8, I8, I8, F), cache=True)
def run_worth(G, R, held, n_held, cards, c0, n, line, n_line, step, worth):
    """``_scarcity`` along one line of cells (``line + k * step``): each maximal run of empty
    cells raises the worth of the islands among ``cards`` that fit between its ends."""
    lo, run = 0, 0
    for k in range(n_line + 1):
        v = G[G_HEADER + line + k * step] if k < n_line else R[R_ISLANDS] + 1
        if v == 0:
            run += 1
            continue
        if run:
            short = 3 - (count_between(held, n_held, lo, v) - run)
            if short > 0:
                for j in range(n):
                    card = cards[c0 + j]
                    if lo < card < v and worth[card] < SCARCE * short:
                        worth[card] = SCARCE * short
        lo, run = v, 0


@njit(F(A, A, A, I8, A, I8, I8), cache=True)
def scarcity(G, R, held, n_held, cards, c0, n):
    """search/greedy.py's ``_scarcity``: what keeping each island among ``cards`` is worth
    more, by island number (0 for most)."""
    worth = np.zeros(R[R_ISLANDS] + 2, np.float64)
    any_card = False
    for j in range(n):
        if cards[c0 + j] > 0:
            any_card = True
    if R[R_MONSTERS] == 0 or not any_card:
        return worth
    rows, cols = R[R_ROWS], R[R_COLS]
    if R[R_ORDER] == 0:
        run_worth(G, R, held, n_held, cards, c0, n, 0, R[R_CELLS], 1, worth)
        return worth
    for r in range(rows):
        run_worth(G, R, held, n_held, cards, c0, n, r * cols, cols, 1, worth)
    for c in range(cols):
        run_worth(G, R, held, n_held, cards, c0, n, c, rows, cols, worth)
    return worth


@njit(F8(A, A, LOOK, F, I8), cache=True)
def usefulness(G, R, lk, worth, card):
    """search/greedy.py's ``_usefulness``: lower is paid first."""
    if card == C_MONSTER:
        return 100.0
    if card == C_FINISH:
        return 50.0
    if card <= 0 or lk[4][card] == 0:
        return -1.0
    best = cheapest(G, R, lk[0], lk[1], card)
    if best < 0:
        return -1.0
    return 40.0 - best + worth[card]


@njit(A(F, A, I8, I8), cache=True)
def ranked(values, cards, c0, n):
    """``cards[c0:c0+n]`` sorted by ``values`` (stable)."""
    order = np.arange(n)
    for i in range(1, n):
        j = i
        while j > 0 and values[order[j - 1]] > values[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = cards[c0 + order[i]]
    return out


@njit(void(A, A, LOOK, A, I8, I8, I8, A, I8), cache=True)
def pick_cheapest(G, R, lk, cards, c0, n, k, out, o0):
    """search/greedy.py's ``_pick_cheapest``: the ``k`` least useful of ``cards[c0:c0+n]``
    into ``out[o0:]``, one Finish card kept when another can pay."""
    if k == 0:
        return
    worth = scarcity(G, R, lk[2], lk[3], cards, c0, n)
    values = np.empty(n, np.float64)
    finishes = 0
    for j in range(n):
        values[j] = usefulness(G, R, lk, worth, cards[c0 + j])
        if cards[c0 + j] == C_FINISH:
            finishes += 1
    order = ranked(values, cards, c0, n)
    at = -1
    for j in range(k):
        if order[j] == C_FINISH:
            at = j
    if at >= 0 and finishes == 1 and n > k:
        # Behind every card but the Sea Monsters (ranked last).
        to = n - 1
        while to > 0 and order[to] == C_MONSTER:
            to -= 1
        for j in range(at, to):
            order[j] = order[j + 1]
        order[to] = C_FINISH
    for j in range(k):
        out[o0 + j] = order[j]


@njit(I8(A, A, A, I8, I8, F), cache=True)
def reserve(G, D, R, seat, n, style):
    """search/greedy.py's ``_reserve``: cards the seat can spare."""
    empty = 0
    for cell in range(R[R_CELLS]):
        if G[G_HEADER + cell] == 0:
            empty += 1
    empty += 2 * (R[R_MONSTERS] - G[G_MONSTERS_PLAYED])
    players = R[R_PLAYERS]
    turns_left = (empty + 1 + players - 1) // players
    return n + (D[seat + 1] - D[seat]) - G[drawn_at(R) + seat] - turns_left


@njit(I8(A, A, LOOK, S, F, B, F8, A), cache=True)
def sink(G, R, lk, rng, style, scored, best, hand_n):
    """search/greedy.py's ``_greedy_sink``: the cell whose island a Sea Monster sinks, or -1
    to play an island. ``hand_n``: each seat's hand size once the monster is played."""
    cells, cols, players, hmax = R[R_CELLS], R[R_COLS], R[R_PLAYERS], R[R_HMAX]
    if scored and best <= NEARLY_FREE:
        for cell in range(cells):
            if G[G_HEADER + cell] == 0:
                return -1
    held, n_held = lk[2], lk[3]
    low, high = lk[0], lk[1]
    grid = np.empty(cells, np.int64)
    low2 = np.empty(cells, np.int64)
    high2 = np.empty(cells, np.int64)
    rocks = G[G_ROCKS_ROW]
    chosen, chosen_value = -1, 0.0
    for cell in range(cells):
        if G[G_HEADER + cell] == 0:
            continue
        for c in range(cells):
            grid[c] = G[G_HEADER + c]
        grid[cell] = 0
        bounds(grid, 0, R, low2, high2)
        fits = total = 0
        for s in range(players):
            h0 = hands_at(R) + s * hmax
            for k in range(G[hand_n_at(R) + s]):
                card = G[h0 + k]
                if card <= 0:
                    continue
                cost = -1
                for e in range(cells):
                    if grid[e] == 0 and (rocks < 0 or e // cols != rocks) and low2[e] < card < high2[e]:
                        g = gap(grid, 0, R, card, e)
                        if cost < 0 or g < cost:
                            cost = g
                if cost >= 0 and cost <= hand_n[s] - 1:
                    fits += 1
                    total += cost
        refills = count_between(held, n_held, low[cell], high[cell])
        refills = refills if refills > 0 else 0
        value = 10.0 * fits - 0.5 * total + (refills if refills < 3 else 3) + draw(rng) * style[Y_NOISE]
        if chosen < 0 or value > chosen_value:
            chosen, chosen_value = cell, value
    return chosen


@njit(I8(A, A, A, A, M, A, I8), cache=True)
def blocked(grid, R, low, high, hands, hand_n, row):
    """Placements of the islands in ``hands`` that the rocks on ``row`` block (``low`` and
    ``high``: the grid's bounds)."""
    cols = R[R_COLS]
    count = 0
    for cell in range(row * cols, (row + 1) * cols):
        if grid[cell] != 0:
            continue
        for s in range(hands.shape[0]):
            for k in range(hand_n[s]):
                c = hands[s, k]
                if c > 0 and low[cell] < c < high[cell]:
                    count += 1
    return count


@njit(void(A, A, A, LOOK, A), cache=True)
def with_rocks(G, D, R, lk, Act):
    """search/greedy.py's ``_greedy_rocks``: manual Jagged Rocks move to the row where they
    block the fewest placements of the islands in hand, or stay for two junk cards when every
    row blocks at least two more than theirs."""
    if R[R_ROCKS] != 2 or G[G_ROCKS_ROW] < 0 or Act[A_KIND] == K_FINISH:
        return
    players, hmax, cells = R[R_PLAYERS], R[R_HMAX], R[R_CELLS]
    grid = np.empty(cells, np.int64)
    hands = np.zeros((players, hmax), np.int64)
    hand_n = np.zeros(players, np.int64)
    start_played = before_rocks(G, D, R, Act, grid, hands, hand_n)
    if complete_rows(grid, 0, R) >= R[R_LEAVE_ROWS]:
        return
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    bounds(grid, 0, R, low, high)
    rows = np.empty(R[R_ROWS], np.int64)
    n_rows = eligible_rows(grid, 0, G[G_ROCKS_ROW], R, rows)
    row, fewest = -1, 0
    for i in range(n_rows):
        b = blocked(grid, R, low, high, hands, hand_n, rows[i])
        if row < 0 or b < fewest:
            row, fewest = rows[i], b
    seat = G[G_SEAT]
    live = lk[4]
    junk = np.empty(hmax + 2, np.int64)
    n_junk = finishes = 0
    for k in range(hand_n[seat]):
        c = hands[seat, k]
        if (c > 0 and live[c] == 0) or (c == C_START and start_played != 0):
            junk[n_junk] = c
            n_junk += 1
        elif c == C_FINISH:
            finishes += 1
    for _ in range(finishes - 1):
        junk[n_junk] = C_FINISH
        n_junk += 1
    if n_junk >= 2 and blocked(grid, R, low, high, hands, hand_n, G[G_ROCKS_ROW]) + 2 <= fewest:
        Act[A_ROCKS] = ROCKS_STAY
        Act[A_ROCKS_PAID], Act[A_ROCKS_PAID + 1] = junk[0], junk[1]
    else:
        Act[A_ROCKS] = ROCKS_MOVE
        Act[A_ROCKS_ROW] = row


@njit(void(A, A, A, LOOK, F, A), cache=True)
def start(G, D, R, lk, style, Act):
    """search/greedy.py's ``_greedy_start``: the team discard, junk first, then the least
    useful cards of the seats with the most cards left, one Finish kept when the rest can pay
    (its rocks move aside)."""
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    hands = np.zeros((players, hmax), np.int64)
    hand_n = np.zeros(players, np.int64)
    drawn = np.zeros(players, np.int64)
    owed = start_rounds(G, D, R, hands, hand_n, drawn)[0]
    left = np.empty(players, np.int64)
    total_cards = 0
    for s in range(players):
        left[s] = hand_n[s] + D[s + 1] - D[s] - drawn[s]
        total_cards += hand_n[s]
    flat = np.empty(max(total_cards, 1), np.int64)
    at = 0
    for s in range(players):
        for k in range(hand_n[s]):
            flat[at] = hands[s, k]
            at += 1
    worth = scarcity(G, R, lk[2], lk[3], flat, 0, total_cards)
    pools = np.zeros((players, hmax), np.int64)
    pool_worth = np.zeros((players, hmax), np.float64)
    pool_n = np.zeros(players, np.int64)
    monsters = 0
    kept = -1
    for s in range(players):
        values = np.empty(hand_n[s], np.float64)
        for k in range(hand_n[s]):
            values[k] = usefulness(G, R, lk, worth, hands[s, k])
            if hands[s, k] == C_MONSTER:
                monsters += 1
        order = ranked(values, hands[s], 0, hand_n[s])
        for k in range(hand_n[s]):
            pools[s, k] = order[k]
            pool_worth[s, k] = usefulness(G, R, lk, worth, order[k])
        pool_n[s] = hand_n[s]
        if kept < 0 and holds(hands[s], 0, hand_n[s], C_FINISH):
            kept = s
    if style[Y_KEEPER] == KEEP_DUE:
        # bounds.finishing_seat: each turn of a win without discard twos, in seat order.
        empty = 0
        for cell in range(R[R_CELLS]):
            if G[G_HEADER + cell] == 0:
                empty += 1
        turns = empty + (0 if G[G_START_PLAYED] else 1) + 1 + 2 * (R[R_MONSTERS] - G[G_MONSTERS_PLAYED])
        due = (G[G_SEAT] + turns - 1) % players
        if holds(hands[due], 0, hand_n[due], C_FINISH):
            kept = due
    if kept >= 0 and total_cards - 1 - monsters >= owed:
        k = 0
        while pools[kept, k] != C_FINISH:
            k += 1
        for j in range(k, pool_n[kept] - 1):
            pools[kept, j] = pools[kept, j + 1]
            pool_worth[kept, j] = pool_worth[kept, j + 1]
        pool_n[kept] -= 1
    clear(Act)
    Act[A_KIND], Act[A_SEAT] = K_START, G[G_SEAT]
    taken = np.zeros(players, np.int64)
    for _ in range(owed):
        best = b0 = b1 = b2 = -1
        for s in range(players):
            if taken[s] >= pool_n[s]:
                continue
            card = pools[s, taken[s]]
            k0, k1, k2 = 1 if card != C_MONSTER else 0, 1 if pool_worth[s, taken[s]] < 0 else 0, left[s] - taken[s]
            # max() of the keys (k0, k1, k2): the first seat of the greatest.
            if best < 0 or k0 > b0 or (k0 == b0 and (k1 > b1 or (k1 == b1 and k2 > b2))):
                best, b0, b1, b2 = s, k0, k1, k2
        at = A_PAID + hmax + best * (hmax + 1)
        Act[at + 1 + taken[best]] = pools[best, taken[best]]
        taken[best] += 1
        Act[at] = taken[best]


@njit(void(A, A, A, LOOK, S, F, A), cache=True)
def choose(G, D, R, lk, rng, style, Act):
    """search/greedy.py's ``_greedy_choice`` for the seat to move but the Start, into the row
    ``Act`` (its rocks move aside)."""
    players, hmax, cells = R[R_PLAYERS], R[R_HMAX], R[R_CELLS]
    seat = G[G_SEAT]
    h0, n = hands_at(R) + seat * hmax, G[hand_n_at(R) + seat]
    clear(Act)
    Act[A_SEAT] = seat
    if holds(G, h0, n, C_FINISH) and finish_allowed(G, R):
        Act[A_KIND] = K_FINISH
        return
    live = lk[4]
    junk = finishes = 0
    for k in range(n):
        c = G[h0 + k]
        if (c > 0 and live[c] == 0) or (c == C_START and G[G_START_PLAYED] != 0):
            junk += 1
        elif c == C_FINISH:
            finishes += 1
    if finishes > 1:
        junk += finishes - 1
    spare = reserve(G, D, R, seat, n, style)
    noise, room, economy = style[Y_NOISE], style[Y_ROOM], style[Y_ECONOMY]
    strict = R[R_ORDER] == 0
    held_live, n_live = lk[5], lk[6]
    first, last, r_low, r_high = lk[7], lk[8], lk[9], lk[10]
    plays = np.empty((n * cells + 1, 3), np.int64)
    n_plays = island_plays(G, G_HEADER, G[G_ROCKS_ROW], G, h0, n, R, plays)
    scored = False
    best_score = 0.0
    best = 0
    for i in range(n_plays):
        card, cell, cost = plays[i, 0], plays[i, 1], plays[i, 2]
        # _Room.placed: where the card's rank among the live islands its run may take puts it.
        f, la, lo, hi = first[cell], last[cell], r_low[cell], r_high[cell]
        size = count_between(held_live, n_live, lo, hi)
        size = size if size > 0 else 0
        rank = count_between(held_live, n_live, lo, card if card < hi else hi)
        rank = rank if rank > 0 else 0
        if lo < card < hi:
            span0, span1 = la - (size - rank - 1), f + rank
        else:
            span0, span1 = 1, 0
        if not (span0 <= cell <= span1):
            if strict:
                continue
            misplaced = OFF_PLAN
        elif size <= 1:
            misplaced = 0.0
        else:
            ideal = rank * (la - f) / (size - 1)
            misplaced = abs((cell - f) - ideal) * 0.7
        live_paid = cost - junk if cost > junk else 0
        short = cost - spare if cost > spare else 0
        score = cost + 2 * live_paid + room * misplaced + economy * short + draw(rng) * noise
        if not scored or score < best_score:
            scored, best_score, best = True, score, i
    if holds(G, h0, n, C_MONSTER) and any_island(G, G_HEADER, R):
        after_n = np.empty(players, np.int64)
        for s in range(players):
            after_n[s] = G[hand_n_at(R) + s]
        after_n[seat] -= 1
        cell = sink(G, R, lk, rng, style, scored, best_score, after_n)
        if cell >= 0:
            Act[A_KIND], Act[A_CELL] = K_MONSTER, cell
            return
    rest = np.empty(max(n, 1), np.int64)
    for k in range(n):
        rest[k] = G[h0 + k]
    m = n
    if n >= 2 and (not scored or (best_score >= style[Y_DEAR] and junk >= 2)):
        Act[A_KIND], Act[A_PAID_N] = K_DISCARD, 2
    else:
        card, cell, cost = plays[best, 0], plays[best, 1], plays[best, 2]  # none scored: the first
        m = remove_from(rest, 0, n, card)
        Act[A_KIND], Act[A_CARD], Act[A_CELL], Act[A_PAID_N] = K_ISLAND, card, cell, cost
    # One call site each for the payment and the rocks: numba compiles a callee into every
    # caller's site, and the core's compile time is what a cold first use waits for.
    pick_cheapest(G, R, lk, rest, 0, m, Act[A_PAID_N], Act, A_PAID)


@njit(I8(A, A, A, S, F, M), cache=True)
def playout(G, D, R, rng, style, actions):
    """search/greedy.py's ``greedy_playout`` from ``G`` (in place) to the game's end, each
    action a row of ``actions``; how many (-1: more than ``actions`` holds). Won: G[G_WON]."""
    played = 0
    while G[G_WON] == 0 and is_open(G, D, R):
        if played >= actions.shape[0]:
            return -1
        # search/greedy.py's greedy_action (inline: each compiled level costs compile time).
        Act = actions[played]
        lk = look(G, D, R)
        if must_play_start(G, R):
            start(G, D, R, lk, style, Act)
        else:
            choose(G, D, R, lk, rng, style, Act)
        with_rocks(G, D, R, lk, Act)
        apply(G, D, R, Act)
        played += 1
    return played


@njit(void(S, I8, F), cache=True)
def draw_style(rng, playout_index, style):
    """Style.draw: the plain weights for the first playout, then drawn ones."""
    if playout_index == 0:
        style[Y_NOISE], style[Y_ROOM], style[Y_ECONOMY], style[Y_DEAR] = 0.0, 1.0, 3.0, 3.0
        return
    top = 0.5 * playout_index
    style[Y_NOISE] = uniform(rng, 0.0, 4.0 if top > 4.0 else top)
    style[Y_ROOM] = uniform(rng, 0.3, 1.5)
    style[Y_ECONOMY] = uniform(rng, 1.0, 5.0)
    style[Y_DEAR] = uniform(rng, 2.0, 4.5)


# -- the engine's values ------------------------------------------------------------------


def style_vector(noise: float, room: float, economy: float, dear: float, due: bool) -> np.ndarray:
    return np.array([noise, room, economy, dear, KEEP_DUE if due else 0], np.float64)


@dataclass
class Series:
    """Greedy playouts from one position: its arrays packed once, each playout played on a
    copy. ``play`` hands back the action rows and whether the game was won."""

    state: State
    D: np.ndarray | None = None  # the deal's array, when a series from another position of it has it

    def __post_init__(self) -> None:
        state = self.state
        # A Start's forced rounds draw whole hands: room for the largest hand the rules deal.
        self.tab = table(state.rules, state.players, max(state.rules.hand, *(len(h) for h in state.hands)))
        self.G = position_array(self.tab, state)
        if self.D is None:
            self.D = deal_array(state)
        most = state.cards_left + 2 * state.rules.cells + 4 * state.rules.monsters + 8
        self.rows = np.zeros((most, self.tab.width), np.int64)

    def play(self, rng: np.ndarray, style: np.ndarray) -> tuple[int, bool]:
        """One playout drawing from the generator state ``rng`` (advanced in place): how many
        actions (in ``rows``) and whether it won."""
        self.last = G = self.G.copy()
        n = playout(G, self.deal, self.tab.R, rng, style, self.rows)
        if n < 0:
            raise RuntimeError("the core's greedy playout outran its room for actions (a bug)")
        return n, bool(G[G_WON])

    @property
    def deal(self) -> np.ndarray:
        assert self.D is not None
        return self.D

    def actions(self, n: int) -> list[Action]:
        return actions_of(self.rows[:n], self.tab.players, self.tab.hmax)

    def end(self) -> State:
        """The engine's position where the last playout ended, read off the arrays (a replay
        on the engine gives the same; a caller that returns the line replays it)."""
        state, G, R = self.state, self.last, self.tab.R
        grid_at, hand_n_at, hands_at, drawn_at, gone_at = g_offsets(R)
        players, hmax, cells = self.tab.players, self.tab.hmax, state.rules.cells
        grid = tuple(int(v) if v else None for v in G[grid_at : grid_at + cells])
        hands = tuple(
            tuple(card_of(v) for v in G[hands_at + s * hmax : hands_at + s * hmax + G[hand_n_at + s]]) for s in range(players)
        )
        drawn = tuple(int(v) for v in G[drawn_at : drawn_at + players])
        gone = tuple(card_of(v) for v in G[gone_at : gone_at + G[G_GONE_N]])
        # The discards are what left the hands and piles and is neither on the grid nor gone
        # (islands placed, sunk, monsters), nor the Start or the Finish played.
        piles = state.deal.piles
        held = Counter([c for h in state.hands for c in h])
        held.update([c for s in range(players) for c in piles[s][state.drawn[s] : drawn[s]]])  # drawn since
        held.subtract([c for h in hands for c in h])
        held.subtract([v for v in grid if v is not None] + list(gone))
        held.update([v for v in state.grid if v is not None] + list(state.gone))
        won, start_played = bool(G[G_WON]), bool(G[G_START_PLAYED])
        if start_played and not state.start_played:
            held[START] -= 1
        if won:
            held[FINISH] -= 1
        rocks = int(G[G_ROCKS_ROW])
        return State(
            deal=state.deal,
            grid=grid,
            hands=hands,
            drawn=drawn,
            seat=int(G[G_SEAT]),
            turn=int(G[G_TURN]),
            start_played=start_played,
            won=won,
            monsters_played=int(G[G_MONSTERS_PLAYED]),
            rocks_row=None if rocks < 0 else rocks,
            rolls_used=int(G[G_ROLLS_USED]),
            discarded=sorted_cards(state.discarded + tuple(held.elements())),
            gone=gone,
        )
