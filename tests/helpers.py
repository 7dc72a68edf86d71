"""Shared helpers for the engine tests: tiny hand-made deals, positions, and an oracle.

The oracle (``oracle_*``) is written from the rules text of docs/rules.md and
deliberately calls none of the engine's rule functions, so that the property tests compare
two independent readings of the same rules.
"""

from __future__ import annotations

import functools
import json
import random
import signal
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations, islice, product
from pathlib import Path

import pytest
from click.testing import CliRunner
from tranquility.cli.main import main
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.actions import Action, Choice, ChoiceKind
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island, sorted_cards
from tranquility.solver.engine.deal import Deal, DealError, deal, pile_sizes
from tranquility.solver.engine.rules import Adjacency, OneCard, Order, Rocks, Rules
from tranquility.solver.engine.state import State, Status
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Method, Verdict


def default_ctrl_c() -> None:
    """For ``preexec_fn``: SIGINT at its default, as a user's shell starts a command. A
    pytest-xdist worker, or a job a shell started in the background, ignores SIGINT, and
    an ignored signal stays ignored in its children (Python then raises no KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# The smallest useful rule set: one row of four cells, eight islands, one Finish card.
TINY = {"rows": 1, "cols": 4, "islands": 8, "finish": 1, "hand": 3, "start_discards": 2}


def tiny_rules(**options) -> Rules:
    return Rules(**{**TINY, **options})


def make_deal(piles: Iterable[Iterable], rules: Rules | None = None, **kwargs) -> Deal:
    """A hand-made deal (``kwargs``: removed_islands, rocks_row, rocks_rolls, seed)."""
    deal = Deal(rules=rules or tiny_rules(), piles=tuple(tuple(p) for p in piles), **kwargs)
    deal.check()
    return deal


def simple_deal(rules: Rules, players: int = 1, **kwargs) -> Deal:
    """A legal deal without shuffling: islands ascending, then Finish and monster cards,
    split as the dealer splits them, each Start just below its seat's opening hand."""
    cards = [*range(1, rules.islands - rules.removed + 1), *[FINISH] * rules.finish, *[MONSTER] * rules.monsters]
    removed = tuple(range(rules.islands - rules.removed + 1, rules.islands + 1))
    piles, at = [], 0
    for size in pile_sizes(len(cards), players):
        pile = cards[at : at + size]
        piles.append(pile[: rules.hand] + [START] + pile[rules.hand :])
        at += size
    if rules.rocks != Rocks.OFF:
        kwargs.setdefault("rocks_row", 0)
    return make_deal(piles, rules, removed_islands=removed, **kwargs)


def at(grid=None, hands=None, players: int = 1, deal: Deal | None = None, **options) -> State:
    """A position on a ``simple_deal`` of ``tiny_rules(**options)`` (or of ``deal``);
    options naming a State field (start_played, rocks_row...) set that field instead."""
    changes = {k: options.pop(k) for k in list(options) if k in State.__dataclass_fields__}
    deal = deal or simple_deal(tiny_rules(**options), players)
    return position(State.initial(deal), grid, hands, **changes)


def position(state: State, grid=None, hands=None, **changes) -> State:
    """``state`` with some cells filled ({cell: card} or a full list) and/or new hands."""
    if grid is not None:
        if isinstance(grid, dict):
            cells = [None] * state.rules.cells
            for cell, card in grid.items():
                cells[cell] = card
            grid = cells
        changes["grid"] = tuple(grid)
    if hands is not None:
        changes["hands"] = tuple(sorted_cards(h) for h in hands)
    return replace(state, **changes)


def choices(state: State) -> set[Choice]:
    return set(state.legal_choices())


def island_choices(state: State) -> set[tuple[int, int]]:
    return {(c.island, c.target) for c in state.legal_choices() if c.kind == ChoiceKind.ISLAND}


def kinds(state: State) -> set[ChoiceKind]:
    return {c.kind for c in state.legal_choices()}


# -- the oracle ------------------------------------------------------------------------


def oracle_neighbours(rules: Rules, cell: int) -> set[int]:
    """Cells whose placed card sets the cost of a play into ``cell`` (rule 'adjacency')."""
    rows, cols = rules.rows, rules.cols
    row, col = divmod(cell, cols)
    near: set[int] = set()
    if rules.adjacency in ("sequence", "both"):
        # Just before and just after in reading order, even on another row.
        near |= {n for n in (cell - 1, cell + 1) if 0 <= n < rows * cols}
    if rules.adjacency in ("orthogonal", "both"):
        for r, c in ((row, col - 1), (row, col + 1), (row - 1, col), (row + 1, col)):
            if 0 <= r < rows and 0 <= c < cols:
                near.add(r * cols + c)
    return near


