"""The fair analysis of a played line: each examined turn judged by what its mover could
know (docs/explain.md, "Fair analysis").

The perfect analysis (analyze.py) solves every position with every card face up, so the
turn it blames may have been a fine move by what the mover saw. Here the mover's own
memory (``remember``: the public history, its own hands and discards) and view
(``observe``) are all there is: every legal move (``Lookahead.every_move``, and the move
played if its payment is not one of those) is played in the same sampled worlds that fit
what the mover saw, then the tuned blueprint at every seat to the end (``Lookahead.estimate``). A move
that surely cost at least ``MISTAKE_MARGIN`` points of win chance against the best move there
was to see (``FairTurn.mistake``) is a mistake; a win lost with no such move before it was
bad luck. Each turn the perfect analysis flags
is called one or the other, with what the win needed and where it went (needed.py): the
reason a player can check.

The budget is a count of worlds and the worlds are dealt from a seed made of the sim seed,
the turn and the seat: the same line and settings give the same estimates on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from tranquility.solver.analysis.analyze import Analysis
from tranquility.solver.analysis.needed import Needed, what_the_win_needed
from tranquility.solver.analysis.results import Progress, Step
from tranquility.solver.engine.actions import Action, PlayStart, describe
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.observation import observe
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.lookahead import Lookahead, MoveEstimate
from tranquility.solver.search.memory import remember
from tranquility.solver.stats import difference_interval
from tranquility.solver.verdicts import Verdict

# Worlds per move, each played out by the tuned blueprint (lookahead's) on the compiled core:
# a Wilson interval at 50% is then about +-5.5 points; the cost grows in step (docs/explain.md
# measures it).
FAIR_SAMPLES = 320
# A mistake costs at least this many points of win chance: the 95% interval of the best move's
# lead lies wholly at or above it. Without it, ten times the worlds call mistakes on ever smaller
# gaps (a fifth of a point at 3,200), and the verdict would turn on the budget. The figure was
# chosen on 200 turns fair_check had checked, then checked on fresh ones (docs/explain.md).
MISTAKE_MARGIN = 8.0
DEFAULT_TURNS = 6  # turns examined besides the ones the perfect analysis flags


class Judgement(StrEnum):
    """The fair verdict on a whole line (docs/explain.md gives each one's definition)."""

    WON = "won"
    NEVER_WINNABLE = "never winnable"  # the perfect analysis proved the start lost
    MISTAKE = "mistake"
    BAD_LUCK = "bad luck"
    STILL_WINNABLE = "still winnable"  # the line stops with the win still there
    UNDECIDED = "undecided"  # the perfect analysis did not place the loss, or Ctrl-C came first


def move_json(estimate: MoveEstimate) -> dict:
    from tranquility.solver.formats.codecs import action_to_json

    low, high = estimate.interval()
    return {
        "notation": format_action(estimate.action),
        "text": describe(estimate.action),
        "action": action_to_json(estimate.action),
        "wins": estimate.wins,
        "worlds": estimate.worlds,
        "rate": round(estimate.rate, 4),
        "interval": [low, high],  # unrounded: the mistake rule compares them as they are
    }


@dataclass(frozen=True)
class FairTurn:
    """One examined turn: the action ``line.actions[turn - 1]`` of ``seat``, and every move
    it could have made, ranked by its win chance in the mover's worlds (ties: the cells and
    cards the playouts kept, then the order of ``Lookahead.every_move``)."""

    turn: int  # from 1
    seat: int
    ranked: tuple[MoveEstimate, ...]  # best first; the played move is one of them
    played: MoveEstimate
    flagged: bool = False  # the perfect analysis placed the loss of the win here
    needed: Needed | None = None  # on a flagged turn: what the win needed, and where it went

    @property
    def best(self) -> MoveEstimate:
        return self.ranked[0]

    @property
    def cost(self) -> float:
        """The best move's win chance less the played move's, in percentage points."""
        return 100.0 * (self.best.rate - self.played.rate)

    def lead(self) -> tuple[float, float]:
        """The 95% interval of the best move's win chance less the played move's, in
        percentage points (``stats.difference_interval``)."""
        return difference_interval(self.best.wins, self.best.worlds, self.played.wins, self.played.worlds)

    @property
    def mistake(self) -> bool:
        """The played move cost at least ``MISTAKE_MARGIN`` points: the best move's lead
        lies wholly at or above it."""
        return self.lead()[0] >= MISTAKE_MARGIN

    @property
    def judged(self) -> str | None:
        """A flagged turn in a word: a mistake, or bad luck (no move was surely better by
        the margin, by what the mover could see); None for a turn the perfect analysis does
        not flag."""
        if not self.flagged:
            return None
        return str(Judgement.MISTAKE if self.mistake else Judgement.BAD_LUCK)

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "flagged": self.flagged,
            "played": move_json(self.played),
            "best": move_json(self.best),
            "cost": round(self.cost, 1),
            "lead": list(self.lead()),  # unrounded: the mistake rule compares its low end with the margin
            "margin": MISTAKE_MARGIN,
            "mistake": self.mistake,
            "judged": self.judged,
            "why": None if self.needed is None else self.needed.to_json(self.seat),
            "moves": [move_json(m) for m in self.ranked],
        }


