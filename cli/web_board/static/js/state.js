// The page's one state object and the questions asked of it; no drawing and no requests
// here. The server sends the game as a `view`; what the player is doing with it (a card
// chosen, a payment being picked) is the `mode`.

export const NAMES = { S: "Start", F: "Finish", M: "Sea Monster" };

export const state = {
  view: null, // the game as the server last sent it; its `id` names the server's copy
  game: null, // the game as the address holds it (address.js): where it began, the moves
  base: 0, // turns the server's copy had when the address's moves begin
  mode: null, // null, or {kind: "card" | "pay" | "discard" | "start" | "give", ...}
  cursor: 0, // the grid cell the keyboard is on
  verdicts: null, // the every-move list: {key, rows} for the position named by key
  job: null, // the long job under way: {id, kind, source}
  numbers: false, // cell numbers and ranges shown
  seen: 0, // history entries already told
  placed: null, // the cell of the move just made, drawn arriving
  keyboard: false, // the last input was a key: focus follows the play
  ended: false, // the end-of-game screen was shown for this game
  thinking: false, // a hint is under way
};

export function cardName(card) {
  return NAMES[card] || String(card);
}

export function over(view = state.view) {
  return view.kind === "table" ? view.over : view.status !== "open";
}

/** Whether the person may act now (a table: its own turn, outside the Start event). */
export function canAct(view = state.view) {
  if (over(view)) return false;
  return view.kind === "board" || (view.my_turn && !view.start);
}

/** A position's name: the verdict list and the checks belong to it alone. */
export function positionKey(view = state.view) {
  return `${view.id} ${view.turn} ${view.history.map((h) => h.notation).join(" ")}`;
}

/** The legal moves of the card at hand index `index`, keyed by cell (null: no cell). */
export function targetsOf(card) {
  const found = new Map();
  for (const move of state.view.moves) if (move.card === card && move.kind !== "discard" && !found.has(move.cell)) found.set(move.cell, move);
  return found;
}

/** The moves that differ from the mode's only in where the manual Jagged Rocks go. */
export function variants(mode) {
  const moves = state.view.moves;
  if (mode.kind === "discard") {
    const pair = mode.picked.map((i) => state.view.hand[i]);
    return mode.picked.length === 2 ? moves.filter((m) => m.kind === "discard" && sameCards(m.action.discard, pair)) : [];
  }
  if (mode.kind === "pay") return moves.filter((m) => m.kind === mode.move.kind && m.card === mode.move.card && m.cell === mode.move.cell);
  return [mode.move];
}

/** The rows the manual Jagged Rocks may go to with the mode's move, as the choices the
 * panel offers: [value, words], "stay" too when a listed move keeps them where they are. */
export function rocksChoices(mode) {
  const found = variants(mode).filter((m) => m.action.rocks !== undefined);
  if (!found.length) return [];
  const rows = new Set((state.view.rock_rows || []).map(String));
  for (const m of found) if (m.action.rocks !== "stay") rows.add(String(m.action.rocks));
  const choices = [...rows].sort((a, b) => a - b).map((r) => [r, `move to row ${r}`]);
  const stay = found.find((m) => m.action.rocks === "stay");
  if (stay) choices.unshift(["stay", `stay where they are, paying ${(stay.action.rocks_discard || []).join(", ")}`]);
  return choices;
}

/** The rocks choice shown: the player's, else the listed move's. */
export function rocksChosen(mode) {
  const found = variants(mode);
  return mode.rocks !== undefined ? mode.rocks : found.length && found[0].action.rocks !== undefined ? String(found[0].action.rocks) : undefined;
}

/** The mode's move as an action, with the rocks where the player sent them. */
export function chosenAction(mode) {
  const found = variants(mode);
  if (!found.length) return null;
  const chosen = rocksChosen(mode);
  const listed = found.find((m) => String(m.action.rocks) === chosen) || found[0];
  const action = JSON.parse(JSON.stringify(listed.action));
  if (chosen !== undefined && chosen !== "stay") {
    action.rocks = Number(chosen);
    delete action.rocks_discard;
  }
  return action;
}

/** The cell a token names (41@20-3, M@7), or null. */
export function cellOf(token) {
  const found = /^(?:\d+|M)@(\d+)/.exec(token || "");
  return found ? Number(found[1]) : null;
}

/** Hand indexes holding `cards` (a multiset), none of them in `skip`. */
export function indexesOf(hand, cards, skip = []) {
  const taken = new Set(skip);
  const found = [];
  for (const card of cards) {
    const at = hand.findIndex((c, i) => !taken.has(i) && String(c) === String(card));
    if (at >= 0) {
      taken.add(at);
      found.push(at);
    }
  }
  return found;
}

function sameCards(a, b) {
  return JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());
}

/** The Start event's round the team chooses in: each seat's hand for it, the cards owed
 * and those the forced rounds before it discard (docs/rules.md: a solo Start). */
export function startRound(move) {
  if (move.start) return move.start;
  const hands = state.view.hands.map((hand, seat) => (seat === move.action.seat ? hand.filter((c, i) => i !== hand.indexOf("S")) : hand));
  return { hands, owed: move.cost, forced: [] };
}

/** The mode that shows `action` (a full action object) ready to play: the hint's move,
 * or a row of the verdict list, previewed before it is played. */
export function modeFor(action, extra = {}) {
  const hand = state.view.hand;
  const rocks = action.rocks === undefined ? undefined : String(action.rocks);
  if (action.play === undefined) return { kind: "discard", picked: indexesOf(hand, action.discard), rocks, ...extra };
  const index = hand.findIndex((c) => String(c) === String(action.play));
  const move = state.view.moves.find((m) => m.card === action.play && (m.cell ?? null) === (action.cell ?? null));
  if (!move) return null;
  if (move.kind === "start" && state.view.kind === "board") {
    const hands = startRound(move).hands;
    const picked = hands.map((hand, seat) => indexesOf(hand, (action.team_discard || [])[seat] || []));
    return { kind: "start", move, picked, ...extra };
  }
  const paid = indexesOf(hand, action.discard || [], [index]);
  return { kind: "pay", index, card: action.play, move, paid, rocks, ...extra };
}
