"""The complete search (search/complete.py) on the core's arrays, compiled by numba.

The same depth-first search as the reference: the same candidate moves in the same order
(junk paid first, cheapest island plays first; a Start's team splits one at a time), the
same refutations and the same canonical keys for the table of lost positions, so that the
same node budget gives the same verdict, the same line and the same counts
(tests/core/test_complete_parity.py).

The search is explicit, not recursive: its whole state is arrays (``Search`` holds them), so
that ``run`` can stop after a number of nodes and be resumed. The caller checks its clock
and Ctrl-C between runs, and grows the table or the action stack when ``run`` asks for
room. The table of lost positions keeps every key whole (no hash is trusted alone): a
NO-WIN rests on the keys themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit
from numba.types import Array, UniTuple, int16, int64, uint64, void
from tranquility.solver.core import kernel as K
from tranquility.solver.core import layout as L
from tranquility.solver.core.kernel import I8, A, B, M
from tranquility.solver.core.layout import RulesArray

K16 = Array(int16, 2, "C")  # the table's keys, a key per row
K1 = Array(int16, 1, "C")  # one key
H = Array(uint64, 1, "C")  # the table's hashes, 0 for an empty slot
P3 = Array(int64, 3, "C")  # each seat's payments of a Start's split

# What ``run`` answers.
WON, NO_WIN, PAUSED, GROW_TABLE, GROW_STACK = range(5)

# The scalars of a search (``Search.st``).
ST_DEPTH, ST_PENDING, ST_HITS, ST_REFUTED, ST_LOST, ST_OWED = range(6)
ST_SIZE = 8
# A frame: its kind (a list of moves, or a Start's splits one at a time) and its moves'
# rows on the action stack [begin, end), the next one to try.
F_KIND, F_BEGIN, F_END, F_NEXT = range(4)
LIST, SPLITS = 0, 1

JUNK, PAD = 0, -100  # in a key: any junk card; an empty slot of a hand

FNV_OFFSET = np.uint64(14695981039346656037)
FNV_PRIME = np.uint64(1099511628211)


# -- what is live, what is junk -----------------------------------------------------------


@njit(void(A, A, A), cache=True)
def mark_live(G, R, live):
    """``live[c]`` = 1 for each island that fits an empty cell by the order (the rocks aside);
    every island while a Sea Monster is still to be played (bounds.py's ``live_islands``)."""
    islands, cells = R[L.R_ISLANDS], R[L.R_CELLS]
    live[:] = 0
    if R[L.R_MONSTERS] - G[L.G_MONSTERS_PLAYED] > 0:
        live[1 : islands + 1] = 1
        return
    low = np.empty(cells, np.int64)
    high = np.empty(cells, np.int64)
    K.bounds(G, L.G_HEADER, R, low, high)
    for cell in range(cells):
        if G[L.G_HEADER + cell] == 0:
            for c in range(low[cell] + 1, high[cell]):
                live[c] = 1


@njit(B(I8, A, I8), cache=True)
def is_junk(card, live, start_played):
    if card > 0:
        return live[card] == 0
    return card == L.C_START and start_played != 0


@njit(I8(I8, I8), cache=True)
def most_payments(n, k):
    """How many ways k cards can be chosen from n: room for a list of payments."""
    if k < 0 or k > n:
        return 0
    out = 1
    for j in range(k):
        out = out * (n - j) // (j + 1)
    return out


@njit(I8(A, I8, I8, I8, A, I8, M, A), cache=True)
def payments(cards, c0, n, k, live, start_played, out, out_n):
    """The payments of ``k`` of ``cards[c0:c0+n]`` worth trying (moves.py's ``payments``): the
    junk first, a second Finish counted as junk; if that is not enough, every distinct choice
    of the rest, in ``combinations``' order. Rows of ``out`` (``out_n`` cards each); how many."""
    junk = np.empty(n, np.int64)
    j = 0
    finishes = 0
    for i in range(n):
        c = cards[c0 + i]
        if c == L.C_FINISH:
            finishes += 1
        if is_junk(c, live, start_played):
            junk[j] = c
            j += 1
    for _ in range(finishes - 1):
        junk[j] = L.C_FINISH
        j += 1
    if j >= k:
        for i in range(k):
            out[0, i] = junk[i]
        out_n[0] = k
        return 1
    rest = np.empty(n, np.int64)
    r = n
    for i in range(n):
        rest[i] = cards[c0 + i]
    for i in range(j):
        r = K.remove_from(rest, 0, r, junk[i])
    m = k - j
    if m > r:
        return 0
    idx = np.arange(m)
    found = 0
    while True:
        # A combination equal to an earlier one (repeated Finish, Monster or Start cards) is skipped.
        fresh = True
        for p in range(found):
            same = True
            for q in range(m):
                if out[p, j + q] != rest[idx[q]]:
                    same = False
                    break
            if same:
                fresh = False
                break
        if fresh:
            for i in range(j):
                out[found, i] = junk[i]
            for q in range(m):
                out[found, j + q] = rest[idx[q]]
            out_n[found] = k
            found += 1
        i = m - 1
        while i >= 0 and idx[i] == r - m + i:
            i -= 1
        if i < 0:
            return found
        idx[i] += 1
        for q in range(i + 1, m):
            idx[q] = idx[q - 1] + 1


# -- the candidate moves ------------------------------------------------------------------


@njit(I8(M, I8, A), cache=True)
def push(stack, top, row):
    """Copy ``row`` onto the action stack at ``top``; the new top, or -1 when out of room."""
    if top >= stack.shape[0]:
        return -1
    stack[top, :] = row
    return top + 1


@njit(I8(A, A, A, A, A, M, I8, I8), cache=True)
def with_rocks(G, D, R, base, live, stack, top, hmax):
    """``base`` with each rocks move worth trying under manual Jagged Rocks still in play
    (moves.py's ``rocks_moves``): to each row it may go to, then kept for two cards, junk
    first. Otherwise ``base`` as it is. The new top, or -1 when out of room."""
    base[L.A_ROCKS] = L.ROCKS_NONE
    if R[L.R_ROCKS] != 2 or G[L.G_ROCKS_ROW] < 0 or base[L.A_KIND] == L.K_FINISH:
        return push(stack, top, base)
    players, cells = R[L.R_PLAYERS], R[L.R_CELLS]
    grid = np.empty(cells, np.int64)
    hands = np.zeros((players, hmax), np.int64)
    hand_n = np.zeros(players, np.int64)
    start_played = K.before_rocks(G, D, R, base, grid, hands, hand_n)
    if K.complete_rows(grid, 0, R) >= R[L.R_LEAVE_ROWS]:
        return push(stack, top, base)
    rows = np.empty(R[L.R_ROWS], np.int64)
    for k in range(K.eligible_rows(grid, 0, G[L.G_ROCKS_ROW], R, rows)):
        base[L.A_ROCKS], base[L.A_ROCKS_ROW] = L.ROCKS_MOVE, rows[k]
        top = push(stack, top, base)
        if top < 0:
            return -1
    seat = G[L.G_SEAT]
    pays = np.zeros((most_payments(hmax, 2) + 1, 2), np.int64)
    pays_n = np.zeros(pays.shape[0], np.int64)
    for p in range(payments(hands[seat], 0, hand_n[seat], 2, live, start_played, pays, pays_n)):
        base[L.A_ROCKS], base[L.A_ROCKS_ROW] = L.ROCKS_STAY, 0
        base[L.A_ROCKS_PAID], base[L.A_ROCKS_PAID + 1] = pays[p, 0], pays[p, 1]
        top = push(stack, top, base)
        if top < 0:
            return -1
    base[L.A_ROCKS], base[L.A_ROCKS_PAID], base[L.A_ROCKS_PAID + 1] = L.ROCKS_NONE, 0, 0
    return top


@njit(I8(A), cache=True)
def rank(row):
    """complete.py's order: the Finish, then island plays by cards paid, then the rest; a
    paid stay of the rocks counts as two more cards."""
    kind, paid = row[L.A_KIND], row[L.A_PAID_N]
    stay = 2 if row[L.A_ROCKS] == L.ROCKS_STAY else 0
    if kind == L.K_FINISH:
        return 0
    if kind == L.K_ISLAND:
        return 1000 + paid + stay
    if kind == L.K_START:
        return 1000 + stay
    return 2000 + stay


@njit(void(M, I8, I8), cache=True)
def sort_moves(stack, begin, end):
    """Order the rows ``stack[begin:end]`` by ``rank``, keeping the order of equals (the
    reference sorts a list, which is stable)."""
    n = end - begin
    if n < 2:
        return
    ranks = np.empty(n, np.int64)
    for i in range(n):
        ranks[i] = rank(stack[begin + i])
    order = np.argsort(ranks, kind="mergesort")
    rows = stack[begin:end].copy()
    for i in range(n):
        stack[begin + i, :] = rows[order[i]]


@njit(I8(A, A, A, A, M, I8, I8), cache=True)
def list_moves(G, D, R, live, stack, top, width):
    """The candidate moves of a position with no Start to play (moves.py's
    ``candidate_actions``), in the reference's order, from ``top`` on the action stack; the
    new top, or -1 when out of room."""
    hmax, cells = R[L.R_HMAX], R[L.R_CELLS]
    begin = top
    seat = G[L.G_SEAT]
    h0, n = K.hands_at(R) + seat * hmax, G[K.hand_n_at(R) + seat]
    start_played = G[L.G_START_PLAYED]
    base = np.zeros(width, np.int64)
    plays = np.empty((n * cells + 1, 3), np.int64)
    after = np.empty(n, np.int64)
    pays = np.zeros((most_payments(n, n // 2) + 1, n), np.int64)
    pays_n = np.zeros(pays.shape[0], np.int64)
    for i in range(K.island_plays(G, L.G_HEADER, G[L.G_ROCKS_ROW], G, h0, n, R, plays)):
        card, cell, cost = plays[i, 0], plays[i, 1], plays[i, 2]
        for k in range(n):
            after[k] = G[h0 + k]
        left = K.remove_from(after, 0, n, card)
        for p in range(payments(after, 0, left, cost, live, start_played, pays, pays_n)):
            base[:] = 0
            base[L.A_KIND], base[L.A_SEAT], base[L.A_CARD], base[L.A_CELL] = L.K_ISLAND, seat, card, cell
            base[L.A_PAID_N] = cost
            for k in range(cost):
                base[L.A_PAID + k] = pays[p, k]
            top = with_rocks(G, D, R, base, live, stack, top, hmax)
            if top < 0:
                return -1
    if K.holds(G, h0, n, L.C_FINISH) and K.finish_allowed(G, R):
        base[:] = 0
        base[L.A_KIND], base[L.A_SEAT] = L.K_FINISH, seat
        top = push(stack, top, base)
        if top < 0:
            return -1
    if K.holds(G, h0, n, L.C_MONSTER):
        for cell in range(cells):
            if G[L.G_HEADER + cell] != 0:
                base[:] = 0
                base[L.A_KIND], base[L.A_SEAT], base[L.A_CELL] = L.K_MONSTER, seat, cell
                top = with_rocks(G, D, R, base, live, stack, top, hmax)
                if top < 0:
                    return -1
    if n >= 2:
        for p in range(payments(G, h0, n, 2, live, start_played, pays, pays_n)):
            base[:] = 0
            base[L.A_KIND], base[L.A_SEAT], base[L.A_PAID_N] = L.K_DISCARD, seat, 2
            base[L.A_PAID], base[L.A_PAID + 1] = pays[p, 0], pays[p, 1]
            top = with_rocks(G, D, R, base, live, stack, top, hmax)
            if top < 0:
                return -1
    sort_moves(stack, begin, top)
    return top


# -- a Start's team splits, one at a time ---------------------------------------------------
# The splits of a Start (moves.py's ``start_actions``): how many cards each seat pays, in
# ``_compositions``' order, then each seat's payments (junk first), the first seat's slowest.
# One Start can be on the search's path at a time, so one odometer serves: ``comp`` (cards
# each seat pays), ``caps`` (cards each seat holds in the last round, ``sh``), ``pays`` and
# ``pays_n`` (each seat's payments), ``count`` (how many) and ``at`` (the one in use).


@njit(B(A, A, I8, I8), cache=True)
def first_composition(comp, caps, owed, start):
    """The first way to pay ``owed`` from seat ``start`` on, within ``caps``."""
    players = comp.shape[0]
    left = owed
    for s in range(start, players):
        later = 0
        for t in range(s + 1, players):
            later += caps[t]
        lo = left - later if left > later else 0
        if lo > caps[s] or lo > left:
            return False
        comp[s] = lo
        left -= lo
    return left == 0


@njit(B(A, A, I8), cache=True)
def next_composition(comp, caps, owed):
    """The way to pay after ``comp``: the last seat that can pay one more does, the seats after
    it paying as little as they can."""
    players = comp.shape[0]
    for s in range(players - 2, -1, -1):
        left = owed
        for t in range(s):
            left -= comp[t]
        if comp[s] < min(left, caps[s]):
            comp[s] += 1
            return first_composition(comp, caps, left - comp[s], s + 1)
    return False


@njit(B(M, A, A, A, A, P3, M, A), cache=True)
def fill_payments(sh, sh_n, comp, live, count, pays, pays_n, at):
    """Each seat's payments of its share ``comp``; False if some seat has none."""
    for s in range(comp.shape[0]):
        count[s] = payments(sh[s], 0, sh_n[s], comp[s], live, 1, pays[s], pays_n[s])
        at[s] = 0
        if count[s] == 0:
            return False
    return True


@njit(B(M, A, I8, A, A, A, A, P3, M, A), cache=True)
def first_split(sh, sh_n, owed, live, comp, caps, count, pays, pays_n, at):
    for s in range(comp.shape[0]):
        caps[s] = sh_n[s]
    ok = first_composition(comp, caps, owed, 0)
    while ok:
        if fill_payments(sh, sh_n, comp, live, count, pays, pays_n, at):
            return True
        ok = next_composition(comp, caps, owed)
    return False


@njit(B(M, A, I8, A, A, A, A, P3, M, A), cache=True)
def next_split(sh, sh_n, owed, live, comp, caps, count, pays, pays_n, at):
    players = comp.shape[0]
    for s in range(players - 1, -1, -1):
        if at[s] + 1 < count[s]:
            at[s] += 1
            for t in range(s + 1, players):
                at[t] = 0
            return True
    while next_composition(comp, caps, owed):
        if fill_payments(sh, sh_n, comp, live, count, pays, pays_n, at):
            return True
    return False


@njit(I8(A, A, A, A, A, P3, M, A, M, I8, I8), cache=True)
def split_moves(G, D, R, live, comp, pays, pays_n, at, stack, top, width):
    """The Start played with the odometer's split, with each rocks move worth trying, from
    ``top``; the new top, or -1 when out of room."""
    players, hmax = R[L.R_PLAYERS], R[L.R_HMAX]
    base = np.zeros(width, np.int64)
    base[L.A_KIND], base[L.A_SEAT] = L.K_START, G[L.G_SEAT]
    for s in range(players):
        block = L.A_PAID + hmax + s * (hmax + 1)
        k = pays_n[s, at[s]]
        base[block] = k
        for q in range(k):
            base[block + 1 + q] = pays[s, at[s], q]
    return with_rocks(G, D, R, base, live, stack, top, hmax)


# -- refutations (bounds.py's ``refutation``) -------------------------------------------------


@njit(I8(A, A, A, A, A), cache=True)
def cards_in_play(G, D, R, out, count):
    """The cards in the hands and the undrawn piles into ``out``; how many. ``count`` gets
    how many of each special card (by -code) and of the islands (slot 0)."""
    players, hmax = R[L.R_PLAYERS], R[L.R_HMAX]
    n = 0
    count[:] = 0
    for s in range(players):
        for k in range(G[K.hand_n_at(R) + s]):
            out[n] = G[K.hands_at(R) + s * hmax + k]
            n += 1
        for k in range(D[s] + G[K.drawn_at(R) + s], D[s + 1]):
            out[n] = D[k]
            n += 1
    for i in range(n):
        c = out[i]
        count[0 if c > 0 else -c] += 1
    return n


@njit(I8(A, A), cache=True)
def least_total_cost(G, R):
    """bounds.py's ``least_total_cost``: the cells touching a card, plus a greedy matching of
    the free ones, less what the Sea Monsters still to play may free."""
    cells, near = R[L.R_CELLS], R[L.R_NEAR]
    free = np.zeros(cells, np.int64)
    empty = 0
    nfree = 0
    widest = 0
    for k in range(cells):
        degree = 0
        for q in range(L.NEAR_MAX):
            if R[near + k * L.NEAR_MAX + q] >= 0:
                degree += 1
        widest = max(widest, degree)
        if G[L.G_HEADER + k] != 0:
            continue
        empty += 1
        alone = True
        for q in range(L.NEAR_MAX):
            j = R[near + k * L.NEAR_MAX + q]
            if j >= 0 and G[L.G_HEADER + j] != 0:
                alone = False
        if alone:
            free[k] = 1
            nfree += 1
    touching = empty - nfree
    matched = np.zeros(cells, np.int64)
    pairs = 0
    for k in range(cells):
        if free[k] == 0 or matched[k] != 0:
            continue
        for q in range(L.NEAR_MAX):
            j = R[near + k * L.NEAR_MAX + q]
            if j >= 0 and free[j] != 0 and matched[j] == 0:
                matched[k], matched[j] = 1, 1
                pairs += 1
                break
    sinks = R[L.R_MONSTERS] - G[L.G_MONSTERS_PLAYED]
    if sinks:
        return max(0, touching + pairs - sinks * (widest - 1))
    return touching + pairs


@njit(B(A, A, A, A), cache=True)
def runs_short(G, R, available, scratch):
    """Whether some run of empty cells along the order's lines has fewer islands still
    available between the cards around it than cells (bounds.py's ``empty_runs``)."""
    rows, cols, cells, top = R[L.R_ROWS], R[L.R_COLS], R[L.R_CELLS], R[L.R_ISLANDS] + 1
    lines = 1 if R[L.R_ORDER] == 0 else rows + cols
    for ln in range(lines):
        n = 0
        if R[L.R_ORDER] == 0:
            for c in range(cells):
                scratch[n] = c
                n += 1
        elif ln < rows:
            for c in range(cols):
                scratch[n] = ln * cols + c
                n += 1
        else:
            for r in range(rows):
                scratch[n] = r * cols + (ln - rows)
                n += 1
        low, run = 0, 0
        for i in range(n + 1):
            value = top if i == n else G[L.G_HEADER + scratch[i]]
            if i < n and value == 0:
                run += 1
                continue
            if run:
                fits = 0
                for c in range(low + 1, value):
                    fits += available[c]
                if fits < run:
                    return True
            low, run = value, 0
    return False


@njit(B(A, I8, I8, I8, I8), cache=True)
def outlasts_the_start(rest, r0, r1, owed, hand):
    """bounds.py's ``_outlasts_the_start`` on the pile ``rest[r0:r1]``."""
    monsters = 0
    for i in range(r0, r1):
        if rest[i] == L.C_MONSTER:
            monsters += 1
    if owed <= 0:
        return True
    at = r0
    while True:
        end = min(at + hand, r1)
        size = end - at
        if size == 0:
            return False
        if size < owed:
            for i in range(at, end):
                if rest[i] == L.C_MONSTER:
                    return False
            owed -= size
            at = end
            continue
        keep = size - owed
        in_batch_m, finish_in_batch, islands_in_batch = 0, False, 0
        for i in range(at, end):
            if rest[i] == L.C_MONSTER:
                in_batch_m += 1
            elif rest[i] == L.C_FINISH:
                finish_in_batch = True
            elif rest[i] > 0:
                islands_in_batch += 1
        finish_later, islands_later = False, 0
        for i in range(end, r1):
            if rest[i] == L.C_FINISH:
                finish_later = True
            elif rest[i] > 0:
                islands_later += 1
        needed = in_batch_m + (1 if finish_in_batch and not finish_later else 0)
        if needed > keep or (not finish_in_batch and not finish_later):
            return False
        islands = min(keep - needed, islands_in_batch) + islands_later
        return islands >= monsters and keep + (r1 - end) >= 2 * monsters + 1


@njit(B(A, A, A), cache=True)
def solo_start_dooms(G, D, R):
    """bounds.py's two solo checks of the Start event: a Finish cannot outlast a forced first
    round, or the event takes what the win needs."""
    if R[L.R_PLAYERS] != 1 or G[L.G_START_PLAYED] != 0:
        return False
    hand, owed = R[L.R_HAND], R[L.R_START_DISCARDS]
    h0, n = K.hands_at(R), G[K.hand_n_at(R)]
    p0, p1 = D[0] + G[K.drawn_at(R)], D[1]
    start_at = -1
    for i in range(p0, p1):
        if D[i] == L.C_START:
            start_at = i
            break
    in_hand = K.holds(G, h0, n, L.C_START)
    if hand - 1 < owed and not in_hand and start_at >= 0:
        finish_after = False
        for i in range(start_at + 1, p1):
            if D[i] == L.C_FINISH:
                finish_after = True
        if not finish_after:
            return True
    if in_hand:
        held = n - 1
        if K.holds(G, h0, n, L.C_MONSTER) and held < owed:
            return True
        return not outlasts_the_start(D, p0, p1, owed - held, hand)
    if start_at < 0:
        return False
    after0 = start_at + 1
    for j in range(min(hand - 1, p1 - after0) + 1):
        monster_before = False
        for i in range(after0, after0 + j):
            if D[i] == L.C_MONSTER:
                monster_before = True
        for held in range(j, hand):
            if (held >= owed or not monster_before) and outlasts_the_start(D, after0 + j, p1, owed - held, hand):
                return False
    return True


@njit(B(A, A, A, A), cache=True)
def refuted(G, D, R, live):
    """Whether bounds.py's ``refutation`` finds a reason the team can no longer win."""
    islands, cells = R[L.R_ISLANDS], R[L.R_CELLS]
    room = cells + R[L.R_PLAYERS] * R[L.R_HMAX] + (D.shape[0] - D[0])
    in_play = np.empty(room, np.int64)
    count = np.zeros(4, np.int64)
    n = cards_in_play(G, D, R, in_play, count)
    if count[-L.C_FINISH] == 0:
        return True
    sinks = R[L.R_MONSTERS] - G[L.G_MONSTERS_PLAYED]
    if sinks and count[-L.C_MONSTER] < sinks:
        return True
    if solo_start_dooms(G, D, R):
        return True
    empty = 0
    for k in range(cells):
        if G[L.G_HEADER + k] == 0:
            empty += 1
    available = np.zeros(islands + 2, np.int64)
    n_available = 0
    for i in range(n):
        c = in_play[i]
        if c > 0 and live[c] != 0:
            available[c] += 1
            n_available += 1
    if sinks and n_available < empty + sinks:
        return True
    need = empty + 2 * sinks + least_total_cost(G, R) + 1
    if G[L.G_START_PLAYED] == 0:
        need += 1 + R[L.R_START_DISCARDS]
    if n < need:
        return True
    if sinks:
        return False
    return runs_short(G, R, available, np.empty(cells, np.int64))


# -- the table of lost positions ----------------------------------------------------------


@njit(void(A, A, A, K1), cache=True)
def make_key(G, R, live, key):
    """bounds.py's ``state_key``: the grid, each hand with junk (and a second Finish) as one
    token, how far each pile is drawn, whose turn, the Start, the monsters played, the rocks'
    row and the rolls used. Two positions with equal keys have the same future."""
    players, hmax, cells = R[L.R_PLAYERS], R[L.R_HMAX], R[L.R_CELLS]
    start_played = G[L.G_START_PLAYED]
    at = 0
    for c in range(cells):
        key[at] = G[L.G_HEADER + c]
        at += 1
    hand = np.empty(hmax, np.int64)
    for s in range(players):
        n = G[K.hand_n_at(R) + s]
        h0 = K.hands_at(R) + s * hmax
        seen_finish = False
        for k in range(n):
            c = G[h0 + k]
            if c == L.C_FINISH:
                hand[k] = JUNK if seen_finish else L.C_FINISH
                seen_finish = True
            else:
                hand[k] = JUNK if is_junk(c, live, start_played) else c
        hand[:n].sort()
        key[at] = n
        at += 1
        for k in range(hmax):
            key[at] = hand[k] if k < n else PAD
            at += 1
        key[at] = G[K.drawn_at(R) + s]
        at += 1
    key[at] = G[L.G_SEAT]
    key[at + 1] = start_played
    key[at + 2] = G[L.G_MONSTERS_PLAYED]
    key[at + 3] = G[L.G_ROCKS_ROW]
    key[at + 4] = G[L.G_ROLLS_USED]


@njit(uint64(K1), cache=True)
def key_hash(key):
    h = FNV_OFFSET
    for v in key:
        h ^= np.uint64(v & 0xFFFF)
        h *= FNV_PRIME
    return h | np.uint64(1)


@njit(I8(H, K16, K1), cache=True)
def slot_of(hashes, keys, key):
    """The slot holding ``key``, or the empty slot where it would go (open addressing)."""
    h = key_hash(key)
    mask = np.uint64(hashes.shape[0] - 1)
    i = np.int64(h & mask)
    while True:
        if hashes[i] == 0:
            return i
        if hashes[i] == h:
            same = True
            for q in range(key.shape[0]):
                if keys[i, q] != key[q]:
                    same = False
                    break
            if same:
                return i
        i = (i + 1) & np.int64(mask)


@njit(B(H, K16, K1), cache=True)
def known_lost(hashes, keys, key):
    return hashes[slot_of(hashes, keys, key)] != 0


@njit(void(H, K16, K1), cache=True)
def add_lost(hashes, keys, key):
    i = slot_of(hashes, keys, key)
    if hashes[i] == 0:
        hashes[i] = key_hash(key)
        keys[i, :] = key


@njit(UniTuple(I8, 1)(H, K16, H, K16), cache=True)
def rehash(hashes, keys, into_hashes, into_keys):
    moved = 0
    for i in range(hashes.shape[0]):
        if hashes[i] != 0:
            add_lost(into_hashes, into_keys, keys[i])
            moved += 1
    return (moved,)


# -- the search ----------------------------------------------------------------------------


@njit(I8(A), cache=True)
def split_room(R):
    """The most rows one split of a Start puts on the stack: one per rocks move."""
    return R[L.R_ROWS] + most_payments(R[L.R_HMAX], 2) + 1


@njit(UniTuple(I8, 2)(M, A, A, K16, M, M, M, A, H, K16, A, M, A, A, A, A, A, P3, M, I8), cache=True)
def run(Gs, D, R, node_keys, frames, path, stack, st, hashes, keys, live, sh, sh_n, comp, caps, count, at, pays, pays_n, budget):
    """Search on from where ``st`` says, for at most ``budget`` more nodes: (what happened, the
    nodes counted). ``Gs[d]`` is the position at depth d, ``path[d]`` the move played there,
    ``frames[d]`` its moves still to try; ``st[ST_PENDING]`` says the deepest position is yet
    to be looked at. Stops, with nothing half done, to ask for a bigger table or stack."""
    width = stack.shape[1]
    drawn = np.zeros(R[L.R_PLAYERS], np.int64)
    visited = 0
    while True:
        if 2 * (st[ST_LOST] + 1) > hashes.shape[0]:
            return GROW_TABLE, visited
        d = st[ST_DEPTH]
        if st[ST_PENDING] != 0:
            G = Gs[d]
            if G[L.G_WON] != 0:
                return WON, visited
            if visited >= budget:
                return PAUSED, visited
            mark_live(G, R, live)
            key = node_keys[d]
            make_key(G, R, live, key)
            lost = known_lost(hashes, keys, key)
            if lost:
                st[ST_HITS] += 1
            elif refuted(G, D, R, live):
                st[ST_REFUTED] += 1
                add_lost(hashes, keys, key)
                st[ST_LOST] += 1
                lost = True
            if lost:
                visited += 1
                st[ST_PENDING] = 0
                if d == 0:
                    return NO_WIN, visited
                st[ST_DEPTH] = d - 1
                continue
            top = frames[d - 1, F_END] if d > 0 else 0
            end = top
            if K.must_play_start(G, R):
                kind = SPLITS
                owed = K.start_rounds(G, D, R, sh, sh_n, drawn)[0]
                st[ST_OWED] = owed
                if owed >= 0 and first_split(sh, sh_n, owed, live, comp, caps, count, pays, pays_n, at):
                    end = split_moves(G, D, R, live, comp, pays, pays_n, at, stack, top, width)
            else:
                kind = LIST
                if not K.out_of_cards(G, R):
                    end = list_moves(G, D, R, live, stack, top, width)
            if end < 0:
                return GROW_STACK, visited
            visited += 1
            frames[d, F_KIND], frames[d, F_BEGIN], frames[d, F_END], frames[d, F_NEXT] = kind, top, end, top
            st[ST_PENDING] = 0
            continue
        f = frames[d]
        if f[F_NEXT] == f[F_END] and f[F_KIND] == SPLITS and f[F_END] > f[F_BEGIN]:
            if f[F_BEGIN] + split_room(R) > stack.shape[0]:
                return GROW_STACK, visited
            mark_live(Gs[d], R, live)
            if next_split(sh, sh_n, st[ST_OWED], live, comp, caps, count, pays, pays_n, at):
                f[F_END] = split_moves(Gs[d], D, R, live, comp, pays, pays_n, at, stack, f[F_BEGIN], width)
                f[F_NEXT] = f[F_BEGIN]
        if f[F_NEXT] == f[F_END]:
            add_lost(hashes, keys, node_keys[d])
            st[ST_LOST] += 1
            if d == 0:
                return NO_WIN, visited
            st[ST_DEPTH] = d - 1
            continue
        path[d, :] = stack[f[F_NEXT]]
        f[F_NEXT] += 1
        Gs[d + 1, :] = Gs[d]
        K.apply(Gs[d + 1], D, R, path[d])
        st[ST_DEPTH] = d + 1
        st[ST_PENDING] = 1


# -- the way in, from Python ------------------------------------------------------------------


def key_length(R: np.ndarray) -> int:
    return int(R[L.R_CELLS] + R[L.R_PLAYERS] * (R[L.R_HMAX] + 2) + 5)


class LostTable:
    """The positions proven lost, by key, for one rule set and table size: a search may share
    it with later searches of the same deal."""

    def __init__(self, R: np.ndarray, slots: int = 1 << 12):
        self.R = R
        self.hashes = np.zeros(slots, np.uint64)
        self.keys = np.zeros((slots, key_length(R)), np.int16)
        self.count = 0

    def grow(self) -> None:
        hashes = np.zeros(2 * self.hashes.shape[0], np.uint64)
        keys = np.zeros((hashes.shape[0], self.keys.shape[1]), np.int16)
        rehash(self.hashes, self.keys, hashes, keys)
        self.hashes, self.keys = hashes, keys


@dataclass
class Search:
    """One complete search's arrays: run it a budget of nodes at a time."""

    tab: RulesArray
    D: np.ndarray
    Gs: np.ndarray
    node_keys: np.ndarray
    frames: np.ndarray
    path: np.ndarray
    stack: np.ndarray
    st: np.ndarray
    table: LostTable
    scratch: tuple

    @classmethod
    def start(cls, tab: RulesArray, D: np.ndarray, G: np.ndarray, table: LostTable) -> Search:
        R = tab.R
        players, hmax = tab.players, tab.hmax
        # Every move spends a card from a hand, so a line is no longer than the cards left
        # in the hands and piles (a position's deal holds only the piles still to draw).
        depth = int(K.cards_left(G, D, R)) + 2
        Gs = np.zeros((depth + 1, G.shape[0]), np.int64)
        Gs[0] = G
        st = np.zeros(ST_SIZE, np.int64)
        st[ST_PENDING], st[ST_LOST] = 1, table.count
        most = int(most_payments(hmax, hmax // 2)) + 1
        scratch = (
            np.zeros(int(R[L.R_ISLANDS]) + 2, np.int64),  # live
            np.zeros((players, hmax), np.int64),  # the Start's last round: hands
            np.zeros(players, np.int64),  # and their sizes
            np.zeros(players, np.int64),  # comp
            np.zeros(players, np.int64),  # caps
            np.zeros(players, np.int64),  # count
            np.zeros(players, np.int64),  # at
            np.zeros((players, most, hmax), np.int64),  # pays
            np.zeros((players, most), np.int64),  # pays_n
        )
        return cls(
            tab,
            D,
            Gs,
            np.zeros((depth + 1, key_length(R)), np.int16),
            np.zeros((depth + 1, 4), np.int64),
            np.zeros((depth + 1, tab.width), np.int64),
            np.zeros((1024, tab.width), np.int64),
            st,
            table,
            scratch,
        )

    def run(self, budget: int) -> tuple[int, int]:
        """(what happened, nodes counted) after at most ``budget`` nodes; grows what it must."""
        counted = 0
        while True:
            t = self.table
            status, visited = run(
                self.Gs,
                self.D,
                self.tab.R,
                self.node_keys,
                self.frames,
                self.path,
                self.stack,
                self.st,
                t.hashes,
                t.keys,
                *self.scratch,
                budget - counted,
            )
            counted += visited
            t.count = int(self.st[ST_LOST])
            if status == GROW_TABLE:
                t.grow()
            elif status == GROW_STACK:
                bigger = np.zeros((2 * self.stack.shape[0], self.stack.shape[1]), np.int64)
                bigger[: self.stack.shape[0]] = self.stack
                self.stack = bigger
            else:
                return status, counted

    @property
    def line(self) -> np.ndarray:
        return self.path[: int(self.st[ST_DEPTH])]

    @property
    def hits(self) -> int:
        return int(self.st[ST_HITS])

    @property
    def refuted(self) -> int:
        return int(self.st[ST_REFUTED])
