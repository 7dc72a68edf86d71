"""The game a command is given: a seeded deal (``DealSource``: --seed, --players and the rules)
or a FILE (``read_game``: a deal, line, position or puzzle file, or the notation; ``-`` for
standard input) or a position's text (--position), checked against the rules; and the one-line
errors a file or an option that cannot be used gives (exit 2)."""

from __future__ import annotations

import errno
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click
from tranquility.solver.engine.deal import Deal, DealError, deal
from tranquility.solver.engine.line import Game
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.rules import PRESETS, Rules, RulesError
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.json_values import FormatError, decode_text, read_json, read_text

from .exits import InputError, os_message

if TYPE_CHECKING:
    from tranquility.puzzles.puzzle_file import PuzzleHeader
    from tranquility.solver.engine.verify import Replayed


# What reading or writing a file may raise for bad input (never a traceback).
INPUT_ERRORS = (BadInput, OSError)


def input_error(path: str | Path | None, exc: BaseException) -> InputError:
    """One line naming the file (engine messages usually name it already)."""
    if isinstance(exc, OSError) and not isinstance(exc, FileExistsError):
        message = os_message(exc, path)
    else:
        message = str(exc)
    if path is not None and str(path) not in message:
        message = f"{path}: {message}"
    return InputError(message)


def usage_error(message: str) -> click.UsageError:
    return click.UsageError(message, ctx=click.get_current_context(silent=True))


# FILE ``-`` is standard input, which messages name ``<stdin>``. Every FILE is read once (``read_game``).
STDIN, STDIN_NAME = "-", "<stdin>"


