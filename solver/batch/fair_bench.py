"""``tranquility bench --suite fair`` (docs/performance.md): the fair analysis
(analysis/fair.py, docs/explain.md) measured over many games.

Two sections, at each player count:

- lost: thrifty at every seat on seeds 0, 1, 2, ... (each its own sim seed) until
  ``deals`` games are lost (at most ``SEED_CAP`` x ``deals`` seeds); each lost line gets the
  perfect analysis, then the fair one at its default turns (the flagged ones and
  ``DEFAULT_TURNS`` others): how many lost wins it calls a mistake, how many bad luck.
- own: lookahead (its default budget) at every seat on seeds 0..``own_deals``-1, each line
  judged at every turn: the share of the policy's own moves called mistakes.

The engine checks every action and the verifier replays every line. The fair analysis's
budget is a count of worlds; the perfect analysis's is ``budget`` (seconds by default, as
``analyze``). Each game's CPU seconds are its process's (``time.process_time``: the game,
both analyses and the solver's threads). The games run in this process or side by side in
``workers`` processes; Ctrl-C as in the table suite (``table_bench.play_each``).

A run takes hours, so it can keep a journal (``FairJournal``, journal.py): a header with the
settings, then one line per finished game, each flushed as it is written. A rerun with the same settings
reads it and plays only the games it lacks; a journal of other settings is refused."""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tranquility.solver.analysis.analyze import analyze
from tranquility.solver.analysis.fair import DEFAULT_TURNS, FAIR_SAMPLES, Judgement, fair_analysis
from tranquility.solver.batch.bench import FAIR_SUITE, CtrlC, Suite, machine_description
from tranquility.solver.batch.journal import Journal
from tranquility.solver.batch.odds_summary import _round, shown_percent
from tranquility.solver.batch.table_bench import play_each
from tranquility.solver.engine.deal import deal
from tranquility.solver.engine.rules import OFFICIAL, Rules
from tranquility.solver.engine.verify import verify
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.search.budget import Budget
from tranquility.solver.search.lookahead import DEFAULT_SAMPLES, Lookahead
from tranquility.solver.search.policies import simulate
from tranquility.solver.stats import p90, wilson

LOST, OWN = "lost", "own"  # the sections
PLAYERS = (4,)
LOST_DEALS = 100  # lost thrifty games wanted per player count
OWN_DEALS = 20  # lookahead's games per player count: seeds 0..19
SEED_CAP = 50  # seeds scanned for lost games: at most this many per game wanted
FAIR_TIME_LIMIT = 10.0  # seconds per position of the perfect analysis, as analyze's default
# The verdicts a lost line can get (won and still winnable need a line that ends winnable).
LOST_VERDICTS = (Judgement.MISTAKE, Judgement.BAD_LUCK, Judgement.UNDECIDED, Judgement.NEVER_WINNABLE)
FAIR = Suite(
    FAIR_SUITE,
    None,
    takes=("samples", "own_deals"),
    refuses=("reproducible",),
    why="its perfect analysis has --time-limit seconds a position, and --workers is its processes",
)


@dataclass(frozen=True)
class FairSettings:
    """What a fair run plays: per player count, ``deals`` lost thrifty games and
    ``own_deals`` lookahead games; ``samples`` worlds per move of the fair analysis;
    ``budget`` for each position of the perfect analysis."""

    players: tuple[int, ...] = PLAYERS
    deals: int = LOST_DEALS
    own_deals: int = OWN_DEALS
    samples: int = FAIR_SAMPLES
    budget: Budget = Budget(seconds=FAIR_TIME_LIMIT, workers=1)  # one thread: the workers fill the cores
    workers: int = 1
    rules: Rules = OFFICIAL

    @property
    def seed_cap(self) -> int:
        return SEED_CAP * self.deals

    def cases(self, scans: Sequence[LostScan]) -> list[FairCase]:
        """The games to analyse: the lost ones ``scans`` found, then lookahead's."""
        lost = [FairCase(LOST, s.players, seed) for s in scans for seed in s.seeds]
        return lost + [FairCase(OWN, p, seed) for p in self.players for seed in range(self.own_deals)]

    def to_json(self) -> dict:
        return {**self.journal_header(), "workers": self.workers}

    def journal_header(self) -> dict:
        """Everything that decides the games' results (not ``workers``, which only decides
        how many run side by side)."""
        return {
            "rules": "official" if self.rules == OFFICIAL else self.rules.to_dict(),
            "players": list(self.players),
            "deals": self.deals,
            "seed_cap": self.seed_cap,
            "own_deals": self.own_deals,
            "lookahead_samples": DEFAULT_SAMPLES,
            "samples": self.samples,
            "turns": DEFAULT_TURNS,
            "time_limit": None if self.budget.reproducible else self.budget.seconds,
            "reproducible": self.budget.reproducible,
        }


