"""``tranquility explain --html``: one self-contained HTML page that replays a line.

Every position is computed here, in Python, by the rules engine (``State.initial`` and
``State.apply``) and embedded as JSON in a ``<script type="application/json">`` tag; the
page's script only draws the step it is asked for. Nothing is loaded from the network: the
CSS and the script are inline and the page uses the browser's own fonts.

The step shown can be picked with the buttons, the slider, the arrow keys (Home / End for
the ends), or a URL fragment: ``replay.html#step=5`` opens after the fifth action.
"""

from __future__ import annotations

import html
import json
from typing import Any

from tranquility.solver.actions import PlayIsland, PlayMonster, choice_of, describe
from tranquility.solver.line import Line
from tranquility.solver.state import State

from .render import rules_line

CRITICAL_TEXT = {
    "only": "Only move",
    "few": "One of a few winning choices (2-3)",
    "many": "One of many winning choices (4+)",
    "not checked": "Not checked (the budget ran out)",
    "forced": "Forced (no other legal choice)",
}


def replay_steps(line: Line, data: dict) -> list[dict[str, Any]]:
    """Step 0 is the starting position; step k the position after the line's k-th action,
    with that action in words and, for a turn the explanation covers, its critical label."""
    turns = {t["turn"]: t for t in data.get("turns") or []}
    state = State.initial(line.deal)
    steps = [_position(state, 0, None, None, None)]
    for number, action in enumerate(line.actions, start=1):
        state = state.apply(action)
        steps.append(_position(state, number, action, turns.get(number), data))
    return steps


def _position(state: State, number: int, action, turn: dict | None, data: dict | None) -> dict[str, Any]:
    step: dict[str, Any] = {
        "step": number,
        "grid": list(state.grid),
        "hands": [list(h) for h in state.hands],
        "piles": [len(state.pile(s)) for s in range(state.players)],
        "seat": state.seat,
        "status": state.status,
        "start_played": state.start_played,
        "filled": state.filled,
        "discarded": len(state.discarded),
        "rocks_row": state.rocks_row,
        "action": None,
    }
    if action is None:
        return step
    critical = None if turn is None else turn.get("critical")
    step["action"] = {
        "seat": action.seat,
        "text": describe(action) if turn is None else turn["text"],
        "cell": action.cell if isinstance(action, (PlayIsland, PlayMonster)) else None,
        "choice": str(choice_of(action)),
        # A turn of the given position (before the solve took over) is not explained.
        "given": bool(data and data.get("turns")) and turn is None,
        "drawn": [] if turn is None else list(turn["drawn"]),
        "moments": [] if turn is None else list(turn["moments"]),
        "critical": None if critical is None else dict(critical),
    }
    return step


def embed_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can close the
    element or start a comment, and the JavaScript line separators are escaped too."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for raw, escaped in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(raw, escaped)
    return text


def _objective_text(objective: dict | None) -> str:
    if not objective:
        return ""
    what = {
        "spare": "cards left at the win",
        "turns": "turns to the win",
        "cost": "cards paid as costs",
        "any": "first win found",
    }.get(str(objective.get("name")), str(objective.get("name")))
    if objective.get("optimal"):
        how = "proven optimal"
    elif objective.get("bound") is None:
        how = "best found in the time limit; no bound proven"
    else:
        how = f"best found in the time limit; bound {objective['bound']}"
    return f"Best line by {objective.get('name')}: {what} {objective.get('value')} ({how})"


def _summary_text(summary: dict | None) -> str:
    if not summary:
        return ""
    return (
        f"{summary.get('turns')} turns; costs paid {summary.get('costs_paid')}; "
        f"discard-two {summary.get('discard_two_cards')} cards; "
        f"Start event {summary.get('start_discards')} cards; "
        f"{summary.get('spare_cards')} cards left in hands and piles at the win"
    )


