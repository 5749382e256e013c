// The embed's poster position: a still view of the position an embed opens
// at, carried in the embed's own address so that its poster shows the real
// board before any Python loads.
//
// The page that makes a snippet has the engine running: it asks the engine's
// view of the position, keeps what a still drawing needs (stillView), and
// writes it compressed (deflate-raw, then base64url) after the record in the
// fragment: `embed.html?…#<record>!poster.<payload>`. The fragment never
// reaches the host's server (no long request line, no 414), and "!" occurs in
// no record and no puzzle id, so splitFragment() finds it. An address without
// it (every snippet made before) still works: its poster has words and no board.
//
// Everything in a fragment is untrusted: readPoster() caps the payload, its
// expansion, its depth, its numbers and the sizes boards loop over, checks it
// was made for this very record and move, and else says in words why not. The
// engine's own view replaces the poster once the reader starts the game.

import { stillUi } from "../boards/index.js";

export const POSTER_MARK = "!poster.";
// Some apps refuse or cut text this long (docs/RECORD.md, "Long links"):
// Discord sends at most 2,000 characters in a message, Telegram 4,096, and
// old browsers and some link checkers stop at 2,083 characters of address.
// A poster is added to a link only while the link stays within it (still.js).
export const LONG_LINK = 2000;
export const MAX_PAYLOAD = 8000; // characters of base64url: 6 kB of deflate (a 26 × 26 grid needs about 1.5 kB)
const MAX_JSON = 64 * 1024; // characters once expanded
const MAX_DEPTH = 8;
const MAX_VALUES = 20_000; // numbers, strings and the like in the whole view
const MAX_TEXT = 2000; // characters of one string (a status line, a seat's name)
const MAX_NUMBER = 2 ** 31; // a pick is at most 1,000,000, a seed below 2^31
// Numbers a board draws one thing per unit of (squares to a side, wedges,
// rings, rounds): a forged 10^9 there would hang the frame. No game comes near.
const LOOP_BOUNDS = { size: 64, rays: 64, ring_count: 64, rounds: 200, max_rounds: 64 };
const VERSION = 1;

// Top-level fields of a view that a still board, its status line and its
// players need; the rest (the move list, the record, the legal moves, notes)
// is for playing on and stepping through, which a poster does not do.
const KEEP = ["game", "name", "inventor", "seats", "to_move", "is_over", "scores", "winners", "standing", "status", "end_reason", "board", "choosing", "sealing"];
// Board fields only a live board reads (what each legal square would do, the
// picks that would score): emptied, so that a board reading them finds none.
const LIVE_ONLY = { targets: {}, candidates: {}, scoring_picks: null };

export class PosterError extends Error {}

/** {record, poster}: the fragment's record (or puzzle id) and the poster payload after it, if any. */
export function splitFragment(text) {
  const value = String(text ?? "");
  const at = value.indexOf(POSTER_MARK);
  if (at < 0) return { record: value, poster: null };
  return { record: value.slice(0, at), poster: value.slice(at + POSTER_MARK.length) };
}

/** The fragment for `record` with its poster payload, if one was made. */
export function joinFragment(record, poster) {
  return poster ? `${record}${POSTER_MARK}${poster}` : record;
}

/** What a poster is made for: a short digest of the record (or puzzle id),
 * so a poster is never shown beside another game. (FNV-1a: a check against
 * mix-ups, not against forgery; the engine has the last word on Start.) */
export function posterKey(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** The engine's view trimmed to what a still drawing of it needs. */
export function stillView(view) {
  const still = {};
  for (const key of KEEP) if (key in view) still[key] = view[key];
  still.legal_moves = [];
  still.record = "";
  if (view.board && typeof view.board === "object" && !Array.isArray(view.board)) {
    const board = { ...view.board };
    for (const [key, empty] of Object.entries(LIVE_ONLY)) {
      if (!(key in board)) continue;
      if (empty == null) delete board[key];
      else board[key] = empty;
    }
    // (the legal moves are not carried: a board that says whether they are
    // listed is told they are not, as the engine tells it of a ring with too
    // many to list, so it lays out what it offers the player in the same room)
    if ("legal_listed" in board && view.legal_moves?.length) board.legal_listed = false;
    still.board = board;
  }
  return still;
}

function toBase64url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(plain.length);
  for (let i = 0; i < plain.length; i++) bytes[i] = plain.charCodeAt(i);
  return bytes;
}

/**
 * The payload for `view` (the engine's view of the position the embed opens
 * at), made for `key` (the record or puzzle id) at move `ply` of `plies`
 * (null for a puzzle); null where this browser cannot compress or the
 * payload would be too long to carry.
 */
export async function makePoster(view, { key, ply = null, plies = null }) {
  if (typeof CompressionStream !== "function" || !view?.board) return null;
  const text = JSON.stringify({ v: VERSION, key: posterKey(key), ply, plies, view: stillView(view) });
  if (text.length > MAX_JSON) return null;
  const packed = new Uint8Array(await new Response(
    new Blob([new TextEncoder().encode(text)]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  const payload = toBase64url(packed);
  return payload.length <= MAX_PAYLOAD ? payload : null;
}

/** The payload's text, expanded; never more than MAX_JSON characters. */
async function expand(payload) {
  if (typeof DecompressionStream !== "function") throw new PosterError("this browser cannot read it");
  let bytes;
  try {
    bytes = fromBase64url(payload);
  } catch {
    throw new PosterError("it is not in the usual form");
  }
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > MAX_JSON) {
        reader.cancel().catch(() => {});
        throw new PosterError("it expands to far more than a position needs");
      }
    }
    text += decoder.decode();
  } catch (error) {
    if (error instanceof PosterError) throw error;
    throw new PosterError("it is damaged (it does not expand)");
  }
  return text;
}

