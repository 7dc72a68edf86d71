"""Sea Monsters and Jagged Rocks in the solvers: on tiny deals of every module
setting, a plain search over every legal action of the rules engine (no dominance, no
refutation) is the oracle; the complete search, the portfolio (and CP-SAT where the model
covers the rules) must agree with it on every decided verdict, every win line must
replay, and no refutation may fire on a position the oracle wins."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayMonster, PlayStart, RocksMove
from tranquility.solver.engine.cards import FINISH, MONSTER, Card, sorted_cards
from tranquility.solver.engine.deal import Deal, DealError, deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import Adjacency, Rocks, Rules, RulesError
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import position_after, verify
from tranquility.solver.search.bounds import live_islands, refutation
from tranquility.solver.search.budget import Budget, Deadline, SearchStats
from tranquility.solver.search.complete import exhaustive
from tranquility.solver.search.greedy import Style, greedy_action
from tranquility.solver.search.objectives import objective_bound, objective_value
from tranquility.solver.verdicts import Method, Objective, Verdict

from ..helpers import random_action

# Every module setting, alone and together.
SETTINGS: tuple[dict[str, Any], ...] = (
    {"monsters": 1},
    {"monsters": 2},
    {"rocks": "auto"},
    {"rocks": "manual"},
    {"removed": 2},
    {"monsters": 1, "rocks": "auto"},
    {"monsters": 1, "rocks": "manual"},
    {"monsters": 2, "removed": 1},
    {"rocks": "manual", "removed": 1},
    {"monsters": 1, "rocks": "manual", "removed": 1, "adjacency": "orthogonal"},
    {"monsters": 1, "order": "grid", "adjacency": "orthogonal"},
    {"rocks": "auto", "order": "grid", "one_card": "lose"},
)
ORACLE_LIMIT = 600  # positions settled; a deal whose plain search needs more is passed over
CROSS_CHECKED = 200  # games the oracle decides
LATE = 9  # cards left in hands and piles at a late position


def tiny_games(count: int, seed: int = 11) -> Iterator[Line]:
    """``count`` seeded games on 2x2 and 2x3 grids, cycling through the module settings and
    1 to 3 players: every other one a deal from its start, the others a position late in
    a game (few cards left, a Sea Monster often still to play) reached by greedy play
    mixed with random moves, so that misplaced islands and blocked rows occur."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        setting = SETTINGS[made % len(SETTINGS)]
        late = made % 2 == 1
        cols = rng.choice((2, 2, 2, 3))
        extra = setting.get("monsters", 0) + setting.get("removed", 0)
        options = {
            "rows": 2,
            "cols": cols,
            "islands": 2 * cols + extra + (rng.randint(3, 6) if late else rng.randint(0, 1)),
            "finish": 1,
            "hand": 3 if late or rng.random() < 0.3 else 2,
            "start_discards": rng.randint(0, 1 if late else 2),
            **setting,
        }
        try:
            game = deal(Rules.from_dict(options), rng.randint(1, 3), rng.randrange(10**6))
        except (RulesError, DealError):
            continue
        actions: list[Action] = []
        if late:
            state, style = State.initial(game), Style.draw(rng, rng.randrange(1, 20))
            while state.status == Status.OPEN and state.cards_left > LATE:
                live = live_islands(state)
                action = random_action(state, rng) if rng.random() < 0.1 else greedy_action(state, rng, live, style)
                actions.append(action)
                state = state.apply(action)
            if state.status != Status.OPEN:
                continue
        made += 1
        yield Line(game, tuple(actions))


