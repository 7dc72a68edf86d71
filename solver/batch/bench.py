"""Benchmark suites for the solver (docs/performance.md): fixed seeded deals and positions,
each solved inside this process, with every win replay-checked and every no-win's proof
method recorded."""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from tranquility.solver import stop_signals
from tranquility.solver.analysis.portfolio import solve
from tranquility.solver.engine.actions import Action, ChoiceKind
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.rng import SplitMix64
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import InternalError
from tranquility.solver.search.budget import Budget
from tranquility.solver.stats import p90
from tranquility.solver.verdicts import DecidedBy, Verdict

EXPLAIN_SUITE = "explain"  # ``explain_bench``
OPTIMAL_SUITE = "optimal"  # ``optimal_bench``
PUZZLES_SUITE = "puzzles"  # ``tranquility.puzzles.timing``
TABLE_SUITE = "table"  # ``table_bench``
FAIR_SUITE = "fair"  # ``fair_bench``

EVERY_COUNT = (1, 2, 3, 4, 5)
RULE_SET_PLAYERS = (1, 2, 4)  # the variants' and the modules' player counts
POSITION_PLAYERS = (2, 3, 4, 5)

# The options of ``tranquility bench`` that only some suites take, in the order the command
# reports them when a suite does not.
OWN_OPTIONS = ("samples", "budgets", "budget_deals", "silent_deals", "sections", "own_deals")
# The solver's options, which every suite takes unless it refuses them.
SOLVER_OPTIONS = ("time_limit", "workers", "reproducible")


@dataclass(frozen=True)
class Suite:
    """A suite as ``tranquility bench --suite NAME`` reads it: the player counts it plays
    (``bench --players`` picks among them; None when its own settings choose them), which of
    ``OWN_OPTIONS`` it takes, and which of ``SOLVER_OPTIONS`` it refuses, with why."""

    name: str
    players: tuple[int, ...] | None
    takes: tuple[str, ...] = ()
    refuses: tuple[str, ...] = ()
    why: str = ""


# The suites that solve each case once (``run``).
SOLVE_SUITES = (
    Suite("official", EVERY_COUNT),
    Suite("variants", RULE_SET_PLAYERS),
    Suite("positions", POSITION_PLAYERS),
    Suite("modules", RULE_SET_PLAYERS),
    Suite("all", EVERY_COUNT),
)

VARIANTS: dict[str, dict] = {
    "order=grid": {"order": "grid"},
    "adjacency=orthogonal": {"adjacency": "orthogonal"},
    "adjacency=both": {"adjacency": "both"},
    "finish=1": {"finish": 1},
    "one_card=lose": {"one_card": "lose"},
    "removed=12": {"removed": 12},
}

# The modules suite: the rulebook's module settings, each on its own, and the
# Islands module with Sea Monsters.
MODULES: dict[str, dict] = {
    "monsters=3": {"monsters": 3},
    "monsters=5": {"monsters": 5},
    "rocks=auto": {"rocks": "auto"},
    "rocks=manual": {"rocks": "manual"},
    "removed=8 monsters=3": {"removed": 8, "monsters": 3},
}


@dataclass(frozen=True)
class Case:
    """One benchmark problem: a group label, and a deal or a position (a line)."""

    group: str
    players: int
    seed: int
    game: Game


@dataclass
class Outcome:
    case: Case
    verdict: Verdict
    method: str  # a DecidedBy, or "internal-error" when the solve raised one
    seconds: float
    replayed: bool  # a win's line replays as a win (always checked)
    replay_seconds: float | None = None  # a win's: the time that replay took, in this process


