"""The randomised greedy player that finds wins fast: one heuristic move at a time, its
weights drawn anew at each restart (``Style``); ``best_playout`` (``Playouts``) keeps the
best of many, and ``restarts`` improves a line by playing on from its turns."""

from __future__ import annotations

import random
import sys
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from tranquility.solver.engine.actions import (
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
from tranquility.solver.engine.cards import FINISH, MONSTER, Card, is_island, remove_held
from tranquility.solver.engine.rules import Order, Rocks
from tranquility.solver.engine.state import IslandPlay, State, Status, geometry_of
from tranquility.solver.errors import InternalError
from tranquility.solver.search.bounds import (
    _every_island,
    _islands_out,
    empty_runs,
    finishing_seat,
    is_junk,
    live_islands,
    monsters_left,
)
from tranquility.solver.search.budget import Deadline, SearchStats
from tranquility.solver.search.compiled import load, ready
from tranquility.solver.search.moves import _spare_finishes, choice_actions
from tranquility.solver.search.placements import cheapest_cost, cheapest_costs_if_emptied, reading_runs

if TYPE_CHECKING:  # the compiled core (numba) is imported by the playouts that use it, not here
    import numpy as np
    from tranquility.solver.core.greedy import Series


class FinishKeeper(StrEnum):
    """Whose Finish card the Start's team discard keeps, when the other cards can pay."""

    # The first seat holding one: the greedy's decisions, the puzzles' grades and the
    # odds' lines were measured with it, and it wins the same deals as DUE (docs/model.md).
    FIRST = "first"
    # The seat due to play the Finish if no discard two comes (``finishing_seat``): kept by
    # another seat, the Finish needs discard twos to come round to it, each one turn and
    # two cards more. The greedy baseline of ``solve --objective`` uses both.
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
        for (_, can_pay), cost in zip(held, cheapest_costs_if_emptied(state, cell, cards), strict=True):
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
        self.runs = reading_runs(state)
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
    best = cheapest_cost(state, card)
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
    compiled: _Compiled | None = None
    while deadline.tick():
        k = stats.playouts
        stats.playouts += 1
        if compiled is None and _compiling():
            compiled = _Compiled(state, [rng])
        if compiled is None:
            line, end = _on_reference(state, rng, Style.draw(rng, k))
            if end.won:
                return line
        elif compiled.play(0, k):
            return compiled.line()
    return None


# The playouts a process plays on the reference before it loads the compiled core: loading
# numba and the core's cached code takes about 2 CPU seconds, some 300 reference playouts,
# and most solves win within their first few. Both play the same lines, so a series
# switches at any playout; the core is loaded by a process of its own meanwhile (the first
# load after install compiles it, for tens of seconds: core/warm.py), and once it is loaded
# it plays them all.
REFERENCE_PLAYOUTS = 30
_played_on_reference = 0
COMPILED_GREEDY = "tranquility.solver.core.greedy"


def _compiling() -> bool:
    if COMPILED_GREEDY not in sys.modules and _played_on_reference < REFERENCE_PLAYOUTS:
        return False
    return ready(COMPILED_GREEDY)  # under compiled's lock: another thread may be importing it


def _on_reference(state: State, rng: random.Random, style: Style) -> tuple[list[Action], State]:
    global _played_on_reference
    _played_on_reference += 1
    return greedy_playout(state, rng, style)


def playout(state: State, rng: random.Random, style: Style) -> tuple[list[Action], State]:
    """``greedy_playout``'s line and end position, played on the compiled core once the
    process has it (``REFERENCE_PLAYOUTS``): the same either way, ``rng`` left as it leaves it."""
    if _compiling():
        return core_playout(state, rng, style)
    return _on_reference(state, rng, style)


class _Compiled:
    """Playouts from one position on the compiled core, each of ``rngs`` (a series each)
    carried on from where the reference left it."""

    def __init__(self, state: State, rngs: list[random.Random], keepers: tuple[FinishKeeper, ...] = (FinishKeeper.FIRST,)):
        from tranquility.solver.core import greedy as core
        from tranquility.solver.core.twister import state_of

        self.core, self.series = core, core.Series(state)
        self.rngs = [state_of(rng) for rng in rngs]
        self.styles = [core.style_vector(0, 0, 0, 0, keeper == FinishKeeper.DUE) for keeper in keepers]
        self.n = 0

    def play(self, turn: int, k: int) -> bool:
        """Series ``turn``'s playout ``k`` (``Style.draw``'s); whether it won."""
        rng, style = self.rngs[turn], self.styles[turn]
        self.core.draw_style(rng, k, style)
        self.n, won = self.series.play(rng, style)
        return won

    def line(self) -> list[Action]:
        return self.series.actions(self.n)


def seeded_playouts(state: State, seed: int, count: int, compiled: bool = True) -> list[tuple[bool, int]]:
    """Won, and how many actions, of each of ``greedy``'s first ``count`` playouts from
    ``state`` (played on even after a win), by the compiled core or by the reference
    ``greedy_playout``: for the benchmarks, which time both on the same playouts."""
    found = []
    if compiled:
        load(COMPILED_GREEDY)
        from tranquility.solver.core import greedy as core

        series, drawn, style = core.Series(state), _generator(seed), core.style_vector(0, 0, 0, 0, False)
        for k in range(count):
            core.draw_style(drawn, k, style)
            n, won = series.play(drawn, style)
            found.append((won, n))
        return found
    rng = random.Random(seed)
    for k in range(count):
        line, end = greedy_playout(state, rng, Style.draw(rng, k))
        found.append((end.won, len(line)))
    return found


def _generator(seed: int) -> np.ndarray:
    """The state of ``random.Random(seed)`` for the compiled playouts, which draw from it as
    the reference's ``greedy_playout`` draws from the generator itself."""
    from tranquility.solver.core.twister import state_of

    return state_of(random.Random(seed))


def _core_style(style: Style) -> np.ndarray:
    from tranquility.solver.core.greedy import style_vector

    return style_vector(style.noise, style.room, style.economy, style.dear, style.keeper == FinishKeeper.DUE)


def core_playout(state: State, rng: random.Random, style: Style) -> tuple[list[Action], State]:
    """``greedy_playout`` played by the compiled core: the same line and end position (the
    engine's replay of the line), ``rng`` left in the same state."""
    from tranquility.solver.core.greedy import Series
    from tranquility.solver.core.twister import hand_back, state_of

    series, drawn = Series(state), state_of(rng)
    n, _ = series.play(drawn, _core_style(style))
    hand_back(rng, drawn)
    line = series.actions(n)
    return line, _replayed(state, line, series.end())[-1]


def _replayed(state: State, line: list[Action], end: State) -> list[State]:
    """The positions of ``line`` from ``state``, replayed on the engine, which must reach the
    ``end`` the core read off its arrays: the lines the playouts keep are the engine's."""
    states = [state]
    for action in line:
        states.append(states[-1].apply(action))
    if states[-1] != end:
        raise InternalError(f"the compiled greedy playout ended elsewhere than the engine's replay of its line: {end!r}")
    return states


def best_playout(
    state: State,
    count: int,
    seed: int,
    value: Callable[[list[Action], State], float],
    keepers: Iterable[FinishKeeper] = (FinishKeeper.FIRST,),
):
    """``count`` seeded greedy playouts (``Playouts``) for each of ``keepers``: the number
    that win, and the winning line with the highest ``value`` (the first found on ties), or
    None."""
    playouts = Playouts(state, seed, value, tuple(keepers))
    playouts.play(Deadline(nodes=count * len(playouts.keepers)))
    return playouts.wins, playouts.best


class Playouts:
    """Seeded greedy playouts (as ``greedy`` draws them), played on demand: each of
    ``keepers`` has its own series from ``seed`` (so ``FIRST``'s are ``greedy``'s own), and
    the series take turns, so that a run cut short has played every keeper's first
    playouts. Keeps how many were played and won, and the winning line with the highest
    ``value`` (the first found on ties)."""

    def __init__(
        self,
        state: State,
        seed: int,
        value: Callable[[list[Action], State], float],
        keepers: tuple[FinishKeeper, ...] = (FinishKeeper.FIRST,),
    ):
        self.state, self.value, self.keepers = state, value, keepers
        self.rngs = [random.Random(seed) for _ in keepers]
        self.compiled: _Compiled | None = None
        self.played = self.wins = 0
        self.best: list[Action] | None = None
        self.best_value: float | None = None

    def play(self, deadline: Deadline, enough: float | None = None) -> None:
        """Play on, one tick of ``deadline`` a playout, while it allows and the best value
        is below ``enough`` (when given: nothing beats a line that meets the bound)."""
        series = len(self.keepers)
        while (enough is None or self.best_value is None or self.best_value < enough) and deadline.tick():
            turn, k = self.played % series, self.played // series
            if self.compiled is None and _compiling():
                self.compiled = _Compiled(self.state, self.rngs, self.keepers)
            compiled = self.compiled
            if compiled is None:
                rng = self.rngs[turn]
                line, end = _on_reference(self.state, rng, replace(Style.draw(rng, k), keeper=self.keepers[turn]))
                won = end.won
            elif won := compiled.play(turn, k):
                line, end = compiled.line(), compiled.series.end()
            self.played += 1
            if won:
                self.wins += 1
                v = self.value(line, end)
                if self.best_value is None or v > self.best_value:
                    if compiled is not None:
                        _replayed(self.state, line, end)
                    self.best, self.best_value = line, v


@dataclass(frozen=True)
class Restarted:
    """What ``restarts`` ended with: the best line and its value, and how many restarts ran
    and how many of them gave a line at least as good."""

    line: list[Action]
    value: float
    restarts: int
    taken: int


def restarts(
    state: State,
    line: list[Action],
    value: Callable[[list[Action], State], float],
    deadline: Deadline,
    seed: int,
    keepers: tuple[FinishKeeper, ...] = (FinishKeeper.FIRST,),
    enough: float | None = None,
) -> Restarted:
    """Greedy restarts from the best line's turns: each restart (one tick of ``deadline``)
    keeps the line up to a turn drawn at random, plays greedy from there with freshly
    drawn weights (and a random one of ``keepers``) and takes the new line when its
    ``value`` is at least the best's, so that equal lines move the search along a plateau.
    ``line`` is a winning continuation from ``state``; stops once the value reaches
    ``enough`` (when given). Seeded by ``seed``: a count of restarts gives the same line on
    every run."""
    rng = random.Random(seed)
    drawn: np.ndarray | None = None  # rng's state, once the compiled core plays
    series: Series | None = None
    line = list(line)
    states = [state]
    for action in line:
        states.append(states[-1].apply(action))
    best = value(line, states[-1])
    done = taken = 0
    while line and (enough is None or best < enough) and deadline.tick():
        if drawn is None and _compiling():
            from tranquility.solver.core import greedy as core
            from tranquility.solver.core.twister import below, state_of

            drawn, style = state_of(rng), core.style_vector(0, 0, 0, 0, False)
        done += 1
        if drawn is None:
            cut = rng.randrange(len(line))
            # Mostly noisy weights, sometimes nearly plain ones (``Style.draw``'s first few).
            weights = replace(Style.draw(rng, 1 + rng.randrange(RESTART_STYLES)), keeper=rng.choice(keepers))
            tail, end = _on_reference(states[cut], rng, weights)
            if not end.won:
                continue
        else:  # the same draws, in the same order, on the core
            cut = below(drawn, len(line))
            core.draw_style(drawn, 1 + below(drawn, RESTART_STYLES), style)
            style[core.Y_KEEPER] = keepers[below(drawn, len(keepers))] == FinishKeeper.DUE
            series = core.Series(states[cut], None if series is None else series.deal)  # one deal: its array once
            n, won = series.play(drawn, style)
            if not won:
                continue
            tail, end = series.actions(n), series.end()
        v = value(line[:cut] + tail, end)
        if v >= best:
            line, best, taken = line[:cut] + tail, v, taken + 1
            states[cut:] = _replayed(states[cut], tail, end)
    return Restarted(line, best, done, taken)


RESTART_STYLES = 20  # a restart's weights are drawn as those of playout 1..20 are
RESTARTS = "restarts"  # the solve's phase (Phase.method) and its statistics' key