@dataclass(frozen=True)
class FairCase:
    section: str  # LOST or OWN
    players: int
    seed: int  # the deal's seed and the sim seed


@dataclass(frozen=True)
class LostScan:
    """Thrifty's games at one player count: ``scanned`` seeds played (0..scanned-1), and
    the ``seeds`` of the lost ones, until ``wanted`` were lost or the cap was reached."""

    players: int
    wanted: int
    scanned: int
    seeds: tuple[int, ...]


def scan_lost(rules: Rules, players: int, wanted: int, cap: int) -> LostScan:
    """Thrifty at every seat on seeds 0, 1, ... (each its own sim seed) until ``wanted``
    games are lost, ``cap`` seeds at most (on the compiled core: the reference's games)."""
    seeds: list[int] = []
    scanned = 0
    while len(seeds) < wanted and scanned < cap:
        if not simulate(deal(rules, players, scanned), "thrifty", scanned, compiled=True).won:
            seeds.append(scanned)
        scanned += 1
    return LostScan(players, wanted, scanned, tuple(seeds))


@dataclass(frozen=True)
class FairGame:
    """One game analysed: the fair verdict on its line, the turns the perfect analysis
    placed the loss in, the first mistake up to it, how many turns were examined and which
    were mistakes, whether the verifier replayed the line to the same end, and the CPU
    seconds it took; or cut short by Ctrl-C (no verdict)."""

    case: FairCase
    judgement: Judgement | None = None
    turns: int = 0
    loss_turns: tuple[int, int] | None = None
    mistake_at: int | None = None
    examined: int = 0
    mistakes: tuple[int, ...] = ()
    checked: bool = True
    cpu_seconds: float = 0.0
    interrupted: bool = False

    @property
    def won(self) -> bool:
        return self.judgement == Judgement.WON

    def to_json(self) -> dict:
        return {
            "section": self.case.section,
            "players": self.case.players,
            "seed": self.case.seed,
            "verdict": None if self.judgement is None else str(self.judgement),
            "turns": self.turns,
            "loss_turns": None if self.loss_turns is None else list(self.loss_turns),
            "mistake_at": self.mistake_at,
            "examined": self.examined,
            "mistakes": list(self.mistakes),
            "checked": self.checked,
            "cpu_seconds": round(self.cpu_seconds, 4),
            "interrupted": self.interrupted,
        }

    @classmethod
    def from_json(cls, data: Any) -> FairGame:
        """A game as ``to_json`` wrote it (KeyError, TypeError or ValueError otherwise)."""
        loss = data["loss_turns"]
        return cls(
            FairCase(str(data["section"]), int(data["players"]), int(data["seed"])),
            None if data["verdict"] is None else Judgement(data["verdict"]),
            int(data["turns"]),
            None if loss is None else (int(loss[0]), int(loss[1])),
            None if data["mistake_at"] is None else int(data["mistake_at"]),
            int(data["examined"]),
            tuple(int(t) for t in data["mistakes"]),
            bool(data["checked"]),
            float(data["cpu_seconds"]),
            bool(data["interrupted"]),
        )


