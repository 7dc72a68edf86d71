"""The work a front end asks for, each a plain function of the request's JSON body
answering the library's own JSON shape, the one the command's ``--json`` prints
(docs/cli.md), so a client gets from the server what it would get from the CLI: the long
work (``JOBS``, each run by a worker process of the server) with its budget and objective,
and the quick answers (a deal, the catalogue, the options a client may choose from).

The limits live here too, and ``options_json`` publishes them with the presets, the bots'
policies and the objectives, so that no client copies them by hand."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from tranquility.solver.engine.line import Line
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import Objective, Verdict

from .fields import MAX_INT, MAX_SEED, RequestError, field, integer, shown
from .source import named_game, replayed_of, seeded_deal
from .tasks import budget_of

SendProgress = Callable[[dict], None]

# Solver seconds a request may ask for, at most, and what it gets when it asks for none;
# a server started with a lower --job-cap lowers both to it (``cap_seconds``).
MAX_SECONDS = 30.0
DEFAULT_SECONDS = {"solve": 10.0, "moves": 5.0, "explain": 15.0, "analyze": 2.0, "hint": 2.0, "check": 2.0}
MAX_SAMPLES = 640  # analyze --fair: worlds per move (the default is 320)
LONG_KINDS = ("solve", "moves", "explain", "analyze", "verify")  # the jobs a client starts by name
BUDGET_KEYS = ("time_limit", "reproducible", "objective")  # what a request spends, and on what


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
        raise RequestError(f"time_limit: {limit}, not {shown(value)}")
    return float(value)


def request_budget(body: Mapping[str, Any], kind: str) -> Budget:
    """One CP-SAT thread: each worker process of the pool is one solve at a time. With
    ``reproducible``, the fixed budgets of ``--reproducible`` in place of seconds."""
    if field(body, "reproducible", bool, False):
        if "time_limit" in body:
            raise RequestError("reproducible and time_limit do not mix: fixed budgets replace seconds")
        return budget_of(None, 1, True)
    return budget_of(seconds_of(body, kind), 1, False)


def objective_of(body: Mapping[str, Any], default: Objective = Objective.ANY) -> Objective:
    value = field(body, "objective", str, str(default))
    try:
        return Objective(value)
    except ValueError:
        raise RequestError(f"objective: one of {', '.join(o.value for o in Objective)}, not {value!r:.60}") from None


def _step_json(step: Any) -> dict:
    """A library ``Step`` as the page shows it: the phase, what was found, seconds left."""
    until = getattr(step, "until", None)
    left = None if until is None else max(0.0, round(until - time.monotonic(), 1))
    return {"text": str(step), "phase": getattr(step, "phase", str(step)), "found": getattr(step, "found", None), "left": left}


# -- the long work, each run by a worker process -----------------------------------------------


def run_solve(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``solve --json``."""
    from tranquility.solver.analysis.portfolio import solve

    game = replayed_of(body)
    return solve(game, request_budget(body, "solve"), objective=objective_of(body), progress=_told(progress)).to_json()


