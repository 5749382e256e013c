// Never lose a game: the game in progress is kept in localStorage after every
// move (its link, game, seat names, moves, when), one key per game, and a
// list of unfinished and recent games is offered on the home page. Another
// tab's save is never overwritten unseen (see "tabs that agree" below; the
// whole scheme in docs/SAVES.md). (A worker that stopped is restarted by
// engine.js: request(call, args, {retry: true}).)
//
// Storage may be refused (private mode, quota, blocked cookies): every access
// is caught, the problem is reported once, and play goes on without it.

import { h } from "../ui/dom.js";
import { forgetView } from "./still.js";

// (a record is at most 100,000 characters, so even this many fits the usual
// 5 MB of localStorage; a fuller storage is said in words, with Export offered)
export const SAVED_LIMIT = 100;

let problem = null; // the first storage failure, in words
let lastFailure = null; // the error of the last write refused

// The last good entry readKey parsed or storeEntry wrote, with its text: read
// again as the same text (the usual case, before and after a move), it is not
// parsed and checked again. (Entries are never changed once made.)
let lastSaved = { key: null, text: null, entry: null };
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
  return writeText(key, JSON.stringify(value));
}

/** Store a value's JSON text, as writeStored. */
function writeText(key, text) {
  try {
    localStorage.setItem(key, text);
    return true;
  } catch (error) {
    lastFailure = error;
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
    ["gameId", e.gameId == null || isText(e.gameId, 64)],
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

// -- one key per saved game ------------------------------------------------------------
//
// Each saved game is its own localStorage key, GAME_PREFIX + its save id, so a
// tab writes only the game it shows: two tabs saving two games at the same
// moment both keep theirs (a whole-list key would keep only the last writer's
// list). The list of older versions (OLD_KEY, one key for every game) is
// copied into per-game keys on first read and then removed; a game found in
// both keeps the newer copy, and the old list stays until every copy is written.

const OLD_KEY = "quetgames.saved.v1";
export const GAME_PREFIX = "quetgames.game.";
const keyOf = (id) => `${GAME_PREFIX}${id}`;

/** The save id a localStorage key holds a game under, or null. */
export function savedIdOfKey(key) {
  return typeof key === "string" && key.startsWith(GAME_PREFIX) ? key.slice(GAME_PREFIX.length) : null;
}

function removeStored(key) {
  try {
    localStorage.removeItem(key);
  } catch (error) {
    report(error);
  }
}

/** Every key of a saved game. */
function gameKeys() {
  const keys = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (savedIdOfKey(key)) keys.push(key);
    }
  } catch (error) {
    report(error);
  }
  return keys;
}

/** One stored game by key: the entry, or {bad: {raw, why}}, or null (none). */
function readKey(key) {
  let text;
  try {
    text = localStorage.getItem(key);
  } catch (error) {
    report(error);
    return null;
  }
  if (text == null) return null;
  if (lastSaved.key === key && lastSaved.text === text) return { entry: lastSaved.entry };
  let entry;
  try {
    entry = JSON.parse(text);
  } catch {
    return { bad: { raw: text, why: "the saved game is not readable text" } };
  }
  const why = entryProblem(entry) ?? (entry.id === savedIdOfKey(key) ? null : "it is kept under another game's name");
  if (why) return { bad: { raw: entry, why } };
  lastSaved = { key, text, entry };
  return { entry };
}

/** The old whole-list key, moved into per-game keys (once; again if an old page wrote it meanwhile). */
function migrateOldList() {
  let text;
  try {
    text = localStorage.getItem(OLD_KEY);
  } catch (error) {
    report(error);
    return;
  }
  if (text == null) return;
  let list;
  try {
    list = JSON.parse(text);
  } catch {
    list = undefined;
  }
  if (!Array.isArray(list)) {
    putAside([{ raw: text, why: "the list of saved games is not a list" }]);
    removeStored(OLD_KEY);
    return;
  }
  const bad = [];
  let written = true;
  for (const entry of list) {
    const why = entryProblem(entry);
    if (why) {
      bad.push({ raw: entry, why });
      continue;
    }
    const held = readKey(keyOf(entry.id));
    if (held?.entry && held.entry.at >= entry.at) continue;
    written = writeStored(keyOf(entry.id), entry) && written;
  }
  putAside(bad);
  // (a copy refused, storage full: the old list stays, and is read again next time)
  if (written) removeStored(OLD_KEY);
}

/** Every well-formed saved game; anything else is set aside here and now. */
function readList() {
  migrateOldList();
  const good = [];
  const bad = [];
  for (const key of gameKeys()) {
    const read = readKey(key);
    if (read?.entry) good.push(read.entry);
    else if (read?.bad) {
      bad.push(read.bad);
      removeStored(key);
    }
  }
  putAside(bad);
  return good;
}

