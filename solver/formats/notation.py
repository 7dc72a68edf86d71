"""The game notation (docs/notation.md): one short token per turn, typed at the table.

``41@20-3,77`` plays island 41 into cell 20 paying 3 and 77; ``S/12|44,F`` is a Start with
each seat's last-round discards; ``x12,F`` discards two; ``F`` is a Finish; ``M@20`` sends
a Sea Monster to cell 20; a manual Jagged Rocks move follows as ``>3`` or ``>stay-12,44``.
Seats are implied: turn i (from 0) is seat i mod players, as the engine requires (from
a position: counted on from the seat to move).

A notation file is a header line naming the deal (``deal SEED PLAYERS [rules PRESET]
[rule KEY=VALUE ...]`` or ``deal-file PATH``) or a position (``position tq1 ...``, its text
form: solver/formats/position_forms.py), for a game played on a puzzle a ``puzzle ID grade G`` line, and
then the tokens; from a position, the first token is the seat to move's. Only the notation is
checked here; whether the actions obey the rules is the engine's job (``State.apply``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import assert_never

from tranquility.solver.engine.actions import Action, DiscardTwo, PlayFinish, PlayIsland, PlayMonster, PlayStart, RocksMove
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, is_island
from tranquility.solver.engine.deal import Deal, DealError, deal
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import MAX_PLAYERS, PRESETS, Rules, RulesError, nearest_preset, parse_rule_value
from tranquility.solver.formats.codecs import game_from_json
from tranquility.solver.formats.json_values import FormatError, parse_json, read_text
from tranquility.solver.formats.position_forms import is_position_text, position_from_text, position_to_text
from tranquility.solver.formats.puzzle_tag import GRADES, PuzzleTag

HEADER_HINT = (
    "the header 'deal SEED PLAYERS [rules PRESET] [rule KEY=VALUE ...]', 'deal-file PATH' or 'position tq1 ...'"
)
ACTION_HINT = "an action: ISLAND@CELL[-COST,...], S/CARDS|CARDS|..., F, xA,B or M@CELL"
BOM = "\ufeff"
MAX_DIGITS = 9  # longer numbers are typos, not cards or cells


class NotationError(FormatError):
    """Text that does not follow the notation; the message names line, column and token."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, token: str | None = None):
        super().__init__(message)
        self.line, self.column, self.token = line, column, token


@dataclass(frozen=True)
class Token:
    text: str
    line: int  # from 1
    column: int  # from 1

    def fail(self, message: str, offset: int = 0) -> NotationError:
        """``message`` about character ``offset`` of this token."""
        column = self.column + offset
        return NotationError(f"line {self.line}, column {column}: {self.text!r}: {message}", self.line, column, self.text)

    def error(self, expected: str, offset: int = 0, got: str | None = None) -> NotationError:
        """``expected`` at character ``offset`` of this token, and what stands there."""
        if got is None:
            got = repr(self.text[offset]) if offset < len(self.text) else "the end of the token"
        return self.fail(f"expected {expected}, got {got}", offset)


def _is_digit(char: str) -> bool:
    return char.isascii() and char.isdigit()


def tokens(text: str) -> list[Token]:
    """Whitespace-separated tokens with their positions; ``#`` comments to the end of the line."""
    found = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = raw.split("#", 1)[0]
        column = 0
        for word in body.split():
            column = body.index(word, column)
            found.append(Token(word, number, column + 1))
            column += len(word)
    return found


# -- one token ----------------------------------------------------------------------------


class _Reader:
    """Reads one token left to right; every failure names what was expected there."""

    def __init__(self, token: Token):
        self.token, self.text, self.at = token, token.text, 0

    def peek(self) -> str:
        return self.text[self.at] if self.at < len(self.text) else ""

    def take(self, char: str) -> bool:
        if self.peek() == char:
            self.at += 1
            return True
        return False

    def expect(self, char: str, expected: str) -> None:
        if not self.take(char):
            raise self.fail(expected)

    def fail(self, expected: str) -> NotationError:
        return self.token.error(expected, self.at)

    def number(self, expected: str, digits: int = MAX_DIGITS) -> int:
        start = self.at
        while _is_digit(self.peek()):
            self.at += 1
        if self.at == start:
            raise self.fail(expected)
        if self.at - start > digits:
            raise self.token.error(f"{expected} of at most {digits} digits", start, "a longer number")
        return int(self.text[start : self.at])

    def at_card(self) -> bool:
        return _is_digit(self.peek()) or self.peek() in (START, FINISH, MONSTER)

    def card(self) -> Card:
        if self.peek() in (START, FINISH, MONSTER):
            self.at += 1
            return self.text[self.at - 1]
        return self.number("a card (an island number, S, F or M)")

    def cards(self) -> tuple[Card, ...]:
        """``card {"," card}``: at least one card."""
        found = [self.card()]
        while self.take(","):
            found.append(self.card())
        return tuple(found)

    def end(self, expected: str) -> None:
        if self.at != len(self.text):
            raise self.fail(expected)


