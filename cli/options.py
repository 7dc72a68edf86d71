"""Shared command-line options, and turning them into engine values.

Every repeated group of options is one decorator here, so that the same flag means the
same thing everywhere: ``deal_source`` (``--seed N --players P`` with ``--rules``/``--rule``,
or a FILE), ``game_file_argument`` (that FILE, or ``--position TEXT``), ``output_options``
(``--out`` and ``--force``), ``solver_options`` (``--time-limit``, ``--workers``,
``--reproducible``: the ``Budget`` of the solves a command runs), ``json_option`` and
``markdown_option``. So is every repeated kind of value, each command saying in its help what
it is for: ``count_option`` (a whole number, 1 or more), ``seconds_option``,
``players_option`` and ``player_counts_option``, ``grade_option``, ``seat_option``,
``sim_seed_option``, ``policy_option``, ``objective_option``, ``samples_option`` and
``proof_option``. A flag a command would not honour is rejected (exit 2), never ignored.

Only parsing lives here; every rule of the game is the engine's (``solver``).
"""

from __future__ import annotations

import errno
import functools
import math
import os
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource
from tranquility.solver.engine.deal import MAX_SEED
from tranquility.solver.engine.rules import PRESETS
from tranquility.solver.verdicts import Objective, Proof

from .exits import InputError
from .game_input import DealSource, input_error, usage_error

if TYPE_CHECKING:
    from tranquility.solver.search.budget import Budget


def given(ctx: click.Context, name: str) -> bool:
    """Whether the user gave option ``name`` (on the command line or in the environment),
    rather than leaving its default."""
    return ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def reject(ctx: click.Context, options: dict[str, str], why: str) -> None:
    """A usage error (exit 2) when any of ``options`` ({parameter name: flag}) was given:
    the command would not honour it. ``why`` completes "<flags> is/are ...", e.g.
    "not taken by --suite puzzles: the grader has fixed budgets"."""
    flags = [flag for name, flag in options.items() if given(ctx, name)]
    if flags:
        raise usage_error(f"{' and '.join(flags)} {'is' if len(flags) == 1 else 'are'} {why}")


# -- output flags (the same on every command) -------------------------------------------

json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of the readable view.")


def markdown_option(help: str) -> Callable[[Callable], Callable]:
    """``--markdown`` (help ``help``: which tables it prints), rejected with ``--json``."""

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            if kwargs["as_json"] and kwargs["markdown"]:
                raise usage_error("--json and --markdown do not mix; choose one")
            return f(*args, **kwargs)

        return click.option("--markdown", is_flag=True, help=help)(wrapper)

    return decorate


POSITION_HELP = "Start from this position, in its text form (tq1 ..., docs/formats.md) or its JSON, instead of a FILE."


def position_option(func: Callable) -> Callable:
    """``--position TEXT``: a position's text form in place of a FILE."""
    return click.option("--position", "position_text", metavar="TEXT", help=POSITION_HELP)(func)


def game_file_argument(func: Callable) -> Callable:
    """An optional FILE (deal, position or line file; ``-`` standard input) in place of
    --seed/--players, and --position TEXT in place of either: ``deal_source`` reads it, or
    the command receives ``file`` and ``position_text``."""
    return click.argument("file", required=False, metavar="[FILE]", type=click.Path(dir_okay=False))(position_option(func))


def output_options(
    what: str,
    *,
    flag: str = "--out",
    dest: str = "out",
    directory: bool = False,
    overwrite: str = "an existing file",
    also: Sequence[tuple[str, str, str]] = (),
) -> Callable[[Callable], Callable]:
    """``--out PATH`` (or ``flag``), where to write ``what``, and ``--force`` to overwrite
    ``overwrite``; ``also`` adds more outputs, as (flag, dest, what), under the same
    ``--force``. ``--force`` without any of them is rejected. Every path given is checked
    (``check_output``) before the command starts its work, so that a path that cannot be
    written is exit 2 at once, not after a long solve."""
    outputs = ((flag, dest, what), *also)
    flags = " or ".join(f for f, _, _ in outputs)

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            force = kwargs["force"]
            if force and all(kwargs[d] is None for _, d, _ in outputs):
                raise usage_error(f"--force only says that {flags} may overwrite {overwrite}: give {flags} too")
            for option_flag, d, _ in outputs:
                check_output(kwargs[d], force, directory=directory, flag=option_flag)
            return f(*args, **kwargs)

        path_type = click.Path(file_okay=False) if directory else click.Path(dir_okay=False)
        names = " and ".join(f for f, _, _ in outputs)
        wrapper = click.option("--force", is_flag=True, help=f"Let {names} overwrite {overwrite}.")(wrapper)
        for option_flag, option_dest, option_what in reversed(outputs):
            metavar = "DIR" if directory else "PATH"
            wrapper = click.option(option_flag, option_dest, type=path_type, metavar=metavar, help=option_what)(wrapper)
        return wrapper

    return decorate


