"""The one-line text form of a position (``tq1 official 3,_5/... 4,9,F:22,S/... 0 S``;
docs/formats.md has the grammar): what ``Position.text`` gives, and what a ``Position`` and a
``State`` show as their repr, as a chess board shows its FEN. Reading it is the formats'
(``solver.formats.position_forms``)."""

from __future__ import annotations

from math import lcm

from tranquility.solver.engine.cards import Card, sorted_cards
from tranquility.solver.engine.rules import Rocks, Rules, nearest_preset

TEXT_TAG = "tq1"  # the first word of the text form (and its version)


def playable_rolls(
    rules: Rules,
    rocks_row: int | None,
    hands: tuple[tuple[Card, ...], ...],
    piles: tuple[tuple[Card, ...], ...],
    rolls: tuple[int, ...],
) -> tuple[int, ...]:
    """The rolls that can still matter, each reduced: a roll picks one of the 1..rows-1
    eligible rows (roll mod their number), so mod lcm(1..rows-1) it picks the same; and
    each action after this uses at most one roll and at least one card of the hands and
    piles, so no more rolls are used than those cards."""
    if rules.rocks != Rocks.AUTO or rocks_row is None:
        return ()
    period = lcm(*range(1, rules.rows))
    left = sum(map(len, hands)) + sum(map(len, piles))
    return tuple(r % period for r in rolls[:left])


def position_text(
    rules: Rules,
    grid: tuple[int | None, ...],
    hands: tuple[tuple[Card, ...], ...],
    piles: tuple[tuple[Card, ...], ...],
    seat: int,
    start_played: bool,
    won: bool,
    sunk: tuple[int, ...],
    removed: tuple[int, ...],
    rocks_row: int | None,
    rocks_rolls: tuple[int, ...],
) -> str:
    """The text form of the position these make (hands and islands in any order)."""
    cols = rules.cols
    rows = "/".join(_row_text(grid[r * cols : (r + 1) * cols]) for r in range(rules.rows))
    seats = "/".join(f"{_cards_text(sorted_cards(h))}:{_cards_text(pile)}" for h, pile in zip(hands, piles, strict=True))
    stage = "W" if won else "S" if start_played else "-"
    words = [TEXT_TAG, _rules_text(rules), rows, seats, str(seat), stage]
    if sunk:
        words.append(f"sunk={_cards_text(tuple(sorted(sunk)))}")
    if removed:
        words.append(f"removed={_cards_text(tuple(sorted(removed)))}")
    if rules.rocks != Rocks.OFF:
        words.append(f"rocks={'-' if rocks_row is None else rocks_row}")
    rolls = playable_rolls(rules, rocks_row, hands, piles, rocks_rolls)
    if rolls:
        words.append(f"rolls={_cards_text(rolls)}")
    return " ".join(words)


def _cards_text(cards: tuple[Card, ...]) -> str:
    return ",".join(map(str, cards))


def _rules_text(rules: Rules) -> str:
    name, changes = nearest_preset(rules)
    return ",".join([name, *(f"{k}={v}" for k, v in changes.items())])


def _row_text(cells: tuple[int | None, ...]) -> str:
    items: list[str] = []
    empty = 0
    for card in (*cells, 0):  # a last island that ends the final run of empty cells
        if card is None:
            empty += 1
            continue
        if empty:
            items.append("_" if empty == 1 else f"_{empty}")
            empty = 0
        items.append(str(card))
    return ",".join(items[:-1])
