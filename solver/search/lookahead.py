"""The ``lookahead`` policy: a seat that searches what it cannot see (single-agent SPARTA).

On its turn a lookahead seat takes its memory of the game (``SeatMemory``: the public
history, its own hands and discards), deals the cards it has not seen into worlds that
agree with everything it saw (``sample_world``) and, with the ``filtered`` belief, with
the moves the other seats made since its own last turn, had they played the blueprint
(``agreeing_world``). The blueprint is the silent policy every seat is taken to play:
``tuned`` by default. The seat tries the blueprint's own move and its few best
alternatives, each played out to the end in the same worlds (common random numbers) with
the blueprint at every seat. A playout's value is shaped: 1 for a win, plus
``CELLS_WEIGHT`` x the share of cells filled, so that two lost playouts still tell a
near miss from a collapse. Each alternative is judged by its value less the blueprint
move's in the same world (the blueprint's own result is the control variate), and the
alternatives are thinned by successive halving: every round deals ``samples`` new worlds
and plays the moves still in, then keeps the better half of the alternatives. The last
alternative standing replaces the blueprint's move only if its mean advantage is at least
``EFFECT`` and its one-sided 95% lower bound is above zero: an effect a seat can rely on,
not the best of several noisy estimates. The budget is a count of worlds, never a clock,
and the worlds are dealt from a seed made of the sim seed, the turn and the seat, so the
same deal and settings give the same line on every machine (docs/simulate.md).

Once the process has the compiled core, the worlds are dealt there and played out there as
the core's arrays (core/worlds.py: the same worlds from the same draws, the same lines;
tests/core/test_world_parity.py); until then, with ``TRANQUILITY_CORE=off`` or on a Python
other than 3.11, the reference deals them (``world``).

The Start event's split, the Sea Monsters, the Finish and the manual rocks are played as
the blueprint plays them: only the choice between island plays and discarding two is searched.

``OpenHands`` is the same search for one mind that sees every hand (not the piles): a ceiling
to measure silent play against, never a seat (docs/simulate.md, the ceiling ladder).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tranquility.solver.engine.actions import Action, ChoiceKind, PlayFinish, PlayIsland, PlayMonster, choice_of
from tranquility.solver.engine.cards import Card, sorted_cards
from tranquility.solver.engine.observation import Observation, observe
from tranquility.solver.engine.state import State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.memory import SeatMemory, TurnRecord
from tranquility.solver.search.policies import (
    POLICIES,
    Ending,
    Policy,
    Reading,
    StartCall,
    act_as,
    blueprint_weights,
    compiled_name,
    core_name,
    make_policy,
    playouts,
)
from tranquility.solver.search.weights import CELLS_WEIGHT
from tranquility.solver.search.worlds import (
    Dealt,
    deal_on_core,
    dealing,
    open_world,
    sample_world,
    undo_turn,
    unseen_cards,
    worlds_on_core,
)
from tranquility.solver.stats import Z95_ONE_SIDED, wilson

DEFAULT_SAMPLES = 60  # worlds dealt per round of successive halving (docs/simulate.md measures the cost)
BLUEPRINTS = ("tuned", "thrifty")  # the silent policies that score their plays; the first is the default
WIDTH = 3  # the blueprint's best island plays tried, besides its own move and discarding two
TRIES = 24  # worlds dealt, at most, to find one where the last round's moves are the blueprint's
EFFECT = 0.03  # the least mean advantage, in shaped value, for which a seat leaves the blueprint's move
# How a seat weighs the worlds: ``counts`` deals every hidden card at random within the
# counts (the face-down ones leaning towards the cards the blueprint gives up); ``filtered`` also
# keeps only worlds where the blueprint, at the other seats, would have made the moves they made
# since the seat's own last turn (SPARTA's belief update).
BELIEFS = ("filtered", "counts")


@dataclass(frozen=True)
class MoveEstimate:
    """How one move fared in a seat's sampled worlds: ``won`` says, world by world, whether
    its playout won; ``rest`` sums, over the worlds, the cells filled plus a hundredth per
    card to spare; ``values`` holds each playout's shaped value (``shaped``)."""

    action: Action
    won: tuple[bool, ...]
    rest: float
    values: tuple[float, ...] = ()

    @property
    def wins(self) -> int:
        return sum(self.won)

    @property
    def worlds(self) -> int:
        return len(self.won)

    @property
    def rate(self) -> float:
        return self.wins / self.worlds

    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win chance (honest at 0 and at every world won)."""
        return wilson(self.wins, self.worlds)

    def advantage(self, base: MoveEstimate) -> tuple[float, float]:
        """(mean, one-sided 95% lower bound) of this move's shaped value less ``base``'s,
        over the worlds both were played in (the pairing cancels each world's luck)."""
        diffs = [a - b for a, b in zip(self.values, base.values, strict=False)]
        n = len(diffs)
        mean = sum(diffs) / n
        if n < 2:
            return mean, -math.inf
        var = sum((d - mean) * (d - mean) for d in diffs) / (n - 1)
        return mean, mean - Z95_ONE_SIDED * math.sqrt(var / n)


def shaped(end: Ending, cells: int) -> float:
    """A playout's value: 1 for a win, plus ``CELLS_WEIGHT`` x the share of the ``cells`` filled."""
    return end.won + CELLS_WEIGHT * end.filled / cells


class Lookahead(Policy):
    """The blueprint's moves, checked by playouts in sampled worlds (module docstring).

    ``seat``: only that seat looks ahead and the others play the blueprint; None: every seat does."""

    name = "lookahead"
    remembers = True

    def __init__(
        self,
        seed: int = 0,
        samples: int = DEFAULT_SAMPLES,
        seat: int | None = None,
        belief: str = BELIEFS[0],
        blueprint: str = BLUEPRINTS[0],
    ):
        if samples < 1:
            raise BadInput(f"lookahead needs at least 1 sample, got {samples}")
        if belief not in BELIEFS:
            raise BadInput(f"unknown belief {belief!r} (known: {', '.join(BELIEFS)})")
        if blueprint not in BLUEPRINTS:
            raise BadInput(f"lookahead cannot search on {blueprint!r} (known: {', '.join(BLUEPRINTS)})")
        super().__init__(random.Random(seed))
        self.seed = seed
        self.samples = samples
        self.seat = seat
        self.belief = belief
        self.playout = make_policy(blueprint, seed)  # the blueprint every seat plays in a playout

    def act(self, obs: Observation) -> Action:
        return self.playout.act(obs)

    def give(self, call: StartCall) -> tuple[Card, ...]:
        return self.playout.give(call)

    def rocks_row(self, obs: Observation, grid: tuple, hand: tuple[Card, ...], rows: list[int]) -> int:
        return self.playout.rocks_row(obs, grid, hand, rows)

    def decide(self, obs: Observation, memory: SeatMemory | None) -> Action:
        own = self.act(obs)  # the blueprint's move, from the observation alone
        if memory is None or (self.seat is not None and obs.seat != self.seat):
            return own
        return self.searched(obs, own, lambda key: self.dealer(obs, memory, key))

    def searched(self, obs: Observation, own: Action, dealer: Callable[[str], Callable[[], list[State] | Dealt]]) -> Action:
        """The move the search settles on at ``obs``: the blueprint's ``own``, or the last
        alternative standing after ``halve`` in the worlds ``dealer`` deals (from the seed it
        is given), if its advantage is at least ``EFFECT`` and its lower bound above zero."""
        moves = self.candidates(obs, own)
        if len(moves) == 1:
            return own
        found = self.halve(dealer(f"{self.name}/{self.seed}/{obs.turn}/{obs.seat}"), moves, obs.rules.cells)
        last = found[-1]
        if last is found[0]:
            return own
        mean, low = last.advantage(found[0])
        return last.action if mean >= EFFECT and low > 0.0 else own

    def halving(self, obs: Observation, memory: SeatMemory, moves: Sequence[Action], key: str) -> list[MoveEstimate]:
        """``halve`` in the worlds of the seat's belief, dealt from the seed ``key``."""
        return self.halve(self.dealer(obs, memory, key), moves, obs.rules.cells)

    def halve(self, deal_round: Callable[[], list[State] | Dealt], moves: Sequence[Action], cells: int) -> list[MoveEstimate]:
        """Successive halving over ``moves`` (the blueprint's own first): each round deals
        new worlds (``deal_round``) and plays every move still in; then the better half of the
        alternatives, by mean advantage over the blueprint's move, stays. The estimates of
        the blueprint's move and of the last alternatives standing, the best last."""
        played: dict[int, list[Ending]] = {i: [] for i in range(len(moves))}
        alive = list(range(len(moves)))
        while True:
            worlds = deal_round()
            ends = self.play(worlds, [moves[i] for i in alive])
            for k, i in enumerate(alive):
                played[i] += ends[k * len(worlds) : (k + 1) * len(worlds)]
            estimates = {i: estimate_of(moves[i], played[i], cells) for i in alive}
            others = sorted(alive[1:], key=lambda i: (-estimates[i].advantage(estimates[0])[0], i))
            if len(others) <= 1:
                return [estimates[0], *(estimates[i] for i in others)]
            alive = [0, *sorted(others[: (len(others) + 1) // 2])]

    def estimate(self, obs: Observation, memory: SeatMemory, moves: Sequence[Action], key: str) -> tuple[MoveEstimate, ...]:
        """Each of ``moves`` played in the same ``samples`` worlds (dealt from the seed
        ``key``), then the blueprint at every seat to the end: how each fared, in ``moves``' order."""
        worlds = self.dealer(obs, memory, key)()
        ends = self.play(worlds, moves)
        n = len(worlds)
        return tuple(estimate_of(move, ends[i * n : (i + 1) * n], obs.rules.cells) for i, move in enumerate(moves))

    def dealer(self, obs: Observation, memory: SeatMemory, key: str) -> Callable[[], list[State] | Dealt]:
        """Deals ``samples`` worlds for the seat's belief at each call, from the seed ``key``:
        on the compiled core once the process has it (the same worlds, tests/core/), as the
        core's arrays, else one by one on the reference, as ``State``s."""
        rng = random.Random(key)
        weights = self.giving_weights(obs, memory)
        window = last_round(memory) if self.belief == "filtered" else ()
        name = core_name(self.playout)
        if name is not None and worlds_on_core():
            from tranquility.solver.core.twister import state_of

            plan, state = dealing(memory, obs, weights, window), state_of(rng)
            blueprint = blueprint_weights(self.playout, obs.rules, obs.players)
            return lambda: deal_on_core(plan, state, self.samples, TRIES, name, blueprint)
        return lambda: [self.world(memory, obs, rng, weights, window) for _ in range(self.samples)]

    def play(self, worlds: list[State] | Dealt, moves: Sequence[Action]) -> list[Ending]:
        """Each of ``moves`` played in every one of ``worlds``, then the blueprint at every seat
        to the end: how each game ended, move by move and world by world."""
        if not isinstance(worlds, Dealt):
            return playouts([world for _ in moves for world in worlds], self.playout, [move for move in moves for _ in worlds])
        import numpy as np
        from tranquility.solver.core.games import array_outcomes

        name = compiled_name(self.playout)
        assert name is not None, "worlds dealt on the core for a blueprint it does not play"
        rules, players, n = worlds.tab.rules, worlds.tab.players, len(worlds)
        Gs, Ds = np.tile(worlds.Gs, (len(moves), 1)), np.tile(worlds.Ds, (len(moves), 1))
        firsts = [move for move in moves for _ in range(n)]
        ends = array_outcomes(worlds.tab, Gs, Ds, name, firsts, blueprint_weights(self.playout, rules, players))
        return [Ending(bool(won), int(filled), int(left)) for won, filled, left in ends]

    def every_move(self, obs: Observation) -> list[Action]:
        """One action per legal choice of the seat to move, paid as the blueprint pays: each
        island play, each Sea Monster, the Finish, discarding two (the payment's choice of
        cards is not searched)."""
        reading, blueprint = Reading(obs), self.playout
        moves = [blueprint.island_action(obs, reading, play) for play in obs.view.island_plays]
        for choice in obs.view.other_choices:
            if choice.kind == ChoiceKind.FINISH:
                moves.append(self._with_rocks(obs, PlayFinish(seat=obs.seat)))
            elif choice.kind == ChoiceKind.MONSTER:
                moves.append(self._with_rocks(obs, PlayMonster(seat=obs.seat, cell=choice.target)))
            elif choice.kind == ChoiceKind.DISCARD:
                moves.append(blueprint.discard_action(obs, reading))
        return list(dict.fromkeys(moves))

    def world(
        self, memory: SeatMemory, obs: Observation, rng: random.Random, weights: dict[Card, float], window: tuple[TurnRecord, ...]
    ) -> State:
        """A world for the seat's belief: with a ``window`` (the other seats' turns since its
        own last one), the first found by ``agreeing_world``."""
        return self.agreeing_world(memory, obs, rng, weights, window)[0] if window else sample_world(memory, obs, rng, weights)

    def agreeing_world(
        self, memory: SeatMemory, obs: Observation, rng: random.Random, weights: dict[Card, float], window: tuple[TurnRecord, ...]
    ) -> tuple[State, int]:
        """A world where the blueprint, replayed at the other seats from where ``window`` starts,
        makes every move they made, and how many of the window's moves it made: worlds are
        dealt until one agrees (at most ``TRIES``; failing that, the one that agreed with
        the most of them in order)."""
        own = Counter(memory.own_discards)
        best, agreed = None, -1
        for _ in range(TRIES):
            world = sample_world(memory, obs, rng, weights)
            past: State | None = world
            for record in reversed(window):
                past = undo_turn(past, record, own, rng) if past is not None else None
            if past is None:
                return world, 0  # a turn the undo cannot take back: the plain belief
            matched = 0
            for record in window:
                if past.must_play_start():  # the seat played no Start then: it held none
                    break
                move = act_as(self.playout, observe(past, record.seat))
                if not same_public_move(move, record):
                    break
                past = past.apply(move)
                matched += 1
            if matched == len(window):
                return past, matched  # the real round's moves, and the blueprint's choice of payments
            if matched > agreed:
                best, agreed = world, matched
        assert best is not None
        return best, agreed

    def giving_weights(self, obs: Observation, memory: SeatMemory) -> dict[Card, float]:
        """How likely each unseen card is to lie face down: the other seats, playing the blueprint,
        gave up the cards it values least (a dead island weighs 1, a live one 1/8 to
        1/2744, a Finish 1/8000, a Sea Monster or a live Start next to nothing)."""
        cards = sorted_cards(unseen_cards(memory, obs))
        values = self.playout.keep_values(Reading(obs), cards, obs.start_played)
        # Products, not pow(): the same weights on every machine.
        lean = [1.0 + value / 5.0 for value in values]
        return {card: 1.0 / (d * d * d) for card, d in zip(cards, lean, strict=True)}

    def candidates(self, obs: Observation, own: Action) -> list[Action]:
        """The blueprint's own move first, then its ``WIDTH`` best island plays and discarding
        two; a Finish or a Sea Monster is played without a search."""
        kinds = {c.kind for c in obs.view.other_choices}
        if ChoiceKind.FINISH in kinds or ChoiceKind.MONSTER in kinds:
            return [own]
        reading, blueprint = Reading(obs), self.playout
        islands = obs.view.island_plays
        scores = blueprint.island_scores(obs, reading, islands)
        ranked = sorted(range(len(islands)), key=lambda i: (scores[i], i))
        moves = [own]
        found = [blueprint.island_action(obs, reading, islands[i]) for i in ranked[:WIDTH]]
        if ChoiceKind.DISCARD in kinds:
            found.append(blueprint.discard_action(obs, reading))
        moves += [move for move in found if move != own]
        return list(dict.fromkeys(moves))


class OpenHands(Lookahead):
    """A ceiling to measure silent play against, not a seat: one mind that plays every seat
    and sees every seat's hand, but not the order of the piles. It searches as ``Lookahead``
    does (the same candidates, halving, playouts and threshold), in worlds that keep every
    hand as it is and deal only the undrawn cards again (``open_world``): what is left to
    chance is the piles alone. It decides from the whole table (``decide_at``), so it can
    never sit where a seat must see its own hand only (a bot at a table, the fair analysis)."""

    name = "open-hands"
    remembers = False  # it sees the table itself; there is nothing hidden to remember

    def __init__(self, seed: int = 0, samples: int = DEFAULT_SAMPLES, blueprint: str = BLUEPRINTS[0]):
        super().__init__(seed, samples, None, BELIEFS[1], blueprint)  # its worlds are open_world's: no belief

    def decide(self, obs: Observation, memory: SeatMemory | None) -> Action:
        raise BadInput(f"{self.name} {CEILING_REASON}; it decides from the whole table, never from one seat's observation")

    def decide_at(self, state: State, memory: SeatMemory | None) -> Action:
        obs = observe(state, state.seat)
        return self.searched(obs, self.act(obs), lambda key: self.open_dealer(state, key))

    def open_dealer(self, state: State, key: str) -> Callable[[], list[State]]:
        """Deals ``samples`` worlds of ``open_world`` at each call, from the seed ``key``, in
        Python (the core's dealer deals a seat's belief; these worlds are a shuffle of the
        piles, cheap beside their playouts, which run on the core)."""
        rng = random.Random(key)
        return lambda: [open_world(state, rng) for _ in range(self.samples)]


# Why a ceiling player is refused where a seat must play fair (its message names the player first).
CEILING_REASON = "sees every seat's hand: it is a ceiling to measure silent play against, not a seat"


def estimate_of(move: Action, ends: Sequence[Ending], cells: int) -> MoveEstimate:
    """A move's estimate from how its playouts ended, world by world (on a grid of ``cells``)."""
    rest = sum(end.filled + end.cards_left / 100.0 for end in ends)
    return MoveEstimate(move, tuple(end.won for end in ends), rest, tuple(shaped(end, cells) for end in ends))


def last_round(memory: SeatMemory) -> tuple[TurnRecord, ...]:
    """The other seats' turns since the seat's own last one, oldest first (island plays and
    discards only: the window starts after a Start event, a Sea Monster or a Finish)."""
    window: list[TurnRecord] = []
    for record in reversed(memory.history):
        if record.seat == memory.seat or record.kind not in (ChoiceKind.ISLAND, ChoiceKind.DISCARD):
            break
        window.append(record)
    return tuple(reversed(window))


def same_public_move(move: Action, record: TurnRecord) -> bool:
    """Whether ``move`` looks like ``record`` to the table: the same kind, island and cell."""
    if isinstance(move, PlayIsland):
        return (move.card, move.cell) == (record.card, record.cell)
    return choice_of(move).kind == record.kind and record.card is None


# The policies a seat can play (``play --bots``, the web's tables): the silent ones, then the
# searching one (``odds --policies`` plays the silent ones only).
SIMULATE_POLICIES: tuple[str, ...] = (*POLICIES, Lookahead.name)
# The players that are no seat: they see more than a seat may (docs/simulate.md, the ceiling ladder).
CEILINGS: tuple[str, ...] = (OpenHands.name,)
# What ``simulate --policy`` and ``odds --policy`` play: every seat's policy and the ceilings.
MEASURED_POLICIES: tuple[str, ...] = (*SIMULATE_POLICIES, *CEILINGS)