def play_fair_case(case: FairCase, settings: FairSettings) -> FairGame:
    """Play one case (the task a worker runs), replay its line in the verifier and judge it:
    the perfect analysis, then the fair one (a lost game at its default turns, lookahead's
    at every turn)."""
    began = time.process_time()
    game = deal(settings.rules, case.players, case.seed)
    result = simulate(game, "thrifty" if case.section == LOST else Lookahead(case.seed), case.seed)
    check = verify(result.line)
    perfect = analyze(result.line, settings.budget)
    fair = fair_analysis(perfect, DEFAULT_TURNS if case.section == LOST else None, settings.samples, seed=0)
    if fair.interrupted:  # Ctrl-C in this process (a pool's workers never see it): cut short
        raise KeyboardInterrupt
    first = fair.mistake_at()
    return FairGame(
        case,
        fair.judgement,
        len(result.line.actions),
        fair.loss,
        None if first is None else first.turn,
        len(fair.turns),
        tuple(t.turn for t in fair.turns if t.mistake),
        check.legal and check.won == result.won,
        time.process_time() - began,
    )


def cut_short(case: FairCase) -> FairGame:
    return FairGame(case, interrupted=True)


class FairJournal:
    """The games a run has finished, kept in ``path`` (a ``Journal``: a header with the
    settings, then a game a line). Opening it reads the games a run with the same settings
    left (a last line cut short by a kill is dropped); a journal of other settings, or one
    that is not a journal, is ``BadInput`` naming it."""

    def __init__(self, path: str | Path, settings: FairSettings) -> None:
        self.journal = Journal(path, {"suite": FAIR_SUITE, "settings": settings.journal_header()}, "the fair suite")
        self.games: dict[FairCase, FairGame] = {}
        for number, data in self.journal.records:
            try:
                game = FairGame.from_json(data)
            except (ValueError, KeyError, TypeError, IndexError):
                self.journal.close()
                raise BadInput(f"{self.journal.path}, line {number}: not a game of the fair suite") from None
            self.games[game.case] = game  # a game written twice counts once

    def write(self, game: FairGame) -> None:
        self.journal.write(game.to_json())

    def close(self) -> None:
        self.journal.close()


def journal_path(out: str | Path) -> Path:
    """The journal of a run whose report goes to ``out``: beside it, ``out`` + ``.part``."""
    return Path(f"{out}.part")


@dataclass(frozen=True)
class Share:
    """``count`` of ``of``, with its Wilson 95% interval (no rate when ``of`` is 0)."""

    count: int
    of: int

    @property
    def rate(self) -> float | None:
        return self.count / self.of if self.of else None

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.count, self.of)

    def shown(self) -> str:
        return shown_percent(self.rate, self.ci95 if self.of else None)

    def to_json(self) -> dict:
        return {"count": self.count, "of": self.of, "rate": _round(self.rate), "ci95": [round(x, 4) for x in self.ci95]}


@dataclass(frozen=True)
class CpuSeconds:
    """The CPU seconds of a section's games: median and p90 (nearest rank)."""

    median: float | None
    p90: float | None

    @classmethod
    def of(cls, games: Sequence[FairGame]) -> CpuSeconds:
        spent = [g.cpu_seconds for g in games]
        return cls(statistics.median(spent), p90(spent)) if spent else cls(None, None)

    def to_json(self) -> dict:
        return {"cpu_s_median": _round(self.median, 2), "cpu_s_p90": _round(self.p90, 2)}

    def cells(self) -> list[str]:
        return ["-" if t is None else f"{t:.1f}" for t in (self.median, self.p90)]


@dataclass(frozen=True)
class LostSummary:
    """The lost section at one player count: the scan, the games analysed, each verdict's
    count as a share of them and (but never winnable) of the wins lost among them."""

    scan: LostScan
    games: tuple[FairGame, ...]  # analysed, not cut short

    def verdicts(self) -> dict[Judgement, int]:
        """Each verdict's count: every one a lost line can get, and any other that came."""
        order = (*LOST_VERDICTS, *(v for v in Judgement if v not in LOST_VERDICTS))
        counts = {v: sum(g.judgement == v for g in self.games) for v in order}
        return {v: n for v, n in counts.items() if n or v in LOST_VERDICTS}

    @property
    def wins_lost(self) -> int:
        """The games whose deal was not proven unwinnable: a win the perfect analysis may place."""
        return sum(g.judgement != Judgement.NEVER_WINNABLE for g in self.games)

    def shares(self, verdict: Judgement) -> tuple[Share, Share | None]:
        count = self.verdicts()[verdict]
        of_wins = None if verdict == Judgement.NEVER_WINNABLE else Share(count, self.wins_lost)
        return Share(count, len(self.games)), of_wins

    def to_json(self) -> dict:
        verdicts = {}
        for verdict in self.verdicts():
            of_lost, of_wins = self.shares(verdict)
            verdicts[str(verdict)] = {
                "of_lost": of_lost.to_json(),
                "of_wins_lost": None if of_wins is None else of_wins.to_json(),
            }
        return {
            "players": self.scan.players,
            "wanted": self.scan.wanted,
            "scanned": self.scan.scanned,
            "found": len(self.scan.seeds),
            "analysed": len(self.games),
            "wins_lost": self.wins_lost,
            "verdicts": verdicts,
            **CpuSeconds.of(self.games).to_json(),
        }


