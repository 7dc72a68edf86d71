"""Shared command-line options, and turning them into engine values.

Every command that needs a game takes it the same way: either ``--seed N --players P``
(with ``--rules``/``--rule``) for a fresh seeded deal, or a FILE (a deal or line file).
``deal_source`` adds those options and hands the command one ``DealSource``; its
``resolve`` turns them into a ``Deal`` or ``Line`` with clear usage errors.

Only parsing lives here; every rule of the game is the engine's (``solver``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import click
from tranquility.solver.deal import Deal, DealError, deal
from tranquility.solver.files import read_game_file
from tranquility.solver.formats import FormatError, read_json
from tranquility.solver.line import Line
from tranquility.solver.rules import PRESETS, Rules, RulesError, parse_rule_value

# Everything reading or checking a file may raise for bad input (never a traceback).
INPUT_ERRORS = (FormatError, RulesError, DealError, FileExistsError, OSError, RecursionError)


class InputError(click.ClickException):
    """A file cannot be read, written or does not follow the format: exit 2, one line."""

    exit_code = 2


def input_error(path: str | Path | None, exc: BaseException) -> InputError:
    """One line naming the file (engine messages usually name it already)."""
    if isinstance(exc, RecursionError):
        message = "nested too deeply to read"
    elif isinstance(exc, OSError) and exc.strerror:
        message = exc.strerror
    else:
        message = str(exc)
    if path is not None and str(path) not in message:
        message = f"{path}: {message}"
    return InputError(message)


def usage_error(message: str) -> click.UsageError:
    return click.UsageError(message, ctx=click.get_current_context(silent=True))


# -- output flags (the same on every command) -------------------------------------------

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print JSON instead of the readable view."
)


def game_file_argument(func: Callable) -> Callable:
    """An optional FILE (deal or line file) in place of --seed/--players."""
    return click.argument(
        "file", required=False, metavar="[FILE]", type=click.Path(dir_okay=False)
    )(func)


# -- rules ------------------------------------------------------------------------------


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
    except (FormatError, RulesError, RecursionError) as exc:
        raise input_error(spec, exc) from None


def resolve_rules(spec: str | None, overrides: tuple[str, ...]) -> Rules:
    """The rule set in force: ``--rules`` (preset or file), then each ``--rule KEY=VALUE``."""
    rules = rules_from_spec(spec)
    options: dict[str, Any] = {}
    try:
        for text in overrides:
            key, value = _rule_pair(text)
            options[key] = parse_rule_value(key, value)
        return rules.with_options(options)
    except RulesError as exc:
        hint = "'--rule'" if overrides else "'--rules'"
        raise click.BadParameter(str(exc), param_hint=hint) from None


# -- where a game comes from -------------------------------------------------------------


@dataclass(frozen=True)
class DealSource:
    """The deal-source options as given on the command line."""

    seed: int | None = None
    players: int | None = None
    rules_spec: str | None = None
    rule_overrides: tuple[str, ...] = ()

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

    def resolve(self, file: str | None) -> Deal | Line:
        """Either a seeded deal (--seed + --players) or the deal/line FILE, not both."""
        if file is None:
            if not self.seeded:
                raise usage_error("give a deal or line FILE, or --seed N --players P")
            return self.deal()
        if self.seeded:
            raise usage_error("give either FILE or --seed/--players, not both")
        if self.has_rules:
            raise usage_error("--rules/--rule shape new deals only; FILE carries its own rules")
        return read_game(file)


def read_game(path: str) -> Deal | Line:
    """A deal or line file; bad input becomes an InputError (exit 2) naming the file."""
    try:
        return read_game_file(path)
    except INPUT_ERRORS as exc:
        raise input_error(path, exc) from None


_RULES_OPTIONS = (
    click.option(
        "--rules",
        "rules_spec",
        metavar="PRESET|FILE",
        help=f"Rule preset ({', '.join(PRESETS)}) or a JSON file with a (partial) rules object.",
    ),
    click.option(
        "--rule",
        "rule_overrides",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override one rule (repeatable), e.g. --rule monsters=4.",
    ),
)

_SEED_OPTIONS = (
    click.option(
        "--seed",
        type=click.IntRange(0, 2**64 - 1),
        help="Seed of the deal (0..2^64-1); the same seed gives the same deal everywhere.",
    ),
    click.option("--players", type=int, help="Number of seats (1 to 5)."),
)


def deal_source(func: Callable | None = None, *, seeded: bool = True) -> Callable:
    """Add --seed/--players/--rules/--rule (only --rules/--rule with ``seeded=False``);
    the command receives them as one ``source: DealSource`` argument."""

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args, rules_spec, rule_overrides, **kwargs):
            # Without the seed options, a command's own --players stays its own.
            seed, players = (kwargs.pop("seed"), kwargs.pop("players")) if seeded else (None, None)
            source = DealSource(seed, players, rules_spec, tuple(rule_overrides))
            return f(*args, source=source, **kwargs)

        options = (_SEED_OPTIONS if seeded else ()) + _RULES_OPTIONS
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate(func) if func is not None else decorate
