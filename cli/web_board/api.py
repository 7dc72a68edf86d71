"""What the served board answers, as plain functions of a request's JSON body: the game a
request names, and each piece of long work (``JOBS``) that a worker process runs. Every
answer is the library's own JSON shape, the one the command's ``--json`` prints
(docs/cli.md), so a client gets from the server what it would get from the CLI.

A request names its game in one of five ways, never by a path: ``game`` (a deal, line or
position file's JSON), ``text`` (any game file's text: JSON, ``tq1 ...`` or the notation,
whose ``deal-file`` header is refused: it names a file on the server), ``position`` (a
position's text or JSON form), ``puzzle`` (a catalogue id) or ``seed`` with ``players``
(and ``rules``: a preset's name or a rules object, ``rule``: an object of single keys).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, as_line
from tranquility.solver.errors import BadInput
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective, Verdict

SendProgress = Callable[[dict], None]

# Solver seconds a request may ask for, at most, and what it gets when it asks for none;
# a server started with a lower --job-cap lowers both to it (``cap_seconds``).
MAX_SECONDS = 30.0
DEFAULT_SECONDS = {"solve": 10.0, "moves": 5.0, "explain": 15.0, "analyze": 2.0, "hint": 2.0, "check": 2.0}
MAX_SAMPLES = 64  # analyze --fair: worlds per move
GAME_KEYS = ("game", "text", "position", "puzzle", "seed")
LONG_KINDS = ("solve", "moves", "explain", "analyze", "verify")  # the jobs a client starts by name


class RequestError(BadInput):
    """A request body the API cannot use (a missing or mistyped field): answered 400."""


@dataclass(frozen=True)
class Named:
    """The game a request names, and the catalogue puzzle it is, if it is one."""

    game: Game
    puzzle: str | None = None


def field(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None, name: str = "") -> Any:
    """``body[key]`` when it is of ``kind`` (``default`` when absent); else RequestError
    naming it (``name``, or ``key``), ``null`` included: a field is given a value or left out."""
    if key not in body:
        return default
    value = body[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind not in (bool, (bool,))):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise RequestError(f"{name or key}: expected {_KIND_WORDS.get(names, names)}, got {_shown(value)}")
    return value


def integer(body: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> Any:
    """``body[key]``, an integer from ``low`` to ``high`` (``default`` when absent)."""
    value = field(body, key, int, default)
    if value is not None and not low <= value <= high:
        raise RequestError(f"{key}: an integer from {low} to {high}, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    """A value as an error names it, in one short line (a huge number by its size)."""
    if value is None:
        return "null"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**18:
        return f"a number of {len(str(abs(value)))} digits"
    if isinstance(value, float) and not math.isfinite(value):
        return "a number too large to use"
    return f"{_JSON_NAMES.get(type(value).__name__, type(value).__name__)} {json.dumps(value)[:40]}"


_KIND_WORDS = {
    "str": "a string",
    "int": "an integer",
    "dict": "an object",
    "bool": "true or false",
    "list": "a list",
    "int or float": "a number",
    "str or int or bool": "a string, a number or true or false",
    "str or dict": "a string or an object",
    "dict or str": "an object or a string",
}
_JSON_NAMES = {"str": "string", "int": "integer", "float": "number", "dict": "object", "list": "list", "bool": "boolean"}
MAX_SEED = 2**64 - 1  # the dealer's seeds, as deal --seed takes them
MAX_INT = 2**31 - 1  # any other count or seed a request gives


def cap_seconds(cap: float) -> None:
    """The server's ``--job-cap``, when below MAX_SECONDS, as every request's limit and the
    most any default gives; set once, before the worker processes are started."""
    global MAX_SECONDS
    MAX_SECONDS = min(MAX_SECONDS, cap)
    DEFAULT_SECONDS.update({kind: min(seconds, MAX_SECONDS) for kind, seconds in DEFAULT_SECONDS.items()})


def seconds_of(body: Mapping[str, Any], kind: str) -> float:
    """The request's ``time_limit`` (positive, finite, at most MAX_SECONDS), or the default."""
    value = field(body, "time_limit", (int, float), DEFAULT_SECONDS[kind])
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        limit = f"give seconds above 0 and at most {MAX_SECONDS:g} (this server's limit)"
        raise RequestError(f"time_limit: {limit}, not {_shown(value)}")
    return float(value)


def request_budget(body: Mapping[str, Any], kind: str) -> Budget:
    """One CP-SAT thread: each worker process of the pool is one solve at a time. With
    ``reproducible``, the fixed budgets of ``--reproducible`` in place of seconds."""
    if field(body, "reproducible", bool, False):
        if "time_limit" in body:
            raise RequestError("reproducible and time_limit do not mix: fixed budgets replace seconds")
        return Budget(reproducible=True, workers=1)
    return Budget(seconds=seconds_of(body, kind), workers=1)


def objective_of(body: Mapping[str, Any], default: Objective = Objective.ANY) -> Objective:
    value = field(body, "objective", str, str(default))
    try:
        return Objective(value)
    except ValueError:
        raise RequestError(f"objective: one of {', '.join(o.value for o in Objective)}, not {value!r}") from None


