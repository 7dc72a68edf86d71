"""The game a request names, read and checked: never by a path on the server.

One of five forms: ``game`` (a deal, line or position file's JSON), ``text`` (any game
file's text: JSON, ``tq1 ...`` or the notation, whose ``deal-file`` header is refused: it
names a file on the server), ``position`` (a position's text or JSON form), ``puzzle`` (a
catalogue id) or ``seed`` with ``players`` (and ``rules``: a preset's name or a rules
object, ``rule``: an object of single keys, as ``--rules`` and ``--rule`` take them). The
board and the table a request opens are made here too, from the same forms."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game
from tranquility.solver.engine.rules import Rules

from .fields import MAX_INT, MAX_SEED, RequestError, field, integer

if TYPE_CHECKING:
    from tranquility.solver.analysis.board import Board
    from tranquility.solver.analysis.table import Seating
    from tranquility.solver.engine.verify import Replayed

GAME_KEYS = ("game", "text", "position", "puzzle", "seed")
SEEDED_KEYS = ("players", "rules", "rule")  # what a seeded deal takes besides its seed


@dataclass(frozen=True)
class Named:
    """The game a request names, and the catalogue puzzle it is, if it is one."""

    game: Game
    puzzle: str | None = None


def rules_of(body: Mapping[str, Any]) -> Rules:
    """``rules`` (a preset's name or a rules object, official by default) with ``rule``'s
    keys on top, as ``--rules`` and ``--rule`` make them; never a file."""
    from tranquility.solver.engine.rules import PRESETS

    spec = field(body, "rules", (str, dict), "official")
    if isinstance(spec, dict):
        rules = Rules.from_dict(spec)
    elif spec in PRESETS:
        rules = PRESETS[spec]
    else:
        raise RequestError(f"rules: a preset ({', '.join(PRESETS)}) or a rules object, not {spec!r:.60}")
    overrides = field(body, "rule", dict, {})
    for key in overrides:
        field(overrides, key, (str, int, bool), name=f"rule.{key}")  # a value as --rule KEY=VALUE takes it
    return rules_with(rules, [(key, str(value)) for key, value in overrides.items()])


def rules_with(rules: Rules, overrides: Iterable[tuple[str, str]]) -> Rules:
    """``rules`` with each ``(KEY, VALUE)`` set, the value read as ``--rule KEY=VALUE`` reads
    it (RulesError naming the key otherwise): the command's ``--rule`` and a request's ``rule``."""
    from tranquility.solver.engine.rules import parse_rule_value

    return rules.with_options({key: parse_rule_value(key, value) for key, value in overrides})


def named_game(body: Mapping[str, Any]) -> Named:
    """The game the request names (module docstring), read but not yet replayed."""
    given = [key for key in GAME_KEYS if key in body]
    if len(given) != 1:
        raise RequestError(f"give one of {', '.join(GAME_KEYS)} (seed with players), not {' and '.join(given) or 'none'}")
    extra = [key for key in SEEDED_KEYS if key in body]
    if given[0] != "seed" and extra:  # as --rules and --rule shape new deals only
        raise RequestError(f"{extra[0]}: only a seeded deal takes {', '.join(SEEDED_KEYS)}; a {given[0]} carries its own")
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


def replayed_of(body: Mapping[str, Any]) -> Replayed:
    """The game the request names, replayed once, when its deal and every action follow the
    rules: else BadInput with the message the CLI gives (the turn, the action, the rule)."""
    from tranquility.solver.engine.verify import replayed

    return replayed(named_game(body).game)


def board_of(body: Mapping[str, Any]) -> Board:
    """A board at the end of the game the request names (replayed once, as it is opened);
    a catalogue puzzle's board knows its goal (``puzzle_board``)."""
    from tranquility.solver.analysis.board import Board

    named = named_game(body)
    return Board.open(named.game) if named.puzzle is None else puzzle_board(named.puzzle)


def puzzle_board(puzzle_id: str) -> Board:
    """A catalogue puzzle's board, at its deal: it knows its goal (its id, its grade, its
    solution's spare cards). An unknown id is BadInput (``tranquility puzzles`` lists them)."""
    from tranquility.puzzles import shipped
    from tranquility.solver.analysis.board import Board, Goal

    found, deal = shipped.entry(puzzle_id), shipped.puzzle(puzzle_id)
    return Board.open(deal, Goal.of(found.id, found.grade, shipped.solution(found.id), deal))


def seating_of(body: Mapping[str, Any]) -> Seating:
    """``seat`` (0 by default), ``bots`` (a policy, tuned by default) and ``bot_seed``."""
    from tranquility.solver.analysis.table import Seating

    bots = field(body, "bots", str, "tuned")
    return Seating(integer(body, "seat", 0, MAX_INT, 0), bots, integer(body, "bot_seed", 0, MAX_SEED, 0))
