"""The candidate moves of a position, junk paid first (docs/model.md, "Search"): every
play and payment worth trying, Sea Monster plays, the manual rocks' rows, and the Start's
team discards."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

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
from tranquility.solver.engine.cards import FINISH, Card, remove_held
from tranquility.solver.engine.rules import Rocks
from tranquility.solver.engine.state import State, sub_multisets
from tranquility.solver.search.bounds import is_junk


def payments(cards: tuple[Card, ...], k: int, live: frozenset[int], start_played: bool) -> list[tuple[Card, ...]]:
    """The payments of k cards worth trying: junk first, then every choice of live cards."""
    junk = [c for c in cards if is_junk(c, live, start_played)]
    keep_one_finish = _spare_finishes(cards)
    junk += keep_one_finish
    if len(junk) >= k:
        return [tuple(junk[:k])]
    rest = remove_held(cards, junk)
    return [tuple(junk) + tuple(p) for p in sub_multisets(rest, k - len(junk))]


def _spare_finishes(cards: tuple[Card, ...]) -> list[Card]:
    n = cards.count(FINISH)
    return [FINISH] * (n - 1) if n > 1 else []


def candidate_actions(state: State, live: frozenset[int]) -> Iterator[Action]:
    """Every legal action up to the dominance rules above (complete for proofs)."""
    for choice in state.legal_choices():
        yield from choice_actions(state, choice, live)


def choice_actions(state: State, choice: Choice, live: frozenset[int]) -> Iterator[Action]:
    """The actions of ``choice`` worth trying, each with every rocks move worth trying."""
    for action in _paid_actions(state, choice, live):
        yield from rocks_moves(state, action, live)


def rocks_moves(state: State, action: Action, live: frozenset[int]) -> Iterator[Action]:
    """Manual Jagged Rocks: ``action`` moving the rocks to each row they may go to, then
    keeping them for two cards, junk first (the two cards join the action's other
    payments, so the same dominance holds). Otherwise the action as it is."""
    manual = state.rules.rocks == Rocks.MANUAL and state.rocks_row is not None and not isinstance(action, PlayFinish)
    after = state.before_rocks(action) if manual else None
    if after is None or not after.rocks_choice_due:
        yield action
        return
    moves = [RocksMove(row) for row in after.eligible_rock_rows()]
    moves += [RocksMove(None, paid) for paid in payments(after.hands[state.seat], 2, live, after.start_played)]
    for move in moves:
        yield replace(action, rocks=move)


def _paid_actions(state: State, choice: Choice, live: frozenset[int]) -> Iterator[Action]:
    seat, hand = state.seat, state.hand
    if choice.kind == ChoiceKind.ISLAND:
        cost = state.cost_of(choice)
        after = remove_held(hand, [choice.island])
        # The played card leaves the live set only through this play; judge junk without it.
        for paid in payments(after, cost, live, state.start_played):
            yield PlayIsland(seat=seat, card=choice.island, cell=choice.target, discard=paid)
    elif choice.kind == ChoiceKind.DISCARD:
        for paid in payments(hand, 2, live, state.start_played):
            yield DiscardTwo(seat=seat, discard=paid)
    elif choice.kind == ChoiceKind.FINISH:
        yield PlayFinish(seat=seat)
    elif choice.kind == ChoiceKind.START:
        yield from start_actions(state, live)
    elif choice.kind == ChoiceKind.MONSTER:
        yield PlayMonster(seat=seat, cell=choice.target)


def start_actions(state: State, live: frozenset[int]) -> Iterator[PlayStart]:
    """Start event splits: each seat pays junk first; live cards are split every way."""
    hands, _, owed, _ = state.start_event()
    # After the Start every other Start card is dead: count them as junk here.
    seen = set()
    for split in _team_splits_junk_first(hands, owed, live):
        if split not in seen:
            seen.add(split)
            yield PlayStart(seat=state.seat, team_discard=split)


def _team_splits_junk_first(hands, owed, live) -> Iterator[tuple[tuple[Card, ...], ...]]:
    # How many cards each seat pays is free; within a seat, junk goes first.
    sizes = [len(h) for h in hands]
    for counts in _compositions(owed, sizes):
        per_seat = [payments(h, k, live, True) for h, k in zip(hands, counts, strict=True)]
        yield from _product(per_seat)


def _compositions(total: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    later = sum(caps[1:])
    for k in range(max(0, total - later), min(total, caps[0]) + 1):
        for tail in _compositions(total - k, caps[1:]):
            yield (k, *tail)


def _product(options: list[list]) -> Iterator[tuple]:
    if not options:
        yield ()
        return
    for first in options[0]:
        for tail in _product(options[1:]):
            yield (first, *tail)
