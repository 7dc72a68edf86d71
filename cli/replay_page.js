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
