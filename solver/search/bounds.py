"""What a position still allows, read off the engine's state: the islands still live, the
turns left without discards, the least cost still to pay, the empty runs, and the
refutations that prove a position lost (docs/model.md, "Search"). The CP-SAT side reads its
bounds here."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.rules import Order
from tranquility.solver.engine.state import State, geometry_of
from tranquility.solver.search.placements import fitting_islands

JUNK = 0  # the token that stands for any junk card in a canonical key


def monsters_left(state: State) -> int:
    """Sea Monsters still to be played: the Finish needs every one (docs/rules.md)."""
    return state.rules.monsters - state.monsters_played


def turns_without_discards(position: State) -> int:
    """The turns of every win from ``position`` that are not discard-two turns: one per
    empty cell, the Start if still to come, the Finish, and two per Sea Monster still to
    play (the monster, and the island that refills the cell it empties). Every turn is
    one of these or a discard two, so a win takes exactly this many turns plus D, its
    discard-two turns (docs/model.md, The finisher check)."""
    empty = sum(v is None for v in position.grid)
    return empty + (0 if position.start_played else 1) + 1 + 2 * monsters_left(position)


def finishing_seat(position: State, discards: int = 0) -> int:
    """The seat that plays the Finish of a win from ``position`` with ``discards`` more
    discard-two turns: seats take turns in order, and the win takes exactly
    ``turns_without_discards`` turns plus its discard twos."""
    return (position.seat + turns_without_discards(position) - 1 + discards) % position.players


@cache
def _every_island(islands: int) -> frozenset[int]:
    return frozenset(range(1, islands + 1))


def _islands_out(state: State) -> tuple[Iterable, ...]:
    """Where the cards no hand or pile holds any more are: every island is in a hand or a
    pile, or else on the grid, discarded, gone (a Sea Monster sank it) or removed. For
    ``frozenset.difference``, which needs no set of them built."""
    return (state.grid, state.discarded, state.gone, state.deal.removed_islands)


def live_islands(state: State) -> frozenset[int]:
    """Islands that fit at least one empty cell, the Jagged Rocks' row included (the rocks
    move on after every action or are paid to stay, so no cell is covered for good: a
    superset of the islands playable later is what junk needs).

    A card that fits nowhere now never fits again while cells only fill up. A Sea Monster
    still to be played can sink the card that bounds a cell and so open any interval:
    then every island counts as live."""
    if monsters_left(state):
        return _every_island(state.rules.islands)
    return fitting_islands(state)


def is_junk(card: Card, live: frozenset[int], start_played: bool) -> bool:
    if is_island(card):
        return card not in live
    return card == START and start_played


def canonical_hand(hand: tuple[Card, ...], live: frozenset[int], start_played: bool) -> tuple:
    out = []
    seen_finish = False
    for card in hand:
        if card == FINISH:
            out.append(JUNK if seen_finish else FINISH)
            seen_finish = True
        else:
            out.append(JUNK if is_junk(card, live, start_played) else card)
    return tuple(sorted(out, key=lambda c: (0, c) if is_island(c) else (1, str(c))))


def state_key(state: State, live: frozenset[int]) -> tuple:
    """What the rest of the game depends on. The modules add the monsters played (the
    Finish waits for all of them), the rocks' row and the rolls used (auto rocks follow
    the deal's roll stream from there). The cards gone (monsters and the islands they
    sank) need no place of their own: what is still playable is the grid, the hands and
    the undrawn piles, and no rule reads the cards out of the game."""
    return (
        state.grid,
        tuple(canonical_hand(h, live, state.start_played) for h in state.hands),
        state.drawn,
        state.seat,
        state.start_played,
        state.monsters_played,
        state.rocks_row,
        state.rolls_used,
    )


def refutation(state: State, live: frozenset[int] | None = None) -> str | None:
    """A reason the team can no longer win from ``state``, or None if none is found.

    Each check is a necessary condition of every winning continuation (docs/model.md),
    under every module: the Jagged Rocks only delay placements (and a stay costs cards the
    checks never count on), and each Sea Monster still to play is counted as what it
    takes: its card, one more island to refill the cell it empties, and a turn."""
    if state.won:
        return None
    if live is None:
        live = live_islands(state)
    rules = state.rules
    in_play = [c for h in state.hands for c in h] + [c for s in range(state.players) for c in state.pile(s)]
    if FINISH not in in_play:
        return "no Finish card is left in any hand or pile"
    sinks = monsters_left(state)
    if sinks and in_play.count(MONSTER) < sinks:
        return (
            f"the Finish needs all {rules.monsters} Sea Monsters played; {state.monsters_played} "
            f"{'is' if state.monsters_played == 1 else 'are'} played and only {in_play.count(MONSTER)} "
            "left in the hands and piles (a discarded Sea Monster can never be played)"
        )
    doomed = _finish_cannot_survive_the_start(state) or _the_start_event_takes_what_the_win_needs(state)
    if doomed is not None:
        return doomed
    empty = [cell for cell, v in enumerate(state.grid) if v is None]
    available = sorted(c for c in in_play if is_island(c) and c in live)
    # Every empty cell needs its own island, and so does each cell a monster empties;
    # runs of empty cells between two placed cards (reading order, or along a row/column
    # on the grid order) need that many islands between.
    if sinks and len(available) < len(empty) + sinks:
        return (
            f"filling {len(empty)} empty cell(s) and refilling the {sinks} that the Sea Monsters "
            f"still to play will empty needs {len(empty) + sinks} islands; only {len(available)} "
            f"{'is' if len(available) == 1 else 'are'} left"
        )
    costs = least_total_cost(state)
    need = len(empty) + 2 * sinks + costs + 1 + (0 if state.start_played else 1 + rules.start_discards)
    if len(in_play) < need:
        monsters = f"{sinks} Sea Monster(s) and the islands that refill their cells, " if sinks else ""
        return (
            f"the hands and piles hold {len(in_play)} cards; filling {len(empty)} cells "
            f"(paying at least {costs} in costs), {monsters}"
            f"{'' if state.start_played else 'the Start event and '}a Finish need at least {need}"
        )
    if sinks:
        # A monster can sink a card that closes a run, so a run's islands are not bounded
        # by its ends now: the counts above are all that holds.
        return None
    for low, high, run in empty_runs(state):
        fits = sum(1 for c in available if low < c < high)
        if fits < run:
            cells = f"{run} empty cells need {run} islands" if run > 1 else "1 empty cell needs an island"
            between = f"between {low or 'the start'} and {high if high <= rules.islands else 'the end'}"
            left = "none is left" if fits == 0 else f"only {fits} {'is' if fits == 1 else 'are'} left"
            return f"{cells} {between}; {left}"
    return None


def _finish_cannot_survive_the_start(state: State) -> str | None:
    """Solo: when one hand minus the Start cannot pay the Start event, its first round is
    forced and throws away the whole hand, so every Finish card drawn by then is lost. A
    Finish can only survive from deeper in the pile than the Start card. The modules do
    not touch the Start event, so this holds under every one of them."""
    rules = state.rules
    if state.players != 1 or state.start_played or rules.hand - 1 >= rules.start_discards:
        return None
    pile = state.pile(0)
    if START in state.hand or START not in pile:
        return None
    if FINISH not in pile[pile.index(START) + 1 :]:
        return (
            "every Finish card left comes before the Start card, and the Start event's first "
            "round (forced: one hand cannot pay it) throws away the whole hand"
        )
    return None


def _the_start_event_takes_what_the_win_needs(state: State) -> str | None:
    """Solo: the Start event discards what the hand holds, and then, round by round, the
    cards drawn after it, until it has taken ``start_discards`` cards; only its last round
    lets the player choose what to keep (docs/rules.md, ``State.start_rounds``). The Sea
    Monsters that come after the Start card in the pile can only be played after the
    event, each with an island to refill its cell, and a Finish must outlast it too.

    Whatever the hand holds when the Start comes (up to ``hand - 1`` other cards, of
    which the first ``j`` cards after the Start card in the pile, for every possible
    ``j``), the event is played out on the pile as it lies: if it always takes one of those
    monsters, or every Finish after the Start, or leaves too few cards or islands for the
    monsters, their refills and a Finish, no win is left. Other rules only take more
    cards (a rocks stay, costs), so this holds under every module."""
    rules = state.rules
    if state.players != 1 or state.start_played:
        return None
    pile, owed = state.pile(0), rules.start_discards
    if START in state.hand:
        # The event is this turn: every monster still to play must come from the pile.
        held = len(state.hand) - 1
        if MONSTER in state.hand and held < owed:
            return "the Start must be played now, and the Start event throws away the Sea Monster in hand"
        cases = [(pile, held)]
    elif START in pile:
        after = pile[pile.index(START) + 1 :]
        # The first j cards after the Start card may be in the hand with it: a forced first
        # round throws them away, so j stops short of the first monster.
        cases = [
            (after[j:], held)
            for j in range(min(rules.hand - 1, len(after)) + 1)
            for held in range(j, rules.hand)
            if held >= owed or MONSTER not in after[:j]
        ]
    else:
        return None
    if any(_outlasts_the_start(rest, owed - held, rules.hand) for rest, held in cases):
        return None
    return (
        "solo, the Start event discards the hand and then the cards drawn after it "
        f"({rules.start_discards} in all): however the Start comes, it takes a Sea Monster still to "
        "play or every Finish card left, or leaves too few cards for the monsters, the islands that "
        "refill their cells and a Finish"
    )


def _outlasts_the_start(rest: tuple[Card, ...], owed: int, hand: int) -> bool:
    """Whether the Sea Monsters in ``rest`` (the pile still to draw when the Start is played,
    in order), a Finish, and an island to refill each monster's cell can outlast a Start
    event that still owes ``owed`` cards once the hand is discarded (solo)."""
    monsters = rest.count(MONSTER)
    if owed <= 0:
        return True  # the hand pays it all (with a choice): nothing in the pile is touched
    at = 0
    while True:
        batch = rest[at : at + hand]
        if not batch:
            return False  # hands and piles run dry: the Start cannot be played
        if len(batch) < owed:  # a forced round: the whole batch goes
            if MONSTER in batch:
                return False
            owed -= len(batch)
            at += len(batch)
            continue
        keep, later = len(batch) - owed, rest[at + len(batch) :]
        needed = batch.count(MONSTER) + (FINISH in batch and FINISH not in later)
        if needed > keep or (FINISH not in batch and FINISH not in later):
            return False
        # Kept islands come out of what the monsters and a Finish leave of the choice.
        islands = min(keep - needed, sum(1 for c in batch if is_island(c))) + sum(1 for c in later if is_island(c))
        return islands >= monsters and keep + len(later) >= 2 * monsters + 1


def least_total_cost(state: State) -> int:
    """A lower bound on the costs still to pay: a play costs nothing only into a cell with
    no placed neighbour, and of two neighbouring empty cells at most one can be filled for
    free (the second then has a placed neighbour, and distinct islands differ by >= 1).
    So the bound is: cells that already touch a card, plus a matching among the others.

    Sea Monsters: each one still to play may sink a placed card first, and then its
    neighbours may be filled for free. Count only the last placement into each cell: the
    cells never sunk stay filled, and of two adjacent last placements the later one sees
    the earlier, so the argument above holds for the grid with the sunk cells emptied.
    Emptying a cell adds it to the cells to fill and may free its d neighbours; it touches
    them all, so the free plays gain at most d while the cells gain one: the bound less
    (d - 1) per monster still to play is still a bound."""
    geo = geometry_of(state.rules)
    grid = state.grid
    free = [k for k, v in enumerate(grid) if v is None and all(grid[j] is None for j in geo.neighbours[k])]
    touching = sum(1 for v in grid if v is None) - len(free)
    free_set, matched = set(free), set[int]()
    pairs = 0
    for k in free:
        if k in matched:
            continue
        mate = next((j for j in geo.neighbours[k] if j in free_set and j not in matched), None)
        if mate is not None:
            matched.update((k, mate))
            pairs += 1
    sinks = monsters_left(state)
    if sinks:
        return max(0, touching + pairs - sinks * (max(len(near) for near in geo.neighbours) - 1))
    return touching + pairs


def empty_runs(state: State) -> Iterator[tuple[int, int, int]]:
    """(low, high, length) of each maximal run of empty cells along the order's lines."""
    rules = state.rules
    grid = state.grid
    if rules.order == Order.SEQUENCE:
        lines = [list(range(rules.cells))]
    else:
        lines = [[r * rules.cols + c for c in range(rules.cols)] for r in range(rules.rows)]
        lines += [[r * rules.cols + c for r in range(rules.rows)] for c in range(rules.cols)]
    for line in lines:
        low, run = 0, 0
        for cell in line:
            value = grid[cell]
            if value is None:
                run += 1
            else:
                if run:
                    yield low, value, run
                low, run = value, 0
        if run:
            yield low, rules.islands + 1, run
