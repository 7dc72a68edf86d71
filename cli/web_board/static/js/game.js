// What changes the game: opening one, restoring it from the address, the moves, the bots,
// and the board's solver (the check after a move, the hint, every move's verdict, the
// analysis). Each answer of the server becomes the state's view and is drawn.

import * as api from "./api.js";
import * as address from "./address.js";
import { drawEnd, drawProgress, news, render, say } from "./draw.js";
import { cardName, cellOf, modeFor, over, positionKey, state } from "./state.js";

const $ = (sel) => document.querySelector(sel);
let botTimer = null;
let restoring = null; // the restore under way: later ones wait for it

/** Run `work`, its failure said in the error line; its answer, or null. */
export async function attempt(work) {
  say("");
  try {
    return await work();
  } catch (err) {
    say(err.message);
    return null;
  }
}

// -- the view ---------------------------------------------------------------------------------

/** Take the server's answer as the game: tell the moves not yet told, draw, and let the
 * bots move or the end screen show. `told` false: a restore (nothing to announce). */
function take(view, told = true) {
  const before = state.view;
  const changed = !before || positionKey(before) !== positionKey({ ...view, id: before.id });
  state.view = view;
  if (changed) {
    state.mode = null;
    state.verdicts = null;
  }
  const history = view.history;
  if (told && history.length > state.seen) {
    const fresh = history.slice(state.seen);
    const mine = (h) => view.kind === "board" || (h.words || "").startsWith(`seat ${view.seat} `);
    news(fresh.map((h) => `Turn ${h.turn}: ${h.words}`), fresh.some((h) => !mine(h)) ? "bot" : "");
    const cell = cellOf(fresh[fresh.length - 1].notation);
    if (cell !== null) state.placed = cell;
  }
  state.seen = history.length;
  render();
  if (view.kind === "table" && view.start && !(before && before.start && before.id === view.id)) askShare(view);
  if (view.kind === "table" && view.bots_turn && !restoring) scheduleBot();
  const myTurnNow = view.kind === "table" && view.my_turn && !(before && before.my_turn && before.id === view.id);
  if (myTurnNow && state.keyboard && $("#end").hidden) focusHand(); // the bots are done: the keys go on in the hand
  if (over(view) && !state.ended) {
    state.ended = true;
    if (view.status === "won" && view.puzzle) remember(view);
    drawEnd();
  }
}

/** The Start event asks the person: said beside the board, and its panel brought into view. */
function askShare(view) {
  const rows = view.start.rows && view.start.rows.length;
  news([rows ? "The Start is played: choose the row the Jagged Rocks move to, below the grid." : `${view.start.words[0]} Choose your share below the grid, then Give.`], "bot");
  $("#panel").scrollIntoView({ block: "nearest", behavior: "instant" });
}

function remember(view) {
  const solved = JSON.parse(localStorage.getItem("tranquility.solved") || "{}");
  const previous = solved[view.puzzle.id];
  const hints = state.game ? state.game.hints : 0;
  if (!previous || view.cards_left > previous.spare || (view.cards_left === previous.spare && hints < previous.hints)) {
    solved[view.puzzle.id] = { spare: view.cards_left, hints };
    localStorage.setItem("tranquility.solved", JSON.stringify(solved));
  }
}

// -- the game in the address -------------------------------------------------------------------

/** The pickers folded away: no tab shows as pressed while the game fills the page. */
function foldPickers() {
  $("#load").hidden = true;
  for (const tab of document.querySelectorAll("nav .tab")) tab.setAttribute("aria-pressed", "false");
}

/** Open a new game (`game`: address.js's form, with no moves) and keep it in the address. */
export async function openGame(game, push = true) {
  const view = await attempt(() => build(game));
  if (!view) return;
  state.game = { ...game, moves: game.moves || [] };
  state.base = game.source.position ? view.turn : 0;
  state.ended = false;
  state.seen = view.history.length;
  state.cursor = Math.floor(view.rows * view.cols / 2);
  foldPickers(); // the grid is the page's main thing: a tab brings the pickers back
  document.body.classList.add("playing");
  take(view, false);
  address.write(state.game, push);
  news([view.kind === "table" ? `You sit at seat ${view.seat}; bots play the other seats.` : "Choose a card of your hand, then a cell: a click, a drag, the keys or a tap."]);
  if (state.keyboard) focusHand();
}

/** The server's copy of `game` made again: opened, then its moves played (a table: the
 * bots play theirs again between the person's, as seeded bots do). */
