"""The odds figure: winnability per player count, one series per rule set and policy, with
its intervals (matplotlib, imported only here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tranquility.solver.batch.odds_summary import OddsGroup, OddsSummary, _policy_order
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.rules_text import rules_name

PLOT_FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> str:
    """The figure's format from the extension (png or svg); BadInput otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise BadInput(f"{path}: the plot is written as PNG or SVG: name it .png or .svg")
    return suffix[1:]


def plot(summary: OddsSummary, path: str | Path) -> None:
    """Draw winnability per player count with its 95% interval as error bars, one series
    per rule set, and each policy's win rate beside it (offset a little, dashed), into
    ``path`` (PNG or SVG by the extension). matplotlib is imported here only, and draws
    without a display (a bare ``Figure`` renders through Agg)."""
    from matplotlib.figure import Figure

    fmt = check_plot_path(path)
    figure = Figure(figsize=(10, 5), dpi=100)
    axes = figure.add_subplot()
    by_rules: dict[str, list[OddsGroup]] = {}
    for group in summary.groups:
        by_rules.setdefault(group.rules_hash, []).append(group)
    policies = sorted({p.policy for g in summary.groups for p in g.policies}, key=_policy_order)
    series = len(by_rules) * (1 + len(policies))
    width = 0.6 / max(1, series)
    counts: set[int] = set()
    index = 0
    for groups in by_rules.values():
        name = rules_name(groups[0].rules)
        perfect = [g for g in groups if g.deals]
        points = [(g.players, g.winnability, g.ci95) for g in perfect]
        _errorbar(axes, points, _offset(index, series, width), f"{name}: perfect play", "o", "-")
        counts.update(g.players for g in perfect)
        index += 1
        for policy in policies:
            points = [(g.players, r.rate, r.ci95) for g in groups for r in g.policies if r.policy == policy and r.deals]
            _errorbar(axes, points, _offset(index, series, width), f"{name}: {policy}", "s", "--")
            index += 1
    axes.set_xticks(sorted(counts))
    axes.set_xlabel("players")
    axes.set_ylabel("deals won")
    axes.set_ylim(-0.02, 1.02)
    axes.yaxis.set_major_formatter(_percent)
    axes.set_title("Winnability, 95% Wilson interval (unknowns: lost at the low end, won at the high end)", fontsize=9)
    axes.grid(True, alpha=0.3)
    if index:
        # Beside the axes, not on them: with several rule sets any corner hides a point.
        axes.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    figure.tight_layout()
    figure.savefig(path, format=fmt)


def _percent(value: float, _position: object = None) -> str:
    return f"{100 * value:.0f}%"


def _offset(index: int, series: int, width: float) -> float:
    return (index - (series - 1) / 2) * width


def _errorbar(
    axes: Any, points: list[tuple[int, float | None, tuple[float, float]]], dx: float, label: str, marker: str, style: str
) -> None:
    shown: list[tuple[int, float, tuple[float, float]]] = [(x, y, ci) for x, y, ci in points if y is not None]
    if not shown:
        return
    xs = [x + dx for x, _, _ in shown]
    ys = [y for _, y, _ in shown]
    errors = [[y - ci[0] for _, y, ci in shown], [ci[1] - y for _, y, ci in shown]]
    axes.errorbar(xs, ys, yerr=errors, marker=marker, linestyle=style, capsize=3, label=label)
