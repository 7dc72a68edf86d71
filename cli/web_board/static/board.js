// The board page of `tranquility serve`: it draws what the server sends and sends what the
// player clicks. No rule is applied here: the server lists the legal moves with their costs,
// and the engine accepts or refuses each action (docs/web.md).
"use strict";

const $ = (sel) => document.querySelector(sel);
const CELL = 62;
const NAMES = { S: "Start", F: "Finish", M: "Monster" };
const PRESETS = ["official", "hungarian", "french", "strict", "monsters", "rocks", "rocks-manual", "islands"];

let view = null;        // the game as the server last sent it
let chosen = null;      // {card} picked from the hand, then {move} once a cell is picked
let paying = [];        // the cards picked to pay
let discarding = false; // picking two cards to discard
let botDelay = 700;
let job = null;         // the long job under way: {id, source}

// -- talking to the server ----------------------------------------------------------------

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(message) {
  const box = $("#error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function act(work) {
  say("");
  try {
    return await work();
  } catch (err) {
    say(err.message);
    return null;
  }
}

// -- loading a game -------------------------------------------------------------------------

function formBody(form) {
  const body = {};
  for (const [key, value] of new FormData(form).entries()) {
    if (value === "" || value instanceof File) continue;
    body[key] = /^-?\d+$/.test(value) && key !== "text" && key !== "rules" && key !== "bots" ? Number(value) : value;
  }
  return body;
}

async function openBoard(body) {
  const data = await act(() => call("POST", "/api/board", body));
  if (data) show(data, "Your move: click a card of the hand, then a cell.");
}

async function listPuzzles(event) {
  event.preventDefault();
  const query = new URLSearchParams(formBody(event.target)).toString();
  const found = await act(() => call("GET", "/api/puzzles?" + query));
  if (!found) return;
  const list = $("#puzzle-list");
  list.replaceChildren(...found.slice(0, 300).map((p) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.puzzle = p.id;
    button.textContent = `${p.id} (${p.players}p, grade ${p.grade}, ${p.rules})`;
    button.onclick = () => openBoard({ puzzle: p.id });
    return button;
  }));
  if (!found.length) list.textContent = "no puzzle matches";
}

async function openText(event) {
  event.preventDefault();
  const form = event.target;
  const file = form.elements.file.files[0];
  const text = file ? await file.text() : form.elements.text.value;
  if (!text.trim()) return say("paste a game or choose a file first");
  await openBoard({ text });
}

async function sitDown(event) {
  event.preventDefault();
  const body = formBody(event.target);
  botDelay = body.delay === undefined ? 700 : body.delay;
  delete body.delay;
  const data = await act(() => call("POST", "/api/table", body));
  if (data) show(data, `You sit at seat ${data.seat}; the bots play the other seats.`);
}

// -- drawing --------------------------------------------------------------------------------

