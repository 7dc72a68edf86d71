"""The rule sets each solver covers. The rules engine plays every module and so do the
refutations, the greedy player and the complete search; the CP-SAT model covers what
``model_covers`` says.

Kept apart from the CP-SAT model so that a solve that never reaches CP-SAT does not load
OR-Tools to ask."""

from __future__ import annotations

from dataclasses import replace

from .errors import BadInput
from .rules import Rocks, Rules
from .state import State


class UnsupportedRules(BadInput):
    """The CP-SAT model does not cover this rule set (a module it does not encode yet)."""


def model_covers(rules: Rules) -> bool:
    """True when the CP-SAT model encodes every rule of ``rules``: it encodes every rule
    option and every module (Islands, Sea Monsters, Jagged Rocks auto and manual, and
    their combinations; docs/model.md)."""
    del rules  # every rule set the engine accepts
    return True


def uncovered_module(rules: Rules) -> str | None:
    """The module of ``rules`` the CP-SAT model does not cover, in words, or None."""
    if model_covers(rules):
        return None
    # Each module on its own, so that the message names only the one(s) not covered.
    modules = []
    if rules.monsters and not model_covers(replace(rules, rocks=Rocks.OFF)):
        modules.append("the Sea Monsters module (monsters > 0)")
    if rules.rocks != Rocks.OFF and not model_covers(replace(rules, monsters=0)):
        modules.append(f"the Jagged Rocks module (rocks={rules.rocks})")
    return " and ".join(modules) or "these modules together"


def check_supported(state: State) -> None:
    """UnsupportedRules unless the CP-SAT model covers the position's rules: the model
    checks it, and so does everything that needs the model (``--method cpsat``; grade and
    odds, which rely on the whole portfolio)."""
    module = uncovered_module(state.rules)
    if module is not None:
        raise UnsupportedRules(
            f"the CP-SAT model does not cover {module} yet; --method search and --method auto solve it"
        )
