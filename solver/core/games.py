"""Whole games on the compiled core, as the engine's values: what the searches call.

The core plays the silent policies ``tuned``, ``cautious``, ``thrifty`` and ``greedy`` (the
random ones, ``random`` and ``wavering``, draw from Python's generator and stay on the
reference: search/policies.py's ``COMPILED`` says which). ``core_game`` plays one
game and hands back the engine's actions; ``core_outcomes`` plays a batch of games (worlds,
deals) in one call, crossing into compiled code once a batch, and hands back how each ended.
Importing this module imports numba: the commands that never play many games never do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from tranquility.solver.core import kernel, silent
from tranquility.solver.core.layout import (
    A_KIND,
    G_ROCKS_ROW,
    G_WON,
    RulesArray,
    action_of,
    actions_of,
    code,
    deal_array,
    observation_array,
    position_array,
    table,
)
from tranquility.solver.engine.actions import (
    Action,
    DiscardTwo,
    PlayFinish,
    PlayIsland,
    PlayMonster,
    PlayStart,
    RocksMove,
)
from tranquility.solver.engine.observation import Observation
from tranquility.solver.engine.state import State

# How each policy but tuned judges (silent.py's modes): greedy's finish values are (95, 5)
# and its island value 30 - 4 x cost; cautious and thrifty score as cautious does, thrifty
# discarding two from a cost of 3.


@dataclass(frozen=True)
class Scoring:
    """A policy's constants as the core reads them (silent.py's W)."""

    mode: int
    finish: tuple[float, float, float, float]
    discard_from: float = 0.0
    keep: tuple[float, float, float, float] = (20.0, 3.0, 30.0, 1.5)  # base, per cost, tightness, cap


_SCORINGS = {
    "greedy": Scoring(silent.M_GREEDY, (95.0, 5.0, 5.0, 5.0), keep=(30.0, 4.0, 0.0, 0.0)),
    "cautious": Scoring(silent.M_CAUTIOUS, (95.0, 70.0, 40.0, 25.0), discard_from=2.0),
    "thrifty": Scoring(silent.M_CAUTIOUS, (95.0, 70.0, 40.0, 25.0), discard_from=3.0),
}


def weights_vector(policy: str, weights: Any = None) -> np.ndarray:
    """The core's ``W`` for ``policy``; tuned reads its ``weights`` (search/weights.py's
    ``Weights``, as policies.Tuned chose them for the table)."""
    W = np.zeros(silent.W_SIZE, np.float64)
    if policy == "tuned":
        w = weights
        W[silent.W_MODE] = silent.M_TUNED
        W[silent.W_COST], W[silent.W_PRESSURE], W[silent.W_PAID] = w.cost, w.pressure, w.paid
        W[silent.W_MISPLACED], W[silent.W_DEFICIT], W[silent.W_RELIEF] = w.misplaced, w.deficit, w.relief
        W[silent.W_DISCARD_COST], W[silent.W_DISCARD_SCORE] = w.discard_cost, w.discard_score
        W[silent.W_KEEP_BASE], W[silent.W_KEEP_COST] = w.keep_base, w.keep_cost
        W[silent.W_KEEP_TIGHT], W[silent.W_TIGHT_CAP] = w.keep_tight, w.tight_cap
        W[silent.W_FINISH : silent.W_FINISH + 4] = (95.0, w.finish_second, w.finish_later, w.finish_later)
        W[silent.W_GIVE_DEAD] = w.give_dead
        return W
    scoring = _SCORINGS[policy]
    W[silent.W_MODE] = scoring.mode
    W[silent.W_FINISH : silent.W_FINISH + 4] = scoring.finish
    W[silent.W_DISCARD_FROM] = scoring.discard_from
    W[silent.W_KEEP_BASE], W[silent.W_KEEP_COST], W[silent.W_KEEP_TIGHT], W[silent.W_TIGHT_CAP] = scoring.keep
    return W


def _table_for(states: Sequence[State]) -> RulesArray:
    first = states[0]
    hmax = max(first.rules.hand, *(len(h) for s in states for h in s.hands))
    return table(first.rules, first.players, hmax)


def _most_actions(state: State) -> int:
    """More actions than a game from ``state`` can take: each turn plays a card or discards
    two, a Sea Monster empties a cell that takes another card."""
    return state.cards_left + 2 * state.rules.cells + 4 * state.rules.monsters + 8


def core_game(state: State, policy: str, weights: Any = None) -> list[Action]:
    """The actions ``policy`` plays at every seat from ``state`` to the end of the game."""
    tab = _table_for([state])
    W = weights_vector(policy, weights)
    G, D = position_array(tab, state), deal_array(state)
    rows = np.zeros((_most_actions(state), tab.width), np.int64)
    n = silent.play(G, D, tab.R, W, rows)
    if n < 0:
        raise RuntimeError("the core's game outran its room for actions (a bug)")
    return actions_of(rows[:n], tab.players, tab.hmax)


def core_act(obs: Observation, policy: str, weights: Any = None) -> Action:
    """``policy``'s action for the seat to move, from its observation alone."""
    hmax = max(obs.rules.hand, len(obs.hand), *obs.hand_sizes)
    tab = table(obs.rules, obs.players, hmax)
    row = np.zeros(tab.width, np.int64)
    silent.act(observation_array(tab, obs), tab.R, weights_vector(policy, weights), row)
    return action_of(row, tab.players, tab.hmax)


