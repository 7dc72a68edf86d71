"""Deal and line files (docs/formats.md): ``tranquility-deal/1`` and ``tranquility-line/1``
(a line starts from a deal or from a position, ``tranquility-position/1``:
``formats.position_forms``).

Reading checks the format only (types, keys); whether the cards and actions obey the
rules is the rules engine's job (``Deal.check``, ``State.apply``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, assert_never

from tranquility.solver.engine.actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayMonster, PlayStart, RocksMove
from tranquility.solver.engine.cards import FINISH, MONSTER, START, is_island
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import MAX_PLAYERS, Rules, RulesError
from tranquility.solver.formats.json_values import (
    FormatError,
    cards_from_json,
    int_from_json,
    object_from_json,
)
from tranquility.solver.formats.position_forms import POSITION_FORMAT, position_from_json, position_to_json
from tranquility.solver.formats.puzzle_tag import PuzzleTag

DEAL_FORMAT = "tranquility-deal/1"


LINE_FORMAT = "tranquility-line/1"


def deal_from_json(data: Any, where: str = "deal") -> Deal:
    data = object_from_json(data, where)
    if data.get("format") != DEAL_FORMAT:
        raise FormatError(f"{where}.format: expected {DEAL_FORMAT!r}, got {data.get('format')!r}")
    try:
        rules = Rules.from_dict(object_from_json(data.get("rules", {}), f"{where}.rules"))
    except RulesError as exc:
        raise FormatError(f"{where}.rules: {exc}") from None
    if "piles" not in data:
        raise FormatError(f"{where}: missing key 'piles'")
    piles = data["piles"]
    if not isinstance(piles, list):
        raise FormatError(f"{where}.piles: must be a list of piles")
    if not 1 <= len(piles) <= MAX_PLAYERS:
        raise FormatError(f"{where}.piles: one pile per seat, 1 to {MAX_PLAYERS} seats; got {len(piles)}")
    parsed = tuple(cards_from_json(p, f"{where}.piles[{i}]") for i, p in enumerate(piles))
    for i, pile in enumerate(parsed):
        if len(pile) < rules.hand + 1:
            raise FormatError(
                f"{where}.piles[{i}]: {len(pile)} cards is too short for an opening hand of "
                f"{rules.hand} (rule 'hand') and a Start card"
            )
    seed = data.get("seed")
    if seed is not None:
        seed = int_from_json(seed, f"{where}.seed")
    rocks_row = data.get("rocks_row")
    if rocks_row is not None:
        rocks_row = int_from_json(rocks_row, f"{where}.rocks_row")
    rolls = data.get("rocks_rolls", [])
    if not isinstance(rolls, list):
        raise FormatError(f"{where}.rocks_rolls: must be a list of integers")
    dealer = data.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        raise FormatError(f"{where}.dealer: must be a string")
    removed = data.get("removed_islands", [])
    if not isinstance(removed, list):
        raise FormatError(f"{where}.removed_islands: must be a list of islands")
    return Deal(
        rules=rules,
        piles=parsed,
        seed=seed,
        removed_islands=tuple(int_from_json(v, f"{where}.removed_islands[{i}]", 1) for i, v in enumerate(removed)),
        rocks_row=rocks_row,
        rocks_rolls=tuple(int_from_json(v, f"{where}.rocks_rolls[{i}]") for i, v in enumerate(rolls)),
        dealer=dealer,
    )


def deal_to_json(deal: Deal) -> dict[str, Any]:
    """A deal file's data."""
    data: dict[str, Any] = {"format": DEAL_FORMAT, "dealer": deal.dealer, "seed": deal.seed}
    data["rules"] = deal.rules.to_dict()
    data["piles"] = [list(p) for p in deal.piles]
    data["removed_islands"] = list(deal.removed_islands)
    data["rocks_row"] = deal.rocks_row
    data["rocks_rolls"] = list(deal.rocks_rolls)
    return data


_ACTION_KEYS = {"seat", "play", "cell", "discard", "team_discard", "rocks", "rocks_discard"}


