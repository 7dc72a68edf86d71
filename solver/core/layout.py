"""The game as flat integer arrays, the compiled core's only currency, and the way back.

Four arrays hold a game (all ``int64`` but the weights):

- ``R``, the rules, the grid's geometry and the table's size: public, what every seat knows;
- ``D``, the deal: every pile in full and the Jagged Rocks' rolls (never shown to a policy);
- ``G``, the position: whose turn, the grid, every hand, how far each pile is drawn, the
  cards gone; a move rewrites it in place;
- ``O``, one seat's observation (``observe`` in kernel.py): the public part of ``G`` and that
  seat's own hand, nothing else. The compiled policies read ``R`` and ``O`` alone.

Cards are small integers: an island is its number, the special cards are negative and an
empty cell or slot is 0. An action is one row of ``ACTION_WIDTH(R)`` integers. This module is
plain Python (numpy only): it packs a ``State`` and unpacks actions into the engine's values,
so that the engine stays the one judge of every line the core plays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from tranquility.solver.engine.actions import (
    Action,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.observation import Observation
from tranquility.solver.engine.rules import Adjacency, OneCard, Order, Rocks, Rules
from tranquility.solver.engine.state import State, geometry_of

# Card codes (islands are their numbers; 0 is an empty cell or slot).
C_FINISH, C_MONSTER, C_START = -1, -2, -3
CODES: dict[str, int] = {FINISH: C_FINISH, MONSTER: C_MONSTER, START: C_START}
CARDS: dict[int, Card] = {code: card for card, code in CODES.items()}

# R: the rules and the geometry. The header's slots, then padded tables at the offsets the
# header names.
(
    R_ROWS,
    R_COLS,
    R_ISLANDS,
    R_FINISH,
    R_HAND,
    R_START_DISCARDS,
    R_ORDER,  # 0 sequence, 1 grid
    R_ADJACENCY,  # 0 sequence, 1 orthogonal, 2 both
    R_ONE_CARD,  # 0 play, 1 lose
    R_MONSTERS,
    R_ROCKS,  # 0 off, 1 auto, 2 manual
    R_PLAYERS,
    R_CELLS,
    R_HMAX,  # room for one hand
    R_LEAVE_ROWS,
    R_GONE_MAX,
    R_NEAR,  # offset: cells x NEAR_MAX neighbours, -1 padded
    R_BEFORE,  # offset: cells x cells, the cells that must hold smaller cards, -1 padded
    R_AFTER,  # offset: cells x cells, the cells that must hold larger cards, -1 padded
    R_TIED,  # offset: cells x cells, 1 if the second cell must hold a smaller card, 2 a larger
    R_G_SIZE,  # the size of G
    R_O_SIZE,  # the size of O
) = range(22)
R_HEADER = 24
NEAR_MAX = 6

# G: the position.
G_SEAT, G_TURN, G_START_PLAYED, G_WON, G_MONSTERS_PLAYED, G_ROCKS_ROW, G_ROLLS_USED, G_DISCARDED, G_GONE_N = range(9)
G_HEADER = 12
# D: the deal. D[0:players+1] are the piles' offsets into D, then the piles, then the rolls.

# O: a seat's observation.
O_SEAT, O_TO_MOVE, O_START_PLAYED, O_MONSTERS_PLAYED, O_ROCKS_ROW, O_DISCARDED, O_HAND_N, O_GONE_N = range(8)
O_HEADER = 8

# An action's row.
A_KIND, A_SEAT, A_CARD, A_CELL, A_ROCKS, A_ROCKS_ROW, A_ROCKS_PAID, A_PAID_N, A_PAID = 0, 1, 2, 3, 4, 5, 6, 8, 9
K_ISLAND, K_START, K_FINISH, K_DISCARD, K_MONSTER = range(5)
ROCKS_NONE, ROCKS_MOVE, ROCKS_STAY = range(3)


def hmax_for(rules: Rules, hands: tuple[tuple[Card, ...], ...]) -> int:
    return max([rules.hand, *(len(h) for h in hands)])


def action_width(players: int, hmax: int) -> int:
    """An action's row: the header and the paid cards, then one (count, cards) block per seat
    for the Start's team discard."""
    return A_PAID + hmax + players * (hmax + 1)


def code(card: Card) -> int:
    if is_island(card):
        return card
    assert isinstance(card, str), card
    return CODES[card]


