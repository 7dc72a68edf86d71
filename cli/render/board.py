"""The board as text: cards, rules, a deal, a position's grid, hands and piles, a verified game, a position's text form."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Table
from rich.text import Text
from tranquility.solver.engine.cards import FINISH, MONSTER, START, Card, sorted_cards
from tranquility.solver.engine.deal import Deal
from tranquility.solver.engine.line import Game, Line, as_line
from tranquility.solver.engine.rules import EXPLANATIONS, OFFICIAL, PRESETS, Rules, nearest_preset, rules_diff
from tranquility.solver.formats.rules_text import rules_name

if TYPE_CHECKING:
    from ..game_input import GameFile


CARD_STYLES: dict[Card, str] = {START: "bold green", FINISH: "bold magenta", MONSTER: "bold red"}


LEGEND = "S = Start, F = Finish, M = Sea Monster"


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


def render_seat_view(console: Console, obs, last: int | None = None, compact: bool = False, starting: int | None = None) -> None:
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


def position_json(state) -> dict[str, Any]:
    """``tranquility show --json``: the position ``state`` stands at, in the one JSON shape
    of a position (tranquility-position/1, solver/formats/position_forms.py)."""
    from tranquility.solver.engine.position import Position
    from tranquility.solver.formats.position_forms import position_to_json

    return position_to_json(Position.of(state))


def status_text(state) -> Text:
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
    console.print(Text("Status: ") + status_text(state))
    if turn < total:
        console.print(f"Next in the line: turn {turn + 1}: {describe(line.actions[turn])}")
