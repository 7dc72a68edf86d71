"""The odds figure: winnability per player count, one panel per family (perfect play, and
the silent-table policies when plays are stored), one series per rule set (and policy),
with its intervals and the deals behind each point (matplotlib, imported only here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tranquility.solver.batch.odds_summary import OddsGroup, OddsSummary, _policy_order
from tranquility.solver.batch.plays import is_ceiling, is_searching
from tranquility.solver.errors import BadInput
from tranquility.solver.formats.rules_text import rules_name

PLOT_FORMATS = (".png", ".svg")
SIZE = (12.0, 6.0)  # inches, at 100 dpi: 1200 x 600 pixels
DODGE = 0.12  # the most a point sits beside its player count, so that series do not hide each other
ZOOM = 0.9  # points at or above this share are drawn again in the zoomed inset

# One point: the player count, the share won (None: no deal), its interval, the deals behind it.
Point = tuple[int, float | None, tuple[float, float], int]
# One series: its label, its points, its marker and line style.
Series = tuple[str, list[Point], str, str]


def check_plot_path(path: str | Path) -> str:
    """The figure's format from the extension (png or svg); BadInput otherwise."""
    suffix = Path(path).suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise BadInput(f"{path}: the plot is written as PNG or SVG: name it .png or .svg")
    return suffix[1:]


def plot(summary: OddsSummary, path: str | Path) -> None:
    """Draw ``figure(summary)`` into ``path`` (PNG or SVG by the extension)."""
    fmt = check_plot_path(path)
    figure(summary).savefig(path, format=fmt)


def figure(summary: OddsSummary) -> Any:
    """Winnability per player count with its 95% interval as error bars: a panel for
    perfect play (a series per rule set, and an inset zoomed on the points at 90% and
    above, where the 2-5 player series meet), and, when plays are stored, a panel for the
    policies at the silent table (a series per rule set and policy: dashed squares for the
    silent ones, solid diamonds for ``lookahead:N`` and ``open-hands:N``, which the title
    names as the one that sees every hand). Each label says how many
    deals each point stands on (or each point says it, when they differ). The series of a
    panel sit side by side within ``DODGE`` of their player count, as the x label says.
    matplotlib draws without a display (a bare ``Figure`` renders through Agg)."""
    from matplotlib.figure import Figure

    by_rules: dict[str, list[OddsGroup]] = {}
    for group in summary.groups:
        by_rules.setdefault(group.rules_hash, []).append(group)
    perfect: list[Series] = []
    silent: list[Series] = []
    policies = sorted({p.policy for g in summary.groups for p in g.policies}, key=_policy_order)
    for groups in by_rules.values():
        name = rules_name(groups[0].rules)
        points = [(g.players, g.winnability, g.ci95, g.deals) for g in groups if g.deals]
        perfect.append((name, points, "o", "-"))
        for policy in policies:
            played = [(g.players, r.rate, r.ci95, r.deals) for g in groups for r in g.policies if r.policy == policy and r.deals]
            searching = is_searching(policy)  # drawn apart from the silent policies' dashed squares
            silent.append((f"{name}: {policy}", played, "D" if searching else "s", "-" if searching else "--"))
    silent = [s for s in silent if s[1]]
    figure = Figure(figsize=SIZE, dpi=100, layout="constrained")
    # Each legend where its panel has no point: perfect play is high but for solo; a silent
    # table's points lie anywhere (searching players high at every count, random low), so
    # matplotlib finds the emptiest corner.
    panels = [("Perfect play", perfect, "lower left")]
    # open-hands:N sees every hand: the panel says so where it is drawn, it is no silent seat.
    ceiling = any(is_ceiling(p) for p in policies)
    title = "Silent table (each policy plays each deal once" + ("; open-hands sees every hand)" if ceiling else ")")
    panels += [(title, silent, "best")] if silent else []
    axes_row = figure.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for axes, (title, series, legend) in zip(axes_row, panels, strict=True):
        _panel(axes, title, series, legend)
    if perfect:
        _zoom(axes_row[0], perfect)
    axes_row[0].set_ylabel("deals won")
    figure.suptitle("Winnability, 95% Wilson interval (unknowns: lost at the low end, won at the high end)", fontsize=10)
    return figure


