"""How far the fair analysis's verdicts hold: each turn where a lost game lost its win
(the perfect analysis places it), judged as ``analyze --fair`` judges it (a mistake, or
bad luck, by the rule's margin) and again with ``factor`` times the worlds. The larger judge weighs the moves
that could matter: the played one and the smaller judge's ``TOP`` best (every legal move
at ten times the worlds would cost minutes a turn).

    python -m tranquility.solver.batch.fair_check --turns 100 --players 4 --out fair.jsonl

prints each turn's two verdicts as a JSON line and how many agree (docs/explain.md). The
lost games are the seeded official deals from seed 0 (``--first-seed``) up, played by ``--policy``; each lost
game gives one turn, the one it lost its win in (a game whose loss the perfect analysis
leaves between two positions, an unknown, is skipped, and so is one lost at the Start
event). ``--out`` keeps the turns in a journal (journal.py), one line each as it is
checked: a rerun with the same settings goes on from the seed after the last one there,
the turns there counted once toward ``--turns``. Progress goes to stderr; Ctrl-C (or
SIGTERM) prints the summary of the turns checked by then and exits 130 (143)."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import FAIR_SAMPLES, MISTAKE_MARGIN, FairTurn, examine, loss_span
from tranquility.solver.batch.journal import Journal
from tranquility.solver.engine.actions import PlayStart
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.notation import format_action
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.policies import make_policy, simulate
from tranquility.solver.stop_signals import terminate, terminated

TOP = 4  # the smaller judge's best moves the larger one weighs again, beside the played one
FACTOR = 10
MISTAKE, BAD_LUCK = "mistake", "bad luck"


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
            played_low, played_high = judged.played.interval()
            lead_low, lead_high = judged.lead()
            return {
                "verdict": MISTAKE if judged.mistake else BAD_LUCK,
                "worlds": judged.played.worlds,
                "lead": [round(lead_low, 2), round(lead_high, 2)],
                "played": [format_action(judged.played.action), judged.played.wins, round(played_low, 4), round(played_high, 4)],
                "best": [format_action(judged.best.action), judged.best.wins, round(low, 4), round(high, 4)],
            }

        return {"seed": self.seed, "turn": self.turn, "agree": self.agree, "small": said(self.small), "large": said(self.large)}


def lost_turns(players: int, policy: str, budget: Budget, start: int = 0) -> Iterator[tuple[int, Line, int]]:
    """(seed, line, turn): the turn each lost game lost its win, seed by seed from ``start``."""
    seed = start
    while True:
        line = simulate(deal(OFFICIAL, players, seed), policy, seed).line
        if not line.end_state().won:
            perfect = analyze(line, budget)
            if perfect.interrupted:  # the analysis keeps Ctrl-C to itself, ending early: the run stops too
                raise KeyboardInterrupt
            span = loss_span(perfect)
            if span is not None and span[0] == span[1] and not isinstance(line.actions[span[0] - 1], PlayStart):
                yield seed, line, span[0]
        seed += 1


def check(line: Line, turn: int, seed: int, samples: int = FAIR_SAMPLES, factor: int = FACTOR) -> Checked:
    small = examine(line, turn, samples, flagged=True)
    weighed = [e.action for e in small.ranked[:TOP]]
    large = examine(line, turn, samples * factor, flagged=True, only=weighed)
    return Checked(seed, turn, small, large)


def kept_turns(journal: Journal) -> list[dict]:
    """The checked turns a journal holds, one per seed (a seed written twice counts once)."""
    turns: dict[int, dict] = {}
    for number, data in journal.records:
        try:
            seed = data["seed"]
            if not isinstance(seed, int) or {data["small"]["verdict"], data["large"]["verdict"]} - {MISTAKE, BAD_LUCK}:
                raise ValueError
        except (KeyError, TypeError, ValueError):
            raise BadInput(f"{journal.path}, line {number}: not a turn fair_check checked") from None
        turns[seed] = data
    return [turns[seed] for seed in sorted(turns)]


def summary(turns: Sequence[dict], samples: int, factor: int) -> str:
    """How many verdicts agree, each judge's mistakes and bad luck, and the turns that turned over."""

    def split(judge: str) -> str:
        mistakes = sum(t[judge]["verdict"] == MISTAKE for t in turns)
        return f"{mistakes} mistakes and {len(turns) - mistakes} bad luck"

    over = [t for t in turns if t["small"]["verdict"] != t["large"]["verdict"]]
    said = (
        f"{len(turns) - len(over)} of {len(turns)} verdicts agree, a mistake costing at least {MISTAKE_MARGIN:g} points "
        f"({split('small')} at {samples} worlds; {split('large')} at {samples * factor})"
    )
    return said + "".join(f"\nturned over: seed {t['seed']} turn {t['turn']}, {t['small']['verdict']} at first" for t in over)


def _terminated(signum: int, frame: object) -> None:
    terminate()
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30, help="lost games' turns to check, one a game (default 30)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--policy", default="thrifty", help="who played the games (default thrifty)")
    parser.add_argument("--samples", type=int, default=FAIR_SAMPLES, help=f"the fair analysis's worlds (default {FAIR_SAMPLES})")
    parser.add_argument("--factor", type=int, default=FACTOR, help=f"the larger judge's multiple (default {FACTOR})")
    parser.add_argument("--time-limit", type=float, default=10.0, help="the perfect analysis's seconds a position")
    parser.add_argument("--out", help="a journal of the checked turns (JSON lines); a rerun goes on from it")
    parser.add_argument("--first-seed", type=int, default=0, help="the first deal's seed (default 0): fresh games")
    options = parser.parse_args(argv)
    for name in ("turns", "players", "samples", "factor", "time_limit"):
        if getattr(options, name) <= 0:
            parser.error(f"--{name.replace('_', '-')} must be above 0")
    if options.first_seed < 0:
        parser.error("--first-seed must be 0 or above")
    settings = {k: getattr(options, k) for k in ("players", "policy", "samples", "factor", "time_limit")}
    settings["margin"] = MISTAKE_MARGIN  # a journal's verdicts hold for the mistake rule they were made by
    try:
        make_policy(options.policy)
        header = {"tool": "fair_check", "settings": settings}
        journal = None if options.out is None else Journal(options.out, header, "fair_check")
        found = [] if journal is None else kept_turns(journal)
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: cannot use --out {options.out}: {error.strerror or error}", file=sys.stderr)
        return 2
    previous = signal.signal(signal.SIGTERM, _terminated)
    start = max(options.first_seed, max((t["seed"] for t in found), default=-1) + 1)
    if found:
        print(f"{len(found)} turn(s) from {options.out}; going on from seed {start}", file=sys.stderr)
    interrupted = False
    try:
        lost = lost_turns(options.players, options.policy, Budget(seconds=options.time_limit), start)
        while len(found) < options.turns:
            began = time.process_time()  # the turn's whole cost: finding its lost game, then both judges
            seed, line, turn = next(lost)
            checked = check(line, turn, seed, options.samples, options.factor).to_json()
            if journal is not None:
                journal.write(checked)
            found.append(checked)
            print(json.dumps(checked), flush=True)
            print(
                f"{len(found)} of {options.turns}: seed {seed} turn {turn}, {checked['small']['verdict']} then "
                f"{checked['large']['verdict']} ({time.process_time() - began:.1f} CPU s)",
                file=sys.stderr,
                flush=True,
            )
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        if journal is not None:
            journal.close()
    print(("interrupted: " if interrupted else "") + summary(found, options.samples, options.factor), flush=True)
    if interrupted:
        return 143 if terminated() else 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
