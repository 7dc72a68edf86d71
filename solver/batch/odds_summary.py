"""The odds' statistics: the interval of a winnability with unknowns (``odds_interval``,
from ``solver.stats``'s Wilson interval), the summary of a store (``summarise``, an
``OddsSummary`` with ``to_json()``) and its numbers as shown in tables."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from tranquility.solver.batch.odds_store import OddsStore, Scope
from tranquility.solver.engine.rules import Rules
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.stats import Z95, p90, wilson
from tranquility.solver.verdicts import Verdict


def odds_interval(win: int, unknown: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Winnability's interval, honest about what is undecided: its low end counts every
    unknown as a loss (the Wilson low of ``win`` of ``n``), its high end counts every
    unknown as a win (the Wilson high of ``win + unknown`` of ``n``)."""
    return wilson(win, n, z)[0], wilson(win + unknown, n, z)[1]


@dataclass(frozen=True)
class PolicyRate:
    """A policy's plays in one group; a searching policy's (``lookahead:N``) also the CPU
    seconds of its decisions: how many, their median and p90."""

    policy: str
    deals: int
    won: int
    decisions: int = 0
    cpu_median: float | None = None
    cpu_p90: float | None = None

    @property
    def rate(self) -> float | None:
        return self.won / self.deals if self.deals else None

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.won, self.deals)

    @property
    def searching(self) -> bool:
        from tranquility.solver.batch.plays import is_searching

        return is_searching(self.policy)

    def to_json(self) -> dict[str, Any]:
        data = {"won": self.won, "deals": self.deals, "rate": _round(self.rate), "ci95": [_round(x) for x in self.ci95]}
        if self.searching:
            data.update(decisions=self.decisions, cpu_s_median=_round(self.cpu_median), cpu_s_p90=_round(self.cpu_p90))
        return data


@dataclass(frozen=True)
class OddsGroup:
    """One (rule set, player count) of the summary."""

    rules: Rules
    rules_hash: str
    players: int
    win: int
    no_win: int
    unknown: int
    median_s: float | None
    p90_s: float | None
    policies: tuple[PolicyRate, ...] = ()

    @property
    def deals(self) -> int:
        return self.win + self.no_win + self.unknown

    @property
    def winnability(self) -> float | None:
        return self.win / self.deals if self.deals else None

    @property
    def ci95(self) -> tuple[float, float]:
        return odds_interval(self.win, self.unknown, self.deals)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "rules_hash": self.rules_hash,
            "players": self.players,
            "deals": self.deals,
            "win": self.win,
            "no_win": self.no_win,
            "unknown": self.unknown,
            "winnability": _round(self.winnability),
            "ci95": [_round(x) for x in self.ci95],
            "median_s": _round(self.median_s),
            "p90_s": _round(self.p90_s),
            "policies": {p.policy: p.to_json() for p in self.policies},
        }


@dataclass(frozen=True)
class OddsSummary:
    """Per (rule set, player count): the verdicts, winnability with its interval, solve
    times, and the policies' win rates; ``deals_per_s``: of the run (None when it did
    nothing), or, for a report, over the runs recorded."""

    groups: tuple[OddsGroup, ...]
    deals_per_s: float | None = None

    @property
    def policies(self) -> tuple[str, ...]:
        """The policies played in any group, in the order they first appear."""
        return tuple(dict.fromkeys(p.policy for g in self.groups for p in g.policies))

    @property
    def searching(self) -> tuple[tuple[OddsGroup, PolicyRate], ...]:
        """Each group's searching plays (their decisions timed), group by group."""
        return tuple((g, p) for g in self.groups for p in g.policies if p.searching)

    def to_json(self) -> dict[str, Any]:
        return {"groups": [g.to_json() for g in self.groups], "deals_per_s": _round(self.deals_per_s, 2)}


DIGITS = 1  # every share is shown with one decimal of a percent, in every table


def shown_share(value: float, outward: Callable[[float], float] | None = None) -> str:
    """A share as a percentage with ``DIGITS`` decimals, for people. An interval's ends are
    rounded outward (``math.floor`` / ``math.ceil``), so 10,000 wins of 10,000 show [99.9,
    100.0], never a certain [100.0, 100.0]; a share short of all or above none never shows
    100 or 0."""
    scale = 10**DIGITS
    scaled = 100 * value * scale
    if outward is not None:
        shown = outward(scaled + (1e-9 if outward is math.floor else -1e-9))
    else:
        shown = round(scaled)
        if shown == 100 * scale and value < 1:
            shown -= 1
        elif shown == 0 and value > 0:
            shown = 1
    return f"{max(0, min(shown, 100 * scale)) / scale:.{DIGITS}f}"


def shown_interval(ci: tuple[float, float]) -> tuple[str, str]:
    """An interval's ends as percentages, rounded outward."""
    return shown_share(ci[0], math.floor), shown_share(ci[1], math.ceil)


def shown_bracket(ci: tuple[float, float]) -> str:
    """An interval for people: ``[80.3, 82.0]``."""
    low, high = shown_interval(ci)
    return f"[{low}, {high}]"


def shown_percent(value: float | None, ci: tuple[float, float] | None = None) -> str:
    """A share for people: ``81.2%``, or with its interval ``81.2% [80.3, 82.0]``; ``-`` for
    no deals. The one rule of every odds table, on the screen and in Markdown."""
    if value is None:
        return "-"
    if ci is None:
        return f"{shown_share(value)}%"
    return f"{shown_share(value)}% {shown_bracket(ci)}"