@dataclass
class GroupSummary:
    group: str
    players: int
    count: int
    decided: float
    verdicts: dict[str, int]
    methods: dict[str, int]
    median: float
    p90: float
    max: float
    replay_ok: bool
    solve_per_replay: float | None = None  # the wins' median of solve seconds / their line's replay seconds

    def to_json(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Report:
    suite: str
    time_limit: float
    machine: str
    groups: list[GroupSummary] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    reproducible: bool = False  # fixed node budgets and CP-SAT deterministic time, not seconds
    interrupted: bool = False  # stopped by Ctrl-C twice (CtrlC): the cases done so far

    def to_json(self, cases: bool = True) -> dict:
        """The report (``bench --out``); without ``cases``, the summary ``bench --json``
        prints. ``"reproducible": true`` is added only for a reproducible run."""
        data: dict = {
            "suite": self.suite,
            "time_limit": self.time_limit,
            "machine": self.machine,
            "interrupted": self.interrupted,
            "groups": [g.to_json() for g in self.groups],
        }
        if self.reproducible:
            data["reproducible"] = True
        if not cases:
            return data
        data["cases"] = [
            {
                "group": o.case.group,
                "players": o.case.players,
                "seed": o.case.seed,
                "verdict": o.verdict,
                "method": o.method,
                "seconds": round(o.seconds, 4),
                "replayed": o.replayed,
                "replay_seconds": None if o.replay_seconds is None else round(o.replay_seconds, 6),
            }
            for o in self.outcomes
        ]
        return data


def cases(suite: str, deals: int | None = None, players: tuple[int, ...] | None = None) -> Iterator[Case]:
    """The problems of a suite, in a fixed order. ``deals`` caps the seeds per group;
    ``players`` keeps the cases of those player counts (all when None)."""
    return (case for case in _cases(suite, deals) if players is None or case.players in players)


def _cases(suite: str, deals: int | None) -> Iterator[Case]:
    if suite in ("official", "all"):
        for players in EVERY_COUNT:
            for seed in range(deals or 200):
                yield Case("official", players, seed, deal(OFFICIAL, players, seed))
    if suite in ("variants", "all"):
        yield from _rule_set_cases(VARIANTS, deals)
    if suite in ("positions", "all"):
        for players in POSITION_PLAYERS:
            for seed in range(deals or 25):
                line = random_playout(deal(OFFICIAL, players, seed), seed)
                for turns in (10, 20, 30):
                    if len(line.actions) >= turns:
                        yield Case(f"after {turns} turns", players, seed, line.with_actions(line.actions[:turns]))
        # Random play loses every game within 10 turns (all refuted at once), so the suite
        # also takes positions from silent play (simulate's thrifty policy): real games,
        # some still winnable, some lost, where proofs are hard.
        from tranquility.solver.search.policies import simulate

        for players in POSITION_PLAYERS:
            for seed in range(deals or 25):
                played = simulate(deal(OFFICIAL, players, seed), "thrifty", seed).line
                for turns in (10, 20, 30):
                    if len(played.actions) >= turns:
                        yield Case(f"silent play, {turns} turns", players, seed, played.with_actions(played.actions[:turns]))
    if suite in ("modules", "all"):
        yield from _rule_set_cases(MODULES, deals)


def _rule_set_cases(rule_sets: dict[str, dict], deals: int | None) -> Iterator[Case]:
    """Each of ``rule_sets`` (its name, its options; a group each) for 1, 2 and 4 players,
    seeds 0.. (50)."""
    for name, options in rule_sets.items():
        rules = Rules(**options)
        for players in RULE_SET_PLAYERS:
            for seed in range(deals or 50):
                yield Case(name, players, seed, deal(rules, players, seed))


def random_playout(game: Deal, seed: int, max_turns: int = 30) -> Line:
    """A seeded random legal playout: each turn, with probability 0.7 a uniformly random
    legal island play if there is one, else a uniformly random legal choice (an action
    without its payment); then a uniformly random one of that choice's first 256 legal
    actions in the engine's order (SplitMix64, docs/performance.md)."""
    rng = SplitMix64(seed)
    state = State.initial(game)
    actions: list[Action] = []
    while len(actions) < max_turns and state.status == Status.OPEN:
        choices = list(state.legal_choices())
        islands = [c for c in choices if c.kind == ChoiceKind.ISLAND]
        if islands and rng.below(10) < 7:
            choice = islands[rng.below(len(islands))]
        else:
            choice = choices[rng.below(len(choices))]
        payments = _first(state.actions_for(choice), 256)
        action = payments[rng.below(len(payments))]
        actions.append(action)
        state = state.apply(action)
    return Line(game, tuple(actions))


def _first(items, n: int) -> list:
    out = []
    for item in items:
        out.append(item)
        if len(out) == n:
            break
    return out


def run(
    suite: str,
    deals: int | None,
    time_limit: float,
    workers: int = 2,
    on_case: Callable[[Case, Outcome], None] | None = None,
    reproducible: bool = False,
    players: tuple[int, ...] | None = None,
) -> Report:
    """Solve every case of ``suite`` (of ``players`` only, when given) with ``time_limit``
    seconds and ``workers`` CP-SAT threads each (or, ``reproducible``, the fixed budgets of
    ``Budget(reproducible=True)``)."""
    report = Report(suite, time_limit, machine_description(), reproducible=reproducible)
    budget = Budget(seconds=time_limit, workers=1 if reproducible else workers, reproducible=reproducible)
    ctrl_c = CtrlC()
    for case in cases(suite, deals, players):
        try:
            outcome = _solved(case, budget)
        except KeyboardInterrupt:  # outside the solve (replaying its line): the case is cut short all the same
            outcome = Outcome(case, Verdict.UNKNOWN, DecidedBy.INTERRUPTED, 0.0, True)
        report.outcomes.append(outcome)
        if on_case is not None:
            on_case(case, outcome)
        if outcome.method == DecidedBy.INTERRUPTED and ctrl_c.came():
            report.interrupted = True
            break
    report.groups = group_summaries(report.outcomes)
    return report


INTERRUPT_WINDOW = 2.0  # seconds


@dataclass
class CtrlC:
    """Ctrl-C in a bench run: the first ends the case under way and the run goes on; a
    second within ``INTERRUPT_WINDOW`` seconds of the one before stops the run, which
    reports the cases done so far as interrupted (docs/cli.md). SIGTERM stops it at once."""

    last: float | None = None

    def came(self) -> bool:
        """Note a case cut short by Ctrl-C (or SIGTERM); whether the run must stop."""
        now = time.monotonic()
        stop = stop_signals.terminated() or (self.last is not None and now - self.last <= INTERRUPT_WINDOW)
        self.last = now
        return stop


class SuiteInterrupted(KeyboardInterrupt):
    """A suite measured in rows stopped by Ctrl-C (``CtrlC``): ``rows`` holds what the cases
    done so far measured."""

    def __init__(self, rows: list) -> None:
        super().__init__()
        self.rows = rows


def _solved(case: Case, budget: Budget) -> Outcome:
    """One case solved, and its win replayed by the verifier (timed)."""
    try:
        result = solve(case.game, budget)
    except InternalError:
        # Reported in the table (replay FAILED), never hidden, and the run goes on.
        return Outcome(case, Verdict.UNKNOWN, "internal-error", 0.0, False)
    replayed, replay_seconds = True, None
    if result.verdict == Verdict.WIN:
        # Timed as a verifier that receives the line replays it: its deal checked too
        # (a fresh copy: the solve's own deal has been checked once already).
        line = result.winning_line
        started = time.perf_counter()
        check = verify(Line(replace(line.deal), line.actions))
        replay_seconds = time.perf_counter() - started
        replayed = check.legal and check.won
    return Outcome(case, result.verdict, result.method, result.seconds, replayed, replay_seconds)


def group_summaries(outcomes: list[Outcome]) -> list[GroupSummary]:
    keys: list[tuple[str, int]] = []
    for o in outcomes:
        key = (o.case.group, o.case.players)
        if key not in keys:
            keys.append(key)
    groups = []
    for group, players in keys:
        mine = [o for o in outcomes if (o.case.group, o.case.players) == (group, players)]
        times = sorted(o.seconds for o in mine)
        ratios = [o.seconds / o.replay_seconds for o in mine if o.replay_seconds]
        verdicts: dict[str, int] = dict.fromkeys(Verdict, 0)
        methods: dict[str, int] = {}
        for o in mine:
            verdicts[o.verdict] += 1
            methods[o.method] = methods.get(o.method, 0) + 1
        groups.append(
            GroupSummary(
                group=group,
                players=players,
                count=len(mine),
                decided=(verdicts[Verdict.WIN] + verdicts[Verdict.NO_WIN]) / len(mine),
                verdicts=verdicts,
                methods=methods,
                median=statistics.median(times),
                p90=p90(times),
                max=times[-1],
                replay_ok=all(o.replayed for o in mine),
                solve_per_replay=statistics.median(ratios) if ratios else None,
            )
        )
    return groups


def markdown_table(report: Report) -> str:
    """The summary as a Markdown table (for docs/performance.md)."""
    head = (
        "| group | players | cases | decided | win | no-win | unknown | decided by | median s | p90 s | max s "
        "| solve/replay | replay |"
    )
    rows = [head, "|" + "---|" * 13]
    for g in report.groups:
        methods = ", ".join(f"{k} {v}" for k, v in sorted(g.methods.items()))
        rows.append(
            f"| {g.group} | {g.players} | {g.count} | {100 * g.decided:.1f}% | {g.verdicts['win']} | "
            f"{g.verdicts['no-win']} | {g.verdicts['unknown']} | {methods} | {g.median:.3f} | "
            f"{g.p90:.3f} | {g.max:.3f} | {_ratio(g.solve_per_replay)} | {'ok' if g.replay_ok else 'FAILED'} |"
        )
    return "\n".join(rows)


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def machine_description() -> str:
    import os

    return f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


@dataclass
class SuiteReport:
    """The report of a suite measured in rows (explain, puzzles): each row has ``to_json``;
    ``time_limit`` is the seconds each case was given (None when the suite takes none)."""

    suite: str
    rows: list
    time_limit: float | None = None
    interrupted: bool = False  # stopped by Ctrl-C twice (CtrlC): the rows of the cases done

    def to_json(self) -> dict:
        data: dict = {"suite": self.suite, "interrupted": self.interrupted}
        if self.time_limit is not None:
            data["time_limit"] = self.time_limit
        data["rows"] = [r.to_json() for r in self.rows]
        return data
