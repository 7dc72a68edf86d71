"""tranquility-solver: rules engine, deals, lines and solver for the card game Tranquility.

The library's public API: every name a user needs imports from here, e.g.

    from tranquility.solver import OFFICIAL, Budget, deal, solve
    result = solve(deal(OFFICIAL, players=4, seed=1), Budget(seconds=10))

The names are loaded on first use, so that importing the package stays light (the CLI
imports it before it knows whether a command needs the solver). The layers below, each a
subpackage that imports only those under it (docs/architecture.md): ``engine`` (the rules)
<- ``formats`` (files and text) <- ``search`` (bounds, greedy, complete search, policies)
<- ``cpsat`` (the CP-SAT model) <- ``analysis`` (solve, explain, analyze, the moves, the board) <-
``batch`` (odds, bench); ``errors``, ``verdicts``, ``stop_signals`` and ``stats`` sit under them all.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# name -> the module that defines it (under tranquility.solver)
_API: dict[str, str] = {
    # the rules engine
    "Rules": "engine.rules",
    "RulesError": "engine.rules",
    "OFFICIAL": "engine.rules",
    "PRESETS": "engine.rules",
    "Card": "engine.cards",
    "START": "engine.cards",
    "FINISH": "engine.cards",
    "MONSTER": "engine.cards",
    "Action": "engine.actions",
    "PlayIsland": "engine.actions",
    "PlayStart": "engine.actions",
    "PlayFinish": "engine.actions",
    "PlayMonster": "engine.actions",
    "DiscardTwo": "engine.actions",
    "RocksMove": "engine.actions",
    "describe": "engine.actions",
    "Deal": "engine.deal",
    "DealError": "engine.deal",
    "deal": "engine.deal",
    "State": "engine.state",
    "Status": "engine.state",
    "IllegalAction": "engine.state",
    "Position": "engine.position",
    "PositionError": "engine.position",
    "Line": "engine.line",
    "Game": "engine.line",
    "as_line": "engine.line",
    "verify": "engine.verify",
    "Verification": "engine.verify",
    "position_after": "engine.verify",
    # files and text
    "FormatError": "formats.json_values",
    "read_game_file": "formats.reading",
    "deal_from_json": "formats.codecs",
    "deal_to_json": "formats.codecs",
    "line_from_json": "formats.codecs",
    "line_to_json": "formats.codecs",
    "position_from_json": "formats.position_forms",
    "position_to_json": "formats.position_forms",
    "position_from_text": "formats.position_forms",
    "position_to_text": "formats.position_forms",
    "parse_notation": "formats.notation",
    "write_notation": "formats.notation",
    "read_notation_file": "formats.notation",
    "rules_name": "formats.rules_text",
    "rules_json": "formats.rules_text",
    # silent play
    "simulate": "search.policies",
    "SimResult": "search.policies",
    "win_rate": "search.policies",
    "POLICIES": "search.policies",
    "Observation": "engine.observation",
    # solving and explaining
    "solve": "analysis.portfolio",
    "Budget": "search.budget",
    "Result": "analysis.results",
    "explain": "analysis.explain",
    "Explanation": "analysis.explain",
    "analyze": "analysis.analyze",
    "Analysis": "analysis.analyze",
    "fair_analysis": "analysis.fair",
    "FairAnalysis": "analysis.fair",
    "rank_moves": "analysis.ranking",
    "Ranking": "analysis.ranking",
    "RankedMove": "analysis.ranking",
    # many deals
    "OddsStore": "batch.odds_store",
    "run_odds": "batch.odds_runner",
    "summarise": "batch.odds_summary",
    # what every layer shares
    "BadInput": "errors",
    "InternalError": "errors",
    "Verdict": "verdicts",
    "Method": "verdicts",
    "Objective": "verdicts",
    "DecidedBy": "verdicts",
    "Proof": "verdicts",
    "__version__": "version",
}

__all__ = sorted(_API)


def __getattr__(name: str) -> Any:
    module = _API.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    if name != "__version__":
        globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_API))


if TYPE_CHECKING:  # the same names, for type checkers
    from .analysis.analyze import Analysis, analyze
    from .analysis.explain import Explanation, explain
    from .analysis.fair import FairAnalysis, fair_analysis
    from .analysis.portfolio import solve
    from .analysis.ranking import RankedMove, Ranking, rank_moves
    from .analysis.results import Result
    from .batch.odds_runner import run_odds
    from .batch.odds_store import OddsStore
    from .batch.odds_summary import summarise
    from .engine.actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayMonster, PlayStart, RocksMove, describe
    from .engine.cards import FINISH, MONSTER, START, Card
    from .engine.deal import Deal, DealError, deal
    from .engine.line import Game, Line, as_line
    from .engine.observation import Observation
    from .engine.position import Position, PositionError
    from .engine.rules import OFFICIAL, PRESETS, Rules, RulesError
    from .engine.state import IllegalAction, State, Status
    from .engine.verify import Verification, position_after, verify
    from .errors import BadInput, InternalError
    from .formats.codecs import deal_from_json, deal_to_json, line_from_json, line_to_json
    from .formats.json_values import FormatError
    from .formats.notation import parse_notation, read_notation_file, write_notation
    from .formats.position_forms import position_from_json, position_from_text, position_to_json, position_to_text
    from .formats.reading import read_game_file
    from .formats.rules_text import rules_json, rules_name
    from .search.budget import Budget
    from .search.policies import POLICIES, SimResult, simulate, win_rate
    from .verdicts import DecidedBy, Method, Objective, Proof, Verdict
    from .version import __version__