def action_from_json(data: Any, where: str) -> Action:
    data = object_from_json(data, where)
    for key in data:
        if key not in _ACTION_KEYS:
            raise FormatError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(_ACTION_KEYS))})")
    if "seat" not in data:
        raise FormatError(f"{where}: missing key 'seat'")
    seat = int_from_json(data["seat"], f"{where}.seat")
    rocks = _rocks_from_json(data, where)
    play = data.get("play")
    if "play" in data and play is None:
        raise FormatError(f"{where}.play: must be a card; leave 'play' out for a discard-two")

    def allowed(*keys: str) -> None:
        extra = set(data) - {"seat", "play", "rocks", "rocks_discard", *keys}
        if extra:
            kind = "discard-two" if play is None else f"play {play!r}"
            raise FormatError(f"{where}: key {sorted(extra)[0]!r} does not belong to a {kind} action")

    if play is None:
        allowed("discard")
        if "discard" not in data:
            raise FormatError(f"{where}: an action needs 'play' or 'discard'")
        return DiscardTwo(seat=seat, discard=cards_from_json(data["discard"], f"{where}.discard"), rocks=rocks)
    if is_island(play):
        allowed("cell", "discard")
        if "cell" not in data:
            raise FormatError(f"{where}: an island play needs 'cell'")
        return PlayIsland(
            seat=seat,
            card=play,
            cell=int_from_json(data["cell"], f"{where}.cell"),
            discard=cards_from_json(data.get("discard", []), f"{where}.discard"),
            rocks=rocks,
        )
    if play == START:
        allowed("team_discard")
        split = data.get("team_discard")
        if not isinstance(split, list):
            raise FormatError(f"{where}.team_discard: a Start play needs one list of cards per seat")
        return PlayStart(
            seat=seat,
            team_discard=tuple(cards_from_json(d, f"{where}.team_discard[{i}]") for i, d in enumerate(split)),
            rocks=rocks,
        )
    if play == FINISH:
        allowed()
        return PlayFinish(seat=seat, rocks=rocks)
    if play == MONSTER:
        allowed("cell")
        if "cell" not in data:
            raise FormatError(f"{where}: a Sea Monster play needs 'cell'")
        return PlayMonster(seat=seat, cell=int_from_json(data["cell"], f"{where}.cell"), rocks=rocks)
    raise FormatError(f"{where}.play: {play!r} is not a card")


def _rocks_from_json(data: dict, where: str) -> RocksMove | None:
    if "rocks" not in data:
        if "rocks_discard" in data:
            raise FormatError(f"{where}: 'rocks_discard' needs \"rocks\": \"stay\"")
        return None
    value = data["rocks"]
    if value == "stay":
        return RocksMove(None, cards_from_json(data.get("rocks_discard", []), f"{where}.rocks_discard"))
    if "rocks_discard" in data:
        raise FormatError(f"{where}: 'rocks_discard' only goes with \"rocks\": \"stay\"")
    return RocksMove(int_from_json(value, f"{where}.rocks"))


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"seat": action.seat}
    match action:
        case PlayIsland():
            data.update(play=action.card, cell=action.cell, discard=list(action.discard))
        case PlayStart():
            data.update(play=START, team_discard=[list(d) for d in action.team_discard])
        case PlayFinish():
            data["play"] = FINISH
        case PlayMonster():
            data.update(play=MONSTER, cell=action.cell)
        case DiscardTwo():
            data["discard"] = list(action.discard)
        case _:
            assert_never(action)
    if action.rocks is not None:
        if action.rocks.row is None:
            data.update(rocks="stay", rocks_discard=list(action.rocks.discard))
        else:
            data["rocks"] = action.rocks.row
    return data


def line_from_json(data: Any, where: str = "line") -> Line:
    data = object_from_json(data, where)
    if data.get("format") != LINE_FORMAT:
        raise FormatError(f"{where}.format: expected {LINE_FORMAT!r}, got {data.get('format')!r}")
    if "deal" not in data and "position" not in data:
        raise FormatError(f"{where}: missing key 'deal' (or 'position': where the line starts)")
    if "deal" in data and "position" in data:
        raise FormatError(f"{where}: holds both 'deal' and 'position'; a line starts from one of them")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise FormatError(f"{where}.actions: must be a list of actions")
    start: Deal | Position
    if "deal" in data:
        start = deal_from_json(data["deal"], f"{where}.deal")
    else:
        start = position_from_json(data["position"], f"{where}.position")
    return Line(
        start,
        actions=tuple(action_from_json(a, f"{where}.actions[{i}] (turn {i + 1})") for i, a in enumerate(actions)),
    )


def line_to_json(line: Line, puzzle: PuzzleTag | None = None) -> dict[str, Any]:
    """A line file; a game played on ``puzzle`` keeps its name in the deal's ``puzzle`` block,
    as a puzzle file has it (a puzzle is a deal: a line from a position has no block)."""
    start = {"deal": deal_to_json(line.start)} if isinstance(line.start, Deal) else {"position": position_to_json(line.start)}
    if puzzle is not None and "deal" in start:
        start["deal"]["puzzle"] = puzzle.to_json()
    return {
        "format": LINE_FORMAT,
        **start,
        "actions": [action_to_json(a) for a in line.actions],
    }


def game_from_json(data: Any, path: str | Path) -> Game:
    """A deal, a position or a line from a JSON file's data, by its ``format`` key."""

    if not isinstance(data, dict):
        raise FormatError(f"{path}: must be a JSON object with a 'format' key")
    fmt = data.get("format")
    try:
        if fmt == DEAL_FORMAT:
            return deal_from_json(data, "deal")
        if fmt == LINE_FORMAT:
            return line_from_json(data, "line")
        if fmt == POSITION_FORMAT:
            return position_from_json(data, "position")
    except FormatError as exc:
        raise FormatError(f"{path}: {exc}") from None
    raise FormatError(
        f"{path}: 'format' must be {DEAL_FORMAT!r}, {LINE_FORMAT!r} or {POSITION_FORMAT!r}, got {fmt!r}"
    )