def oracle_ascending(rules: Rules, grid) -> bool:
    """Is the whole grid ascending for rule 'order'? Checks every pair of placed cards."""
    placed = [(cell, card) for cell, card in enumerate(grid) if card is not None]
    for a, x in placed:
        for b, y in placed:
            if a >= b:
                continue
            if rules.order == "sequence":
                if not x < y:  # reading order: a comes before b
                    return False
            else:
                (ra, ca), (rb, cb) = divmod(a, rules.cols), divmod(b, rules.cols)
                if (ra == rb or ca == cb) and not x < y:  # left of / below b
                    return False
    return True


def oracle_cost(rules: Rules, grid, card: int, cell: int) -> int | None:
    """The cost of ``card`` into empty ``cell``: smallest gap to a placed neighbour, 0 if
    none; None if the grid would stop ascending."""
    trial = list(grid)
    trial[cell] = card
    if not oracle_ascending(rules, trial):
        return None
    gaps = [abs(card - grid[n]) for n in oracle_neighbours(rules, cell) if grid[n] is not None]
    return min(gaps, default=0)


def oracle_complete_rows(rules: Rules, grid) -> int:
    return sum(
        all(grid[r * rules.cols + c] is not None for c in range(rules.cols)) for r in range(rules.rows)
    )


def oracle_rock_rows(rules: Rules, grid, rocks_row: int) -> list[int]:
    """Rows the rocks may move to: the other rows with an empty cell, ascending."""
    return [
        r
        for r in range(rules.rows)
        if r != rocks_row and any(grid[r * rules.cols + c] is None for c in range(rules.cols))
    ]


def oracle_start_round(state: State):
    """Solo reading: while the hands hold fewer cards than are owed, all are discarded and
    every seat draws up. Returns (hands, owed) of the last round, where the team chooses,
    or None when hands and piles run dry first (the Start cannot be played)."""
    rules = state.rules
    hands = [list(h) for h in state.hands]
    hands[state.seat].remove(START)
    piles = [list(state.pile(s)) for s in range(state.players)]
    owed = rules.start_discards
    while sum(map(len, hands)) < owed:
        if not any(hands) and not any(piles):  # hands and piles have run dry
            return None
        owed -= sum(map(len, hands))
        hands = [pile[: rules.hand] for pile in piles]
        piles = [pile[rules.hand :] for pile in piles]
    return hands, owed


def oracle_start_payable(state: State) -> bool:
    return oracle_start_round(state) is not None


def oracle_payments(cards, k: int) -> set[tuple]:
    """Every distinct set of ``k`` cards from ``cards`` (sorted tuples)."""
    return {tuple(sorted_cards(combo)) for combo in combinations(list(cards), k)}


def oracle_splits(hands, owed: int) -> set[tuple]:
    """Every way for the seats to discard ``owed`` cards in total from their hands."""
    per_seat = [{k: oracle_payments(h, k) for k in range(len(h) + 1)} for h in hands]
    found = set()
    for sizes in product(*[range(len(h) + 1) for h in hands]):
        if sum(sizes) == owed:
            found |= set(product(*[per_seat[s][k] for s, k in enumerate(sizes)]))
    return found