def check_output(path: str | None, force: bool, directory: bool = False, flag: str = "--out") -> None:
    """An InputError (exit 2) unless ``path`` (given as ``flag``) can be written: it is not
    empty, its folder exists and takes a new file, it is not a folder (or, ``directory``, it
    is one or can be created), and an existing file is only overwritten with ``force``.
    Nothing is created or changed: the folder is probed with a temporary file that is
    removed at once."""
    if path is None:
        return
    if not path.strip():  # Path("") is the current folder: say what was given instead
        raise InputError(f"{flag} {path!r}: an empty path names no {'folder' if directory else 'file'}")
    target = Path(path)
    if directory:
        if target.exists() and not target.is_dir():
            raise input_error(path, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
        folder = target
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent  # generate creates the missing folders: the first that exists must take them
        _probe(path, folder)
        return
    if target.is_dir():
        raise input_error(path, IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if target.exists():
        if not force:
            raise input_error(path, FileExistsError(f"{path} already exists (use --force to overwrite it)"))
        try:
            with open(target, "ab"):
                pass  # opened for writing, nothing written
        except OSError as exc:
            raise input_error(path, exc) from None
        return
    folder = target.parent
    if not folder.exists():
        raise input_error(path, FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT)))
    if not folder.is_dir():
        raise input_error(path, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    _probe(path, folder)


def _probe(path: str, folder: Path) -> None:
    """Create and remove a temporary file in ``folder``: the one test of writing that holds
    for every user (root included) and every file system (read-only ones included)."""
    if not folder.is_dir():
        raise input_error(path, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".tranquility-check-")
    except OSError as exc:
        raise input_error(path, exc) from None
    os.close(handle)
    os.unlink(probe)


# -- solver budgets ---------------------------------------------------------------------


@dataclass(frozen=True)
class Limits:
    """--time-limit, --workers and --reproducible as given (``seconds`` None: no clock)."""

    seconds: float | None
    workers: int
    reproducible: bool

    def budget(self, base: Budget | None = None, proof: Proof | None = None) -> Budget:
        """The solver's ``Budget`` (``tasks.budget_of``, as a request's is made): ``base``
        (default ``Budget()``) with these limits, and ``proof`` (--proof) when given."""
        from tranquility.app.tasks import budget_of

        return budget_of(self.seconds, self.workers, self.reproducible, base, proof)


WORKERS_HELP = "CP-SAT threads of one solve."


def count_option(
    flag: str, help: str, *, default: int | None = None, least: int = 1, metavar: str | None = None
) -> Callable[[Callable], Callable]:
    """``FLAG N``: a whole number, ``least`` or more (deals, games, processes, worlds...);
    its default, if it has one, shown in the help."""
    shown: dict[str, Any] = {} if default is None else {"default": default, "show_default": True}
    return click.option(flag, type=click.IntRange(min=least), metavar=metavar, help=help, **shown)


def seconds_option(flag: str, help: str, *, default: float | None = None, zero: bool = False) -> Callable[[Callable], Callable]:
    """``FLAG SECONDS``: a positive, finite number of seconds (0 too, with ``zero``); its
    default, if it has one, shown in the help."""
    shown: dict[str, Any] = {} if default is None else {"default": default, "show_default": True}
    return click.option(flag, type=Seconds(zero=True) if zero else SECONDS, metavar="SECONDS", help=help, **shown)


def solver_options(
    bounds: str,
    *,
    default: float | None = 60.0,
    reproducible: str,
    workers: str = WORKERS_HELP,
    workers_default: int = 2,
) -> Callable[[Callable], Callable]:
    """``--time-limit SECONDS`` (``bounds`` says what it bounds), ``--workers N`` and
    ``--reproducible`` (help ``reproducible``); the command receives ``limits: Limits``.

    --reproducible replaces seconds and threads by fixed budgets, so it is rejected with
    --time-limit or --workers. With ``default=None`` the command has no clock unless
    --time-limit is given, and --workers alone is rejected too."""

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args, time_limit, workers, reproducible, **kwargs):
            ctx = click.get_current_context()
            if reproducible:
                reject(
                    ctx,
                    {"time_limit": "--time-limit", "workers": "--workers"},
                    "not taken with --reproducible: it uses fixed node budgets and CP-SAT "
                    "deterministic time on one thread instead",
                )
            elif default is None and given(ctx, "workers") and not given(ctx, "time_limit"):
                raise usage_error("--workers goes with --time-limit (without it the solve is deterministic, on one thread)")
            limits = Limits(time_limit, workers, reproducible)
            return f(*args, limits=limits, **kwargs)

        options = (
            seconds_option("--time-limit", f"Seconds for {bounds}.", default=default),
            count_option("--workers", workers, default=workers_default, metavar="N"),
            click.option("--reproducible", is_flag=True, help=reproducible),
        )
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate


