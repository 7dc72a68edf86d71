"""``tranquility bench --suite table`` (docs/performance.md): the silent policies and
lookahead at the silent table.

Official rules. Every way of playing (an ``Arm``) plays the same seeded deals, each with
the deal's seed as its sim seed; the engine checks every action (``simulate``) and the
verifier replays every line to the same end. The sections, each a ``Comparison`` of arms
on the deals all of them finished (the first arm is its baseline):

- silent: per player count, thrifty and tuned on many deals (they cost milliseconds a game);
- rates: per player count, tuned and lookahead (on the tuned blueprint) at the default budget;
- budgets: tuned and lookahead at three budgets (each about four times the cost of the one
  before) on fewer deals;
- modes: every seat looking ahead, and one seat (seat 0) among tuned players;
- beliefs: each of lookahead's beliefs (``lookahead.BELIEFS``).

Each arm after the first carries the paired difference from the first with its 95%
interval. Then the CPU seconds of a decision at the default budget (median, p90) and the
rollout rate: blueprint playouts from mid-game positions per CPU second. ``sections``
chooses the sections to play. An arm that two sections
share plays each deal once (the same arm, deal and seed give the same line). The games run
in this process, or side by side in ``workers`` processes; every CPU second is the
deciding thread's own (one core). Ctrl-C as in every suite (``CtrlC``): the first ends the
games under way, left out of every count; a second within 2 s stops the run, and the
report covers the games done, ``interrupted``."""

from __future__ import annotations

import concurrent.futures as cf
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from tranquility.solver.batch.bench import TABLE_SUITE, CtrlC, Suite, machine_description
from tranquility.solver.batch.odds_summary import PolicyRate, _round, decision_cells, shown_percent
from tranquility.solver.batch.plays import SEARCHING, TimedLookahead, play, stored_name
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL
from tranquility.solver.engine.state import replay
from tranquility.solver.engine.verify import verify
from tranquility.solver.search.lookahead import BELIEFS, BLUEPRINTS, DEFAULT_SAMPLES
from tranquility.solver.search.policies import Policy, make_policy, play_on, simulate
from tranquility.solver.stats import p90, paired_interval
from tranquility.solver.stop_signals import held

RATE_PLAYERS = (1, 2, 3, 4, 5)  # the rates section's player counts
COMPARE_PLAYERS = (2, 4)  # the other sections'
DEALS = 50  # seeds 0..49
SILENT_DEALS = 1000  # the silent section's seeds: 0..999, the evaluation seeds
BUDGET_DEALS = 10  # the budgets section's seeds, at most: 0..9
# Worlds per round of successive halving: each budget costs about four times the one before.
BUDGETS = (6, 24, 96)
ROLLOUT_SEEDS = 20  # the rollout rate's positions: the blueprint's games on seeds 0..19, halfway through
ROLLOUT_REPEATS = 5  # each played out this many times
TABLE = Suite(
    TABLE_SUITE,
    None,
    takes=("samples", "budgets", "budget_deals", "silent_deals", "sections"),
    refuses=("time_limit", "reproducible"),
    why="it plays games, solving none",
)


@dataclass(frozen=True)
class Arm:
    """One way of playing a deal: the silent ``policy`` at every seat (``samples`` None),
    or lookahead with ``samples`` worlds per round and a ``belief``, at every seat or at
    ``seat`` only (the other seats play its blueprint)."""

    samples: int | None = None
    seat: int | None = None
    belief: str | None = None
    policy_name: str = "thrifty"

    @classmethod
    def lookahead(cls, samples: int, seat: int | None = None, belief: str = BELIEFS[0]) -> Arm:
        return cls(samples, seat, belief)

    @property
    def name(self) -> str:
        """``thrifty``, ``lookahead:6`` (as the odds store names it), with ``, seat 0 only``
        or ``, belief counts`` when it differs from the default."""
        return self.label(self.belief not in (None, BELIEFS[0]))

    def label(self, belief: bool) -> str:
        """The name, with the belief said (``belief``) or not."""
        if self.samples is None:
            return self.policy_name
        name = stored_name(SEARCHING, self.samples)
        if self.seat is not None:
            name += f", seat {self.seat} only"
        return f"{name}, belief {self.belief}" if belief else name

    def policy(self, seed: int) -> Policy:
        if self.samples is None:
            return make_policy(self.policy_name, seed)
        return TimedLookahead(seed, self.samples, self.seat, belief=self.belief)

    def to_json(self) -> dict:
        return {"policy": self.name, "samples": self.samples, "seat": self.seat, "belief": self.belief}