function el(tag, attrs = {}, text) {
  const svg = ["svg", "g", "rect", "text"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function cardButton(card, onclick, extra = "") {
  const button = el("button", { class: `card ${typeof card === "string" ? "special" : ""} ${extra}`, "data-card": card });
  button.textContent = NAMES[card] || card;
  button.onclick = onclick;
  return button;
}

function show(data, message) {
  view = data;
  chosen = null;
  paying = [];
  discarding = false;
  $("#game").hidden = false;
  $("#pay").hidden = true;
  drawStatus();
  drawGrid();
  drawHand();
  drawSeats();
  drawStart();
  drawHistory();
  drawControls();
  if (message !== undefined) news([[message, ""]]);
  $("#after").hidden = !over();
  if (view.kind === "table" && view.bots_turn) setTimeout(botStep, botDelay);
}

function over() {
  return view.kind === "table" ? view.over : view.status !== "open";
}

function drawStatus() {
  const v = view;
  const bits = [`turn <b>${v.turn}</b>`, `seat <b>${v.to_move}</b> to move`];
  if (v.kind === "table") bits.push(`you are seat <b>${v.seat}</b>`);
  bits.push(`discarded <b>${v.discarded}</b>`);
  bits.push(v.start_played ? "Start played" : "Start not played");
  if (v.kind === "board") bits.push(v.finish_allowed ? "a Finish may be played" : "no Finish yet");
  if (v.rules.monsters) bits.push(`Sea Monsters played ${v.monsters_played} of ${v.rules.monsters}`);
  if (v.rocks_row !== null && v.rocks_row !== undefined) bits.push(`Jagged Rocks on row ${v.rocks_row}`);
  bits.push(`rules: ${v.rules_name}`);
  const state = v.status === "won" ? "<b>won</b>" : v.status === "lost" ? "<b>lost</b>" : "in play";
  $("#status").innerHTML = bits.join(" · ") + ` · ${state}` + (v.puzzle ? ` · puzzle ${v.puzzle.id}, grade ${v.puzzle.grade}` : "");
}

function targets() {
  if (!chosen || chosen.move) return new Map();
  const found = new Map();
  for (const move of view.moves) {
    if (move.card === chosen.card && move.cell !== null) found.set(move.cell, move);
  }
  return found;
}

function drawGrid() {
  const { rows, cols } = view;
  const svg = $("#grid");
  svg.setAttribute("width", cols * CELL + 4);
  svg.setAttribute("height", rows * CELL + 4);
  svg.replaceChildren();
  const open = targets();
  const last = view.history.length ? view.history[view.history.length - 1] : null;
  for (let cell = 0; cell < rows * cols; cell++) {
    const row = Math.floor(cell / cols), col = cell % cols;
    const x = 2 + col * CELL, y = 2 + (rows - 1 - row) * CELL;  // row 0 is the bottom row
    const info = view.grid[cell];
    const classes = ["cell"];
    if (info.card !== null) classes.push("full");
    if (view.rocks_row === row) classes.push("rocks");
    if (open.has(cell)) classes.push("target");
    if (chosen && chosen.best === cell) classes.push("best");
    if (last && last.cell === cell) classes.push("last");
    const g = el("g", { class: classes.join(" "), "data-cell": cell, transform: `translate(${x},${y})` });
    g.append(el("rect", { width: CELL - 4, height: CELL - 4, rx: 6 }));
    if (info.card !== null) {
      g.append(el("text", { class: "num", x: (CELL - 4) / 2, y: (CELL - 4) / 2 }, NAMES[info.card] || info.card));
    } else {
      const range = info.low > info.high ? "none fits" : info.low === info.high ? `${info.low}` : `${info.low}–${info.high}`;
      g.append(el("text", { class: "range", x: (CELL - 4) / 2, y: CELL - 12 }, range));
      g.append(el("text", { class: "range", x: 8, y: 14, "text-anchor": "start" }, cell));
    }
    if (open.has(cell)) {
      g.append(el("text", { class: "cost", x: (CELL - 4) / 2, y: 24, "text-anchor": "middle" }, `cost ${open.get(cell).cost}`));
      g.onclick = () => pickCell(open.get(cell));
    }
    svg.append(g);
  }
}

function drawHand() {
  const hand = $("#hand");
  const mine = view.kind === "board" || view.my_turn;
  $("#prompt").textContent = view.kind === "board" ? `Hand of seat ${view.to_move}` : `Your hand (seat ${view.seat})`;
  hand.replaceChildren(...view.hand.map((card) => {
    const on = (chosen && chosen.card === card) || (discarding && paying.includes(card));
    const button = cardButton(card, () => pickCard(card), on ? "on" : "");
    button.disabled = !mine || over() || Boolean(view.start);
    return button;
  }));
}

function drawSeats() {
  const seats = [];
  for (let seat = 0; seat < view.players; seat++) {
    const box = el("div", { class: `seat ${seat === view.to_move ? "to-move" : ""}`, "data-seat": seat });
    box.append(el("div", {}, `seat ${seat}${view.kind === "table" && seat === view.seat ? " (you)" : ""}: hand ${view.hand_sizes[seat]}, pile ${view.pile_sizes[seat]}`));
    if (view.kind === "board") box.append(el("div", { class: "cards" }, view.hands[seat].map((c) => NAMES[c] || c).join(" ")));
    seats.push(box);
  }
  $("#seats").replaceChildren(...seats);
}

function drawHistory() {
  const shown = view.revealed || view.history;
  $("#history").replaceChildren(...shown.map((h) => el("li", { title: h.words }, `${h.notation}  ${h.words}`)));
  $("#position-text").textContent = view.position_text || "";
}

function drawControls() {
  const board = view.kind === "board";
  for (const id of ["#undo", "#redo", "#back", "#hint", "#moves-btn"]) $(id).hidden = !board;
  $("#check").parentElement.hidden = !board;
  if (board) {
    $("#undo").disabled = !view.can_undo;
    $("#redo").disabled = !view.can_redo;
    $("#back").disabled = view.last_winnable === null || view.last_winnable === view.turn;
  }
  $("#discard").disabled = over() || !view.moves.some((m) => m.kind === "discard");
  const save = $("#save");
  save.hidden = !view.line;
  if (view.line) save.href = URL.createObjectURL(new Blob([JSON.stringify(view.line, null, 1)], { type: "application/json" }));
  save.download = `game-${view.turn}.json`;
}

function news(lines) {
  $("#news").replaceChildren(...lines.filter(([text]) => text).map(([text, cls]) => el("p", { class: cls }, text)));
}

// -- choosing a move ------------------------------------------------------------------------

function pickCard(card) {
  if (discarding) {
    paying = paying.includes(card) ? paying.filter((c) => c !== card) : paying.concat([card]).slice(-2);
    drawHand();
    if (paying.length === 2) confirmDiscard();
    return;
  }
  chosen = { card };
  $("#pay").hidden = true;
  const moves = view.moves.filter((m) => m.card === card);
  if (card === "S" || card === "F") {
    if (!moves.length) return news([[`The ${NAMES[card]} cannot be played now.`, ""]]);
    return pickCell(moves[0]);
  }
  drawGrid();
  drawHand();
  if (!moves.length) news([[`${NAMES[card] || card} fits no empty cell now.`, ""]]);
  else news([[`${NAMES[card] || card}: click a green cell (its cost is shown on it).`, ""]]);
}

function pickCell(move) {
  chosen = { card: move.card, move };
  const action = move.action;
  paying = (action.discard || []).slice();
  const pay = $("#pay");
  pay.hidden = false;
  const what = move.kind === "start" ? "the Start" : move.kind === "finish" ? "a Finish" : move.words;
  if (move.kind === "start" && view.kind === "board") {
    $("#pay-text").textContent = `Play the Start: the team discards ${move.cost} card(s) in all; choose who gives what (S/seat 0's cards/seat 1's...):`;
    const select = el("select", { id: "start-option" });
    select.append(...move.options.map((o, i) => el("option", { value: i }, o.notation)));
    $("#pay-cards").replaceChildren(select);
  } else if (move.kind === "start") {
    $("#pay-text").textContent = "Play the Start: then each seat gives its share in turn.";
    $("#pay-cards").replaceChildren();
  } else {
    $("#pay-text").textContent = move.cost ? `${what} costs ${move.cost}: pick ${move.cost} card(s) to pay (a suggestion is picked).` : `${what}: free.`;
    drawPayCards(move);
  }
  drawRocks(action);
  drawGrid();
  drawHand();
}

function drawPayCards(move) {
  const left = view.hand.slice();
  left.splice(left.indexOf(move.card), 1);
  if (!move.cost) return $("#pay-cards").replaceChildren();
  $("#pay-cards").replaceChildren(...left.map((card, i) => {
    const button = cardButton(card, () => {
      const at = paying.indexOf(card);
      if (at >= 0) paying.splice(at, 1);
      else paying.push(card);
      drawPayCards(move);
    }, paying.filter((c) => c === card).length > left.slice(0, i).filter((c) => c === card).length ? "paid" : "");
    return button;
  }));
}

function drawRocks(action) {
  const label = $("#rocks-choice");
  label.hidden = action.rocks === undefined || !view.rock_rows || !view.rock_rows.length;
  if (label.hidden) return;
  const rows = view.rock_rows.map((r) => el("option", r === action.rocks ? { value: r, selected: "" } : { value: r }, `row ${r}`));
  if (action.rocks === "stay") rows.unshift(el("option", { value: "stay", selected: "" }, `stay, paying ${action.rocks_discard.join(",")}`));
  $("#rocks-row").replaceChildren(...rows);
}

function chosenAction() {
  const move = chosen.move;
  if (move.kind === "start" && view.kind === "table") return "S";
  if (move.kind === "start") return move.options[Number($("#start-option").value)].action;
  const action = JSON.parse(JSON.stringify(move.action));
  if (action.discard !== undefined && move.kind !== "discard") action.discard = paying.slice();
  const rocks = $("#rocks-row").value;
  if (!$("#rocks-choice").hidden && rocks !== "stay") {
    action.rocks = Number(rocks);
    delete action.rocks_discard;
  }
  return action;
}

async function playChosen() {
  if (!chosen || !chosen.move) return;
  await send(chosenAction());
}

function confirmDiscard() {
  const move = view.moves.find((m) => m.kind === "discard" && sameCards(m.action.discard, paying));
  const action = move ? move.action : { seat: view.kind === "table" ? view.seat : view.to_move, discard: paying.slice() };
  discarding = false;
  send(action);
}

function sameCards(a, b) {
  return JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());
}

async function send(action) {
  const path = view.kind === "board" ? `/api/board/${view.id}/play` : `/api/table/${view.id}/play`;
  const data = await act(() => call("POST", path, { action }));
  if (!data) return;
  show(data, "");
  if (data.status === "won") news([["Won!", "won"], ...(data.goal || []).map((g) => [g, ""])]);
  else if (view.kind === "board" && $("#check").checked && data.status === "open") check();
  else if (data.status === "lost") news([["Lost: the seat to move has no legal action.", "threw"]]);
}

// -- the board's solver: check, hint, every move --------------------------------------------

async function check() {
  const id = view.id, turn = view.turn;
  news([["checking the move…", "progress"]]);
  const data = await act(() => call("POST", `/api/board/${id}/check`, {}));
  if (!data || view.id !== id || view.turn !== turn) return;
  view = { ...view, verdicts: data.verdicts, last_winnable: data.last_winnable, thrown_at: data.thrown_at };
  drawControls();
  const judged = data.check.judgement;
  news([[data.check.words, judged === "threw" ? "threw" : judged === "kept" ? "kept" : ""]]);
}

async function hint() {
  news([["thinking…", "progress"]]);
  const data = await act(() => call("POST", `/api/board/${view.id}/hint`, {}));
  if (!data) return news([]);
  const best = data.hint.best;
  if (best && best.action.cell !== undefined) chosen = { card: best.action.play, best: best.action.cell };
  drawGrid();
  news(data.hint.words.map((w) => [w, data.hint.verdict === "no-win" ? "threw" : ""]));
}

async function everyMove() {
  const rows = [];
  await follow({ kind: "moves", game: view.line, time_limit: 5 }, (answer) => {
    for (const m of answer.moves) {
      rows.push(el("tr", {}, ""));
      const row = rows[rows.length - 1];
      row.append(el("td", {}, m.notation), el("td", { class: `v-${m.verdict}` }, m.verdict),
        el("td", {}, m.spare === null ? "" : `${m.spare} spare`), el("td", {}, m.reason || ""));
    }
    const table = el("table", {});
    table.append(...rows);
    $("#verdicts").replaceChildren(table);
  });
}

// -- long jobs: progress as server-sent events, cancel ----------------------------------------

async function follow(body, done) {
  if (job) return say("a long job is under way: wait for it or cancel it");
  const started = await act(() => call("POST", "/api/jobs", body));
  if (!started) return;
  const status = $("#job-status"), cancel = $("#job-cancel");
  cancel.hidden = false;
  const source = new EventSource(`/api/jobs/${started.id}/events`);
  job = { id: started.id, source };
  status.textContent = `${body.kind}: started`;
  const end = () => { source.close(); job = null; cancel.hidden = true; };
  source.addEventListener("progress", (e) => {
    const step = JSON.parse(e.data);
    status.textContent = `${body.kind}: ${step.text}${step.left !== null ? ` (${step.left} s left)` : ""}`;
  });
  source.addEventListener("done", (e) => {
    end();
    const answer = JSON.parse(e.data);
    status.textContent = `${body.kind}: done${answer.interrupted ? " (stopped: what was found by then)" : ""}`;
    done(answer);
  });
  source.addEventListener("error", (e) => {
    end();
    status.textContent = "";
    say(e.data ? JSON.parse(e.data).error : `${body.kind}: the connection to the server was lost`);
  });
}

async function cancelJob() {
  if (job) await act(() => call("DELETE", `/api/jobs/${job.id}`));
}

async function report(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) return say(JSON.parse(text).error);
  const frame = $("#report");
  frame.hidden = false;
  frame.srcdoc = text;
}

