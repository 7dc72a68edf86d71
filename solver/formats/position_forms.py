"""The two forms that write a position (docs/formats.md): ``tranquility-position/1`` (JSON)
and the one-line text form (``tq1 ...``, in the spirit of chess FEN), read and written."""

from __future__ import annotations

import json
from typing import Any

from tranquility.solver.engine.cards import Card
from tranquility.solver.engine.position import _SPECIALS, Position, PositionError
from tranquility.solver.engine.rules import PRESETS, Rocks, Rules, RulesError, parse_rule_value
from tranquility.solver.engine.text_form import TEXT_TAG
from tranquility.solver.formats.json_values import FormatError, card_from_json, int_from_json, object_from_json

POSITION_FORMAT = "tranquility-position/1"





class PositionFormError(FormatError, PositionError):
    """Text or JSON that is not a position, or names one the rules forbid. Both a
    ``PositionError`` and a ``FormatError`` (located in the input), so that one ``except
    FormatError`` catches whatever is wrong with a file."""


def position_to_json(p: Position) -> dict[str, Any]:
    return {
        "format": POSITION_FORMAT,
        "rules": p.rules.to_dict(),
        "grid": list(p.grid),
        "hands": [list(h) for h in p.hands],
        "piles": [list(pile) for pile in p.piles],
        "seat": p.seat,
        "start_played": p.start_played,
        "won": p.won,
        "sunk": list(p.sunk),
        "removed_islands": list(p.removed),
        "rocks_row": p.rocks_row,
        "rocks_rolls": list(p.rocks_rolls),
    }


_JSON_KEYS = {
    "format", "rules", "grid", "hands", "piles", "seat", "start_played", "won", "sunk", "removed_islands",
    "rocks_row", "rocks_rolls",
}  # fmt: skip


