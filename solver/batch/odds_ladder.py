"""The ceiling ladder of an odds store: how much each kind of knowledge is worth, on the same
deals. Its rungs, from the top: perfect play (the solver's verdict: every card and the
piles seen), open hands (``open-hands:N``: one mind that sees every hand but not the
piles), the lookahead (``lookahead:N``: each seat its own hand, searching; ``lookahead:N@K``:
seat K alone searching), ``tuned`` and ``thrifty`` (silent, no search). Each rung's win rate stands on every deal it played, with
its Wilson interval; each step down, the rung above less the rung below, stands on the
deals both played, paired deal by deal (Agresti and Min's interval): the gap between open
hands and perfect play is the piles' luck, the gap between a silent player and open hands
the price of silence (docs/simulate.md, the ceiling ladder)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from tranquility.solver.batch.odds_store import OddsStore, Scope
from tranquility.solver.batch.odds_summary import PolicyRate, shown_percent
from tranquility.solver.batch.plays import budget_of, seat_of
from tranquility.solver.engine.rules import Rules
from tranquility.solver.formats.rules_text import rules_name
from tranquility.solver.search.lookahead import Lookahead, OpenHands
from tranquility.solver.stats import paired_interval
from tranquility.solver.verdicts import Verdict

PERFECT = "perfect"  # the top rung: the solver's verdict (an unknown counts as not won)
SILENT_RUNGS = ("tuned", "thrifty")  # the silent players on the ladder, the stronger first
SEARCHING_RUNGS = (OpenHands.name, Lookahead.name)  # the searching players, open hands first


def rung_order(name: str) -> tuple[int, int, int] | None:
    """Where a stored name sits on the ladder (smaller is higher; a searching player's larger
    budget higher, and at one budget every seat searching above one seat alone, which
    searches a few of the decisions); None for a player that is no rung (cautious, greedy...)."""
    if name == PERFECT:
        return 0, 0, 0
    kind = name.partition(":")[0]
    if kind in SEARCHING_RUNGS:
        return 1 + SEARCHING_RUNGS.index(kind), -(budget_of(name) or 0), int(seat_of(name) is not None)
    if name in SILENT_RUNGS:
        return 1 + len(SEARCHING_RUNGS) + SILENT_RUNGS.index(name), 0, 0
    return None


@dataclass(frozen=True)
class RungStep:
    """The rung ``upper`` against the rung ``lower`` below it, on the ``deals`` both played:
    the deals only one of them won, and the difference in points with its interval."""

    upper: str
    lower: str
    deals: int
    only_upper: int
    only_lower: int

    @property
    def points(self) -> float | None:
        return 100 * (self.only_upper - self.only_lower) / self.deals if self.deals else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return paired_interval(self.only_upper, self.only_lower, self.deals) if self.deals else None

    def to_json(self) -> dict[str, Any]:
        return {
            "upper": self.upper,
            "lower": self.lower,
            "deals": self.deals,
            "only_upper": self.only_upper,
            "only_lower": self.only_lower,
            "points": _round(self.points, 2),
            "ci95": None if self.interval is None else _rounded(self.interval, 2),
        }


@dataclass(frozen=True)
class LadderGroup:
    """The ladder of one (rule set, player count): its rungs from the top, and each step
    between neighbouring rungs."""

    rules: Rules
    players: int
    rungs: tuple[PolicyRate, ...]  # each rung's deals won of those it played (its name the policy's)
    steps: tuple[RungStep, ...]
    silence: tuple[RungStep, ...] = ()  # open hands (its largest budget) against every rung below it

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "players": self.players,
            "rungs": [
                {"name": r.policy, "deals": r.deals, "won": r.won, "rate": _round(r.rate), "ci95": _rounded(r.ci95)}
                for r in self.rungs
            ],
            "steps": [s.to_json() for s in self.steps],
            "silence": [s.to_json() for s in self.silence],
        }


@dataclass(frozen=True)
class Ladder:
    groups: tuple[LadderGroup, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ladder": [g.to_json() for g in self.groups]}


def ladder(store: OddsStore, scope: Scope | None = None) -> Ladder:
    """The ladder of every (rule set, player count) ``store`` holds (in ``scope``), rule sets
    in the order they were first stored."""
    won: dict[tuple[str, int], dict[str, dict[int, bool]]] = {}
    rules_of: dict[str, Rules] = {}
    sql, args = scope.where("d") if scope is not None else ("1", [])
    rows = store.conn.execute(
        f"SELECT d.rules_hash, r.json, d.players, d.seed, d.verdict FROM deals d JOIN rules r ON r.hash = d.rules_hash "
        f"WHERE {sql} ORDER BY r.rowid, d.players, d.seed",
        args,
    )
    for digest, text, players, seed, verdict in rows:
        if digest not in rules_of:
            rules_of[digest] = Rules.from_dict(json.loads(text))
        won.setdefault((digest, players), {}).setdefault(PERFECT, {})[seed] = verdict == Verdict.WIN
    sql, args = scope.where("p") if scope is not None else ("1", [])
    for digest, players, seed, policy, played_won in store.conn.execute(
        f"SELECT p.rules_hash, p.players, p.seed, p.policy, p.won FROM plays p WHERE {sql}", args
    ):
        if (digest, players) in won and rung_order(policy) is not None:
            won[digest, players].setdefault(policy, {})[seed] = bool(played_won)
    groups = []
    for (digest, players), by_player in won.items():
        names = sorted(by_player, key=lambda name: rung_order(name) or (0, 0, 0))
        rungs = tuple(PolicyRate(name, len(by_player[name]), sum(by_player[name].values())) for name in names)
        steps = tuple(_step(upper, by_player[upper], lower, by_player[lower]) for upper, lower in pairwise(names))
        opened = [i for i, name in enumerate(names) if name.partition(":")[0] == OpenHands.name]
        silence: tuple[RungStep, ...] = ()
        if opened:
            top = names[opened[0]]
            silence = tuple(_step(top, by_player[top], lower, by_player[lower]) for lower in names[opened[-1] + 1 :])
        groups.append(LadderGroup(rules_of[digest], players, rungs, steps, silence))
    return Ladder(tuple(groups))


def _step(upper: str, upper_won: dict[int, bool], lower: str, lower_won: dict[int, bool]) -> RungStep:
    both = upper_won.keys() & lower_won.keys()
    only_upper = sum(upper_won[s] and not lower_won[s] for s in both)
    only_lower = sum(lower_won[s] and not upper_won[s] for s in both)
    return RungStep(upper, lower, len(both), only_upper, only_lower)


LADDER_COLUMNS = ("rules", "players", "rung", "deals", "won", "win rate [95%]", "below the rung above: deals", "points [95%]")


def ladder_rows(found: Ladder) -> list[list[str]]:
    """The ladder's table, one row per rung (``LADDER_COLUMNS``): its rate on its own deals,
    and how far it falls below the rung above on the deals both played (the rung above
    less this one, with the deals only the one above won / only this one won)."""
    rows = []
    for group in found.groups:
        above: dict[str, RungStep] = {step.lower: step for step in group.steps}
        for rung in group.rungs:
            step = above.get(rung.policy)
            gap = ["", ""] if step is None else [f"{step.deals:,}", _gap_text(step)]
            rate = shown_percent(rung.rate, rung.ci95)
            rows.append(
                [rules_name(group.rules), str(group.players), rung.policy, f"{rung.deals:,}", f"{rung.won:,}", rate, *gap]
            )
    return rows


def _gap_text(step: RungStep) -> str:
    """``+4.0 [+1.2, +6.8] (52 / 12)``: the upper rung less the lower, the deals only each won."""
    if step.points is None or step.interval is None:
        return "-"
    low, high = step.interval
    return f"{step.points:+.1f} [{low:+.1f}, {high:+.1f}] ({step.only_upper} / {step.only_lower})"


SILENCE_COLUMNS = ("rules", "players", "open hands", "less", "deals", "points [95%]")


def silence_rows(found: Ladder) -> list[list[str]]:
    """The price of silence (``SILENCE_COLUMNS``): open hands less each rung below it, on the
    deals both played, paired."""
    return [
        [rules_name(g.rules), str(g.players), step.upper, step.lower, f"{step.deals:,}", _gap_text(step)]
        for g in found.groups
        for step in g.silence
    ]


def ladder_markdown(found: Ladder) -> str:
    """The ladder as a Markdown table, and the price of silence as a second one where open
    hands played (docs/simulate.md)."""
    lines = _md_table(LADDER_COLUMNS, ladder_rows(found))
    silence = silence_rows(found)
    if silence:
        lines += ["", *_md_table(SILENCE_COLUMNS, silence)]
    return "\n".join(lines)


def _md_table(columns: tuple[str, ...], rows: list[list[str]]) -> list[str]:
    return ["| " + " | ".join(row) + " |" for row in (list(columns), ["---"] * len(columns), *rows)]


def _round(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


def _rounded(pair: tuple[float, float], digits: int = 4) -> list[float]:
    return [round(pair[0], digits), round(pair[1], digits)]