function analyzeGame() {
  const line = view.line;
  follow({ kind: "analyze", game: line, fair: true, time_limit: 2, samples: 8, turns: 2 }, (answer) =>
    report("/api/html/analysis", { game: line, perfect: answer.perfect, fair: answer.fair }));
}

function explainDeal() {
  const start = { ...view.line, actions: [] };
  follow({ kind: "explain", game: start, time_limit: 12 }, (answer) => report("/api/html/explain", { explanation: answer }));
}

// -- the table: bots and the Start event ----------------------------------------------------

async function botStep() {
  if (!view || view.kind !== "table" || !view.bots_turn) return;
  const id = view.id;
  const data = await act(() => call("POST", `/api/table/${id}/step`, {}));
  if (data && view.id === id) show(data, over() ? "The game is over: every card is turned up." : "");
}

function drawStart() {
  const box = $("#start");
  const start = view.kind === "table" ? view.start : null;
  box.hidden = !start;
  if (!start) return;
  $("#start-text").textContent = start.words.join(" ");
  const rows = $("#start-rows");
  rows.hidden = !start.rows.length;
  $("#start-row").replaceChildren(...start.rows.map((r) => el("option", {}, String(r))));
  paying = [];
  const hand = start.hand || [];
  const drawGive = () => $("#start-cards").replaceChildren(...hand.map((card, i) =>
    cardButton(card, () => {
      const at = paying.indexOf(card);
      if (at >= 0) paying.splice(at, 1);
      else paying.push(card);
      drawGive();
    }, paying.filter((c) => c === card).length > hand.slice(0, i).filter((c) => c === card).length ? "paid" : "")));
  drawGive();
}

