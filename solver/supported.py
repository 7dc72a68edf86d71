"""The rule sets the solvers cover: the engine plays every module, the solvers not yet all.

Kept apart from the CP-SAT model so that a solve that never reaches CP-SAT does not load
OR-Tools to ask."""

from __future__ import annotations

from .errors import BadInput
from .rules import Rocks
from .state import State


class UnsupportedRules(BadInput):
    """The solvers do not cover this rule set (modules that change the board)."""


def check_supported(state: State) -> None:
    rules = state.rules
    if rules.monsters:
        raise UnsupportedRules("the Sea Monsters module (monsters > 0) is not supported by the solver yet")
    if rules.rocks != Rocks.OFF:
        raise UnsupportedRules("the Jagged Rocks module (rocks on) is not supported by the solver yet")
