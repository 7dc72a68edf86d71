"""Rich rendering of engine values: display only, no rule of the game is decided here."""

from __future__ import annotations

import json
import os
import re
import statistics
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, sorted_cards
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.engine.rules import EXPLANATIONS, OFFICIAL, PRESETS, Rules
from tranquility.solver.formats.rules_text import nearest_preset, rules_diff, rules_name

if TYPE_CHECKING:
    from .options import GameFile

CARD_STYLES: dict[Card, str] = {START: "bold green", FINISH: "bold magenta", MONSTER: "bold red"}
LEGEND = "S = Start, F = Finish, M = Sea Monster"


# The width of stdout when it is not a terminal: wide enough that no line is ever wrapped.
UNWRAPPED = 10_000


def make_console(stderr: bool = False) -> Console:
    """A console for this run: as wide as the terminal (or COLUMNS); when stdout is not a
    terminal and COLUMNS is not set, lines are not wrapped at all, so piped text is one
    line per line. No markup: file names and engine messages are printed exactly as they
    are. A table wider than the terminal is stacked (``fitting``), never wider than it."""
    console = _Console(stderr=stderr, highlight=False, markup=False)
    if not stderr and not console.is_terminal and not os.environ.get("COLUMNS", "").isdigit():
        console = _Console(stderr=stderr, highlight=False, markup=False, width=UNWRAPPED)
    return console


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # rich would exit 1 ("the answer is no"); the command line's one handler makes it
        # the documented quiet 130 (exits.Group).
        raise BrokenPipeError


# What a line never ends inside: a number with its unit ("0.55 s:", "1 min 09 s"), a change
# ("17 -> 20)"), or a word.
_WORD = re.compile(r"\S*\d (?:min \d+ )?(?:s|min)\b\S*|\S+ -> \S+|\S+")


def fitted(text: Text, width: int, unit: re.Pattern = _WORD) -> Text:
    """``text`` broken at spaces into lines of at most ``width`` cells, as rich would wrap
    it, except that a number keeps its unit on its line (whatever ``unit`` matches stays
    on one line; one wider than ``width`` is left to rich, which folds it)."""
    breaks, start = [], 0
    plain = text.plain
    for word in unit.finditer(plain):
        if word.start() > start and cell_len(plain[start : word.end()]) > width:
            breaks.append(word.start())
            start = word.start()
    lines = text.divide(breaks)
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def fitting(console: Console, *layouts: RenderableType) -> RenderableType:
    """The first of ``layouts`` (the widest first) whose every line fits on the console
    without wrapping a cell; else the last, the narrowest."""
    unbounded = console.options.update(max_width=UNWRAPPED)
    for layout in layouts[:-1]:
        if console.measure(layout, options=unbounded).maximum <= console.width:
            return layout
    return layouts[-1]


def dump_json(data: Any) -> str:
    """JSON as the tool prints it: the same layout ``write_json`` gives files."""
    return json.dumps(data, indent=1)


# -- cards ------------------------------------------------------------------------------


def card_text(card: Card) -> Text:
    return Text(str(card), style=CARD_STYLES.get(card, ""))


def cards_text(cards: Iterable[Card], empty: str = "-") -> Text:
    text = Text(" ").join(card_text(c) for c in cards)
    return text if text.plain else Text(empty, style="dim")


def short_cards(cards: tuple[Card, ...], width: int) -> Text:
    """``cards`` on one line of at most ``width`` cells: all of them if they fit, else the
    first ones and how many more (``41 7 … (+12)``)."""
    whole = cards_text(cards)
    if whole.cell_len <= width:
        return whole
    shown = len(cards)
    while shown and len(" ".join(map(str, cards[:shown]))) + len(f" … (+{len(cards) - shown})") > width:
        shown -= 1
    rest = Text(f"… (+{len(cards) - shown})", style="dim")
    return Text(" ").join([cards_text(cards[:shown]), rest]) if shown else rest


# -- rules ------------------------------------------------------------------------------

_CORE_KEYS = ("rows", "cols", "islands", "finish", "hand")


def rules_line(rules: Rules) -> str:
    """The rule set in one line: its name (the nearest preset and the keys that differ
    from it), the grid and cards, then every other key that differs from the official
    rules and the name does not already give."""
    _, changes = nearest_preset(rules)
    text = (
        f"{rules_name(rules)}: {rules.rows}x{rules.cols} grid, islands 1..{rules.islands}, "
        f"{rules.finish} Finish, hand {rules.hand}"
    )
    others = {k: v for k, v in rules_diff(rules).items() if k not in _CORE_KEYS}
    if not others:
        return text + "; other options official"
    unnamed = {k: v for k, v in others.items() if k not in changes}
    if unnamed:
        return text + "; " + " ".join(f"{k}={v}" for k, v in unnamed.items())
    return text


def render_rules(console: Console, rules: Rules) -> None:
    console.print(Text("Rules in force: ", style="bold") + Text(rules_name(rules)))
    table = Table(show_header=True, header_style="bold", expand=False)
    table.add_column("Key", no_wrap=True)
    table.add_column("Value", no_wrap=True)
    table.add_column("Meaning")
    official = OFFICIAL.to_dict()
    for key, value in rules.to_dict().items():
        shown = Text(str(value))
        if value != official[key]:
            shown.stylize("bold yellow")
            shown.append(f" (official {official[key]})", style="dim")
        table.add_row(key, shown, EXPLANATIONS.get(key, ""))
    console.print(table)
    console.print(Text("Presets", style="bold") + Text(" (--rules NAME; changes from official):"))
    for name, preset in PRESETS.items():
        diff = rules_diff(preset)
        changes = ", ".join(f"{k}={v}" for k, v in diff.items()) or "the English rulebook (defaults)"
        console.print(f"  {name:<13} {changes}")
    console.print("Change single keys with --rule KEY=VALUE, or pass a JSON rules file to --rules.")


