// Never lose a game: the game in progress is kept in localStorage after every
// move (its link, game, seat names, moves, when), and a short list of
// unfinished and recent games is offered on the home page. (A worker that
// stopped is restarted by engine.js: request(call, args, {retry: true}).)
//
// Storage may be refused (private mode, quota, blocked cookies): every access
// is caught, the problem is reported once, and play goes on without it.

import { h } from "./dom.js";

const KEY = "quetgames.saved.v1";
export const SAVED_LIMIT = 20;

let problem = null; // the first storage failure, in words
const problemListeners = new Set();

/** Call listener(text) once if storage fails (at once if it already has). */
export function onStorageProblem(listener) {
  if (problem) listener(problem);
  else problemListeners.add(listener);
}

function report(error) {
  if (problem) return;
  const full = error?.name === "QuotaExceededError" || /quota/i.test(String(error?.message));
  problem = full
    ? "This browser's storage for the site is full, so games are not being saved here. The link in the address bar still holds the game."
    : "This browser does not let the site store anything (private mode or blocked storage), so games are not being saved here. The link in the address bar still holds the game.";
  for (const listener of problemListeners) listener(problem);
  problemListeners.clear();
}

/** JSON value of a localStorage key, or `fallback` (also when storage fails). */
export function readStored(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text == null ? fallback : JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) report(error);
    return fallback;
  }
}

/** Store a JSON value; false (reported once) if the browser refuses. */
export function writeStored(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch (error) {
    report(error);
    return false;
  }
}

// -- the list of saved games ---------------------------------------------------------
//
// Every entry is checked when the list is read: one that is not an object, lacks
// a field or has one of the wrong type is set aside (kept, as it was, under
// DAMAGED_KEY: nothing is destroyed), and so is one whose record the engine
// refuses, once the engine is up (checkSavedRecords). The page then says so in
// words (damagedNote); every other saved game stays as it was.

const DAMAGED_KEY = "quetgames.damaged.v1";
const DAMAGED_LIMIT = 50;
const MAX_TEXT = 100_000; // a record or link: the engine's own record limit
let setAside = 0; // entries set aside since the page loaded
const engineChecked = new Set(); // "id record" of entries the engine has read
const REFUSALS = new Set(["InvalidRecord", "IllegalMove", "InvalidOptions", "BadRequest"]); // the engine's "no" to a record

const isText = (v, max = 200) => typeof v === "string" && v.length <= max;
const isTexts = (v) => Array.isArray(v) && v.length <= 50 && v.every((x) => isText(x));

/** Why `e` is not a saved game as saveGame() writes it, in words; null if it is one. */
export function entryProblem(e) {
  if (!e || typeof e !== "object" || Array.isArray(e)) return "not an object";
  const checks = [
    ["id", isText(e.id, 64) && e.id !== ""],
    ["link", isText(e.link, MAX_TEXT) && e.link !== ""],
    ["record", isText(e.record, MAX_TEXT) && e.record !== ""],
    ["game", isText(e.game, 40)],
    ["name", isText(e.name)],
    ["seats", isTexts(e.seats) && e.seats.length > 0],
    ["players", e.players === undefined || (isTexts(e.players) && e.players.length === e.seats?.length)],
    ["result", e.result === undefined || isText(e.result)],
    ["status", e.status === undefined || isText(e.status, 1000)],
    ["moves", Number.isInteger(e.moves) && e.moves >= 0],
    ["history", Array.isArray(e.history) && e.history.every((m) => isText(m))],
    ["over", typeof e.over === "boolean"],
    ["at", Number.isFinite(e.at)],
    ["linkSeat", e.linkSeat == null || Number.isInteger(e.linkSeat)],
    ["started", e.started === undefined || typeof e.started === "boolean"],
  ];
  const bad = checks.filter(([, ok]) => !ok).map(([name]) => name);
  return bad.length ? `its ${bad.join(", ")} ${bad.length === 1 ? "is" : "are"} missing or not what a saved game holds` : null;
}