def _reach_text(reach: dict | None) -> str:
    if not reach:
        return ""
    how = "proven" if reach.get("proven") else "best found in the time limit"
    text = f"Best reach: {reach.get('cells')} of {reach.get('of')} cells filled before the team is stuck ({how})."
    if reach.get("cells") == reach.get("of"):
        text += " The grid can be filled, but no Finish card can be played."
    return text + " The replay below follows that line."


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
    """The page: a header (verdict, objective, summary), then the replay of ``line``."""
    deal = line.deal
    rules = deal.rules
    steps = replay_steps(line, data)
    seed = "no seed" if deal.seed is None else f"seed {deal.seed}"
    title = f"Tranquility replay: {seed}, {deal.players} player{'s' if deal.players != 1 else ''}"
    verdict = str(data.get("verdict") or "unknown")
    head_bits = []
    if data.get("method"):
        head_bits.append(f"by {data['method']}")
    if isinstance(data.get("seconds"), (int, float)):
        head_bits.append(f"in {data['seconds']:.2f} s")
    payload = {
        "title": title,
        "rows": rules.rows,
        "cols": rules.cols,
        "players": deal.players,
        "verdict": verdict,
        "steps": steps,
        "critical_text": CRITICAL_TEXT,
    }
    e = html.escape
    binds = (data.get("reach") or {}).get("binds")
    lines_of_head = [
        f'<p id="rules">Rules: {e(rules_line(rules))}</p>',
    ]
    already = f"Already won: the line given won at turn {len(line.actions)}; here it is as played, with its critical moves."
    for ident, text in (
        ("already-won", already if data.get("already_won") else ""),
        ("objective", _objective_text(data.get("objective"))),
        ("summary", ("Summary: " + _summary_text(data.get("summary"))) if data.get("summary") else ""),
        ("critical-counts", _critical_counts(data)),
        ("reach", _reach_text(data.get("reach"))),
        ("binds", f"What binds: {binds}" if binds and binds != data.get("reason") else ""),
        ("reason", f"Proof: {data['reason']}" if data.get("reason") and verdict == "no-win" else ""),
    ):
        if text:
            lines_of_head.append(f'<p id="{ident}">{e(text)}</p>')
    given = sum(1 for s in steps if s["action"] and s["action"]["given"])
    if given:
        lines_of_head.append(
            f'<p id="prefix-note">Turns 1-{given} are the position that was given; the solver played from turn {given + 1}.</p>'
        )
    return _PAGE.format(
        title=e(title),
        verdict=e(verdict),
        verdict_class=e({"win": "win", "no-win": "nowin"}.get(verdict, "unknown")),
        verdict_by=e(" ".join(head_bits)),
        head="\n    ".join(lines_of_head),
        last=len(steps) - 1,
        data=embed_json(payload),
        style=_STYLE,
        script=_SCRIPT,
    )