def late_positions(count: int, seed: int = 5) -> Iterator[State]:
    """``count`` seeded positions at the end of a game, every pile drawn: an ascending grid
    partly filled, often with islands too close together for the cells between them, and
    hands holding a Finish, islands and the Sea Monsters still to play (now and then one
    fewer: a monster discarded). Where a sink reopens a run, and only there, is what the
    module-aware refutations and junk rules have to get right."""
    rng = random.Random(seed)
    while count:
        monsters = rng.randint(1, 2)
        cols = rng.choice((2, 3))
        rules = Rules(
            rows=2, cols=cols, islands=2 * cols + monsters + 4, finish=1, hand=5, start_discards=1, monsters=monsters,
            rocks=rng.choice(list(Rocks)), adjacency=rng.choice((Adjacency.SEQUENCE, Adjacency.ORTHOGONAL)),
        )
        players = rng.choice((1, 2, 2, 2, 3))
        try:
            start = State.initial(deal(rules, players, rng.randrange(10**6)))
        except DealError:
            continue
        cells = sorted(rng.sample(range(rules.cells), rng.randint(rules.cells - 3, rules.cells)))
        values = sorted(rng.sample(range(1, rules.islands + 1), len(cells)))
        grid: list[int | None] = [None] * rules.cells
        for cell, value in zip(cells, values, strict=True):
            grid[cell] = value
        left = [c for c in range(1, rules.islands + 1) if c not in values]
        held = monsters - rng.choice((0, 0, 0, 1)) if rng.random() < 0.8 else rng.randint(0, monsters)
        room = rules.hand * players - held - 1
        empty = rules.cells - len(cells)
        islands = rng.sample(left, min(len(left), room, rng.randint(empty + held + 1, empty + held + 5)))
        cards: list[Card] = [FINISH, *[MONSTER] * held, *islands]
        rng.shuffle(cards)
        hands = [sorted_cards(cards[seat::players]) for seat in range(players)]
        position = replace(
            start,
            grid=tuple(grid),
            hands=tuple(hands),
            drawn=tuple(len(pile) for pile in start.deal.piles),
            start_played=True,
            monsters_played=rng.randint(0, monsters - held) if held < monsters else 0,
        )
        if position.rocks_row is not None and rng.random() < 0.3:
            position = replace(position, rocks_row=None)  # the rocks have left
        count -= 1
        yield position


class Oracle:
    """A plain depth-first search of every legal action, remembering every position it
    settles (won or lost) by everything the future depends on."""

    def __init__(self, limit: int = ORACLE_LIMIT):
        self.limit = limit
        self.settled: dict[tuple, bool] = {}
        self.positions: list[tuple[State, bool]] = []

    def wins(self, s: State) -> list[Action] | None:
        if s.won:
            return []
        key = (s.grid, s.hands, s.drawn, s.seat, s.start_played, s.monsters_played, s.rocks_row, s.rolls_used)
        if key in self.settled and not self.settled[key]:
            return None
        if len(self.settled) > self.limit:
            raise TimeoutError
        for action in s.legal_actions():
            rest = self.wins(s.apply(action))
            if rest is not None:
                self.settled[key] = True
                self.positions.append((s, True))
                return [action, *rest]
        self.settled[key] = False
        self.positions.append((s, False))
        return None


def replays(game: Deal | Line, actions: list[Action]) -> bool:
    line = game if isinstance(game, Line) else Line(game)
    return verify(Line(line.deal, line.actions + tuple(actions))).won


CHECKED: list[tuple[Line, list[Action] | None, Oracle]] = []  # filled once by ``oracle_cases``


@pytest.fixture(scope="module")
def oracle_cases():
    if not CHECKED:
        for game in tiny_games(2 * CROSS_CHECKED):
            oracle = Oracle()
            try:
                line = oracle.wins(position_after(game))
            except TimeoutError:
                continue
            CHECKED.append((game, line, oracle))
            if len(CHECKED) == CROSS_CHECKED:
                break
    return CHECKED


@pytest.mark.slow
def test_the_cross_check_covers_enough_deals_of_every_setting(oracle_cases):
    assert len(oracle_cases) == CROSS_CHECKED
    settings = {(g.deal.rules.monsters, g.deal.rules.rocks, g.deal.rules.removed) for g, _, _ in oracle_cases}
    assert len(settings) >= 6
    verdicts = {line is not None for _, line, _ in oracle_cases}
    assert verdicts == {True, False}  # both wins and losses are checked