def examine(
    line: Line, turn: int, samples: int = FAIR_SAMPLES, seed: int = 0, flagged: bool = False, only: Sequence[Action] = ()
) -> FairTurn:
    """Turn ``turn`` (from 1) of ``line`` judged by what its mover knew before it: every
    legal move, or the moves ``only`` (the played one is always judged too)."""
    action = line.actions[turn - 1]
    if isinstance(action, PlayStart):
        raise ValueError(f"turn {turn} is the Start event: the table plays it, no seat chooses it alone")
    before = line.with_actions(line.actions[: turn - 1])
    seat = action.seat
    obs = observe(before.end_state(), seat)
    # A judge of its own per turn: the playouts' random choices then depend on this turn
    # alone, not on which turns were examined before it.
    judge = Lookahead(seed, samples)
    moves = list(only) or judge.every_move(obs)
    if action not in moves:  # the played payment is not the blueprint's: judge it as played too
        moves.append(action)
    found = judge.estimate(obs, remember(before, seat), moves, f"fair/{seed}/{turn}/{seat}")
    order = sorted(range(len(found)), key=lambda i: (-found[i].wins, -found[i].rest, i))
    return FairTurn(turn, seat, tuple(found[i] for i in order), found[moves.index(action)], flagged)


def loss_span(perfect: Analysis) -> tuple[int, int] | None:
    """The turns the perfect analysis places the loss of the win in (one turn, or the
    bracket the unknown positions leave), or None."""
    if perfect.lost_at is not None:
        return perfect.lost_at, perfect.lost_at
    return perfect.lost_between