_STYLE = """
  :root { --fg: #1d2330; --dim: #6b7385; --line: #d5d9e2; --sea: #eaf3fb; --card: #ffffff;
          --accent: #1f6fb2; --only: #c62828; --win: #2e7d32; --warn: #b26a00; }
  * { box-sizing: border-box; }
  body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
         color: var(--fg); margin: 0; background: #f6f7f9; }
  header { background: #fff; border-bottom: 1px solid var(--line); padding: 14px 24px 10px; }
  h1 { font-size: 20px; margin: 0 0 6px; }
  header p { margin: 2px 0; }
  #rules, #prefix-note { color: var(--dim); font-size: 13px; }
  .verdict { font-weight: 700; padding: 1px 8px; border-radius: 4px; color: #fff; text-transform: uppercase; }
  .verdict.win { background: var(--win); } .verdict.nowin { background: var(--only); }
  .verdict.unknown { background: var(--warn); }
  main { display: flex; gap: 24px; padding: 16px 24px; align-items: flex-start; flex-wrap: wrap; }
  #board { flex: 1 1 560px; min-width: 0; }
  #turns-panel { flex: 0 1 380px; max-height: 80vh; overflow: auto; background: #fff;
                 border: 1px solid var(--line); border-radius: 6px; }
  #controls { display: flex; align-items: center; gap: 6px; margin-bottom: 10px; flex-wrap: wrap; }
  #controls button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); background: #fff;
                     border-radius: 4px; cursor: pointer; }
  #controls button:hover:not(:disabled) { border-color: var(--accent); }
  #controls button:disabled { color: var(--dim); cursor: default; }
  #slider { flex: 1 1 200px; }
  #step-label { font-weight: 700; font-size: 17px; margin: 4px 0; }
  #action-text { min-height: 1.5em; margin: 2px 0 4px; }
  #drawn-text, #moments-text { color: var(--dim); font-size: 13px; margin: 0; min-height: 1.45em; }
  .critical { display: inline-block; margin: 4px 0; padding: 2px 8px; border-radius: 4px;
              background: #eef0f4; font-size: 13px; line-height: 22px; }
  .critical.only { background: var(--only); color: #fff; font-weight: 700; font-size: 15px; }
  .critical.few { background: #fff3dc; color: var(--warn); }
  .critical.empty { visibility: hidden; }  /* keeps its place: the grid does not jump between steps */
  #grid { border-collapse: separate; border-spacing: 4px; margin: 10px 0; }
  #grid th { color: var(--dim); font-weight: 400; font-size: 12px; padding: 0 4px; }
  #grid td { width: 54px; height: 48px; text-align: center; vertical-align: middle; position: relative;
             background: var(--sea); border: 1px solid #c9dcee; border-radius: 5px; font-size: 19px;
             font-weight: 600; font-variant-numeric: tabular-nums; }
  #grid td.filled { background: var(--card); border-color: #9fb4c8; }
  #grid td.rocks { background: #e7e1da; border-color: #a58f78; color: #7a5b3c; }
  #grid td.played { outline: 3px solid var(--accent); outline-offset: 0; }
  #grid td.played.only { outline-color: var(--only); }
  #grid td .idx { position: absolute; top: 1px; left: 4px; font-size: 10px; font-weight: 400; color: var(--dim); }
  #grid td .val.empty { color: #9fb0c2; font-weight: 400; }
  #state-line { color: var(--dim); font-size: 13px; margin: 4px 0 10px; }
  #hands { border-collapse: collapse; min-width: 420px; }
  #hands td.seat { width: 150px; white-space: nowrap; }
  #hands th, #hands td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--line); }
  #hands th { font-size: 13px; color: var(--dim); font-weight: 400; }
  #hands th.pile { text-align: right; }
  #hands tr.to-move td { background: #eef5fc; }
  #hands td.pile { text-align: right; font-variant-numeric: tabular-nums; }
  .cardchip { display: inline-block; min-width: 28px; padding: 1px 5px; margin: 1px 2px; text-align: center;
              border: 1px solid var(--line); border-radius: 4px; background: #fff; font-variant-numeric: tabular-nums; }
  .cardchip.S { color: var(--win); font-weight: 700; border-color: var(--win); }
  .cardchip.F { color: #8e24aa; font-weight: 700; border-color: #8e24aa; }
  .cardchip.M { color: var(--only); font-weight: 700; border-color: var(--only); }
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
  .help { color: var(--dim); font-size: 12px; }
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
  function chip(card) {
    var node = el("span", "cardchip", card);
    if (typeof card === "string") node.classList.add(card);
    node.title = { S: "Start", F: "Finish", M: "Sea Monster" }[card] || ("island " + card);
    return node;
  }

  function drawGrid(step) {
    var grid = $("grid");
    grid.textContent = "";
    var head = el("tr");
    head.appendChild(el("th", null, "row"));
    for (var c = 0; c < data.cols; c++) head.appendChild(el("th", null, c));
    grid.appendChild(head);
    var played = step.action ? step.action.cell : null;
    var only = step.action && step.action.critical && step.action.critical.kind === "only";
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
    var body = $("hands-body");
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
      step.hands[s].forEach(function (card) { hand.appendChild(chip(card)); });
      tr.appendChild(hand);
      tr.appendChild(el("td", "pile", step.piles[s])).id = "pile-" + s;
      body.appendChild(tr);
    }
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
      : "Opening hands dealt; seat 0 moves first.";
    $("drawn-text").textContent = action && action.drawn.length ? "Drawn afterwards: " + action.drawn.join(" ") : "";
    var why = { start: "the Start event is done", end: "the grid is complete and the game is won" };
    $("moments-text").textContent = action && action.moments.length
      ? "Moment: " + action.moments.map(function (m) {
          var rows = /^row (\d+)$/.exec(m);  // "row N": N rows are complete now
          return why[m] || (rows ? rows[1] + (rows[1] === "1" ? " row" : " rows") + " complete" : m);
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
    <p class="help">Left / right arrow keys step through the line; add <code>#step=N</code> to the address to open at step N.</p>
    <p id="step-label">Step 0 of {last}</p>
    <p id="action-text"></p>
    <div id="critical" class="critical empty"></div>
    <p id="drawn-text"></p>
    <p id="moments-text"></p>
    <table id="grid" aria-label="Grid, top row first, row 0 at the bottom"></table>
    <p id="state-line"><span id="status-text"></span>; Start <span id="start-text"></span>;
      cells filled <span id="filled-text"></span>; cards discarded <span id="discarded-text"></span></p>
    <table id="hands">
      <thead><tr><th>Seat</th><th>Hand</th><th class="pile">Pile</th></tr></thead>
      <tbody id="hands-body"></tbody>
    </table>
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