def parse_token(token: Token, seat: int) -> Action:
    """One action for ``seat``; raises NotationError naming the spot that is wrong."""
    r = _Reader(token)
    if _is_digit(r.peek()):
        card = r.number("an island number")
        r.expect("@", "'@' and a cell after the island (as in 41@20)")
        cell = r.number("a cell number after '@' (as in 41@20)")
        paid = r.cards() if r.take("-") else ()
        action: Action = PlayIsland(seat=seat, card=card, cell=cell, discard=paid)
    elif r.take(START):
        r.expect("/", "'/' after S, then each seat's discards separated by '|' (as in S/12|44,F)")
        groups = [r.cards() if r.at_card() else ()]
        while r.take("|"):
            groups.append(r.cards() if r.at_card() else ())
        action = PlayStart(seat=seat, team_discard=tuple(groups))
    elif r.take(FINISH):
        action = PlayFinish(seat=seat)
    elif r.take("x"):
        action = DiscardTwo(seat=seat, discard=r.cards())
    elif r.take(MONSTER):
        r.expect("@", "'@' and a cell after M (as in M@20)")
        action = PlayMonster(seat=seat, cell=r.number("a cell number after 'M@'"))
    else:
        raise r.fail(ACTION_HINT)
    rocks = _rocks(r) if r.take(">") else None
    r.end("the end of the token (or ',' and a card, '|' in a Start, '>' and a rocks move)")
    return action if rocks is None else replace(action, rocks=rocks)


def parse_cards(token: Token) -> tuple[Card, ...]:
    """``12,44,F``: a token of cards (a share of the Start event, typed at the board);
    raises NotationError naming the spot that is wrong."""
    r = _Reader(token)
    found = r.cards()
    r.end("',' and a card, or the end of the cards")
    return found


def _rocks(r: _Reader) -> RocksMove:
    if _is_digit(r.peek()):
        return RocksMove(r.number("a row"))
    for char in "stay":
        r.expect(char, "a row number or 'stay' after '>' (as in >3 or >stay-12,44)")
    return RocksMove(None, r.cards() if r.take("-") else ())


def _check_players(players: int) -> None:
    if not (is_island(players) and 1 <= players <= MAX_PLAYERS):
        raise NotationError(f"players must be 1 to {MAX_PLAYERS}, got {players!r}")


def _actions(found: Iterable[Token], players: int, first: int = 0) -> tuple[Action, ...]:
    return tuple(parse_token(token, (first + turn) % players) for turn, token in enumerate(found))


def parse_actions(text: str, players: int, first: int = 0) -> tuple[Action, ...]:
    """Every token of ``text`` as an action; turn i (from 0) is played by seat (first + i)
    mod players (``first``: the seat to move, 0 at the deal)."""
    _check_players(players)
    return _actions(tokens(text), players, first)


# -- writing ------------------------------------------------------------------------------


def _cards_text(cards: Iterable[Card]) -> str:
    return ",".join(str(c) for c in cards)


def format_action(action: Action) -> str:
    """The token for ``action`` (its seat is implied by the turn). Raises FormatError for
    the few actions no token can hold, all of them illegal (e.g. a discard of no cards)."""
    numbers: tuple[int, ...] = ()
    match action:
        case PlayIsland():
            text = f"{action.card}@{action.cell}" + (f"-{_cards_text(action.discard)}" if action.discard else "")
            numbers = (action.card, action.cell)
        case PlayStart():
            if not action.team_discard:
                raise FormatError("a Start needs one list of discards per seat")
            text = "S/" + "|".join(_cards_text(d) for d in action.team_discard)
        case PlayFinish():
            text = FINISH
        case DiscardTwo():
            if not action.discard:
                raise FormatError("a discard-two with no cards has no token")
            text = f"x{_cards_text(action.discard)}"
        case PlayMonster():
            text, numbers = f"M@{action.cell}", (action.cell,)
        case _:
            assert_never(action)
    if action.rocks is not None:
        if action.rocks.row is None:
            text += ">stay" + (f"-{_cards_text(action.rocks.discard)}" if action.rocks.discard else "")
        elif action.rocks.discard:
            raise FormatError("a rocks move to a row pays no cards; only 'stay' does")
        else:
            text += f">{action.rocks.row}"
            numbers += (action.rocks.row,)
    if any(n < 0 for n in numbers):
        raise FormatError(f"negative numbers have no token: {action!r}")
    return text


