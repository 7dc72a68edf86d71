// The board page of `tranquility serve` (docs/web.md): the game pickers, and the start.
// No rule is applied here: the server lists the legal moves with their costs and the
// engine accepts or refuses each action. The modules: state.js (the state), api.js (the
// server), address.js (the game in the address), draw.js (drawing), input.js (clicks, keys,
// drag) and game.js (what changes the game).

import * as api from "./api.js";
import { el } from "./draw.js";
import * as game from "./game.js";
import { bind } from "./input.js";
import { state } from "./state.js";

const $ = (sel) => document.querySelector(sel);
const PAGE = 12; // puzzles a page of the picker
let puzzles = [];
let puzzlePage = 0;

function number(form, name) {
  return Number(form.elements[name].value);
}

function solved() {
  return JSON.parse(localStorage.getItem("tranquility.solved") || "{}");
}

async function listPuzzles(event) {
  if (event) event.preventDefault();
  const form = $("#tab-puzzle");
  const query = new URLSearchParams();
  for (const name of ["players", "grade", "preset"]) if (form.elements[name].value) query.set(name, form.elements[name].value);
  const found = await game.attempt(() => api.call("GET", "/api/puzzles?" + query));
  if (!found) return;
  puzzles = found;
  puzzlePage = 0;
  const rules = form.elements.preset;
  if (rules.options.length === 1) { // the catalogue's own rules, once it has been listed whole
    const names = [...new Set(found.map((p) => p.rules))].sort();
    rules.append(...names.map((name) => el("option", {}, name)));
  }
  drawPuzzles();
}

function drawPuzzles() {
  const done = solved();
  const unsolvedOnly = $("#tab-puzzle input[name=unsolved]").checked;
  const shown = puzzles.filter((p) => !unsolvedOnly || !done[p.id]);
  const pages = Math.max(1, Math.ceil(shown.length / PAGE));
  puzzlePage = Math.min(puzzlePage, pages - 1);
  const slice = shown.slice(puzzlePage * PAGE, (puzzlePage + 1) * PAGE);
  const items = slice.map((p) => {
    const mark = done[p.id];
    return el("li", {}, el("button", { type: "button", class: `puzzle ${mark ? "solved" : ""}`, "data-puzzle": p.id },
      el("b", {}, `Grade ${p.grade}`),
      el("span", {}, ` · ${p.players} player${p.players === 1 ? "" : "s"} · ${p.rules} · deal ${p.seed}`),
      el("span", { class: "mark" }, mark ? ` ✓ solved, ${mark.spare} left${mark.hints ? `, ${mark.hints} hint${mark.hints === 1 ? "" : "s"}` : ""}` : "")));
  });
  $("#puzzle-list").replaceChildren(...items);
  $("#puzzle-count").textContent = shown.length
    ? `${shown.length} puzzle${shown.length === 1 ? "" : "s"}${unsolvedOnly ? " unsolved" : ""}; page ${puzzlePage + 1} of ${pages}`
    : "no puzzle matches";
  $("#puzzle-prev").disabled = puzzlePage === 0;
  $("#puzzle-next").disabled = puzzlePage >= pages - 1;
}

/** The rules presets and the bots' policies, as the server publishes them. */
async function choices() {
  const offered = await game.attempt(() => api.call("GET", "/api/options"));
  if (!offered) return;
  const fill = (selector, names, chosen) => {
    for (const select of document.querySelectorAll(selector)) {
      select.replaceChildren(...names.map((name) => el("option", { selected: name === chosen }, name)));
    }
  };
  fill("select.presets", offered.presets, "official");
  fill("select.policies", offered.policies, "tuned");
}

function tabs() {
  for (const tab of document.querySelectorAll("nav .tab")) {
    tab.onclick = () => {
      for (const other of document.querySelectorAll("nav .tab")) {
        other.classList.toggle("on", other === tab);
        other.setAttribute("aria-pressed", other === tab ? "true" : "false");
      }
      for (const pane of document.querySelectorAll(".pane")) pane.hidden = pane.id !== `tab-${tab.dataset.tab}`;
      $("#load").hidden = false;
    };
  }
  $("#new-game").onclick = pickers;
}

/** The pickers shown again (the game stays below them until another is opened). */
function pickers() {
  document.body.classList.remove("playing");
  drawPuzzles(); // a puzzle just solved shows as solved
  $("#load").hidden = false;
  $("#end").hidden = true;
  window.scrollTo(0, 0);
  const shown = document.querySelector("nav .tab.on"); // the picker last used, pressed again
  shown.setAttribute("aria-pressed", "true");
  shown.focus();
}

function start() {
  tabs();
  bind();
  choices();
  $("#tab-puzzle").onsubmit = listPuzzles;
  $("#tab-puzzle input[name=unsolved]").onchange = drawPuzzles;
  $("#puzzle-prev").onclick = () => { puzzlePage -= 1; drawPuzzles(); };
  $("#puzzle-next").onclick = () => { puzzlePage += 1; drawPuzzles(); };
  $("#puzzle-list").onclick = (event) => {
    const button = event.target.closest("button[data-puzzle]");
    if (button) game.openGame({ kind: "board", source: { puzzle: button.dataset.puzzle }, moves: [], hints: 0 });
  };
  $("#tab-seed").onsubmit = (event) => {
    event.preventDefault();
    const form = event.target;
    const source = { seed: number(form, "seed"), players: number(form, "players"), rules: form.elements.rules.value };
    game.openGame({ kind: "board", source, moves: [], hints: 0 });
  };
  $("#tab-text").onsubmit = async (event) => {
    event.preventDefault();
    const form = event.target;
    const file = form.elements.file.files[0];
    const text = file ? await file.text() : form.elements.text.value;
    if (!text.trim()) return game.attempt(() => { throw new Error("paste a game or choose a file first"); });
    const opened = await game.attempt(() => api.call("POST", "/api/board", { text }));
    if (opened) game.openGame({ kind: "board", source: { position: opened.position_text }, moves: [], hints: 0 });
  };
  $("#tab-table").onsubmit = (event) => {
    event.preventDefault();
    const form = event.target;
    const source = { seed: number(form, "seed"), players: number(form, "players"), rules: form.elements.rules.value };
    game.openGame({ kind: "table", source, seat: number(form, "seat"), bots: form.elements.bots.value, delay: number(form, "delay"), moves: [], hints: 0 });
  };
  window.addEventListener("popstate", () => game.restore());
  window.tranquility = { state }; // for the browser tests and the curious: read it, do not write it
  listPuzzles();
  game.restore().finally(() => (document.body.dataset.ready = "1"));
}

start();
