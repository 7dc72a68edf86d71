"""What a lost win needed, and where those cards went: the reason a player can check for
the turns the perfect analysis blames (docs/explain.md, "Fair analysis").

The perfect analysis proves the position after the loss lost, by whichever method got
there first, and its proof may name no card. Here that position is read again with the
checks of ``bounds.refutation`` that turn on cards: a run of empty cells with too few
islands left that fit it (each missing island is named with where it went: face down in the
Start event, paid or discarded by a seat at a turn, sunk, removed, or placed elsewhere), no
Finish card left, or too few Sea Monsters left. When none of them holds (the counts, the
complete search or CP-SAT proved it), no card is named and the proof is given as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranquility.solver.analysis.analyze import Analysis
from tranquility.solver.engine.actions import DiscardTwo, PlayStart
from tranquility.solver.engine.cards import FINISH, MONSTER, Card, card_name, is_island
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.state import State
from tranquility.solver.search.bounds import empty_runs, live_islands, monsters_left
from tranquility.solver.search.memory import paid_faces

# Where a card went: face down (``HIDDEN``: only the seat that put it there saw its face),
# or in plain sight.
HIDDEN = ("start", "paid", "discarded", "earlier")
PUBLIC = ("sunk", "removed", "placed", "stuck")


@dataclass(frozen=True)
class Fate:
    """Where one card the win needed went: ``how`` is one of ``HIDDEN`` or ``PUBLIC``;
    ``seat`` and ``turn`` (from 1) say who put it face down and when, ``cell`` where it lies."""

    card: Card
    how: str
    seat: int | None = None
    turn: int | None = None
    cell: int | None = None

    def seen_by(self, seat: int) -> bool:
        """Whether ``seat`` saw the card's face: its own discard, or a card in plain sight."""
        return self.how in PUBLIC or self.seat == seat

    def text(self, mover: int) -> str:
        """Where it went, and whether ``mover`` could see it."""
        name = card_name(self.card)
        said = {
            "start": f"{name} went face down in the Start event at turn {self.turn} (seat {self.seat}'s share)",
            "paid": f"seat {self.seat} paid {name} face down at turn {self.turn}",
            "discarded": f"seat {self.seat} discarded {name} face down at turn {self.turn}",
            "earlier": f"{name} was already face down where the line starts",
            "sunk": f"{name} was sunk by a Sea Monster",
            "removed": f"{name} was removed from the game",
            "placed": f"{name} lies in cell {self.cell}",
            "stuck": f"{name} is still in play but fits no empty cell",
        }[self.how]
        if self.how in PUBLIC:
            return said
        return said + (f", as seat {mover} knew (its own card)" if self.seat == mover else f", which seat {mover} could not see")

    def to_json(self, mover: int) -> dict:
        return {
            "card": self.card,
            "how": self.how,
            "seat": self.seat,
            "turn": self.turn,
            "cell": self.cell,
            "seen": self.seen_by(mover),
            "text": self.text(mover),
        }


@dataclass(frozen=True)
class Needed:
    """Why the position after turn ``after`` is lost: ``needs`` in words, and where each
    card it needed went (none named when no card-counting check proves it: ``needs`` is
    then the perfect analysis's own proof)."""

    after: int
    needs: str
    fates: tuple[Fate, ...]

    def hidden_from(self, seat: int) -> tuple[Card, ...]:
        return tuple(f.card for f in self.fates if not f.seen_by(seat))

    def text(self, mover: int) -> str:
        """The reason in a sentence, for the turn ``mover`` played."""
        said = f"With every card face up, after turn {self.after}, {self.needs}"
        if not self.fates:
            return said + "."
        return said + ": " + "; ".join(f.text(mover) for f in self.fates) + "."

    def to_json(self, mover: int) -> dict:
        return {
            "after": self.after,
            "needs": self.needs,
            "cards": [f.to_json(mover) for f in self.fates],
            "hidden": list(self.hidden_from(mover)),
            "text": self.text(mover),
        }


def what_the_win_needed(perfect: Analysis, span: tuple[int, int]) -> Needed:
    """Why the position after turn ``span[1]`` (the last turn the loss may lie in, proven
    lost by ``perfect``) is lost, with the cards it needed and where they went."""
    after = span[1]
    line = perfect.line
    state = line.with_actions(line.actions[:after]).end_state()
    found = _short_of_islands(state) or _short_of(state, FINISH) or _short_of(state, MONSTER)
    if found is None:
        proof = perfect.positions[after].reason or "the perfect analysis proves it lost"
        return Needed(after, f"the position is lost ({proof}); the proof names no card", ())
    needs, cards = found
    return Needed(after, needs, tuple(f for card in cards for f in _fates(line, after, state, card)))


def _in_play(state: State) -> list[Card]:
    return [c for h in state.hands for c in h] + [c for s in range(state.players) for c in state.pile(s)]


def _short_of_islands(state: State) -> tuple[str, list[Card]] | None:
    """The first run of empty cells with fewer islands left that fit it than cells (as
    ``bounds.refutation`` finds it), and the islands that would fit but are not left."""
    if monsters_left(state):
        return None  # a monster can sink a run's end: the run's bounds do not hold
    live = live_islands(state)
    left = {c for c in _in_play(state) if is_island(c) and c in live}
    for low, high, run in empty_runs(state):
        between = range(low + 1, min(high, state.rules.islands + 1))
        fits = [c for c in between if c in left]
        if len(fits) < run:
            cells = f"{run} empty cells need {run} islands" if run > 1 else "1 empty cell needs an island"
            upper = high if high <= state.rules.islands else "the end"
            have = "none is left" if not fits else f"only {', '.join(map(str, fits))} {'is' if len(fits) == 1 else 'are'} left"
            return f"{cells} between {low or 'the start'} and {upper}; {have}", [c for c in between if c not in left]
    return None


def _short_of(state: State, card: Card) -> tuple[str, list[Card]] | None:
    """No Finish card left, or fewer Sea Monsters left than still to play: every copy of
    ``card`` that left the hands and piles."""
    held = _in_play(state).count(card)
    owed = 1 if card == FINISH else monsters_left(state)
    if held >= owed:
        return None
    what = "a Finish card" if card == FINISH else f"{owed} Sea Monster(s) still to play"
    return f"the team needs {what}; {held} {'is' if held == 1 else 'are'} left in the hands and piles", [card]


def _fates(line: Line, after: int, state: State, card: Card) -> list[Fate]:
    """Where ``card`` went by turn ``after``, each copy of it that left the hands and piles."""
    if card in state.grid and is_island(card):
        return [Fate(card, "placed", cell=state.grid.index(card))]
    if card in state.deal.removed_islands:
        return [Fate(card, "removed")]
    fates = [Fate(card, "sunk")] * state.gone.count(card) if is_island(card) else []
    before = line.initial_state()
    fates += [Fate(card, "earlier")] * before.discarded.count(card)
    for turn, action in enumerate(line.actions[:after], start=1):
        how = "start" if isinstance(action, PlayStart) else "discarded" if isinstance(action, DiscardTwo) else "paid"
        for seat in range(before.players):
            fates += [Fate(card, how, seat, turn)] * paid_faces(before, action, seat).count(card)
        before = before.apply(action)
    if not fates and is_island(card):
        return [Fate(card, "stuck")]  # in a hand or pile, but it fits no empty cell
    return fates