async function build(game) {
  if (game.kind === "board") {
    let view = await api.call("POST", "/api/board", address.opening(game));
    if (game.moves.length) view = await api.call("POST", `/api/board/${view.id}/play`, { action: game.moves.join(" ") });
    return view;
  }
  let view = await api.call("POST", "/api/table", address.opening(game));
  const path = (op) => `/api/table/${view.id}/${op}`;
  for (let i = 0; !view.over && (i < game.moves.length || view.bots_turn); ) {
    if (view.bots_turn) {
      if (i >= game.moves.length) break;
      view = await api.call("POST", path("step"), {});
      continue;
    }
    const move = game.moves[i++];
    if (move.startsWith("give:")) view = await api.call("POST", path("give"), { cards: move.slice(5).split(",").filter(Boolean).map((c) => (/^\d+$/.test(c) ? Number(c) : c)) });
    else if (move.startsWith("rocks:")) view = await api.call("POST", path("rocks"), { row: Number(move.slice(6)) });
    else view = await api.call("POST", path("play"), { action: move });
  }
  return view;
}

/** The game the address names, made the page's game: the server's copy brought in step
 * (a board: undo to the common part, then the rest played) or made again. */
export async function restore(game = address.read()) {
  if (!game) {
    // an address with no game (Back to the page as it opened): the pickers again
    state.view = state.game = state.mode = null;
    for (const id of ["#end", "#after"]) $(id).hidden = true;
    $("#load").hidden = false;
    document.querySelector("nav .tab.on").setAttribute("aria-pressed", "true");
    document.body.classList.remove("playing");
    return render();
  }
  if (restoring) await restoring;
  restoring = (async () => {
    const view = await attempt(async () => {
      if (state.view && state.game && game.kind === "board" && address.sameStart(game, state.game)) {
        try {
          return await catchUp(game);
        } catch (err) {
          if (err.status !== 404) throw err;
        }
      }
      return build(game);
    });
    if (!view) return;
    state.game = game;
    state.base = 0;
    state.ended = over(view) && state.ended && state.view && state.view.id === view.id;
    state.seen = view.history.length;
    foldPickers();
    document.body.classList.add("playing");
    take(view, false);
  })();
  try {
    await restoring;
  } finally {
    restoring = null;
  }
  if (state.view && state.view.kind === "table" && state.view.bots_turn) scheduleBot();
}

async function catchUp(game) {
  let view = state.view;
  const have = view.history.slice(state.base).map((h) => h.notation);
  let common = 0;
  while (common < have.length && common < game.moves.length && have[common] === game.moves[common]) common++;
  for (let n = have.length; n > common; n--) view = await api.call("POST", `/api/board/${view.id}/undo`, {});
  const rest = game.moves.slice(common);
  if (rest.length) view = await api.call("POST", `/api/board/${view.id}/play`, { action: rest.join(" ") });
  return view;
}

/** A request on the server's copy; if the server no longer has it, the copy is made again
 * from the address and the request sent once more. */
async function onServer(op, body = {}) {
  const path = () => `/api/${state.view.kind}/${state.view.id}/${op}`;
  try {
    return await api.call("POST", path(), body);
  } catch (err) {
    if (err.status !== 404 || !state.game) throw err;
    state.view = await build(state.game);
    return api.call("POST", path(), body);
  }
}

function keep(push = true) {
  const v = state.view;
  if (v.kind === "board") state.game.moves = v.history.slice(state.base).map((h) => h.notation);
  address.write(state.game, push);
}

// -- moves ------------------------------------------------------------------------------------

/** Play `action` (an action object, or moves in the notation). */
export async function play(action) {
  if (!state.view) return;
  const turn = state.view.turn;
  const view = await attempt(() => onServer("play", { action }));
  if (!view) return false;
  if (view.kind === "table") {
    if (action === "S") state.game.moves.push("S");
    else if (view.history.length > turn) state.game.moves.push(view.history[turn].notation);
  }
  take(view);
  keep();
  afterMove();
  return true;
}

export async function give(cards) {
  const view = await attempt(() => onServer("give", { cards }));
  if (!view) return;
  state.game.moves.push(`give:${cards.join(",")}`);
  take(view);
  keep();
  afterMove();
}

export async function rocks(row) {
  const view = await attempt(() => onServer("rocks", { row }));
  if (!view) return;
  state.game.moves.push(`rocks:${row}`);
  take(view);
  keep();
  afterMove();
}

function afterMove() {
  if (state.keyboard && $("#end").hidden) focusHand();
  const v = state.view;
  if (v.kind === "board" && v.status === "open" && $("#check").checked) check();
}

export function focusHand() {
  const asked = !$("#panel").hidden && $("#panel button:not(:disabled)"); // the Start event asks
  if (asked) return asked.focus();
  const first = document.querySelector("#hand button.card[tabindex='0']:not(:disabled)") || document.querySelector("#hand button.card:not(:disabled)");
  if (first) first.focus();
  else $("#grid [tabindex='0']").focus();
}

export async function boardOp(op) {
  const view = await attempt(() => onServer(op));
  if (!view) return;
  take(view);
  keep();
  if (op === "back") news([`Back at turn ${view.turn}, the last position proven winnable.`]);
}

// -- the bots -----------------------------------------------------------------------------------

function scheduleBot() {
  clearTimeout(botTimer);
  const delay = state.game ? state.game.delay : 700;
  botTimer = setTimeout(botStep, delay);
}

