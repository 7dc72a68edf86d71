"""The ``lookahead`` policy: a seat that searches what it cannot see (single-agent SPARTA).

On its turn a lookahead seat takes its memory of the game (``SeatMemory``: the public
history, its own hands and discards), deals the cards it has not seen into worlds that
agree with everything it saw (``sample_world``) and, with the ``filtered`` belief, with
the moves the other seats made since its own last turn, had they played thrifty
(``agreeing_world``). It tries its few best moves in each: every world, every move, one
playout to the end with ``thrifty`` at every seat. A move other than thrifty's own is
played only if it wins in significantly more of the same worlds (a sign test,
``significant``), the best such move by wins, then cells filled and cards to spare;
otherwise thrifty's move is. The budget is a count of worlds (``samples``), never a
clock, and the worlds are dealt from a seed made of the sim seed, the turn and the seat,
so the same deal and settings give the same line on every machine (docs/simulate.md).

The Start event's split, the Sea Monsters, the Finish and the manual rocks are played as
thrifty plays them: only the choice between island plays and discarding two is searched.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tranquility.solver.engine.actions import Action, ChoiceKind, PlayFinish, PlayIsland, PlayMonster, choice_of
from tranquility.solver.engine.cards import Card, sorted_cards
from tranquility.solver.engine.state import State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.memory import SeatMemory, TurnRecord
from tranquility.solver.search.policies import POLICIES, Observation, Reading, Thrifty, observe, play_on
from tranquility.solver.search.worlds import sample_world, undo_turn, unseen_cards

DEFAULT_SAMPLES = 12  # worlds per decision: a median decision of 0.21 to 0.27 CPU s (docs/simulate.md)
WIDTH = 3  # thrifty's best island plays tried, besides its own move and discarding two
ALPHA = (1, 20)  # the sign test's level, 1/20: how sure a seat must be to leave thrifty's move
TRIES = 24  # worlds dealt, at most, to find one where the last round's moves are thrifty's
# How a seat weighs the worlds: ``counts`` deals every hidden card at random within the
# counts (the face-down ones leaning towards the cards thrifty gives up); ``filtered`` also
# keeps only worlds where thrifty, at the other seats, would have made the moves they made
# since the seat's own last turn (SPARTA's belief update).
BELIEFS = ("filtered", "counts")

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class MoveEstimate:
    """How one move fared in a seat's sampled worlds: ``won`` says, world by world, whether
    its playout won; ``rest`` sums, over the worlds, the cells filled plus a hundredth per
    card to spare."""

    action: Action
    won: tuple[bool, ...]
    rest: float

    @property
    def wins(self) -> int:
        return sum(self.won)

    @property
    def worlds(self) -> int:
        return len(self.won)

    @property
    def rate(self) -> float:
        return self.wins / self.worlds

    def beats(self, other: MoveEstimate) -> bool:
        """Whether this move wins in significantly more of the same worlds than ``other``."""
        return significant(*discordant(self.won, other.won))

    def interval(self) -> tuple[float, float]:
        """The Wilson 95% interval of the win chance (honest at 0 and at every world won)."""
        n, p = self.worlds, self.rate
        centre = p + Z95 * Z95 / (2 * n)
        spread = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n))
        scale = 1 + Z95 * Z95 / n
        return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def discordant(won: Sequence[bool], other: Sequence[bool]) -> tuple[int, int]:
    """(worlds won by the first move and lost by the other, worlds lost by the first and won
    by the other), over the worlds both were played in."""
    pairs = list(zip(won, other, strict=False))
    return sum(a and not b for a, b in pairs), sum(b and not a for a, b in pairs)


def significant(better: int, worse: int) -> bool:
    """A one-sided sign test at level ``ALPHA`` on the worlds where exactly one of two moves
    wins: ``better`` for the first, ``worse`` for the second (exact, in integers: the same
    on every machine)."""
    split = better + worse
    tail = sum(math.comb(split, k) for k in range(better, split + 1))
    return better > worse and tail * ALPHA[1] <= ALPHA[0] * 2**split


class Lookahead(Thrifty):
    """Thrifty's moves, checked by playouts in sampled worlds (module docstring).

    ``seat``: only that seat looks ahead and the others play thrifty; None: every seat does."""

    name = "lookahead"
    remembers = True

    def __init__(self, seed: int = 0, samples: int = DEFAULT_SAMPLES, seat: int | None = None, belief: str = BELIEFS[0]):
        if samples < 1:
            raise BadInput(f"lookahead needs at least 1 sample, got {samples}")
        if belief not in BELIEFS:
            raise BadInput(f"unknown belief {belief!r} (known: {', '.join(BELIEFS)})")
        super().__init__(random.Random(seed))
        self.seed = seed
        self.samples = samples
        self.seat = seat
        self.belief = belief
        self.playout = Thrifty(random.Random(seed))  # the blueprint every seat plays in a playout

    def decide(self, obs: Observation, memory: SeatMemory | None) -> Action:
        own = self.act(obs)  # thrifty's move, from the observation alone
        if memory is None or (self.seat is not None and obs.seat != self.seat):
            return own
        moves = self.candidates(obs, own)
        if len(moves) == 1:
            return own
        found = self.estimate(obs, memory, moves, f"lookahead/{self.seed}/{obs.turn}/{obs.seat}", prune=True)
        # A game is chaotic: any other move sends thrifty down another path, and the best of
        # several noisy estimates looks better than it is. Leave thrifty's move only for one
        # that wins significantly more often in the same worlds (the best of those).
        better = [e for e in found[1:] if e.worlds == self.samples and e.beats(found[0])]
        return max(better, key=lambda e: (e.wins, e.rest)).action if better else own

    def estimate(
        self, obs: Observation, memory: SeatMemory, moves: Sequence[Action], key: str, prune: bool = False
    ) -> tuple[MoveEstimate, ...]:
        """Each of ``moves`` played in the same ``samples`` worlds (dealt from the seed
        ``key``), then thrifty at every seat to the end: how each fared, in ``moves``' order.
        ``prune``: stop playing a move once it can no longer beat the first one (``beats``)
        in the worlds left, and stop when none can: its estimate covers fewer worlds."""
        rng = random.Random(key)
        weights = self.giving_weights(obs, memory)
        won: list[list[bool]] = [[] for _ in moves]
        rest = [0.0] * len(moves)
        window = last_round(memory) if self.belief == "filtered" else ()
        alive = list(range(len(moves)))
        for left in range(self.samples - 1, -1, -1):
            world = self.world(memory, obs, rng, weights, window)
            for i in alive:
                end, _ = play_on(world.apply(moves[i]), self.playout)
                won[i].append(end.won)
                rest[i] += end.filled + end.cards_left / 100.0
            if prune:
                # Could it still win significantly more often, winning every world to come?
                splits = {i: discordant(won[i], won[0]) for i in alive[1:]}
                alive = [0] + [i for i, (better, worse) in splits.items() if significant(better + left, worse)]
                if len(alive) == 1:
                    break
        return tuple(MoveEstimate(move, tuple(w), r) for move, w, r in zip(moves, won, rest, strict=True))

    def every_move(self, obs: Observation) -> list[Action]:
        """One action per legal choice of the seat to move, paid as thrifty pays: each
        island play, each Sea Monster, the Finish, discarding two (the payment's choice of
        cards is not searched)."""
        reading = Reading(obs)
        moves = [self.island_action(obs, reading, play) for play in obs.view.island_plays]
        for choice in obs.view.other_choices:
            if choice.kind == ChoiceKind.FINISH:
                moves.append(self._with_rocks(obs, PlayFinish(seat=obs.seat)))
            elif choice.kind == ChoiceKind.MONSTER:
                moves.append(self._with_rocks(obs, PlayMonster(seat=obs.seat, cell=choice.target)))
            elif choice.kind == ChoiceKind.DISCARD:
                moves.append(self.discard_action(obs, reading))
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
        """A world where thrifty, replayed at the other seats from where ``window`` starts,
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
                move = self.playout.act(observe(past, record.seat))
                if not same_public_move(move, record):
                    break
                past = past.apply(move)
                matched += 1
            if matched == len(window):
                return past, matched  # the real round's moves, and thrifty's choice of payments
            if matched > agreed:
                best, agreed = world, matched
        assert best is not None
        return best, agreed

    def giving_weights(self, obs: Observation, memory: SeatMemory) -> dict[Card, float]:
        """How likely each unseen card is to lie face down: the other seats, thrifty too, gave
        up the cards thrifty values least (a dead island weighs 1, a live one 1/8 to
        1/2744, a Finish 1/8000, a Sea Monster or a live Start next to nothing)."""
        cards = sorted_cards(unseen_cards(memory, obs))
        values = self.keep_values(Reading(obs), cards, obs.start_played)
        # Products, not pow(): the same weights on every machine.
        lean = [1.0 + value / 5.0 for value in values]
        return {card: 1.0 / (d * d * d) for card, d in zip(cards, lean, strict=True)}

    def candidates(self, obs: Observation, own: Action) -> list[Action]:
        """Thrifty's own move first, then its ``WIDTH`` best island plays and discarding
        two; a Finish or a Sea Monster is played without a search."""
        kinds = {c.kind for c in obs.view.other_choices}
        if ChoiceKind.FINISH in kinds or ChoiceKind.MONSTER in kinds:
            return [own]
        reading = Reading(obs)
        islands = obs.view.island_plays
        scores = self.island_scores(obs, reading, islands)
        ranked = sorted(range(len(islands)), key=lambda i: (scores[i], i))
        moves = [own]
        found = [self.island_action(obs, reading, islands[i]) for i in ranked[:WIDTH]]
        if ChoiceKind.DISCARD in kinds:
            found.append(self.discard_action(obs, reading))
        moves += [move for move in found if move != own]
        return list(dict.fromkeys(moves))


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


# The policies ``tranquility simulate`` plays: the silent ones, then the searching one
# (``odds`` plays the silent ones only).
SIMULATE_POLICIES: tuple[str, ...] = (*POLICIES, Lookahead.name)
