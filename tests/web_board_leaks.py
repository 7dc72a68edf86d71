"""What a seat at a table may see, for the no-leak checks of ``tranquility serve``'s table:
a table game played through the API, and the cards a view holds that its seat could not
have seen by then (``hidden_cards_in``)."""

from __future__ import annotations

import re
from typing import Any

from tranquility.solver.engine.line import Line
from tranquility.solver.engine.verify import verify
from tranquility.solver.formats.codecs import line_from_json

from .web_board_server import request

CARD_KEYS = {"hand", "card", "play", "discard", "team_discard", "rocks_discard", "gone", "cards"}
WHOLE_GAME_KEYS = {"hands", "piles", "position", "line", "revealed"}  # only once the game is over
_CELL_OR_ROW = re.compile(r"[@>]\d+")


def play_table_by_api(base: str, seed: int, players: int, seat: int) -> tuple[list[dict], Line | None]:
    """A table game to its end, the person playing its first listed move each turn and
    giving the fewest cards at the Start; every view the server sent, and the whole line."""
    status, view = request(base, "POST", "/api/table", {"seed": seed, "players": players, "seat": seat, "bots": "tuned"})
    assert status == 200, view
    bodies = [view]
    for _ in range(1000):
        if view["over"]:
            return bodies, line_from_json(view["line"])
        key = view["id"]
        start = view["start"]
        if start is not None and start["rows"]:
            status, view = request(base, "POST", f"/api/table/{key}/rocks", {"row": start["rows"][0]})
        elif start is not None:
            status, view = request(base, "POST", f"/api/table/{key}/give", {"cards": start["hand"][: start["least"]]})
        elif view["my_turn"]:
            move = view["moves"][0]
            action = "S" if move["kind"] == "start" else move["action"]
            status, view = request(base, "POST", f"/api/table/{key}/play", {"action": action})
        else:
            status, view = request(base, "POST", f"/api/table/{key}/step", {})
        assert status == 200, view
        bodies.append(view)
    return bodies, None


def seen_by(line: Line, seat: int, turn: int) -> set:
    """Every card ``seat`` has seen by the position after ``turn`` actions (and during the
    action after it, as a Start event shows a seat the cards it draws): the grid's, the
    sunk ones, and every card it has drawn."""
    states = [verify(line.__class__(line.deal, line.actions[:t])).state for t in range(min(turn + 1, len(line.actions)) + 1)]
    seen: set = set()
    for state in states:
        assert state is not None
        seen |= {card for card in state.grid if card is not None} | set(state.gone)
    last = states[-1]
    assert last is not None
    seen |= set(line.deal.piles[seat][: last.drawn[seat]])
    return seen


def cards_in(data: Any, key: str | None = None) -> set:
    """The cards a view names: the values under card keys, and those of each move's notation."""
    found: set = set()
    if isinstance(data, dict):
        for k, value in data.items():
            if k == "rules":  # a rule set's numbers ("hand": 5) are no cards
                continue
            if k == "notation" and isinstance(value, str):
                found |= {int(n) for n in re.findall(r"\d+", _CELL_OR_ROW.sub("", value))}
            else:
                found |= cards_in(value, k)
    elif isinstance(data, list):
        for value in data:
            found |= cards_in(value, key)
    elif key in CARD_KEYS and data is not None and not isinstance(data, bool):
        found.add(data)
    return found


def hidden_cards_in(body: dict, line: Line, seat: int) -> list:
    """What ``body`` (a view sent before the game ended) shows that ``seat`` could not see:
    cards, or the keys that hold the whole game. Empty for a view of the game over."""
    if body.get("over"):
        return []
    wrong = sorted(WHOLE_GAME_KEYS & set(body))
    return wrong + sorted(cards_in(body) - seen_by(line, seat, body["turn"]), key=str)