@pytest.mark.slow
def test_the_complete_search_agrees_with_the_oracle(oracle_cases):
    for game, line, _ in oracle_cases:
        verdict, found = exhaustive(position_after(game), Deadline(nodes=50_000), SearchStats())
        assert verdict == (Verdict.WIN if line is not None else Verdict.NO_WIN), game
        if found is not None:
            assert replays(game, found)


@pytest.mark.slow
def test_the_portfolio_agrees_with_the_oracle(oracle_cases):
    budget = Budget(reproducible=True, greedy_playouts=30, search_nodes=300, cpsat_deterministic=5.0)
    for game, line, _ in oracle_cases:
        for method in Method:
            result = solve(game, budget, method=method)
            if result.verdict != Verdict.UNKNOWN:
                assert result.verdict == (Verdict.WIN if line is not None else Verdict.NO_WIN), (game.deal.rules, method)
            if result.verdict == Verdict.WIN:
                assert verify(result.winning_line).won


@pytest.mark.slow
def test_no_refutation_fires_on_a_position_the_oracle_wins(oracle_cases):
    fired = 0
    for _, _, oracle in oracle_cases:
        for position, won in oracle.positions:
            reason = refutation(position)
            if won:
                assert reason is None, (position.rules, position.grid, reason)
            fired += reason is not None
    assert fired > 100  # the refutations are exercised, not idle


@pytest.mark.slow
def test_every_objective_bound_holds_along_the_oracles_wins(oracle_cases):
    for game, line, _ in oracle_cases:
        if line is None:
            continue
        state = position_after(game)
        for index, action in enumerate(line):
            for objective in (Objective.SPARE, Objective.TURNS, Objective.COST):
                value = objective_value(state, line[index:], objective)
                bound = objective_bound(state, objective)
                assert value <= bound if objective == Objective.SPARE else value >= bound, (objective, game.deal.rules)
            state = state.apply(action)


LATE_POSITIONS: list[tuple[State, list[Action] | None, Oracle]] = []  # filled once by ``late_cases``


@pytest.fixture(scope="module")
def late_cases():
    if not LATE_POSITIONS:
        for state in late_positions(150):
            oracle = Oracle()
            try:
                line = oracle.wins(state)
            except TimeoutError:
                continue
            LATE_POSITIONS.append((state, line, oracle))
    return LATE_POSITIONS


@pytest.mark.slow
def test_late_positions_agree_with_the_oracle(late_cases):
    assert len(late_cases) >= 100
    wins = sum(line is not None for _, line, _ in late_cases)
    assert 20 <= wins <= len(late_cases) - 20  # both verdicts, many of each
    for state, line, oracle in late_cases:
        verdict, found = exhaustive(state, Deadline(nodes=50_000), SearchStats())
        assert verdict == (Verdict.WIN if line is not None else Verdict.NO_WIN), state
        if found is not None:
            end = state
            for action in found:
                end = end.apply(action)
            assert end.won
        for position, won in oracle.positions:
            assert not (won and refutation(position) is not None), (position, refutation(position))


def solo_start_games(count: int, seed: int = 3) -> Iterator[State]:
    """``count`` seeded solo deals where the Start event is forced (the hand minus the Start
    holds fewer cards than it owes), Sea Monsters often deep in the pile: what
    ``_the_start_event_takes_what_the_win_needs`` reasons about."""
    rng = random.Random(seed)
    while count:
        monsters, hand = rng.randint(0, 2), rng.randint(2, 3)
        cols = rng.choice((2, 3))
        rules = Rules(
            rows=1, cols=cols, islands=cols + monsters + rng.randint(3, 8), finish=rng.randint(1, 2), hand=hand,
            start_discards=rng.randint(hand, hand + 1), monsters=monsters,
        )
        try:
            yield State.initial(deal(rules, 1, rng.randrange(10**6)))
        except DealError:
            continue
        count -= 1


