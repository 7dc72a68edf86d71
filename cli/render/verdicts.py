"""A verdict drawn: a solve, a played game and a win rate, every move at a position, a grading."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .board import grid_table, last_cell, render_position, rules_line, status_text
from .console import fitted

VERDICT_STYLES = {"win": "bold green", "no-win": "bold red", "unknown": "bold yellow"}


def verdict_head(verdict: str, method: str, seconds: float, phases) -> Text:
    """The verdict, then each phase that ran with its own time ("WIN  in 60.04 s: found by
    greedy in 0.04 s; improved by CP-SAT for 60.0 s (spare 12 -> 15)"), so that no
    phase seems to have taken the whole time."""
    from ..progress import phases_text, seconds_text

    head = Text(verdict.upper(), style=VERDICT_STYLES[verdict])
    if not phases:
        return head.append(f"  by {method} in {seconds_text(seconds)}")
    said = phases_text(p.to_json() for p in phases)
    if len(phases) == 1:  # one phase: its own time is the whole time
        return head.append(f"  {said}")
    return head.append(f"  in {seconds_text(seconds)}: {said}")


def out_of_time(reproducible: bool) -> str:
    """What to do about an unknown, in terms of the flags given."""
    if reproducible:
        return (
            "The fixed budgets of --reproducible ran out before a win was found or ruled out; "
            "without --reproducible, a longer --time-limit gives the search more time."
        )
    return "The time limit ran out before a win was found or ruled out; try a longer --time-limit."


def counted_from(first: int, last: int) -> str:
    """How turns are numbered in a line that starts from a position after ``first - 1``
    turns (as the replay page says it)."""
    return (
        f"Turns 1-{first - 1} are the position given; this line plays turns {first}-{last}, "
        f"and its objective counts turns from the position."
    )


def render_solve(console: Console, result, prefix_turns: int, verbose: bool = False, reproducible: bool = False) -> None:
    """The verdict, how each phase went, and for a win the continuation turn by turn; the
    solver's counters with ``verbose`` only."""
    console.print(fitted(verdict_head(result.verdict, result.method, result.seconds, result.phases), console.width))
    if result.reason:
        console.print(f"Proof: {result.reason}")
    if result.best is not None:
        console.print(f"Objective {result.best.objective}: {result.best.in_words}")
        if prefix_turns and result.line is not None:
            console.print(counted_from(prefix_turns + 1, len(result.line.actions)))
    if result.method == "interrupted":
        console.print("Interrupted before a win was found or ruled out.")
    elif result.verdict == "unknown":
        console.print(out_of_time(reproducible))
    if result.line is not None:
        actions = result.line.actions
        if result.method == "replay":
            console.print(f"Already won: the line given won at turn {len(actions)}; nothing is left to play.", style="bold")
        elif prefix_turns:
            console.print(f"Winning continuation from turn {prefix_turns + 1}:", style="bold")
        else:
            console.print("Winning line:", style="bold")
        console.print(numbered_turns(actions, prefix_turns + 1))
        console.print(Text("Final grid:", style="bold"))
        console.print(grid_table(result.end, last_cell(actions[-1] if actions else None)))
    counts = ", ".join(f"{k} {v}" for k, v in _flat_stats(result.stats).items())
    if counts and verbose:
        console.print(f"Stats: {counts}", style="dim")


def numbered_turns(actions, first: int) -> Text:
    """The turns from ``first`` on, one a line, as one text (one print, not one a turn:
    the console's work per print costs more than the line itself)."""
    from tranquility.solver.engine.actions import describe

    return Text("\n".join(f"  {turn:>3}. {describe(action)}" for turn, action in enumerate(actions[first - 1 :], start=first)))


def _flat_stats(stats: dict) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for phase, values in stats.items():
        for key, value in values.items():
            if key != "reason":
                flat[f"{phase}.{key}"] = value
    return flat


def render_simulation(console: Console, result, prefix_turns: int = 0) -> None:
    """The outcome of one simulated game, the line turn by turn and the final position."""
    deal = result.line.deal
    seed = "none" if deal.seed is None else str(deal.seed)
    console.print(
        Text(f"Policy {result.policy} (sim seed {result.sim_seed}) on deal seed {seed}, {deal.players} player(s)", style="bold")
    )
    console.print(f"Rules: {rules_line(deal.rules)}")
    head = Text("WON" if result.won else "LOST", style="bold green" if result.won else "bold red")
    head.append(f" after {result.turns} turn(s); {result.cells_filled}/{deal.rules.cells} cells filled")
    console.print(head)
    if prefix_turns:
        console.print(f"Turns 1-{prefix_turns} come from the line file; the policy played from turn {prefix_turns + 1}.")
    console.print(numbered_turns(result.line.actions, 1))
    console.print(Text("Final position:", style="bold"))
    actions = result.line.actions
    render_position(console, result.line.end_state(), last=last_cell(actions[-1] if actions else None))


def render_win_rate(console: Console, stats) -> None:
    console.print(
        Text(
            f"Policy {stats.policy} (sim seed {stats.sim_seed}) on seeded deals 0..{stats.deals - 1}, {stats.players} player(s)",
            style="bold",
        )
    )
    console.print(f"Rules: {rules_line(stats.rules)}")
    console.print(
        Text(f"won {stats.wins} of {stats.deals} ({100 * stats.win_rate:.1f}%)", style="bold")
        + Text(f"; mean cells filled {stats.mean_cells_filled:.1f} of {stats.rules.cells}; mean turns {stats.mean_turns:.1f}")
    )


def render_moves(console: Console, ranking, reproducible: bool = False) -> None:
    """Every move at the position, best first, one row each: rank, move (its notation: the
    winning payment, else the board's), verdict, spare cards and turns of a win, and whether
    its value is proven (with an objective) or why it loses."""
    from ..progress import seconds_text

    state, moves = ranking.state, ranking.moves
    played = len(ranking.line.actions)
    where = f"after {played} action(s) of the game given" if played else "where the game given starts"
    if not moves:
        console.print(Text("No moves ", style="bold") + Text(f"{where}: the game is ") + status_text(state))
        return
    counts = {v: sum(m.verdict == v for m in moves) for v in VERDICT_STYLES}
    console.print(f"Seat {state.seat} to move, {where}.")
    head = Text(f"{len(moves)} move(s) in {seconds_text(ranking.seconds)}: ")
    console.print(head + Text(", ").join(Text(f"{n} {v}", style=VERDICT_STYLES[v]) for v, n in counts.items() if n))
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("move", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    table.add_column("spare", justify="right", no_wrap=True)
    table.add_column("turns", justify="right", no_wrap=True)
    table.add_column("why" if ranking.objective == "any" else "proven / why", overflow="fold")
    for rank, move in enumerate(moves, start=1):
        table.add_row(
            str(rank),
            move.notation,
            Text(move.verdict, style=VERDICT_STYLES[move.verdict]),
            "" if move.spare is None else str(move.spare),
            "" if move.turns is None else str(move.turns),
            _move_note(move, ranking),
        )
    console.print(table)
    if ranking.objective != "any":
        console.print(
            f"Objective {ranking.objective}: each winning move's line improved for it; "
            "proven yes = its value is optimal over every payment."
        )
    if ranking.interrupted:
        console.print("Interrupted: the moves not decided by then are unknown.")
    elif counts["unknown"]:
        console.print(out_of_time(reproducible))
    if counts["win"]:
        console.print(
            "spare = cards left in hands and piles at the win; turns = the win's, counted from where "
            "the game given starts; --json gives each win's line."
        )


def _move_note(move, ranking) -> str:
    """The last column: for a win, whether its value is proven (with an objective); for a
    no-win, the proof; for an unknown, what stopped it."""
    if move.verdict == "win":
        return "" if ranking.objective == "any" else ("yes" if move.proven else "no")
    if move.verdict == "unknown":
        return "not decided before Ctrl-C" if ranking.interrupted else "not decided in the time"
    return move.reason or ""


def render_grading(console: Console, grading, game, puzzle_id: str | None) -> None:
    """The grade, what it means, and every metric behind it."""
    from tranquility.puzzles.grade import PLAYOUTS, meaning, score_range

    title = puzzle_id or f"{game.players}-player deal"
    console.print(Text(f"{title}  ({rules_line(game.rules)})", style="bold"))
    if grading.grade is None:
        console.print(Text(f"Not graded: {grading.verdict.upper()}", style=VERDICT_STYLES[grading.verdict]))
        console.print(f"Why: {grading.reason}. Only a deal proven winnable gets a grade.")
        _render_not_reproducible(console, grading)
        return
    m, parts = grading.metrics, grading.metrics.components
    console.print(Text(f"Grade {grading.grade} of 5", style="bold green") + Text(f"  score {grading.score:.3f}"))
    low, high = score_range(grading.grade, game.players, grading.calibration)
    band = " and ".join(x for x in (low is not None and f">= {low:.3f}", high is not None and f"< {high:.3f}") if x)
    means = meaning(grading.grade, game.players, grading.calibration)
    said = f"Grade {grading.grade} at {game.players} player(s): score {band}; {means}."
    console.print(said)
    if not grading.calibrated:
        console.print(
            f"These rules have no calibration of their own: graded against the {grading.calibration} one "
            f"(thresholds fitted on {grading.calibration} deals).",
            style="yellow",
        )
    console.print(f"Proven winnable: {grading.reason}; the solution line replays as a win.")
    _render_not_reproducible(console, grading)
    table = Table(title=None, show_edge=False)
    for column in ("metric", "measured", "difficulty (0-1)"):
        table.add_column(column)
    table.add_row("fixed policy", f"{m.policy_wins} of {PLAYOUTS} greedy playouts win", f"{parts['policy']:.2f}")
    first = f"{m.first_kept} of {m.first_sampled} sampled kept the win ({m.first_choices} legal)"
    table.add_row("first moves", first, f"{parts['first_moves']:.2f}")
    spare = f"{m.spare} cards left on the best line found (none can keep more than {m.spare_bound})"
    table.add_row("spare margin", spare, f"{parts['spare']:.2f}")
    console.print(table)
    if grading.silent is not None:
        s = grading.silent
        fixed = ", ".join(f"{name} {'won' if won else 'lost'}" for name, won in s.fixed.items())
        console.print(
            f"Silent table (beside the grade): {fixed}; wavering won {s.wavering_wins} of {s.wavering_plays}; "
            f"{s.win_rate:.0%} of silent plays win.",
        )


def _render_not_reproducible(console: Console, grading) -> None:
    if not grading.reproducible:
        console.print(
            "Not reproducible: a --time-limit proving solve decided this verdict; without --time-limit "
            "the grade is the same on every run and machine.",
            style="yellow",
        )
