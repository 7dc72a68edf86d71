"""``tranquility odds`` on the screen: its progress bar and its summary table. The numbers
and the JSON are the library's (``solver.batch.odds_summary``); this module only shows them."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text
from tranquility.solver.batch.odds_ladder import LADDER_COLUMNS, SILENCE_COLUMNS, ladder_rows, silence_rows
from tranquility.solver.batch.odds_summary import DECISION_COLUMNS, decision_cells, shown_bracket, shown_percent
from tranquility.solver.batch.plays import is_searching
from tranquility.solver.formats.rules_text import rules_name

from .console import fitting


class RateColumn(ProgressColumn):
    """Deals per second, as rich estimates it over the last half minute."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("-- deals/s")
        return Text(f"{speed:.1f} deals/s" if speed >= 1 else f"{speed:.2f} deals/s")  # lookahead's games: seconds each


def players_text(players: tuple[int, ...]) -> str:
    if len(players) > 1 and list(players) == list(range(players[0], players[-1] + 1)):
        return f"{players[0]}-{players[-1]}p"
    return ",".join(map(str, players)) + "p"


def counts_text(counts: dict[str, int], plays: dict[str, tuple[int, int]] | None = None) -> str:
    """The verdicts stored so far, and the games of each searching policy (the slow ones)."""
    said = f"{counts.get('win', 0)} win · {counts.get('no-win', 0)} no-win · {counts.get('unknown', 0)} unknown"
    for name, (won, games) in sorted((plays or {}).items()):
        if is_searching(name):
            said += f" · {name} won {won} of {games}"
    return said