/** Throws a PosterError unless every part of `value` is within the caps. */
function checkShape(value) {
  let count = 0;
  const walk = (node, depth, key) => {
    if (++count > MAX_VALUES) throw new PosterError("it holds far more than a position needs");
    if (node === null || typeof node === "boolean") return;
    if (typeof node === "number") {
      if (!Number.isFinite(node) || Math.abs(node) > MAX_NUMBER) throw new PosterError("it holds a number no position has");
      if (Object.hasOwn(LOOP_BOUNDS, key) && !(Number.isInteger(node) && node >= 0 && node <= LOOP_BOUNDS[key])) {
        throw new PosterError(`its board's ${key} is out of range`);
      }
      return;
    }
    if (typeof node === "string") {
      if (node.length > MAX_TEXT) throw new PosterError("it holds a text far too long");
      return;
    }
    if (depth >= MAX_DEPTH) throw new PosterError("it is nested too deeply");
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1, "");
      return;
    }
    for (const [name, item] of Object.entries(node)) walk(item, depth + 1, name);
  };
  walk(value, 0, "");
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * The still view in `payload`, if it is one made for `key` (the record or
 * puzzle id the frame holds) at move `ply` (null: a puzzle) of the game `game`
 * (its id, from the site's catalog). Throws a PosterError whose message says
 * in words what is wrong ("it is damaged", "it was made for another game", …).
 */
export async function readPoster(payload, { key, ply = null, game }) {
  return (await readPosterData(payload, { key, ply, game })).view;
}

/** readPoster's still view with the number of moves of its record: {view, plies} (plies null for a puzzle). */
export async function readPosterData(payload, { key, ply = null, game }) {
  if (typeof payload !== "string" || payload === "") throw new PosterError("it is empty");
  if (payload.length > MAX_PAYLOAD) throw new PosterError(`it is too long (${payload.length.toLocaleString("en")} characters; at most ${MAX_PAYLOAD.toLocaleString("en")})`);
  if (!/^[A-Za-z0-9_-]+$/.test(payload)) throw new PosterError("it is not in the usual form");
  const text = await expand(payload);
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new PosterError("it is damaged (not a position)");
  }
  checkShape(data);
  if (!isObject(data) || data.v !== VERSION) throw new PosterError("it was made by another version of Quet Games");
  if (data.key !== posterKey(key)) throw new PosterError("it was made for another game");
  // (no move asked, or one past the end: the game as it stands, as the embed opens it)
  const asStands = ply == null || (Number.isInteger(data.plies) && ply > data.plies);
  if (ply !== data.ply && !(asStands && data.ply === data.plies)) throw new PosterError("it shows another move of this game");
  const view = stillShape(data.view, game);
  // (a puzzle's poster has no moves to count: null)
  if (data.plies !== null && !(Number.isInteger(data.plies) && data.plies >= 0)) throw new PosterError("it is damaged (not a position)");
  return { view, plies: data.plies };
}

/** `view` if it has the shape of a still view of the game `game`, else a PosterError. */
function stillShape(view, game) {
  if (!isObject(view) || !isObject(view.board) || !Array.isArray(view.seats) || !Array.isArray(view.to_move)
      || !Array.isArray(view.scores) || !Array.isArray(view.winners) || typeof view.is_over !== "boolean") {
    throw new PosterError("it is damaged (not a position)");
  }
  if (view.game !== game) throw new PosterError("it shows another game");
  return view;
}

/** A still view kept elsewhere (this device's last view of a game, still.js),
 * checked as a poster's is: within the caps, of the game `game`. */
export function checkStill(view, game) {
  checkShape(view);
  return stillShape(view, game);
}

/** The still board of `view` drawn by its board module, with nothing that plays. */
export function drawStill(module, view) {
  const board = module.render(view, stillUi());
  if (!(board instanceof Element)) throw new PosterError("its board could not be drawn");
  for (const el of board.querySelectorAll("[data-move], [data-try]")) {
    el.removeAttribute("data-move");
    el.removeAttribute("data-try");
  }
  return board;
}

/** How much a reader downloads on Start, in words ("3.5 MB"), from the
 * build's build.json: the sum of the files the engine's worker fetches
 * (pyodide_files), worded as its loading bar words it (worker.js), so the
 * dialog, the poster and the bar give one figure. Null if `info` has no list. */
export function downloadWords(info) {
  const files = info && typeof info === "object" ? info.pyodide_files : null;
  if (!files || typeof files !== "object") return null;
  const bytes = Object.values(files).reduce((sum, file) => sum + (Number.isFinite(file?.size) ? file.size : 0), 0);
  return bytes > 0 ? `${(bytes / 1e6).toFixed(1)} MB` : null;
}
