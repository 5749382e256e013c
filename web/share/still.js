// A game's position before the engine has arrived: the board a link or this
// device already knows, drawn at once by the game view (view/still.js) and
// replaced by the engine's own view as soon as it is up.
//
// Two sources, both the engine's output, read back as untrusted display data:
//  - the link's poster: a link the site hands out carries the position it
//    shows after its record, `#<record>!poster.<payload>` (poster.js), made
//    for that very record;
//  - the last view this device showed of a game, saved or only opened here
//    (localStorage, one key per game id, named with the poster key of the
//    record it shows, so a link is matched by its key's name without reading
//    every kept view).
// Nothing here decides a rule: what is drawn is what the engine said, and the
// engine has the last word once it is up (the game view then draws its view).

import { checkStill, joinFragment, LONG_LINK, makePoster, PosterError, posterKey, readPosterData, stillView } from "./poster.js";

const PREFIX = "quetgames.still.";
const MAX_KEPT = 120; // games' views kept, the oldest dropped first (the saved games' own limit is 100)
const MAX_TEXT = 64 * 1024;

// -- the link's poster ------------------------------------------------------------------

/**
 * The fragment to hand out for `record` (the public record of the game as it
 * stands, whose public view is `view`): the record with its poster, or the
 * record alone where a poster cannot be made or would take the link past
 * LONG_LINK characters (a poster is a help, never a reason for a link to fail).
 * `base`: the address the link is made from.
 */
export async function linkWithPoster(record, view, base = location.href) {
  let payload = null;
  try {
    const plies = view.history.length;
    payload = await makePoster(view, { key: record, ply: plies, plies });
  } catch {
    payload = null;
  }
  const fragment = joinFragment(record, payload);
  return new URL(`#${fragment}`, base).href.length <= LONG_LINK ? fragment : record;
}

/**
 * What to draw for `record` before the engine is up: the link's position
 * (stillPosition), else the game's page with its name and players and the
 * board's room kept (sketch). `shown`: the record read for display, {game,
 * seats} (shell/loading.js linkForDisplay), or null. Resolves to {record, view,
 * plies, from} for view/still.js, or null when nothing of it can be read.
 */
export async function firstPosition(record, payload, shown) {
  const still = shown ? await stillPosition(record, payload, shown.game.id) : null;
  if (still?.view) return still;
  return shown ? sketch(record, shown, still?.problem ?? null) : null;
}

/**
 * The game's page for a link whose position is not known yet (no poster, not
 * held here): a view with the game's name and the link's players only, whose
 * board region keeps the board's room and says the position is on its way
 * (`problem`: why the link's poster could not be used, if it had one).
 */
function sketch(record, { game, seats }, problem) {
  const players = seats ?? [{ name: "Player 1" }, { name: "Player 2" }];
  return {
    record, plies: 0, from: "words",
    view: {
      game: game.id, name: game.name, inventor: game.inventor ?? "Leroy Quet", to_move: [], is_over: false,
      status: `Opening this game of ${game.name}: the position is on its way while the game engine loads.`,
      // (a computer seat's level is the engine's to word: it comes with the position)
      seats: players.map((seat) => ({ name: seat.name })), scores: [], winners: [], standing: players.map(() => "…"), board: null,
      wait: problem ? `The position in this link's address cannot be shown (${problem}); the game engine will show it.` : null,
    },
  };
}

/**
 * The position to draw for `record` before the engine is up: from the link's
 * poster `payload`, else from the view this device kept of that very record.
 * `game`: the game the link names (its id), read from the record for display.
 * Resolves to {record, view, plies, from: "link" | "device"}, or {problem} in
 * words when the link's poster is unusable and nothing else is known, or null.
 */
export async function stillPosition(record, payload, game) {
  let problem = null;
  if (payload != null && game) {
    try {
      const { view, plies } = await readPosterData(payload, { key: record, game });
      if (plies != null) return { record, view, plies, from: "link" };
      problem = "it was made for a puzzle";
    } catch (error) {
      problem = error instanceof PosterError ? error.message : "it could not be read";
    }
  }
  const kept = keptView(record, game);
  if (kept) return kept;
  return problem ? { problem } : null;
}

// -- the view kept on this device -----------------------------------------------------------

const keysOf = (id) => {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(PREFIX) && (id == null || key.startsWith(`${PREFIX}${id}.`))) keys.push(key);
    }
  } catch {
    // storage closed to this page: nothing is kept
  }
  return keys;
};

/**
 * Keep `view` (the public view of the game `id` as it stands, whose public
 * record is `record`) as the game's last view on this device, in place of the
 * one before. Best effort: storage that refuses it costs only the early board.
 */
export function keepView(id, record, view) {
  if (!id || !view?.board) return;
  try {
    // (the board whole, with its targets, and the legal moves: on this device
    // there is no link to keep short, and a move made on it can wait for the engine)
    const kept = { ...stillView(view), legal_moves: view.legal_moves ?? [], board: view.board };
    const text = JSON.stringify({ record, plies: view.history.length, at: Date.now(), view: kept });
    const key = `${PREFIX}${id}.${posterKey(record)}`;
    for (const old of keysOf(id)) if (old !== key) localStorage.removeItem(old);
    if (text.length > MAX_TEXT) return;
    localStorage.setItem(key, text);
    const all = keysOf(null);
    // (the oldest first: localStorage keeps no order, so the kept time decides;
    // a score at a time, as reading every kept view for its time is not free)
    if (all.length > MAX_KEPT) dropOldest(all, all.length - MAX_KEPT + 20);
  } catch {
    // full, or closed: the game itself is saved apart (saved.js)
  }
}

/** Forget the kept view of the game `id` (its saved game was deleted). */
export function forgetView(id) {
  try {
    for (const key of keysOf(id)) localStorage.removeItem(key);
  } catch {
    // nothing kept
  }
}

function dropOldest(keys, count) {
  const dated = keys.map((key) => {
    let at = 0;
    try {
      at = Number(JSON.parse(localStorage.getItem(key)).at) || 0;
    } catch {
      at = 0;
    }
    return { key, at };
  }).sort((a, b) => a.at - b.at);
  for (const { key } of dated.slice(0, count)) localStorage.removeItem(key);
}

/** The view this device kept of exactly `record`, checked as a poster is: {record, view, plies, from}, or null. */
export function keptView(record, game) {
  const tail = `.${posterKey(record)}`;
  for (const key of keysOf(null)) {
    if (!key.endsWith(tail)) continue;
    try {
      const text = localStorage.getItem(key);
      if (!text || text.length > MAX_TEXT) continue;
      const data = JSON.parse(text);
      if (data?.record !== record || !Number.isInteger(data.plies) || data.plies < 0) continue;
      const view = checkStill(data.view, game);
      return { record, view, plies: data.plies, from: "device" };
    } catch {
      // damaged, or not this game's: the engine's view comes soon enough
    }
  }
  return null;
}