def _rule_pair(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise click.BadParameter(f"{text!r} is not KEY=VALUE (e.g. monsters=4)", param_hint="'--rule'")
    return key.strip(), value.strip()


def rules_from_spec(spec: str | None) -> Rules:
    """``--rules``: a preset name, or a JSON file holding a (partial) rules object."""
    if spec is None:
        return PRESETS["official"]
    if spec in PRESETS:
        return PRESETS[spec]
    if not Path(spec).exists():
        raise click.BadParameter(
            f"{spec!r} is neither a preset ({', '.join(PRESETS)}) nor an existing file",
            param_hint="'--rules'",
        )
    try:
        return Rules.from_dict(read_json(spec))
    except (FormatError, RulesError) as exc:
        raise input_error(spec, exc) from None


def resolve_rules(spec: str | None, overrides: tuple[str, ...]) -> Rules:
    """The rule set in force: ``--rules`` (preset or file), then each ``--rule KEY=VALUE``
    (``source.rules_with``, as a request's ``rule`` is read)."""
    from tranquility.app.source import rules_with

    rules = rules_from_spec(spec)
    try:
        return rules_with(rules, [_rule_pair(text) for text in overrides])
    except RulesError as exc:
        hint = "'--rule'" if overrides else "'--rules'"
        raise click.BadParameter(str(exc), param_hint=hint) from None


@dataclass(frozen=True)
class DealSource:
    """The deal-source options as given on the command line."""

    seed: int | None = None
    players: int | None = None
    rules_spec: str | None = None
    rule_overrides: tuple[str, ...] = ()
    position_text: str | None = None  # --position TEXT

    @property
    def seeded(self) -> bool:
        return self.seed is not None or self.players is not None

    @property
    def has_rules(self) -> bool:
        return self.rules_spec is not None or bool(self.rule_overrides)

    def rules(self) -> Rules:
        return resolve_rules(self.rules_spec, self.rule_overrides)

    def deal(self) -> Deal:
        """A fresh seeded deal; --seed and --players are both required."""
        if self.seed is None or self.players is None:
            missing = "--seed" if self.seed is None else "--players"
            raise usage_error(f"missing option {missing}: a seeded deal needs --seed N and --players P")
        rules = self.rules()
        try:
            return deal(rules, self.players, self.seed)
        except DealError as exc:
            raise usage_error(f"cannot deal: {exc}") from None

    def resolve(self, file: str | None) -> tuple[Game, str | None]:
        """Either a seeded deal (--seed + --players), the deal/position/line FILE, or
        --position TEXT: exactly one. The game, and FILE's name in messages (None for the
        others)."""
        if self.position_text is not None:
            if file is not None or self.seeded:
                raise usage_error("give --position TEXT, FILE or --seed/--players, only one of them")
            if self.has_rules:
                raise usage_error("--rules/--rule shape new deals only; a position carries its own rules")
            return position_game(self.position_text), None
        if file is None:
            if not self.seeded:
                raise usage_error("give a deal or line FILE, or --seed N --players P")
            return self.deal(), None
        if self.seeded:
            raise usage_error("give either FILE or --seed/--players, not both")
        if self.has_rules:
            raise usage_error("--rules/--rule shape new deals only; FILE carries its own rules")
        read = read_game(file)
        return read.game, read.name


def position_game(text: str) -> Position:
    """``--position TEXT``: the position; bad text is exit 2."""
    from tranquility.solver.formats.position_forms import position_from_any

    try:
        return position_from_any(text)
    except BadInput as exc:
        raise InputError(f"--position: {exc}") from None


def file_or_position(file: str | None, position_text: str | None) -> tuple[Game, GameFile | None]:
    """FILE or --position TEXT (exactly one): the game, and FILE as read (None for --position)."""
    if file is None and position_text is None:
        raise usage_error("Missing argument 'FILE' (or give --position TEXT)")
    if file is not None and position_text is not None:
        raise usage_error("give a FILE or --position TEXT, not both")
    if position_text is not None:
        return position_game(position_text), None
    assert file is not None
    read = read_game(file)
    return read.game, read


@dataclass(frozen=True)
class GameFile:
    """A game FILE as read: its name in messages, its text, and the game it holds. What
    else a command needs of the file is taken from ``text``, never from a second read: a
    pipe, a FIFO or /dev/stdin gives its bytes only once."""

    name: str
    text: str
    game: Game

    def puzzle(self) -> PuzzleHeader | None:
        """The file's puzzle block (docs/puzzles.md), if any; a malformed one is exit 2."""
        from tranquility.puzzles.puzzle_file import puzzle_header_from_text

        try:
            return puzzle_header_from_text(self.text, self.name)
        except INPUT_ERRORS as exc:
            raise input_error(self.name, exc) from None

    def deal_file(self) -> str | Path:
        """The path a notation file names this game's deal by (``deal-file``): the deal
        file FILE names when it is notation, else FILE itself; standard input has no path."""
        from tranquility.solver.formats.notation import notation_deal_file

        named = notation_deal_file(self.text, self.name)
        if named is not None:
            return named
        if self.name == STDIN_NAME:
            raise InputError(
                f"{STDIN_NAME}: the notation names a deal no seed gives by its file (deal-file PATH), "
                "and standard input has no path: give the file instead of -"
            )
        return self.name


def read_game(path: str) -> GameFile:
    """A game FILE, read once (``-``: standard input, whose bytes can be read only once);
    bad input becomes an InputError (exit 2) naming the file."""
    from tranquility.solver.formats.reading import game_from_text  # only a command given a FILE reads one

    if not path:  # else read as "." (the current folder): "Is a directory"
        raise InputError("FILE is empty: give a file's path, or - for standard input")
    name = STDIN_NAME if path == STDIN else path
    try:
        text = decode_text(_stdin_bytes(), name) if path == STDIN else read_text(path)
        return GameFile(name, text, game_from_text(text, name))
    except INPUT_ERRORS as exc:
        raise input_error(name, exc) from None


def _stdin_bytes() -> bytes:
    if sys.stdin is None:  # the process was started with standard input closed
        raise OSError(errno.EBADF, "standard input is closed")
    return sys.stdin.buffer.read()


def checked(game: Game, file: str | None) -> Replayed:
    """``game`` replayed once by the verifier, with the state it reaches, when its deal and
    every action follow the rules; else an InputError (exit 2) naming the file, the turn and
    the broken rule (verify's message)."""
    from tranquility.solver.engine.verify import replayed

    try:
        return replayed(game)
    except BadInput as exc:
        raise InputError(f"{file}: {exc}" if file is not None else str(exc)) from None