def objective_option(help: str, default: Objective | None = Objective.ANY) -> Callable[[Callable], Callable]:
    """``--objective any|spare|turns|cost`` (the library's list); ``help`` says what it does
    for the command. With ``default=None`` the command chooses (its help says how)."""
    shown: dict[str, Any] = {} if default is None else {"default": default.value, "show_default": True}
    return click.option("--objective", type=click.Choice([o.value for o in Objective]), help=help, **shown)


PROOF_HELP = (
    "How the ladder proves the bound of --objective spare or turns: whole = one CP-SAT run per "
    "step; start-slot = each step case by case on the turn the Start is played; both = the two "
    "side by side, one CP-SAT thread each, the first answer taken (with --workers 1 or "
    "--reproducible: whole; spare on two cores, beside greedy: whole). docs/explain.md."
)


def samples_option(help: str) -> Callable[[Callable], Callable]:
    """``--samples N``: how many worlds a player that searches what it cannot see deals."""
    return count_option("--samples", help, metavar="N")


SEED = click.IntRange(0, MAX_SEED)  # a seed of the library's dealer or of a policy's random choices


def sim_seed_option(help: str, metavar: str | None = None) -> Callable[[Callable], Callable]:
    """``--sim-seed S``: the seed of a policy's random choices and the worlds it deals, 0 by
    default; ``help`` says what it seeds for the command."""
    return click.option("--sim-seed", type=SEED, default=0, show_default=True, metavar=metavar, help=help)


def simulate_policies() -> tuple[str, ...]:
    """The policies a silent table's seat can play (``play --bots``): the silent ones and lookahead."""
    from tranquility.solver.search.lookahead import SIMULATE_POLICIES

    return SIMULATE_POLICIES


def measured_policies() -> tuple[str, ...]:
    """What ``simulate --policy`` and ``odds --policy`` play: a seat's policies and the
    ceilings that are no seat (open-hands)."""
    from tranquility.solver.search.lookahead import MEASURED_POLICIES

    return MEASURED_POLICIES


def policy_option(flag: str, help: str, names: Callable[[], tuple[str, ...]] | None = None) -> Callable[[Callable], Callable]:
    """``FLAG NAME``: one of ``names`` (by default a seat's policies, ``SeatPolicy``), tuned by default."""
    kind = SeatPolicy() if names is None else LazyChoice(names)
    return click.option(flag, type=kind, default="tuned", show_default=True, help=help)


def players_option(
    help: str, *, flag: str = "--players", required: bool = False, metavar: str | None = None
) -> Callable[[Callable], Callable]:
    """``--players P`` (or ``flag``): one player count, 1 to 5, checked as it is parsed."""
    return click.option(flag, type=click.IntRange(1, 5), required=required, metavar=metavar, help=help)


def player_counts_option(help: str) -> Callable[[Callable], Callable]:
    """``--players 4``, ``1-5`` or ``2,4`` (``PlayerRange``): the player counts to play."""
    return click.option("--players", type=PlayerRange(), help=help)


def grade_option(help: str, *, dest: str = "grade", required: bool = False) -> Callable[[Callable], Callable]:
    """``--grade G``: a puzzle grade, 1 (easy) to 5 (expert)."""
    return click.option("--grade", dest, type=click.IntRange(1, 5), required=required, help=help)