def _md_row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def odds_markdown(summary: OddsSummary) -> str:
    """The summary as Markdown tables (docs/odds.md): perfect play per rule set and player
    count, then, where policies were played, their rates beside it, and, where a searching
    policy played, the CPU seconds of its decisions."""
    head = ("rules", "players", "deals", "win", "no-win", "unknown", "winnable", "95% interval", "median s", "p90 s")
    lines = [_md_row(head), _md_row("---" for _ in head)]
    for g in summary.groups:
        counts = [f"{n:,}" for n in (g.deals, g.win, g.no_win, g.unknown)]
        times = ["-" if t is None else f"{t:.3f}" for t in (g.median_s, g.p90_s)]
        share = shown_percent(g.winnability)
        lines.append(_md_row([rules_name(g.rules), str(g.players), *counts, share, shown_bracket(g.ci95), *times]))
    policies = summary.policies
    if policies:
        columns = ("rules", "players", "perfect play", *policies)
        lines += ["", _md_row(columns), _md_row("---" for _ in columns)]
        for g in (g for g in summary.groups if g.policies):
            rates = {p.policy: p for p in g.policies}
            cells = [shown_percent(rates[n].rate, rates[n].ci95) if n in rates else "-" for n in policies]
            lines.append(_md_row([rules_name(g.rules), str(g.players), shown_percent(g.winnability), *cells]))
    if summary.searching:
        timed = ("rules", "players", "policy", *DECISION_COLUMNS)
        lines += ["", _md_row(timed), _md_row("---" for _ in timed)]
        for g, p in summary.searching:
            lines.append(_md_row([rules_name(g.rules), str(g.players), p.policy, *decision_cells(p)]))
    return "\n".join(lines)


# A searching policy's decisions, in every table: games, decisions, CPU seconds a decision.
DECISION_COLUMNS = ("games", "decisions", "median CPU s", "p90 CPU s")


def decision_cells(rate: PolicyRate) -> list[str]:
    """The cells of ``DECISION_COLUMNS`` for a searching policy's plays."""
    times = ["-" if t is None else f"{t:.3f}" for t in (rate.cpu_median, rate.cpu_p90)]
    return [f"{rate.deals:,}", f"{rate.decisions:,}", *times]


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def summarise(store: OddsStore, scope: Scope | None = None, deals_per_s: float | None = None) -> OddsSummary:
    """The summary of what ``store`` holds (in ``scope``, else all of it), one group per
    (rule set, player count), rule sets in the order they were first stored."""
    sql, args = scope.where("d") if scope is not None else ("1", [])
    times: dict[tuple[str, int], list[float]] = {}
    verdicts: dict[tuple[str, int], dict[str, int]] = {}
    rules_of: dict[str, Rules] = {}
    order: list[tuple[str, int]] = []
    rows = store.conn.execute(
        f"SELECT d.rules_hash, r.json, d.players, d.verdict, d.seconds FROM deals d JOIN rules r ON r.hash = d.rules_hash "
        f"WHERE {sql} ORDER BY r.rowid, d.players",
        args,
    )
    for digest, text, players, verdict, seconds in rows:
        key = (digest, players)
        if key not in verdicts:
            order.append(key)
            verdicts[key] = {str(v): 0 for v in Verdict}
            times[key] = []
            if digest not in rules_of:
                rules_of[digest] = Rules.from_dict(json.loads(text))
        verdicts[key][verdict] += 1
        times[key].append(seconds)
    rates: dict[tuple[str, int], list[PolicyRate]] = {}
    sql, args = scope.where("p") if scope is not None else ("1", [])
    cpu_of: dict[tuple[str, int, str], list[float]] = {}
    for digest, players, policy, seconds in store.conn.execute(
        f"SELECT p.rules_hash, p.players, p.policy, p.cpu_seconds FROM decisions p WHERE {sql}", args
    ):
        cpu_of.setdefault((digest, players, policy), []).append(seconds)
    for digest, players, policy, n, won in store.conn.execute(
        f"SELECT p.rules_hash, p.players, p.policy, COUNT(*), SUM(p.won) FROM plays p WHERE {sql} GROUP BY 1, 2, 3", args
    ):
        cpu = cpu_of.get((digest, players, policy), [])
        timed = (statistics.median(cpu), p90(cpu)) if cpu else (None, None)
        rates.setdefault((digest, players), []).append(PolicyRate(policy, n, won, len(cpu), *timed))
    groups = []
    for key in order:
        counts, spent = verdicts[key], times[key]
        groups.append(
            OddsGroup(
                rules=rules_of[key[0]],
                rules_hash=key[0],
                players=key[1],
                win=counts[Verdict.WIN],
                no_win=counts[Verdict.NO_WIN],
                unknown=counts[Verdict.UNKNOWN],
                median_s=statistics.median(spent) if spent else None,
                p90_s=p90(spent) if spent else None,
                policies=tuple(sorted(rates.get(key, ()), key=lambda r: _policy_order(r.policy))),
            )
        )
    if scope is None and deals_per_s is None:
        deals_per_s = store.throughput()
    return OddsSummary(tuple(groups), deals_per_s)


def _policy_order(name: str) -> tuple[int, int, str]:
    """The silent policies in their order, then ``lookahead:N`` (and its one-seat
    ``lookahead:N@K``) and ``open-hands:N``, each by its budget."""
    from tranquility.solver.batch.plays import SEARCHERS
    from tranquility.solver.search.policies import POLICIES

    names = list(POLICIES)
    if name in names:
        return names.index(name), 0, name
    kind, _, budget = name.partition(":")
    budget = budget.partition("@")[0]
    searcher = SEARCHERS.index(kind) if kind in SEARCHERS else len(SEARCHERS)
    return len(names) + searcher, int(budget) if budget.isdigit() else 0, name