/** Keep entries that could not be read under DAMAGED_KEY ({at, why, raw}), newest first. */
function putAside(items) {
  if (items.length === 0) return;
  const kept = readStored(DAMAGED_KEY, []);
  const list = [...items.map(({ raw, why }) => ({ at: Date.now(), why, raw })), ...(Array.isArray(kept) ? kept : [])];
  writeStored(DAMAGED_KEY, list.slice(0, DAMAGED_LIMIT));
  setAside += items.length;
}

/** Every well-formed entry of the stored list; anything else is set aside here and now. */
function readList() {
  let text;
  try {
    text = localStorage.getItem(KEY);
  } catch (error) {
    report(error);
    return [];
  }
  if (text == null) return [];
  let list;
  try {
    list = JSON.parse(text);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list)) {
    putAside([{ raw: text, why: "the list of saved games is not a list" }]);
    writeStored(KEY, []);
    return [];
  }
  const good = [];
  const bad = [];
  for (const entry of list) {
    const why = entryProblem(entry);
    if (why) bad.push({ raw: entry, why });
    else good.push(entry);
  }
  if (bad.length) {
    putAside(bad);
    writeStored(KEY, good);
  }
  return good;
}

/** Set aside the saved game `id` (whose record the engine refuses: `why`). */
function setAsideSaved(id, why) {
  const list = readList();
  const found = list.find((e) => e.id === id);
  if (!found) return;
  putAside([{ raw: found, why }]);
  writeStored(KEY, list.filter((e) => e !== found));
}

/**
 * Ask the engine to read each saved game's record (once per page load); one it
 * refuses (InvalidRecord and the like: its reason in words) is set aside.
 * ask(call, args): the engine. Resolves to how many were set aside.
 */
export async function checkSavedRecords(ask) {
  let count = 0;
  for (const entry of readList()) {
    const key = `${entry.id} ${entry.record}`;
    if (engineChecked.has(key)) continue;
    try {
      await ask("open", { record: entry.record });
      engineChecked.add(key);
    } catch (error) {
      // a worker that failed is no verdict on the record: only the engine's refusal is
      if (!REFUSALS.has(error?.type)) continue;
      setAsideSaved(entry.id, `the engine refused its record: ${error.message}`);
      count += 1;
    }
  }
  return count;
}

/** The plain-words note after saved games were set aside (null if none was). */
export function damagedNote() {
  if (setAside === 0) return null;
  const text = setAside === 1
    ? "One saved game could not be read and was set aside. Your other saved games are as they were."
    : `${setAside} saved games could not be read and were set aside. Your other saved games are as they were.`;
  return h("p", { class: "message damaged-note", role: "status", dataset: { kind: "warning", damaged: String(setAside) } }, text);
}

/** Saved games, newest first; an entry without a move (kept by older versions
 * at every Start) is not a game to come back to, so it is left out. (A hot-seat
 * pick still secret is a move, though the public history does not show it.) */
export function savedGames() {
  return readList().filter((e) => e.moves !== 0 || e.started).sort((a, b) => b.at - a.at);
}

export function newSaveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The moves part of a record ("" before the first move). */
function movesOf(record) {
  return String(record).split(".")[3] ?? "";
}

const LEVEL_WORDS = { random: "easy", greedy: "medium", strong: "hard" };

/** Who plays a seat, in words: "Ann", "Player 2", "computer (hard)", "Ann (computer, hard)". */
export function seatWords(seat, i) {
  const kind = seat?.kind ?? "human";
  if (kind === "human") return seat?.name || `Player ${i + 1}`;
  const level = LEVEL_WORDS[kind] ?? kind;
  // the view names an unnamed seat "Player 2"; a computer there is just "computer"
  const named = seat?.name && seat.name !== `Player ${i + 1}`;
  return named ? `${seat.name} (computer, ${level})` : `computer (${level})`;
}

/** How a game stands, in words: "in progress", "Player 2 won 7–6",
 * "Ann and Bob shared the win 5–5". Scores are given highest first. */
