"""Deals: the cards of every seat's pile, and the seeded dealer (v1, docs/dealing.md)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, card_label, is_island
from tranquility.solver.engine.rng import SplitMix64
from tranquility.solver.engine.rules import MAX_PLAYERS, FinishSetup, Rocks, Rules
from tranquility.solver.errors import BadInput

DEALER = "v1"
MAX_SEED = 2**64 - 1  # the dealer's seeds run 0..MAX_SEED, as its SplitMix64 takes them


class DealError(BadInput):
    """A deal breaks a rule of the game (a card twice or missing, a Start in a hand...)."""


@dataclass(frozen=True)
class Deal:
    """One pile per seat in turn order, top first; the first ``rules.hand`` cards of each
    pile are that seat's opening hand."""

    rules: Rules
    piles: tuple[tuple[Card, ...], ...]
    seed: int | None = None
    removed_islands: tuple[int, ...] = ()
    rocks_row: int | None = None
    rocks_rolls: tuple[int, ...] = ()
    dealer: str | None = None

    @property
    def players(self) -> int:
        return len(self.piles)

    def total_cards(self) -> int:
        return sum(len(p) for p in self.piles)

    def check(self) -> None:
        """Raise DealError unless every card of the rules is dealt exactly once, legally."""
        self._valid  # noqa: B018  # a deal is immutable: checked once, on first use

    @cached_property
    def _valid(self) -> bool:
        rules = self.rules
        if not 1 <= self.players <= MAX_PLAYERS:
            raise DealError(f"a deal has 1 to {MAX_PLAYERS} piles (seats), got {self.players}")
        removed = Counter(self.removed_islands)
        if len(removed) != len(self.removed_islands):
            twice = sorted(c for c, n in removed.items() if n > 1)
            raise DealError(f"removed_islands lists island {twice[0]} twice")
        if len(removed) != rules.removed:
            raise DealError(f"removed_islands lists {len(removed)} islands but rule 'removed' is {rules.removed}")
        for island in removed:
            if not (is_island(island) and 1 <= island <= rules.islands):
                raise DealError(f"removed island {island!r} is not an island of 1..{rules.islands}")
        expected: Counter[Card] = Counter(c for c in range(1, rules.islands + 1) if c not in removed)
        expected[START] = self.players
        expected[FINISH] = rules.finish
        if rules.monsters:
            expected[MONSTER] = rules.monsters
        dealt: Counter[Card] = Counter()
        for seat, pile in enumerate(self.piles):
            for pos, card in enumerate(pile):
                if not (is_island(card) or card in (START, FINISH, MONSTER)):
                    raise DealError(f"seat {seat} pile position {pos}: unknown card {card!r}")
                if is_island(card) and not 1 <= card <= rules.islands:
                    raise DealError(f"seat {seat} pile position {pos}: island {card} is outside 1..{rules.islands}")
                if card == START and pos < rules.hand:
                    raise DealError(f"seat {seat}: the Start card is in the opening hand (position {pos})")
                if card == FINISH and pos < rules.hand and rules.finish_setup == FinishSetup.AFTER_HANDS:
                    raise DealError(
                        f"seat {seat}: a Finish card is in the opening hand (position {pos}), "
                        "but rule finish_setup=after_hands adds them after the hands"
                    )
                dealt[card] += 1
            if pile.count(START) != 1:
                raise DealError(f"seat {seat}: pile holds {pile.count(START)} Start cards, must hold 1")
            if len(pile) < rules.hand + 1:
                raise DealError(
                    f"seat {seat}: pile of {len(pile)} cards is too short for an opening hand of {rules.hand} and a Start card"
                )
        # The first card off its count names the error (sorted, so the same one each time).
        for card in sorted(set(expected) | set(dealt), key=str) if dealt != expected else ():
            if dealt[card] > expected[card]:
                where = " (it is listed as removed)" if card in removed else ""
                raise DealError(f"{card_label(card)} is dealt {dealt[card]} times, expected {expected[card]}{where}")
            if dealt[card] < expected[card]:
                raise DealError(f"{card_label(card)} is missing from the piles")
        if rules.rocks == Rocks.OFF:
            if self.rocks_row is not None:
                raise DealError("rocks_row is set but rule 'rocks' is off")
        elif self.rocks_row is None or not 0 <= self.rocks_row < rules.rows:
            raise DealError(f"rocks_row must be a row of 0..{rules.rows - 1} when rule 'rocks' is on")
        if any(r < 0 for r in self.rocks_rolls):
            raise DealError("rocks_rolls must be non-negative integers")
        return True


