"""Benchmark suites for the solver (docs/performance.md): fixed seeded deals and positions,
each solved inside this process, with every win replay-checked and every no-win's proof
method recorded."""

from __future__ import annotations

import math
import platform
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from tranquility.solver import ctrl_c
from tranquility.solver.analysis.results import Result
from tranquility.solver.analysis.solve import solve
from tranquility.solver.engine.actions import Action, ChoiceKind
from tranquility.solver.engine.deal import Deal, deal
from tranquility.solver.engine.line import Game, Line
from tranquility.solver.engine.rng import SplitMix64
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.engine.state import State, Status
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import InternalError
from tranquility.solver.search.baseline import BASELINE, GREEDY_BASELINE, greedy_baseline
from tranquility.solver.search.budget import Budget
from tranquility.solver.verdicts import DecidedBy, Objective, Verdict

SUITES = ("official", "variants", "positions", "modules", "all")  # solve suites: ``run``
EXPLAIN_SUITE = "explain"  # ``run_explain_suite``
OPTIMAL_SUITE = "optimal"  # ``run_optimal_suite``
PUZZLES_SUITE = "puzzles"  # ``tranquility.puzzles.timing.run_puzzle_suite``
TABLE_SUITE = "table"  # ``table_bench.run_table_suite``
FAIR_SUITE = "fair"  # ``fair_bench.run_fair_suite``
# What ``tranquility bench --suite`` takes.
ALL_SUITES = (*SUITES, EXPLAIN_SUITE, OPTIMAL_SUITE, PUZZLES_SUITE, TABLE_SUITE, FAIR_SUITE)

RULE_SET_PLAYERS = (1, 2, 4)  # the variants' and the modules' player counts
POSITION_PLAYERS = (2, 3, 4, 5)
OPTIMAL_PLAYERS = (2, 3, 4, 5)
# The player counts of each suite that has them fixed (``bench --players`` picks among them).
SUITE_PLAYERS: dict[str, tuple[int, ...]] = {
    "official": (1, 2, 3, 4, 5),
    "variants": RULE_SET_PLAYERS,
    "positions": POSITION_PLAYERS,
    "modules": RULE_SET_PLAYERS,
    "all": (1, 2, 3, 4, 5),
    EXPLAIN_SUITE: (2, 3, 4, 5),
    OPTIMAL_SUITE: OPTIMAL_PLAYERS,
    PUZZLES_SUITE: (1, 2, 3, 4, 5),
}

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
        for players in SUITE_PLAYERS["official"]:
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


def _rule_set_cases(table: dict[str, dict], deals: int | None) -> Iterator[Case]:
    """Each rule set of ``table`` (a group each) for 1, 2 and 4 players, seeds 0.. (50)."""
    for name, options in table.items():
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
    report.groups = summarise(report.outcomes)
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
        stop = ctrl_c.terminated() or (self.last is not None and now - self.last <= INTERRUPT_WINDOW)
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


def summarise(outcomes: list[Outcome]) -> list[GroupSummary]:
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
                p90=times[max(0, math.ceil(0.9 * len(times)) - 1)],
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


# -- the explain suite ---------------------------------------------------------------------


@dataclass
class ExplainRow:
    players: int
    deals: int
    median_seconds: float
    optimal_share: float  # best spare proven optimal
    critical_proven_share: float  # critical-move claims proven
    analyze_positions: int
    analyze_decided_share: float  # positions of greedy-played lines decided
    spare: tuple[tuple[int, int, int | None, bool], ...] = ()  # per seed: (seed, value, bound, optimal)

    def to_json(self) -> dict:
        data = self.__dict__.copy()
        data["spare"] = [{"seed": s, "value": v, "bound": b, "optimal": o} for s, v, b, o in self.spare]
        return data


