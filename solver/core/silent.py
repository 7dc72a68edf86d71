"""The silent-table policies on the core's arrays, compiled by numba, and whole games with them.

The same judgements as search/policies.py, in the same order of arithmetic, so that a
compiled game is the reference's game action for action (tests/core/ hold them to it):
``greedy``, ``cautious``, ``thrifty`` and ``tuned`` are one scoring with the weights ``W``
(weights_vector in games.py gives each its own). A policy reads the rules ``R`` and one
seat's observation ``O`` alone, as a seat at the table would: never ``G`` or the deal ``D``.
The Start event asks each seat for its share from an observation built for it
(``start_action``), as the reference's table does.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.types import Tuple, UniTuple, void
from tranquility.solver.core.kernel import (
    F8,
    I8,
    A,
    B,
    F,
    M,
    apply,
    bounds,
    cards_left,
    complete_rows,
    eligible_rows,
    filled,
    gap,
    holds,
    insert_into,
    is_open,
    island_plays,
    must_play_start,
    new_observation,
    o_gone,
    o_grid,
    o_hand,
    o_hand_sizes,
    o_pile_sizes,
    observe,
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
    A_ROCKS_ROW,
    A_SEAT,
    C_FINISH,
    C_MONSTER,
    C_START,
    G_DISCARDED,
    G_HEADER,
    G_ROCKS_ROW,
    G_SEAT,
    G_WON,
    K_DISCARD,
    K_FINISH,
    K_ISLAND,
    K_MONSTER,
    K_START,
    O_DISCARDED,
    O_GONE_N,
    O_HAND_N,
    O_MONSTERS_PLAYED,
    O_ROCKS_ROW,
    O_SEAT,
    O_START_PLAYED,
    R_CELLS,
    R_COLS,
    R_FINISH,
    R_HMAX,
    R_ISLANDS,
    R_LEAVE_ROWS,
    R_MONSTERS,
    R_PLAYERS,
    R_ROCKS,
    R_ROWS,
    R_TIED,
    ROCKS_MOVE,
)

# The weights' slots (games.py fills them from search/weights.py's Weights).
(
    W_COST,
    W_PRESSURE,
    W_PAID,
    W_MISPLACED,
    W_DEFICIT,
    W_RELIEF,
    W_DISCARD_COST,
    W_DISCARD_SCORE,
    W_KEEP_BASE,
    W_KEEP_COST,
    W_KEEP_TIGHT,
    W_TIGHT_CAP,
    W_FINISH,  # four slots: a Finish card's keep value after 0, 1, 2, 3 or more others
    _F1,
    _F2,
    _F3,
    W_GIVE_DEAD,
    W_MODE,
    W_DISCARD_FROM,
) = range(19)
W_SIZE = 19
# A seat's reading of the table (``read``): its own islands and how many, the unseen ones and
# how many, the share of those still in play, every cell's bounds (low, high), each empty
# cell's group and its place in it, each group's bounds and need, how many groups.
RD = Tuple((A, I8, A, I8, F8, A, A, A, A, A, A, A, I8))

# How a policy chooses its island play: the cheapest (greedy), by cautious's score, by tuned's.
M_GREEDY, M_CAUTIOUS, M_TUNED = 0, 1, 2


# -- reading the table: what a seat can work out from its observation ----------------------


@njit(I8(A, I8, I8, I8), cache=True)
def count_between(values, n, low, high):
    """bisect_left(values, high) - bisect_right(values, low) over the sorted ``values[:n]``:
    how many lie strictly between ``low`` and ``high``, and less than none when ``high`` is
    below ``low`` (a bound a placement crossed: the reference counts such gaps so too)."""
    a, b = 0, n
    while a < b:  # the first above low
        m = (a + b) // 2
        if values[m] <= low:
            a = m + 1
        else:
            b = m
    above_low = a
    a, b = 0, n
    while a < b:  # the first at or above high
        m = (a + b) // 2
        if values[m] < high:
            a = m + 1
        else:
            b = m
    return a - above_low


@njit(RD(A, A, A, I8), cache=True)
def read(O, R, grid, g0):
    """The seat's reading of the grid ``grid[g0:]`` (engine-side: policies.Reading): its own
    islands and the unseen ones, the share of the unseen still in play, every cell's bounds,
    the empty cells grouped by their bounds (each group's cells in order, and its need)."""
    cells, islands = R[R_CELLS], R[R_ISLANDS]
    h0, n = o_hand(R), O[O_HAND_N]
    seen = np.zeros(islands + 2, np.bool_)
    for cell in range(cells):
        seen[grid[g0 + cell]] = True
    gone_monsters = 0
    for k in range(O[O_GONE_N]):
        c = O[o_gone(R) + k]
        if c > 0:
            seen[c] = True
        elif c == C_MONSTER:
            gone_monsters += 1
    own = np.zeros(max(n, 1), np.int64)
    n_own = 0
    specials_seen = 0
    for k in range(n):
        c = O[h0 + k]
        if c > 0:
            seen[c] = True
            own[n_own] = c
            n_own += 1
        else:
            specials_seen += 1
    specials_seen += O[O_START_PLAYED] + gone_monsters
    unseen = np.zeros(islands, np.int64)
    n_unseen = 0
    for c in range(1, islands + 1):
        if not seen[c]:
            unseen[n_unseen] = c
            n_unseen += 1
    specials = R[R_FINISH] + R[R_PLAYERS] + R[R_MONSTERS]
    unseen_cards = n_unseen + max(0, specials - specials_seen)
    in_play = -n
    for s in range(R[R_PLAYERS]):
        in_play += O[o_hand_sizes(R) + s] + O[o_pile_sizes(R) + s]
    avail = 0.0
    if unseen_cards:
        ratio = in_play / unseen_cards
        avail = ratio if ratio < 1.0 else 1.0
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    bounds(grid, g0, R, low, high)
    group = np.full(cells, -1, np.int64)  # an empty cell's group
    rank = np.zeros(cells, np.int64)  # its place in its group
    g_low = np.zeros(cells, np.int64)
    g_high = np.zeros(cells, np.int64)
    need = np.zeros(cells, np.int64)
    groups = 0
    for cell in range(cells):
        if grid[g0 + cell] != 0:
            continue
        g = -1
        for k in range(groups):
            if g_low[k] == low[cell] and g_high[k] == high[cell]:
                g = k
                break
        if g < 0:
            g = groups
            g_low[g], g_high[g] = low[cell], high[cell]
            groups += 1
        group[cell] = g
        rank[cell] = need[g]
        need[g] += 1
    return own, n_own, unseen, n_unseen, avail, low, high, group, rank, g_low, g_high, need, groups


@njit(F8(RD, I8, I8, I8), cache=True)
def supply(rd, low, high, without):
    """Islands strictly between low and high the team may still place: the seat's own ones
    (less ``without``, the card being played, when given: > 0), plus the unseen ones scaled by
    the share still in play."""
    own = count_between(rd[0], rd[1], low, high)
    unseen = count_between(rd[2], rd[3], low, high)
    if without > 0 and low < without < high:
        own -= 1
    return own + rd[4] * unseen


@njit(I8(RD, A, A, I8, I8), cache=True)
def best_cost(rd, R, grid, g0, card):
    """The cheapest placement of ``card`` ignoring the rocks (they move), or -1."""
    low, high = rd[5], rd[6]
    best = -1
    for cell in range(R[R_CELLS]):
        if grid[g0 + cell] == 0 and low[cell] < card < high[cell]:
            cost = gap(grid, g0, R, card, cell)
            if best < 0 or cost < best:
                best = cost
    return best


@njit(F8(RD, A, A, I8, I8), cache=True)
def tightness(rd, R, grid, g0, card):
    """How badly the gaps the card fits need it: cells / islands that may fill them (max)."""
    low, high, group, g_low, g_high, need = rd[5], rd[6], rd[7], rd[9], rd[10], rd[11]
    worst = 0.0
    for cell in range(R[R_CELLS]):
        if grid[g0 + cell] == 0 and low[cell] < card < high[cell]:
            g = group[cell]
            s = supply(rd, g_low[g], g_high[g], 0)
            x = need[g] / (s if s > 0.5 else 0.5)
            if x > worst:
                worst = x
    return worst


@njit(UniTuple(F8, 2)(RD, A, A, I8, I8, I8), cache=True)
def placement(rd, R, grid, g0, card, cell):
    """(deficit, misplacement) of playing ``card`` into ``cell`` (policies.Reading.placement):
    how many more cells lack islands to fill them afterwards, and how far the cell sits from
    where the card's rank among the islands that fit its gap puts it."""
    cells = R[R_CELLS]
    group, rank, g_low, g_high, need, groups = rd[7], rd[8], rd[9], rd[10], rd[11], rd[12]
    key = group[cell]
    low, high = g_low[key], g_high[key]
    # ordered(cell): (group, smaller) of the other empty cells tied to the cell, counted, in
    # the order of each pair's first cell.
    o_g = np.empty(cells, np.int64)
    o_s = np.empty(cells, np.int64)
    o_n = np.zeros(cells, np.int64)
    n_o = 0
    tied = R[R_TIED] + cell * cells
    for e in range(cells):
        side = R[tied + e]
        if e == cell or side == 0 or grid[g0 + e] != 0:
            continue
        smaller = 1 if side == 1 else 0
        g = group[e]
        k = 0
        while k < n_o and not (o_g[k] == g and o_s[k] == smaller):
            k += 1
        if k == n_o:
            o_g[k], o_s[k] = g, smaller
            n_o += 1
        o_n[k] += 1
    old = np.empty(n_o + 1, np.int64)  # groups, in insertion order
    old[0] = key
    n_old = 1
    lost = np.zeros(groups, np.int64)
    new_low = np.empty(n_o, np.int64)
    new_high = np.empty(n_o, np.int64)
    gained = np.zeros(n_o, np.int64)
    n_new = 0
    for k in range(n_o):
        g = o_g[k]
        if o_s[k] == 1:
            if card >= g_high[g]:
                continue
            nl, nh = g_low[g], card
        elif card > g_low[g]:
            nl, nh = card, g_high[g]
        else:
            continue
        j = 0
        while j < n_old and old[j] != g:
            j += 1
        if j == n_old:
            old[n_old] = g
            n_old += 1
        j = 0
        while j < n_new and not (new_low[j] == nl and new_high[j] == nh):
            j += 1
        if j == n_new:
            new_low[j], new_high[j] = nl, nh
            n_new += 1
        lost[g] += o_n[k]
        gained[j] += o_n[k]
    before = 0.0
    for j in range(n_old):
        g = old[j]
        x = need[g] - supply(rd, g_low[g], g_high[g], 0)
        before += x if x > 0.0 else 0.0
    after = 0.0
    for j in range(n_new):
        nl, nh = new_low[j], new_high[j]
        count = 0
        for g in range(groups):
            if g_low[g] == nl and g_high[g] == nh:
                count = need[g] - (1 if g == key else 0) - lost[g]
                break
        x = count + gained[j] - supply(rd, nl, nh, card)
        after += x if x > 0.0 else 0.0
    pool = supply(rd, low, high, 0)
    below = supply(rd, low, card, 0)
    pool1 = pool - 1
    ideal = below * (need[key] - 1) / (pool1 if pool1 > 1.0 else 1.0)
    return after - before, abs(rank[cell] - ideal)


# -- what a seat wants to keep -------------------------------------------------------------


@njit(F8(RD, A, F, A, I8, I8), cache=True)
def island_value(rd, R, W, grid, g0, card):
    cost = best_cost(rd, R, grid, g0, card)
    if cost < 0:
        return 0.0
    capped = cost if cost < 5 else 5
    if W[W_MODE] == M_GREEDY:
        return W[W_KEEP_BASE] - W[W_KEEP_COST] * capped
    t = tightness(rd, R, grid, g0, card)
    cap = W[W_TIGHT_CAP]
    return W[W_KEEP_BASE] - W[W_KEEP_COST] * capped + W[W_KEEP_TIGHT] * (cap if cap < t else t)


@njit(F(RD, A, F, A, I8, A, I8, I8, B), cache=True)
def keep_values(rd, R, W, grid, g0, cards, c0, n, start_played):
    values = np.empty(n, np.float64)
    finishes = 0
    for k in range(n):
        card = cards[c0 + k]
        if card == C_FINISH:
            values[k] = W[W_FINISH + (finishes if finishes < 3 else 3)]
            finishes += 1
        elif card == C_MONSTER:
            values[k] = 1000.0  # discarding one makes the game unwinnable
        elif card == C_START:
            values[k] = 0.0 if start_played else 1000.0
        else:
            values[k] = island_value(rd, R, W, grid, g0, card)
    return values


@njit(void(F, A, I8, I8, I8, A, I8), cache=True)
def least_useful(values, cards, c0, n, k, out, o0):
    """The ``k`` cards of ``cards[c0:c0+n]`` of least value (ties: the earlier), written
    sorted into ``out[o0:]``."""
    order = np.arange(n)
    for i in range(1, n):  # a stable insertion sort by value
        j = i
        while j > 0 and values[order[j - 1]] > values[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    picked = 0
    for i in range(k):
        picked = insert_into(out, o0, picked, cards[c0 + order[i]])


# -- decisions -----------------------------------------------------------------------------


@njit(F(A, A, F, RD, M, I8), cache=True)
def island_scores(O, R, W, rd, plays, n_plays):
    """The score of each island play (lower is better): cautious's or tuned's."""
    h0, n = o_hand(R), O[O_HAND_N]
    g0 = o_grid(R)
    values = keep_values(rd, R, W, O, g0, O, h0, n, O[O_START_PLAYED] != 0)
    ranked = values.copy()
    for i in range(1, n):  # ascending (a hand is a few cards)
        j = i
        while j > 0 and ranked[j - 1] > ranked[j]:
            ranked[j - 1], ranked[j] = ranked[j], ranked[j - 1]
            j -= 1
    scores = np.empty(n_plays, np.float64)
    tuned = W[W_MODE] == M_TUNED
    per_cost = W[W_COST]
    if tuned:
        in_play = 0
        for s in range(R[R_PLAYERS]):
            in_play += O[o_hand_sizes(R) + s] + O[o_pile_sizes(R) + s]
        empty = 0
        for cell in range(R[R_CELLS]):
            if O[g0 + cell] == 0:
                empty += 1
        per_cost = W[W_COST] + W[W_PRESSURE] * empty / (in_play if in_play > 1 else 1)
    for i in range(n_plays):
        card, cell, cost = plays[i, 0], plays[i, 1], plays[i, 2]
        deficit, misplaced = placement(rd, R, O, g0, card, cell)
        mine = 0.0
        for k in range(n):
            if O[h0 + k] == card:
                mine = values[k]
                break
        paid = 0.0  # the ``cost`` least values of the hand without the card played
        skipped = False
        taken = 0
        for v in ranked:
            if taken == cost:
                break
            if not skipped and v == mine:
                skipped = True
                continue
            paid += v
            taken += 1
        positive = deficit if deficit > 0.0 else 0.0
        if tuned:
            negative = deficit if not (deficit > 0.0) else 0.0
            score = per_cost * cost + W[W_PAID] * paid + W[W_MISPLACED] * misplaced
            scores[i] = score + W[W_DEFICIT] * positive + W[W_RELIEF] * negative
        else:
            scores[i] = 2.0 * cost + paid / 20.0 + 0.5 * misplaced + 8.0 * positive
    return scores


@njit(B(I8, F8, I8, I8, I8, F8, I8, I8), cache=True)
def precedes(cost, mis, card, cell, cost2, mis2, card2, cell2):
    """(cost, misplacement, card, cell) before the second such key."""
    if cost != cost2:
        return cost < cost2
    if mis != mis2:
        return mis < mis2
    if card != card2:
        return card < card2
    return cell < cell2


@njit(I8(A, A, F, RD, M, I8), cache=True)
def choose_island(O, R, W, rd, plays, n_plays):
    """The index of the island play to make, or -1 to discard two instead."""
    if n_plays == 0:
        return -1
    g0 = o_grid(R)
    if W[W_MODE] == M_GREEDY:
        best = 0
        best_mis = placement(rd, R, O, g0, plays[0, 0], plays[0, 1])[1]
        for i in range(1, n_plays):
            mis = placement(rd, R, O, g0, plays[i, 0], plays[i, 1])[1]
            if precedes(plays[i, 2], mis, plays[i, 0], plays[i, 1], plays[best, 2], best_mis, plays[best, 0], plays[best, 1]):
                best, best_mis = i, mis
        return best
    scores = island_scores(O, R, W, rd, plays, n_plays)
    best = 0
    for i in range(1, n_plays):
        if scores[i] < scores[best]:
            best = i
    cost = plays[best, 2]
    can_discard = O[O_HAND_N] >= 2 and O[o_pile_sizes(R) + O[O_SEAT]] > 0
    if can_discard:
        if W[W_MODE] == M_TUNED:
            if cost >= W[W_DISCARD_COST] or scores[best] >= W[W_DISCARD_SCORE]:
                return -1
        elif cost >= W[W_DISCARD_FROM]:
            return -1
    return best


@njit(I8(A, A, RD), cache=True)
def monster_cell(O, R, rd):
    """Sink the island whose cell, once empty, the most islands may fill."""
    g0 = o_grid(R)
    low, high = rd[5], rd[6]
    best, best_room = -1, 0.0
    for cell in range(R[R_CELLS]):
        if O[g0 + cell] == 0:
            continue
        room = supply(rd, low[cell], high[cell], 0)
        if best < 0 or room > best_room:  # ties: the lower cell (max of (room, -cell))
            best, best_room = cell, room
    return best


@njit(I8(A, A, A, I8, A, I8, I8), cache=True)
def rocks_row(O, R, grid, g0, hand, h0, n):
    """Manual rocks: block the row where the seat's own islands fit least (lowest on ties),
    reading the grid and hand as they stand after the action."""
    rows = np.empty(R[R_ROWS], np.int64)
    n_rows = eligible_rows(grid, g0, O[O_ROCKS_ROW], R, rows)
    cells, cols = R[R_CELLS], R[R_COLS]
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    bounds(grid, g0, R, low, high)
    best, best_fit = -1, 0
    for i in range(n_rows):
        r = rows[i]
        fit = 0
        for k in range(n):
            c = hand[h0 + k]
            if c <= 0:
                continue
            for cell in range(r * cols, (r + 1) * cols):
                if grid[g0 + cell] == 0 and low[cell] < c < high[cell]:
                    fit += 1
        if best < 0 or fit < best_fit:
            best, best_fit = r, fit
    return best


@njit(void(A, A, A), cache=True)
def with_rocks(O, R, A):
    """Manual Jagged Rocks: each action also moves the rocks (the policies never pay to keep
    them), once the action's own effect on the grid and the hand is in."""
    if R[R_ROCKS] != 2 or O[O_ROCKS_ROW] < 0:
        return
    g0, h0, n = o_grid(R), o_hand(R), O[O_HAND_N]
    cells = R[R_CELLS]
    grid = np.empty(cells, np.int64)
    for cell in range(cells):
        grid[cell] = O[g0 + cell]
    hand = np.empty(max(n, 1), np.int64)
    for k in range(n):
        hand[k] = O[h0 + k]
    kind = A[A_KIND]
    if kind == K_ISLAND:
        n = remove_from(hand, 0, n, A[A_CARD])
        grid[A[A_CELL]] = A[A_CARD]
    elif kind == K_MONSTER:
        n = remove_from(hand, 0, n, C_MONSTER)
        grid[A[A_CELL]] = 0
    for k in range(A[A_PAID_N]):
        n = remove_from(hand, 0, n, A[A_PAID + k])
    if complete_rows(grid, 0, R) >= R[R_LEAVE_ROWS]:
        return
    A[A_ROCKS] = ROCKS_MOVE
    A[A_ROCKS_ROW] = rocks_row(O, R, grid, 0, hand, 0, n)


@njit(void(A), cache=True)
def clear(A):
    for k in range(A.shape[0]):
        A[k] = 0


@njit(void(A, A, F, RD, I8, I8, I8, A), cache=True)
def island_action(O, R, W, rd, card, cell, cost, A):
    """The island play as an action, paid with the seat's least useful cards."""
    h0, n = o_hand(R), O[O_HAND_N]
    rest = np.empty(max(n, 1), np.int64)
    for k in range(n):
        rest[k] = O[h0 + k]
    m = remove_from(rest, 0, n, card)
    values = keep_values(rd, R, W, O, o_grid(R), rest, 0, m, O[O_START_PLAYED] != 0)
    clear(A)
    A[A_KIND], A[A_SEAT], A[A_CARD], A[A_CELL] = K_ISLAND, O[O_SEAT], card, cell
    A[A_PAID_N] = cost
    least_useful(values, rest, 0, m, cost, A, A_PAID)
    with_rocks(O, R, A)


@njit(void(A, A, F, RD, A), cache=True)
def discard_action(O, R, W, rd, A):
    """Discard two: the seat's two least useful cards."""
    h0, n = o_hand(R), O[O_HAND_N]
    values = keep_values(rd, R, W, O, o_grid(R), O, h0, n, O[O_START_PLAYED] != 0)
    clear(A)
    A[A_KIND], A[A_SEAT] = K_DISCARD, O[O_SEAT]
    A[A_PAID_N] = 2
    least_useful(values, O, h0, n, 2, A, A_PAID)
    with_rocks(O, R, A)


@njit(void(A, A, F, A), cache=True)
def act(O, R, W, A):
    """The seat to move's action, from its observation alone (policies.Policy.act)."""
    g0, h0, n = o_grid(R), o_hand(R), O[O_HAND_N]
    clear(A)
    A[A_SEAT] = O[O_SEAT]
    finish_ok = O[O_START_PLAYED] != 0 and O[O_MONSTERS_PLAYED] == R[R_MONSTERS] and holds(O, h0, n, C_FINISH)
    if finish_ok:
        for cell in range(R[R_CELLS]):
            if O[g0 + cell] == 0:
                finish_ok = False
                break
    if finish_ok:
        A[A_KIND] = K_FINISH
        return
    rd = read(O, R, O, g0)
    if holds(O, h0, n, C_MONSTER):
        cell = monster_cell(O, R, rd)
        if cell >= 0:
            A[A_KIND], A[A_CELL] = K_MONSTER, cell
            with_rocks(O, R, A)
            return
    plays = np.empty((n * R[R_CELLS] + 1, 3), np.int64)
    n_plays = island_plays(O, g0, O[O_ROCKS_ROW], O, h0, n, R, plays)
    best = choose_island(O, R, W, rd, plays, n_plays)
    if best < 0:
        discard_action(O, R, W, rd, A)
    else:
        island_action(O, R, W, rd, plays[best, 0], plays[best, 1], plays[best, 2], A)


# -- the Start event at a silent table -----------------------------------------------------


@njit(I8(A, I8, I8, A, A, I8), cache=True)
def quota_of(order, first, players, hand_sizes, pile_sizes, owed):
    """The public split rule for the seats ``order[first:]``: hand out the owed cards one at a
    time to the seat with the most cards left (hand + pile, less its share so far), never
    more than its hand; ties to the seat earliest in the order. The first seat's share."""
    share = np.zeros(players, np.int64)
    for _ in range(owed):
        best = -1
        best_left = 0
        for i in range(first, players):
            s = order[i]
            if share[s] >= hand_sizes[s]:
                continue
            left = hand_sizes[s] + pile_sizes[s] - share[s]
            if best < 0 or left > best_left:
                best, best_left = s, left
        if best < 0:
            break
        share[best] += 1
    return share[order[first]]


@njit(I8(A, A, F, I8, I8, I8, I8, A, I8), cache=True)
def give(O, R, W, quota, least, most, owed, out, o0):
    """The cards a seat gives in the Start event (policies: ``give``); how many."""
    h0, n = o_hand(R), O[O_HAND_N]
    rd = read(O, R, O, o_grid(R))
    values = keep_values(rd, R, W, O, o_grid(R), O, h0, n, True)
    k = quota if quota > least else least
    if W[W_MODE] != M_GREEDY:
        dead = 0
        for v in values:
            if v <= W[W_GIVE_DEAD]:
                dead += 1
        dead = dead if dead < owed else owed
        k = k if k > dead else dead
    k = k if k < most else most
    least_useful(values, O, h0, n, k, out, o0)
    return k


@njit(void(A, A, A, F, A), cache=True)
def start_action(G, D, R, W, A):
    """The Start event at a silent table: the forced rounds happen, then each seat in turn
    from the Start player gives its cards, seeing its own hand and the public counts."""
    players, hmax = R[R_PLAYERS], R[R_HMAX]
    seat = G[G_SEAT]
    hands = np.zeros((players, hmax), np.int64)
    hand_n = np.zeros(players, np.int64)
    drawn = np.zeros(players, np.int64)
    owed, forced = start_rounds(G, D, R, hands, hand_n, drawn)
    pile_sizes = np.empty(players, np.int64)
    for s in range(players):
        pile_sizes[s] = D[s + 1] - D[s] - drawn[s]
    order = np.empty(players, np.int64)
    for k in range(players):
        order[k] = (seat + k) % players
    given = np.zeros(players, np.int64)
    discarded = G[G_DISCARDED] + forced
    clear(A)
    A[A_KIND], A[A_SEAT] = K_START, seat
    O = new_observation(R)
    for i in range(players):
        s = order[i]
        later = 0
        for j in range(i + 1, players):
            later += hand_n[order[j]]
        quota = quota_of(order, i, players, hand_n, pile_sizes, owed)
        observe(G, D, R, s, O)
        for t in range(players):
            O[o_hand_sizes(R) + t] = hand_n[t] - given[t]
            O[o_pile_sizes(R) + t] = pile_sizes[t]
        O[O_HAND_N] = hand_n[s]
        for k in range(hmax):
            O[o_hand(R) + k] = hands[s, k]
        O[O_DISCARDED] = discarded
        O[O_START_PLAYED] = 1
        least = owed - later
        least = least if least > 0 else 0
        most = owed if owed < hand_n[s] else hand_n[s]
        at = A_PAID + hmax + s * (hmax + 1)
        k = give(O, R, W, quota, least, most, owed, A, at + 1)
        A[at] = k
        given[s] = k
        owed -= k
        discarded += k
    if R[R_ROCKS] == 2 and G[G_ROCKS_ROW] >= 0 and complete_rows(G, G_HEADER, R) < R[R_LEAVE_ROWS]:
        # The Start seat moves the rocks, reading its hand after its share went.
        rest = np.empty(max(hmax, 1), np.int64)
        m = hand_n[seat]
        for k in range(m):
            rest[k] = hands[seat, k]
        at = A_PAID + hmax + seat * (hmax + 1)
        for k in range(A[at]):
            m = remove_from(rest, 0, m, A[at + 1 + k])
        observe(G, D, R, seat, O)
        A[A_ROCKS] = ROCKS_MOVE
        A[A_ROCKS_ROW] = rocks_row(O, R, G, G_HEADER, rest, 0, m)


# -- whole games ---------------------------------------------------------------------------


@njit(I8(A, A, A, F, M), cache=True)
def play(G, D, R, W, actions):
    """Play from ``G`` (in place) to the end of the game with the policy ``W`` at every seat,
    writing each action into a row of ``actions``; how many were played (-1: more than
    ``actions`` holds)."""
    O = new_observation(R)
    played = 0
    while is_open(G, D, R):
        if played >= actions.shape[0]:
            return -1
        A = actions[played]
        if must_play_start(G, R):
            start_action(G, D, R, W, A)
        else:
            observe(G, D, R, G[G_SEAT], O)
            act(O, R, W, A)
        apply(G, D, R, A)
        played += 1
    return played


@njit(M(M, M, A, F, M, I8), cache=True)
def outcomes(Gs, Ds, R, W, firsts, width):
    """Each game of the batch (a row of ``Gs`` and ``Ds``) after its first move (a row of
    ``firsts``, or none where its kind is -1) played to its end with the policy ``W``: won,
    cells filled and cards left, one row per game."""
    out = np.empty((Gs.shape[0], 3), np.int64)
    O = new_observation(R)
    A = np.zeros(width, np.int64)
    for i in range(Gs.shape[0]):
        G, D = Gs[i].copy(), Ds[i]
        if firsts[i, A_KIND] >= 0:
            apply(G, D, R, firsts[i])
        while is_open(G, D, R):
            if must_play_start(G, R):
                start_action(G, D, R, W, A)
            else:
                observe(G, D, R, G[G_SEAT], O)
                act(O, R, W, A)
            apply(G, D, R, A)
        out[i, 0], out[i, 1], out[i, 2] = G[G_WON], filled(G, R), cards_left(G, D, R)
    return out
