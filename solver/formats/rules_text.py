"""A rule set described for people and tools: its name (the nearest preset and the keys that
differ from it), its label (the preset it is, or ``custom``), how it differs from the
official rules, and the JSON ``tranquility rules --json`` prints."""

from __future__ import annotations

from typing import Any

from tranquility.solver.engine.rules import EXPLANATIONS, PRESETS, Rules, nearest_preset, rules_diff


def rules_label(rules: Rules) -> str:
    """The preset's name when the rules are exactly a preset, else ``custom`` (the JSON
    ``label``; people read ``rules_name``)."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def rules_name(rules: Rules) -> str:
    """The rule set for people: the nearest preset and the keys that differ from it,
    ``hungarian + monsters=4`` (just ``hungarian`` for the preset itself)."""
    name, changes = nearest_preset(rules)
    if not changes:
        return name
    return name + " + " + " ".join(f"{k}={v}" for k, v in changes.items())


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rule set in force, each key explained, and every preset as its changes from the
    official rules (docs/rules.md)."""
    return {
        "label": rules_label(rules),
        "rules": rules.to_dict(),
        "explanations": dict(EXPLANATIONS),
        "presets": {name: rules_diff(preset) for name, preset in PRESETS.items()},
    }