# -- deals ------------------------------------------------------------------------------


def _rocks_text(deal: Deal) -> str:
    if deal.rocks_row is None:
        return "off"
    text = f"{deal.rules.rocks}, starting on row {deal.rocks_row}"
    if deal.rules.rocks == "auto":
        text += f" ({len(deal.rocks_rolls)} rolls)"
    return text


def render_deal(console: Console, deal: Deal, title: str = "Deal") -> None:
    seed = "none" if deal.seed is None else str(deal.seed)
    head = f"{title}: seed {seed}, {deal.players} player(s), dealer {deal.dealer or 'unknown'}"
    console.print(Text(head, style="bold"))
    console.print(f"Rules: {rules_line(deal.rules)}")
    hand = deal.rules.hand
    table = Table(show_header=True, header_style="bold")
    table.add_column("Seat", justify="right", no_wrap=True)
    table.add_column("Opening hand", no_wrap=True)
    table.add_column("Rest of the pile (top first)")
    table.add_column("Cards", justify="right", no_wrap=True)
    for seat, pile in enumerate(deal.piles):
        table.add_row(str(seat), cards_text(sorted_cards(pile[:hand])), cards_text(pile[hand:]), str(len(pile)))
    console.print(table)
    removed = ", ".join(map(str, deal.removed_islands)) or "none"
    console.print(f"Removed islands: {removed}")
    console.print(f"Jagged Rocks: {_rocks_text(deal)}")
    console.print(f"Seat 0 moves first. {LEGEND}.", style="dim")


# -- positions and verdicts -------------------------------------------------------------


def grid_table(state, last: int | None = None) -> Table:
    """The grid as it lies on the table: top row first, row 0 at the bottom. An empty cell
    shows its index as a move names it (``.17``: ``24@17`` plays there); ``last``, the cell
    the last move played on (``last_cell``), is marked ``*`` (``*66``), so that text
    without styles still shows it."""
    rules = state.rules
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("row", justify="right", style="dim", no_wrap=True)
    for col in range(rules.cols):
        table.add_column(str(col), justify="right", no_wrap=True)
    for row in reversed(range(rules.rows)):
        shown = []
        for cell in range(row * rules.cols, (row + 1) * rules.cols):
            value = state.grid[cell]
            if value is not None:
                text = Text(str(value))
            elif state.rocks_row == row:
                text = Text("#", style="bold red")
            else:
                text = Text(f".{cell}", style="dim")
            if cell == last:
                text = Text(f"*{text.plain}", style="bold reverse")
            shown.append(text)
        table.add_row(f"rocks {row}" if state.rocks_row == row else f"{row}", *shown)
    return table


def last_cell(action) -> int | None:
    """The cell ``action`` played on (an island's, or the one a Sea Monster sank), None for
    an action that plays on no cell: the cell ``grid_table`` marks."""
    from tranquility.solver.engine.actions import choice_of

    return None if action is None else choice_of(action).cell


def render_position(console: Console, state, piles: bool = False, last: int | None = None, compact: bool = False) -> None:
    """Grid (``last``: the cell the last move played on, marked), hands and what each seat
    still has to draw: with ``piles``, every card of each pile, top first, and how many;
    else only how many. ``compact`` (the play board on a small screen) keeps each pile to
    one line, its top cards and how many more (``41 7 … (+12)``), and the legend short."""
    console.print(grid_table(state, last))
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("Seat", justify="right", no_wrap=True)
    table.add_column("Hand", no_wrap=compact)
    if piles:
        table.add_column("Pile" if compact else "Pile (top first)", no_wrap=compact)
    table.add_column("Pile" if not piles else "Cards", justify="right", no_wrap=True)
    seats = [f"{seat}{' <' if seat == state.seat and not state.won else ''}" for seat in range(len(state.hands))]
    hands = [cards_text(hand) for hand in state.hands]
    # What a pile has left of a compact line: the other columns and the 2-cell gaps between the 4.
    room = console.width - max(map(len, ["Seat", *seats])) - max(len("Hand"), *(h.cell_len for h in hands)) - len("Cards") - 6
    for seat, hand in enumerate(hands):
        pile = state.pile(seat)
        shown = [short_cards(pile, room) if compact else cards_text(pile)] if piles else []
        table.add_row(seats[seat], hand, *shown, str(len(pile)))
    console.print(table)
    _legend(console, state, last, compact)