def oracle_choices(state: State) -> set[Choice]:
    """Every legal choice of the active seat, from the rules text."""
    rules, hand, grid = state.rules, state.hand, state.grid
    if state.won or (rules.one_card == "lose" and len(hand) <= 1):
        return set()
    if START in hand and not state.start_played:
        return {Choice(ChoiceKind.START, START)} if oracle_start_payable(state) else set()
    found = set()
    for card in {c for c in hand if is_island(c)}:
        for cell in range(rules.cells):
            if grid[cell] is not None or (state.rocks_row is not None and cell // rules.cols == state.rocks_row):
                continue
            cost = oracle_cost(rules, grid, card, cell)
            if cost is not None and cost <= len(hand) - 1:
                found.add(Choice(ChoiceKind.ISLAND, card, cell))
    if (
        FINISH in hand
        and state.start_played
        and all(v is not None for v in grid)
        and state.monsters_played == rules.monsters
    ):
        found.add(Choice(ChoiceKind.FINISH, FINISH))
    if MONSTER in hand:
        found |= {Choice(ChoiceKind.MONSTER, MONSTER, cell) for cell, v in enumerate(grid) if v is not None}
    if len(hand) >= 2:
        found.add(Choice(ChoiceKind.DISCARD))
    return found


def census(state: State) -> Counter[Card]:
    """Every card of the deal, wherever it is now (each must be in exactly one place)."""
    seen: Counter[Card] = Counter(c for c in state.grid if c is not None)
    for seat in range(state.players):
        seen.update(state.hands[seat])
        seen.update(state.pile(seat))
    seen.update(state.discarded)
    seen.update(state.gone)
    if state.start_played:
        seen[START] += 1
    if state.won:
        seen[FINISH] += 1
    return seen


def deal_cards(deal: Deal) -> Counter[Card]:
    return Counter(c for pile in deal.piles for c in pile)


# -- random play -----------------------------------------------------------------------


def random_action(state: State, rng: random.Random, cap: int = 64) -> Action:
    """A random legal action, without enumerating every Start split (there can be many)."""
    choice = rng.choice(sorted(state.legal_choices(), key=repr))
    return rng.choice(list(islice(state.actions_for(choice), cap)))


def random_game(state: State, rng: random.Random, limit: int = 10_000) -> tuple[State, list[Action]]:
    """Play random legal actions until the game is won or lost."""
    actions: list[Action] = []
    while state.status == Status.OPEN and len(actions) < limit:
        action = random_action(state, rng)
        actions.append(action)
        state = state.apply(action)
    return state, actions



# -- the command line ----------------------------------------------------------------------

# A fixed, colourless terminal: rich reads COLUMNS; the FORCE/TTY switches are cleared.
ENV = {"COLUMNS": "100", "NO_COLOR": "1", "FORCE_COLOR": None, "TTY_COMPATIBLE": None, "TTY_INTERACTIVE": None}


def run(*args):
    return CliRunner(env=ENV).invoke(main, [str(a) for a in args], catch_exceptions=False)


def write(path: Path, data) -> Path:
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


# -- small deals ---------------------------------------------------------------------------

def small_deals(count: int, seed: int = 2026) -> list[Deal]:
    """Random small rule sets (1x4 to 2x4 grids, 8 to 16 islands, 1 to 3 seats, small hands
    and Start discards, every order and adjacency), dealt with fixed seeds."""
    rng = random.Random(seed)
    out: list[Deal] = []
    while len(out) < count:
        rows = rng.choice([1, 2])
        cols = 4
        rules = Rules(
            rows=rows,
            cols=cols,
            islands=rng.randint(8, 10) if rows == 1 else rng.randint(10, 13),
            finish=rng.choice([1, 2]),
            hand=rng.choice([2, 3, 3, 4]),
            start_discards=rng.choice([0, 1, 1, 2, 3]),
            order=rng.choice([Order.SEQUENCE, Order.GRID]) if rows > 1 else Order.SEQUENCE,
            adjacency=rng.choice([Adjacency.SEQUENCE, Adjacency.ORTHOGONAL, Adjacency.BOTH]),
            one_card=rng.choice([OneCard.PLAY, OneCard.PLAY, OneCard.LOSE]),
        )
        players = rng.randint(1, 3)
        try:
            game = deal(rules, players, rng.randrange(10**6))
        except DealError:
            continue
        out.append(game)
    return out


@functools.cache
def search_verdict(game: Deal, budget: Budget) -> Verdict:
    """``solve(game, budget, method=Method.SEARCH).verdict``, solved once per test process."""
    return solve(game, budget, method=Method.SEARCH).verdict


def first_with_verdict(deals: Iterable[Deal], budget: Budget, verdict: Verdict, count: int) -> list[Deal]:
    """``[g for g in deals if solve(g, budget, method=Method.SEARCH).verdict == verdict][:count]``,
    solving no deal after the last one it needs (and none twice: ``search_verdict``)."""
    found: list[Deal] = []
    for game in deals:
        if len(found) == count:
            break
        if search_verdict(game, budget) == verdict:
            found.append(game)
    return found


def search_outcome_fixtures(deals: list[Deal], budget: Budget, wins: int) -> tuple:
    """Module fixtures ``wins`` (the first ``wins`` deals the search wins with ``budget``),
    ``first_win`` (solving only the deals before it) and ``losses`` (the first two it proves
    lost), solved when a test first asks; assign them to those names in a test module."""

    @pytest.fixture(scope="module", name="wins")
    def won() -> list[Deal]:
        return first_with_verdict(deals, budget, Verdict.WIN, wins)

    @pytest.fixture(scope="module", name="first_win")
    def first_won() -> Deal:
        (game,) = first_with_verdict(deals, budget, Verdict.WIN, 1)
        return game

    @pytest.fixture(scope="module", name="losses")
    def lost() -> list[Deal]:
        return first_with_verdict(deals, budget, Verdict.NO_WIN, 2)

    return won, first_won, lost


# Sparse settings: a 3x3 grid, islands 1..18, a Start costing 3 cards.
BASE = {"rows": 3, "cols": 3, "islands": 18, "finish": 2, "hand": 3, "start_discards": 3}
# Dense settings: a 2x2 grid with islands 1..10 and a cheap Start is won about one game in
# five, so Finish plays and rock departures are reached too (random play on the sparser
# grids nearly always runs out of cards first).
DENSE = {"rows": 2, "cols": 2, "islands": 10, "finish": 3, "hand": 4, "start_discards": 1}


def sparse(**options) -> Rules:
    return Rules(**{**BASE, **options})


def dense(**options) -> Rules:
    return Rules(**{**DENSE, **options})


# A small game in the notation: the header's rules, and a line that wins it.
SMALL = "rule rows=2 rule cols=3 rule islands=12 rule finish=1 rule hand=3 rule start_discards=2"
WON = "10@4 7@2 1@0 S/2,5 8@3-4 6@1-3 11@5-9 F"
