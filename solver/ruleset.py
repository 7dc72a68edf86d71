"""A rule set described for people and tools: its label (the preset it is, or ``custom``),
how it differs from the official rules, and the JSON ``tranquility rules --json`` prints."""

from __future__ import annotations

from typing import Any

from .rules import EXPLANATIONS, OFFICIAL, PRESETS, Rules


def rules_diff(rules: Rules, base: Rules = OFFICIAL) -> dict[str, Any]:
    """The keys of ``rules`` that differ from ``base`` (a partial rules object)."""
    mine, theirs = rules.to_dict(), base.to_dict()
    return {k: v for k, v in mine.items() if v != theirs[k]}


def rules_label(rules: Rules) -> str:
    """The preset's name when the rules are exactly a preset, else ``custom``."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def rules_json(rules: Rules) -> dict[str, Any]:
    """The rule set in force, each key explained, and every preset as its changes from the
    official rules (docs/rules.md)."""
    return {
        "label": rules_label(rules),
        "rules": rules.to_dict(),
        "explanations": dict(EXPLANATIONS),
        "presets": {name: rules_diff(preset) for name, preset in PRESETS.items()},
    }
