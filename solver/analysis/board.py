"""An analysis board: a game played turn by turn from a deal or a line, with the legal
moves and what each costs, undo and redo, saving, and hints from the solver
(docs/play.md). ``tranquility play`` only draws a ``Board`` and passes it what was typed.

A ``Board`` is immutable: every move, undo or redo returns a new one. The rules are the
engine's (``State.apply``); a hint is a ``solve`` and says no more than its verdict, and so
are the ``Proofs`` the check after each move gathers (did the move throw the win away?).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from itertools import chain
from pathlib import Path

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Best, Result
from tranquility.solver.engine.actions import Action, Choice, ChoiceKind, DiscardTwo, choice_of, describe, describe_rocks
from tranquility.solver.engine.cards import Card, card_name
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import Replayed, replayed, verify
from tranquility.solver.errors import BadInput, InternalError
from tranquility.solver.formats.codecs import line_to_json
from tranquility.solver.formats.json_values import write_json
from tranquility.solver.formats.notation import (
    Token,
    format_action,
    parse_token,
    seeded_header,
    tokens,
    write_notation,
)
from tranquility.solver.formats.puzzle_tag import PuzzleTag
from tranquility.solver.search.bounds import live_islands
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.moves import choice_actions
from tranquility.solver.search.objectives import objective_bound
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict


class BoardError(BadInput):
    """A request the board cannot carry out (nothing to undo, a file it will not write...)."""


class FileExists(BoardError):
    """Saving would overwrite a file; the board never does unless asked (``force``)."""


class MoveRefused(BoardError):
    """A move of a typed line that the board refused, and why (``reason``: the notation's
    NotationError or the engine's IllegalAction). Of several moves, the message names which
    one and its turn; ``column`` is where its token starts in the line (from 1)."""

    def __init__(self, reason: BadInput, token: Token, index: int, count: int, turn: int):
        which = f"move {index} of {count}, {token.text} (turn {turn}): " if count > 1 else ""
        # A typed line is line 1: the notation's "line 1, column 4: ..." says only the column.
        super().__init__(f"{which}{str(reason).removeprefix('line 1, ')}")
        self.reason, self.token, self.column = reason, token.text, token.column


@dataclass(frozen=True)
class Move:
    """A legal choice, what it costs (cards paid: by the seat, or the team for a Start)
    and one legal action that makes it, with a payment suggested (worthless cards first)."""

    choice: Choice
    cost: int
    action: Action

    @property
    def token(self) -> str:
        return format_action(self.action)

    @property
    def words(self) -> str:
        """The choice in words (a discard names its two cards), with the rocks move its
        action makes (manual Jagged Rocks)."""
        action, rocks = self.action, self.action.rocks
        said = f"discard {', '.join(map(card_name, action.discard))}" if isinstance(action, DiscardTwo) else str(self.choice)
        return said if rocks is None else f"{said}; {describe_rocks(rocks)}"


@dataclass(frozen=True)
class Goal:
    """The puzzle being played: its id, its grade and, when known, its solution (a winning
    line from the same deal, replayed by the engine when the goal is made)."""

    id: str
    grade: int
    solution: Line | None = None
    solution_spare: int | None = None  # cards the solution leaves in hands and piles

    @classmethod
    def of(cls, puzzle_id: str, grade: int, solution: Line | None, deal: Deal) -> Goal:
        """The goal of a puzzle on ``deal``; a solution for another deal, or one that does
        not replay as a win, is BadInput."""
        if solution is None:
            return cls(puzzle_id, grade)
        if solution.deal != deal:
            raise BoardError(f"the solution of puzzle {puzzle_id} is for another deal")
        replayed = verify(solution)
        if replayed.state is None or not replayed.won:
            why = replayed.error or f"it stops with the game {replayed.status}"
            raise BoardError(f"the solution of puzzle {puzzle_id} does not replay as a win: {why}")
        return cls(puzzle_id, grade, solution, replayed.state.cards_left)

    @property
    def tag(self) -> PuzzleTag:
        """The puzzle's name, as a game saved from it records it."""
        return PuzzleTag(self.id, self.grade)


class MoveCheck(StrEnum):
    """What the move just played did to the win, as far as the solves prove it."""

    KEPT = "kept"  # the position after it is a proven win
    THREW = "threw"  # before it a proven win, after it a proven no-win
    ALREADY_LOST = "already lost"  # the position before it is a proven no-win
    UNKNOWN = "unknown"  # a solve ran out of time

    def words(self, move: str) -> str:
        """What ``move`` (the last move, named) did, in words."""
        return {
            MoveCheck.KEPT: f"{move} kept the win",
            MoveCheck.THREW: f"{move} threw the win away: the position before it is a proven win, the one after it a proven loss",
            MoveCheck.ALREADY_LOST: f"{move} did not lose the win: the position before it is already lost",
            MoveCheck.UNKNOWN: f"whether {move} threw the win away is unknown (a solve ran out of time)",
        }[self]


@dataclass(frozen=True)
class Hint:
    """A solve of the board's position, in words: still winnable (with the best next move,
    the first action of the replayed winning line), lost (with the proof) or unknown; and,
    after a move, what that move did to the win."""

    verdict: Verdict
    method: DecidedBy
    seconds: float
    reason: str | None  # for a no-win: the proof
    best: Action | None  # for a win still to play: the next action of the winning line
    value: Best | None  # with an objective: the winning line's value and bound
    judgement: MoveCheck | None  # about the last move (None before the first)
    last: Action | None  # the last move, the one judged
    turn: int  # the turns played when the hint was asked

    def words(self) -> list[str]:
        """The hint as a few lines of plain English."""
        said = []
        if self.verdict == Verdict.WIN and self.method == DecidedBy.REPLAY:
            said.append("won: the game is over")
        elif self.verdict == Verdict.WIN:
            assert self.best is not None  # a win not yet played has a next action
            said.append(f"still winnable (a winning line found by {self.method} in {self.seconds:.2f} s)")
            said.append(f"best next move: {format_action(self.best)} ({describe(self.best)})")
            if self.value is not None:
                proven = "proven optimal" if self.value.optimal else f"bound {self.value.bound}"
                said.append(f"that line's {self.value.objective}: {self.value.value} ({proven})")
        elif self.verdict == Verdict.NO_WIN:
            said.append(f"lost: {self.reason} (proven by {self.method})")
        else:
            said.append(f"unknown: neither a win nor a proof of loss in {self.seconds:.1f} s (a longer hint time may decide it)")
        if self.judgement is not None and self.last is not None:
            said.append(self.judgement.words(f"the last move (turn {self.turn}, {format_action(self.last)})"))
        return said


@dataclass(frozen=True)
class Board:
    """The game so far: where it began (``origin``, a line with no actions), the actions
    played, the position after each, and the actions undone (``undone``, next to redo first)."""

    origin: Line
    actions: tuple[Action, ...] = ()
    states: tuple[State, ...] = ()
    undone: tuple[Action, ...] = ()
    goal: Goal | None = None
    source: str | None = None  # the file the game was read from, if any

    @classmethod
    def open(cls, game: Game | Replayed, goal: Goal | None = None, source: str | None = None) -> Board:
        """A board at the end of ``game`` (a deal: its starting position), replayed once (a
        game already replayed is not replayed again): a deal or an action that breaks a rule
        is BadInput naming it, as ``verify`` names it."""
        checked = replayed(game)
        # replace keeps whatever else the line starts from; its actions are the board's
        origin = replace(checked.line, actions=())
        return cls(origin, actions=checked.line.actions, states=checked.states, goal=goal, source=source)

    # -- the position ---------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def line(self) -> Line:
        """The game so far as a line (what ``save`` writes)."""
        return self.line_at(self.turn)

    @property
    def turn(self) -> int:
        """Actions played so far."""
        return len(self.actions)

    @property
    def replayed(self) -> Replayed:
        """The game so far, as the verifier's replay hands it on (to ``solve``)."""
        return Replayed(self.line, self.states)

    @property
    def over(self) -> bool:
        return self.state.status != Status.OPEN

    @cached_property
    def choices(self) -> tuple[Move, ...]:
        """One move per legal choice of the seat to move, with its cost and a suggested
        action (what ``tranquility moves`` ranks: it weighs a choice's payments itself)."""
        state = self.state
        return tuple(Move(choice, _cost(state, choice), _suggested(state, choice)) for choice in state.legal_choices())

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The board's list: ``choices``, with discarding two as one move per pair of cards
        (``discard_moves``), since which two go is the player's to choose."""
        found: list[Move] = []
        for move in self.choices:
            if isinstance(move.action, DiscardTwo):
                found += discard_moves(self.state, move.action)
            else:
                found.append(move)
        return tuple(found)

    def history(self) -> Iterator[tuple[int, str, str]]:
        """(turn from 1, token, the action in words) for each action played."""
        for turn, action in enumerate(self.actions, start=1):
            yield turn, format_action(action), describe(action)

    # -- playing --------------------------------------------------------------------------

    def play(self, text: str, only: int | None = None) -> Board:
        """Play the tokens of ``text`` (docs/notation.md) in turn; all of them or none: a
        token that is not notation (the NotationError) or an illegal action (the engine's
        IllegalAction, naming the rule) is MoveRefused, and the board is left as it was.
        With ``only``, a token on another seat's turn is refused before it is read (at a
        table a person plays its own seat: the engine's reason would name hidden cards)."""
        found = tokens(text)
        if not found:
            raise BoardError("type a move in the notation (as in 41@20-3,77), or pick one from the list")
        board = self
        for index, token in enumerate(found, start=1):
            if only is not None and board.state.seat != only:
                whose = BoardError(f"seat {board.state.seat} is to move then, not seat {only}")
                raise MoveRefused(whose, token, index, len(found), board.turn + 1)
            try:
                board = board.play_action(parse_token(Token(token.text, 1, token.column), board.state.seat))
            except BadInput as exc:
                raise MoveRefused(exc, token, index, len(found), board.turn + 1) from None
        return board

    def play_action(self, action: Action) -> Board:
        """The board after ``action``; IllegalAction (the rule it breaks) if it is illegal.
        Playing the action undone last keeps the rest of the redo list."""
        after = self.state.apply(action)
        undone = self.undone[1:] if self.undone[:1] == (action,) else ()
        return replace(self, actions=self.actions + (action,), states=self.states + (after,), undone=undone)

    def undo(self) -> Board:
        if not self.actions:
            raise BoardError("nothing to undo: this is where the game began")
        return self.back_to(self.turn - 1)

    def back_to(self, turn: int) -> Board:
        """The board after the first ``turn`` actions, the later ones undone (redo plays them
        again, first the earliest)."""
        if not 0 <= turn <= self.turn:
            raise BoardError(f"turn {turn} is not one of this game's 0..{self.turn}")
        undone = self.actions[turn:] + self.undone
        return replace(self, actions=self.actions[:turn], states=self.states[: turn + 1], undone=undone)

    def line_at(self, turn: int) -> Line:
        """The game up to the position after the first ``turn`` actions."""
        return replace(self.origin, actions=self.actions[:turn])

    def redo(self) -> Board:
        if not self.undone:
            raise BoardError("nothing to redo")
        action, *rest = self.undone
        return replace(self.play_action(action), undone=tuple(rest))

    # -- files ----------------------------------------------------------------------------

    def save(self, path: str | Path, force: bool = False) -> str:
        """Write the game so far: a line file (tranquility-line/1) for a ``.json`` path, else
        a notation file. An existing file is FileExists unless ``force``. Returns what was
        written, in words."""
        path = Path(path)
        if path.exists() and not force:
            raise FileExists(f"{path} already exists")
        puzzle = None if self.goal is None else self.goal.tag
        try:
            if path.suffix.lower() == ".json":
                write_json(path, line_to_json(self.line, puzzle), force=True)
                return f"wrote {path} (a line file of {self.turn} action(s){_of(puzzle)})"
            path.write_text(write_notation(self.line, self._deal_file(path), puzzle), encoding="utf-8")
        except OSError as exc:
            raise BoardError(f"{path}: cannot be written ({exc.strerror or exc})") from None
        return f"wrote {path} (the notation, {self.turn} action(s){_of(puzzle)})"

    def _deal_file(self, target: Path) -> str | None:
        """What a notation file at ``target`` names its deal by: the seeded header (None),
        or the JSON file the game came from, relative to ``target``'s folder."""
        if seeded_header(self.origin.deal) is not None:
            return None
        if self.source is None or Path(self.source).suffix.lower() != ".json":
            raise BoardError("this deal has no seed the notation could name: save it as a line file (.json)")
        return os.path.relpath(self.source, target.parent or Path("."))

    # -- hints ----------------------------------------------------------------------------

    @property
    def objective(self) -> Objective:
        """What a hint heads for unless told otherwise: in a puzzle its objective, the most
        spare cards (the puzzle's solution is compared by them); else any win."""
        return Objective.ANY if self.goal is None else Objective.SPARE

    def hint(self, budget: Budget, objective: Objective | None = None) -> Hint:
        """Solve the position (``budget``) for ``objective`` (the board's own by default);
        after a move whose position is proven lost, solve the one before it too, to tell a
        thrown-away win from a game lost earlier."""
        now = solve(self.line, budget, objective=objective or self.objective)
        proofs = Proofs().proven(self.line, now.verdict)
        if self.actions and now.verdict == Verdict.NO_WIN:
            proofs = proofs.solved(self, self.turn - 1, budget)
        return Hint(
            now.verdict,
            now.method,
            now.seconds,
            now.reason,
            _next_action(now, self.turn),
            now.best,
            proofs.judge(self),
            self.actions[-1] if self.actions else None,
            self.turn,
        )

    # -- puzzles --------------------------------------------------------------------------

    def goal_words(self) -> list[str]:
        """The puzzle's grade and, once the game is over, how its line compares with the
        puzzle's solution (spare cards: cards left in hands and piles at the win)."""
        goal = self.goal
        if goal is None:
            return []
        said = [f"puzzle {goal.id}, grade {goal.grade} of 5"]
        bound = objective_bound(self.states[0], Objective.SPARE)
        best = "" if goal.solution_spare is None else f"its solution wins with {goal.solution_spare} spare card(s); "
        said.append(f"{best}no win can keep more than {bound}")
        state = self.state
        if state.won:
            said.append(f"you won with {state.cards_left} spare card(s){_against(state.cards_left, goal.solution_spare)}")
        elif self.over:
            said.append("lost: the seat to move has no legal action")
        return said


@dataclass(frozen=True)
class Proofs:
    """Proven verdicts (win or no-win: an unknown proves nothing) of positions of games, each
    keyed by the line that reaches it: what the check after each move has solved, and what
    they tell about a board (the move that threw the win away, the last position proven
    winnable). A position after a proven loss is lost too, so it is never solved."""

    verdicts: Mapping[Line, Verdict] = field(default_factory=dict)

    def at(self, board: Board, turn: int) -> Verdict | None:
        """The proven verdict of the position after the board's first ``turn`` actions."""
        return self.verdicts.get(board.line_at(turn)) if 0 <= turn <= board.turn else None

    def proven(self, line: Line, verdict: Verdict) -> Proofs:
        if verdict == Verdict.UNKNOWN:
            return self
        return Proofs({**self.verdicts, line: verdict})

    def merged(self, other: Proofs) -> Proofs:
        return Proofs({**self.verdicts, **other.verdicts})

    def solved(self, board: Board, turn: int, budget: Budget) -> Proofs:
        """With the position after ``turn`` actions solved (``budget``), unless known."""
        if self.at(board, turn) is not None:
            return self
        return self.proven(board.line_at(turn), solve(board.line_at(turn), budget).verdict)

    def check(self, board: Board, budget: Budget, since: int | None = None) -> Proofs:
        """Solve what judging the board's moves after its first ``since`` actions takes (by
        default its last move): the position after them and, while a position is a proven
        loss, the one before it, down to the position after ``since`` actions; positions
        known are not solved again, and nothing is when a position up to ``since`` is a
        proven loss already."""
        since = max(board.turn - 1, 0) if since is None else since
        if any(self.at(board, turn) == Verdict.NO_WIN for turn in range(since + 1)):
            return self
        proofs = self
        for turn in range(board.turn, since - 1, -1):
            proofs = proofs.solved(board, turn, budget)
            if proofs.at(board, turn) != Verdict.NO_WIN:
                break
        return proofs

    def judge(self, board: Board) -> MoveCheck | None:
        """What the board's last move did to the win, as far as these proofs go (None before
        the first move)."""
        if not board.actions:
            return None
        before, after = self.at(board, board.turn - 1), self.at(board, board.turn)
        if after == Verdict.WIN:
            return MoveCheck.KEPT
        if before == Verdict.NO_WIN:
            return MoveCheck.ALREADY_LOST
        if before == Verdict.WIN and after == Verdict.NO_WIN:
            return MoveCheck.THREW
        return MoveCheck.UNKNOWN

    def thrown_at(self, board: Board) -> int | None:
        """The turn (from 1) of the board's move that threw the win away: the position before
        it a proven win, the one after it a proven loss; None if no move is proven to."""
        for turn in range(1, board.turn + 1):
            if self.at(board, turn - 1) == Verdict.WIN and self.at(board, turn) == Verdict.NO_WIN:
                return turn
        return None

    def last_winnable(self, board: Board) -> int | None:
        """The turns played to reach the board's latest position proven winnable, if any."""
        return next((t for t in range(board.turn, -1, -1) if self.at(board, t) == Verdict.WIN), None)


def _of(puzzle: PuzzleTag | None) -> str:
    return "" if puzzle is None else f", on puzzle {puzzle.id}"


def _against(spare: int, best: int | None) -> str:
    if best is None:
        return ""
    if spare > best:
        return f": {spare - best} more than the puzzle's solution (a new best)"
    if spare == best:
        return ": as many as the puzzle's solution"
    return f": {best - spare} fewer than the puzzle's solution"


def _cost(state: State, choice: Choice) -> int:
    match choice.kind:
        case ChoiceKind.ISLAND:
            return state.cost_of(choice)
        case ChoiceKind.DISCARD:
            return 2
        case ChoiceKind.START:
            return state.rules.start_discards
        case _:  # Finish, Sea Monster
            return 0


def discard_moves(state: State, first: DiscardTwo) -> tuple[Move, ...]:
    """Discarding two, one move per pair of cards the seat could discard, ``first``'s pair
    first: which two go is the choice (a hint may name any), so the list offers each. Two
    cards alike (two Finish) are one pair; with manual Jagged Rocks each pair comes with its
    first legal rocks move."""
    paid: dict[tuple[Card, ...], Action] = {first.discard: first}
    choice = choice_of(first)
    for action in state.actions_for(choice):
        if isinstance(action, DiscardTwo) and action.discard not in paid and state.explain_illegal(action) is None:
            paid[action.discard] = action
    return tuple(Move(choice, 2, action) for action in paid.values())


def offering(moves: tuple[Move, ...], action: Action) -> tuple[tuple[Move, ...], int] | None:
    """``moves`` with ``action`` in the place of the move it is listed as (the same choice;
    for a discard, the same pair), and that place: a hint's move, whatever it pays, is one
    of the list. None when the list has no such move."""
    listed = _listed_as(action)
    at = next((at for at, move in enumerate(moves) if _listed_as(move.action) == listed), None)
    if at is None:
        return None
    return (*moves[:at], replace(moves[at], action=action), *moves[at + 1 :]), at


def _listed_as(action: Action) -> tuple[Choice, tuple[Card, ...] | None]:
    """What the list of moves tells moves apart by: the choice, and a discard's pair."""
    return choice_of(action), action.discard if isinstance(action, DiscardTwo) else None


def _suggested(state: State, choice: Choice) -> Action:
    """The searcher's first payment for the choice (worthless cards first), or the
    engine's first legal action for choices it does not pay for (monsters, manual rocks)."""
    searched = choice_actions(state, choice, live_islands(state)) if choice.kind != ChoiceKind.MONSTER else iter(())
    for action in chain(searched, state.actions_for(choice)):
        if state.explain_illegal(action) is None:
            return action
    raise InternalError(f"{choice} is a legal choice with no legal action")


def _next_action(result: Result, turn: int) -> Action | None:
    """The action a winning line plays after the ``turn`` actions given."""
    if result.verdict != Verdict.WIN or result.line is None or len(result.line.actions) <= turn:
        return None
    return result.line.actions[turn]