def seat_option(flag: str, help: str) -> Callable[[Callable], Callable]:
    """``FLAG K``: a seat, from 0 (the game's own count bounds it, once it is known)."""
    return click.option(flag, type=click.IntRange(min=0), metavar="K", help=help)


def proof_option(f: Callable) -> Callable:
    """``--proof both|whole|start-slot``; the command receives ``proof: Proof``. Given with
    an objective the ladder does not run for (any, cost), it is rejected."""

    @functools.wraps(f)
    def wrapper(*args, proof: str, **kwargs):
        objective = kwargs.get("objective")
        if given(click.get_current_context(), "proof") and objective not in (Objective.SPARE, Objective.TURNS):
            raise usage_error(f"--proof goes with --objective spare or turns (the bounds the ladder proves), not {objective}")
        return f(*args, proof=Proof(proof), **kwargs)

    return click.option(
        "--proof", type=click.Choice([p.value for p in Proof]), default=Proof.BOTH.value, show_default=True, help=PROOF_HELP
    )(wrapper)


class PlayerRange(click.ParamType):
    """``--players 4``, ``--players 1-5`` or a comma-separated list of either (``2,4``,
    ``1-2,5``): the player counts, as a tuple, low to high."""

    name = "P|A-B|P,Q"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, ...]:
        from tranquility.solver.engine.deal import MAX_PLAYERS

        if isinstance(value, tuple):
            return value
        counts: set[int] = set()
        for part in str(value).split(","):
            low, dash, high = part.strip().partition("-")
            try:
                first, last = int(low), int(high) if dash else int(low)
            except ValueError:
                self.fail(f"{value!r} is not a player count (4), a range of them (1-5) or a list (2,4)", param, ctx)
            if not 1 <= first <= last <= MAX_PLAYERS:
                self.fail(f"{value!r}: player counts run from 1 to {MAX_PLAYERS}, low to high", param, ctx)
            counts.update(range(first, last + 1))
        return tuple(sorted(counts))


class Seconds(click.FloatRange):
    """A number of seconds: positive (or 0, with ``zero``) and finite. ``nan`` and ``inf``
    parse as floats, and ``nan`` passes every comparison a range makes, so both are refused
    here by name."""

    name = "number of seconds"

    def __init__(self, zero: bool = False) -> None:
        super().__init__(min=0, min_open=not zero)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return seconds


SECONDS = Seconds()


class LazyChoice(click.Choice):
    """A ``click.Choice`` whose names come from the library on first use, so that a choice
    list is imported, never copied, and ``tranquility --help`` stays light."""

    def __init__(self, names: Callable[[], Any], case_sensitive: bool = True) -> None:
        self._names = names
        self._choices: tuple[str, ...] | None = None
        super().__init__((), case_sensitive=case_sensitive)
        # Choice's own __init__ stored its (empty) choices through the setter below: forget
        # them, so that the names are still looked up on first use.
        self._choices = None

    @property
    def choices(self) -> tuple[str, ...]:
        if self._choices is None:
            self._choices = tuple(str(name) for name in self._names())
        return self._choices

    @choices.setter
    def choices(self, value: Iterable[Any]) -> None:
        self._choices = tuple(str(name) for name in value)


class SeatPolicy(LazyChoice):
    """A seat's policy (``simulate_policies``): a ceiling that is no seat (open-hands) is
    refused with the reason, not only as a name missing from the list."""

    def __init__(self) -> None:
        super().__init__(simulate_policies)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from tranquility.solver.search.lookahead import CEILING_REASON, CEILINGS

        if value in CEILINGS:
            self.fail(f"{value} {CEILING_REASON}; a seat sees its own hand only (seats: {', '.join(self.choices)})", param, ctx)
        return super().convert(value, param, ctx)


# -- rules ------------------------------------------------------------------------------


# -- where a game comes from -------------------------------------------------------------


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
        type=SEED,
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
            # --position comes with game_file_argument, on the commands that take a FILE.
            position_text = kwargs.pop("position_text", None)
            source = DealSource(seed, players, rules_spec, tuple(rule_overrides), position_text)
            return f(*args, source=source, **kwargs)

        options = (_SEED_OPTIONS if seeded else ()) + _RULES_OPTIONS
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper

    return decorate(func) if func is not None else decorate
