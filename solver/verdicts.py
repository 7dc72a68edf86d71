"""What a solve can conclude, how it may decide and what it optimises: the solver's kinds,
below every solver module so that search, CP-SAT, explain and the CLI share them."""

from __future__ import annotations

from enum import StrEnum


class Verdict(StrEnum):
    """What is provable about a position (not what the rules say now: that is ``Status``)."""

    WIN = "win"  # with a line the rules engine has replayed
    NO_WIN = "no-win"  # proven
    UNKNOWN = "unknown"  # the budget ran out first


class Method(StrEnum):
    """How a solve may decide (``--method``)."""

    AUTO = "auto"  # the portfolio: refutations, greedy, the complete search, CP-SAT
    SEARCH = "search"  # greedy, then the complete search only
    CPSAT = "cpsat"  # the CP-SAT model only


class DecidedBy(StrEnum):
    """Which part of the portfolio produced a result (``method`` in the JSON)."""

    REFUTE = "refute"
    GREEDY = "greedy"
    EXHAUSTIVE = "exhaustive"
    CPSAT = "cpsat"
    REPLAY = "replay"  # the line given has already won
    TIMEOUT = "timeout"
    INTERRUPTED = "interrupted"
    IMPLIED = "implied"  # analyze: a later position of a line whose earlier one is lost


class Objective(StrEnum):
    """Which win is best (``--objective``)."""

    ANY = "any"  # the first win found
    SPARE = "spare"  # most cards left in hands and piles at the win
    TURNS = "turns"  # fewest turns
    COST = "cost"  # fewest cards paid as placement costs


class Proof(StrEnum):
    """How each step of the restricted-horizon ladder is decided (``--proof``)."""

    WHOLE = "whole"  # one CP-SAT run over the step's model: proves more over the optimal suite
    START_SLOT = "start-slot"  # one CP-SAT run per turn the Start may be played in
    BOTH = "both"  # the two side by side, one CP-SAT worker each: the first answer is the step's
