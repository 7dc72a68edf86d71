"""Golden playthroughs: for every rule preset, one seeded deal played to its end by a fixed
policy, the whole game in the notation (as ``tranquility verify --notation`` writes it) and
how it ended as its last comment. A change to the rules engine, the dealer, a
policy or the notation shows here as a diff of a game a person can read.

Regenerate them (after checking the change is wanted) with
``TRANQUILITY_UPDATE_GOLDEN=1 python -m pytest tests/test_playthroughs.py``."""

from __future__ import annotations

import pytest
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.notation import parse_notation, write_notation
from tranquility.solver.search.policies import simulate

from .cli.test_cli import check_golden

SEED, PLAYERS, POLICY = 3, 3, "thrifty"  # thrifty decides by the rules alone: no sim seed, no weights file


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_playthrough_of_each_preset_is_its_golden(preset):
    game = simulate(deal(PRESETS[preset], PLAYERS, SEED), POLICY, 0)
    verdict = verify(game.line)
    assert verdict.legal
    text = write_notation(game.line) + f"# {POLICY}: {'won' if game.won else 'lost'} after {game.turns} turn(s)\n"
    check_golden(f"playthroughs/{preset}.tq", text)
    assert parse_notation(text).actions == game.line.actions
