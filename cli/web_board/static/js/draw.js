// Drawing: every part of the page from the state, again after each change. Elements that
// take the focus carry a data-key, so the focus survives a redraw.

import { canAct, cardName, cellOf, over, rocksChoices, rocksChosen, startRound, state, targetsOf, variants } from "./state.js";

const $ = (sel) => document.querySelector(sel);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (key === "class") node.className = value;
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** A card as a card: its face, a colour band by its number, its corner index. */
export function card(value, attrs = {}, tag = "span") {
  const special = typeof value === "string";
  const hue = special ? 0 : Math.round(210 - (Number(value) / 80) * 180);
  const name = cardName(value);
  return el(tag, {
    class: `card ${special ? `special s-${value}` : ""} ${attrs.class || ""}`,
    style: special ? "" : `--hue: ${hue}`,
    "data-card": value,
    ...Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== "class")),
  }, el("span", { class: "corner", "aria-hidden": "true" }, special ? value : String(value)), el("span", { class: "face" }, name));
}

// -- the whole page -------------------------------------------------------------------------

export function render() {
  const key = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : undefined;
  const v = state.view;
  $("#game").hidden = !v;
  if (!v) return;
  document.body.classList.toggle("numbers", state.numbers);
  drawTurn();
  drawGoal();
  drawGrid();
  drawHand();
  drawPanel();
  drawControls();
  drawSeats();
  drawHistory();
  drawVerdicts();
  if (key) {
    const again = document.querySelector(`[data-key="${key}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

function drawTurn() {
  const v = state.view;
  const banner = $("#turn");
  let said, cls;
  if (v.kind === "table") {
    if (v.over) [said, cls] = [v.status === "won" ? "The team won" : "The game is over: lost", v.status === "won" ? "won" : "lost"];
    else if (v.start) [said, cls] = ["The Start event: your share", "mine"];
    else if (v.my_turn) [said, cls] = ["Your turn", "mine"];
    else [said, cls] = [`Seat ${v.to_move} (a bot) is thinking…`, "theirs"];
  } else if (v.status === "won") [said, cls] = ["Won!", "won"];
  else if (v.status === "lost") [said, cls] = ["Lost: the seat to move has no legal action", "lost"];
  else [said, cls] = [v.players > 1 ? `Your turn: seat ${v.to_move}'s hand` : "Your turn", "mine"];
  banner.textContent = said;
  banner.className = `turn ${cls}`;
  document.title = `${said} · Tranquility`; // a tab in the background says it too
  const bits = [`Turn ${v.turn}`];
  if (v.kind === "table") bits.push(`you are seat ${v.seat}`);
  bits.push(`${v.discarded} discarded`);
  bits.push(v.start ? "Start event under way" : v.start_played ? "Start played" : "Start still to play");
  if (v.rules.monsters) bits.push(`Sea Monsters ${v.monsters_played} of ${v.rules.monsters}`);
  if (v.rocks_row !== null && v.rocks_row !== undefined) bits.push(`Jagged Rocks on row ${v.rocks_row}`);
  bits.push(`${v.rules_name} rules`);
  $("#status").textContent = bits.join(" · ");
  const last = (v.revealed || v.history)[v.history.length - 1];
  $("#last-move").textContent = last ? `Last move, turn ${last.turn}: ${last.words}` : "";
}

function drawGoal() {
  const v = state.view;
  const box = $("#goal");
  const lines = [];
  if (v.puzzle) {
    const spare = v.puzzle.spare;
    lines.push(el("b", {}, `Puzzle, grade ${v.puzzle.grade} of 5. `));
    lines.push(spare === null || spare === undefined ? "Goal: win." : `Goal: win with at least ${spare} card${spare === 1 ? "" : "s"} left (as the puzzle's solution does).`);
    if (state.game && state.game.hints) lines.push(` Hints used: ${state.game.hints}.`);
  } else if (v.kind === "table") {
    lines.push("The address holds the deal's seed, to come back to this table; anyone with it can look the deal up.");
  }
  box.replaceChildren(...lines);
  box.hidden = !lines.length;
}

function drawGrid() {
  const v = state.view, mode = state.mode;
  const grid = $("#grid");
  grid.style.setProperty("--rows", v.rows);
  grid.style.setProperty("--cols", v.cols);
  const open = mode && mode.kind === "card" ? targetsOf(mode.card) : new Map();
  const chosenCell = mode && mode.kind === "pay" ? mode.move.cell : null;
  const last = v.history.length ? cellOf(v.history[v.history.length - 1].notation) : null;
  const rows = [];
  for (let row = v.rows - 1; row >= 0; row--) {
    const cells = [];
    for (let col = 0; col < v.cols; col++) {
      const cell = row * v.cols + col;
      const info = v.grid[cell];
      const classes = ["cell"];
      const words = [`row ${row}, column ${col}`];
      if (info.card !== null) {
        classes.push("full");
        words.push(cardName(info.card));
      } else {
        words.push(info.low > info.high ? "empty, no island fits" : `empty, islands ${info.low} to ${info.high} fit`);
      }
      if (v.rocks_row === row) {
        classes.push("rocks");
        words.push("Jagged Rocks");
      }
      const move = open.get(cell);
      if (move) {
        classes.push("target");
        words.push(move.cost ? `${cardName(move.card)} costs ${move.cost} here` : `${cardName(move.card)} is free here`);
      }
      if (mode && mode.best === cell) classes.push("best");
      if (chosenCell === cell) classes.push("chosen");
      if (last === cell) classes.push("last");
      if (state.placed === cell) classes.push("placed");
      if (last === cell) words.push("the last move");
      const node = el("div", {
        role: "gridcell",
        class: classes.join(" "),
        "data-cell": cell,
        "data-key": `cell-${cell}`,
        tabindex: cell === state.cursor ? "0" : "-1",
        "aria-label": `cell ${cell}: ${words.join(", ")}`,
      });
      if (info.card !== null) node.append(card(info.card, { "aria-hidden": "true" }));
      if (move) node.append(el("span", { class: "cost", "aria-hidden": "true" }, move.cost ? `cost ${move.cost}` : "free"));
      node.append(el("span", { class: "idx", "aria-hidden": "true" }, String(cell)));
      if (info.card === null && info.low <= info.high) {
        node.append(el("span", { class: "range", "aria-hidden": "true" }, info.low === info.high ? `${info.low}` : `${info.low}–${info.high}`));
      }
      cells.push(node);
    }
    rows.push(el("div", { role: "row", class: "row" }, ...cells));
  }
  grid.replaceChildren(...rows);
  state.placed = null;
}

function drawHand() {
  const v = state.view, mode = state.mode;
  $("#hand-label").textContent = v.kind === "board" ? (v.players > 1 ? `Hand of seat ${v.to_move}` : "Your hand") : `Your hand (seat ${v.seat})`;
  const playable = canAct();
  const picked = mode && mode.kind === "discard" ? new Set(mode.picked) : new Set();
  const roving = Math.max(0, v.hand.findIndex((c, i) => mode && (mode.index === i || picked.has(i))));
  const buttons = v.hand.map((value, i) => {
    const on = (mode && mode.index === i && (mode.kind === "card" || mode.kind === "pay")) || picked.has(i);
    const hasMove = v.moves.some((m) => m.card === value && m.kind !== "discard");
    return card(value, {
      class: `${on ? "on" : ""} ${hasMove ? "" : "idle"}`,
      type: "button",
      "data-index": i,
      "data-key": `hand-${i}`,
      "aria-pressed": on ? "true" : "false",
      tabindex: i === roving ? "0" : "-1",
      disabled: !playable,
      draggable: "false",
    }, "button");
  });
  $("#hand").replaceChildren(...buttons);
  if (!v.hand.length) $("#hand").append(el("p", { class: "dim" }, "no cards in hand"));
}

// -- the panel: paying, discarding two, the Start --------------------------------------------

function toggles(cards, picked, prefix, seat) {
  const on = new Set(picked);
  return cards.map(({ value, index }) =>
    card(value, {
      type: "button",
      class: on.has(index) ? "paid" : "",
      "aria-pressed": on.has(index) ? "true" : "false",
      "data-index": index,
      "data-seat": seat,
      "data-key": `${prefix}-${seat ?? 0}-${index}`,
      "data-toggle": prefix,
    }, "button"));
}

function drawPanel() {
  const v = state.view, mode = state.mode;
  const panel = $("#panel");
  let parts = null;
  if (v.kind === "table" && v.start && !v.over) parts = giveParts(v.start);
  else if (mode && mode.kind === "pay") parts = payParts(mode);
  else if (mode && mode.kind === "discard") parts = discardParts(mode);
  else if (mode && mode.kind === "start") parts = startParts(mode);
  panel.hidden = !parts;
  if (!parts) return panel.replaceChildren();
  panel.replaceChildren(...parts);
}

function count(n, k, what = "chosen") {
  return el("p", { class: `count ${n === k ? "ok" : ""}`, "data-count": n, "aria-live": "polite" }, `${n} of ${k} ${what}`);
}

function buttons(goLabel, enabled, cancel = true) {
  return el("div", { class: "buttons" },
    el("button", { type: "button", id: "panel-go", class: "go", "data-key": "panel-go", disabled: !enabled }, goLabel),
    cancel ? el("button", { type: "button", id: "panel-cancel", "data-key": "panel-cancel" }, "Cancel") : null);
}

function payParts(mode) {
  const v = state.view, move = mode.move;
  const what = move.kind === "finish" ? "the Finish" : move.kind === "start" ? "the Start" : move.kind === "monster" ? `the Sea Monster into cell ${move.cell}` : `${move.card} into cell ${move.cell}`;
  const parts = [el("h2", { id: "panel-title" }, `Play ${what}`)];
  if (move.kind === "start") parts.push(el("p", {}, "Then each seat gives its share of the Start's discards, in turn."));
  else if (move.cost) {
    const left = v.hand.map((value, index) => ({ value, index })).filter(({ index }) => index !== mode.index);
    parts.push(el("p", {}, `It costs ${move.cost}: choose ${move.cost} card${move.cost === 1 ? "" : "s"} of your hand to discard.`));
    parts.push(el("div", { class: "cards" }, ...toggles(left, mode.paid, "pay")));
    parts.push(count(mode.paid.length, move.cost));
  } else parts.push(el("p", {}, "Free: no card to pay."));
  parts.push(...rocksParts(mode));
  parts.push(buttons("Play", !move.cost || mode.paid.length === move.cost || move.kind === "start"));
  return parts;
}

function rocksParts(mode) {
  const choices = rocksChoices(mode);
  if (!choices.length) return [];
  const chosen = rocksChosen(mode);
  const options = choices.map(([value, words]) => el("option", { value, selected: value === chosen }, words));
  return [el("label", { class: "rocks-choice" }, "Jagged Rocks: ", el("select", { id: "rocks-row", "data-key": "rocks-row" }, ...options))];
}

function discardParts(mode) {
  const v = state.view;
  const all = v.hand.map((value, index) => ({ value, index }));
  const legal = variants(mode).length > 0;
  return [
    el("h2", { id: "panel-title" }, "Discard two"),
    el("p", {}, "Choose the two cards of your hand to discard (your turn ends)."),
    el("div", { class: "cards" }, ...toggles(all, mode.picked, "discard")),
    count(mode.picked.length, 2),
    ...rocksParts(mode),
    buttons("Discard", legal),
  ];
}

/** Who gives what in a Start, in words: "seat 0 gives 7, 49; seat 1 gives nothing". */
function shares(action) {
  return (action.team_discard || []).map((cards, seat) => `seat ${seat} gives ${cards.length ? cards.map(cardName).join(", ") : "nothing"}`).join("; ");
}

function startParts(mode) {
  const move = mode.move, round = startRound(move);
  const suggested = move.options ? move.options[0] : move;
  const total = mode.picked.reduce((n, p) => n + p.length, 0);
  const rows = round.hands.map((hand, seat) =>
    el("div", { class: "seat-give" },
      el("h3", {}, `Seat ${seat} gives ${mode.picked[seat].length}`),
      el("div", { class: "cards" }, ...toggles(hand.map((value, index) => ({ value, index })), mode.picked[seat], "start", seat))));
  const forced = round.forced.length
    ? [el("p", {}, `The hands hold fewer cards than the Start costs (${move.cost}): first every card in hand goes (${round.forced.map(cardName).join(", ")}) and every seat draws up again; then the team owes ${round.owed} more, from these hands.`)]
    : [el("p", {}, `The team discards ${round.owed} card${round.owed === 1 ? "" : "s"} in all: choose who gives which.`)];
  return [
    el("h2", { id: "panel-title" }, "Play the Start"),
    ...forced,
    el("p", { class: "suggestion" }, `Suggested: ${shares(suggested.action)} `, el("code", {}, `(${suggested.notation})`), " ",
      el("button", { type: "button", id: "start-suggested", "data-key": "start-suggested" }, "Use the suggestion")),
    ...rows,
    count(total, round.owed),
    ...rocksParts(mode),
    buttons("Play the Start", total === round.owed),
  ];
}

function giveParts(start) {
  const mode = state.mode && state.mode.kind === "give" ? state.mode : { picked: [] };
  if (start.rows && start.rows.length) {
    return [
      el("h2", { id: "panel-title" }, "The Start: move the Jagged Rocks"),
      el("p", {}, "Choose the row the Jagged Rocks move to."),
      el("div", { class: "buttons" }, ...start.rows.map((r) => el("button", { type: "button", "data-row": r, "data-key": `row-${r}` }, `Row ${r}`))),
    ];
  }
  const hand = (start.hand || []).map((value, index) => ({ value, index }));
  const n = mode.picked.length;
  const many = start.least === start.most ? `${start.most}` : `${start.least} to ${start.most}`;
  const said = start.words.filter((w) => !w.startsWith("Give ") && !w.startsWith("Your hand"));
  return [
    el("h2", { id: "panel-title" }, "The Start event: your share"),
    ...said.map((w) => el("p", {}, w)),
    el("p", {}, `Give ${many} card${start.most === 1 ? "" : "s"}; your share by the public rule is ${start.quota}.`),
    el("div", { class: "cards" }, ...toggles(hand, mode.picked, "give")),
    el("p", { class: `count ${n >= start.least && n <= start.most ? "ok" : ""}`, "data-count": n }, `${n} chosen`),
    buttons("Give", n >= start.least && n <= start.most),
  ];
}

// -- controls, seats, history, verdicts ------------------------------------------------------

function drawControls() {
  const v = state.view;
  const board = v.kind === "board";
  for (const id of ["#undo", "#redo", "#back", "#moves-btn", "#check-label"]) $(id).hidden = !board;
  if (board) {
    $("#undo").disabled = !v.can_undo || (state.job && state.job.kind === "moves");
    $("#redo").disabled = !v.can_redo;
    $("#back").disabled = v.last_winnable === null || v.last_winnable === undefined || v.last_winnable === v.turn;
    $("#moves-btn").disabled = over() || Boolean(state.job);
  }
  // at a table, the fair hint: on your own turn, when there is more than the Start to play
  const onlyStart = v.moves.length === 1 && v.moves[0].kind === "start";
  $("#hint").disabled = !canAct() || (v.kind === "table" && onlyStart) || state.thinking;
  $("#hint").textContent = state.thinking ? "Thinking…" : state.mode && state.mode.card !== undefined ? `Hint for ${cardName(state.mode.card)}` : "Hint";
  $("#discard").disabled = !canAct() || !v.moves.some((m) => m.kind === "discard");
  $("#discard").setAttribute("aria-pressed", state.mode && state.mode.kind === "discard" ? "true" : "false");
  $("#numbers").setAttribute("aria-pressed", state.numbers ? "true" : "false");
  $("#result-btn").hidden = !over();
  $("#move-form").hidden = !canAct();
  $("#keys").hidden = !canAct();
  const save = $("#save");
  save.hidden = !v.line;
  if (v.line) {
    if (save.dataset.url) URL.revokeObjectURL(save.dataset.url);
    save.dataset.url = URL.createObjectURL(new Blob([JSON.stringify(v.line, null, 1)], { type: "application/json" }));
    save.href = save.dataset.url;
    save.download = `game-${v.turn}.json`;
  }
  $("#after").hidden = !over();
}

function drawSeats() {
  const v = state.view;
  const seats = [];
  for (let seat = 0; seat < v.players; seat++) {
    const who = v.kind === "table" ? (seat === v.seat ? "you" : `bot, ${v.bots}`) : null;
    const box = el("li", { class: `seat ${seat === v.to_move && !over() ? "to-move" : ""}`, "data-seat": seat },
      el("b", {}, `Seat ${seat}${who ? ` (${who})` : ""}`),
      el("span", { class: "dim" }, ` · hand ${v.hand_sizes[seat]} · pile ${v.pile_sizes[seat]}`));
    if (v.kind === "board" && v.hands) box.append(el("div", { class: "mini" }, ...v.hands[seat].map((c) => card(c, { class: "small" }))));
    seats.push(box);
  }
  $("#seats").replaceChildren(...seats);
  const text = $("#position-text");
  text.textContent = v.position_text || "";
  $("#position-box").hidden = !v.position_text;
}

function drawHistory() {
  const shown = state.view.revealed || state.view.history;
  $("#history").replaceChildren(...shown.map((h) => el("li", {}, el("code", {}, h.notation), ` ${h.words}`)));
}

let listed = null; // the verdict rows drawn: the list is drawn again only when they change

function drawVerdicts() {
  const rows = state.verdicts ? state.verdicts.rows : null;
  const running = Boolean(state.job && state.job.kind === "moves");
  $("#verdicts").hidden = !rows && !running;
  $("#verdict-cancel").hidden = !running;
  drawProgress();
  if (rows === listed) return;
  listed = rows;
  $("#verdict-list").replaceChildren(...(rows || []).map((m, i) =>
    el("li", {}, el("button", { type: "button", class: "v-row", "data-row": i, "data-key": `v-${i}` },
      el("code", {}, m.notation), " ",
      el("span", { class: `v-${m.verdict}` }, m.verdict),
      m.spare === null || m.spare === undefined ? null : el("span", {}, ` ${m.spare} spare`),
      m.reason ? el("span", { class: "reason" }, m.reason) : null))));
}

/** A long job's progress, in place: nothing else is drawn again, so that a click in
 * progress (on Cancel, a card, a cell) is never lost to a redraw. */
export function drawProgress() {
  const job = state.job;
  const moves = Boolean(job && job.kind === "moves");
  $("#verdict-progress").textContent = moves ? job.text : "";
  $("#verdict-progress").hidden = !moves;
  const other = Boolean(job && !moves);
  $("#job-status").textContent = other ? `${job.kind}: ${job.text}` : "";
  $("#job-cancel").hidden = !other;
}

// -- what happened -----------------------------------------------------------------------------

/** Lines beside the board (and read out: the box is aria-live). */
export function news(lines, cls = "") {
  $("#news").replaceChildren(...lines.filter(Boolean).map((line) => el("p", { class: cls }, line)));
}

export function say(message) {
  const box = $("#error");
  box.textContent = message || "";
  box.hidden = !message;
}

/** Why a table's game was lost: the seat to move could not act. */
function stuck(v) {
  const who = v.to_move === v.seat ? "You were" : `Seat ${v.to_move} (a bot) was`;
  const why = v.hand_sizes[v.to_move] === 0 ? "with no card left in hand" : "with no legal move";
  return `${who} to move ${why}, so the team could not go on.`;
}

/** The end of the game: the Finish drawn, the spare, the puzzle's best, the hints used. */
export function drawEnd() {
  const v = state.view;
  const won = v.status === "won";
  const box = $("#end-body");
  const parts = [];
  if (won) parts.push(el("div", { class: "end-card" }, card("F", { class: "big" })));
  const spare = v.cards_left;
  if (won && spare !== undefined) parts.push(el("p", {}, `You won with ${spare} card${spare === 1 ? "" : "s"} left.`));
  if (v.puzzle && v.puzzle.spare !== null && v.puzzle.spare !== undefined && won) {
    const best = v.puzzle.spare;
    const hinted = state.game && state.game.hints ? ", with hints" : "";
    const against = spare > best ? `A new best${hinted}: the puzzle's solution keeps ${best}.` : spare === best ? `As many as the puzzle's solution (${best})${hinted}.` : `The puzzle's solution keeps ${best}: ${best - spare} more to find.`;
    parts.push(el("p", {}, against));
  }
  if (v.kind === "table") parts.push(el("p", {}, won ? "The team filled the grid." : stuck(v)), el("p", {}, "Every card is turned up now: the history shows them."));
  const hints = state.game ? state.game.hints : 0;
  if (v.kind === "board") parts.push(el("p", {}, hints ? `Hints used: ${hints}${won ? ` (a win with hints)` : ""}.` : "No hint used."));
  if (!won && v.kind === "board") parts.push(el("p", {}, "Lost: the seat to move has no legal action. Undo, or go back to the last position proven winnable."));
  $("#end-title").textContent = won ? (v.kind === "table" ? "The team won!" : "You won!") : "Game over";
  box.replaceChildren(...parts);
  $("#end").hidden = false;
  $("#end-title").focus();
}