def action_row(action: Action, tab: RulesArray) -> np.ndarray:
    """The core's row for one of the engine's actions."""
    from tranquility.solver.core import layout as L

    row = np.zeros(tab.width, np.int64)
    row[L.A_SEAT] = action.seat

    def paid(cards, at=L.A_PAID) -> None:
        for k, card in enumerate(cards):
            row[at + k] = code(card)

    match action:
        case PlayIsland():
            row[L.A_KIND], row[L.A_CARD], row[L.A_CELL] = L.K_ISLAND, action.card, action.cell
            row[L.A_PAID_N] = len(action.discard)
            paid(action.discard)
        case DiscardTwo():
            row[L.A_KIND], row[L.A_PAID_N] = L.K_DISCARD, len(action.discard)
            paid(action.discard)
        case PlayMonster():
            row[L.A_KIND], row[L.A_CELL] = L.K_MONSTER, action.cell
        case PlayFinish():
            row[L.A_KIND] = L.K_FINISH
        case PlayStart():
            row[L.A_KIND] = L.K_START
            for seat, cards in enumerate(action.team_discard):
                at = L.A_PAID + tab.hmax + seat * (tab.hmax + 1)
                row[at] = len(cards)
                paid(cards, at + 1)
    rocks: RocksMove | None = action.rocks
    if rocks is not None:
        if rocks.row is None:
            row[L.A_ROCKS] = L.ROCKS_STAY
            paid(rocks.discard, L.A_ROCKS_PAID)
        else:
            row[L.A_ROCKS], row[L.A_ROCKS_ROW] = L.ROCKS_MOVE, rocks.row
    return row


def core_outcomes(
    states: Sequence[State], policy: str, firsts: Sequence[Action] | None = None, weights: Any = None
) -> np.ndarray:
    """Each of ``states`` (one rule set and player count) after its move in ``firsts`` (if
    given) played to the end with ``policy`` at every seat, in one compiled call: a row of
    (won, cells filled, cards left) each."""
    tab = _table_for(states)
    W = weights_vector(policy, weights)
    # A search plays each of its worlds once per move: each distinct state is packed once.
    at: dict[int, int] = {}
    unique: list[State] = []
    for state in states:
        if id(state) not in at:
            at[id(state)] = len(unique)
            unique.append(state)
    which = np.array([at[id(state)] for state in states])
    Gs = np.stack([position_array(tab, s) for s in unique])[which]
    deals = [deal_array(s) for s in unique]
    Ds = np.zeros((len(deals), max(len(d) for d in deals)), np.int64)
    for i, d in enumerate(deals):
        Ds[i, : len(d)] = d
    return silent.outcomes(Gs, np.ascontiguousarray(Ds[which]), tab.R, W, _first_rows(len(states), firsts, tab), tab.width)


def array_outcomes(
    tab: RulesArray, Gs: np.ndarray, Ds: np.ndarray, policy: str, firsts: Sequence[Action], weights: Any = None
) -> np.ndarray:
    """``core_outcomes`` for games already in the core's arrays (rows of ``Gs`` and ``Ds``
    for the table ``tab``): each after its move in ``firsts``, in one compiled call."""
    W = weights_vector(policy, weights)
    return silent.outcomes(Gs, Ds, tab.R, W, _first_rows(len(Gs), firsts, tab), tab.width)


def _first_rows(count: int, firsts: Sequence[Action] | None, tab: RulesArray) -> np.ndarray:
    """The core's rows of ``firsts`` (each distinct action packed once); kind -1 where none."""
    rows = np.zeros((count, tab.width), np.int64)
    rows[:, A_KIND] = -1
    moves: dict[Action, np.ndarray] = {}
    for i, move in enumerate(firsts or ()):
        row = moves.get(move)
        if row is None:
            row = moves[move] = action_row(move, tab)
        rows[i] = row
    return rows


def core_choices(state: State) -> list[tuple[int, int, int]]:
    """(card, cell, cost) of every legal island play, by the core: for the parity tests."""
    tab = _table_for([state])
    G = position_array(tab, state)
    if G[G_WON] or kernel.out_of_cards(G, tab.R) or kernel.must_play_start(G, tab.R):
        return []
    seat = state.seat
    hands = kernel.hands_at(tab.R) + seat * tab.hmax
    n = len(state.hands[seat])
    out = np.zeros((n * state.rules.cells + 1, 3), np.int64)
    found = kernel.island_plays(G, kernel.grid_at(tab.R), G[G_ROCKS_ROW], G, hands, n, tab.R, out)
    return [tuple(int(v) for v in out[k]) for k in range(found)]  # type: ignore[misc]