# One read per field of the format, each naming the field when it is wrong.
def position_from_json(data: Any, where: str = "position") -> Position:
    data = object_from_json(data, where)
    if data.get("format") != POSITION_FORMAT:
        raise PositionFormError(f"{where}.format: expected {POSITION_FORMAT!r}, got {data.get('format')!r}")
    for key in data:
        if key not in _JSON_KEYS:
            raise PositionFormError(f"{where}: unknown key {key!r} (known: {', '.join(sorted(_JSON_KEYS))})")
    for key in ("grid", "hands", "piles", "seat"):
        if key not in data:
            raise PositionFormError(f"{where}: missing key {key!r}")
    try:
        rules = Rules.from_dict(object_from_json(data.get("rules", {}), f"{where}.rules"))
    except RulesError as exc:
        raise PositionFormError(f"{where}.rules: {exc}") from None

    def cards(value: Any, field: str) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise PositionFormError(f"{where}.{field}: must be a list of cards")
        return tuple(card_from_json(v, f"{where}.{field}[{i}]") for i, v in enumerate(value))

    def seats(key: str) -> tuple[tuple[Card, ...], ...]:
        value = data[key]
        if not isinstance(value, list):
            raise PositionFormError(f"{where}.{key}: must be a list, one per seat")
        return tuple(cards(v, f"{key}[{i}]") for i, v in enumerate(value))

    def flag(key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise PositionFormError(f"{where}.{key}: must be true or false, got {value!r}")
        return value

    def islands(key: str) -> tuple[int, ...]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise PositionFormError(f"{where}.{key}: must be a list of islands")
        return tuple(int_from_json(v, f"{where}.{key}[{i}]", 1) for i, v in enumerate(value))

    grid = data["grid"]
    if not isinstance(grid, list):
        raise PositionFormError(f"{where}.grid: must be a list, one entry per cell (null when empty)")
    row = data.get("rocks_row")
    rolls = data.get("rocks_rolls", [])
    if not isinstance(rolls, list):
        raise PositionFormError(f"{where}.rocks_rolls: must be a list of integers")
    try:
        return Position(
            rules=rules,
            grid=tuple(None if v is None else int_from_json(v, f"{where}.grid[{i}]", 1) for i, v in enumerate(grid)),
            hands=seats("hands"),
            piles=seats("piles"),
            seat=int_from_json(data["seat"], f"{where}.seat"),
            start_played=flag("start_played"),
            won=flag("won"),
            sunk=islands("sunk"),
            removed=islands("removed_islands"),
            rocks_row=None if row is None else int_from_json(row, f"{where}.rocks_row"),
            rocks_rolls=tuple(int_from_json(v, f"{where}.rocks_rolls[{i}]") for i, v in enumerate(rolls)),
        )
    except PositionError as exc:
        raise PositionFormError(f"{where}.{exc}") from None


#
#   tq1 RULES GRID SEATS SEAT STAGE [KEY=VALUE ...]      (docs/formats.md has the grammar)


def position_to_text(p: Position) -> str:
    """The one-line text form (``tq1 official 3,_5/... 4,9,F:22,S/... 0 S``): ``Position.text``."""
    return p.text()


def _words(text: str) -> list[str]:
    """The words of a text form, without a byte-order mark and ``#`` comment lines (a file
    may hold them around its one line)."""
    lines = text.removeprefix("\ufeff").splitlines()
    return [w for line in lines if not line.lstrip().startswith("#") for w in line.split()]


def is_position_text(text: str) -> bool:
    """Whether ``text`` (a file's, or ``--position``'s) is the text form: its first word is ``tq1``."""
    words = _words(text)
    return bool(words) and words[0] == TEXT_TAG


class _Text:
    """Reads the words of the text form; every failure names the word."""

    def __init__(self, text: str):
        self.words = _words(text)

    def fail(self, field: str, message: str) -> PositionFormError:
        return PositionFormError(f"position text, {field}: {message}")

    def number(self, text: str, field: str, what: str = "a number") -> int:
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            raise self.fail(field, f"expected {what}, got {text!r}")
        return int(text)

    def card(self, text: str, field: str) -> Card:
        if text in _SPECIALS:
            return text
        return self.number(text, field, "a card (an island number, S, F or M)")

    def cards(self, text: str, field: str) -> tuple[Card, ...]:
        return tuple(self.card(t, field) for t in text.split(",")) if text else ()

    def islands(self, text: str, field: str) -> tuple[int, ...]:
        return tuple(self.number(t, field, "an island number") for t in text.split(",")) if text else ()


def position_from_text(text: str) -> Position:
    """The text form back into a position; a PositionFormError names the word that is wrong."""
    r = _Text(text)
    words = r.words
    if not words or words[0] != TEXT_TAG:
        raise r.fail("tag", f"expected the first word {TEXT_TAG!r}, got {words[0] if words else 'nothing'!r}")
    if len(words) < 6:
        raise r.fail("words", "expected 'tq1 RULES GRID SEATS SEAT STAGE [KEY=VALUE ...]'")
    _, rules_word, grid_word, seats_word, seat_word, stage, *extras = words
    rules = _rules_from_text(r, rules_word)
    rows = grid_word.split("/")
    if len(rows) != rules.rows:
        raise r.fail("grid", f"{len(rows)} row(s) separated by '/', but the grid has {rules.rows}")
    grid: list[int | None] = []
    for number, row in enumerate(rows):
        cells = _row_from_text(r, row, f"grid row {number}")
        if len(cells) != rules.cols:
            raise r.fail(f"grid row {number}", f"{len(cells)} cell(s), but a row has {rules.cols}")
        grid += cells
    hands, piles = [], []
    for seat, text_seat in enumerate(seats_word.split("/")):
        hand, sep, pile = text_seat.partition(":")
        if not sep:
            raise r.fail(f"seat {seat}", f"expected HAND:PILE (the pile top first), got {text_seat!r}")
        hands.append(r.cards(hand, f"seat {seat} hand"))
        piles.append(r.cards(pile, f"seat {seat} pile"))
    if stage not in ("-", "S", "W"):
        raise r.fail("stage", f"expected '-' (no Start played yet), 'S' (played) or 'W' (won), got {stage!r}")
    found = _extras(r, extras, rules)
    rocks = found.get("rocks", "")
    try:
        return Position(
            rules=rules,
            grid=tuple(grid),
            hands=tuple(hands),
            piles=tuple(piles),
            seat=r.number(seat_word, "seat", "the seat to move"),
            start_played=stage != "-",
            won=stage == "W",
            sunk=r.islands(found.get("sunk", ""), "sunk"),
            removed=r.islands(found.get("removed", ""), "removed"),
            rocks_row=None if rocks in ("", "-") else r.number(rocks, "rocks", "a row or '-'"),
            rocks_rolls=tuple(r.number(t, "rolls") for t in found["rolls"].split(",")) if "rolls" in found else (),
        )
    except PositionError as exc:
        raise PositionFormError(f"position text: {exc}") from None


def _rules_from_text(r: _Text, word: str) -> Rules:
    name, *changes = word.split(",")
    if name not in PRESETS:
        raise r.fail("rules", f"expected a preset ({', '.join(PRESETS)}), then ',KEY=VALUE' changes; got {name!r}")
    options: dict[str, Any] = {}
    try:
        for change in changes:
            key, sep, value = change.partition("=")
            if not sep:
                raise r.fail("rules", f"expected KEY=VALUE after the preset, got {change!r}")
            options[key] = parse_rule_value(key, value)
        return PRESETS[name].with_options(options)
    except RulesError as exc:
        raise r.fail("rules", str(exc)) from None


def _row_from_text(r: _Text, row: str, field: str) -> list[int | None]:
    cells: list[int | None] = []
    for item in row.split(","):
        if item.startswith("_"):
            cells += [None] * (r.number(item[1:], field, "'_' or '_N' (N empty cells)") if item != "_" else 1)
        else:
            cells.append(r.number(item, field, "an island number, '_' or '_N'"))
    return cells


_EXTRAS = {"sunk": "monsters", "removed": "removed", "rocks": "rocks", "rolls": "rocks"}


def _extras(r: _Text, words: list[str], rules: Rules) -> dict[str, str]:
    found: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in _EXTRAS:
            raise r.fail(key or word, f"expected KEY=VALUE with a key of {', '.join(_EXTRAS)}; got {word!r}")
        if key in found:
            raise r.fail(key, "given twice")
        found[key] = value
    if rules.rocks != Rocks.OFF and "rocks" not in found:
        raise r.fail("rocks", f"rule rocks={rules.rocks}: give rocks=ROW (or rocks=- once the rocks are gone)")
    return found


def position_from_any(text: str) -> Position:
    """The text form, or the JSON form's text (``--position TEXT`` takes either)."""
    if is_position_text(text):
        return position_from_text(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        raise PositionFormError(f"neither the text form (tq1 ...) nor JSON: {text[:40]!r}") from None
    return position_from_json(data)