@pytest.mark.slow
def test_the_solo_start_refutation_agrees_with_the_oracle():
    """No refutation fires on a position of a forced solo Start that the plain search
    wins, and the Start event's refutation itself fires (on deals and on the positions
    before the Start), so that this test can fail."""
    from tranquility.solver.search.bounds import _the_start_event_takes_what_the_win_needs as takes

    decided = fired = wins = 0
    for state in solo_start_games(300):
        oracle = Oracle(limit=3000)
        try:
            line = oracle.wins(state)
        except TimeoutError:
            continue
        decided += 1
        wins += line is not None
        for position, won in oracle.positions:
            if won:
                assert refutation(position) is None, (position.rules, position.deal.piles, refutation(position))
            fired += takes(position) is not None
    assert decided >= 250 and 40 <= wins <= decided - 40
    assert fired >= 1000


# -- golden deals: where each module decides ---------------------------------------------------

SINK = Rules(rows=1, cols=3, islands=6, finish=1, monsters=1, hand=6, start_discards=0)
# Solo: 3 goes to the middle cell at once; then the only wins sink it again.
SINK_DEAL = Deal(rules=SINK, piles=((3, 1, 2, 5, 6, MONSTER, "S", FINISH, 4),))
SINK_OPENING = (PlayIsland(seat=0, card=3, cell=1), PlayStart(seat=0, team_discard=((),)))


def test_a_win_only_through_a_monster_play():
    position = Line(SINK_DEAL, SINK_OPENING)
    state = position_after(position)
    assert state.grid == (None, 3, None) and state.hands == ((1, 2, 5, 6, FINISH, MONSTER),)
    result = solve(position, Budget(seconds=20), method=Method.SEARCH)
    assert result.verdict == Verdict.WIN and result.method == "greedy" and verify(result.winning_line).won
    assert result.winning_line.actions[2:] == (
        PlayMonster(seat=0, cell=1),  # sinks the 3
        PlayIsland(seat=0, card=1, cell=0),
        PlayIsland(seat=0, card=6, cell=2),
        PlayIsland(seat=0, card=2, cell=1, discard=(4,)),
        PlayFinish(seat=0),
    )
    # The complete search finds a win too, and it sinks the 3 as well.
    verdict, found = exhaustive(state, Deadline(nodes=100_000), SearchStats())
    assert verdict == Verdict.WIN and found is not None and PlayMonster(seat=0, cell=1) in found
    # The plain search: the two choices that keep the win are the Sea Monster on the 3 and
    # 2 in the first cell (which pays 1, then sinks the 3); every win sinks the 3.
    keeps = set()
    for choice in state.legal_choices():
        if any(Oracle(100_000).wins(state.apply(a)) is not None for a in state.actions_for(choice)):
            keeps.add(str(choice))
    assert keeps == {"Sea Monster on cell 1", "2 at cell 0"}
    # Discard the monster instead and the game is lost, by a refutation in words.
    discarded = solve(Line(SINK_DEAL, (*SINK_OPENING, DiscardTwo(seat=0, discard=(1, MONSTER)))), Budget(seconds=5))
    assert discarded.verdict == Verdict.NO_WIN and discarded.method == "refute"
    assert discarded.reason == (
        "the Finish needs all 1 Sea Monsters played; 0 are played and only 0 left in the hands and piles "
        "(a discarded Sea Monster can never be played)"
    )


ROCKS = Rules(rows=2, cols=2, islands=6, finish=1, hand=3, start_discards=0, rocks=Rocks.MANUAL)
ROCKS_PILE = ((FINISH, 1, 6, 5, 4, 2, "S", 3),)
# Without the rocks, the solver's win (the greedy player's first playout):
ROCKS_WIN = (
    PlayIsland(seat=0, card=1, cell=0),
    PlayIsland(seat=0, card=6, cell=3),
    PlayIsland(seat=0, card=5, cell=2, discard=(4,)),
    PlayStart(seat=0, team_discard=((),)),
    PlayIsland(seat=0, card=2, cell=1, discard=(3,)),
    PlayFinish(seat=0),
)


