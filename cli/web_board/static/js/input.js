// The player's input: clicks and taps, drag and drop (pointer events: a mouse, a pen or a
// finger), the keys (the grid is a role="grid" with arrow keys, Enter chooses, Escape backs
// out of any mode) and the move box. Each changes the mode, or plays through game.js.

import { render, say, news } from "./draw.js";
import * as game from "./game.js";
import { canAct, cardName, chosenAction, indexesOf, modeFor, startRound, state, targetsOf } from "./state.js";

const $ = (sel) => document.querySelector(sel);
let drag = null; // {index, x, y, ghost, moved}

// -- choosing ---------------------------------------------------------------------------------

/** The hand's card at `index` chosen: its cells lit; a Start or a Finish goes to its panel. */
function chooseCard(index) {
  const v = state.view;
  if (!canAct()) return;
  const value = v.hand[index];
  if (state.mode && state.mode.kind === "discard") return toggle("discard", index);
  if (state.mode && state.mode.index === index && state.mode.kind === "card") return backOut();
  const open = targetsOf(value);
  if (open.has(null)) return chooseMove(index, open.get(null));
  state.mode = { kind: "card", index, card: value };
  const cells = [...open.keys()];
  news([cells.length ? `${cardName(value)}: choose a green cell (its cost is on it).` : `${cardName(value)} fits no empty cell now.`]);
  if (cells.length && !cells.includes(state.cursor)) state.cursor = cells[0];
  render();
  if (state.keyboard && cells.length) $(`#grid [data-cell="${state.cursor}"]`).focus();
}

/** `move` chosen: its panel (the payment, the Start's shares), the suggestion picked. */
function chooseMove(index, move) {
  const v = state.view;
  if (move.kind === "start" && v.kind === "board") {
    state.mode = { kind: "start", move, picked: startRound(move).hands.map(() => []) };
  } else {
    const paid = indexesOf(v.hand, move.action.discard || [], [index]);
    state.mode = { kind: "pay", index, card: move.card, move, paid };
  }
  render();
  focusPanel();
}

function chooseCell(cell) {
  const mode = state.mode;
  if (!mode || mode.kind !== "card") {
    if (canAct()) news(["Choose a card of your hand first."]);
    return;
  }
  const move = targetsOf(mode.card).get(cell);
  if (!move) return news([`${cardName(mode.card)} cannot go into cell ${cell}.`]);
  state.cursor = cell;
  chooseMove(mode.index, move);
}

function focusPanel() {
  const go = $("#panel-go");
  const target = go && !go.disabled ? go : $("#panel [data-toggle]") || go;
  if (target) target.focus({ preventScroll: !state.keyboard });
  $("#panel").scrollIntoView({ block: "nearest" });
}

function backOut() {
  if (!$("#end").hidden) return closeEnd();
  const had = state.mode;
  state.mode = null;
  render();
  if (had && state.keyboard) game.focusHand();
}

function toggle(kind, index, seat) {
  const mode = state.mode;
  if (kind === "give") {
    if (!state.mode || state.mode.kind !== "give") state.mode = { kind: "give", picked: [] };
  } else if (!mode || mode.kind !== kind) return;
  const m = state.mode;
  const list = kind === "start" ? m.picked[seat] : kind === "pay" ? m.paid : m.picked;
  const at = list.indexOf(index);
  if (at >= 0) list.splice(at, 1);
  else {
    list.push(index);
    if (kind === "discard" && list.length > 2) list.shift();
  }
  render();
}

async function confirm() {
  const v = state.view, mode = state.mode;
  if (v.kind === "table" && v.start) {
    const picked = mode && mode.kind === "give" ? mode.picked : [];
    return game.give(picked.map((i) => v.start.hand[i]));
  }
  if (!mode) return;
  if (mode.move && mode.move.kind === "start" && v.kind === "table") return game.play("S");
  const action = chosenAction(mode);
  if (!action) return say("those two cannot be discarded together now");
  if (mode.kind === "start") {
    const hands = startRound(mode.move).hands;
    action.team_discard = mode.picked.map((p, seat) => p.map((i) => hands[seat][i]));
  }
  if (mode.kind !== "pay") return game.play(action);
  if (action.discard !== undefined) action.discard = mode.paid.map((i) => v.hand[i]);
  return game.play(action);
}

