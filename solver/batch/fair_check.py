"""How far the fair analysis's verdicts hold: each turn where a lost game lost its win
(the perfect analysis places it), judged as ``analyze --fair`` judges it (a mistake, or
bad luck) and again with ``factor`` times the worlds. The larger judge weighs the moves
that could matter: the played one and the smaller judge's ``TOP`` best (every legal move
at ten times the worlds would cost minutes a turn).

    python -m tranquility.solver.batch.fair_check --turns 30 --players 4

prints each turn's two verdicts and how many agree (docs/explain.md). The lost games are
the seeded official deals from seed 0 up, played by ``--policy``; a turn the perfect
analysis leaves between two positions (an unknown) is skipped, and so is the Start event.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass

from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import FAIR_SAMPLES, FairTurn, examine, loss_span
from tranquility.solver.engine.actions import PlayStart
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.policies import simulate

TOP = 4  # the smaller judge's best moves the larger one weighs again, beside the played one
FACTOR = 10


@dataclass(frozen=True)
class Checked:
    seed: int
    turn: int
    small: FairTurn
    large: FairTurn

    @property
    def agree(self) -> bool:
        return self.small.mistake == self.large.mistake

    def to_json(self) -> dict:
        def said(judged: FairTurn) -> dict:
            low, high = judged.best.interval()
            return {
                "verdict": "mistake" if judged.mistake else "bad luck",
                "worlds": judged.played.worlds,
                "played": [format_action(judged.played.action), judged.played.wins],
                "best": [format_action(judged.best.action), judged.best.wins, round(low, 4), round(high, 4)],
            }

        return {"seed": self.seed, "turn": self.turn, "agree": self.agree, "small": said(self.small), "large": said(self.large)}


def lost_turns(players: int, policy: str, budget: Budget) -> Iterator[tuple[int, Line, int]]:
    """(seed, line, turn): the turn each lost game lost its win, seed by seed from 0."""
    seed = 0
    while True:
        line = simulate(deal(OFFICIAL, players, seed), policy, seed).line
        if not line.end_state().won:
            span = loss_span(analyze(line, budget))
            if span is not None and span[0] == span[1] and not isinstance(line.actions[span[0] - 1], PlayStart):
                yield seed, line, span[0]
        seed += 1


def check(line: Line, turn: int, seed: int, samples: int = FAIR_SAMPLES, factor: int = FACTOR) -> Checked:
    small = examine(line, turn, samples, flagged=True)
    weighed = [e.action for e in small.ranked[:TOP]]
    large = examine(line, turn, samples * factor, flagged=True, only=weighed)
    return Checked(seed, turn, small, large)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30, help="lost games' turns to check (default 30)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="thrifty", help="who played the games (default thrifty)")
    parser.add_argument("--samples", type=int, default=FAIR_SAMPLES, help=f"the fair analysis's worlds (default {FAIR_SAMPLES})")
    parser.add_argument("--factor", type=int, default=FACTOR, help=f"the larger judge's multiple (default {FACTOR})")
    parser.add_argument("--time-limit", type=float, default=10.0, help="the perfect analysis's seconds a position")
    options = parser.parse_args(argv)
    found: list[Checked] = []
    for seed, line, turn in lost_turns(options.players, options.policy, Budget(seconds=options.time_limit)):
        checked = check(line, turn, seed, options.samples, options.factor)
        found.append(checked)
        print(json.dumps(checked.to_json()), flush=True)
        if len(found) == options.turns:
            break
    agree = sum(c.agree for c in found)
    mistakes = sum(c.small.mistake for c in found)
    bad_luck = len(found) - mistakes
    print(f"{agree} of {len(found)} verdicts agree ({mistakes} mistakes and {bad_luck} bad luck at {options.samples} worlds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