@pytest.mark.slow
def test_a_loss_only_because_the_rocks_block_a_row():
    with_rocks = Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1)
    without = Deal(rules=replace(ROCKS, rocks=Rocks.OFF), piles=ROCKS_PILE)
    won = solve(without, Budget(seconds=20), method=Method.SEARCH)
    assert won.verdict == Verdict.WIN and won.winning_line.actions == ROCKS_WIN and verify(won.winning_line).won
    assert Oracle(100_000).wins(State.initial(without)) is not None
    for method in (Method.AUTO, Method.SEARCH):
        lost = solve(with_rocks, Budget(seconds=20), method=method)
        assert lost.verdict == Verdict.NO_WIN and lost.method == "exhaustive", method
    assert Oracle(100_000).wins(State.initial(with_rocks)) is None
    # The rocks start on row 1, the row of 5 and 6, where the win without them plays its second card.
    blocked = State.initial(with_rocks).explain_illegal(PlayIsland(seat=0, card=6, cell=3, rocks=RocksMove(0)))
    assert blocked == "cell 3 is in row 1, blocked by the Jagged Rocks"


@pytest.mark.slow
def test_the_rocks_golden_is_proven_lost_by_every_method():
    # The loss the rocks alone cause: auto, the complete search and CP-SAT alone all prove it.
    for method in Method:
        decided = solve(Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1), Budget(seconds=20), method=method)
        assert decided.verdict == Verdict.NO_WIN, method


def test_what_binds_puts_the_modules_in_words():
    from tranquility.solver.cpsat import binds

    rocks = State.initial(Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1))
    assert binds.describe_group(rocks, "rocks") == (
        "The Jagged Rocks block row 1 (row 0 is the bottom row): no island is placed there while they stay; "
        "after every action the seat moves them to another row, or pays two cards to keep them, until 1 row(s) "
        "are complete (0 now)."
    )
    sink = position_after(Line(SINK_DEAL, SINK_OPENING))
    assert binds.describe_group(sink, "monsters") == (
        "Sea Monsters: the Finish waits for all 1 to be played (0 played, 1 to go; Sea Monster cards lie in "
        "seat 1's hand); each sinks a placed island, whose cell must be filled again, so each costs a turn, "
        "its card and one more island."
    )


@pytest.mark.slow
def test_explain_and_analyze_on_module_games():
    from tranquility.solver.analysis.analyze import analyze
    from tranquility.solver.analysis.explain import explain

    lost = explain(Deal(rules=ROCKS, piles=ROCKS_PILE, rocks_row=1), budget=Budget(seconds=10))
    assert lost.result.verdict == Verdict.NO_WIN and lost.reach is not None and verify(lost.reach.line).legal
    won = explain(Line(SINK_DEAL, SINK_OPENING), budget=Budget(seconds=10), critical_budget=5)
    assert won.result.verdict == Verdict.WIN and len(won.turns) == 5
    # Both first choices that keep the win (golden above) spare as many cards: the line
    # takes one, the check finds the other.
    first = won.critical[0]
    assert (first.kind, first.winning_alternatives) == ("few", 1)
    pair = {first.choice: first.example for first in won.critical[:1]}
    assert pair in (
        {"Sea Monster on cell 1": "seat 0 plays 2 at cell 0, paying 1"},
        {"2 at cell 0": "seat 0 plays a Sea Monster on cell 1"},
    )
    # Analyze the discarded monster: the discard lost it.
    played = Line(SINK_DEAL, (*SINK_OPENING, DiscardTwo(seat=0, discard=(1, MONSTER))))
    analysis = analyze(played, Budget(seconds=5))
    assert [p.verdict for p in analysis.positions] == [Verdict.WIN, Verdict.WIN, Verdict.WIN, Verdict.NO_WIN]