@dataclass(frozen=True)
class OwnSummary:
    """The own section at one player count: the games, the wins, and the share of the
    examined turns (the policy's own moves) called mistakes."""

    players: int
    games: tuple[FairGame, ...]  # analysed, not cut short

    @property
    def mistakes(self) -> Share:
        return Share(sum(len(g.mistakes) for g in self.games), sum(g.examined for g in self.games))

    def to_json(self) -> dict:
        return {
            "players": self.players,
            "games": len(self.games),
            "won": sum(g.won for g in self.games),
            "examined": self.mistakes.of,
            "mistakes": self.mistakes.to_json(),
            **CpuSeconds.of(self.games).to_json(),
        }


@dataclass
class FairReport:
    settings: FairSettings
    scans: tuple[LostScan, ...]
    games: list[FairGame]  # in the order of ``settings.cases(scans)``
    machine: str
    interrupted: bool = False
    from_journal: int = 0  # of ``games``, those a journal held
    suite: str = field(default=FAIR_SUITE, init=False)

    def _done(self, section: str, players: int) -> tuple[FairGame, ...]:
        return tuple(g for g in self.games if g.case.section == section and g.case.players == players and not g.interrupted)

    def lost(self) -> list[LostSummary]:
        return [LostSummary(s, self._done(LOST, s.players)) for s in self.scans]

    def own(self) -> list[OwnSummary]:
        return [OwnSummary(p, self._done(OWN, p)) for p in self.settings.players]

    @property
    def cut_short(self) -> int:
        return sum(g.interrupted for g in self.games)

    @property
    def complete(self) -> bool:
        """Every game of the run analysed: none cut short, none left."""
        done = sum(not g.interrupted for g in self.games)
        return not self.interrupted and done == len(self.settings.cases(self.scans))

    @property
    def lines_ok(self) -> bool:
        return all(g.checked for g in self.games)

    def to_json(self, games: bool = False) -> dict:
        """The report (``bench --json``); with ``games``, every game too (``--out``)."""
        data: dict = {
            "suite": self.suite,
            "interrupted": self.interrupted,
            "machine": self.machine,
            "settings": self.settings.to_json(),
            LOST: [s.to_json() for s in self.lost()],
            OWN: [s.to_json() for s in self.own()],
            "games": {
                "analysed": len(self.games) - self.cut_short,
                "from_journal": self.from_journal,
                "interrupted": self.cut_short,
                "lines_ok": self.lines_ok,
            },
        }
        if games:
            data["cases"] = [g.to_json() for g in self.games]
        return data


OnGame = Callable[[FairGame, int, int], None]  # a game recorded, games recorded, games in all


def run_fair_suite(settings: FairSettings, on_game: OnGame | None = None, journal: str | Path | None = None) -> FairReport:
    """Find the lost thrifty games, then analyse them and lookahead's games; with
    ``journal``, first take the games it holds, and write each game finished to it."""
    kept = None if journal is None else FairJournal(journal, settings)
    try:
        scans = tuple(scan_lost(settings.rules, p, settings.deals, settings.seed_cap) for p in settings.players)
        cases = settings.cases(scans)
        held_games = {} if kept is None else kept.games
        games = {case: held_games[case] for case in cases if case in held_games}
        from_journal = len(games)

        def record(game: FairGame) -> None:
            games[game.case] = game
            if kept is not None and not game.interrupted:
                kept.write(game)
            if on_game is not None:
                on_game(game, len(games), len(cases))

        todo = [case for case in cases if case not in games]
        play = functools.partial(play_fair_case, settings=settings)
        interrupted = play_each(todo, settings.workers, CtrlC(), play, cut_short, record)
    finally:
        if kept is not None:
            kept.close()
    ordered = [games[case] for case in cases if case in games]
    return FairReport(settings, scans, ordered, machine_description(), interrupted, from_journal)


