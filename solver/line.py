"""A line of play: where it starts (a deal, or a position) and the actions played from there."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .actions import Action
from .deal import Deal

if TYPE_CHECKING:
    from .position import Position


@dataclass(frozen=True)
class Line:
    """A deal and the actions played from it, in order; it may stop before the end. The
    deal may be one made for a position (``Deal.position``): the line starts there."""

    deal: Deal
    actions: tuple[Action, ...] = ()

    @property
    def position(self) -> Position | None:
        """The position the line starts from, or None when it starts from the deal as dealt."""
        return self.deal.position
