"""A table where a person plays one seat and bots the others, as a real table plays:
nobody talks, each seat sees only its own hand (``tranquility play --seat``, docs/play.md).

A ``Table`` holds the game (a ``Board``), the person's seat, the bots' policy and every
seat's memory (``SeatMemory``, kept action by action with ``witness``). What the person
is shown comes from its own ``Observation`` and memory only: its moves (``moves``), the
history as it saw it (``history``: another seat's payments face down), the fair hint
(``estimate_each``: each move played in worlds dealt to fit what the seat saw). The bots
decide as ``simulate``'s policies do, each from its own observation and memory
(``bot_move``). A ``Table`` is immutable: every move returns a new one.

The Start event is the one moment every seat acts: the event asks each seat in turn from
the Start player for its share (``start_action``); the bots' shares are their policy's,
the person's is asked (``TableStart``, answered by ``give``), and so is the rocks move that
ends a Start the person played under manual Jagged Rocks (answered by ``rocks``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from tranquility.solver.analysis.board import Board, BoardError, Move, discard_moves
from tranquility.solver.engine.actions import (
    Action,
    DiscardTwo,
    PlayIsland,
    PlayStart,
    choice_of,
    describe,
    describe_rocks,
)
from tranquility.solver.engine.cards import Card, card_name, remove_cards, sorted_cards
from tranquility.solver.engine.observation import Observation, observe
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import Token, format_action, parse_cards, tokens
from tranquility.solver.search.lookahead import (
    CEILING_REASON,
    CEILINGS,
    DEFAULT_SAMPLES,
    SIMULATE_POLICIES,
    Lookahead,
    MoveEstimate,
)
from tranquility.solver.search.memory import SeatMemory, remember
from tranquility.solver.search.policies import Policy, StartCall, Tuned, make_policy, start_action

HINT_SAMPLES = 8  # worlds per move of the fair hint: every legal move is played out in each
START_TOKEN = "S"  # at a table the Start is played alone: the event asks each seat its share


@dataclass(frozen=True)
class Seating:
    """Who sits where: a person at ``seat``, the policy ``bots`` at every other seat
    (made with ``seed``; a lookahead bot deals ``samples`` worlds per decision), and the
    worlds per move of the person's fair hint (``hint_samples``)."""

    seat: int
    bots: str = Tuned.name
    seed: int = 0
    samples: int = DEFAULT_SAMPLES
    hint_samples: int = HINT_SAMPLES

    def __post_init__(self) -> None:
        if self.bots in CEILINGS:
            raise BadInput(f"{self.bots} {CEILING_REASON}; a bot sees its own hand only (bots: {', '.join(SIMULATE_POLICIES)})")
        if self.bots not in SIMULATE_POLICIES:
            raise BadInput(f"unknown policy {self.bots!r} (known: {', '.join(SIMULATE_POLICIES)})")

    def policy(self) -> Policy:
        """The bots' policy, made afresh (a seeded policy draws the same choices again)."""
        return Lookahead(self.seed, self.samples) if self.bots == Lookahead.name else make_policy(self.bots, self.seed)

    def sit(self, board: Board) -> Table:
        """The person at its seat of ``board``'s game, the game's line its history (every
        seat remembers it as it saw it); a seat the game does not have is BadInput."""
        players = board.state.players
        if not 0 <= self.seat < players:
            raise BadInput(f"seat {self.seat}: the game has seats 0..{players - 1}")
        memories = tuple(remember(board.line, seat) for seat in range(players))
        return Table(board, self, self.policy(), memories)


@dataclass(frozen=True)
class TableStart:
    """The Start event waiting for the person: its share (``call``: its hand for the last
    round, how many it may give and its public quota) or, after a Start it played under
    manual Jagged Rocks, the rocks' row (``rows``: where they may go). ``given`` keeps the
    bots' shares already given, so that a policy drawing random choices is not asked twice."""

    seat: int
    given: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    share: tuple[Card, ...] | None = None
    rocks: int | None = None
    call: StartCall | None = None
    rows: tuple[int, ...] = ()

    def words(self) -> list[str]:
        """What the event asks of the person, in words."""
        if self.call is None:
            rows = ", ".join(map(str, self.rows))
            return [f"The Start is played: move the Jagged Rocks to a row ({rows}): type the row."]
        call = self.call
        said = [f"The Start event (seat {call.obs.to_move} played the Start): the team still owes {call.owed} card(s)."]
        said += [f"seat {seat} gave {len(cards)} card(s)" for seat, cards in self.given]
        said.append(f"Your hand for it: {' '.join(map(str, call.obs.hand)) or 'none'}.")
        many = str(call.most) if call.least == call.most else f"{call.least} to {call.most}"
        none = "; give alone gives none" if call.least == 0 else ""
        said.append(f"Give {many} card(s) (your share by the public rule: {call.quota}): type the cards (12,44){none}.")
        return said