def run_explain_suite(
    deals: int | None,
    time_limit: float,
    critical_time: float,
    analyze_time: float,
    on_step: Callable[[str], None] | None = None,
    players: tuple[int, ...] = SUITE_PLAYERS[EXPLAIN_SUITE],
) -> list[ExplainRow]:
    """Per player count (2-5, or ``players``): explain official seeds 0..N-1 (default 50)
    for best spare; and analyze the lines `simulate --policy greedy` plays on seeds
    0..min(N, 20)-1."""
    from tranquility.solver.analysis.analyze import analyze
    from tranquility.solver.analysis.explain import explain
    from tranquility.solver.search.policies import simulate

    rows: list[ExplainRow] = []
    ctrl_c = CtrlC()
    for count in players:
        times, optimal, claims, proven, spare = [], 0, 0, 0, []
        for seed in range(deals or 50):
            if on_step is not None:
                on_step(f"explain {count} players, seed {seed}")
            started = time.monotonic()
            e = explain(deal(OFFICIAL, count, seed), Objective.SPARE, Budget(seconds=time_limit), critical_time)
            if e.result.interrupted and ctrl_c.came():
                raise SuiteInterrupted(rows)  # the player counts done
            times.append(time.monotonic() - started)
            optimal += bool(e.result.best and e.result.best.optimal)
            if e.result.best is not None:
                best = e.result.best
                spare.append((seed, best.value, best.bound, best.optimal))
            claims += len(e.critical)
            proven += sum(c.proven for c in e.critical)
        positions = decided = 0
        for seed in range(min(deals or 20, 20)):
            if on_step is not None:
                on_step(f"analyze {count} players, seed {seed}")
            played = simulate(deal(OFFICIAL, count, seed), "greedy", seed).line
            analysis = analyze(played, Budget(seconds=analyze_time))
            positions += len(analysis.positions)
            decided += sum(p.verdict != Verdict.UNKNOWN for p in analysis.positions)
        rows.append(
            ExplainRow(
                count,
                len(times),
                statistics.median(times),
                optimal / len(times),
                proven / max(1, claims),
                positions,
                decided / max(1, positions),
                tuple(spare),
            )
        )
    return rows


def explain_markdown(rows: list[ExplainRow]) -> str:
    lines = [
        "| players | deals | median explain s | best spare proven optimal | critical claims proven "
        "| analyze positions | analyze decided |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.players} | {r.deals} | {r.median_seconds:.2f} | {100 * r.optimal_share:.0f}% | "
            f"{100 * r.critical_proven_share:.0f}% | {r.analyze_positions} | {100 * r.analyze_decided_share:.1f}% |"
        )
    lines += ["", "Best spare per deal (value found, bound; * = proven optimal):", ""]
    for r in rows:
        cells = [f"seed {seed}: {value}{'*' if opt else ''} (bound {bound})" for seed, value, bound, opt in r.spare]
        lines.append(f"- {r.players} players: " + ", ".join(cells))
    return "\n".join(lines)


# -- the optimal suite ---------------------------------------------------------------------

OPTIMAL_OBJECTIVES = (Objective.TURNS, Objective.SPARE)
OPTIMAL_DEALS = 15  # official seeds 0-14
BASELINE_PLAYERS = (2, 3)  # where the greedy baseline (GREEDY_BASELINE per Finish keeper) is a target


@dataclass(frozen=True)
class OptimalCase:
    """One ``solve --objective``: the value of the line found and the bound proven (None
    when no win was found), which search and which proof gave them, and for spare on 2-3
    players the best spare of the greedy baseline (``greedy_baseline``)."""

    players: int
    seed: int
    objective: str
    value: int | None
    bound: int | None
    optimal: bool
    value_by: str | None
    bound_by: str | None
    seconds: float
    greedy: int | None = None
    # The greedy baseline's playouts the solve ran itself (all of them: the value is at least
    # ``greedy`` by construction); None when its first win met the bound.
    solve_playouts: int | None = None

    @property
    def gap(self) -> int | None:
        """How far the bound is from the value: 0 when proven optimal."""
        if self.value is None or self.bound is None:
            return None
        return abs(self.bound - self.value)

    def to_json(self) -> dict:
        data = self.__dict__.copy()
        data["seconds"] = round(self.seconds, 2)
        data["gap"] = self.gap
        return data


@dataclass(frozen=True)
class OptimalRow:
    """Per player count and objective: the proven share, the gap's median and p90 (over
    the deals won), how often each proof gave the bound and each search the value, and
    (spare, 2-3 players) on how many deals the value is at least the greedy baseline."""

    players: int
    objective: str
    cases: tuple[OptimalCase, ...]

    @property
    def proven_share(self) -> float:
        return sum(c.optimal for c in self.cases) / len(self.cases)

    @property
    def gaps(self) -> list[int]:
        return sorted(c.gap for c in self.cases if c.gap is not None)

    def by(self, what: str) -> dict[str, int]:
        """How many cases each method gave: ``what`` is "value_by" or "bound_by"."""
        counts: dict[str, int] = {}
        for c in self.cases:
            key = getattr(c, what) or "none"
            counts[key] = counts.get(key, 0) + 1
        return counts

    @property
    def at_least_greedy(self) -> tuple[int, int] | None:
        """(deals whose value is at least the greedy baseline, deals with a baseline), or
        None where no baseline was taken."""
        baseline = [(c.value, c.greedy) for c in self.cases if c.greedy is not None]
        if not baseline:
            return None
        return sum(value is not None and value >= greedy for value, greedy in baseline), len(baseline)

    def to_json(self) -> dict:
        gaps, met = self.gaps, self.at_least_greedy
        return {
            "players": self.players,
            "objective": self.objective,
            "deals": len(self.cases),
            "proven_share": self.proven_share,
            "gap_median": statistics.median(gaps) if gaps else None,
            "gap_p90": _p90(gaps),
            "bound_by": self.by("bound_by"),
            "value_by": self.by("value_by"),
            "at_least_greedy": None if met is None else {"met": met[0], "of": met[1]},
            "cases": [c.to_json() for c in self.cases],
        }