async function answerStart() {
  const start = view.start;
  const [path, body] = start.rows.length ? ["rocks", { row: Number($("#start-row").value) }] : ["give", { cards: paying.slice() }];
  const data = await act(() => call("POST", `/api/table/${view.id}/${path}`, body));
  if (data) show(data, "");
}

// -- the buttons ----------------------------------------------------------------------------

async function boardOp(op) {
  const data = await act(() => call("POST", `/api/board/${view.id}/${op}`, {}));
  if (data) show(data, op === "back" ? `Back at turn ${data.turn}, the last position proven winnable.` : "");
}

function tabs() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.onclick = () => {
      for (const other of document.querySelectorAll(".tab")) other.classList.toggle("on", other === tab);
      for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== `tab-${tab.dataset.tab}`;
    };
  }
}

function start() {
  tabs();
  for (const select of document.querySelectorAll("select.presets")) {
    select.replaceChildren(...PRESETS.map((p) => el("option", {}, p)));
  }
  $("#tab-puzzle").onsubmit = listPuzzles;
  $("#tab-seed").onsubmit = (e) => { e.preventDefault(); openBoard(formBody(e.target)); };
  $("#tab-text").onsubmit = openText;
  $("#tab-table").onsubmit = sitDown;
  $("#pay-go").onclick = playChosen;
  $("#pay-cancel").onclick = () => { chosen = null; $("#pay").hidden = true; drawGrid(); drawHand(); };
  $("#start-go").onclick = answerStart;
  $("#undo").onclick = () => boardOp("undo");
  $("#redo").onclick = () => boardOp("redo");
  $("#back").onclick = () => boardOp("back");
  $("#hint").onclick = hint;
  $("#moves-btn").onclick = everyMove;
  $("#discard").onclick = () => {
    discarding = true; paying = []; chosen = null;
    news([["Pick the two cards to discard.", ""]]);
    drawHand();
  };
  $("#analyze-btn").onclick = analyzeGame;
  $("#explain-btn").onclick = explainDeal;
  $("#job-cancel").onclick = cancelJob;
  document.body.dataset.ready = "1";
}

start();