def run_moves(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``moves --json``."""
    from tranquility.solver.analysis.ranking import rank_moves

    return rank_moves(replayed_of(body), request_budget(body, "moves"), objective_of(body), _told(progress)).to_json()


def run_explain(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``explain --json``, its ``time_limit`` split as the command splits ``--time-limit``."""
    from .tasks import explained

    total = seconds_of(body, "explain")
    return explained(replayed_of(body), objective_of(body, Objective.SPARE), total, progress=_told(progress)).to_json()


def run_analyze(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """``analyze --json`` (each position ``time_limit`` seconds); with ``fair``,
    ``analyze --fair --json``: ``{"perfect", "fair"}`` (``samples``, ``turns``, ``sim_seed``)."""
    from tranquility.solver.analysis.analyze import analyze

    from .tasks import fair_of

    analysis = analyze(replayed_of(body), request_budget(body, "analyze"), _told(progress))
    if not field(body, "fair", bool, False):
        return analysis.to_json()
    return fair_of(analysis, *_fair_options(body), _told(progress)).to_json()


def _fair_options(body: Mapping[str, Any]) -> tuple[int, int, int]:
    """``analyze --fair``'s turns, worlds per move and seed."""
    from tranquility.solver.analysis.fair import DEFAULT_TURNS, FAIR_SAMPLES

    field(body, "fair", bool, False)
    samples = integer(body, "samples", 1, MAX_SAMPLES, FAIR_SAMPLES)
    return integer(body, "turns", 0, MAX_INT, DEFAULT_TURNS), samples, integer(body, "sim_seed", 0, MAX_SEED, 0)


def job_kind(body: Mapping[str, Any]) -> str:
    """A job's ``kind`` (one of LONG_KINDS), with every field it reads checked (``checked``)."""
    kind = field(body, "kind", str)
    if kind not in LONG_KINDS:
        raise RequestError(f"kind: one of {', '.join(LONG_KINDS)}, not {shown(kind)}")
    checked(kind, body)
    return kind


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
    win, the best next move; with ``card`` (a card of the hand), what to do with that card
    (``hints.card_hint``: its best cell, or that it should not be played now)."""
    from tranquility.solver.analysis.board import Board
    from tranquility.solver.formats.codecs import action_to_json
    from tranquility.solver.formats.notation import format_action

    from .hints import card_hint, hand_card

    board = Board.open(named_game(body).game)  # replayed once: an illegal action is refused here
    card = hand_card(body, board.state.hand)
    budget, objective = request_budget(body, "hint"), objective_of(body, board.objective)
    hint = board.hint(budget, objective)
    best = hint.best
    return {
        "verdict": hint.verdict,
        "method": hint.method,
        "seconds": round(hint.seconds, 3),
        "reason": hint.reason,
        "best": None if best is None else {"notation": format_action(best), "action": action_to_json(best)},
        "words": hint.words(),
        "card": None if card is None or board.over else card_hint(board, card, hint, budget, objective),
    }


def run_fair_hint(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """The fair hint at a table (``hints.fair_hint``): its body is ``hints.fair_job``'s,
    the seat's own observation and memory, which the server builds; no client sends it."""
    from .hints import fair_hint

    return fair_hint(body)


def run_check(body: Mapping[str, Any], progress: SendProgress) -> dict:
    """The check after a move (``play``'s): the positions solved that judging the last move
    takes, given the verdicts ``known`` by turn; every proven verdict by turn, what the
    last move did, the move that threw the win away and the last turn proven winnable."""
    from tranquility.solver.analysis.board import Board, Proofs

    board = Board.open(named_game(body).game)
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


# Every module the jobs use. A server's fork server imports them once for all its workers:
# numba among them, whole, before any thread of a worker could import it beside another.
MODULES = (
    "numba",
    "tranquility.app.hints",
    "tranquility.app.work",
    "tranquility.solver.analysis.analyze",
    "tranquility.solver.analysis.board",
    "tranquility.solver.analysis.explain",
    "tranquility.solver.analysis.fair",
    "tranquility.solver.analysis.improving",
    "tranquility.solver.analysis.portfolio",
    "tranquility.solver.analysis.ranking",
    "tranquility.solver.cpsat.ladder",
    "tranquility.solver.cpsat.run_model",
)


def preload(cap: float = MAX_SECONDS) -> None:
    """A worker's start: the server's ``--job-cap`` (``cap_seconds``), every module of
    ``MODULES`` imported and a small solve run, so that no job spends its time (or meets a
    cancel) importing OR-Tools or compiling the compiled core's functions (seconds, the
    first time in a process)."""
    import importlib

    from tranquility.solver.analysis.portfolio import solve
    from tranquility.solver.engine.deal import deal
    from tranquility.solver.engine.rules import PRESETS

    cap_seconds(cap)
    for module in MODULES:
        importlib.import_module(module)
    solve(deal(PRESETS["official"], 2, 0), Budget(seconds=10, workers=1))


JOBS: Mapping[str, Callable[[Mapping[str, Any], SendProgress], dict]] = {
    "solve": run_solve,
    "moves": run_moves,
    "explain": run_explain,
    "analyze": run_analyze,
    "verify": run_verify,
    "hint": run_hint,
    "check": run_check,
    "fair_hint": run_fair_hint,  # given a seat's observation and memory (hints.fair_job), not JSON
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


def explained_line(body: Mapping[str, Any]) -> tuple[Line, dict]:
    """``explanation`` (an ``explain --json`` document): the line it replays (the win, or
    the best reach) and the document, for ``explain --html``'s page."""
    from tranquility.solver.formats.codecs import line_from_json

    data = field(body, "explanation", dict)
    found = (data.get("line") or field(data, "reach", dict, {}).get("line")) if data else None
    if not isinstance(found, dict):
        raise RequestError("explanation: an explain --json document with a line (a win, or the best reach)")
    return line_from_json(found, "explanation.line"), data


def analysed_line(body: Mapping[str, Any]) -> tuple[Line, dict, dict | None]:
    """The line (the request's game, legal) with its ``perfect`` and ``fair`` analyses
    (``analyze --json``'s documents), for ``analyze --html``'s page."""
    line = replayed_of(body).line
    perfect, fair = field(body, "perfect", dict), field(body, "fair", dict)
    if perfect is None:
        raise RequestError("perfect: the analyze --json document of the line")
    return line, perfect, fair