def card_of(value: int) -> Card:
    return int(value) if value > 0 else CARDS[int(value)]


@dataclass(frozen=True)
class RulesArray:
    """A rule set at a player count (and hand room) as the core's ``R`` array."""

    rules: Rules
    players: int
    R: np.ndarray

    @property
    def hmax(self) -> int:
        return int(self.R[R_HMAX])

    @property
    def width(self) -> int:
        return action_width(self.players, self.hmax)


_TABLES: dict[tuple[Rules, int, int], RulesArray] = {}


def table(rules: Rules, players: int, hmax: int) -> RulesArray:
    key = (rules, players, hmax)
    found = _TABLES.get(key)
    if found is None:
        found = _TABLES[key] = RulesArray(rules, players, _rules_array(rules, players, hmax))
    return found


def _rules_array(rules: Rules, players: int, hmax: int) -> np.ndarray:
    geo = geometry_of(rules)
    cells = rules.cells
    gone_max = 2 * rules.monsters
    near_at = R_HEADER
    before_at = near_at + cells * NEAR_MAX
    after_at = before_at + cells * cells
    tied_at = after_at + cells * cells
    R = np.full(tied_at + cells * cells, -1, dtype=np.int64)
    R[tied_at:] = 0
    R[R_ROWS], R[R_COLS], R[R_ISLANDS], R[R_FINISH] = rules.rows, rules.cols, rules.islands, rules.finish
    R[R_HAND], R[R_START_DISCARDS] = rules.hand, rules.start_discards
    R[R_ORDER] = 0 if rules.order == Order.SEQUENCE else 1
    R[R_ADJACENCY] = {Adjacency.SEQUENCE: 0, Adjacency.ORTHOGONAL: 1, Adjacency.BOTH: 2}[rules.adjacency]
    R[R_ONE_CARD] = 0 if rules.one_card == OneCard.PLAY else 1
    R[R_MONSTERS] = rules.monsters
    R[R_ROCKS] = {Rocks.OFF: 0, Rocks.AUTO: 1, Rocks.MANUAL: 2}[rules.rocks]
    R[R_PLAYERS], R[R_CELLS], R[R_HMAX] = players, cells, hmax
    R[R_LEAVE_ROWS], R[R_GONE_MAX] = rules.rocks_leave_rows, gone_max
    R[R_NEAR], R[R_BEFORE], R[R_AFTER], R[R_TIED] = near_at, before_at, after_at, tied_at
    R[R_G_SIZE] = G_HEADER + cells + players + players * hmax + players + gone_max
    R[R_O_SIZE] = O_HEADER + cells + 2 * players + hmax + gone_max
    for cell in range(cells):
        for k, other in enumerate(geo.neighbours[cell]):
            R[near_at + cell * NEAR_MAX + k] = other
        for k, other in enumerate(geo.before[cell]):
            R[before_at + cell * cells + k] = other
            R[tied_at + cell * cells + other] = 1
        for k, other in enumerate(geo.after[cell]):
            R[after_at + cell * cells + k] = other
            R[tied_at + cell * cells + other] = 2
    return R


# Where G's parts start, for the Python side (kernel.py works them out from R itself).
def g_offsets(R: np.ndarray) -> tuple[int, int, int, int, int]:
    cells, players, hmax = int(R[R_CELLS]), int(R[R_PLAYERS]), int(R[R_HMAX])
    grid = G_HEADER
    hand_n = grid + cells
    hands = hand_n + players
    drawn = hands + players * hmax
    gone = drawn + players
    return grid, hand_n, hands, drawn, gone


def pack(state: State, hmax: int | None = None) -> tuple[RulesArray, np.ndarray, np.ndarray]:
    """The core's (table, D, G) for ``state``."""
    rules, players = state.rules, state.players
    tab = table(rules, players, hmax or hmax_for(rules, state.hands))
    return tab, deal_array(state), position_array(tab, state)


def deal_array(state: State) -> np.ndarray:
    piles = state.deal.piles
    rolls = state.deal.rocks_rolls
    at = len(piles) + 1
    offsets = [at]
    for pile in piles:
        at += len(pile)
        offsets.append(at)
    values = offsets + [code(c) for pile in piles for c in pile] + list(rolls)
    return np.array(values, dtype=np.int64)