def format_actions(actions: Iterable[Action], per_line: int | None = None) -> str:
    """Tokens separated by spaces; with ``per_line``, that many a line in aligned columns,
    each line ending in a ``# turns A-B`` comment."""
    texts = [format_action(a) for a in actions]
    if per_line is None:
        return " ".join(texts)
    widths = [max((len(t) for t in texts[col::per_line]), default=0) for col in range(per_line)]
    full = sum(widths) + 2 * (per_line - 1)
    lines = []
    for start in range(0, len(texts), per_line):
        row = texts[start : start + per_line]
        body = "  ".join(t.ljust(widths[col]) for col, t in enumerate(row)).ljust(full)
        lines.append(f"{body}  # turn{'s' if len(row) > 1 else ''} {_span(start + 1, start + len(row))}")
    return "\n".join(lines)


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


# -- the header ---------------------------------------------------------------------------


def seeded_header(game: Deal) -> str | None:
    """``deal SEED PLAYERS [rules PRESET] [rule KEY=VALUE ...]`` if the seeded dealer gives
    exactly this deal, else None. The preset is the one closest to the rules."""
    if game.seed is None:
        return None
    try:
        if deal(game.rules, game.players, game.seed) != game:
            return None
    except DealError:
        return None
    name, changes = nearest_preset(game.rules)  # official first on a tie
    words = ["deal", str(game.seed), str(game.players)]
    if name != "official":
        words += ["rules", name]
    words += [f"rule {k}={v}" for k, v in changes.items()]
    return " ".join(words)