@dataclass(frozen=True)
class TableCase:
    arm: Arm
    players: int
    seed: int


@dataclass(frozen=True)
class TableGame:
    """One case played: won or not, whether the verifier replayed its line to the same end,
    its turns and the CPU seconds of each decision of a searching seat; or cut short."""

    case: TableCase
    won: bool = False
    checked: bool = True
    turns: int = 0
    decisions: tuple[float, ...] = ()
    interrupted: bool = False
    game_cpu: float = 0.0  # the CPU seconds of the whole game (the verifier's replay aside)

    def to_json(self) -> dict:
        return {
            **self.case.arm.to_json(),
            "players": self.case.players,
            "seed": self.case.seed,
            "won": self.won,
            "checked": self.checked,
            "turns": self.turns,
            "decisions": len(self.decisions),
            "cpu_seconds": round(sum(self.decisions, 0.0), 4),
            "game_cpu_seconds": round(self.game_cpu, 5),
            "interrupted": self.interrupted,
        }


def play_case(case: TableCase) -> TableGame:
    """Play one case (the task a worker runs) and replay its line in the verifier."""
    game = deal(OFFICIAL, case.players, case.seed)
    began = time.thread_time()
    result, decisions = play(game, case.arm.policy(case.seed), case.seed)
    spent = time.thread_time() - began
    check = verify(result.line)
    checked = check.legal and check.won == result.won
    return TableGame(case, result.won, checked, result.turns, tuple(d.cpu_seconds for d in decisions), game_cpu=spent)


@dataclass(frozen=True)
class Section:
    """Arms on the seeds ``seeds`` at one player count; the first arm is the baseline."""

    name: str
    players: int
    arms: tuple[Arm, ...]
    seeds: range

    def cases(self) -> Iterator[TableCase]:
        """Deal by deal, every arm on each: a run cut short leaves whole deals."""
        for seed in self.seeds:
            for arm in self.arms:
                yield TableCase(arm, self.players, seed)


@dataclass(frozen=True)
class ArmResult:
    """An arm over a comparison's deals: its wins and its decisions' CPU seconds (``rate``,
    as the odds summary gives a policy's, with its Wilson 95% interval), every decision's
    CPU seconds, and (all but the baseline) the baseline's wins on the same deals, the
    deals only this arm won and those only the baseline won."""

    arm: Arm
    rate: PolicyRate
    decisions: tuple[float, ...] = ()
    baseline_won: int | None = None  # None: this is the baseline
    only_this: int = 0
    only_baseline: int = 0

    @classmethod
    def of(cls, arm: Arm, games: Sequence[TableGame], base: Sequence[TableGame] | None = None) -> ArmResult:
        """``arm``'s ``games``, and against the baseline's ``base`` on the same deals."""
        won = [g.won for g in games]
        spent = tuple(t for g in games for t in g.decisions)
        timed = (statistics.median(spent), p90(spent)) if spent else (None, None)
        rate = PolicyRate(arm.name, len(games), sum(won), len(spent), *timed)
        if base is None:
            return cls(arm, rate, spent)
        first = [g.won for g in base]
        alone = sum(w and not b for w, b in zip(won, first, strict=True))
        behind = sum(b and not w for w, b in zip(won, first, strict=True))
        return cls(arm, rate, spent, sum(first), alone, behind)

    @property
    def difference_points(self) -> float | None:
        """This arm's rate less the baseline's, in percentage points."""
        if self.baseline_won is None or not self.rate.deals:
            return None
        return 100 * (self.rate.won - self.baseline_won) / self.rate.deals

    @property
    def difference_interval(self) -> tuple[float, float] | None:
        """The 95% interval of ``difference_points``, paired deal by deal (Agresti and
        Min's, ``stats.paired_interval``)."""
        n = self.rate.deals
        if self.baseline_won is None or not n:
            return None
        return paired_interval(self.only_this, self.only_baseline, n)

    def to_json(self) -> dict:
        data = {**self.arm.to_json(), **self.rate.to_json()}
        if self.baseline_won is not None:
            low, high = self.difference_interval or (0.0, 0.0)
            data.update(
                difference_points=_round(self.difference_points, 2),
                difference_interval=[_round(low, 2), _round(high, 2)],
                only_this=self.only_this,
                only_baseline=self.only_baseline,
            )
        return data