class _Asked(Exception):  # not an error: the event stops to ask the person
    def __init__(self, start: TableStart):
        super().__init__("the Start event asks the person")
        self.start = start


class _Seats(Policy):
    """The bots' policy at every seat but the person's, whose share (and rocks move) is
    the one ``start`` records, or is asked for."""

    def __init__(self, bots: Policy, start: TableStart):
        super().__init__(bots.rng)
        self.name, self.bots, self.start = bots.name, bots, start
        self.given = dict(start.given)

    def give(self, call: StartCall) -> tuple[Card, ...]:
        seat = call.obs.seat
        if seat != self.start.seat:
            if seat not in self.given:
                self.given[seat] = self.bots.give(call)
            return self.given[seat]
        if self.start.share is not None:
            return self.start.share
        hand = call.obs.hand
        if call.most == 0 or call.least == len(hand):
            return hand[: call.most]  # no choice: nothing, or the whole hand
        raise _Asked(replace(self.start, given=tuple(self.given.items()), call=call))

    def rocks_row(self, obs: Observation, grid: tuple, hand: tuple[Card, ...], rows: list[int]) -> int:
        if obs.seat != self.start.seat:
            return self.bots.rocks_row(obs, grid, hand, rows)
        if self.start.rocks is None:
            raise _Asked(replace(self.start, given=tuple(self.given.items()), call=None, rows=tuple(rows)))
        return self.start.rocks