async function botStep() {
  const v = state.view;
  if (!v || v.kind !== "table" || !v.bots_turn || restoring) return;
  const id = v.id;
  const view = await attempt(() => onServer("step"));
  if (view && state.view.id === id) take(view);
}

// -- the board's solver -------------------------------------------------------------------------

export async function check() {
  const key = positionKey();
  news(["Checking the move…"], "progress");
  const data = await attempt(() => onServer("check"));
  if (!data || positionKey() !== key) return;
  Object.assign(state.view, { last_winnable: data.last_winnable, thrown_at: data.thrown_at });
  render();
  const judged = data.check.judgement;
  if (data.check.words) news([data.check.words], judged === "threw" ? "threw" : judged === "kept" ? "kept" : "");
  else news([]);
}

/** The hint: about the chosen card when one is chosen (its best cell, or the move that
 * does better), else the best move, its card chosen and its cell marked. At a table it is
 * the fair hint, from what your seat has seen. */
export async function hint() {
  if (state.thinking) return;
  const key = positionKey();
  const chosen = state.mode && state.mode.card !== undefined ? state.mode.card : null;
  state.thinking = true; // one hint at a time: the button waits for this one's answer
  render();
  news([chosen === null ? "Thinking…" : `Thinking about your ${cardName(chosen)}…`], "progress");
  const data = await attempt(() => onServer("hint", chosen === null ? {} : { card: chosen }));
  state.thinking = false;
  render();
  if (!data || positionKey() !== key) return news([]);
  state.game.hints += 1;
  keep(false);
  const answer = data.hint;
  const about = answer.card;
  const lines = about ? [about.words] : answer.words.slice();
  const shown = about ? about.best : answer.best;
  if (shown) showMove(shown.action);
  if (!about && shown && state.view.kind === "board") lines.unshift(`Hint: ${shown.notation}.`);
  const marked = state.mode && state.mode.best !== undefined ? state.mode.best : null;
  if (marked !== null) lines.push(`Its cell is outlined on the grid: choose it, or another.`);
  render();
  news(lines, answer.verdict === "no-win" || (about && about.verdict === "no-win") ? "threw" : "");
  if (marked === null) return;
  const cell = $(`#grid [data-cell="${marked}"]`);
  if (state.keyboard) cell.focus();
  else cell.scrollIntoView({ block: "nearest" }); // on a phone the grid is far above the Hint button
}

/** A hinted move shown: its card chosen and its cell marked (a move with no cell, in its panel). */
function showMove(action) {
  const mode = modeFor(action, { hinted: true });
  if (mode && mode.kind === "pay" && mode.move.cell !== null) {
    state.mode = { kind: "card", index: mode.index, card: mode.card, best: mode.move.cell };
    state.cursor = mode.move.cell;
  } else if (mode) state.mode = mode;
}

/** Every legal move with its verdict, tied to this position: any change clears it. */
export async function everyMove() {
  if (state.job) return say("a long job is under way: wait for it or cancel it");
  const key = positionKey();
  state.verdicts = null;
  await runJob({ kind: "moves", game: state.view.line }, (answer) => {
    if (positionKey() === key) state.verdicts = { key, rows: answer.moves };
  });
}

async function runJob(body, done) {
  state.job = { id: null, kind: body.kind, text: "starting…" }; // its progress and Cancel shown at once
  render();
  const follow = await attempt(() => api.follow(body, {
    progress: (step) => {
      if (!state.job) return;
      state.job.text = `${step.text}${step.left !== null ? ` (${step.left} s left)` : ""}`;
      drawProgress();
    },
    done: (answer) => {
      state.job = null;
      if (answer.interrupted) news([`${body.kind}: stopped; what was found by then.`]);
      done(answer);
      render();
    },
    failed: (message) => {
      state.job = null;
      say(message);
      render();
    },
  }));
  if (!follow) {
    state.job = null;
    return render();
  }
  if (state.job) state.job.id = follow.id;
  if (state.job && state.job.cancelled) cancelJob(); // Cancel came before the server's answer
}

export async function cancelJob() {
  if (!state.job) return;
  state.job.cancelled = true;
  if (state.job.id) await attempt(() => api.cancel(state.job.id));
}

async function report(path, body) {
  const text = await attempt(() => api.page(path, body));
  if (!text) return;
  const frame = $("#report");
  frame.hidden = false;
  frame.srcdoc = text;
  frame.scrollIntoView({ block: "start" });
}

export function analyze() {
  const line = state.view.line;
  runJob({ kind: "analyze", game: line, fair: true, samples: 8, turns: 2 }, (answer) =>
    report("/api/html/analysis", { game: line, perfect: answer.perfect, fair: answer.fair }));
}

export function explain() {
  const start = { ...state.view.line, actions: [] };
  runJob({ kind: "explain", game: start }, (answer) => report("/api/html/explain", { explanation: answer }));
}

