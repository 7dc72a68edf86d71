"""Post-game analysis: solve the position before every action of a played line and find
the action after which a winnable game became unwinnable (docs/explain.md).

Verdicts along a line are monotone: a position after a lost one is lost too (a win from
it would be a win from the earlier one). So once a position is proven lost, every later
one is lost "by implication" without another solve."""

from __future__ import annotations

import time
from dataclasses import dataclass

from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.analysis.results import Progress, Result, Step
from tranquility.solver.engine.actions import Action, describe
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.verify import Replayed, replayed
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import DecidedBy, Verdict


@dataclass(frozen=True)
class TurnVerdict:
    """The position before action ``index`` (0 = the deal; len(actions) = after the last)."""

    index: int
    verdict: Verdict
    method: DecidedBy
    seconds: float
    reason: str | None  # for a no-win: the proof, in words
    winning: Action | None = None  # for a win: the first action of a winning line from here, payment included

    @property
    def alternative(self) -> str | None:
        """The winning action in words (``describe``), payment included."""
        return None if self.winning is None else describe(self.winning)


@dataclass(frozen=True)
class Analysis:
    line: Line
    positions: tuple[TurnVerdict, ...]
    lost_at: int | None  # the turn (from 1) whose action lost the win, if one is pinned down
    lost_between: tuple[int, int] | None  # turns bracketing the loss when unknowns hide it
    interrupted: bool = False  # Ctrl-C stopped it: ``positions`` ends with the one it was solving

    @property
    def deal_verdict(self) -> str:
        return self.positions[0].verdict

    def to_json(self) -> dict:
        from tranquility.solver.formats.codecs import action_to_json

        kept = self.kept_action()
        after = self.after_loss()
        return {
            "deal_verdict": self.deal_verdict,
            "lost_at": self.lost_at,
            "lost_between": list(self.lost_between) if self.lost_between else None,
            "lost_action": describe(self.line.actions[self.lost_at - 1]) if self.lost_at else None,
            "kept_by": self.kept_by(),
            "kept_by_action": None if kept is None else action_to_json(kept),
            "interrupted": self.interrupted,
            "lost_proof": None if after is None else {"method": after.method, "reason": after.reason},
            "positions": [
                {
                    "before_turn": p.index + 1,
                    "verdict": p.verdict,
                    "method": p.method,
                    "seconds": round(p.seconds, 3),
                    "reason": p.reason,
                    "winning_move": p.alternative,
                    "winning_action": None if p.winning is None else action_to_json(p.winning),
                }
                for p in self.positions
            ],
        }

    def kept_action(self) -> Action | None:
        """An action (with its payment) that would have kept the win at the losing turn:
        the first action of the winning line found from the position before it."""
        if self.lost_at is None:
            return None
        return self.positions[self.lost_at - 1].winning

    def kept_by(self) -> str | None:
        """``kept_action`` in words."""
        kept = self.kept_action()
        return None if kept is None else describe(kept)

    def after_loss(self) -> TurnVerdict | None:
        """The position right after the losing action, whose solve proved it lost (its
        ``reason`` says why)."""
        if self.lost_at is None:
            return None
        return self.positions[self.lost_at]


def analyze(
    game: Line | Replayed,
    budget: Budget = Budget(seconds=10),
    progress: Progress | None = None,
) -> Analysis:
    """Solve the position before each action (and after the last), ``budget`` each, the
    line replayed once for them all (a line already replayed, not again). ``progress``
    hears each position (a ``Step``: which, when its budget ends, the last position shown
    winnable so far)."""
    checked = replayed(game)
    line = checked.line
    positions: list[TurnVerdict] = []
    lost_from: TurnVerdict | None = None
    for index in range(len(line.actions) + 1):
        if progress is not None and lost_from is None:
            last_win = max((p.index + 1 for p in positions if p.verdict == Verdict.WIN), default=None)
            found = f"{index} solved" + (f"; winnable before turn {last_win}" if last_win is not None else "")
            until = None if budget.reproducible else time.monotonic() + budget.seconds
            progress(Step(f"position before turn {index + 1} of {len(line.actions) + 1}", until, found))
        if lost_from is not None:
            why = f"the position before turn {lost_from.index + 1} is already lost"
            positions.append(TurnVerdict(index, Verdict.NO_WIN, DecidedBy.IMPLIED, 0.0, why, None))
            continue
        result = solve(Replayed(line.with_actions(line.actions[:index]), checked.states[: index + 1]), budget)
        position = TurnVerdict(index, result.verdict, result.method, result.seconds, result.reason, _first_action(result, index))
        positions.append(position)
        if result.interrupted:  # Ctrl-C: stop here, with the positions solved so far
            return Analysis(line, tuple(positions), *_where_lost(positions), interrupted=True)
        if result.verdict == Verdict.NO_WIN:
            lost_from = position
    return Analysis(line, tuple(positions), *_where_lost(positions))


def _first_action(result: Result, index: int) -> Action | None:
    """The action the winning line plays from the position before action ``index``."""
    if result.verdict != Verdict.WIN or result.line is None or len(result.line.actions) <= index:
        return None
    return result.line.actions[index]


def _where_lost(positions: list[TurnVerdict]) -> tuple[int | None, tuple[int, int] | None]:
    last_win = max((p.index for p in positions if p.verdict == Verdict.WIN), default=None)
    first_loss = min((p.index for p in positions if p.verdict == Verdict.NO_WIN and p.method != DecidedBy.IMPLIED), default=None)
    if last_win is None or first_loss is None or first_loss < last_win:
        return None, None
    if first_loss == last_win + 1:
        return first_loss, None  # the action of turn first_loss lost it
    return None, (last_win + 1, first_loss)