def rules_of(body: Mapping[str, Any]):
    """``rules`` (a preset's name or a rules object, official by default) with ``rule``'s
    keys on top, as ``--rules`` and ``--rule`` make them; never a file."""
    from tranquility.solver.engine.rules import PRESETS, Rules, parse_rule_value

    spec = field(body, "rules", (str, dict), "official")
    if isinstance(spec, dict):
        rules = Rules.from_dict(spec)
    elif spec in PRESETS:
        rules = PRESETS[spec]
    else:
        raise RequestError(f"rules: a preset ({', '.join(PRESETS)}) or a rules object, not {spec!r}")
    overrides = field(body, "rule", dict, {})
    for key in overrides:
        field(overrides, key, (str, int, bool), name=f"rule.{key}")  # a value as --rule KEY=VALUE takes it
    return rules.with_options({key: parse_rule_value(key, str(value)) for key, value in overrides.items()})


def named_game(body: Mapping[str, Any]) -> Named:
    """The game the request names (module docstring), read but not yet replayed."""
    given = [key for key in GAME_KEYS if key in body]
    if len(given) != 1:
        raise RequestError(f"give one of {', '.join(GAME_KEYS)} (seed with players), not {' and '.join(given) or 'none'}")
    match given[0]:
        case "game":
            from tranquility.solver.formats.codecs import game_from_json

            return Named(game_from_json(field(body, "game", dict), "game"))
        case "text":
            return Named(_game_from_text(field(body, "text", str)))
        case "position":
            from tranquility.solver.formats.position_forms import position_from_any

            return Named(position_from_any(field(body, "position", str)))
        case "puzzle":
            from tranquility.puzzles import shipped

            puzzle_id = field(body, "puzzle", str)
            return Named(shipped.puzzle(puzzle_id), puzzle_id)
    return Named(seeded_deal(body))


def seeded_deal(body: Mapping[str, Any]) -> Deal:
    """``seed`` and ``players`` (with ``rules`` and ``rule``): a fresh seeded deal."""
    from tranquility.solver.engine.deal import deal

    seed, players = integer(body, "seed", 0, MAX_SEED), integer(body, "players", 1, MAX_INT)
    if seed is None or players is None:
        raise RequestError("a seeded deal needs both seed and players")
    return deal(rules_of(body), players, seed)


def _game_from_text(text: str) -> Game:
    from tranquility.solver.formats.notation import looks_like_notation, notation_deal_file
    from tranquility.solver.formats.reading import game_from_text

    if looks_like_notation(text) and notation_deal_file(text, "text") is not None:
        raise RequestError("text: a game sent to the server cannot name a deal file (deal-file): send the deal file's JSON")
    return game_from_text(text, "text")


def legal_game(body: Mapping[str, Any]) -> Game:
    """The game the request names, when its deal and every action follow the rules: else
    BadInput with the message the CLI gives (the turn, the action, the rule)."""
    from tranquility.solver.engine.verify import replayed

    game = named_game(body).game
    replayed(game)
    return game


def _step_json(step: Any) -> dict:
    """A library ``Step`` as the page shows it: the phase, what was found, seconds left."""
    until = getattr(step, "until", None)
    left = None if until is None else max(0.0, round(until - time.monotonic(), 1))
    return {"text": str(step), "phase": getattr(step, "phase", str(step)), "found": getattr(step, "found", None), "left": left}


# -- the long work, each run by a worker process -----------------------------------------------


