"""tranquility-solver: rules engine, deals, lines and solver for the card game Tranquility.

The library's public API: every name a user needs imports from here, e.g.

    from tranquility.solver import OFFICIAL, Budget, deal, solve
    result = solve(deal(OFFICIAL, players=4, seed=1), Budget(seconds=10))

The names are loaded on first use, so that importing the package stays light (the CLI
imports it before it knows whether a command needs the solver). The layers below, each a
subpackage that imports only those under it (docs/architecture.md): ``engine`` (the rules)
<- ``formats`` (files and text) <- ``search`` (bounds, greedy, complete search, policies)
<- ``cpsat`` (the CP-SAT model) <- ``analysis`` (solve, explain, analyze, the board) <-
``batch`` (odds, bench); ``errors`` and ``verdicts`` sit under them all.
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
    "Observation": "search.policies",
    # solving and explaining
    "solve": "analysis.solve",
    "Budget": "search.budget",
    "Result": "analysis.solve",
    "explain": "analysis.explain",
    "Explanation": "analysis.explain",
    "analyze": "analysis.analyze",
    "Analysis": "analysis.analyze",
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


if TYPE_CHECKING:  # the same names, for type checkers (X as X: re-exported)
    from .analysis.analyze import (
        Analysis as Analysis,
    )
    from .analysis.analyze import (
        analyze as analyze,
    )
    from .analysis.explain import (
        Explanation as Explanation,
    )
    from .analysis.explain import (
        explain as explain,
    )
    from .analysis.solve import (
        Budget as Budget,
    )
    from .analysis.solve import (
        Result as Result,
    )
    from .analysis.solve import (
        solve as solve,
    )
    from .batch.odds_runner import (
        run_odds as run_odds,
    )
    from .batch.odds_store import (
        OddsStore as OddsStore,
    )
    from .batch.odds_summary import (
        summarise as summarise,
    )
    from .engine.actions import (
        Action as Action,
    )
    from .engine.actions import (
        DiscardTwo as DiscardTwo,
    )
    from .engine.actions import (
        PlayFinish as PlayFinish,
    )
    from .engine.actions import (
        PlayIsland as PlayIsland,
    )
    from .engine.actions import (
        PlayMonster as PlayMonster,
    )
    from .engine.actions import (
        PlayStart as PlayStart,
    )
    from .engine.actions import (
        RocksMove as RocksMove,
    )
    from .engine.actions import (
        describe as describe,
    )
    from .engine.cards import (
        FINISH as FINISH,
    )
    from .engine.cards import (
        MONSTER as MONSTER,
    )
    from .engine.cards import (
        START as START,
    )
    from .engine.cards import (
        Card as Card,
    )
    from .engine.deal import (
        Deal as Deal,
    )
    from .engine.deal import (
        DealError as DealError,
    )
    from .engine.deal import (
        deal as deal,
    )
    from .engine.line import (
        Game as Game,
    )
    from .engine.line import (
        Line as Line,
    )
    from .engine.line import (
        as_line as as_line,
    )
    from .engine.position import (
        Position as Position,
    )
    from .engine.position import (
        PositionError as PositionError,
    )
    from .engine.rules import (
        OFFICIAL as OFFICIAL,
    )
    from .engine.rules import (
        PRESETS as PRESETS,
    )
    from .engine.rules import (
        Rules as Rules,
    )
    from .engine.rules import (
        RulesError as RulesError,
    )
    from .engine.state import (
        IllegalAction as IllegalAction,
    )
    from .engine.state import (
        State as State,
    )
    from .engine.state import (
        Status as Status,
    )
    from .engine.verify import (
        Verification as Verification,
    )
    from .engine.verify import (
        position_after as position_after,
    )
    from .engine.verify import (
        verify as verify,
    )
    from .errors import (
        BadInput as BadInput,
    )
    from .errors import (
        InternalError as InternalError,
    )
    from .formats.codecs import (
        deal_from_json as deal_from_json,
    )
    from .formats.codecs import (
        deal_to_json as deal_to_json,
    )
    from .formats.codecs import (
        line_from_json as line_from_json,
    )
    from .formats.codecs import (
        line_to_json as line_to_json,
    )
    from .formats.json_values import (
        FormatError as FormatError,
    )
    from .formats.notation import (
        parse_notation as parse_notation,
    )
    from .formats.notation import (
        read_notation_file as read_notation_file,
    )
    from .formats.notation import (
        write_notation as write_notation,
    )
    from .formats.position_forms import (
        position_from_json as position_from_json,
    )
    from .formats.position_forms import (
        position_from_text as position_from_text,
    )
    from .formats.position_forms import (
        position_to_json as position_to_json,
    )
    from .formats.position_forms import (
        position_to_text as position_to_text,
    )
    from .formats.reading import (
        read_game_file as read_game_file,
    )
    from .formats.rules_text import (
        rules_json as rules_json,
    )
    from .formats.rules_text import (
        rules_name as rules_name,
    )
    from .search.policies import (
        POLICIES as POLICIES,
    )
    from .search.policies import (
        Observation as Observation,
    )
    from .search.policies import (
        SimResult as SimResult,
    )
    from .search.policies import (
        simulate as simulate,
    )
    from .search.policies import (
        win_rate as win_rate,
    )
    from .verdicts import (
        DecidedBy as DecidedBy,
    )
    from .verdicts import (
        Method as Method,
    )
    from .verdicts import (
        Objective as Objective,
    )
    from .verdicts import (
        Proof as Proof,
    )
    from .verdicts import (
        Verdict as Verdict,
    )
    from .version import (
        __version__ as __version__,
    )