/** The saved game `id` as stored now (null if none, or unreadable). */
export function readSaved(id) {
  return readKey(keyOf(id))?.entry ?? null;
}

/** Set aside the saved game `id` (whose record the engine refuses: `why`). */
function setAsideSaved(id, why) {
  const found = readSaved(id);
  if (!found) return;
  putAside([{ raw: found, why }]);
  removeStored(keyOf(id));
}

/**
 * Ask the engine to read each saved game's record (once per page load); one it
 * refuses (InvalidRecord and the like: its reason in words) is set aside.
 * ask(call, args): the engine. An entry saved before entries kept their
 * game id is given it. Resolves to {setAside, learned}: how many were set
 * aside, and how many learned their game id.
 */
export async function checkSavedRecords(ask) {
  let count = 0;
  let learned = 0;
  for (const entry of readList()) {
    const key = `${entry.id} ${entry.record}`;
    if (engineChecked.has(key)) continue;
    try {
      const opened = await ask("open", { record: entry.record });
      engineChecked.add(key);
      // (entries of older versions learn their game id, so copies of one game can be told apart: savedGamesPanel)
      if (entry.gameId === undefined && readSaved(entry.id)?.record === entry.record) {
        writeStored(keyOf(entry.id), { ...entry, gameId: opened.view?.game_id ?? null });
        learned += 1;
      }
    } catch (error) {
      // a worker that failed is no verdict on the record: only the engine's refusal is
      if (!REFUSALS.has(error?.type)) continue;
      setAsideSaved(entry.id, `the engine refused its record: ${error.message}`);
      count += 1;
    }
  }
  return { setAside: count, learned };
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

/** The save id of a game with a game id in its record ("g" + the id, as the
 * engine's view gives it): one game, one saved entry, in every tab. null for
 * a record made before game ids. */
export function gameSaveId(view) {
  const id = view?.game_id;
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,40}$/.test(id) ? `g${id}` : null;
}