@dataclass(frozen=True)
class Table:
    """The game at a table: the board, the seating, the bots' policy, what each seat
    remembers, and the Start event while it waits for the person (``start``)."""

    board: Board
    seating: Seating
    bots: Policy = field(compare=False)
    memories: tuple[SeatMemory, ...]
    start: TableStart | None = None

    @property
    def seat(self) -> int:
        return self.seating.seat

    @cached_property
    def view(self) -> Observation:
        """What the person sees now."""
        return observe(self.board.state, self.seat)

    @property
    def memory(self) -> SeatMemory:
        """What the person remembers: the public history, its own hands and discards."""
        return self.memories[self.seat]

    @property
    def my_turn(self) -> bool:
        """Whether the person is to act: its move, or its share of the Start event."""
        return not self.board.over and (self.start is not None or self.board.state.seat == self.seat)

    @property
    def bots_turn(self) -> bool:
        return not self.board.over and not self.my_turn

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The person's legal moves on its turn (none otherwise), each paid as thrifty pays,
        from its own observation, and every other pair it could discard (its own hand's):
        the Start, when it must be played, is ``S`` alone."""
        if not self.my_turn or self.start is not None:
            return ()
        obs, state = self.view, self.board.state
        if state.must_play_start():
            start = PlayStart(seat=self.seat)
            return (StartMove(choice_of(start), obs.rules.start_discards, start),)
        found: list[Move] = []
        for action in Lookahead().every_move(obs):
            if isinstance(action, DiscardTwo):
                found += discard_moves(state, action)
            else:
                found.append(Move(choice_of(action), _paid_count(action), action))
        return tuple(found)

    # -- the person's moves ----------------------------------------------------------------

    def play(self, text: str) -> Table:
        """The person's move(s) in the notation, on its turn only (``S`` alone for the
        Start). Refusals are the board's (MoveRefused) or a BoardError saying why."""
        if self.start is not None:
            raise BoardError("the Start event waits for you: " + self.start.words()[-1])
        if not self.my_turn:
            raise BoardError(self._not_yours())
        found = tokens(text)
        if [t.text for t in found] == [START_TOKEN]:
            if not self.board.state.must_play_start():
                raise BoardError("you have no Start card to play")
            return self._start_event(TableStart(self.seat))
        if any(t.text.startswith(START_TOKEN) for t in found):
            raise BoardError("at a table the Start is played as S alone: the event then asks each seat for its share")
        return self._after(self.board.play(text, only=self.seat))

    def give(self, text: str) -> Table:
        """The person's share of the Start event: ``12,44`` (or nothing), cards of its hand."""
        start = self.start
        if start is None or start.call is None:
            raise BoardError("give is for your share of the Start event, when the event asks for it")
        typed = tokens(text)
        if len(typed) > 1:
            raise BoardError("give CARDS: the cards separated by commas, as in give 12,44")
        cards = parse_cards(Token(typed[0].text, 1, typed[0].column)) if typed else ()
        call = start.call
        if not call.least <= len(cards) <= call.most:
            many = str(call.most) if call.least == call.most else f"{call.least} to {call.most}"
            raise BoardError(f"give {many} card(s), not {len(cards)}")
        if remove_cards(call.obs.hand, cards) is None:
            raise BoardError(f"give cards of your hand for the Start event: {' '.join(map(str, call.obs.hand))}")
        return self._start_event(replace(start, share=sorted_cards(cards), call=None))

    def rocks(self, text: str) -> Table:
        """Where the person moves the manual Jagged Rocks after the Start it played."""
        start = self.start
        if start is None or not start.rows:
            raise BoardError("rocks ROW is for the rocks move after a Start you played, when the event asks for it")
        row = text.strip()
        if not row.isdigit() or int(row) not in start.rows:
            raise BoardError(f"rocks ROW: one of rows {', '.join(map(str, start.rows))}")
        return self._start_event(replace(start, rocks=int(row), rows=()))

    # -- the bots ---------------------------------------------------------------------------

    def bot_move(self) -> Table:
        """The bot to move acts, from its own observation and memory (the Start event: every
        bot's share, up to the person's turn to give, if it has a choice)."""
        if not self.bots_turn:
            raise BoardError(self._not_yours() if self.board.over else "it is your turn, not a bot's")
        state = self.board.state
        if state.must_play_start():
            return self._start_event(TableStart(self.seat))
        return self._played(self.bots.decide(observe(state, state.seat), self.memories[state.seat]))

    # -- the fair hint ------------------------------------------------------------------------

    def estimate_each(self) -> Iterator[MoveEstimate]:
        """Each of the person's moves played in the same worlds (dealt from its memory: the
        seed, the turn and the seat make them), then thrifty at every seat to the end; one
        move at a time, so that a caller can stop early."""
        if self.start is not None or not self.my_turn:
            raise BoardError("the fair hint is for your turn: " + self._not_yours())
        if self.board.state.must_play_start():
            raise BoardError("the Start is your only move (S): there is nothing to compare")
        yield from fair_estimates(
            self.view, self.memory, [move.action for move in self.moves], self.seating.seed, self.seating.hint_samples
        )

    # -- the history, as the person saw it ------------------------------------------------------

    def history(self) -> Iterator[tuple[int, str, str]]:
        """(turn from 1, token, words) for each action: the person's own in full, another
        seat's with its payment face down (a ``?`` a card) but the person's share of a Start."""
        for turn, action in enumerate(self.board.actions, start=1):
            yield turn, seen_token(action, self.seat), seen_words(action, self.seat)

    # -- inside -------------------------------------------------------------------------------

    def _not_yours(self) -> str:
        if self.board.over:
            return "the game is over"
        return f"seat {self.board.state.seat} is to move (a bot); your seat is {self.seat}"

    def _start_event(self, start: TableStart) -> Table:
        try:
            action = start_action(self.board.state, _Seats(self.bots, start))
        except _Asked as asked:
            return replace(self, start=asked.start)
        return replace(self._played(action), start=None)

    def _played(self, action: Action) -> Table:
        return self._after(self.board.play_action(action))

    def _after(self, board: Board) -> Table:
        """This table with ``board``, a few actions on: every seat witnesses each."""
        memories = self.memories
        for turn in range(self.board.turn, board.turn):
            before, action, after = board.states[turn], board.actions[turn], board.states[turn + 1]
            memories = tuple(memory.witness(before, action, after) for memory in memories)
        return replace(self, board=board, memories=memories)


