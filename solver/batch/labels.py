"""Decisions labelled by the lookahead, to teach the blueprint what the search finds.

Games are played with ``lookahead`` on ``tuned`` at every seat, on training deals (seeds
from ``LABEL_SEEDS`` up: never the evaluation seeds 0-999), the player counts taken in
turn. At every decision where the search had a real choice (more than one candidate move),
the record holds what the seat saw, as the terms of ``tuned``'s score of each of its legal
island plays (``island_terms``: the score is their sum, each times its weight), whether
``tuned`` may discard two instead, ``tuned``'s own move, the lookahead's move and, for every
move the search played out, its worlds, mean shaped value and mean advantage over the
blueprint's move in the same worlds.

    python -m tranquility.solver.batch.labels --games 400 --samples 12 --out labels.jsonl

``--out`` is a journal (journal.py), one line a game as it ends: a rerun with the same
settings plays only the games not there (a kill loses at most the game under way).
Progress goes to stderr; the number of labelled decisions in the journal is printed at the end.
taught.py fits the blueprint to these labels.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tranquility.solver.batch.journal import Journal
from tranquility.solver.engine.actions import Action, DiscardTwo, PlayIsland
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.observation import Observation
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import IslandPlays, State
from tranquility.solver.errors import BadInput
from tranquility.solver.search.lookahead import Lookahead, estimate_of
from tranquility.solver.search.policies import Ending, Reading, Tuned, added, simulate
from tranquility.solver.search.worlds import Dealt

LABEL_SEEDS = 100_000  # the first training deal; the evaluation seeds are 0-999
PLAYER_COUNTS = (2, 3, 4, 5)
LABELS_FORMAT = "tranquility-labels/1"
# The weights that multiply tuned's island-play terms, in ``island_terms``' order.
TERMS = ("cost", "pressure", "paid", "misplaced", "deficit", "relief")
DISCARD = -1  # a move's index when it is discarding two


def island_terms(policy: Tuned, obs: Observation, reading: Reading, islands: IslandPlays) -> list[list[float]]:
    """The terms of ``policy``'s score of each of ``islands``, in ``TERMS`` order: its score
    is the sum of each term times the weight of that name (tests/batch/test_labels.py checks
    this against ``Tuned.island_scores``). The cards paid are weighed by the keep values of
    ``policy``'s own weights, which the terms do not fit."""
    values = policy.keep_values(reading, obs.hand, obs.start_played)
    ranked = sorted(values)
    in_play = sum(obs.hand_sizes) + sum(obs.pile_sizes)
    share = len(reading.empty) / max(in_play, 1)
    rows = []
    for card, cell, cost in islands:
        deficit, misplaced = reading.placement(card, cell)
        rest = ranked.copy()
        rest.remove(values[obs.hand.index(card)])
        rows.append([float(cost), share * cost, added(rest[:cost]), misplaced, max(deficit, 0.0), min(deficit, 0.0)])
    return rows


def move_index(move: Action, islands: IslandPlays) -> int:
    """``move``'s index among ``islands`` (``DISCARD`` for discarding two)."""
    if isinstance(move, DiscardTwo):
        return DISCARD
    assert isinstance(move, PlayIsland), "the search weighs island plays and discarding two only"
    return next(i for i, (card, cell, _) in enumerate(islands) if (card, cell) == (move.card, move.cell))


class Labelling(Lookahead):
    """``Lookahead`` that hands each searched decision to ``on_label`` as a record (module
    docstring); it plays exactly the moves ``Lookahead`` plays."""

    def __init__(self, seed: int, samples: int, on_label: Callable[[dict], None]):
        super().__init__(seed, samples)
        self.on_label = on_label
        self._ends: dict[Action, list[Ending]] = {}

    def searched(self, obs, own, dealer):
        self._ends = {}
        chosen = super().searched(obs, own, dealer)
        if len(self._ends) > 1:
            self.on_label(self.label(obs, own, chosen))
        return chosen

    def play(self, worlds: list[State] | Dealt, moves: Sequence[Action]) -> list[Ending]:
        ends = super().play(worlds, moves)
        n = len(ends) // len(moves)
        for k, move in enumerate(moves):
            self._ends.setdefault(move, []).extend(ends[k * n : (k + 1) * n])
        return ends

    def label(self, obs: Observation, own: Action, chosen: Action) -> dict:
        reading, islands = Reading(obs), obs.view.island_plays
        assert isinstance(self.playout, Tuned)
        cells = obs.rules.cells
        base = estimate_of(own, self._ends[own], cells)
        moves = []
        for move, ends in self._ends.items():
            found = estimate_of(move, ends, cells)
            mean = sum(found.values) / found.worlds
            moves.append([move_index(move, islands), found.worlds, round(mean, 5), round(found.advantage(base)[0], 5)])
        return {
            "turn": obs.turn,
            "seat": obs.seat,
            "plays": [list(play) for play in islands],
            "terms": island_terms(self.playout, obs, reading, islands),
            "can_discard": len(obs.hand) >= 2 and obs.pile_sizes[obs.seat] > 0,
            "blueprint": move_index(own, islands),
            "chosen": move_index(chosen, islands),
            "moves": moves,
        }


@dataclass(frozen=True)
class LabelSettings:
    games: int
    samples: int
    first_seed: int = LABEL_SEEDS

    def check(self) -> None:
        if self.games < 1:
            raise BadInput(f"--games must be at least 1, got {self.games}")
        if self.samples < 1:
            raise BadInput(f"--samples must be at least 1, got {self.samples}")
        if self.first_seed < 1000:
            raise BadInput(f"--first-seed must be 1000 or more (seeds 0-999 are for evaluation), got {self.first_seed}")

    def game(self, number: int) -> tuple[int, int]:
        """(players, seed) of the run's game ``number``: the counts in turn, each from ``first_seed`` up."""
        return PLAYER_COUNTS[number % len(PLAYER_COUNTS)], self.first_seed + number // len(PLAYER_COUNTS)


def label_games(settings: LabelSettings, path: str, progress: Callable[[str], None] | None = None) -> int:
    """Play the run's games not yet in the journal at ``path``, one record a game; the
    number of labelled decisions in the journal at the end."""
    settings.check()
    header = {"format": LABELS_FORMAT, "settings": {"samples": settings.samples, "first_seed": settings.first_seed}}
    journal = Journal(path, header, "labelled decisions")
    done = {(record["players"], record["seed"]) for _, record in journal.records}
    decisions = sum(len(record["decisions"]) for _, record in journal.records)
    try:
        for number in range(settings.games):
            players, seed = settings.game(number)
            if (players, seed) in done:
                continue
            found: list[dict] = []
            result = simulate(deal(OFFICIAL, players, seed), Labelling(seed, settings.samples, found.append), seed)
            journal.write({"players": players, "seed": seed, "won": result.won, "decisions": found})
            decisions += len(found)
            if progress is not None:
                progress(f"game {number + 1}/{settings.games}: {players} players, seed {seed}, {decisions} decisions")
    finally:
        journal.close()
    return decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, required=True, help="games to play, the player counts 2-5 in turn")
    parser.add_argument("--samples", type=int, default=12, help="the lookahead's worlds a round (default 12)")
    parser.add_argument("--first-seed", type=int, default=LABEL_SEEDS, help=f"the first deal (default {LABEL_SEEDS})")
    parser.add_argument("--out", required=True, help="the journal (JSON lines), resumed if it exists")
    args = parser.parse_args(argv)
    try:
        total = label_games(
            LabelSettings(args.games, args.samples, args.first_seed), args.out, lambda s: print(s, file=sys.stderr)
        )
    except BadInput as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