def _panel(axes: Any, title: str, series: list[Series], legend: str) -> None:
    counts = sorted({p[0] for _, points, _, _ in series for p in points})
    for index, (label, points, marker, style) in enumerate(series):
        _errorbar(axes, points, _offset(index, len(series)), _with_deals(label, points), marker, style, f"C{index % 10}")
    axes.set_title(title, fontsize=10)
    axes.set_xticks(counts)
    axes.set_xlim(min(counts, default=1) - 0.5, max(counts, default=1) + 0.5)
    spread = f"; series side by side, at most {DODGE:g} off" if len(series) > 1 else ""
    axes.set_xlabel(f"players{spread}")
    axes.set_ylim(-0.02, 1.02)
    axes.yaxis.set_major_formatter(_percent)
    axes.grid(True, alpha=0.3)
    if series:
        axes.legend(fontsize=7, loc=legend, ncol=2 if len(series) > 6 else 1, framealpha=0.9)


def _zoom(axes: Any, series: list[Series]) -> None:
    """An inset of ``axes`` on the points at ``ZOOM`` and above, where the series meet."""
    high = [(i, p) for i, (_, points, _, _) in enumerate(series) for p in points if p[1] is not None and p[1] >= ZOOM]
    if not high:
        return
    inset = axes.inset_axes((0.36, 0.3, 0.6, 0.48))  # right of the solo points, above the legend
    for index, (_, _, marker, style) in enumerate(series):
        mine = [p for i, p in high if i == index]
        _errorbar(inset, mine, _offset(index, len(series)), None, marker, style, f"C{index % 10}")
    counts = sorted({p[0] for _, p in high})
    bottom = min(p[2][0] for _, p in high)
    inset.set_xticks(counts)
    inset.set_xlim(counts[0] - 0.5, counts[-1] + 0.5)
    inset.set_ylim(bottom - 0.1 * (1 - bottom) - 0.001, 1 + 0.1 * (1 - bottom) + 0.001)
    inset.yaxis.set_major_formatter(_percent_tenths)
    inset.tick_params(labelsize=7)
    inset.set_title(f"zoomed: the points at {100 * ZOOM:.0f}% and above", fontsize=7)
    inset.grid(True, alpha=0.3)


def _with_deals(label: str, points: list[Point]) -> str:
    """The label, with the deals behind each point when every point has as many."""
    deals = {p[3] for p in points}
    return f"{label} (n = {deals.pop():,} deals per point)" if len(deals) == 1 else f"{label} (n at each point)"


def _percent(value: float, _position: object = None) -> str:
    return f"{100 * value:.0f}%"


def _percent_tenths(value: float, _position: object = None) -> str:
    return f"{100 * value:.1f}%"


def _offset(index: int, series: int) -> float:
    """Where series ``index`` of ``series`` sits beside its player count: evenly spread over
    at most ``DODGE`` either side."""
    if series < 2:
        return 0.0
    return (index / (series - 1) - 0.5) * 2 * DODGE


def _errorbar(axes: Any, points: list[Point], dx: float, label: str | None, marker: str, style: str, color: str) -> None:
    shown = [(x, y, ci, n) for x, y, ci, n in points if y is not None]
    if not shown:
        return
    xs = [x + dx for x, _, _, _ in shown]
    ys = [y for _, y, _, _ in shown]
    errors = [[y - ci[0] for _, y, ci, _ in shown], [ci[1] - y for _, y, ci, _ in shown]]
    axes.errorbar(xs, ys, yerr=errors, marker=marker, linestyle=style, capsize=3, label=label, color=color, markersize=4)
    if label is not None and label.endswith("(n at each point)"):
        for x, y, n in zip(xs, ys, (n for _, _, _, n in shown), strict=True):
            axes.annotate(f"n={n:,}", (x, y), textcoords="offset points", xytext=(0, 5), fontsize=6, ha="center")