@dataclass(frozen=True)
class FairHint:
    """The person's moves, each played out in the same ``samples`` worlds dealt to fit what
    its seat has seen (``Table.estimate_each``), ranked: the most worlds won first (then
    the most cells filled and cards to spare), each with its Wilson 95% interval."""

    samples: int
    estimates: tuple[MoveEstimate, ...]

    @property
    def ranked(self) -> tuple[MoveEstimate, ...]:
        return tuple(sorted(self.estimates, key=lambda e: (-e.wins, -e.rest)))

    def words(self) -> list[str]:
        ranked = self.ranked
        said = [f"{len(ranked)} move(s), each played out in the same {self.samples} worlds that fit what you have seen:"]
        wide = max((len(format_action(e.action)) for e in ranked), default=0)
        for rank, estimate in enumerate(ranked, start=1):
            low, high = estimate.interval()
            token = format_action(estimate.action)
            said.append(
                f"{rank:>2}. {token:<{wide}}  {estimate.wins}/{estimate.worlds} won: {estimate.rate:.0%} ({low:.0%}-{high:.0%})"
            )
        return said


def fair_estimates(
    obs: Observation, memory: SeatMemory, moves: Sequence[Action], seed: int, samples: int
) -> Iterator[MoveEstimate]:
    """Each of ``moves`` played in the same ``samples`` worlds, dealt to fit ``obs`` and
    ``memory`` alone (the seed, the turn and the seat make them), then thrifty at every
    seat to the end: the fair hint takes nothing else of the game, so it cannot read a
    card its seat has not seen. One move at a time, so that a caller can stop early."""
    searcher = Lookahead(seed, samples)
    key = f"hint/{seed}/{obs.turn}/{obs.seat}"
    for action in moves:
        yield from searcher.estimate(obs, memory, [action], key)


def _paid_count(action: Action) -> int:
    return len(action.discard) if isinstance(action, PlayIsland | DiscardTwo) else 0


class StartMove(Move):
    """The Start at a table: ``S`` alone; the event then asks each seat for its share."""

    @property
    def token(self) -> str:
        return START_TOKEN

    @property
    def words(self) -> str:
        return "the Start: each seat gives its share in turn, you first"


# A face-down card in a token: 0, which no card is, stands for it and is written ``?``.
_FACE_DOWN = re.compile(r"(?<=[-,/|x])0(?=$|[,|>])")


def _faces(cards: tuple[Card, ...], seen: bool) -> tuple[Card, ...]:
    return cards if seen else (0,) * len(cards)


def seen_token(action: Action, seat: int) -> str:
    """``action``'s token as ``seat`` saw it: cards another seat put face down are ``?``."""
    if action.seat == seat and not isinstance(action, PlayStart):
        return format_action(action)
    hidden: Action = action
    if isinstance(action, PlayIsland | DiscardTwo):
        hidden = replace(action, discard=_faces(action.discard, False))
    elif isinstance(action, PlayStart):
        hidden = replace(action, team_discard=tuple(_faces(d, s == seat) for s, d in enumerate(action.team_discard)))
    if action.rocks is not None:
        hidden = replace(hidden, rocks=replace(action.rocks, discard=_faces(action.rocks.discard, action.seat == seat)))
    return _FACE_DOWN.sub("?", format_action(hidden))


def seen_words(action: Action, seat: int) -> str:
    """``action`` in words as ``seat`` saw it (``describe``, with the cards another seat
    put face down counted, not named)."""
    if action.seat == seat and not isinstance(action, PlayStart):
        return describe(action)
    match action:
        case PlayIsland():
            text = f"seat {action.seat} plays {action.card} at cell {action.cell}, paying {_face_down(action.discard)}"
        case DiscardTwo():
            text = f"seat {action.seat} discards {_face_down(action.discard)}"
        case PlayStart():
            shares = (
                f"seat {s}: {', '.join(map(card_name, d)) or 'nothing'}" if s == seat else f"seat {s}: {_face_down(d)}"
                for s, d in enumerate(action.team_discard)
            )
            text = f"seat {action.seat} plays the Start card; the team discards ({'; '.join(shares)})"
        case _:  # a Finish or a Sea Monster: nothing paid
            text = describe(replace(action, rocks=None))
    rocks = action.rocks
    if rocks is not None:
        mine = rocks.row is not None or action.seat == seat
        text += "; " + (describe_rocks(rocks) if mine else f"the rocks stay (paying {_face_down(rocks.discard)})")
    return text


def _face_down(cards: tuple[Card, ...]) -> str:
    return f"{len(cards)} card(s) face down" if cards else "nothing"