/** Where a game not yet saved is saved: under its game id, else a fresh id. */
export function saveIdFor(view) {
  return gameSaveId(view) ?? newSaveId();
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

// -- tabs that agree --------------------------------------------------------------------
//
// Another tab may show the same saved game. Each tab remembers the record it
// last wrote (or took from another tab) for each saved game; a save finds the
// stored record still that one, or it is not written: another tab moved the
// game on meanwhile, and the player is asked (onSaveConflict). tabs.js brings
// a tab up to date as soon as another one saves.

const known = new Map(); // save id -> the record this tab last knew stored
const conflictListeners = new Set();
const outcomeListeners = new Set();
const unsaved = new Map(); // save id -> the entry storage refused (for Export)

/** This tab now holds the saved game `id` as `record` (taken from another tab). */
export function knowSaved(id, record) {
  known.set(id, record);
}

/** Whether another tab changed the saved game `id` since this tab last wrote
 * or read it; for a game this tab has not saved yet (`shown`: the record it
 * shows), whether another tab has saved it as something else. */
export function changedElsewhere(id, shown = null) {
  if (id == null) return null;
  const knew = known.has(id) ? known.get(id) : shown;
  if (knew == null) return null;
  const stored = readSaved(id);
  return stored && stored.record !== knew ? stored : null;
}

/** listener({id, mine, theirs}): a save not written, as another tab moved the game on. */
export function onSaveConflict(listener) {
  conflictListeners.add(listener);
}

/** listener({entry, ok, first, error}) after every save: first = the first game this browser keeps. */
export function onSaveOutcome(listener) {
  outcomeListeners.add(listener);
}

/** Games storage refused to keep this session, as entries (Export adds them). */
export function unsavedGames() {
  return [...unsaved.values()];
}

/** The saved entry of a game: {id, link (the fragment), view (the public view), linkSeat}. */
export function entryFor({ id, link, view, linkSeat = null, at = Date.now() }) {
  return {
    id, link, record: view.record, game: view.game, name: view.name,
    seats: view.seats.map((s, i) => s.name || `Player ${i + 1}`),
    players: view.seats.map(seatWords), result: resultWords(view),
    moves: view.history.length, history: view.history, over: view.is_over, status: view.status,
    linkSeat, started: true, at, gameId: view.game_id ?? null,
  };
}

/** Write one entry as it is (an import); false if storage refused. */
export function storeEntry(entry) {
  const key = keyOf(entry.id);
  const text = JSON.stringify(entry);
  const ok = writeText(key, text);
  if (ok) {
    // (read back as readKey would: an imported entry it would refuse is not kept here)
    lastSaved = entryProblem(entry) ? { key: null, text: null, entry: null } : { key, text, entry };
    known.set(entry.id, entry.record);
    unsaved.delete(entry.id);
  }
  return ok;
}

/** Whether two entries hold the same game as it stands (`at` aside). */
function sameEntry(a, b) {
  const { at: _a, ...restA } = a;
  const { at: _b, ...restB } = b;
  return JSON.stringify(restA) === JSON.stringify(restB);
}

/** Past the limit, the oldest finished games go first (never `keep`). */
function prune(keep) {
  // (after every move: under the limit, no saved game needs reading)
  if (gameKeys().length <= SAVED_LIMIT) return;
  const list = savedGames();
  while (list.length > SAVED_LIMIT) {
    const finished = list.findLastIndex((e) => e.over && e.id !== keep);
    const index = finished >= 0 ? finished : list.findLastIndex((e) => e.id !== keep);
    if (index < 0) break;
    removeStored(keyOf(list[index].id));
    list.splice(index, 1);
  }
}

/**
 * Keep a game: {id, link (the fragment), view (the public view), linkSeat,
 * base (the record this tab showed before the move, if it had one)}.
 * A game is kept once it has a move (a game taken back to no move is dropped).
 * Written only if the stored copy is still the one this tab knew (else the
 * conflict listeners are told, and nothing is written). True once written.
 */
export function saveGame({ id, link, view, linkSeat = null, hidden = false, base = null }) {
  // a move: in the public history, or kept secret in the record, in the link
  // (a sealed pick), or on this device only (`hidden`: a hot-seat pick kept
  // out of the public record)
  const started = hidden || view.history.length > 0 || (view.choosing?.chosen?.length ?? 0) > 0 || link !== view.record;
  if (!started) {
    return readSaved(id) ? deleteSaved(id) : true;
  }
  const entry = entryFor({ id, link, view, linkSeat });
  const stored = readSaved(id);
  // (a copy this tab never knew of, under the game's own id, is another tab's: never written over unseen)
  const knew = known.has(id) ? known.get(id) : stored && stored.id === gameSaveId(view) && base != null ? base : null;
  if (stored && knew != null && stored.record !== knew && stored.record !== entry.record) {
    for (const listener of conflictListeners) listener({ id, mine: entry, theirs: stored });
    return false;
  }
  // the same game as stored (another tab's save, now shown here): nothing to write
  if (stored && sameEntry(stored, entry)) {
    known.set(id, entry.record);
    return true;
  }
  const first = !stored && savedGames().length === 0;
  lastFailure = null;
  const ok = storeEntry(entry);
  if (ok) prune(id);
  else unsaved.set(id, entry);
  for (const listener of outcomeListeners) listener({ entry, ok, first: ok && first, error: ok ? null : lastFailure });
  return ok;
}

export function deleteSaved(id) {
  removeStored(keyOf(id));
  forgetView(id);
  known.delete(id);
  return true;
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

function savedRow(entry, onDelete, copies = 1) {
  const names = (Array.isArray(entry.players) ? entry.players : entry.seats).join(" vs ");
  const moves = `${entry.moves} ${entry.moves === 1 ? "move" : "moves"}`;
  const result = typeof entry.result === "string" ? entry.result : entry.over ? "finished" : "in progress";
  return h("li", { class: "saved-game", dataset: { id: entry.id, game: entry.game, over: entry.over ? "yes" : "no" } },
    h("div", { class: "saved-text" },
      h("strong", { class: "saved-name" }, entry.name),
      h("span", { class: "saved-seats" }, names),
      h("span", { class: "saved-meta" }, h("span", { class: "saved-result" }, result), ` · ${moves} · `,
        h("time", { datetime: new Date(entry.at).toISOString() }, when(entry.at))),
      // (two tabs of an older version could keep one game twice: both stay, said so)
      copies > 1 ? h("span", { class: "saved-copies" }, `One of ${copies} copies of this game, saved apart by an older version: open both before deleting one.`) : null),
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
  const copies = new Map();
  for (const e of entries) if (e.gameId) copies.set(e.gameId, (copies.get(e.gameId) ?? 0) + 1);
  const group = (title, list) => list.length === 0 ? null : [
    h("h3", {}, title),
    h("ul", { class: "saved-list" }, list.map((e) => savedRow(e, onDelete, e.gameId ? copies.get(e.gameId) : 1))),
  ];
  return h("section", { class: "saved-games", id: "saved-games", "aria-labelledby": "saved-title" },
    h("h2", { id: "saved-title" }, "Your games"),
    h("p", { class: "hint" }, "Kept in this browser only, after every move."),
    group("Unfinished", unfinished),
    group("Recent", finished));
}