@dataclass(frozen=True)
class Comparison:
    """One section at one player count, over the deals every arm finished."""

    section: str
    players: int
    deals: int
    arms: tuple[ArmResult, ...]

    def to_json(self) -> dict:
        return {"players": self.players, "deals": self.deals, "arms": [a.to_json() for a in self.arms]}


def compare(section: Section, games: dict[TableCase, TableGame]) -> Comparison:
    """The section's arms on the deals all of them finished."""

    def finished(seed: int) -> list[TableGame] | None:
        found = [games.get(TableCase(arm, section.players, seed)) for arm in section.arms]
        done = [g for g in found if g is not None and not g.interrupted]
        return done if len(done) == len(found) else None

    rows = [row for row in map(finished, section.seeds) if row is not None]
    base = [row[0] for row in rows]
    results = [ArmResult.of(section.arms[0], base)]
    results += [ArmResult.of(arm, [row[i] for row in rows], base) for i, arm in enumerate(section.arms) if i]
    return Comparison(section.name, section.players, len(rows), tuple(results))


@dataclass(frozen=True)
class Rollouts:
    """Thrifty playouts from mid-game positions, to the end, and their CPU seconds."""

    playouts: int
    cpu_seconds: float

    @property
    def per_second(self) -> float | None:
        return self.playouts / self.cpu_seconds if self.cpu_seconds > 0 else None

    def to_json(self) -> dict:
        return {"playouts": self.playouts, "cpu_seconds": round(self.cpu_seconds, 4), "per_second": _round(self.per_second, 1)}


