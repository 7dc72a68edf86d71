// The game lives in the page's address (after the #), so that a reload, Back and Forward, a
// bookmark or a link brings it back; the server's copy is only a cache of it. A game is
// {kind, source, moves, hints} and, at a table, {seat, bots, delay}: `source` is how it
// began (a puzzle, a seeded deal, or a position's text) and `moves` the moves since, in the
// notation (at a table only the person's own: its moves, "give:12,44", "rocks:3"; the
// bots, seeded, play theirs again).

const SOURCE_KEYS = ["puzzle", "seed", "players", "rules", "position"];
const NUMBERS = ["seed", "players", "seat", "delay", "hints"];

export function read(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const source = {};
  for (const key of SOURCE_KEYS) if (params.has(key)) source[key] = NUMBERS.includes(key) ? Number(params.get(key)) : params.get(key);
  if (!Object.keys(source).length) return null;
  const moves = (params.get("moves") || "").split(" ").filter(Boolean);
  const game = { kind: params.has("table") ? "table" : "board", source, moves, hints: Number(params.get("hints") || 0) };
  if (game.kind === "table") {
    game.seat = Number(params.get("seat") || 0);
    game.bots = params.get("bots") || "tuned";
    game.delay = Number(params.get("delay") ?? 700);
  }
  return game;
}

export function text(game) {
  const params = new URLSearchParams();
  if (game.kind === "table") params.set("table", "1");
  for (const [key, value] of Object.entries(game.source)) params.set(key, value);
  if (game.kind === "table") {
    params.set("seat", game.seat);
    params.set("bots", game.bots);
    params.set("delay", game.delay);
  }
  if (game.hints) params.set("hints", game.hints);
  if (game.moves.length) params.set("moves", game.moves.join(" "));
  return "#" + params.toString().replace(/%40/g, "@").replace(/%2C/g, ",").replace(/%7C/g, "|").replace(/%2F/g, "/").replace(/%3A/g, ":").replace(/%3D/g, "=");
}

/** Keep `game` in the address: a new entry of the history (`push`) or in place. */
export function write(game, push) {
  const hash = text(game);
  if (hash === location.hash) return;
  if (push) history.pushState(null, "", hash);
  else history.replaceState(null, "", hash);
}

/** The request body that opens the game's beginning on the server. */
export function opening(game) {
  const body = { ...game.source };
  if (game.kind === "table") Object.assign(body, { seat: game.seat, bots: game.bots });
  return body;
}

export function sameStart(a, b) {
  return Boolean(a && b) && a.kind === b.kind && JSON.stringify(opening(a)) === JSON.stringify(opening(b));
}