LOST_TITLE = "Thrifty's lost games: a mistake or bad luck, by what each mover could see"
OWN_TITLE = "Lookahead's own moves, every turn judged"
LOST_COLUMNS = ("players", "verdict", "games", "of the lost games [95%]", "of the wins lost [95%]")
OWN_COLUMNS = ("players", "games", "won", "turns judged", "mistakes", "mistake share [95%]", "median CPU s", "p90 CPU s")


def lost_rows(report: FairReport) -> list[list[str]]:
    """The lost section's table (``LOST_COLUMNS``): a row per player count and verdict."""
    rows = []
    for summary in report.lost():
        for verdict, count in summary.verdicts().items():
            of_lost, of_wins = summary.shares(verdict)
            rows.append(
                [
                    str(summary.scan.players),
                    str(verdict),
                    str(count),
                    of_lost.shown(),
                    "-" if of_wins is None else of_wins.shown(),
                ]
            )
    return rows


def own_rows(report: FairReport) -> list[list[str]]:
    """The own section's table (``OWN_COLUMNS``): a row per player count."""
    rows = []
    for summary in report.own():
        share = summary.mistakes
        won = sum(g.won for g in summary.games)
        cells = [str(summary.players), str(len(summary.games)), str(won), str(share.of), str(share.count), share.shown()]
        rows.append(cells + CpuSeconds.of(summary.games).cells())
    return rows


def fair_summary(report: FairReport) -> str:
    """The lines under the tables: how the lost games were found and what they cost, the
    target of the own section, the games and whether every line replayed."""
    settings = report.settings
    said = [
        f"Rules: {rules_name(settings.rules)}; the fair analysis: {settings.samples} worlds per move, sim seed 0; "
        + (
            "the perfect analysis: reproducible budgets"
            if settings.budget.reproducible
            else f"the perfect analysis: {settings.budget.seconds:g} s per position"
        )
    ]
    for summary in report.lost():
        scan, (median, high) = summary.scan, CpuSeconds.of(summary.games).cells()
        found = f"{len(scan.seeds)} of {scan.wanted} wanted" if len(scan.seeds) < scan.wanted else str(len(scan.seeds))
        said.append(
            f"Lost, {scan.players} players: thrifty lost {found} of {_seeds(scan.scanned)}; the flagged turns and "
            f"{DEFAULT_TURNS} others judged; CPU s a game median {median}, p90 {high}"
        )
    for own in report.own():
        said.append(
            f"Own, {own.players} players: lookahead ({DEFAULT_SAMPLES} worlds a round) on {_seeds(settings.own_deals)}; "
            f"its moves called mistakes: {own.mistakes.shown()} (target: at most 5%)"
        )
    cut = report.cut_short
    said.append(
        f"Games: {len(report.games) - cut} analysed ({report.from_journal} from the journal)"
        + (f", {cut} cut short by Ctrl-C" if cut else "")
        + "; every line replayed by the verifier: "
        + ("ok" if report.lines_ok else "FAILED")
    )
    return "\n".join(said)


def _seeds(count: int) -> str:
    return "seed 0" if count == 1 else f"seeds 0-{count - 1}"


def fair_markdown(report: FairReport) -> str:
    """The report as two Markdown tables and the summary (docs/performance.md)."""
    lines: list[str] = []
    for title, columns, rows in ((LOST_TITLE, LOST_COLUMNS, lost_rows(report)), (OWN_TITLE, OWN_COLUMNS, own_rows(report))):
        lines += [f"**{title}**", "", "| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        lines.append("")
    lines.append(fair_summary(report))
    return "\n".join(lines)