def measure_rollouts(players: Iterable[int], seeds: int = ROLLOUT_SEEDS, repeats: int = ROLLOUT_REPEATS) -> Rollouts:
    """The blueprint's speed, as lookahead's playouts run it: its own game on each
    official deal (``players`` x seeds 0..``seeds``-1) cut halfway, each position played
    out to the end by the blueprint at every seat ``repeats`` times, timed in this thread's CPU
    seconds (the games that make the positions are not timed)."""
    positions = []
    for count in players:
        for seed in range(seeds):
            game = deal(OFFICIAL, count, seed)
            line = simulate(game, BLUEPRINTS[0], seed).line
            positions.append(replay(game, line.actions[: len(line.actions) // 2]))
    blueprint = make_policy(BLUEPRINTS[0])
    began = time.thread_time()
    for _ in range(repeats):
        for state in positions:
            play_on(state, blueprint)
    return Rollouts(len(positions) * repeats, time.thread_time() - began)


@dataclass(frozen=True)
class TableSettings:
    """What a table run plays. ``players`` None: the rates at ``RATE_PLAYERS``, the other
    sections at ``COMPARE_PLAYERS``; given, every section at those counts."""

    players: tuple[int, ...] | None = None
    deals: int = DEALS
    samples: int = DEFAULT_SAMPLES
    budgets: tuple[int, ...] = BUDGETS
    budget_deals: int = BUDGET_DEALS
    workers: int = 1
    silent_deals: int = SILENT_DEALS
    chosen: tuple[str, ...] = ()  # the sections to play (empty: all of them)

    @property
    def rate_players(self) -> tuple[int, ...]:
        return self.players or RATE_PLAYERS

    @property
    def compare_players(self) -> tuple[int, ...]:
        return self.players or COMPARE_PLAYERS

    def cases(self) -> list[TableCase]:
        """Every game the sections need, each once, in the sections' order."""
        return list(dict.fromkeys(case for s in self.sections() for case in s.cases()))

    def sections(self) -> list[Section]:
        thrifty, tuned, default = Arm(), Arm(policy_name=BLUEPRINTS[0]), Arm.lookahead(self.samples)
        seeds = range(self.deals)
        found = [Section("rates", p, (tuned, default), seeds) for p in self.rate_players]
        budgets = (tuned, *(Arm.lookahead(n) for n in self.budgets))
        found += [Section("budgets", p, budgets, range(min(self.deals, self.budget_deals))) for p in self.compare_players]
        found += [Section("modes", p, (default, Arm.lookahead(self.samples, seat=0)), seeds) for p in self.compare_players]
        beliefs = tuple(Arm.lookahead(self.samples, belief=b) for b in BELIEFS)
        found += [Section("beliefs", p, beliefs, seeds) for p in self.compare_players]
        # Last: its many quick games would hold back the searching sections' figures.
        found += [Section("silent", p, (thrifty, tuned), range(self.silent_deals)) for p in self.rate_players]
        return [s for s in found if not self.chosen or s.name in self.chosen]

    def to_json(self) -> dict:
        return {
            "rules": "official",
            "rate_players": list(self.rate_players),
            "compare_players": list(self.compare_players),
            "deals": self.deals,
            "samples": self.samples,
            "budgets": list(self.budgets),
            "budget_deals": min(self.deals, self.budget_deals),
            "workers": self.workers,
            "silent_deals": self.silent_deals,
            "sections": list(self.chosen or SECTIONS),
        }


SECTIONS = ("silent", "rates", "budgets", "modes", "beliefs")
TITLES = {
    "silent": "The silent policies: thrifty and tuned",
    "rates": "Win rates: tuned, and lookahead on it at the default budget",
    "budgets": "Lookahead at three budgets, beside tuned (fewer deals)",
    "modes": "Every seat looking ahead, and seat 0 alone among tuned players",
    "beliefs": "Lookahead's beliefs (the first is the default)",
}


@dataclass
class TableReport:
    settings: TableSettings
    comparisons: list[Comparison]
    games: list[TableGame]
    rollouts: Rollouts | None
    machine: str
    interrupted: bool = False
    suite: str = field(default=TABLE_SUITE, init=False)

    def section(self, name: str) -> list[Comparison]:
        return [c for c in self.comparisons if c.section == name]

    @property
    def default_decisions(self) -> tuple[float, ...]:
        """The CPU seconds of every decision at the default budget (the rates' lookahead)."""
        return tuple(t for c in self.section("rates") for a in c.arms[1:] for t in a.decisions)

    @property
    def lines_ok(self) -> bool:
        return all(g.checked for g in self.games)

    def to_json(self, games: bool = False) -> dict:
        """The report (``bench --json``); with ``games``, every game too (``--out``)."""
        spent = self.default_decisions
        data: dict = {
            "suite": self.suite,
            "interrupted": self.interrupted,
            "machine": self.machine,
            "settings": self.settings.to_json(),
            **{name: [c.to_json() for c in self.section(name)] for name in SECTIONS},
            "decisions": {
                "count": len(spent),
                "cpu_s_median": _round(_median(spent)),
                "cpu_s_p90": _round(p90(spent) if spent else None),
            },
            "rollouts": None if self.rollouts is None else self.rollouts.to_json(),
            "silent_game_cpu_s_median": {name: _round(seconds, 5) for name, seconds in silent_costs(self).items()},
            "games": {
                "played": sum(not g.interrupted for g in self.games),
                "interrupted": sum(g.interrupted for g in self.games),
                "lines_ok": self.lines_ok,
            },
        }
        if games:
            data["cases"] = [g.to_json() for g in self.games]
        return data


OnGame = Callable[[TableGame, int, int], None]  # a game recorded, games recorded, games in all


def run_table_suite(settings: TableSettings, on_game: OnGame | None = None) -> TableReport:
    """Play every case of ``settings``' sections (each once), compare, time the rollouts."""
    ctrl_c = CtrlC()
    games, interrupted = play_cases(settings.cases(), settings.workers, ctrl_c, on_game)
    rollouts = None
    if not interrupted and settings.cases():
        try:
            rollouts = measure_rollouts(settings.compare_players)
        except KeyboardInterrupt:  # the rollouts' case: left out, as a game cut short
            interrupted = ctrl_c.came()
    return TableReport(
        settings,
        [compare(s, games) for s in settings.sections()],
        list(games.values()),
        rollouts,
        machine_description(),
        interrupted,
    )


def play_cases(
    cases: Sequence[TableCase], workers: int, ctrl_c: CtrlC, on_game: OnGame | None = None
) -> tuple[dict[TableCase, TableGame], bool]:
    """Each case played, in this process or in ``workers`` processes; and whether Ctrl-C
    stopped the run (``CtrlC``: a first ends the games under way, recorded as interrupted)."""
    games: dict[TableCase, TableGame] = {}

    def record(game: TableGame) -> None:
        games[game.case] = game
        if on_game is not None:
            on_game(game, len(games), len(cases))

    return games, play_each(cases, workers, ctrl_c, play_case, cut_short, record)


def cut_short(case: TableCase) -> TableGame:
    return TableGame(case, interrupted=True)


AnyCase = TypeVar("AnyCase")  # a suite's case (TableCase, FairCase)
AnyGame = TypeVar("AnyGame")  # what playing it gives (TableGame, FairGame)


def play_each(
    cases: Sequence[AnyCase],
    workers: int,
    ctrl_c: CtrlC,
    play: Callable[[AnyCase], AnyGame],
    cut: Callable[[AnyCase], AnyGame],
    record: Callable[[AnyGame], None],
) -> bool:
    """Each case played by ``play`` and recorded, in this process or on a pool of
    ``workers`` processes, one game each at a time (``play`` must then pickle: a module's
    function, or a partial of one); and whether Ctrl-C stopped the run (``CtrlC``: a first
    ends the games under way, each recorded as ``cut(case)``). The pool's workers ignore
    Ctrl-C (odds_runner.local_executor): it stops the pool, and unless it is the second a
    new pool plays on."""
    if workers <= 1:
        for one in cases:
            try:
                game = play(one)
            except KeyboardInterrupt:
                record(cut(one))
                if ctrl_c.came():
                    return True
                continue
            record(game)
        return False
    from tranquility.solver.batch.odds_runner import halt, local_executor

    todo = iter(cases)
    pending: dict[cf.Future, AnyCase] = {}
    pool: cf.ProcessPoolExecutor | None = None
    try:
        while True:
            try:
                if pool is None:
                    pool = local_executor(workers)  # Ctrl-C while it starts: it stops itself, raising
                with held():
                    while len(pending) < workers and (case := next(todo, None)) is not None:
                        pending[pool.submit(play, case)] = case
                if not pending:
                    pool.shutdown()
                    return False
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                with held():
                    for future in done:
                        del pending[future]
                        record(future.result())  # a task's error ends the run here (a bug: exit 3)
            except KeyboardInterrupt:
                with held():
                    if pool is not None:
                        halt(pool, pending)
                    for future, case in pending.items():
                        finished = future.done() and not future.cancelled() and future.exception() is None
                        record(future.result() if finished else cut(case))
                    pending.clear()
                    pool = None
                if ctrl_c.came():
                    return True
    except BaseException:
        with held():
            if pool is not None:
                halt(pool, pending)
        raise


def table_markdown(report: TableReport) -> str:
    """The report as Markdown tables, one per section (docs/performance.md)."""
    lines: list[str] = []
    for name in SECTIONS:
        comparisons = report.section(name)
        if not comparisons:
            continue
        lines += [f"**{TITLES[name]}**", "", "| " + " | ".join(TABLE_COLUMNS) + " |", "|" + "---|" * len(TABLE_COLUMNS)]
        for c in comparisons:
            for result in c.arms:
                lines.append("| " + " | ".join(table_cells(c, result)) + " |")
        lines.append("")
    lines.append(summary_text(report))
    return "\n".join(lines)


# The first arm of a section is its baseline: each other arm's difference from it in
# percentage points, and the deals only it won / only the baseline won.
TABLE_COLUMNS = (
    "players",
    "deals",
    "policy",
    "won",
    "rate [95%]",
    "points vs first [95%]",
    "only it / first",
    "decisions",
    "median CPU s",
    "p90 CPU s",
)
# For a narrow console: the columns in three parts, each led by the player count and policy.
TABLE_PARTS = ((0, 2, 1, 3, 4), (0, 2, 5, 6), (0, 2, 7, 8, 9))


def table_cells(comparison: Comparison, result: ArmResult) -> list[str]:
    """One arm's row in a section's table (``TABLE_COLUMNS``): shares and CPU seconds as
    in the odds tables."""
    diff, rate, spread = result.difference_points, result.rate, result.difference_interval
    versus = "-" if result.baseline_won is None else f"{result.only_this} / {result.only_baseline}"
    return [
        str(comparison.players),
        str(comparison.deals),
        result.arm.label(comparison.section == "beliefs" or result.arm.belief not in (None, BELIEFS[0])),
        str(rate.won),
        shown_percent(rate.rate, rate.ci95),
        "-" if diff is None or spread is None else f"{diff:+.1f} [{spread[0]:+.1f}, {spread[1]:+.1f}]",
        versus,
        *(decision_cells(rate)[1:] if rate.searching else ["-"] * 3),
    ]


def summary_text(report: TableReport) -> str:
    """The lines under the tables: decisions at the default budget, the rollout rate, the
    games played and whether every line replayed."""
    spent = report.default_decisions
    said = [f"Decisions at the default budget ({stored_name(SEARCHING, report.settings.samples)}): {len(spent)}"]
    if spent:
        said[0] += f", CPU time median {statistics.median(spent):.3f} s, p90 {p90(spent):.3f} s"
    if report.rollouts is not None and report.rollouts.per_second is not None:
        r = report.rollouts
        said.append(
            f"Rollouts: {r.playouts} {BLUEPRINTS[0]} playouts from mid-game in {r.cpu_seconds:.2f} s of CPU time: "
            f"{r.per_second:.1f} a second on one core"
        )
    silent = silent_costs(report)
    if silent:
        said.append(
            "A silent game's CPU time, median: "
            + ", ".join(f"{name} {1000 * seconds:.1f} ms" for name, seconds in silent.items())
            + (f" (tuned / thrifty: {silent['tuned'] / silent['thrifty']:.2f})" if {"tuned", "thrifty"} <= set(silent) else "")
        )
    played = sum(not g.interrupted for g in report.games)
    cut = len(report.games) - played
    said.append(
        f"Games: {played} played{f', {cut} cut short by Ctrl-C' if cut else ''}; every line replayed by the verifier: "
        + ("ok" if report.lines_ok else "FAILED")
    )
    return "\n".join(said)


def silent_costs(report: TableReport) -> dict[str, float]:
    """The median CPU seconds of a whole game, per silent policy, over the silent section's
    games (each policy's on the same deals)."""
    spent: dict[str, list[float]] = {}
    for game in report.games:
        if game.case.arm.samples is None and not game.interrupted and game.game_cpu > 0:
            spent.setdefault(game.case.arm.name, []).append(game.game_cpu)
    return {name: statistics.median(times) for name, times in spent.items()}


def _median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None
