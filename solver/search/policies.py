"""A silent table: play a deal with simple named policies that see only what a seat sees.

Every seat decides from its ``Observation`` (engine/observation.py): the public part of the
position plus that seat's own hand, and nothing else. The Start event's team discard is the
one moment several seats act: the table asks each seat in turn for its share with a
``StartCall``, which again holds only that seat's hand and public counts (docs/simulate.md).

A policy that ``remembers`` (lookahead.py) also gets the seat's ``SeatMemory`` (memory.py):
the public history and its own cards, again nothing another seat holds.

``simulate`` plays one deal and returns the line (won or lost); ``win_rate`` plays the
seeded deals 0..K-1. The rules engine (``State.apply``) checks every action.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

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
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island, remove_cards, remove_held, sorted_cards
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.observation import Observation, observe
from tranquility.solver.engine.rules import Rules
from tranquility.solver.engine.state import IslandPlay, IslandPlays, State, Status, geometry_of
from tranquility.solver.engine.verify import Replayed, replayed
from tranquility.solver.errors import BadInput
from tranquility.solver.search.compiled import ready
from tranquility.solver.search.memory import SeatMemory, remember
from tranquility.solver.search.weights import WeightBook, Weights, weights_for


@dataclass(frozen=True)
class StartCall:
    """The Start event, as one seat sees it when its turn to give comes.

    ``obs`` is the seat's view after the Start card is down and any forced rounds are
    over: its own hand for the last round, every seat's hand and pile counts, the cards
    discarded so far (the seats before it have put theirs face down). The seat gives
    between ``least`` and ``most`` cards; ``quota`` is its share by the public rule."""

    obs: Observation
    owed: int  # cards the team still has to give when this seat's turn to give comes
    least: int  # the seats after it cannot cover more than owed - least
    most: int
    quota: int


def start_quota(order: list[int], hand_sizes: tuple[int, ...], pile_sizes: tuple[int, ...], owed: int) -> dict[int, int]:
    """The public split rule: hand out the ``owed`` cards one at a time to the seat (of
    ``order``) with the most cards left (hand + pile, less what it is already to give),
    never more than its hand; ties go to the seat earliest in ``order``."""
    share = dict.fromkeys(order, 0)
    for _ in range(owed):
        open_seats = [s for s in order if share[s] < hand_sizes[s]]
        if not open_seats:
            break
        seat = max(open_seats, key=lambda s: (hand_sizes[s] + pile_sizes[s] - share[s], -order.index(s)))
        share[seat] += 1
    return share


def added(values: Iterable[float]) -> float:
    """The values added one after the other, left to right: ``sum`` of floats adds with a
    compensation from Python 3.12 on, which would make a score, and so a game, depend on the
    Python version (and part from the compiled core's plain additions)."""
    total = 0.0
    for value in values:
        total += value
    return total


# ---------------------------------------------------------------------------------------
# Reading the table: which islands can still come, how tight each gap is


class Reading:
    """What a seat can work out from its observation: the open interval of numbers that
    fit each empty cell, the islands it has not seen, and how many of those it may expect
    to still come (unseen cards are in play or discarded, in public proportions)."""

    def __init__(self, obs: Observation):
        self.obs = obs
        rules = obs.rules
        self.geo = geometry_of(rules)
        grid = obs.grid
        seen = {v for v in grid if v is not None}
        seen |= {c for c in obs.gone if is_island(c)}
        own = sorted(c for c in obs.hand if is_island(c))
        seen |= set(own)
        self.own = own
        self.unseen = [c for c in range(1, rules.islands + 1) if c not in seen]
        specials = rules.finish + obs.players + rules.monsters
        specials_seen = sum(1 for c in obs.hand if not is_island(c)) + obs.start_played
        specials_seen += sum(1 for c in obs.gone if c == MONSTER)
        unseen_cards = len(self.unseen) + max(0, specials - specials_seen)
        in_play = sum(obs.hand_sizes) - len(obs.hand) + sum(obs.pile_sizes)
        self.avail = min(1.0, in_play / unseen_cards) if unseen_cards else 0.0
        self.empty = [c for c, v in enumerate(grid) if v is None]
        self.bounds = {c: obs.view.island_bounds(c) for c in self.empty}
        self.need: dict[tuple[int, int], int] = {}
        self.groups: dict[tuple[int, int], list[int]] = {}  # the empty cells of equal bounds, in order
        for cell, key in self.bounds.items():
            self.need[key] = self.need.get(key, 0) + 1
            self.groups.setdefault(key, []).append(cell)
        # A policy values each card of its hand for every choice it weighs: worked out once
        # per card and gap here (the reading does not change while a seat decides).
        self._fits: dict[int, list[int]] = {}
        self._best_cost: dict[int, int | None] = {}
        self._tightness: dict[int, float] = {}
        self._supply: dict[tuple[int, int], tuple[int, int]] = {}  # (own, unseen) islands in a gap
        self._ordered: dict[int, tuple[tuple[tuple[int, int], bool, int], ...]] = {}

    def supply(self, low: int, high: int, without: int | None = None) -> float:
        """Islands strictly between low and high the team may still place: the seat's own
        ones, plus the unseen ones scaled by the share still in play."""
        counts = self._supply.get((low, high))
        if counts is None:
            own = bisect_left(self.own, high) - bisect_right(self.own, low)
            unseen = bisect_left(self.unseen, high) - bisect_right(self.unseen, low)
            counts = self._supply[low, high] = (own, unseen)
        own, unseen = counts
        if without is not None and low < without < high:
            own -= 1
        return own + self.avail * unseen

    def below(self, low: int, card: int) -> float:
        own = bisect_left(self.own, card) - bisect_right(self.own, low)
        unseen = bisect_left(self.unseen, card) - bisect_right(self.unseen, low)
        return own + self.avail * unseen

    def fits(self, card: int) -> list[int]:
        cells = self._fits.get(card)
        if cells is None:
            cells = self._fits[card] = [c for c in self.empty if self.bounds[c][0] < card < self.bounds[c][1]]
        return cells

    def best_cost(self, card: int) -> int | None:
        """The cheapest placement of ``card`` ignoring the rocks (they move), or None."""
        if card in self._best_cost:
            return self._best_cost[card]
        grid, costs = self.obs.grid, []
        for cell in self.fits(card):
            gaps = [abs(card - v) for n in self.geo.neighbours[cell] if (v := grid[n]) is not None]
            costs.append(min(gaps, default=0))
        best = self._best_cost[card] = min(costs, default=None)
        return best

    def tightness(self, card: int) -> float:
        """How badly the gaps the card fits need it: cells / islands that may fill them (max)."""
        worst = self._tightness.get(card)
        if worst is None:
            worst = 0.0
            for cell in self.fits(card):
                key = self.bounds[cell]
                worst = max(worst, self.need[key] / max(self.supply(*key), 0.5))
            self._tightness[card] = worst
        return worst

    def ordered(self, cell: int) -> tuple[tuple[tuple[int, int], bool, int], ...]:
        """(bounds, smaller, count) of the other empty cells the order ties to ``cell``:
        ``smaller`` if they must hold a smaller card (rule ``order``), ``count`` how many
        such cells have those bounds; in the order of each pair's first cell."""
        found = self._ordered.get(cell)
        if found is None:
            before, after = set(self.geo.before[cell]), set(self.geo.after[cell])
            counts: dict[tuple[tuple[int, int], bool], int] = {}
            for e, bounds in self.bounds.items():
                if e in before or e in after:
                    side = (bounds, e in before)
                    counts[side] = counts.get(side, 0) + 1
            found = self._ordered[cell] = tuple((bounds, smaller, n) for (bounds, smaller), n in counts.items())
        return found

    def placement(self, card: int, cell: int) -> tuple[float, float]:
        """(deficit, misplacement) of playing ``card`` into ``cell``: how many more cells
        lack islands to fill them afterwards, and how far the cell sits from where the
        card's rank among the islands that fit its gap puts it (0 = just right)."""
        key = self.bounds[cell]
        low, high = key
        # The bounds the card narrows, old and new, and the empty cells (this one aside)
        # holding each new bound once the card is down. Kept as dicts, in the order the cells
        # give them, so that the float sums below add in that order, on every run and in
        # the compiled core alike.
        old_keys: dict[tuple[int, int], None] = {key: None}
        new_keys: dict[tuple[int, int], None] = {}
        lost: dict[tuple[int, int], int] = {}
        gained: dict[tuple[int, int], int] = {}
        for old, smaller, n in self.ordered(cell):
            if smaller:
                if card >= old[1]:
                    continue
                new = (old[0], card)
            elif card > old[0]:
                new = (card, old[1])
            else:
                continue
            old_keys[old] = None
            new_keys[new] = None
            lost[old] = lost.get(old, 0) + n
            gained[new] = gained.get(new, 0) + n
        need, supply = self.need, self.supply
        deficit_before = added(max(0.0, need[k] - supply(*k)) for k in old_keys)
        deficit_after = added(
            max(0.0, need.get(k, 0) - (k == key) - lost.get(k, 0) + gained[k] - supply(*k, without=card)) for k in new_keys
        )
        group = self.groups[key]
        pool = supply(low, high)
        rank = self.below(low, card)
        ideal = rank * (len(group) - 1) / max(pool - 1, 1.0)
        return deficit_after - deficit_before, abs(group.index(cell) - ideal)


# ---------------------------------------------------------------------------------------
# Policies


class Policy:
    """A way of playing. ``act`` gives the seat to move's action (never a Start: the
    table runs that), ``give`` a seat's cards for the Start event, ``rocks`` where a seat
    moves the manual Jagged Rocks. Each sees only an Observation / StartCall."""

    name = ""
    finish_values: tuple[float, ...] = (95.0, 70.0, 40.0, 20.0)
    remembers = False  # whether ``decide`` needs the seat's memory (the table keeps it)

    def __init__(self, rng: random.Random):
        self.rng = rng

    def decide(self, obs: Observation, memory: SeatMemory | None) -> Action:
        """The seat to move's action from its observation and, for a policy that
        ``remembers``, its memory of the game (silent policies use the observation alone)."""
        return self.act(obs)

    def decide_at(self, state: State, memory: SeatMemory | None) -> Action:
        """The move ``play_on`` plays at ``state``: ``decide`` on what the seat to move sees of
        it. A seat never sees more; only a ceiling player that is no seat (lookahead.py's
        ``OpenHands``, which sees every hand) reads the state itself."""
        return self.decide(observe(state, state.seat), memory)

    # -- valuation: how much a seat wants to keep each card of its own hand --------------

    def keep_values(self, reading: Reading, cards: tuple[Card, ...], start_played: bool) -> list[float]:
        values: list[float] = []
        finishes = 0
        for card in cards:
            if card == FINISH:
                values.append(self.finish_value(reading, finishes))
                finishes += 1
            elif card == MONSTER:
                values.append(1000.0)  # discarding one makes the game unwinnable
            elif card == START:
                values.append(0.0 if start_played else 1000.0)
            elif is_island(card):
                values.append(self.island_value(reading, card))
        return values

    def island_value(self, reading: Reading, card: int) -> float:
        cost = reading.best_cost(card)
        return 0.0 if cost is None else 30.0 - 4.0 * min(cost, 5)

    def finish_value(self, reading: Reading, earlier: int) -> float:
        """A Finish card's keep value when ``earlier`` other Finish cards come before it in hand."""
        return self.finish_values[min(earlier, len(self.finish_values) - 1)]

    def least_useful(self, reading: Reading, cards: tuple[Card, ...], k: int, start_played: bool) -> tuple[Card, ...]:
        values = self.keep_values(reading, cards, start_played)
        order = sorted(range(len(cards)), key=lambda i: (values[i], i))
        return sorted_cards(cards[i] for i in order[:k])

    # -- decisions --------------------------------------------------------------------------

    def act(self, obs: Observation) -> Action:
        view = obs.view
        choices = view.other_choices  # the island plays are read below, with their costs
        kinds = {c.kind for c in choices}
        if ChoiceKind.FINISH in kinds:
            return PlayFinish(seat=obs.seat)
        reading = Reading(obs)
        monsters = [c for c in choices if c.kind == ChoiceKind.MONSTER]
        if monsters:
            return self._with_rocks(obs, PlayMonster(seat=obs.seat, cell=self.monster_cell(reading, monsters)))
        play = self.choose_island(obs, reading, view.island_plays)
        if play is None:
            if ChoiceKind.DISCARD not in kinds:
                raise RuntimeError("the table asked a seat with no legal action to act")
            return self.discard_action(obs, reading)
        return self.island_action(obs, reading, play)

    def island_action(self, obs: Observation, reading: Reading, play: IslandPlay) -> Action:
        """The island play as an action, paid with the seat's least useful cards."""
        card, cell, cost = play
        paid = self.least_useful(reading, remove_held(obs.hand, [card]), cost, obs.start_played)
        return self._with_rocks(obs, PlayIsland(seat=obs.seat, card=card, cell=cell, discard=paid))

    def discard_action(self, obs: Observation, reading: Reading) -> Action:
        """Discard two: the seat's two least useful cards."""
        paid = self.least_useful(reading, obs.hand, 2, obs.start_played)
        return self._with_rocks(obs, DiscardTwo(seat=obs.seat, discard=paid))

    def choose_island(self, obs: Observation, reading: Reading, islands: IslandPlays) -> IslandPlay | None:
        """The island play to make (card, cell, cost: one of ``islands``, the legal ones),
        or None to discard two instead."""
        raise NotImplementedError

    def island_scores(self, obs: Observation, reading: Reading, islands: IslandPlays) -> list[float]:
        """The score of each of ``islands`` (lower is better), for a policy that scores its
        plays: a searching seat tries the best-scored ones (lookahead.py)."""
        raise NotImplementedError

    def monster_cell(self, reading: Reading, monsters: list[Choice]) -> int:
        """Sink the island whose cell, once empty, the most islands may fill."""
        obs = reading.obs

        def room(cell: int) -> tuple[float, int]:
            # A cell's bounds come from the other cells, so they are the same once it is empty.
            return reading.supply(*obs.view.island_bounds(cell)), -cell

        return max((c.target for c in monsters), key=room)

    def _with_rocks(self, obs: Observation, action: Action) -> Action:
        after = obs.view.before_rocks(action)
        if not after.rocks_choice_due:
            return action
        rest = after.hands[obs.seat]
        return replace(action, rocks=RocksMove(self.rocks_row(obs, after.grid, rest, after.eligible_rock_rows())))

    def rocks_row(self, obs: Observation, grid: tuple, hand: tuple[Card, ...], rows: list[int]) -> int:
        """Manual rocks: block the row where the seat's own islands fit least (lowest on ties)."""
        reading = Reading(replace(obs, grid=grid, hand=hand))
        cols = obs.rules.cols

        def fitting(row: int) -> int:
            return sum(1 for c in hand if is_island(c) for cell in reading.fits(c) if cell // cols == row)

        return min(rows, key=lambda r: (fitting(r), r))

    def give(self, call: StartCall) -> tuple[Card, ...]:
        """The cards this seat gives in the Start event: its quota of least useful cards."""
        k = min(max(call.quota, call.least), call.most)
        return self.least_useful(Reading(call.obs), call.obs.hand, k, True)


class Greedy(Policy):
    """Plays the cheapest legal island each turn (ties: the cell nearest to where the
    card's rank puts it, then the smaller card), pays and discards its least useful
    cards, discards two only when no island can be played. Start event: each seat gives
    exactly its public quota, its least useful cards first."""

    name = "greedy"
    finish_values = (95.0, 5.0)

    def choose_island(self, obs, reading, islands):
        def key(play: IslandPlay):
            card, cell, cost = play
            return (cost, reading.placement(card, cell)[1], card, cell)

        return min(islands, key=key, default=None)


class Cautious(Policy):
    """Prefers cheap plays that keep every gap fillable and put cards where their rank
    fits, discards two rather than pay 2 or more while its pile still has cards, keeps
    Finish cards and the cards that fit the tightest gaps, pays with cards that fit
    nowhere first. Start event: each seat gives its public quota, and more if it holds
    more dead cards (islands that fit no gap, dead Starts), least useful first; Finish
    cards are kept."""

    name = "cautious"
    finish_values = (95.0, 70.0, 40.0, 25.0)
    discard_from = 2  # discard two rather than pay this much or more (while the pile lasts)

    def island_value(self, reading, card):
        cost = reading.best_cost(card)
        if cost is None:
            return 0.0
        return 20.0 - 3.0 * min(cost, 5) + 30.0 * min(reading.tightness(card), 1.5)

    def island_scores(self, obs: Observation, reading: Reading, islands: IslandPlays) -> list[float]:
        """The score of each of ``islands`` (lower is better)."""
        # An island's value does not depend on the rest of the hand, so the values of the
        # hand without the card played are the hand's, less that card's.
        hand = obs.hand
        values = self.keep_values(reading, hand, obs.start_played)
        ranked = sorted(values)
        scores = []
        for card, cell, cost in islands:
            deficit, misplaced = reading.placement(card, cell)
            rest = ranked.copy()
            rest.remove(values[hand.index(card)])
            paid_value = added(rest[:cost])
            scores.append(2.0 * cost + paid_value / 20.0 + 0.5 * misplaced + 8.0 * max(deficit, 0.0) + self.doubt())
        return scores

    def choose_island(self, obs, reading, islands):
        best, best_cost, best_score = None, 0, 0.0
        for play, score in zip(islands, self.island_scores(obs, reading, islands), strict=True):
            if best is None or score < best_score:
                best, best_cost, best_score = play, play[2], score
        can_discard = len(obs.hand) >= 2 and obs.pile_sizes[obs.seat] > 0
        if best is not None and can_discard and self.discards_instead(obs, best_cost, best_score):
            return None  # discard two and hope for a cheaper play
        return best

    def discards_instead(self, obs: Observation, cost: int, score: float) -> bool:
        """Whether to discard two rather than make the best play (its cost and score)."""
        return cost >= self.discard_from

    def dead_value(self, obs: Observation) -> float:
        """In the Start event, a card worth this little or less is given beyond the quota."""
        return 0.0

    def doubt(self) -> float:
        """Noise added to each play's score (none: cautious sees its own scores clearly)."""
        return 0.0

    def give(self, call):
        reading = Reading(call.obs)
        values = self.keep_values(reading, call.obs.hand, True)
        dead = sum(1 for v in values if v <= self.dead_value(call.obs))
        k = min(max(call.quota, call.least, min(dead, call.owed)), call.most)
        return self.least_useful(reading, call.obs.hand, k, True)


class Thrifty(Cautious):
    """Plays like cautious, but pays up to two cards for a play and discards two only
    rather than pay three or more (when discarding is the cheaper way to spend a turn)."""

    name = "thrifty"
    discard_from = 3


class Wavering(Thrifty):
    """Plays like thrifty, but misjudges: each play's score gets seeded random noise (up
    to 3 points, a card's worth of cost and a half), so repeated plays of one deal
    differ."""

    name = "wavering"

    def doubt(self) -> float:
        return self.rng.uniform(0.0, 3.0)


class Tuned(Cautious):
    """Thrifty's judgements as named weights (``Weights``, weights.py), fitted offline per
    player count on deals apart from the evaluation seeds (``tranquility tune``); rules or
    counts without fitted weights play the nearest fitted ones (``weights_for`` says which).
    Besides thrifty's terms it weighs the team's card pressure (the share of the cards
    still in play that the empty cells need) against a play's cost, rewards plays that
    give islands back to gaps short of them, and discards two on a bad score as well as on
    a high cost. Deterministic: no noise, the same observation gives the same action."""

    name = "tuned"

    def __init__(self, rng: random.Random, book: WeightBook | None = None):
        super().__init__(rng)
        self.book = book
        self._weights: dict[tuple[Rules, int], Weights] = {}

    def weights(self, obs: Observation) -> Weights:
        key = (obs.rules, obs.players)
        found = self._weights.get(key)
        if found is None:
            found = self._weights[key] = weights_for(obs.rules, obs.players, self.book)[0]
        return found

    def finish_value(self, reading, earlier):
        w = self.weights(reading.obs)
        return (self.finish_values[0], w.finish_second, w.finish_later)[min(earlier, 2)]

    def island_value(self, reading, card):
        cost = reading.best_cost(card)
        if cost is None:
            return 0.0
        w = self.weights(reading.obs)
        return w.keep_base - w.keep_cost * min(cost, 5) + w.keep_tight * min(reading.tightness(card), w.tight_cap)

    def island_scores(self, obs: Observation, reading: Reading, islands: IslandPlays) -> list[float]:
        """The score of each of ``islands`` (lower is better)."""
        w = self.weights(obs)
        hand = obs.hand
        values = self.keep_values(reading, hand, obs.start_played)
        ranked = sorted(values)
        in_play = sum(obs.hand_sizes) + sum(obs.pile_sizes)
        per_cost = w.cost + w.pressure * len(reading.empty) / max(in_play, 1)
        scores = []
        for card, cell, cost in islands:
            deficit, misplaced = reading.placement(card, cell)
            rest = ranked.copy()
            rest.remove(values[hand.index(card)])
            score = per_cost * cost + w.paid * added(rest[:cost]) + w.misplaced * misplaced
            scores.append(score + w.deficit * max(deficit, 0.0) + w.relief * min(deficit, 0.0))
        return scores

    def discards_instead(self, obs, cost, score):
        w = self.weights(obs)
        return cost >= w.discard_cost or score >= w.discard_score

    def dead_value(self, obs):
        return self.weights(obs).give_dead


class RandomPolicy(Policy):
    """A legal choice uniformly at random each turn, paid with random cards (seeded by
    --sim-seed). Start event: each seat gives a random number of random cards within
    what the seats after it can still cover."""

    name = "random"

    def act(self, obs):
        choice = self.rng.choice(sorted(obs.view.legal_choices(), key=repr))
        if choice.kind == ChoiceKind.FINISH:
            return PlayFinish(seat=obs.seat)
        if choice.kind == ChoiceKind.MONSTER:
            return self._with_rocks(obs, PlayMonster(seat=obs.seat, cell=choice.cell))
        if choice.kind == ChoiceKind.DISCARD:
            return self._with_rocks(obs, DiscardTwo(seat=obs.seat, discard=self._sample(obs.hand, 2)))
        rest = remove_held(obs.hand, [choice.island])
        paid = self._sample(rest, obs.view.cost_of(choice))
        return self._with_rocks(obs, PlayIsland(seat=obs.seat, card=choice.island, cell=choice.target, discard=paid))

    def _sample(self, cards: tuple[Card, ...], k: int) -> tuple[Card, ...]:
        return sorted_cards(self.rng.sample(list(cards), k))

    def rocks_row(self, obs, grid, hand, rows):
        return self.rng.choice(rows)

    def give(self, call):
        return self._sample(call.obs.hand, self.rng.randint(call.least, call.most))


POLICIES: dict[str, type[Policy]] = {p.name: p for p in (Tuned, Cautious, Thrifty, Greedy, Wavering, RandomPolicy)}


def make_policy(name: str, seed: int = 0) -> Policy:
    if name not in POLICIES:
        raise BadInput(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
    return POLICIES[name](random.Random(seed))


# ---------------------------------------------------------------------------------------
# The table


def start_action(state: State, policy: Policy) -> PlayStart:
    """The Start event at a silent table: the forced rounds (if any) happen, then each
    seat in turn from the Start player gives its cards, seeing its own hand and the public
    counts (how many the seats before it gave)."""
    hands, drawn, owed, forced = state.start_event()
    players = state.players
    order = [(state.seat + k) % players for k in range(players)]
    hand_sizes = tuple(len(h) for h in hands)
    pile_sizes = tuple(len(state.deal.piles[s]) - drawn[s] for s in range(players))
    given: dict[int, tuple[Card, ...]] = {}
    discarded = len(state.discarded) + len(forced)
    for i, seat in enumerate(order):
        later = order[i + 1 :]
        quota = start_quota(order[i:], hand_sizes, pile_sizes, owed)[seat]
        obs = replace(
            observe(state, seat),
            hand=hands[seat],
            hand_sizes=tuple(hand_sizes[s] - len(given.get(s, ())) for s in range(players)),
            pile_sizes=pile_sizes,
            discarded=discarded,
            start_played=True,
        )
        call = StartCall(
            obs=obs,
            owed=owed,
            least=max(0, owed - sum(hand_sizes[s] for s in later)),
            most=min(owed, hand_sizes[seat]),
            quota=quota,
        )
        cards = policy.give(call)
        if not call.least <= len(cards) <= call.most or remove_cards(hands[seat], cards) is None:
            raise RuntimeError(f"policy {policy.name} gave {cards!r} for seat {seat} in the Start event")
        given[seat] = cards
        owed -= len(cards)
        discarded += len(cards)
    action = PlayStart(seat=state.seat, team_discard=tuple(given[s] for s in range(players)))
    after = state.before_rocks(action)
    if not after.rocks_choice_due:
        return action
    obs = replace(observe(after, state.seat), rocks_row=after.rocks_row)
    row = policy.rocks_row(obs, after.grid, after.hands[state.seat], after.eligible_rock_rows())
    return replace(action, rocks=RocksMove(row))


@dataclass(frozen=True)
class SimResult:
    line: Line
    won: bool
    cells_filled: int
    turns: int
    status: str  # won | lost
    policy: str  # the policy every seat played
    sim_seed: int  # the seed of the policy's own random choices

    def to_json(self) -> dict:
        """The game as ``tranquility simulate --json`` prints it (docs/simulate.md)."""
        from tranquility.solver.formats.codecs import line_to_json

        return {
            "policy": self.policy,
            "sim_seed": self.sim_seed,
            "won": self.won,
            "status": self.status,
            "turns": self.turns,
            "cells_filled": self.cells_filled,
            "cells": self.line.deal.rules.cells,
            "line": line_to_json(self.line),
        }


# The policies the compiled core plays (solver/core), by class: their subclasses (wavering,
# which draws noise from Python's generator, the lookahead) play on the reference.
COMPILED: dict[type[Policy], str] = {Tuned: "tuned", Cautious: "cautious", Thrifty: "thrifty", Greedy: "greedy"}
COMPILED_GAMES = "tranquility.solver.core.games"


def compiled_name(policy: Policy) -> str | None:
    """The core's name for ``policy`` when the core plays it, else None."""
    return COMPILED.get(type(policy))


def core_name(policy: Policy) -> str | None:
    """``compiled_name`` once the process has the core: until then (its first compile after
    install takes tens of seconds, in a process of its own: core/warm.py) the reference
    plays the same games."""
    name = compiled_name(policy)
    return name if name is not None and ready(COMPILED_GAMES) else None


def blueprint_weights(policy: Policy, rules: Rules, players: int) -> Weights | None:
    """The weights ``policy`` plays this table with (tuned's; None for the others)."""
    return weights_for(rules, players, policy.book)[0] if isinstance(policy, Tuned) else None


def act_as(policy: Policy, obs: Observation) -> Action:
    """``policy.act(obs)``, on the compiled core when it plays the policy (the same action,
    tests/core/): for a search that asks the blueprint many times a decision."""
    name = core_name(policy)
    if name is None:
        return policy.act(obs)
    from tranquility.solver.core.games import core_act

    return core_act(obs, name, blueprint_weights(policy, obs.rules, obs.players))


def play_on(
    state: State, policy: Policy, memories: list[SeatMemory] | None = None, compiled: bool = False
) -> tuple[State, list[Action]]:
    """Play from ``state`` to the end of the game with ``policy`` at every seat: the last
    state and the actions played. ``memories`` (one per seat, for a policy that
    ``remembers``) follow every action. With ``compiled``, a policy the compiled core plays
    is played there, the same game (tests/core/), and its actions are replayed by the engine
    all the same: for callers that play many games, since loading the core costs more than
    one game on the reference."""
    name = core_name(policy) if compiled and memories is None and not state.won else None
    if name is not None:
        from tranquility.solver.core.games import core_game

        played = core_game(state, name, blueprint_weights(policy, state.rules, state.players))
        for move in played:
            state = state.apply(move)  # the engine checks every action
        return state, played
    actions: list[Action] = []
    while not state.won and state.status == Status.OPEN:
        action: Action
        if state.must_play_start():
            action = start_action(state, policy)
        else:
            action = policy.decide_at(state, None if memories is None else memories[state.seat])
        after = state.apply(action)  # the engine checks every action
        if memories is not None:
            memories = [memory.witness(state, action, after) for memory in memories]
        state = after
        actions.append(action)
    return state, actions


class Ending(NamedTuple):
    """How a playout ended: what a search scores it on."""

    won: bool
    filled: int
    cards_left: int


def playouts(states: Sequence[State], policy: Policy, firsts: Sequence[Action] | None = None) -> list[Ending]:
    """Each of ``states`` (one rule set and player count), after its move in ``firsts`` if
    given, played to the end with ``policy`` at every seat: on the compiled core in one call
    when it plays the policy (its games are the reference's: tests/core/), else one by one."""
    name = core_name(policy) if states else None
    if name is not None:
        from tranquility.solver.core.games import core_outcomes

        ends = core_outcomes(states, name, firsts, blueprint_weights(policy, states[0].rules, states[0].players))
        return [Ending(bool(won), int(filled), int(left)) for won, filled, left in ends]
    found = []
    for i, state in enumerate(states):
        end = play_on(state if firsts is None else state.apply(firsts[i]), policy)[0]
        found.append(Ending(end.won, end.filled, end.cards_left))
    return found


def simulate(game: Game | Replayed, policy: str | Policy = "tuned", seed: int = 0, compiled: bool = False) -> SimResult:
    """Play ``game`` (a deal, or a line to continue) to its end with one policy at every
    seat: a silent policy's name (made with ``seed``), or a policy made by the caller; on the
    compiled core when ``compiled`` and it plays the policy (``play_on``)."""
    player = make_policy(policy, seed) if isinstance(policy, str) else policy
    checked = replayed(game)  # a game already replayed is not replayed again
    line, state = checked.line, checked.state
    memories = [remember(line, seat) for seat in range(state.players)] if player.remembers else None
    state, actions = play_on(state, player, memories, compiled)
    return SimResult(
        line=line.with_actions(line.actions + tuple(actions)),
        won=state.won,
        cells_filled=state.filled,
        turns=len(line.actions) + len(actions),
        status=state.status,
        policy=player.name,
        sim_seed=seed,
    )


@dataclass(frozen=True)
class WinRate:
    policy: str
    players: int
    deals: int
    sim_seed: int
    wins: int
    mean_cells_filled: float
    mean_turns: float
    rules: Rules

    @property
    def win_rate(self) -> float:
        return self.wins / self.deals if self.deals else 0.0

    def to_json(self) -> dict:
        return {
            "policy": self.policy,
            "players": self.players,
            "deals": self.deals,
            "seeds": f"0..{self.deals - 1}",
            "sim_seed": self.sim_seed,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "mean_cells_filled": round(self.mean_cells_filled, 2),
            "mean_turns": round(self.mean_turns, 2),
            "cells": self.rules.cells,
            "rules": self.rules.to_dict(),
        }


def win_rate(
    rules: Rules,
    players: int,
    deals: int,
    policy: str | Policy = "tuned",
    seed: int = 0,
    on_deal: Callable[[int, SimResult], None] | None = None,
) -> WinRate:
    """Play the seeded deals 0..deals-1 with ``policy`` (sim seed ``seed`` for each): a
    silent policy's name, made afresh for each deal, or a policy made by the caller."""
    if isinstance(policy, str):
        make_policy(policy)  # a bad name fails before any deal is played
    wins = cells = turns = 0
    for number in range(deals):
        result = simulate(deal(rules, players, number), policy, seed, compiled=True)
        wins += result.won
        cells += result.cells_filled
        turns += result.turns
        if on_deal is not None:
            on_deal(number, result)
    n = max(deals, 1)
    name = policy if isinstance(policy, str) else policy.name
    return WinRate(name, players, deals, seed, wins, cells / n, turns / n, rules)
