"""The replay page's own style sheet, script and HTML skeleton, inline in every page that
``html`` writes, so that the page loads nothing from the network."""

STYLE = """
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

SCRIPT = r"""
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

PAGE = """<!DOCTYPE html>
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
