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
    return _PAGE.format(
        title=e(title),
        verdict=e(badge[0]),
        verdict_class=e(badge[1]),
        verdict_by=e(said),
        head="\n    ".join(lines_of_head),
        last=len(steps) - 1,
        cols=rules.cols,
        rows=rules.rows,
        data=embed_json(payload),
        style=_STYLE,
        script=_SCRIPT,
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


_STYLE = """
  :root { --fg: #1d2330; --dim: #6b7385; --line: #d5d9e2; --sea: #eaf3fb; --card: #ffffff;
          --accent: #1f6fb2; --only: #c62828; --win: #2e7d32; --warn: #b26a00;
          --paid: #fde7e7; --drawn: #e3f4e4; }
  * { box-sizing: border-box; }
  /* The page is the window: the header, then the board beside the list of moves, each
     scrolling on its own, so that the grid, every seat and the moves stay in view. */
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
         color: var(--fg); margin: 0; background: #f6f7f9;
         height: 100vh; display: flex; flex-direction: column; overflow: hidden; }
  header { background: #fff; border-bottom: 1px solid var(--line); padding: 10px 24px 6px;
           flex: none; max-height: 30vh; overflow: auto; }
  h1 { font-size: 20px; margin: 0 0 6px; }
  header p { margin: 2px 0; }
  #rules, #prefix-note { color: var(--dim); font-size: 13px; }
  .verdict { font-weight: 700; padding: 1px 8px; border-radius: 4px; color: #fff; text-transform: uppercase; }
  .verdict.win { background: var(--win); } .verdict.nowin { background: var(--only); }
  .verdict.unknown { background: var(--warn); }
  main { flex: 1 1 auto; min-height: 0; display: flex; gap: 20px; padding: 10px 20px; }
  #board { flex: 1 1 auto; min-width: 0; display: flex; flex-direction: column; }
  #board > * { flex: none; }
  /* What is left of the board below the step's text: the grid, and the seats beside it when
     there is room (below it otherwise); it scrolls when the window is too small for both. */
  #table-area { flex: 1 1 auto; min-height: 0; overflow: auto; container-type: size;
                display: flex; flex-wrap: wrap; align-items: flex-start; align-content: flex-start; gap: 0 24px; }
  #grid-box { flex: none; }
  #seats { flex: 1 1 300px; min-width: 0; }
  #turns-panel { flex: 0 0 280px; overflow: auto; background: #fff; position: relative;
                 border: 1px solid var(--line); border-radius: 6px; }
  /* A phone, or a window too short to share: one column, the page scrolls. */
  @media (max-width: 700px), (max-height: 480px) {
    body { height: auto; display: block; overflow: visible; }
    header { max-height: none; }
    main { flex-direction: column; }
    #table-area { container-type: inline-size; overflow: visible; }
    #turns-panel { flex: none; width: 100%; max-height: 40vh; }
  }
  #controls { display: flex; align-items: center; gap: 6px; margin-bottom: 8px; flex-wrap: wrap; }
  #controls button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); background: #fff;
                     border-radius: 4px; cursor: pointer; }
  #controls button:hover:not(:disabled) { border-color: var(--accent); }
  #controls button:disabled { color: var(--dim); cursor: default; }
  #slider { flex: 1 1 200px; }
  #step-label { font-weight: 700; font-size: 17px; margin: 4px 0; }
  #action-text { min-height: 1.5em; margin: 2px 0 4px; font-size: 16px; }
  #moved, #moments-text { color: var(--dim); font-size: 13px; margin: 0; min-height: 1.6em; }
  #moved > span { margin-right: 14px; }
  .critical { display: inline-block; margin: 4px 0; padding: 2px 8px; border-radius: 4px;
              background: #eef0f4; font-size: 13px; line-height: 22px; }
  .critical.only { background: var(--only); color: #fff; font-weight: 700; font-size: 15px; }
  .critical.few { background: #fff3dc; color: var(--warn); }
  .critical.empty { visibility: hidden; }  /* keeps its place: the grid does not jump between steps */
  /* The grid takes what the board gives it: each cell as wide as leaves 300 px for the seats
     beside it (or, on a narrow board, the whole width) and as tall as the area allows, from
     40 to 112 px (the row labels and the spacing take about 90 px either way). */
  #grid { --by-width: calc((100vw - 800px) / var(--cols));
          --by-height: calc((100vh - 420px) / (var(--rows) * 0.8));
          --cell: clamp(40px, min(var(--by-width), var(--by-height)), 112px);
          border-collapse: separate; border-spacing: 5px; margin: 4px 0; }
  @supports (container-type: size) {
    #grid { --by-width: calc((100cqw - 414px) / var(--cols)); --by-height: calc((100cqh - 90px) / (var(--rows) * 0.8)); }
    @container (max-width: 760px) { #grid { --by-width: calc((100cqw - 90px) / var(--cols)); } }
  }
  @media (max-width: 700px), (max-height: 480px) { #grid { --by-height: 80px; } }
  #grid th { color: var(--dim); font-weight: 400; font-size: 12px; padding: 0 4px; }
  #grid td { width: var(--cell); min-width: var(--cell); height: calc(var(--cell) * 0.8); text-align: center;
             vertical-align: middle; position: relative; background: var(--sea); border: 1px solid #c9dcee;
             border-radius: 6px; font-size: calc(var(--cell) * 0.32); font-weight: 600;
             font-variant-numeric: tabular-nums; }
  #grid td.filled { background: var(--card); border-color: #9fb4c8; }
  #grid td.rocks { background: #e7e1da; border-color: #a58f78; color: #7a5b3c; }
  #grid td.played { outline: 3px solid var(--accent); outline-offset: 0; }
  #grid td.played.only { outline-color: var(--only); }
  #grid td .idx { position: absolute; top: 1px; left: 4px; font-size: 10px; font-weight: 400; color: var(--dim); }
  #grid td .val.empty { color: #9fb0c2; font-weight: 400; }
  #state-line { color: var(--dim); font-size: 13px; margin: 4px 0 10px; }
  /* Each seat is a block: its name, its hand and how many cards its pile holds, the pile
     itself below the hand, so that the seats fit beside the grid. */
  #hands, #hands thead, #hands tbody { display: block; width: 100%; }
  #hands tr { display: grid; grid-template-columns: 6.5em minmax(0, 1fr) auto;
              grid-template-areas: "seat hand count" "seat pile pile"; column-gap: 8px;
              padding: 3px 4px; border-bottom: 1px solid var(--line); }
  #hands .seat { grid-area: seat; } #hands .hand { grid-area: hand; }
  #hands .pile { grid-area: pile; } #hands .count { grid-area: count; }
  #hands th, #hands td { display: block; text-align: left; padding: 0; vertical-align: top; }
  #hands th { font-size: 13px; color: var(--dim); font-weight: 400; }
  #hands th.count, #hands td.count { text-align: right; font-variant-numeric: tabular-nums; }
  #hands tr.to-move { background: #eef5fc; }
  .cardchip { display: inline-block; min-width: 28px; padding: 1px 5px; margin: 1px 2px; text-align: center;
              border: 1px solid var(--line); border-radius: 4px; background: #fff; font-variant-numeric: tabular-nums; }
  .cardchip.S { color: var(--win); font-weight: 700; border-color: var(--win); }
  .cardchip.F { color: #8e24aa; font-weight: 700; border-color: #8e24aa; }
  .cardchip.M { color: var(--only); font-weight: 700; border-color: var(--only); }
  .cardchip.drawn { background: var(--drawn); border-color: var(--win); box-shadow: 0 0 0 1px var(--win); }
  .cardchip.paid { background: var(--paid); border-color: var(--only); text-decoration: line-through; }
  .cardchip.gone { background: #eee; color: var(--dim); text-decoration: line-through; }
  td.pile .cardchip { min-width: 22px; font-size: 12px; padding: 0 3px; margin: 1px; color: var(--dim); }
  td.pile .cardchip.S, td.pile .cardchip.F, td.pile .cardchip.M { color: inherit; }
  .none { color: var(--dim); }
  #turn-list { list-style: none; margin: 0; padding: 0; font-size: 13px; }
  #turn-list li { display: flex; padding: 3px 10px 3px 0; border-bottom: 1px solid #eef0f4; cursor: pointer; }
  #turn-list li:hover { background: #f3f6fa; }
  #turn-list li.current { background: #dcebf8; }
  #turn-list li.given { color: var(--dim); }
  #turn-list .n { flex: 0 0 2.6em; color: var(--dim); text-align: right; margin-right: 6px; }
  #turn-list .t { flex: 1 1 auto; }
  #turn-list .tag { font-size: 11px; padding: 0 5px; border-radius: 3px; margin-left: 4px; background: #eef0f4;
                    white-space: nowrap; }
  #turn-list .tag.only { background: var(--only); color: #fff; font-weight: 700; }
  #turn-list .tag.few { background: #fff3dc; color: var(--warn); }
  .help { color: var(--dim); font-size: 12px; margin: 4px 0 0; }
  /* analyze --html: what the analyses say of a turn */
  #marks p { margin: 2px 0; padding: 2px 8px; border-radius: 4px; font-size: 13px; background: #eef0f4; }
  #marks p.lost, #marks p.mistake { background: var(--paid); color: var(--only); }
  #marks p.bad-luck { background: #fff3dc; color: var(--warn); }
  #turn-list .tag.lost, #turn-list .tag.mistake { background: var(--only); color: #fff; font-weight: 700; }
  #turn-list .tag.bad-luck { background: #fff3dc; color: var(--warn); font-weight: 700; }
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var steps = data.steps, last = steps.length - 1, current = 0;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function chip(card, extra, why) {
    var node = el("span", "cardchip", card);
    if (typeof card === "string") node.classList.add(card);
    if (extra) node.classList.add(extra);
    var name = { S: "Start", F: "Finish", M: "Sea Monster" }[card] || ("island " + card);
    node.title = why ? name + ", " + why : name;
    return node;
  }
  function chips(parent, cards, extra, why) {
    cards.forEach(function (card) { parent.appendChild(chip(card, extra, why)); });
  }

  function drawGrid(step) {
    var grid = $("grid");
    grid.textContent = "";
    var head = el("tr");
    head.appendChild(el("th", null, "row"));
    for (var c = 0; c < data.cols; c++) head.appendChild(el("th", null, c));
    grid.appendChild(head);
    var played = step.action ? step.action.cell : null;
    var only = step.action && ((step.action.critical && step.action.critical.kind === "only") ||
      step.action.marks.some(function (m) { return m.kind === "lost" || m.kind === "mistake"; }));
    for (var r = data.rows - 1; r >= 0; r--) {
      var tr = el("tr");
      tr.appendChild(el("th", null, step.rocks_row === r ? "rocks " + r : r));
      for (var col = 0; col < data.cols; col++) {
        var index = r * data.cols + col, value = step.grid[index];
        var td = el("td");
        td.id = "cell-" + index;
        td.setAttribute("data-cell", index);
        td.appendChild(el("span", "idx", index));
        if (value === null) {
          td.appendChild(el("span", "val empty", step.rocks_row === r ? "#" : "\u00b7"));
          if (step.rocks_row === r) td.classList.add("rocks");
        } else {
          td.appendChild(el("span", "val", value));
          td.classList.add("filled");
        }
        if (index === played) { td.classList.add("played"); if (only) td.classList.add("only"); }
        td.title = "cell " + index + " (row " + r + ", column " + col + ")";
        tr.appendChild(td);
      }
      grid.appendChild(tr);
    }
  }

  function drawHands(step) {
    var body = $("hands-body"), action = step.action;
    body.textContent = "";
    for (var s = 0; s < step.hands.length; s++) {
      var tr = el("tr");
      tr.id = "seat-" + s;
      var toMove = step.status === "open" && s === step.seat;
      if (toMove) tr.classList.add("to-move");
      tr.appendChild(el("td", "seat", "Seat " + s + (toMove ? " \u25c0 to move" : "")));
      var hand = el("td", "hand");
      hand.id = "hand-" + s;
      if (step.hands[s].length === 0) hand.appendChild(el("span", "none", "empty"));
      // The cards this seat has just drawn are marked in its hand (a multiset: one mark per card drawn).
      var fresh = {};
      (action ? action.drawn[s] : []).forEach(function (card) { fresh[card] = (fresh[card] || 0) + 1; });
      step.hands[s].forEach(function (card) {
        var isNew = fresh[card] > 0;
        if (isNew) fresh[card] -= 1;
        hand.appendChild(chip(card, isNew ? "drawn" : null, isNew ? "just drawn" : null));
      });
      tr.appendChild(hand);
      var pile = el("td", "pile");
      pile.id = "pile-" + s;
      if (step.piles[s].length === 0) pile.appendChild(el("span", "none", "empty"));
      chips(pile, step.piles[s]);
      tr.appendChild(pile);
      tr.appendChild(el("td", "count", step.piles[s].length)).id = "count-" + s;
      body.appendChild(tr);
    }
  }

  function drawMoved(step) {
    var action = step.action;
    var paid = $("paid-text"), gone = $("gone-text"), drawn = $("drawn-text");
    paid.textContent = gone.textContent = drawn.textContent = "";
    if (!action) return;
    if (action.paid.length) {
      paid.appendChild(document.createTextNode("Paid: "));
      chips(paid, action.paid, "paid", "paid this turn");
    }
    if (action.gone.length) {
      gone.appendChild(document.createTextNode("Out of the game: "));
      chips(gone, action.gone, "gone", "out of the game");
    }
    var seats = [];
    action.drawn.forEach(function (cards, s) { if (cards.length) seats.push(s); });
    seats.forEach(function (s, i) {
      drawn.appendChild(document.createTextNode((i ? "; " : "") + "Seat " + s + " draws "));
      chips(drawn, action.drawn[s], "drawn", "just drawn");
    });
  }

  function statusText(step) {
    if (step.status === "won") return "Won";
    if (step.status === "lost") return "Lost: seat " + step.seat + " has no legal action";
    return "Seat " + step.seat + " to move";
  }

  function show(k) {
    k = Math.max(0, Math.min(last, k | 0));
    current = k;
    var step = steps[k], action = step.action;
    $("step-label").textContent = k === 0
      ? "Step 0 of " + last + ": the starting position"
      : "Step " + k + " of " + last + ": after turn " + k;
    $("action-text").textContent = action
      ? (action.text.charAt(0).toUpperCase() + action.text.slice(1)) + "."
      : data.from_position ? "The given position; seat " + step.seat + " moves first."
      : "Opening hands dealt; seat 0 moves first.";
    drawMoved(step);
    var why = { start: "the Start event is done", end: "the grid is complete and the game is won" };
    $("moments-text").textContent = action && action.moments.length
      ? "Moment: " + action.moments.map(function (m) {
          var row = /^row (\d+)$/.exec(m);  // "row R": row R (0 = the bottom row) has just been completed
          return why[m] || (row ? "row " + row[1] + (row[1] === "0" ? " (the bottom row)" : "") + " is complete" : m);
        }).join(", ")
      : (action && action.given ? "Part of the given position (not explained)." : "");
    var crit = $("critical"), info = action && action.critical;
    crit.className = "critical" + (info ? " " + info.kind.replace(" ", "-") : " empty");
    if (info) {
      var text = data.critical_text[info.kind] || info.kind;
      if (info.kind === "only") text += ": " + action.choice + " (anything else loses the win)";
      else if (info.kind === "few" && info.example) text += "; another: " + info.example;
      crit.textContent = text;
      crit.setAttribute("data-kind", info.kind);
    } else {
      crit.textContent = "-";
      crit.removeAttribute("data-kind");
    }
    var marks = $("marks");
    marks.textContent = "";
    (action ? action.marks : []).forEach(function (m) {
      var line = marks.appendChild(el("p", m.kind, m.text));
      line.setAttribute("data-kind", m.kind);
    });
    drawGrid(step);
    drawHands(step);
    $("status-text").textContent = statusText(step);
    $("start-text").textContent = step.start_played ? "played" : "not yet played";
    $("filled-text").textContent = step.filled + "/" + (data.rows * data.cols);
    $("discarded-text").textContent = step.discarded;
    $("slider").value = k;
    $("first").disabled = $("prev").disabled = k === 0;
    $("next").disabled = $("last").disabled = k === last;
    var items = $("turn-list").children;
    for (var i = 0; i < items.length; i++) items[i].classList.toggle("current", i === k);
    if (items[k] && items[k].scrollIntoView && document.activeElement !== $("slider")) {
      var panel = $("turns-panel"), item = items[k];
      if (item.offsetTop < panel.scrollTop || item.offsetTop + item.offsetHeight > panel.scrollTop + panel.clientHeight)
        panel.scrollTop = item.offsetTop - panel.clientHeight / 2;
    }
    var hash = "#step=" + k;
    if (location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (err) { /* file: URLs may refuse */ }
    }
  }

  function fromHash() {
    var m = /(?:^#|&)step=(\d+|last)/.exec(location.hash);
    if (!m) return null;
    return m[1] === "last" ? last : parseInt(m[1], 10);
  }

  var list = $("turn-list");
  steps.forEach(function (step, k) {
    var li = el("li");
    li.id = "turn-" + k;
    li.appendChild(el("span", "n", k === 0 ? "" : k + "."));
    var t = li.appendChild(el("span", "t", step.action ? step.action.text : "starting position"));
    var info = step.action && step.action.critical;
    if (info && info.kind !== "many") {
      var labels = { only: "ONLY MOVE", few: "one of a few", forced: "forced", "not checked": "not checked" };
      var label = labels[info.kind] || info.kind;
      t.appendChild(document.createTextNode(" "));
      t.appendChild(el("span", "tag " + info.kind.replace(" ", "-"), label));
    }
    (step.action ? step.action.marks : []).forEach(function (m) {
      t.appendChild(document.createTextNode(" "));
      t.appendChild(el("span", "tag " + m.kind, m.label));
    });
    if (step.action && step.action.given) li.classList.add("given");
    li.addEventListener("click", function () { show(k); });
    list.appendChild(li);
  });

  $("slider").max = last;
  $("slider").addEventListener("input", function () { show(parseInt(this.value, 10)); });
  $("first").addEventListener("click", function () { show(0); });
  $("prev").addEventListener("click", function () { show(current - 1); });
  $("next").addEventListener("click", function () { show(current + 1); });
  $("last").addEventListener("click", function () { show(last); });
  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var keys = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (ev.key in keys) { ev.preventDefault(); show(keys[ev.key]); }
  });
  window.addEventListener("hashchange", function () { var k = fromHash(); if (k !== null && k !== current) show(k); });
  var start = fromHash();
  show(start === null ? 0 : start);
  document.body.setAttribute("data-ready", "1");
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<header>
    <h1>{title}</h1>
    <p><span id="verdict" class="verdict {verdict_class}">{verdict}</span> <span id="verdict-by">{verdict_by}</span></p>
    {head}
</header>
<main>
  <section id="board">
    <div id="controls">
      <button id="first" type="button" title="First step (Home)">&#xab; First</button>
      <button id="prev" type="button" title="Previous step (left arrow)">&#x25c0; Prev</button>
      <input id="slider" type="range" min="0" max="{last}" value="0" step="1" aria-label="Step">
      <button id="next" type="button" title="Next step (right arrow)">Next &#x25b6;</button>
      <button id="last" type="button" title="Last step (End)">Last &#xbb;</button>
    </div>
    <p id="step-label">Step 0 of {last}</p>
    <p id="action-text"></p>
    <p id="moved"><span id="paid-text"></span><span id="gone-text"></span><span id="drawn-text"></span></p>
    <div id="critical" class="critical empty"></div>
    <div id="marks"></div>
    <p id="moments-text"></p>
    <div id="table-area">
      <div id="grid-box">
        <table id="grid" style="--cols: {cols}; --rows: {rows}" aria-label="Grid, top row first, row 0 at the bottom"></table>
        <p id="state-line"><span id="status-text"></span>; Start <span id="start-text"></span>;
          cells filled <span id="filled-text"></span>; cards discarded <span id="discarded-text"></span></p>
      </div>
      <div id="seats">
        <table id="hands">
          <thead><tr><th class="seat">Seat</th><th class="hand">Hand</th><th class="pile">Pile (top first)</th>
            <th class="count">Cards</th></tr></thead>
          <tbody id="hands-body"></tbody>
        </table>
      </div>
    </div>
    <p class="help">Left / right arrow keys step through the line; add <code>#step=N</code> to the address to open at step N.
      Every card is face up: each pile is shown top first.</p>
    <noscript><p>This replay needs JavaScript to draw the positions.</p></noscript>
  </section>
  <aside id="turns-panel">
    <ol id="turn-list"></ol>
  </aside>
</main>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
