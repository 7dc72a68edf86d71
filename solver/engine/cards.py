"""Cards, written as the deal and line files write them.

An island card is its number (an ``int``); the special cards are the strings ``"S"``
(Start), ``"F"`` (Finish) and ``"M"`` (Sea Monster). Hands are kept as sorted tuples so
that two hands holding the same cards compare equal (a hand is a multiset).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeGuard

START = "S"
FINISH = "F"
MONSTER = "M"

Card = int | str

_SPECIAL_RANK = {FINISH: 0, MONSTER: 1, START: 2}


def is_island(card: object) -> TypeGuard[int]:
    return isinstance(card, int) and not isinstance(card, bool)


def card_key(card: Card) -> tuple[int, int]:
    """Sort islands by number first, then Finish, Monster, Start."""
    if isinstance(card, str):
        return (1, _SPECIAL_RANK[card])
    return (0, card)


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """``cards`` in card_key's order: islands by number, then Finish, Monster, Start."""
    cards = list(cards)
    if str in map(type, cards):  # special cards among them (most hands hold one)
        islands: list[Card] = []
        specials: list[Card] = []
        for card in cards:
            (specials if isinstance(card, str) else islands).append(card)
        islands.sort()
        specials.sort()  # as letters, F < M < S: card_key's order
        return (*islands, *specials)
    cards.sort()  # islands alone sort as numbers, no key to call per card
    return tuple(cards)


def card_name(card: Card) -> str:
    if isinstance(card, str):
        return {START: "Start", FINISH: "Finish", MONSTER: "Sea Monster"}[card]
    return str(card)


def card_label(card: Card) -> str:
    """A card for messages: ``island 12``, ``Start 'S'``."""
    if is_island(card):
        return f"island {card}"
    return f"{card_name(card)} {card!r}"


def remove_cards(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The hand without ``cards`` (a multiset difference), or None if the hand lacks one."""
    rest = without(hand, cards)
    return None if rest is None else sorted_cards(rest)


def without(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """``remove_cards`` for a hand already sorted (a position's hands are): the cards left
    keep their order, so there is nothing to sort."""
    left = list(hand)
    for card in cards:
        try:
            left.remove(card)
        except ValueError:
            return None
    return tuple(left)


def remove_held(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    """The hand without ``cards``, which it is known to hold (a bug otherwise)."""
    rest = remove_cards(hand, cards)
    assert rest is not None, f"{hand} does not hold all of the cards to remove"
    return rest