def odds_progress(console: Console, quiet: bool) -> Progress:
    """Deals done of those left, deals/s and the time left (the verdicts so far are the
    task's description); drawn on a terminal only, and never with --json."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    )


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# The columns of the perfect-play table after the rule set, and the words said above it.
_COLUMNS = ("players", "deals", "win", "no-win", "unknown", "winnable", "95% interval", "median s", "p90 s")
_WINNABILITY = "Winnability (95% Wilson interval: unknowns as losses at the low end, as wins at the high end)"
_POLICIES = "Deals won by each policy beside perfect play (95% Wilson interval)"
_DECISIONS = "CPU seconds of each decision of a searching policy (one core)"


def _winnability_cells(group) -> list[str]:
    return [
        str(group.players),
        str(group.deals),
        str(group.win),
        str(group.no_win),
        str(group.unknown),
        shown_percent(group.winnability),
        shown_bracket(group.ci95),
        _seconds(group.median_s),
        _seconds(group.p90_s),
    ]


def _winnability(summary) -> tuple[RenderableType, RenderableType]:
    """One row per rule set and player count; and, for a console too narrow for that, one
    table per rule set, under its name."""
    wide = Table(title=_WINNABILITY)
    wide.add_column("rules", no_wrap=True)
    for name in _COLUMNS:
        wide.add_column(name, justify="right")
    by_rules: dict[str, list] = {}
    for group in summary.groups:
        by_rules.setdefault(group.rules_hash, []).append(group)
        wide.add_row(rules_name(group.rules), *_winnability_cells(group))
    stacked: list[RenderableType] = [Text(_WINNABILITY)]
    for groups in by_rules.values():
        table = _narrow_table(_COLUMNS)
        for group in groups:
            table.add_row(*_winnability_cells(group))
        stacked += [Text(rules_name(groups[0].rules), style="bold"), table]
    return wide, Group(*stacked)


def _narrow_table(columns: tuple[str, ...], left: int = 0) -> Table:
    """A table without borders, its first ``left`` columns left-aligned, the rest right."""
    table = Table(box=None, pad_edge=False, header_style="bold")
    for i, name in enumerate(columns):
        table.add_column(name, justify="left" if i < left else "right")
    return table


def _policies(summary) -> tuple[RenderableType, RenderableType]:
    """Each policy's silent-table win rate (95% Wilson interval) beside perfect play: one
    row per rule set and player count; and, for a console too narrow for that, one row per
    policy."""
    policies = summary.policies
    wide = Table(title=_POLICIES)
    wide.add_column("rules", no_wrap=True)
    wide.add_column("players", justify="right")
    for name in ("perfect play", *policies):
        wide.add_column(name, justify="right")
    long = _narrow_table(("rules", "players", "policy", "won", "95% interval"), left=3)  # no word not above
    for group in (g for g in summary.groups if g.policies):
        rates = {p.policy: p for p in group.policies}
        cells = [shown_percent(group.winnability, group.ci95)]
        cells += [shown_percent(rates[p].rate, rates[p].ci95) if p in rates else "-" for p in policies]
        wide.add_row(rules_name(group.rules), str(group.players), *cells)
        played = [("perfect play", group.winnability, group.ci95)]
        played += [(p, rates[p].rate, rates[p].ci95) for p in policies if p in rates]
        for i, (name, rate, ci) in enumerate(played):
            first = i == 0
            long.add_row(
                rules_name(group.rules) if first else "",
                str(group.players) if first else "",
                name,
                shown_percent(rate),
                shown_bracket(ci),
                end_section=i == len(played) - 1,
            )
    return wide, Group(Text(_POLICIES), long)


def _decisions(summary) -> tuple[RenderableType, RenderableType]:
    """A searching policy's games, decisions and CPU seconds a decision: one row per rule
    set, player count and policy; and, for a narrow console, the same without borders."""
    columns = ("rules", "players", "policy", *DECISION_COLUMNS)
    wide = Table(title=_DECISIONS)
    for i, name in enumerate(columns):
        wide.add_column(name, justify="left" if i in (0, 2) else "right", no_wrap=i == 0)
    narrow = _narrow_table(columns, left=1)
    for group, rate in summary.searching:
        cells = [rules_name(group.rules), str(group.players), rate.policy, *decision_cells(rate)]
        wide.add_row(*cells)
        narrow.add_row(*cells)
    return wide, Group(Text(_DECISIONS), narrow)


_LADDER = (
    "The ceiling ladder: each rung's deals won (95% Wilson interval), and how far it falls below the rung above "
    "on the deals both played (points, paired 95% interval; deals only the one above won / only this one won)"
)


_SILENCE = "The price of silence: open hands less each rung below it, on the deals both played (paired 95% interval)"


def render_ladder(console: Console, found) -> None:
    """The ladder (``odds_ladder.ladder_rows``): a bordered table, stacked without borders on
    a console too narrow for it."""
    wide = Table(title=_LADDER)
    narrow = _narrow_table(LADDER_COLUMNS, left=3)
    for i, name in enumerate(LADDER_COLUMNS):
        wide.add_column(name, justify="left" if i in (0, 2) else "right", no_wrap=i == 0)
    for row in ladder_rows(found):
        wide.add_row(*row)
        narrow.add_row(*row)
    if not found.groups:
        console.print("Nothing stored for these deals yet.")
        return
    console.print(fitting(console, wide, Group(Text(_LADDER), narrow)))
    rows = silence_rows(found)
    if rows:
        wide = Table(title=_SILENCE)
        narrow = _narrow_table(SILENCE_COLUMNS, left=4)
        for i, name in enumerate(SILENCE_COLUMNS):
            wide.add_column(name, justify="left" if i in (0, 2, 3) else "right", no_wrap=i == 0)
        for row in rows:
            wide.add_row(*row)
            narrow.add_row(*row)
        console.print(fitting(console, wide, Group(Text(_SILENCE), narrow)))


def render_odds(console: Console, summary, report=None) -> None:
    """The summary table (one row per rule set and player count); with policies, a second
    one of their win rates beside perfect play, and a third of the searching policies' CPU
    seconds a decision; then the throughput: of the run
    (``report``, a ``RunReport``), or, for --report, of the runs recorded. A table wider
    than the console is stacked (``fitting``), so that no cell is wrapped mid-number."""
    if not summary.groups:
        console.print("Nothing stored for these deals yet.")
    else:
        console.print(fitting(console, *_winnability(summary)))
        if summary.policies:
            console.print(fitting(console, *_policies(summary)))
        if summary.searching:
            console.print(fitting(console, *_decisions(summary)))
    rate = summary.deals_per_s
    if report is not None:
        said = f"{report.done} of {report.total} deal(s) left done in {report.seconds:.1f} s"
        if report.total == 0:
            said = "every deal was already stored: nothing to do"
        elif rate is not None:
            said += f": {rate:.2f} deals/s"
        if report.interrupted:
            said += " (interrupted: what was stored is kept; the same command again finishes the rest)"
        console.print(said)
    elif rate is not None:
        console.print(f"{rate:.2f} deals/s over the runs recorded")