export function resultWords(view) {
  if (!view.is_over) return "in progress";
  const names = view.seats.map((s, i) => s.name || `Player ${i + 1}`);
  const winners = view.winners ?? [];
  const scores = Array.isArray(view.scores) && view.scores.length ? ` ${[...view.scores].sort((a, b) => b - a).join("–")}` : "";
  if (winners.length === 1) return `${names[winners[0]]} won${scores}`;
  if (winners.length > 1) return `${winners.map((w) => names[w]).join(" and ")} shared the win${scores}`;
  return `over${scores}`;
}

/**
 * Keep a game: {id, link (the fragment), view (the public view), linkSeat}.
 * A game is kept once it has a move (a game taken back to no move is dropped).
 * Unfinished games are kept before finished ones when the list is full.
 */
export function saveGame({ id, link, view, linkSeat = null, hidden = false }) {
  // a move: in the public history, or kept secret in the record, in the link
  // (a sealed pick), or on this device only (`hidden`: a hot-seat pick kept
  // out of the public record)
  const started = hidden || view.history.length > 0 || movesOf(view.record) !== "" || link !== view.record;
  if (!started) {
    return savedGames().some((e) => e.id === id) ? deleteSaved(id) : true;
  }
  const entry = {
    id, link, record: view.record, game: view.game, name: view.name,
    seats: view.seats.map((s, i) => s.name || `Player ${i + 1}`),
    players: view.seats.map(seatWords), result: resultWords(view),
    moves: view.history.length, history: view.history, over: view.is_over, status: view.status,
    linkSeat, started: true, at: Date.now(),
  };
  const others = savedGames().filter((e) => e.id !== id);
  const list = [entry, ...others];
  while (list.length > SAVED_LIMIT) {
    const finished = list.findLastIndex((e) => e.over);
    list.splice(finished > 0 ? finished : list.length - 1, 1);
  }
  return writeStored(KEY, list);
}

export function deleteSaved(id) {
  return writeStored(KEY, savedGames().filter((e) => e.id !== id));
}

/** The newest unfinished game, if any. */
export function lastUnfinished() {
  return savedGames().find((e) => !e.over) ?? null;
}

// -- on the home page --------------------------------------------------------------------

function when(at) {
  const seconds = Math.max(0, (Date.now() - at) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(at).toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" });
}

function savedRow(entry, onDelete) {
  const names = (Array.isArray(entry.players) ? entry.players : entry.seats).join(" vs ");
  const moves = `${entry.moves} ${entry.moves === 1 ? "move" : "moves"}`;
  const result = typeof entry.result === "string" ? entry.result : entry.over ? "finished" : "in progress";
  return h("li", { class: "saved-game", dataset: { id: entry.id, game: entry.game, over: entry.over ? "yes" : "no" } },
    h("div", { class: "saved-text" },
      h("strong", { class: "saved-name" }, entry.name),
      h("span", { class: "saved-seats" }, names),
      h("span", { class: "saved-meta" }, h("span", { class: "saved-result" }, result), ` · ${moves} · `,
        h("time", { datetime: new Date(entry.at).toISOString() }, when(entry.at)))),
    h("div", { class: "saved-buttons" },
      h("a", { class: entry.over ? "button secondary resume" : "button resume", href: `#${entry.link}` },
        entry.over ? "Look again" : "Resume", h("span", { class: "visually-hidden" }, ` ${entry.name}: ${names}`)),
      h("button", {
        type: "button", class: "secondary delete", "aria-label": `Delete the saved game of ${entry.name}: ${names}`,
        onclick: () => onDelete(entry),
      }, "Delete")));
}

/** "Your games": unfinished first, then recent finished ones; null when none. */
export function savedGamesPanel({ onDelete }) {
  const entries = savedGames();
  if (entries.length === 0) return null;
  const unfinished = entries.filter((e) => !e.over);
  const finished = entries.filter((e) => e.over);
  const group = (title, list) => list.length === 0 ? null : [
    h("h3", {}, title),
    h("ul", { class: "saved-list" }, list.map((e) => savedRow(e, onDelete))),
  ];
  return h("section", { class: "saved-games", id: "saved-games", "aria-labelledby": "saved-title" },
    h("h2", { id: "saved-title" }, "Your games"),
    h("p", { class: "hint" }, "Kept in this browser only, after every move."),
    group("Unfinished", unfinished),
    group("Recent", finished));
}