// -- the end screen --------------------------------------------------------------------------

function closeEnd() {
  $("#end").hidden = true;
  $("#result-btn").focus();
}

// -- the keys ---------------------------------------------------------------------------------

function gridKeys(event) {
  const v = state.view;
  const [rows, cols] = [v.rows, v.cols];
  let cell = state.cursor;
  const row = Math.floor(cell / cols), col = cell % cols;
  switch (event.key) {
    case "ArrowLeft": cell = row * cols + Math.max(0, col - 1); break;
    case "ArrowRight": cell = row * cols + Math.min(cols - 1, col + 1); break;
    case "ArrowUp": cell = Math.min(rows - 1, row + 1) * cols + col; break; // row 0 is the bottom row
    case "ArrowDown": cell = Math.max(0, row - 1) * cols + col; break;
    case "Home": cell = row * cols; break;
    case "End": cell = row * cols + cols - 1; break;
    case "Enter":
    case " ":
      event.preventDefault();
      return chooseCell(cell);
    default:
      return;
  }
  event.preventDefault();
  state.cursor = cell;
  for (const node of document.querySelectorAll("#grid [role=gridcell]")) node.tabIndex = Number(node.dataset.cell) === cell ? 0 : -1;
  $(`#grid [data-cell="${cell}"]`).focus();
}

function handKeys(event) {
  const buttons = [...document.querySelectorAll("#hand button.card")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  let next = at;
  if (event.key === "ArrowLeft" || event.key === "ArrowUp") next = Math.max(0, at - 1);
  else if (event.key === "ArrowRight" || event.key === "ArrowDown") next = Math.min(buttons.length - 1, at + 1);
  else if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  else return;
  event.preventDefault();
  buttons.forEach((b, i) => (b.tabIndex = i === next ? 0 : -1));
  buttons[next].focus();
}

// -- drag and drop ---------------------------------------------------------------------------

function dragStart(event) {
  const button = event.target.closest("#hand button.card");
  if (!button || button.disabled || event.button > 0) return;
  drag = { index: Number(button.dataset.index), x: event.clientX, y: event.clientY, ghost: null, moved: false };
}

function dragMove(event) {
  if (!drag) return;
  if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 8) return;
  if (!drag.moved) {
    drag.moved = true;
    const value = state.view.hand[drag.index];
    if (!(state.mode && state.mode.kind === "card" && state.mode.index === drag.index)) {
      state.mode = { kind: "card", index: drag.index, card: value };
      render();
    }
    const source = document.querySelector(`#hand button.card[data-index="${drag.index}"]`);
    drag.ghost = source.cloneNode(true);
    drag.ghost.classList.add("ghost");
    drag.ghost.removeAttribute("data-key");
    drag.ghost.setAttribute("aria-hidden", "true");
    document.body.append(drag.ghost);
  }
  event.preventDefault();
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  for (const node of document.querySelectorAll("#grid .over")) node.classList.remove("over");
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const cell = under && under.closest("#grid .cell.target");
  if (cell) cell.classList.add("over");
}

function dragEnd(event) {
  const was = drag;
  drag = null;
  if (!was || !was.moved) return;
  was.ghost.remove();
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const cell = under && under.closest("#grid .cell");
  if (cell) chooseCell(Number(cell.dataset.cell));
}
let suppressClick = false;

// -- wiring -------------------------------------------------------------------------------------