def write_notation(line: Game, deal_file: str | Path | None = None, puzzle: PuzzleTag | None = None) -> str:
    """A notation file for ``line``: the header, the ``puzzle`` line for a game played on
    ``puzzle``, then the tokens, one round a line.

    The header is ``position TEXT`` for a line from a position, ``deal-file DEAL_FILE``
    when ``deal_file`` is given, else the seeded ``deal`` header; a deal no seed
    reproduces needs ``deal_file`` (FormatError without)."""
    line = as_line(line)
    if line.position is not None:
        header: str | None = f"position {position_to_text(line.position)}"
    elif deal_file is not None:
        header = f"deal-file {deal_file}"
    else:
        header = seeded_header(line.deal)
    if header is None:
        raise FormatError("the seeded dealer does not give this deal; name its file (deal-file PATH)")
    if puzzle is not None:
        header += f"\npuzzle {puzzle.id} grade {puzzle.grade}"
    players = line.deal.players
    body = format_actions(line.actions, per_line=players * max(1, 4 // players))
    return header + "\n" + (body + "\n" if body else "")


def _header_words(found: list[Token]) -> tuple[list[Token], list[Token]]:
    """The header's tokens (the first line holding any) and the rest."""
    if not found:
        raise NotationError(f"line 1, column 1: no header: expected {HEADER_HINT}", 1, 1)
    header = [t for t in found if t.line == found[0].line]
    return header, found[len(header) :]


def _puzzle_line(found: list[Token]) -> tuple[PuzzleTag | None, list[Token]]:
    """``puzzle ID grade G``, if the line after the header is one, and the tokens after it."""
    if not found or found[0].text != "puzzle":
        return None, found
    words = [t for t in found if t.line == found[0].line]
    last = words[-1]
    if len(words) < 4:
        raise last.error("'puzzle ID grade G' (as in puzzle tq1-2p-8cf48077-5 grade 3)", len(last.text), "the end of the line")
    if words[2].text != "grade" or len(words) > 4:
        bad = words[2] if words[2].text != "grade" else words[4]
        raise bad.error("'puzzle ID grade G' (as in puzzle tq1-2p-8cf48077-5 grade 3)", 0, "another word")
    grade = _header_number(words[3], "a grade (1 to 5)")
    if grade not in GRADES:
        raise words[3].fail("expected a grade (1 to 5)")
    return PuzzleTag(words[1].text, grade), found[len(words) :]


def _seeded_deal(words: list[Token]) -> Deal:
    """``deal SEED PLAYERS [rules PRESET] [rule KEY=VALUE ...]``."""
    if len(words) < 3:
        raise words[-1].error("'deal SEED PLAYERS' (as in deal 7 4)", len(words[-1].text), "the end of the line")
    seed = _header_number(words[1], "a seed (an integer in 0..2^64-1)")
    players = _header_number(words[2], "a player count (1 to 5)")
    preset: Rules | None = None
    overrides: dict = {}
    rest = iter(words[3:])
    for word in rest:
        if word.text not in ("rules", "rule"):
            raise word.error("'rules PRESET' or 'rule KEY=VALUE'", 0, "another word")
        value = next(rest, None)
        if value is None:
            raise word.error(f"a value after '{word.text}'", len(word.text), "the end of the line")
        if word.text == "rules":
            if preset is not None:
                raise word.fail("a second 'rules PRESET'; give one preset and change keys with 'rule KEY=VALUE'")
            if value.text not in PRESETS:
                raise value.error(f"a preset ({', '.join(PRESETS)})", 0, "another word")
            preset = PRESETS[value.text]
            continue
        key, sep, text = value.text.partition("=")
        if not sep:
            raise value.error("KEY=VALUE (as in rule monsters=4)", 0, "no '='")
        try:
            overrides[key] = parse_rule_value(key, text)
        except RulesError as exc:
            raise value.fail(str(exc)) from None
    try:
        rules = (preset or PRESETS["official"]).with_options(overrides)
        return deal(rules, players, seed)
    except (RulesError, DealError) as exc:
        raise words[0].fail(f"cannot deal: {exc}") from None


def _header_number(token: Token, what: str) -> int:
    r = _Reader(token)
    value = r.number(what, digits=20)
    r.end(what)
    return value


def _deal_file_path(text: str, header: list[Token], base: Path) -> Path:
    """``deal-file PATH``: PATH is the rest of the header line (it may hold spaces)."""
    if len(header) < 2:
        raise header[0].error("a path after 'deal-file'", len(header[0].text), "the end of the line")
    raw = text.splitlines()[header[0].line - 1].split("#", 1)[0]
    return base / raw[header[1].column - 1 :].strip()


def _file_deal(path: Path, word: Token) -> Deal | Position:
    """Where the game of a JSON deal, position or line file starts, or a position's text
    form (a notation file cannot name another)."""
    try:
        text = read_text(path)
        if is_position_text(text):
            return position_from_text(text)
        game = game_from_json(parse_json(text, path), path)
    except FormatError as exc:
        raise word.fail(f"cannot read the deal file: {exc}") from None
    return as_line(game).start


def parse_notation(text: str, base: str | Path = ".") -> Line:
    """A whole notation file's text; ``deal-file`` paths are relative to ``base``."""
    text = text.removeprefix(BOM)
    header, rest = _header_words(tokens(text))
    kind = header[0].text
    game: Deal | Position
    if kind == "deal":
        game = _seeded_deal(header)
    elif kind == "deal-file":
        game = _file_deal(_deal_file_path(text, header, Path(base)), header[1])
    elif kind == "position":
        game = _position_deal(header)
    else:
        raise header[0].error(HEADER_HINT, 0, "another word")
    _, rest = _puzzle_line(rest)  # the puzzle's name only: the header says what is played
    first = game.seat if isinstance(game, Position) else 0
    return Line(game, _actions(rest, game.players, first))


def _position_deal(header: list[Token]) -> Position:
    """``position TEXT``: the rest of the header line is the position's text form."""
    if len(header) < 2:
        raise header[0].error("the position's text form after 'position' (tq1 ...)", len(header[0].text), "the end of the line")
    try:
        return position_from_text(" ".join(t.text for t in header[1:]))
    except FormatError as exc:
        raise header[1].fail(str(exc)) from None


def looks_like_notation(text: str) -> bool:
    """Notation starts with a word or a ``#`` comment (after white space and a byte-order
    mark, which some editors write); JSON (and anything else) does not."""
    start = text.removeprefix(BOM).lstrip()[:1]
    return start == "#" or start.isalpha()


def notation_from_text(text: str, path: str | Path) -> Line:
    """``parse_notation`` for a file's text, errors prefixed with the file's path."""
    try:
        return parse_notation(text, Path(path).parent)
    except NotationError as exc:
        raise NotationError(f"{path}: {exc}", exc.line, exc.column, exc.token) from None


def read_notation_file(path: str | Path) -> Line:
    return notation_from_text(read_text(path), path)


def notation_puzzle(text: str) -> PuzzleTag | None:
    """The puzzle a notation file's game was played on (its ``puzzle ID grade G`` line), or
    None: a file without that line, or a text that is not notation."""
    text = text.removeprefix(BOM)
    if not looks_like_notation(text):
        return None
    _, rest = _header_words(tokens(text))
    return _puzzle_line(rest)[0]


def notation_deal_file(text: str, path: str | Path) -> Path | None:
    """The deal file the ``deal-file`` header of a notation file's ``text`` names, joined to
    ``path``'s folder as ``notation_from_text`` reads it; None for another header or a text
    that is not notation."""
    text = text.removeprefix(BOM)
    if not looks_like_notation(text):
        return None
    header, _ = _header_words(tokens(text))
    if header[0].text != "deal-file":
        return None
    return _deal_file_path(text, header, Path(path).parent)
