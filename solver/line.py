"""A line of play: a deal and the actions played from it, in order."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .deal import Deal


@dataclass(frozen=True)
class Line:
    """A deal and the actions played from it; may stop before the end (a position)."""

    deal: Deal
    actions: tuple[Action, ...] = ()