export function bind() {
  document.addEventListener("keydown", (event) => {
    state.keyboard = true;
    if (event.key === "Escape") {
      if (drag && drag.ghost) drag.ghost.remove();
      drag = null;
      return backOut();
    }
    const typing = /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (!typing && !event.ctrlKey && !event.metaKey && !event.altKey && state.view) {
      if (event.key === "/" && !$("#move-form").hidden) {
        event.preventDefault();
        return $("#move-input").focus();
      }
      if (event.key === "d" && !$("#discard").disabled) return $("#discard").click();
      if (event.key === "h" && !$("#hint").disabled && !$("#hint").hidden) return $("#hint").click();
    }
    if (event.target.closest && event.target.closest("#grid")) return gridKeys(event);
    if (event.target.closest && event.target.closest("#hand")) return handKeys(event);
  }, true);
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType) state.keyboard = false;
  }, true);
  $("#hand").addEventListener("click", (event) => {
    const button = event.target.closest("button.card");
    if (!button || suppressClick) return;
    if (event.detail === 0) state.keyboard = true; // a click made by a key
    chooseCard(Number(button.dataset.index));
  });
  $("#hand").addEventListener("pointerdown", dragStart);
  document.addEventListener("pointermove", dragMove);
  document.addEventListener("pointerup", dragEnd);
  document.addEventListener("pointercancel", () => {
    if (drag && drag.ghost) drag.ghost.remove();
    drag = null;
  });
  $("#grid").addEventListener("click", (event) => {
    const cell = event.target.closest(".cell");
    if (cell) chooseCell(Number(cell.dataset.cell));
  });
  $("#panel").addEventListener("click", (event) => {
    const target = event.target.closest("button, select");
    if (!target || target.tagName === "SELECT") return;
    if (target.dataset.toggle) return toggle(target.dataset.toggle, Number(target.dataset.index), Number(target.dataset.seat));
    if (target.dataset.row !== undefined) return game.rocks(Number(target.dataset.row));
    if (target.id === "panel-go") return confirm();
    if (target.id === "panel-cancel") return backOut();
    if (target.id === "start-suggested") {
      const suggested = modeFor(state.mode.move.action);
      state.mode.picked = suggested.picked;
      render();
      $("#panel-go").focus();
    }
  });
  $("#panel").addEventListener("change", (event) => {
    if (event.target.id === "rocks-row" && state.mode) state.mode.rocks = event.target.value;
  });
  $("#verdicts").addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target) return;
    if (target.id === "verdict-cancel") return game.cancelJob();
    const row = state.verdicts && state.verdicts.rows[Number(target.dataset.row)];
    if (!row) return;
    const mode = modeFor(row.action);
    if (!mode) return say(`${row.notation} is not a move of this position`);
    state.mode = mode;
    if (mode.kind === "pay" && mode.move.cell !== null) state.cursor = mode.move.cell;
    render();
    news([`${row.notation}: ${row.verdict}${row.spare !== null && row.spare !== undefined ? `, ${row.spare} spare` : ""}. Play it, or Cancel.`]);
    focusPanel();
  });
  $("#move-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const box = $("#move-input");
    const text = box.value.trim();
    if (!text) return say("type a move in the notation, as in 41@20-3,77, x19,57 or F");
    if (await game.play(text)) box.value = "";
    else box.focus();
  });
  $("#discard").onclick = () => {
    if (state.mode && state.mode.kind === "discard") return backOut();
    state.mode = { kind: "discard", picked: [] };
    render();
    focusPanel();
  };
  $("#undo").onclick = () => game.boardOp("undo");
  $("#redo").onclick = () => game.boardOp("redo");
  $("#back").onclick = () => game.boardOp("back");
  $("#hint").onclick = game.hint;
  $("#moves-btn").onclick = game.everyMove;
  $("#numbers").onclick = () => {
    state.numbers = !state.numbers;
    localStorage.setItem("tranquility.numbers", state.numbers ? "1" : "");
    render();
  };
  state.numbers = Boolean(localStorage.getItem("tranquility.numbers"));
  // the check after each move, on or off as the player last left it (a reload keeps it)
  $("#check").checked = localStorage.getItem("tranquility.check") !== "off";
  $("#check").onchange = () => localStorage.setItem("tranquility.check", $("#check").checked ? "on" : "off");
  $("#result-btn").onclick = () => {
    $("#end").hidden = false;
    $("#end-title").focus();
  };
  $("#end-close").onclick = closeEnd;
  $("#end-analyze").onclick = () => {
    closeEnd();
    game.analyze();
  };
  $("#end-explain").onclick = () => {
    closeEnd();
    game.explain();
  };
  $("#end-new").onclick = () => $("#new-game").click();
  $("#analyze-btn").onclick = game.analyze;
  $("#explain-btn").onclick = game.explain;
  $("#job-cancel").onclick = game.cancelJob;
  $("#show-position").onclick = () => {
    const text = $("#position-text");
    text.hidden = !text.hidden;
    $("#show-position").textContent = text.hidden ? "Show the position's text (it tells the piles' order)" : "Hide the position's text";
  };
}