def render_seat_view(
    console: Console, obs, last: int | None = None, compact: bool = False, starting: int | None = None
) -> None:
    """What one seat sees of the table, drawn from its ``Observation`` alone (so nothing it
    cannot see can show): the grid, its own hand, and every other hand and every pile, its
    own too, as counts: their cards are face down. ``starting``: the seat whose Start is
    being played, while its event asks the seats for their shares."""
    view = obs.view  # the grid and the counts; every card the seat cannot see is a blank
    console.print(grid_table(view, last))
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("Seat", justify="right", no_wrap=True)
    table.add_column("Hand", no_wrap=compact)
    table.add_column("Pile" if compact else "Pile (face down)", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for seat, (held, left) in enumerate(zip(obs.hand_sizes, obs.pile_sizes, strict=True)):
        mine = seat == obs.seat
        hand = cards_text(obs.hand) if mine else Text(f"{held} card{'' if held == 1 else 's'}", style="dim")
        to_move = " <" if seat == obs.to_move and not obs.won else ""
        table.add_row(f"{seat}{to_move}", hand, str(left), "you" if mine else "")
    console.print(table)
    _legend(console, view, last, compact, starting)


def _legend(console: Console, state, last: int | None, compact: bool, starting: int | None = None) -> None:
    # The Start's action is applied once every share is given: meanwhile it is being played.
    start = "played" if state.start_played else "not yet played"
    if starting is not None:
        start = "being played" if compact else f"being played by seat {starting}, its event asking each seat its share"
    if compact:
        console.print(f"Start {start}; {state.filled}/{state.rules.cells} cells filled.", style="dim")
        return
    rocks = "; # = Jagged Rocks" if state.rocks_row is not None else ""
    marked = "; * = the last move's cell" if last is not None else ""
    console.print(
        f"Start {start}; {state.filled}/{state.rules.cells} cells filled; "
        f"{len(state.discarded)} card(s) discarded; .N = empty cell N; < = seat to move{marked}{rocks}.",
        style="dim",
    )


def render_verdict(console: Console, path: str, game: Game, verdict, puzzle=None) -> None:
    """verify's report; ``puzzle`` is a puzzle file's header (its id and grade)."""
    what = f"line of {len(game.actions)} action(s)" if isinstance(game, Line) else type(game).__name__.lower()
    deal = as_line(game).deal
    if puzzle is not None:
        what = f"{what} on {puzzle_text(puzzle)}" if isinstance(game, Line) else puzzle_text(puzzle)
    console.print(Text(f"{path}: {what}, {deal.players} player(s)", style="bold"))
    console.print(f"Rules: {rules_line(deal.rules)}")
    if verdict.legal:
        console.print(Text("legal", style="bold green") + Text(f": status {verdict.status} after {verdict.turns} turn(s)"))
    else:
        console.print(Text("ILLEGAL", style="bold red") + Text(f": {verdict.error}"))
        console.print(f"Accepted before the error: {verdict.turns} turn(s); status {verdict.status}.")
    if verdict.state is not None and isinstance(game, Line) and game.actions:
        console.print(Text(f"Position after turn {verdict.turns}:", style="bold"))
        played = game.actions[verdict.turns - 1] if verdict.turns else None
        render_position(console, verdict.state, last=last_cell(played))


# -- notation -----------------------------------------------------------------------------


def notation_text(read: GameFile | None, game: Game, verdict) -> str:
    """``verify --notation``: the line as a notation file, the verdict as a last comment.

    A deal the seeded dealer gives gets the ``deal`` header, a position (all --position
    gives) the ``position`` one; any other deal is named by the FILE ``read`` it came from
    (``GameFile.deal_file``)."""
    from tranquility.solver.formats.notation import seeded_header, write_notation

    line = as_line(game)
    named = line.position is not None or seeded_header(line.deal) is not None  # the header names it
    deal_file = None if named or read is None else read.deal_file()
    if verdict.legal:
        said = f"legal, status {verdict.status} after {verdict.turns} turn(s)"
    else:
        said = f"ILLEGAL: {verdict.error}"
    return write_notation(game, deal_file) + f"# verify: {said}\n"


# -- show ---------------------------------------------------------------------------------


def position_json(state) -> dict[str, Any]:
    """``tranquility show --json``: the position ``state`` stands at, in the one JSON shape
    of a position (tranquility-position/1, solver/formats/position_forms.py)."""
    from tranquility.solver.engine.position import Position
    from tranquility.solver.formats.position_forms import position_to_json

    return position_to_json(Position.of(state))


def position_text(state) -> str:
    """``tranquility show --position``: the position's one-line text form."""
    from tranquility.solver.engine.position import Position
    from tranquility.solver.formats.position_forms import position_to_text

    return position_to_text(Position.of(state))


def _status_text(state) -> Text:
    status = state.status
    if status == "won":
        return Text("won", style="bold green")
    if status == "lost":
        return Text("lost", style="bold red") + Text(f": seat {state.seat}, to move, has no legal action")
    text = Text("open", style="bold") + Text(f", seat {state.seat} to move")
    if state.must_play_start():
        text.append(" (it holds the Start card and must play it)")
    return text


def puzzle_text(puzzle) -> str:
    """A puzzle file's own words about itself: ``puzzle ID, grade G of 5``."""
    return f"puzzle {puzzle.id}, grade {puzzle.grade} of 5"


def render_show(console: Console, path: str, game: Game, state, turn: int, piles: bool = True, puzzle=None) -> None:
    """A deal, position or line at ``turn``: what led there, the table (every pile's cards,
    top first, unless ``piles`` is False), what comes next. ``puzzle`` is the puzzle
    file's header (its id and grade), when the deal is a puzzle."""
    from tranquility.solver.engine.actions import describe

    line = as_line(game)
    total = len(line.actions)
    what = f"line of {total} action(s)" if isinstance(game, Line) else type(game).__name__.lower()
    if puzzle is not None:
        what = f"{what} on {puzzle_text(puzzle)}" if isinstance(game, Line) else puzzle_text(puzzle)
    console.print(Text(f"{path}: {what}, {line.deal.players} player(s)", style="bold"))
    console.print(f"Rules: {rules_line(line.deal.rules)}")
    if turn == 0:
        console.print(f"Starting position (turn 0 of {total})", style="bold")
    else:
        head = Text(f"After turn {turn} of {total}: ", style="bold") + Text(describe(line.actions[turn - 1]))
        console.print(head)
    render_position(console, state, piles=piles, last=last_cell(line.actions[turn - 1] if turn else None))
    console.print(Text("Discarded: ") + cards_text(state.discarded, empty="none"))
    if state.gone:
        console.print(Text("Out of the game (monsters and sunk islands): ") + cards_text(state.gone))
    console.print(Text("Status: ") + _status_text(state))
    if turn < total:
        console.print(f"Next in the line: turn {turn + 1}: {describe(line.actions[turn])}")


# -- solving ----------------------------------------------------------------------------

VERDICT_STYLES = {"win": "bold green", "no-win": "bold red", "unknown": "bold yellow"}


def verdict_head(verdict: str, method: str, seconds: float, phases) -> Text:
    """The verdict, then each phase that ran with its own time ("WIN  in 60.04 s: found by
    greedy in 0.04 s; improved by CP-SAT for 60.0 s (spare 12 -> 15)"), so that no
    phase seems to have taken the whole time."""
    from .progress import phases_text, seconds_text

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
    from tranquility.solver.engine.actions import describe

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
        for turn, action in enumerate(actions[prefix_turns:], start=prefix_turns + 1):
            console.print(f"  {turn:>3}. {describe(action)}")
        console.print(Text("Final grid:", style="bold"))
        console.print(grid_table(result.end, last_cell(actions[-1] if actions else None)))
    counts = ", ".join(f"{k} {v}" for k, v in _flat_stats(result.stats).items())
    if counts and verbose:
        console.print(f"Stats: {counts}", style="dim")


def _flat_stats(stats: dict) -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for phase, values in stats.items():
        for key, value in values.items():
            if key != "reason":
                flat[f"{phase}.{key}"] = value
    return flat


_BENCH_COLUMNS = (
    "group",
    "players",
    "cases",
    "decided",
    "win",
    "no-win",
    "unknown",
    "decided by",
    "median s",
    "p90 s",
    "max s",
    "solve/replay",
    "replay",
)
_BENCH_TEXT = ("group", "decided by")  # left-aligned, and wrapped at spaces in the halves


def render_bench(console: Console, report) -> None:
    """One row per group and player count; on a console too narrow for that, two tables,
    the verdicts then the times, each led by the group and player count."""
    console.print(Text(f"Benchmark: suite {report.suite}, time limit {report.time_limit:g} s", style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    rows = []
    for g in report.groups:
        methods = " ".join(f"{k}:{v}" for k, v in sorted(g.methods.items()))
        rows.append(
            (
                g.group,
                str(g.players),
                str(g.count),
                f"{100 * g.decided:.1f}%",
                str(g.verdicts["win"]),
                str(g.verdicts["no-win"]),
                str(g.verdicts["unknown"]),
                methods,
                f"{g.median:.3f}",
                f"{g.p90:.3f}",
                f"{g.max:.3f}",
                "-" if g.solve_per_replay is None else f"{g.solve_per_replay:.1f}",
                "ok" if g.replay_ok else "FAILED",
            )
        )
    wide = Table(show_header=True, header_style="bold")
    for name in _BENCH_COLUMNS:
        wide.add_column(name, justify="left" if name in _BENCH_TEXT else "right", no_wrap=True)
    for row in rows:
        wide.add_row(*row)
    halves = []
    for part in (range(0, 8), (0, 1, *range(8, 13))):
        half = Table(box=None, pad_edge=False, header_style="bold")
        for i in part:
            name = _BENCH_COLUMNS[i]
            half.add_column(name, justify="left" if name in _BENCH_TEXT else "right", no_wrap=name not in _BENCH_TEXT)
        for row in rows:
            half.add_row(*(row[i] for i in part))
        halves.append(half)
    console.print(fitting(console, wide, Group(*halves)))


def render_table_bench(console: Console, report) -> None:
    """``bench --suite table``: a table per section, one row per player count and policy;
    on a console too narrow for that, each in three parts (the rates, the comparison with
    the first policy, the decisions), each led by the player count and the policy. Then
    the decisions at the default budget, the rollouts and the games."""
    from tranquility.solver.batch.table_bench import SECTIONS, TABLE_COLUMNS, TABLE_PARTS, TITLES, summary_text, table_cells

    said = "Benchmark: suite table (official rules; every policy on the same deals, sim seed = deal seed)"
    console.print(Text(said, style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    for name in SECTIONS:
        rows = [table_cells(c, result) for c in report.section(name) for result in c.arms]
        if rows:
            console.print(stacked_table(console, TITLES[name], TABLE_COLUMNS, rows, TABLE_PARTS, left=2))
    for line in summary_text(report).splitlines():
        console.print(fitted(Text(line), console.width))


def stacked_table(
    console: Console,
    title: str,
    columns: tuple[str, ...],
    rows: list[list[str]],
    parts: tuple[tuple[int, ...], ...],
    left: int | None,
) -> RenderableType:
    """A bench table, one row per line; on a console too narrow for it, its ``parts`` (each
    a tuple of column indices) one under the other. Column ``left`` is text (None: none
    is), the rest numbers."""
    wide = Table(title=title, show_header=True, header_style="bold")
    for i, column in enumerate(columns):
        wide.add_column(column, justify="left" if i == left else "right", no_wrap=True)
    for row in rows:
        wide.add_row(*row)
    stack: list[RenderableType] = [Text(title)]
    for indices in parts:
        part = Table(box=None, pad_edge=False, header_style="bold")
        for i in indices:
            part.add_column(columns[i], justify="left" if i == left else "right", no_wrap=True)
        for row in rows:
            part.add_row(*(row[i] for i in indices))
        stack.append(part)
    return fitting(console, wide, Group(*stack))


def render_fair_bench(console: Console, report) -> None:
    """``bench --suite fair``: thrifty's lost games by verdict, lookahead's own moves (each
    table in two parts on a narrow console), then the summary lines."""
    from tranquility.solver.batch.fair_bench import (
        LOST_COLUMNS,
        LOST_TITLE,
        OWN_COLUMNS,
        OWN_TITLE,
        fair_summary,
        lost_rows,
        own_rows,
    )

    console.print(Text("Benchmark: suite fair (the fair analysis over many games, sim seed = deal seed)", style="bold"))
    console.print(f"Machine: {report.machine}", style="dim")
    console.print(stacked_table(console, LOST_TITLE, LOST_COLUMNS, lost_rows(report), ((0, 1, 2, 3), (0, 1, 4)), left=1))
    console.print(stacked_table(console, OWN_TITLE, OWN_COLUMNS, own_rows(report), ((0, 1, 2, 3, 4), (0, 5, 6, 7)), left=None))
    for line in fair_summary(report).splitlines():
        console.print(fitted(Text(line), console.width))


# -- simulation -------------------------------------------------------------------------


def render_simulation(console: Console, result, prefix_turns: int = 0) -> None:
    """The outcome of one simulated game, the line turn by turn and the final position."""
    from tranquility.solver.engine.actions import describe

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
    for turn, action in enumerate(result.line.actions, start=1):
        console.print(f"  {turn:>3}. {describe(action)}")
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


# -- explaining ---------------------------------------------------------------------------

CRITICAL_LABELS = {
    "only": "ONLY MOVE",
    "few": "one of a few",
    "many": "one of many",
    "not checked": "not checked",
    "forced": "forced",
}

# explain --hands: on which turns the mover's hand before the move is shown; critical =
# the turns where the choice mattered (an only move, or one of a few).
HANDS = ("critical", "all", "none")


def _turn_line(turn, c, hands: str) -> Text:
    """One turn of the line: what was played (from which hand, as ``hands`` asks), the
    cards drawn, the critical label."""
    line = Text(f"{turn.number:>3}. ", style="bold")
    line.append(turn.text)
    if hands == "all" or (hands == "critical" and c is not None and c.kind in ("only", "few")):
        line.append(f", from hand {' '.join(map(str, turn.hand))}", style="cyan")
    if turn.drawn:
        line.append(f"; draws {' '.join(map(str, turn.drawn))}", style="dim")
    if c is not None and c.kind not in ("many", "forced"):
        line.append(f"  [{CRITICAL_LABELS[c.kind]}]", style="bold red" if c.kind == "only" else "yellow")
    return line


# Over 60 lines: the explanation's sections in the order they are printed, one block each.
def render_explanation(
    console: Console, e, every_turn: bool = False, reproducible: bool = False, hands: str = "critical"
) -> None:
    """The best line turn by turn (with the mover's hand before the move on the turns
    ``hands`` names, one of ``HANDS``), the grid where it matters, critical moves, a
    summary; or, for an unwinnable position, how far the team gets and what binds."""
    result = e.result
    console.print(fitted(verdict_head(result.verdict, result.method, e.total_seconds, e.phases), console.width))
    if e.already_won:
        console.print(
            f"Already won: the line given won at turn {len(e.turns)}; here it is as played, with its critical moves.",
        )
    if result.best is not None:
        console.print(f"Best line by {result.best.objective}: {result.best.in_words}")
    if e.turns and e.turns[0].number > 1:
        console.print(counted_from(e.turns[0].number, e.turns[-1].number))
    if e.interrupted and result.verdict != "unknown":
        left_out = "the turns not reached are not checked"
        if result.verdict == "no-win":
            left_out = "the reach and what binds are left out"
        console.print(f"Interrupted: what was found so far is shown; {left_out}.", style="yellow")
    if result.verdict == "no-win":
        console.print(f"Proof: {result.reason}")
        _render_reach(console, e.reach, reproducible)
        return
    if result.method == "interrupted":
        console.print("Interrupted before a win was found or ruled out.")
        return
    if result.verdict == "unknown":
        console.print(out_of_time(reproducible))
        return
    critical = {c.number: c for c in e.critical}
    for turn in e.turns:
        c = critical.get(turn.number)
        console.print(_turn_line(turn, c, hands))
        if c is not None and c.kind == "only" and c.proven:
            console.print(f"     Only move: {c.choice} (anything else loses the win)", style="bold red")
        elif c is not None and c.kind == "few":
            console.print(f"     One of a few winning choices; another: {c.example}", style="yellow")
        counts = "  ".join(
            f"seat {s}: {h} in hand, {p} in pile" for s, (h, p) in enumerate(zip(turn.hands, turn.piles, strict=True))
        )
        if every_turn or turn.moments:
            why = {"start": "after the Start event", "end": "at the end"}
            rows = f"{turn.state.complete_rows} of {turn.state.rules.rows} rows"
            # "row R": row R (0 = the bottom row, as the grid is drawn) has just been completed.
            said = [
                why.get(m) or f"after {m}{' (the bottom row)' if m == 'row 0' else ''} is complete ({rows})" for m in turn.moments
            ]
            label = ", ".join(said) or f"after turn {turn.number}"
            console.print(Text(f"     Grid {label}:", style="bold"))
            console.print(grid_table(turn.state, last_cell(turn.action)))
            console.print(f"     {counts}", style="dim")
    s = e.summary
    console.print(
        f"Summary: {s['turns']} turns; costs paid {s['costs_paid']}; discard-two {s['discard_two_cards']} cards; "
        f"Start event {s['start_discards']} cards; {s['spare_cards']} cards left in hands and piles at the win.",
    )
    kinds = {k: sum(1 for c in e.critical if c.kind == k) for k in CRITICAL_LABELS}
    unproven = sum(1 for c in e.critical if c.kind == "only" and not c.proven)
    console.print(
        f"Critical moves: {kinds['only']} only moves, {kinds['few']} one of a few (2-3), "
        f"{kinds['many']} one of many (4+), {kinds['forced']} forced, {kinds['not checked']} not checked"
        + (f" ({unproven} only-move claims not fully proven)" if unproven else "")
        + ".",
    )


def _render_reach(console: Console, reach, reproducible: bool) -> None:
    if reach is None:
        return
    of = reach.line.deal.rules.cells
    how = "proven: the complete search covered every line" if reach.proven else "best found in the time limit"
    console.print(f"Best reach: {reach.cells} of {of} cells filled before the team is stuck ({how}).")
    if reach.cells == of:
        console.print("The grid can be filled, but no Finish card can be played.")
    _render_binding(console, reach.binding, reproducible)


def _render_binding(console: Console, binding, reproducible: bool) -> None:
    """The rule groups CP-SAT found to bind together, each with the position's facts."""
    from tranquility.solver.cpsat.model import RULE_GROUPS

    if binding is None:
        return
    if binding.status == "unknown":
        console.print(
            "What binds: not found: CP-SAT did not prove the model infeasible in "
            + ("its --reproducible budget" if reproducible else "the time limit")
            + " (the proof above stands; "
            + ("without --reproducible, " if reproducible else "")
            + "a longer --time-limit gives what binds more time).",
            style="yellow",
        )
        return
    if binding.status == "winnable":
        console.print("What binds: the CP-SAT model found no obstacle (it disagrees with the proof: please report).", style="red")
        return
    if not binding.groups:
        console.print(
            "What binds: the model's frame alone (one action per turn, every cell filled, one Finish, the cards there are)."
        )
        return
    if binding.minimal:
        how = "a minimal set: the win becomes possible as soon as any one is switched off"
    else:
        how = "sufficient; not every group was shown necessary in the time limit"
    said = f" (rule groups of the CP-SAT model that together rule out a win; {how}):"
    console.print(Text("What binds", style="bold") + Text(said))
    for group, fact in zip(binding.groups, binding.facts, strict=False):
        console.print(f"  * {RULE_GROUPS[group]}. {fact}")


def render_analysis(console: Console, analysis, verdict_first: bool = False) -> None:
    """Per position: the verdict; then the action that lost the win, what kept it and why
    the position after it is lost (before the table with ``verdict_first``, as the board
    shows it: the table may be taller than the screen)."""
    from tranquility.solver.engine.actions import describe

    console.print(Text(f"Deal: {analysis.deal_verdict.upper()}", style=VERDICT_STYLES[analysis.deal_verdict]))
    if verdict_first:
        _analysis_verdict(console, analysis)
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name in ("before turn", "verdict", "by", "s", "action played"):
        table.add_column(name)
    actions = analysis.line.actions
    for p in analysis.positions:
        played = describe(actions[p.index]) if p.index < len(actions) else "(end of the line)"
        table.add_row(
            str(p.index + 1),
            Text(p.verdict, style=VERDICT_STYLES[p.verdict]),
            p.method,
            f"{p.seconds:.2f}",
            played,
        )
    console.print(table)
    if not verdict_first:
        _analysis_verdict(console, analysis)


def _analysis_verdict(console: Console, analysis) -> None:
    """Where the win was lost, what would have kept it and why; or that it never was."""
    from tranquility.solver.engine.actions import describe

    from .progress import METHOD_WORDS

    actions = analysis.line.actions
    if analysis.lost_at is not None:
        lost = actions[analysis.lost_at - 1]
        console.print(Text(f"Lost the win at turn {analysis.lost_at}: {describe(lost)}.", style="bold red"))
        if analysis.kept_by() is not None:
            console.print(
                f"This would have kept it: {analysis.kept_by()} (the first action of a winning line from before turn "
                f"{analysis.lost_at}).",
            )
        after = analysis.after_loss()
        if after is not None and after.reason:
            how = METHOD_WORDS.get(after.method, after.method)
            console.print(f"Why the position after it is lost (proven by {how}): {after.reason}.")
    elif analysis.lost_between is not None:
        a, b = analysis.lost_between
        console.print(f"The win was lost between turns {a} and {b} (the positions in between were not decided).")
    elif analysis.deal_verdict == "win" and analysis.positions[-1].verdict == "win":
        console.print("The win was never lost.")
    if analysis.interrupted:
        stopped = analysis.positions[-1].index + 1
        console.print(f"Interrupted while solving the position before turn {stopped}: the later ones were not solved.")


# -- analyze --fair -------------------------------------------------------------------------

FAIR_STYLES = {
    "won": "bold green",
    "never winnable": "bold",
    "mistake": "bold red",
    "bad luck": "bold yellow",
    "still winnable": "bold green",
    "undecided": "bold yellow",
}


def percent(share: float, digits: int) -> str:
    return f"{100 * share:.{digits}f}"


def bound_digits(turn: dict) -> int:
    """The decimals a turn's intervals are printed with: the fewest that show what the
    mistake rule found on the exact bounds (the best's lower end above the played move's
    upper end, or not). Whole percents hide a gap as small as 69.00 against 68.57."""
    low, high = turn["best"]["interval"][0], turn["played"]["interval"][1]
    return next((d for d in range(16) if (float(percent(low, d)) > float(percent(high, d))) == turn["mistake"]), 16)


def chance_text(move: dict, digits: int = 0) -> str:
    """A move's win chance in its worlds and its 95% interval, in percent: ``42% [25-61]``."""
    low, high = move["interval"]
    return f"{round(100 * move['rate'])}% [{percent(low, digits)}-{percent(high, digits)}]"


def chances(turn: dict) -> tuple[str, str]:
    """The played move's and the best's ``chance_text``, with the digits the turn needs."""
    digits = bound_digits(turn)
    return chance_text(turn["played"], digits), chance_text(turn["best"], digits)


def rule_text(turn: dict) -> str:
    """The mistake rule applied to a turn, with the bounds it compares, as printed."""
    digits = bound_digits(turn)
    low, high = percent(turn["best"]["interval"][0], digits), percent(turn["played"]["interval"][1], digits)
    if turn["mistake"]:
        return f"the best's interval lies wholly above the played move's ({low} > {high})"
    return f"the intervals overlap ({low} is not above {high}), so no move was clearly better"


def judged_text(turn: dict) -> str:
    """Why a turn the perfect analysis flags is called a mistake or bad luck
    (``turn["judged"]``), in plain words: the win chances that show it, then what the win
    needed and where it went."""
    played, best = turn["played"], turn["best"]
    said_played, said_best = chances(turn)
    if played == best:
        chance = f"the move played, {played['notation']}, was the best, won in {said_played} of its worlds"
    else:
        chance = (
            f"{played['notation']} (played) won in {said_played} of its worlds, the best, {best['notation']}, "
            f"in {said_best}: {rule_text(turn)}"
        )
    why = "" if turn["why"] is None else " " + turn["why"]["text"]
    return f"By what seat {turn['seat']} could see, {chance}.{why}"


def render_fair(console: Console, fair) -> None:
    """Each examined turn (the move played and the best, with their win chances in the
    mover's worlds, the cost, the mistakes), then the verdict on the line in words."""
    data = fair.to_json()["fair"]
    turns = data["turns"]
    asked = "every turn" if data["turns_asked"] == "all" else f"{len(data['planned'])} turn(s)"
    console.print(
        Text("Fair analysis", style="bold")
        + Text(f": {asked} judged by what the mover could know; {data['samples']} worlds per move, sim seed {data['sim_seed']}.")
    )
    if data["memory_from"] is not None:
        console.print(
            f"The line starts from a position without history: memory starts at turn {data['memory_from']} "
            "(each seat knows its hand, the grid and the counts there, nothing from before)."
        )
    if turns:
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        for name in ("turn", "seat", "played", "won in", "best", "won in", "cost", ""):
            table.add_column(name, justify="left" if name in ("played", "best", "") else "right", no_wrap=True)
        stacked = []
        for turn in turns:
            played, best = turn["played"], turn["best"]
            mark = f"{turn['turn']}{'*' if turn['flagged'] else ' '}"
            cost = f"{turn['cost']:+.0f}"
            word = turn["judged"] or ("mistake" if turn["mistake"] else "")
            judged = Text(word, style=FAIR_STYLES[word] if word else "")
            said_played, said_best = chances(turn)
            row = (played["notation"], said_played, best["notation"], said_best, cost)
            table.add_row(mark, str(turn["seat"]), *row, judged)
            # Narrower than the table (long payments): one paragraph per turn, wrapped at spaces.
            said = f"turn {mark.strip()} (seat {turn['seat']}): played {played['notation']}, won in {said_played}; "
            said += f"best {best['notation']}, won in {said_best}; cost {cost}"
            stacked.append(Text(said) + (Text(": ") + judged if word else Text("")))
        console.print(fitting(console, table, Group(*stacked)))
        console.print(
            "won in = the share of the mover's worlds the move won [95% interval], in percent; cost = best less "
            "played, in percentage points; mistake = the best's interval lies wholly above the played move's "
            "(bounds printed with the decimals it takes to show it)."
            + (
                " * = the perfect analysis places the loss of the win here: a mistake, or bad luck when no move was "
                "clearly better."
                if any(t["flagged"] for t in turns)
                else ""
            )
        )
        for turn in turns:
            if turn["judged"] is not None:
                word = Text(turn["judged"].capitalize(), style=FAIR_STYLES[turn["judged"]])
                console.print(Text(f"Turn {turn['turn']}: ") + word + Text(". " + judged_text(turn)))
    verdict = data["verdict"]
    console.print(Text(f"Verdict: {verdict.upper()}.", style=FAIR_STYLES[verdict]) + Text(" " + fair_verdict_text(data)))
    if data["interrupted"]:
        left = [t for t in data["planned"] if t not in {x["turn"] for x in turns}]
        console.print(f"Interrupted: {len(turns)} of {len(data['planned'])} turn(s) examined; not examined: {_turn_list(left)}.")


def _turn_list(turns: list[int]) -> str:
    return ", ".join(map(str, turns)) if turns else "none"


def fair_verdict_text(data: dict) -> str:
    """The fair verdict (``FairAnalysis.to_json()["fair"]``) in a sentence."""
    verdict, span = data["verdict"], data["loss_turns"]
    where = "" if span is None else (f"at turn {span[0]}" if span[0] == span[1] else f"between turns {span[0]} and {span[1]}")
    examined = _turn_list([t["turn"] for t in data["turns"]])
    if verdict == "won":
        return "The line won the game."
    if verdict == "never winnable":
        return "The team could not have won from where the line starts, however it played (the perfect analysis's proof)."
    if verdict == "still winnable":
        return "The line stops with the win still there."
    if verdict == "mistake":
        turn = next(t for t in data["turns"] if t["turn"] == data["mistake_at"])
        already = " already" if turn["turn"] < span[0] else ""
        said_played, said_best = chances(turn)
        # An earlier mistake cost win chances, not the win itself: with every card face up it was still there.
        survived = f" With every card face up, the win was still there after turn {turn['turn']}." if already else ""
        return (
            f"The win was lost {where} (perfect information); turn {turn['turn']} was{already} a mistake by what "
            f"seat {turn['seat']} could see: {turn['best']['notation']} won in {said_best} of its "
            f"worlds, {turn['played']['notation']} (played) in {said_played}: {rule_text(turn)}.{survived}"
        )
    if verdict == "bad luck":
        said = (
            f"The win was lost {where} (perfect information), but no examined turn up to it was a mistake by what "
            f"its mover could see (turns examined: {examined})."
        )
        costly = [t for t in data["turns"] if t["turn"] <= span[1] and t["cost"] > 0]
        if not costly:
            return said + " Every examined turn up to it played its best move."
        turn = max(costly, key=lambda t: (t["cost"], -t["turn"]))
        said_played, said_best = chances(turn)
        return said + (
            f" The nearest to one, turn {turn['turn']}: {turn['best']['notation']} won in {said_best} of seat "
            f"{turn['seat']}'s worlds, {turn['played']['notation']} (played) in {said_played}: {rule_text(turn)}."
        )
    if span is None:
        why = "Ctrl-C stopped it" if data["interrupted"] else "it left positions unknown"
        return f"The perfect analysis did not place where the win was lost ({why})."
    return f"The win was lost {where}, but Ctrl-C came before every turn up to it was examined."


# -- moves --------------------------------------------------------------------------------


def render_moves(console: Console, ranking, reproducible: bool = False) -> None:
    """Every move at the position, best first, one row each: rank, move (its notation: the
    winning payment, else the board's), verdict, spare cards and turns of a win, and whether
    its value is proven (with an objective) or why it loses."""
    from .progress import seconds_text

    state, moves = ranking.state, ranking.moves
    played = len(ranking.line.actions)
    where = f"after {played} action(s) of the game given" if played else "where the game given starts"
    if not moves:
        console.print(Text("No moves ", style="bold") + Text(f"{where}: the game is ") + _status_text(state))
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


# -- puzzles ------------------------------------------------------------------------------


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


# -- bench suites measured in rows ----------------------------------------------------------


def render_explain_bench(console: Console, report) -> None:
    """``bench --suite explain``: one row per player count, then each deal's best spare."""
    console.print(Text(f"Benchmark: suite explain, time limit {report.time_limit:g} s per line", style="bold"))
    table = Table(show_header=True, header_style="bold")
    columns = (
        "players",
        "deals",
        "median explain s",
        "spare proven optimal",
        "critical claims proven",
        "analyze positions",
        "analyze decided",
    )
    for name in columns:
        table.add_column(name, justify="right")
    for r in report.rows:
        table.add_row(
            str(r.players),
            str(r.deals),
            f"{r.median_seconds:.2f}",
            f"{100 * r.optimal_share:.0f}%",
            f"{100 * r.critical_proven_share:.0f}%",
            str(r.analyze_positions),
            f"{100 * r.analyze_decided_share:.1f}%",
        )
    console.print(table)
    console.print("Best spare per deal (value found, bound; * = proven optimal):")
    for r in report.rows:
        cells = [f"seed {seed}: {value}{'*' if opt else ''} (bound {bound})" for seed, value, bound, opt in r.spare]
        console.print(fitted(Text(f"  {r.players} players: " + ", ".join(cells)), console.width, _SEED_SPARE))


# One deal's best spare in bench --suite explain, kept on one line.
_SEED_SPARE = re.compile(r"seed \d+: \S+ \(bound \S+\),?|\S+")


def render_puzzle_bench(console: Console, report) -> None:
    """``bench --suite puzzles``: per player count and grade, deals graded and seconds; on
    a console too narrow for one row per player count, a block each, one row per measure."""
    from tranquility.puzzles.grade import GRADES

    console.print(Text("Benchmark: suite puzzles (grading has fixed budgets)", style="bold"))
    wide = Table(show_header=True, header_style="bold")
    wide.add_column("players", justify="right")
    wide.add_column("deals", justify="right")
    for g in GRADES:
        wide.add_column(f"grade {g}: deals, median grade s, generate s", justify="right")
    wide.add_column("not graded", justify="right")
    wide.add_column("silent table s", justify="right")
    blocks: list[RenderableType] = []
    for r in report.rows:
        graded, medians, per = [], [], []
        for g in GRADES:
            times = r.grade_seconds[g]
            seconds = r.per_puzzle(g)
            graded.append(str(r.graded[g]))
            medians.append(f"{statistics.median(times):.2f}" if times and seconds is not None else "-")
            per.append("-" if seconds is None else f"{seconds:.1f}")
        cells = [", ".join(measures) for measures in zip(graded, medians, per, strict=True)]
        wide.add_row(str(r.players), str(r.deals), *cells, str(r.graded[0]), f"{r.silent_seconds:.2f}")
        block = Table(box=None, pad_edge=False, header_style="bold")
        block.add_column("", no_wrap=True)
        for g in GRADES:
            block.add_column(f"grade {g}", justify="right", no_wrap=True)
        block.add_column("not graded", justify="right")
        block.add_column("silent table s", justify="right")
        block.add_row("deals", *graded, str(r.graded[0]), f"{r.silent_seconds:.2f}")
        block.add_row("median grade s", *medians)
        block.add_row("generate s", *per)
        blocks += [Text(f"players {r.players}, deals {r.deals}", style="bold"), block]
    console.print(fitting(console, wide, Group(*blocks)))
