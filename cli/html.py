"""``tranquility explain --html``: one self-contained HTML page that replays a line.

Every position is computed here, in Python, by the rules engine (``State.initial`` and
``State.apply``) and embedded as JSON in a ``<script type="application/json">`` tag, face
up: every hand and every pile (top first), and for each step the cards it paid, sent out of
the game and drew; the page's script only draws the step it is asked for, marking those
cards. The header says what the solve found in the players' words. Nothing is loaded from the network: the
CSS and the script are inline and the page uses the browser's own fonts.

The step shown can be picked with the buttons, the slider, the arrow keys (Home / End for
the ends), or a URL fragment: ``replay.html#step=5`` opens after the fifth action.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from typing import Any

from tranquility.solver.engine.actions import PlayIsland, PlayMonster, choice_of, describe
from tranquility.solver.engine.cards import sorted_cards
from tranquility.solver.engine.line import Line
from tranquility.solver.engine.position import Position
from tranquility.solver.engine.state import State
from tranquility.solver.formats.position_forms import position_to_json, position_to_text

from .progress import seconds_text
from .render.analysis import chances, fair_verdict_text, judged_text, rule_text
from .render.board import rules_line
from .replay_page import PAGE, SCRIPT, STYLE

CRITICAL_TEXT = {
    "only": "Only move",
    "few": "One of a few winning choices (2-3)",
    "many": "One of many winning choices (4+)",
    "not checked": "Not checked (the budget ran out)",
    "forced": "Forced (no other legal choice)",
}


def replay_steps(line: Line, data: dict) -> list[dict[str, Any]]:
    """Step 0 is the starting position; step k the position after the line's k-th action,
    with that action in words, the cards it paid and drew and, for a turn the explanation
    covers, its critical label."""
    turns = {t["turn"]: t for t in data.get("turns") or []}
    state = line.initial_state()
    steps = [_position(state, None, 0, None, None, None)]
    for number, action in enumerate(line.actions, start=1):
        before, state = state, state.apply(action)
        steps.append(_position(state, before, number, action, turns.get(number), data))
    return steps


def _new(after: tuple, before: tuple) -> list:
    """The cards of ``after`` that ``before`` did not hold (multisets), sorted."""
    return list(sorted_cards((Counter(after) - Counter(before)).elements()))


def _position(
    state: State, before: State | None, number: int, action, turn: dict | None, data: dict | None
) -> dict[str, Any]:
    step: dict[str, Any] = {
        "step": number,
        "grid": list(state.grid),
        "hands": [list(h) for h in state.hands],
        "piles": [list(state.pile(s)) for s in range(state.players)],  # top first
        "seat": state.seat,
        "status": state.status,
        "start_played": state.start_played,
        "filled": state.filled,
        "discarded": len(state.discarded),
        "rocks_row": state.rocks_row,
        "position": position_to_text(Position.of(state)),  # its text form, to copy into a command
        "action": None,
    }
    if action is None or before is None:
        return step
    critical = None if turn is None else turn.get("critical")
    step["action"] = {
        "seat": action.seat,
        "text": describe(action) if turn is None else turn["text"],
        "cell": action.cell if isinstance(action, (PlayIsland, PlayMonster)) else None,
        "choice": str(choice_of(action)),
        # What the step moved: the cards paid or discarded (face down on the discard pile),
        # the cards that left the game (a Sea Monster and the island it sank), and the cards
        # each seat drew from its pile, in the order drawn.
        "paid": _new(state.discarded, before.discarded),
        "gone": _new(state.gone, before.gone),
        "drawn": [list(state.deal.piles[s][before.drawn[s] : state.drawn[s]]) for s in range(state.players)],
        # A turn of the given position (before the solve took over) is not explained.
        "given": bool(data and data.get("turns")) and turn is None,
        "moments": [] if turn is None else list(turn["moments"]),
        "critical": None if critical is None else dict(critical),
        "marks": [],  # analyze --html: what the analyses say of this turn (``analysis_html``)
    }
    return step


def embed_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can close the
    element or start a comment, and the JavaScript line separators are escaped too."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


# -- the header, in the players' words ------------------------------------------------------

# How each part of the solver decided, said for players (the JSON's "method" names them).
FOUND_BY = {
    "greedy": "by playing the deal through many times, always taking a cheap play",
    "exhaustive": "by trying every line of play",
    "cpsat": "by a constraint solver (CP-SAT) that reasons about every line at once",
}
PROVEN_BY = {
    "refute": "proven at once by a simple check, given below",
    "exhaustive": "proven by trying every line of play",
    "cpsat": "proven by a constraint solver (CP-SAT) that reasons about every line at once",
    "implied": "an earlier position of the line was already lost",
}


def _seconds(data: dict) -> str:
    """The whole explanation's time, as the terminal's first line gives it."""
    seconds = data.get("total_seconds", data.get("seconds"))
    return f"; {seconds_text(seconds)} in all" if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else ""


def verdict_text(data: dict, what: str = "this deal") -> str:
    """What the solve found, as a sentence for players: never just "by greedy"."""
    verdict, method = data.get("verdict"), str(data.get("method") or "")
    if verdict == "win":
        if method == "replay" or data.get("already_won"):
            return "Won: the line given had already won the game; the replay shows it as it was played."
        how = FOUND_BY.get(method, "by the solver")
        return f"The team can win {what}. Here is a winning line, found {how}{_seconds(data)}."
    if verdict == "no-win":
        how = PROVEN_BY.get(method, "proven by the solver")
        return f"The team cannot win {what}, however it plays ({how}{_seconds(data)})."
    if method == "interrupted":
        return f"Not decided: the solve was interrupted before a win was found or ruled out for {what}."
    return f"Not decided: the time limit ran out before a win was found or ruled out for {what}."


def _objective_text(objective: dict | None) -> str:
    if not objective:
        return ""
    name, value, bound, optimal = (objective.get(k) for k in ("name", "value", "bound", "optimal"))
    if name == "spare":
        text = f"This line leaves {value} cards in hands and piles at the win"
        best, limit = "no line leaves more", f"no line can leave more than {bound}"
    elif name == "turns":
        text = f"This line wins in {value} turns"
        best, limit = "no line wins in fewer", f"no line can win in fewer than {bound}"
    elif name == "cost":
        text = f"This line pays {value} cards as placement costs"
        best, limit = "no line pays fewer", f"no line can pay fewer than {bound}"
    elif name == "any":
        return "This is the first winning line found (no best line was asked for)."
    else:
        return f"Best line by {name}: {value}."
    if optimal:
        return f"{text}: {best} (proven)."
    if bound is None:
        return f"{text}: the best found in the time limit (no limit was proven)."
    return f"{text}: the best found in the time limit ({limit})."


def _summary_text(summary: dict | None) -> str:
    if not summary:
        return ""
    return (
        f"{summary.get('turns')} turns; {summary.get('costs_paid')} cards paid as placement costs, "
        f"{summary.get('discard_two_cards')} discarded two at a time, "
        f"{summary.get('start_discards')} discarded for the Start card; "
        f"{summary.get('spare_cards')} cards left in hands and piles at the win."
    )


def _reach_text(reach: dict | None) -> str:
    if not reach:
        return ""
    how = "proven" if reach.get("proven") else "the best found in the time limit"
    text = f"The furthest the team can get: {reach.get('cells')} of {reach.get('of')} cells filled before it is stuck ({how})."
    if reach.get("cells") == reach.get("of"):
        text += " The grid can be filled, but no Finish card can be played."
    return text + " The replay below follows that line."


def _binding_text(reach: dict | None) -> str:
    """What binds (solver.binds), when CP-SAT proved it: each rule group in words."""
    from tranquility.solver.cpsat.binds import in_words

    binding = (reach or {}).get("binding") or {}
    if binding.get("status") != "proven" or not binding.get("groups"):
        return ""
    how = "a minimal set" if binding.get("minimal") else "sufficient"
    said = " ".join(f"({i}) {text}" for i, text in enumerate(in_words(binding["groups"], binding["facts"]), 1))
    return f"What binds (rule groups of the CP-SAT model that together rule out a win; {how}): {said}"


def _critical_counts(data: dict) -> str:
    kinds = [((t.get("critical") or {}).get("kind")) for t in data.get("turns") or []]
    if not any(kinds):
        return ""
    count = lambda k: sum(1 for x in kinds if x == k)  # noqa: E731
    return (
        f"Critical moves: {count('only')} only moves, {count('few')} one of a few, "
        f"{count('many')} one of many, {count('forced')} forced, {count('not checked')} not checked."
    )


def replay_html(line: Line, data: dict) -> str:
    """The page: a header (what the solve found, the line's value, a summary), then the
    replay of ``line``."""
    steps = replay_steps(line, data)
    verdict = str(data.get("verdict") or "unknown")
    given = sum(1 for s in steps if s["action"] and s["action"]["given"])
    binds = (data.get("reach") or {}).get("binds")
    paragraphs = [
        ("objective", _objective_text(data.get("objective"))),
        ("summary", ("Summary: " + _summary_text(data.get("summary"))) if data.get("summary") else ""),
        ("critical-counts", _critical_counts(data)),
        ("reach", _reach_text(data.get("reach"))),
        ("binds", f"What binds: {binds}" if binds and binds != data.get("reason") else ""),
        ("binding", _binding_text(data.get("reach"))),
        ("reason", f"Why: {data['reason']}" if data.get("reason") and verdict == "no-win" else ""),
    ]
    if given:
        paragraphs.append(
            ("prefix-note", f"Turns 1-{given} are the position that was given; the solver played from turn {given + 1}.")
        )
    said = verdict_text(data, "this position" if given else "this deal")
    badge = (verdict, {"win": "win", "no-win": "nowin"}.get(verdict, "unknown"))
    return _page(line, steps, badge, said, paragraphs)


def _page(line: Line, steps: list[dict[str, Any]], badge: tuple[str, str], said: str, paragraphs: list[tuple[str, str]]) -> str:
    """The page around ``steps``: the title, the badge (its text and class) and ``said``
    beside it, the rules, then each (id, text) of ``paragraphs`` that has a text."""
    deal = line.deal
    rules = deal.rules
    seed = "no seed" if deal.seed is None else f"seed {deal.seed}"
    title = f"Tranquility replay: {seed}, {deal.players} player{'s' if deal.players != 1 else ''}"
    payload = {
        "title": title,
        "rows": rules.rows,
        "cols": rules.cols,
        "players": deal.players,
        "verdict": badge[0],
        # Where the line starts, in the one JSON shape of a position (docs/formats.md).
        "start": position_to_json(Position.of(line.initial_state())),
        "from_position": line.position is not None,
        "steps": steps,
        "critical_text": CRITICAL_TEXT,
    }
    e = html.escape
    lines_of_head = [f'<p id="rules">Rules: {e(rules_line(rules))}</p>']
    lines_of_head += [f'<p id="{ident}">{e(text)}</p>' for ident, text in paragraphs if text]
    return PAGE.format(
        title=e(title),
        verdict=e(badge[0]),
        verdict_class=e(badge[1]),
        verdict_by=e(said),
        head="\n    ".join(lines_of_head),
        last=len(steps) - 1,
        cols=rules.cols,
        rows=rules.rows,
        data=embed_json(payload),
        style=STYLE,
        script=SCRIPT,
    )


# -- analyze --html: the played line, with what each analysis says of its turns ------------

FAIR_BADGE = {
    "won": "win",
    "still winnable": "win",
    "never winnable": "nowin",
    "mistake": "nowin",
    "bad luck": "unknown",
    "undecided": "unknown",
}


def perfect_text(perfect: dict) -> str:
    """The perfect analysis (``Analysis.to_json()``) in a sentence for players."""
    lost_at, between = perfect.get("lost_at"), perfect.get("lost_between")
    if lost_at is not None:
        text = f"With every card face up, the win was lost at turn {lost_at}: {perfect.get('lost_action')}."
        if perfect.get("kept_by"):
            text += f" This would have kept it: {perfect['kept_by']}."
        return text
    if between:
        return f"With every card face up, the win was lost between turns {between[0]} and {between[1]}."
    if perfect.get("deal_verdict") == "no-win":
        return "With every card face up, the team could not win from where the line starts, however it played."
    positions = perfect.get("positions") or []
    if positions and positions[-1]["verdict"] == "win":
        return "With every card face up, the win was never lost."
    return "The perfect analysis did not decide where (or whether) the win was lost."


def _turn_marks(perfect: dict, fair: dict | None) -> dict[int, list[dict[str, str]]]:
    """Per turn, what the analyses say of it: the perfect analysis's loss of the win and
    each turn the fair analysis examined (a mistake or not; a flagged turn a mistake or bad
    luck, with what the win needed)."""
    marks: dict[int, list[dict[str, str]]] = {}

    def mark(turn: int, kind: str, label: str, text: str) -> None:
        marks.setdefault(turn, []).append({"kind": kind, "label": label, "text": text})

    if perfect.get("lost_at") is not None:
        kept = f" This would have kept it: {perfect['kept_by']}." if perfect.get("kept_by") else ""
        mark(perfect["lost_at"], "lost", "lost the win", f"Perfect analysis (every card face up): the win was lost here.{kept}")
    elif perfect.get("lost_between"):
        a, b = perfect["lost_between"]
        for turn in range(a, b + 1):
            mark(turn, "lost", "lost between", f"Perfect analysis: the win was lost between turns {a} and {b}.")
    if fair is None:
        return marks
    for turn in fair["turns"]:
        played, best = turn["played"], turn["best"]
        said_played, said_best = chances(turn)
        text = (
            f"Fair analysis (what seat {turn['seat']} could know): the move played, {played['notation']}, won in "
            f"{said_played} of the seat's worlds; the best, {best['notation']}, in {said_best} "
            f"(cost {turn['cost']:+.0f} percentage points)."
        )
        if turn["judged"] == "bad luck":
            mark(turn["turn"], "bad-luck", "bad luck", f"Bad luck. {judged_text(turn)}")
        elif turn["judged"] == "mistake":
            mark(turn["turn"], "mistake", "mistake", f"Mistake. {judged_text(turn)}")
        elif turn["mistake"]:
            mark(turn["turn"], "mistake", "mistake", f"{text} A mistake: {rule_text(turn)}.")
        else:
            mark(turn["turn"], "examined", "examined", f"{text} Not a mistake: {rule_text(turn)}.")
    return marks


def analysis_html(line: Line, perfect: dict, fair: dict | None = None) -> str:
    """``analyze --html``: the replay of the played ``line`` with the perfect analysis
    (``Analysis.to_json()``) and, if given, the fair one (``FairAnalysis.to_json()["fair"]``)
    marked on their turns and said in the header."""
    steps = replay_steps(line, {})
    for turn, marks in _turn_marks(perfect, fair).items():
        steps[turn]["action"]["marks"] = marks
    paragraphs = [("perfect-verdict", perfect_text(perfect))]
    if fair is None:
        lost = perfect.get("lost_at") is not None or bool(perfect.get("lost_between"))
        won = line.end_state().won
        verdict = "won" if won else "lost" if lost else str(perfect.get("deal_verdict") or "unknown")
        badge = (verdict, "win" if won or verdict == "win" else "nowin" if lost or verdict == "no-win" else "unknown")
        said = "The line as it was played, with the turn where the win was lost marked."
    else:
        badge = (fair["verdict"], FAIR_BADGE[fair["verdict"]])
        said = f"Judged by what each mover could know. {fair_verdict_text(fair)}"
        examined = ", ".join(str(t["turn"]) for t in fair["turns"]) or "none"
        paragraphs.append(
            ("fair-note", f"Turns examined: {examined} ({fair['samples']} worlds per move, sim seed {fair['sim_seed']}).")
        )
    return _page(line, steps, badge, said, paragraphs)