def _p90(values: list) -> float | None:
    """The 90th percentile of sorted ``values`` (as ``summarise`` takes it), None if empty."""
    return values[max(0, math.ceil(0.9 * len(values)) - 1)] if values else None


def run_optimal_suite(
    deals: int | None,
    time_limit: float,
    workers: int = 2,
    reproducible: bool = False,
    players: tuple[int, ...] = OPTIMAL_PLAYERS,
    baseline: int = GREEDY_BASELINE,
    on_step: Callable[[str], None] | None = None,
) -> list[OptimalRow]:
    """Per player count: ``solve --objective turns`` and ``--objective spare`` on official
    seeds 0..N-1 (default 15) with ``time_limit`` seconds each (or, ``reproducible``, the
    fixed budgets); for spare on 2-3 players, the best of the greedy baseline too
    (``baseline`` seeded playouts per Finish keeper, which each solve runs first: a short
    solve may run fewer, and then the suite runs them all, outside the solve's time).
    Ctrl-C: as ``CtrlC`` says (a case cut short is left out; ``SuiteInterrupted`` carries
    the rows of the cases done)."""
    budget = Budget(
        seconds=time_limit, workers=1 if reproducible else workers, reproducible=reproducible, greedy_playouts=baseline
    )
    found: dict[tuple[int, str], list[OptimalCase]] = {}
    ctrl_c = CtrlC()
    for count in players:
        for seed in range(deals or OPTIMAL_DEALS):
            game = deal(OFFICIAL, count, seed)
            for objective in OPTIMAL_OBJECTIVES:
                if on_step is not None:
                    on_step(f"{count} players, seed {seed}, {objective}")
                result = solve(game, budget, objective=objective)
                if result.interrupted:
                    if ctrl_c.came():
                        raise SuiteInterrupted(_optimal_rows(found))
                    continue  # a case cut short is left out: its value and bound are not the suite's
                best = result.best
                greedy = None
                if objective == Objective.SPARE and count in BASELINE_PLAYERS:
                    greedy = _baseline_best(game, result, baseline)
                ran = result.stats.get(BASELINE)
                case = OptimalCase(
                    count,
                    seed,
                    objective,
                    None if best is None else best.value,
                    None if best is None else best.bound,
                    best is not None and best.optimal,
                    None if best is None else best.value_by,
                    None if best is None else best.bound_by,
                    result.seconds,
                    greedy,
                    None if ran is None else ran["playouts"],
                )
                found.setdefault((count, objective), []).append(case)
    return _optimal_rows(found)


def _optimal_rows(found: dict[tuple[int, str], list[OptimalCase]]) -> list[OptimalRow]:
    return [OptimalRow(count, objective, tuple(cases)) for (count, objective), cases in found.items()]


def _baseline_best(game: Deal, result: Result, playouts: int) -> int | None:
    """The most cards kept by a win among the greedy baseline's playouts (``greedy_baseline``,
    ``playouts`` per Finish keeper); None if none wins. The solve ran the same playouts: its
    figure is taken when it ran them all (or stopped at the bound, which none beats)."""
    ran = result.stats.get(BASELINE)
    if ran is not None and not ran["interrupted"] and (ran["at_bound"] or ran["playouts"] == ran["of"]):
        return ran["best"]
    return greedy_baseline(State.initial(game), Objective.SPARE, playouts).value


def optimal_markdown(rows: list[OptimalRow]) -> str:
    """The optimal suite as a Markdown table (docs/performance.md, docs/explain.md)."""
    lines = [
        "| players | objective | deals | proven optimal | gap median | gap p90 | bound by | line by "
        f"| >= greedy {GREEDY_BASELINE:,} |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        data = r.to_json()
        bound_by = ", ".join(f"{k} {v}" for k, v in sorted(data["bound_by"].items()))
        value_by = ", ".join(f"{k} {v}" for k, v in sorted(data["value_by"].items()))
        met = r.at_least_greedy
        greedy = "-" if met is None else f"{met[0]}/{met[1]}"
        lines.append(
            f"| {r.players} | {r.objective} | {len(r.cases)} | {100 * r.proven_share:.0f}% | {_num(data['gap_median'])} | "
            f"{_num(data['gap_p90'])} | {bound_by} | {value_by} | {greedy} |"
        )
    lines += ["", "Per deal (value, bound; * = proven optimal):", ""]
    for r in rows:
        cells = [f"seed {c.seed}: {c.value}{'*' if c.optimal else ''} ({c.bound})" for c in r.cases]
        lines.append(f"- {r.players} players, {r.objective}: " + ", ".join(cells))
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"
