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

function isEntry(e) {
  return e && typeof e === "object" && typeof e.id === "string" && typeof e.link === "string" &&
    typeof e.record === "string" && typeof e.at === "number";
}

/** Saved games, newest first; an entry without a move (kept by older versions
 * at every Start) is not a game to come back to, so it is left out. (A hot-seat
 * pick still secret is a move, though the public history does not show it.) */
export function savedGames() {
  const list = readStored(KEY, []);
  return Array.isArray(list) ? list.filter((e) => isEntry(e) && (e.moves !== 0 || e.started)).sort((a, b) => b.at - a.at) : [];
}

export function newSaveId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a record names apart from its moves: version, game, options, seats. */
function header(record) {
  const [version, game, options, , seats = ""] = String(record).split(".");
  return [version, game, options, seats].join(".");
}

/** The moves part of a record ("" before the first move). */
function movesOf(record) {
  return String(record).split(".")[3] ?? "";
}

/** The saved game a view continues: same game, options and seats, and the
 * saved moves are where its moves start (the longest such). Compared on the
 * view's notations, since some records spell earlier moves anew. */
export function savedGameFor(view) {
  const head = header(view.record);
  let best = null;
  for (const entry of savedGames()) {
    if (!Array.isArray(entry.history) || header(entry.record) !== head) continue;
    if (entry.history.length > view.history.length || !entry.history.every((m, i) => m === view.history[i])) continue;
    if (!best || entry.history.length > best.history.length) best = entry;
  }
  return best;
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
