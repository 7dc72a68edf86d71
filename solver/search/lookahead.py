"""The ``lookahead`` policy: a seat that searches what it cannot see (single-agent SPARTA).

On its turn a lookahead seat takes its memory of the game (``SeatMemory``: the public
history, its own hands and discards), deals the cards it has not seen into worlds that
agree with everything it saw (``sample_world``), and tries its few best moves in each:
every world, every move, one playout to the end with ``thrifty`` at every seat. The move
that wins in the most worlds (then: the most cells filled, then cards to spare) is played
if it wins in clearly more worlds than thrifty's own move (``DEVIATION``); otherwise
thrifty's move is. The budget is a count of worlds (``samples``), never a
clock, and the worlds are dealt from a seed made of the sim seed, the turn and the seat,
so the same deal and settings give the same line on every machine (docs/simulate.md).

The Start event's split, the Sea Monsters, the Finish and the manual rocks are played as
thrifty plays them: only the choice between island plays and discarding two is searched.
"""

from __future__ import annotations

import random

from tranquility.solver.engine.actions import Action, ChoiceKind
from tranquility.solver.engine.cards import Card, sorted_cards
from tranquility.solver.errors import BadInput
from tranquility.solver.search.memory import SeatMemory
from tranquility.solver.search.policies import POLICIES, Observation, Reading, Thrifty, play_on
from tranquility.solver.search.worlds import sample_world, unseen_cards

DEFAULT_SAMPLES = 12  # worlds per decision: a median decision of 0.21 to 0.27 CPU s (docs/simulate.md)
WIDTH = 3  # thrifty's best island plays tried, besides its own move and discarding two
DEVIATION = 15  # percent of the worlds (rounded up, 2 at least) a move must win more often than thrifty's own


class Lookahead(Thrifty):
    """Thrifty's moves, checked by playouts in sampled worlds (module docstring).

    ``seat``: only that seat looks ahead and the others play thrifty; None: every seat does."""

    name = "lookahead"
    remembers = True

    def __init__(self, seed: int = 0, samples: int = DEFAULT_SAMPLES, seat: int | None = None):
        if samples < 1:
            raise BadInput(f"lookahead needs at least 1 sample, got {samples}")
        super().__init__(random.Random(seed))
        self.seed = seed
        self.samples = samples
        self.seat = seat
        self.playout = Thrifty(random.Random(seed))  # the blueprint every seat plays in a playout

    def decide(self, obs: Observation, memory: SeatMemory | None) -> Action:
        own = self.act(obs)  # thrifty's move, from the observation alone
        if memory is None or (self.seat is not None and obs.seat != self.seat):
            return own
        moves = self.candidates(obs, own)
        if len(moves) == 1:
            return own
        rng = random.Random(f"lookahead/{self.seed}/{obs.turn}/{obs.seat}")
        weights = self.giving_weights(obs, memory)
        wins = [0] * len(moves)
        rest = [0.0] * len(moves)
        for _ in range(self.samples):
            world = sample_world(memory, obs, rng, weights)
            for i, move in enumerate(moves):
                end, _ = play_on(world.apply(move), self.playout)
                wins[i] += end.won
                rest[i] += end.filled + end.cards_left / 100.0
        best = max(range(len(moves)), key=lambda i: (wins[i], rest[i], -i))
        # The worlds are few and a rough belief (only the discards lean on what the other
        # seats chose): leave thrifty's move only for clearly more wins (measured: with one
        # more win out of 4 worlds, lookahead lost more deals than thrifty).
        needed = max(2, -(-self.samples * DEVIATION // 100))  # integers: the same on every machine
        return moves[best] if wins[best] - wins[0] >= needed else own

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


# The policies ``tranquility simulate`` plays: the silent ones, then the searching one
# (``odds`` plays the silent ones only).
SIMULATE_POLICIES: tuple[str, ...] = (*POLICIES, Lookahead.name)