def spread(items: list[int], k: int) -> list[int]:
    """``k`` of ``items`` spread evenly over them (the middle of each of ``k`` equal parts),
    or all of them if there are no more than ``k``."""
    if k >= len(items):
        return list(items)
    return [items[(2 * i + 1) * len(items) // (2 * k)] for i in range(k)]


def chosen_turns(perfect: Analysis, others: int | None = DEFAULT_TURNS) -> tuple[tuple[int, ...], frozenset[int]]:
    """The turns to examine and, among them, the ones the perfect analysis flags (the loss
    of the win, or every turn of its bracket); ``others`` more spread evenly over the rest of
    the line (None: every turn). The Start event is never examined."""
    actions = perfect.line.actions
    playable = [t for t in range(1, len(actions) + 1) if not isinstance(actions[t - 1], PlayStart)]
    span = loss_span(perfect)
    flagged = frozenset(t for t in playable if span is not None and span[0] <= t <= span[1])
    if others is None:
        return tuple(playable), flagged
    rest = [t for t in playable if t not in flagged]
    return tuple(sorted(flagged | set(spread(rest, others)))), flagged


@dataclass(frozen=True)
class FairAnalysis:
    """The fair analysis of ``perfect.line``: the examined turns, in order, and the verdict."""

    perfect: Analysis
    turns: tuple[FairTurn, ...]
    planned: tuple[int, ...]  # the turns chosen to examine (all of them in ``turns`` unless interrupted)
    samples: int
    seed: int
    others: int | None  # the turns asked for besides the flagged ones (None: every turn)
    interrupted: bool = False  # Ctrl-C stopped it: ``turns`` holds the turns examined by then

    @property
    def line(self) -> Line:
        return self.perfect.line

    @property
    def memory_from(self) -> int | None:
        """The turn the seats' memories start at, for a line that starts from a position
        (which has no history: each seat knows what the position shows); None from a deal."""
        return 1 if self.line.position is not None else None

    @property
    def loss(self) -> tuple[int, int] | None:
        return loss_span(self.perfect)

    def mistake_at(self) -> FairTurn | None:
        """The first examined mistake at or before the last turn the win may have been lost in."""
        span = self.loss
        return None if span is None else next((t for t in self.turns if t.mistake and t.turn <= span[1]), None)

    @property
    def judgement(self) -> Judgement:
        if self.line.end_state().won:
            return Judgement.WON
        if self.perfect.deal_verdict == Verdict.NO_WIN:
            return Judgement.NEVER_WINNABLE
        span = self.loss
        if span is None:
            # Not interrupted, the perfect analysis ends with the position after the last action.
            winnable = not self.perfect.interrupted and self.perfect.positions[-1].verdict == Verdict.WIN
            return Judgement.STILL_WINNABLE if winnable else Judgement.UNDECIDED
        if self.mistake_at() is not None:
            return Judgement.MISTAKE
        examined = {t.turn for t in self.turns}
        if any(t <= span[1] and t not in examined for t in self.planned):
            return Judgement.UNDECIDED  # interrupted before every turn up to the loss was examined
        return Judgement.BAD_LUCK

    def to_json(self) -> dict:
        """As ``tranquility analyze --fair --json`` prints it: the perfect analysis the turns
        were chosen by, and the fair one."""
        return {"perfect": self.perfect.to_json(), "fair": self._fair_json()}

    def _fair_json(self) -> dict:
        span = self.loss
        first = self.mistake_at()
        return {
            "verdict": str(self.judgement),
            "mistake_at": None if first is None else first.turn,
            "lost_at": self.perfect.lost_at,
            "lost_between": None if self.perfect.lost_between is None else list(self.perfect.lost_between),
            "loss_turns": None if span is None else list(span),
            "samples": self.samples,
            "margin": MISTAKE_MARGIN,
            "sim_seed": self.seed,
            "turns_asked": "all" if self.others is None else self.others,
            "planned": list(self.planned),
            "memory_from": self.memory_from,
            "interrupted": self.interrupted,
            "turns": [t.to_json() for t in self.turns],
        }


def fair_analysis(
    perfect: Analysis,
    others: int | None = DEFAULT_TURNS,
    samples: int = FAIR_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
) -> FairAnalysis:
    """The fair analysis of the line ``perfect`` analysed: the turns it flags and ``others``
    more (None: every turn), ``samples`` worlds per move, dealt from ``seed``. ``progress``
    hears each turn before it is examined. Ctrl-C ends it with the turns examined by then; a
    perfect analysis cut short by Ctrl-C leaves nothing to choose from, so none is examined."""
    planned, flagged = chosen_turns(perfect, others)
    if perfect.interrupted:
        return FairAnalysis(perfect, (), planned, samples, seed, others, interrupted=True)
    span = loss_span(perfect)
    needed = None if span is None else what_the_win_needed(perfect, span)
    done: list[FairTurn] = []
    try:
        for k, turn in enumerate(planned, start=1):
            if progress is not None:
                found = f"{sum(t.mistake for t in done)} mistake(s) so far"
                progress(Step(f"turn {turn} ({k} of {len(planned)}), seat {perfect.line.actions[turn - 1].seat}", None, found))
            judged = examine(perfect.line, turn, samples, seed, turn in flagged)
            done.append(replace(judged, needed=needed) if judged.flagged else judged)
    except KeyboardInterrupt:
        return FairAnalysis(perfect, tuple(done), planned, samples, seed, others, interrupted=True)
    return FairAnalysis(perfect, tuple(done), planned, samples, seed, others)
