"""An explanation turn by turn, the analysis of a played game, and the fair analysis's calls."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    pass
from .board import grid_table, last_cell
from .console import fitted, fitting
from .verdicts import VERDICT_STYLES, counted_from, out_of_time, verdict_head

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


# The explanation's sections in the order they are printed, one block each.
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

    from ..progress import METHOD_WORDS

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
    """The decimals a turn's lead interval is printed with: the fewest that show what the
    mistake rule found on the exact low end (at or above the margin, or not; above 0, or
    not). Whole points hide a low end of 7.996 against a margin of 8."""
    low = turn["lead"][0]

    def shows(digits: int) -> bool:
        shown = float(f"{low:.{digits}f}")
        return (shown >= turn["margin"]) == turn["mistake"] and (shown > 0) == (low > 0)

    return next((d for d in range(16) if shows(d)), 16)


def chance_text(move: dict) -> str:
    """A move's win chance in its worlds and its 95% interval, in percent: ``42% [25-61]``."""
    low, high = move["interval"]
    return f"{round(100 * move['rate'])}% [{percent(low, 0)}-{percent(high, 0)}]"


def chances(turn: dict) -> tuple[str, str]:
    """The played move's and the best's ``chance_text``."""
    return chance_text(turn["played"]), chance_text(turn["best"])


def rule_text(turn: dict) -> str:
    """The mistake rule applied to a turn: the best move's lead over the played one, its 95%
    interval as the rule compares it, and the margin a mistake costs at least."""
    digits = bound_digits(turn)
    low, high = turn["lead"]
    margin = f"{turn['margin']:g}"
    ahead = f"{turn['cost']:.0f}"
    lead = f"the best is {ahead} point{'' if ahead == '1' else 's'} ahead, 95% interval {low:.{digits}f} to {high:.{digits}f}"
    if turn["mistake"]:
        return f"it costs at least {margin} points of win chance ({lead}, wholly at or above the {margin}-point margin)"
    if low > 0:
        return f"within the margin ({lead}: surely ahead, but not surely by the {margin} points a mistake costs)"
    return f"no move was clearly better ({lead})"


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
            f"played, in percentage points; mistake = the 95% interval of the best's lead over the move played "
            f"lies wholly at or above {data['margin']:g} points: the move surely cost that much."
            + (
                " * = the perfect analysis places the loss of the win here: a mistake, or bad luck when no move was "
                "surely better by the margin."
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