def run_solve(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``solve --json``."""
    from tranquility.solver.analysis.portfolio import solve

    game = legal_game(body)
    return solve(game, request_budget(body, "solve"), objective=objective_of(body), progress=_told(progress)).to_json()


def run_moves(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``moves --json``."""
    from tranquility.solver.analysis.ranking import rank_moves

    return rank_moves(legal_game(body), request_budget(body, "moves"), objective_of(body), _told(progress)).to_json()


def run_explain(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``explain --json``: the line gets two thirds of ``time_limit``, the critical-move
    checks the rest, as the command shares its default."""
    from tranquility.solver.analysis.explain import explain

    total = seconds_of(body, "explain")
    game = legal_game(body)
    budget = Budget(seconds=total * 2 / 3, workers=1)
    explained = explain(game, objective_of(body, Objective.SPARE), budget, total / 3, _told(progress), total)
    return explained.to_json()


def run_analyze(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``analyze --json`` (each position ``time_limit`` seconds); with ``fair``,
    ``analyze --fair --json``: ``{"perfect", "fair"}`` (``samples``, ``turns``, ``sim_seed``)."""
    from tranquility.solver.analysis.analyze import analyze

    line = as_line(legal_game(body))
    analysis = analyze(line, request_budget(body, "analyze"), _told(progress))
    if not field(body, "fair", bool, False):
        return analysis.to_json()
    from tranquility.solver.analysis.fair import fair_analysis

    turns, samples, seed = _fair_options(body)
    return fair_analysis(analysis, turns, samples, seed, _told(progress)).to_json()


def _fair_options(body: Mapping[str, Any]) -> tuple[int, int, int]:
    """``analyze --fair``'s turns, worlds per move and seed."""
    from tranquility.solver.analysis.fair import DEFAULT_TURNS, FAIR_SAMPLES

    field(body, "fair", bool, False)
    samples = integer(body, "samples", 1, MAX_SAMPLES, FAIR_SAMPLES)
    return integer(body, "turns", 0, MAX_INT, DEFAULT_TURNS), samples, integer(body, "sim_seed", 0, MAX_SEED, 0)


def checked(kind: str, body: Mapping[str, Any]) -> None:
    """Every field of a job's request read, so that a bad one is a 400 before the job
    starts rather than an error event after."""
    named_game(body)
    if kind == "explain":
        seconds_of(body, kind)
    elif kind != "verify":
        request_budget(body, kind)
    if kind != "verify":
        objective_of(body)
    if kind == "analyze":
        _fair_options(body)


def run_verify(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``verify --json``: a game that breaks a rule is an answer (legal false), not an error."""
    from tranquility.solver.engine.verify import verify

    return verify(named_game(body).game).to_json()


def run_hint(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """The board's hint (``play``'s): the position solved, its verdict in words and, for a
    win, the best next move."""
    from tranquility.solver.analysis.board import Board
    from tranquility.solver.formats.codecs import action_to_json
    from tranquility.solver.formats.notation import format_action

    board = Board.open(legal_game(body))
    hint = board.hint(request_budget(body, "hint"), objective_of(body, board.objective))
    best = hint.best
    return {
        "verdict": hint.verdict,
        "method": hint.method,
        "seconds": round(hint.seconds, 3),
        "reason": hint.reason,
        "best": None if best is None else {"notation": format_action(best), "action": action_to_json(best)},
        "words": hint.words(),
    }


def run_check(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """The check after a move (``play``'s): the positions solved that judging the last move
    takes, given the verdicts ``known`` by turn; every proven verdict by turn, what the
    last move did, the move that threw the win away and the last turn proven winnable."""
    from tranquility.solver.analysis.board import Board, Proofs

    board = Board.open(legal_game(body))
    proofs = Proofs({board.line_at(turn): verdict for turn, verdict in _known(body, board.turn)})
    proofs = proofs.check(board, request_budget(body, "check"))
    verdicts = {str(t): proofs.at(board, t) for t in range(board.turn + 1) if proofs.at(board, t) is not None}
    judgement = proofs.judge(board)
    last = f"the last move (turn {board.turn})"
    return {
        "verdicts": verdicts,
        "judgement": judgement,
        "words": None if judgement is None else judgement.words(last),
        "thrown_at": proofs.thrown_at(board),
        "last_winnable": proofs.last_winnable(board),
    }


def _known(body: Mapping[str, Any], turns: int) -> list[tuple[int, Verdict]]:
    """``known``: {turn: "win" or "no-win"} for turns 0..``turns``, proven earlier."""
    found = []
    for turn, verdict in field(body, "known", dict, {}).items():
        if not (str(turn).isdigit() and int(turn) <= turns and verdict in (Verdict.WIN, Verdict.NO_WIN)):
            raise RequestError(f"known: {{turn: verdict}} with turns 0..{turns} and win or no-win, not {turn!r}: {verdict!r}")
        found.append((int(turn), Verdict(verdict)))
    return found


def _told(progress: SendProgress) -> Callable[[Any], None]:
    return lambda step: progress(_step_json(step))


JOBS: Mapping[str, Callable[[Mapping[str, Any], SendProgress], dict]] = {
    "solve": run_solve,
    "moves": run_moves,
    "explain": run_explain,
    "analyze": run_analyze,
    "verify": run_verify,
    "hint": run_hint,
    "check": run_check,
}


def deal_json(body: Mapping[str, Any]) -> dict:
    """``deal --json``: the deal file of a seeded deal."""
    from tranquility.solver.formats.codecs import deal_to_json

    return deal_to_json(seeded_deal(body))


def puzzles_json(body: Mapping[str, Any]) -> list[dict]:
    """``puzzles --json``: the catalogue filtered by ``players``, ``grade`` and ``preset``."""
    from tranquility.puzzles.listing import listing

    found = listing(integer(body, "players", 1, MAX_INT), integer(body, "grade", 0, MAX_INT), field(body, "preset", str))
    return [p.to_json() for p in found]


def options_json() -> dict:
    """What a client may ask for, as the server takes it: the rules presets, the bots'
    policies, the objectives, the long jobs and the limits (``GET /api/options``)."""
    from tranquility.solver.engine.rules import PRESETS
    from tranquility.solver.search.lookahead import SIMULATE_POLICIES

    return {
        "presets": list(PRESETS),
        "policies": list(SIMULATE_POLICIES),
        "objectives": [o.value for o in Objective],
        "kinds": list(LONG_KINDS),
        "limits": {"max_seconds": MAX_SECONDS, "default_seconds": DEFAULT_SECONDS, "max_samples": MAX_SAMPLES},
    }
