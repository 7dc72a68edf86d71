"""``tranquility odds`` on the screen: its progress bar and its summary table. The numbers
and the JSON are the library's (``tranquility.solver.odds``); this module only shows them."""

from __future__ import annotations

from rich.console import Console
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
from tranquility.solver.batch.odds_summary import shown_bracket, shown_interval, shown_percent, shown_share
from tranquility.solver.formats.rules_text import rules_name


class RateColumn(ProgressColumn):
    """Deals per second, as rich estimates it over the last half minute."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("-- deals/s" if speed is None else f"{speed:.1f} deals/s")


def players_text(players: tuple[int, ...]) -> str:
    if len(players) > 1 and list(players) == list(range(players[0], players[-1] + 1)):
        return f"{players[0]}-{players[-1]}p"
    return ",".join(map(str, players)) + "p"


def counts_text(counts: dict[str, int]) -> str:
    return f"{counts.get('win', 0)} win · {counts.get('no-win', 0)} no-win · {counts.get('unknown', 0)} unknown"


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


def _render_policies(console: Console, summary) -> None:
    """Each policy's silent-table win rate (95% Wilson interval) beside perfect play."""
    policies = summary.policies
    if not policies:
        return
    table = Table(title="Silent-table policies beside perfect play: won (95% Wilson interval)")
    table.add_column("rules", no_wrap=True)
    table.add_column("players", justify="right")
    for name in ("perfect play", *policies):
        table.add_column(name, justify="right")
    for group in summary.groups:
        rates = {p.policy: p for p in group.policies}
        cells = [rules_name(group.rules), str(group.players), _rate(group.winnability, group.ci95)]
        for policy in policies:
            rate = rates.get(policy)
            cells.append("-" if rate is None else _rate(rate.rate, rate.ci95))
        table.add_row(*cells)
    console.print(table)


def _rate(value: float | None, ci: tuple[float, float]) -> str:
    if value is None:
        return "-"
    low, high = shown_interval(ci, 0)
    return f"{shown_share(value, 0)}% ({low}-{high})"


def render_odds(console: Console, summary, report=None) -> None:
    """The summary table (one row per rule set and player count); with policies, a second
    one of their win rates beside perfect play; then the throughput: of the run
    (``report``, a ``RunReport``), or, for --report, of the runs recorded."""
    if not summary.groups:
        console.print("Nothing stored for these deals yet.")
    else:
        table = Table(title="Winnability (95% Wilson interval: unknowns as losses at the low end, as wins at the high end)")
        for name in ("rules", "players", "deals", "win", "no-win", "unknown", "winnable", "95% interval", "median s", "p90 s"):
            table.add_column(name, justify="left" if name == "rules" else "right", no_wrap=name == "rules")
        for group in summary.groups:
            table.add_row(
                rules_name(group.rules),
                str(group.players),
                str(group.deals),
                str(group.win),
                str(group.no_win),
                str(group.unknown),
                shown_percent(group.winnability),
                shown_bracket(group.ci95),
                _seconds(group.median_s),
                _seconds(group.p90_s),
            )
        console.print(table)
        _render_policies(console, summary)
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