def position_array(tab: RulesArray, state: State) -> np.ndarray:
    R = tab.R
    grid_at, hand_n_at, hands_at, drawn_at, gone_at = g_offsets(R)
    hmax = tab.hmax
    G = np.zeros(int(R[R_G_SIZE]), dtype=np.int64)
    G[G_SEAT], G[G_TURN] = state.seat, state.turn
    G[G_START_PLAYED], G[G_WON] = state.start_played, state.won
    G[G_MONSTERS_PLAYED] = state.monsters_played
    G[G_ROCKS_ROW] = -1 if state.rocks_row is None else state.rocks_row
    G[G_ROLLS_USED], G[G_DISCARDED], G[G_GONE_N] = state.rolls_used, len(state.discarded), len(state.gone)
    for cell, value in enumerate(state.grid):
        G[grid_at + cell] = 0 if value is None else value
    for seat, hand in enumerate(state.hands):
        if len(hand) > hmax:
            raise ValueError(f"seat {seat}'s hand of {len(hand)} cards does not fit the core's room of {hmax}")
        G[hand_n_at + seat] = len(hand)
        for k, card in enumerate(hand):
            G[hands_at + seat * hmax + k] = code(card)
        G[drawn_at + seat] = state.drawn[seat]
    for k, card in enumerate(state.gone):
        G[gone_at + k] = code(card)
    return G


def observation_array(tab: RulesArray, obs: Observation) -> np.ndarray:
    """The core's ``O`` for a seat's observation (kernel.py's ``observe`` gives the same from
    ``G``)."""
    R = tab.R
    cells, players, hmax = obs.rules.cells, obs.players, tab.hmax
    O = np.zeros(int(R[R_O_SIZE]), dtype=np.int64)
    O[O_SEAT], O[O_TO_MOVE], O[O_START_PLAYED] = obs.seat, obs.to_move, obs.start_played
    O[O_MONSTERS_PLAYED], O[O_DISCARDED] = obs.monsters_played, obs.discarded
    O[O_ROCKS_ROW] = -1 if obs.rocks_row is None else obs.rocks_row
    O[O_HAND_N], O[O_GONE_N] = len(obs.hand), len(obs.gone)
    at = O_HEADER
    O[at : at + cells] = [0 if v is None else v for v in obs.grid]
    at += cells
    O[at : at + players] = obs.hand_sizes
    at += players
    O[at : at + players] = obs.pile_sizes
    at += players
    O[at : at + len(obs.hand)] = [code(c) for c in obs.hand]
    at += hmax
    O[at : at + len(obs.gone)] = [code(c) for c in obs.gone]
    return O


def _cards(row: list[int], at: int, n: int) -> tuple[Card, ...]:
    return tuple(card_of(v) for v in row[at : at + n])


def _rocks(row: list[int]) -> RocksMove | None:
    kind = row[A_ROCKS]
    if kind == ROCKS_NONE:
        return None
    if kind == ROCKS_MOVE:
        return RocksMove(row[A_ROCKS_ROW])
    return RocksMove(None, _cards(row, A_ROCKS_PAID, 2))


def action_of(array: np.ndarray, players: int, hmax: int) -> Action:
    """The engine's action for one of the core's action rows."""
    return _action(array.tolist(), players, hmax)  # Python ints: numpy's scalars cost more than the rest


def actions_of(rows: np.ndarray, players: int, hmax: int) -> list[Action]:
    """The engine's actions for the core's action rows ``rows`` (one conversion for them all)."""
    return [_action(row, players, hmax) for row in rows.tolist()]


def _action(row: list[int], players: int, hmax: int) -> Action:
    kind, seat = row[A_KIND], row[A_SEAT]
    rocks = _rocks(row)
    paid = _cards(row, A_PAID, row[A_PAID_N])
    if kind == K_ISLAND:
        return PlayIsland(seat=seat, card=row[A_CARD], cell=row[A_CELL], discard=paid, rocks=rocks)
    if kind == K_DISCARD:
        return DiscardTwo(seat=seat, discard=paid, rocks=rocks)
    if kind == K_MONSTER:
        return PlayMonster(seat=seat, cell=row[A_CELL], rocks=rocks)
    if kind == K_FINISH:
        return PlayFinish(seat=seat, rocks=rocks)
    split = []
    for s in range(players):
        at = A_PAID + hmax + s * (hmax + 1)
        split.append(_cards(row, at + 1, row[at]))
    return PlayStart(seat=seat, team_discard=tuple(split), rocks=rocks)