def pile_sizes(total: int, players: int) -> list[int]:
    """As even as possible, seat 0 (who moves first) with the fewest."""
    base, extra = divmod(total, players)
    return [base + (1 if seat >= players - extra else 0) for seat in range(players)]


def check_players(rules: Rules, players: int) -> None:
    """Raise DealError unless the rules can be dealt to ``players`` seats."""
    if not 1 <= players <= MAX_PLAYERS:
        raise DealError(f"players must be 1 to {MAX_PLAYERS}, got {players}")
    dealt = rules.islands - rules.removed + rules.monsters
    if rules.finish_setup == FinishSetup.DECK:
        dealt += rules.finish
    if min(pile_sizes(dealt, players)) < rules.hand:
        raise DealError(
            f"{dealt} cards dealt to {players} seats leave seat 0 fewer than the "
            f"{rules.hand} cards of an opening hand (rule 'hand')"
        )


def check_seed(seed: object) -> None:
    """Raise DealError unless ``seed`` is one of the dealer's: an integer (not a bool) in
    0..MAX_SEED."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DealError(f"seed must be an integer in 0..2^64-1, got {seed!r}")


def deal(rules: Rules, players: int, seed: int) -> Deal:
    """Dealer v1: the only place that consumes random numbers, in the documented order."""
    check_players(rules, players)
    check_seed(seed)
    rng = SplitMix64(seed)
    islands = list(range(1, rules.islands + 1))
    # 1. Islands module: a partial Fisher-Yates picks the removed islands.
    for i in range(rules.removed):
        j = i + rng.below(len(islands) - i)
        islands[i], islands[j] = islands[j], islands[i]
    removed = tuple(sorted(islands[: rules.removed]))
    kept = sorted(islands[rules.removed :])
    # 2. One deck: islands ascending, then monsters, then (deck setup) Finish cards; shuffled.
    deck: list[Card] = [*kept, *[MONSTER] * rules.monsters]
    if rules.finish_setup == FinishSetup.DECK:
        deck += [FINISH] * rules.finish
    rng.shuffle(deck)
    # 3. Split into contiguous piles, seat 0 first and smallest.
    piles: list[list[Card]] = []
    at = 0
    for size in pile_sizes(len(deck), players):
        piles.append(deck[at : at + size])
        at += size
    # 4. after_hands: each Finish card goes to the seat with the fewest cards (ties: highest seat).
    extra: list[list[Card]] = [[] for _ in range(players)]
    if rules.finish_setup == FinishSetup.AFTER_HANDS:
        for _ in range(rules.finish):
            seat = min(range(players), key=lambda s: (len(piles[s]) + len(extra[s]), -s))
            extra[seat].append(FINISH)
    # 5. Each seat shuffles its Start (and extra Finish cards) into the rest of its pile.
    for seat in range(players):
        rest = piles[seat][rules.hand :] + extra[seat] + [START]
        rng.shuffle(rest)
        piles[seat] = piles[seat][: rules.hand] + rest
    # 6. Jagged Rocks: starting row, then one roll per card in the game (auto mode).
    rocks_row = rng.below(rules.rows) if rules.rocks != Rocks.OFF else None
    total = sum(len(p) for p in piles)
    rolls = tuple(rng.next_u32() for _ in range(total)) if rules.rocks == Rocks.AUTO else ()
    return Deal(
        rules=rules,
        piles=tuple(tuple(p) for p in piles),
        seed=seed,
        removed_islands=removed,
        rocks_row=rocks_row,
        rocks_rolls=rolls,
        dealer=DEALER,
    )
