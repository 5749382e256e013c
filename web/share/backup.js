// A backup a player can hold: every saved game in one JSON file, and back.
//
//   {"format": "quetgames-backup", "version": 1, "exported": "<ISO date>",
//    "games": [{"record", "name", "game", "saved" (ISO date), "players",
//               "moves", "over", "result"}]}
//
// Only `record` matters on import: the engine opens it (its moves replayed,
// its game id read), and everything else shown is read again from its view.
// The other fields are for a person reading the file. Import merges by game:
// a record the browser already holds, or holds further on, is not added
// again; one that goes further than the saved copy replaces it; one that
// rewrites a saved game is kept beside it under a new game id. The file is
// untrusted: every check that can refuse it whole runs before anything is
// written, and a damaged entry is named and skipped.
//
// Also here: the short notes on what the browser does with the storage (its
// answer to navigator.storage.persist(), a save it refused).

import { h } from "../ui/dom.js";
import { entryFor, onSaveOutcome, saveIdFor, savedGames, storeEntry, unsavedGames } from "./saved.js";

export const BACKUP_FORMAT = "quetgames-backup";
export const BACKUP_VERSION = 1;
export const MAX_BACKUP_BYTES = 50 * 1024 * 1024;
const MAX_RECORD = 100_000; // the engine's own record limit
const REFUSALS = new Set(["InvalidRecord", "IllegalMove", "InvalidOptions", "BadRequest"]); // the engine's "no" to a record

// -- export -------------------------------------------------------------------------------

/** The backup of `entries` (saved.js entries), as an object. */
export function backupOf(entries, now = new Date()) {
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exported: now.toISOString(),
    games: entries.map((e) => ({
      record: e.link, name: e.name, game: e.game, saved: new Date(e.at).toISOString(),
      players: e.players ?? e.seats, moves: e.moves, over: e.over, result: e.result,
    })),
  };
}

/** Every saved game, and any game storage refused this session, newest first. */
export function gamesToExport() {
  const saved = savedGames();
  const refused = unsavedGames().filter((u) => !saved.some((e) => e.id === u.id && e.record === u.record));
  return [...refused, ...saved.filter((e) => !refused.some((u) => u.id === e.id))].sort((a, b) => b.at - a.at);
}

/** Save the backup file (the browser's download); resolves to its file name and how many games it holds. */
export function exportAll() {
  const games = gamesToExport();
  const now = new Date();
  const name = `quet-games-${now.toISOString().slice(0, 10)}.json`;
  const blob = new Blob([JSON.stringify(backupOf(games, now), null, 1)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name, count: games.length };
}

// -- import -------------------------------------------------------------------------------

/** The file's games, or an Error in words: refused whole, nothing read into storage. */
export function parseBackup(text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    throw new Error("that file is not a Quet Games backup: it is not JSON text");
  }
  if (!data || typeof data !== "object" || Array.isArray(data) || data.format !== BACKUP_FORMAT) {
    throw new Error("that file is not a Quet Games backup (it does not say “quetgames-backup” as its format)");
  }
  if (!Number.isInteger(data.version) || data.version < 1) {
    throw new Error("that backup does not say which version of the backup format it is");
  }
  if (data.version > BACKUP_VERSION) {
    throw new Error(`that backup was made by a newer version of Quet Games (backup format ${String(data.version).slice(0, 12)}; this page reads format ${BACKUP_VERSION}). Open it with the newer version`);
  }
  if (!Array.isArray(data.games)) throw new Error("that backup holds no list of games");
  return data.games;
}

/** How an entry of the file is named in a report: its name if it has one, and its place. */
function entryLabel(item, position) {
  const name = item && typeof item === "object" && typeof item.name === "string" ? item.name.trim().slice(0, 60) : "";
  return name ? `game ${position} (“${name}”)` : `game ${position}`;
}

/**
 * Merge the backup `file` (a File or Blob) into the saved games, each record
 * checked by the engine: ask(call, args). Resolves to
 * {added, updated, kept, apart, damaged: [{position, label, why}]};
 * rejects with an Error in words when the file is refused whole.
 */
export async function importBackup(file, ask) {
  if (file.size > MAX_BACKUP_BYTES) {
    const mb = (n) => `${Math.round(n / (1024 * 1024)).toLocaleString("en")} MB`;
    throw new Error(`that file is too large to be a backup of games (${mb(file.size)}; a backup is refused above ${mb(MAX_BACKUP_BYTES)})`);
  }
  const games = parseBackup(await file.text());
  const result = { added: 0, updated: 0, kept: 0, apart: 0, damaged: [] };
  const ids = new Map(); // saved record -> its game id (record_info: no replay)
  const idOf = async (record) => {
    if (!ids.has(record)) ids.set(record, (await ask("record_info", { record }).catch(() => ({}))).game_id ?? null);
    return ids.get(record);
  };
  for (const [index, item] of games.entries()) {
    const position = index + 1;
    const label = entryLabel(item, position);
    const skip = (why) => result.damaged.push({ position, label, why });
    if (!item || typeof item !== "object" || Array.isArray(item)) {
      skip("it is not a saved game");
      continue;
    }
    if (typeof item.record !== "string" || item.record === "" || item.record.length > MAX_RECORD) {
      skip("it holds no game record");
      continue;
    }
    let opened;
    try {
      opened = await ask("open", { record: item.record });
    } catch (error) {
      if (!REFUSALS.has(error?.type)) throw new Error(`the game engine stopped while reading ${label}; the games before it were imported (${error.message})`);
      skip(error.message);
      continue;
    }
    const { view } = opened;
    const at = Math.min(Date.now(), Date.parse(item.saved) || Date.now());
    // the saved games this one could be: of the same game, and with the same id (both without one: compare decides)
    const gameId = view.game_id ?? null;
    const candidates = [];
    for (const entry of savedGames().filter((e) => e.game === view.game)) {
      if (entry.record === opened.record || entry.link === opened.record) {
        candidates.unshift(entry);
        break;
      }
      if ((await idOf(entry.record)) === gameId) candidates.push(entry);
    }
    let outcome = "new";
    let match = null;
    for (const entry of candidates) {
      if (entry.record === opened.record || entry.link === opened.record) {
        [outcome, match] = ["same", entry];
        break;
      }
      let answer;
      try {
        answer = await ask("compare", { mine: entry.record, theirs: opened.record });
      } catch {
        continue; // a saved record the engine no longer opens: nothing to compare with
      }
      if (answer.relation === "same" || answer.relation === "behind") [outcome, match] = ["same", entry];
      else if (answer.relation === "ahead") [outcome, match] = ["ahead", entry];
      else if (answer.relation === "changed") [outcome, match] = ["changed", entry];
      if (outcome !== "new") break;
    }
    let written = true;
    if (outcome === "same") {
      result.kept += 1;
    } else if (outcome === "ahead") {
      written = storeEntry(entryFor({ id: match.id, link: opened.record, view, linkSeat: match.linkSeat, at: Math.max(at, match.at) }));
      result.updated += written ? 1 : 0;
    } else if (outcome === "changed") {
      // the same game rewritten: kept beside the saved one, under an id of its own (docs/RECORD.md)
      const apart = await ask("new_id", { record: opened.private_record ?? opened.record });
      written = storeEntry(entryFor({ id: saveIdFor(apart.view), link: apart.record, view: apart.view, at }));
      result.apart += written ? 1 : 0;
    } else {
      written = storeEntry(entryFor({ id: saveIdFor(view), link: opened.record, view, at }));
      result.added += written ? 1 : 0;
    }
    if (!written) {
      const left = games.length - index;
      throw new Error(`this browser's storage for the site is full: ${label} and the ${left - 1} after it were not imported (${result.added + result.updated + result.apart} were)`);
    }
  }
  return result;
}

/** The import's outcome in words. */
export function importWords({ added, updated, kept, apart, damaged }) {
  const n = (count, one, many) => `${count} ${count === 1 ? one : many}`;
  const parts = [];
  if (added) parts.push(`${n(added, "game was", "games were")} added`);
  if (updated) parts.push(`${n(updated, "saved game was", "saved games were")} brought up to date`);
  if (apart) parts.push(`${n(apart, "game that differs from the one saved here was", "games that differ from the ones saved here were")} kept beside it as a separate game`);
  if (kept) parts.push(`${n(kept, "game was", "games were")} already here`);
  if (parts.length === 0) parts.push("the file holds no games");
  const text = `${parts.join("; ")}.`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// -- the home page's backup box --------------------------------------------------------------

/**
 * "Keep a copy": Export all games, and Import from a file. ask(call, args):
 * the engine (waits for it); onImported(): the saved games changed.
 */
export function backupPanel({ ask, onImported }) {
  const said = h("p", { class: "backup-said", id: "backup-said", role: "status" });
  const error = h("p", { class: "form-error", id: "backup-error", role: "alert" });
  const damaged = h("ul", { class: "backup-damaged", id: "backup-damaged", hidden: true });
  const clear = () => {
    said.textContent = "";
    error.textContent = "";
    damaged.replaceChildren();
    damaged.hidden = true;
  };
  const exportButton = h("button", { type: "button", class: "secondary export-all", dataset: { key: "export-all" } }, "Export all games");
  exportButton.addEventListener("click", () => {
    clear();
    const { name, count } = exportAll();
    said.textContent = count === 0 ? `Saved ${name}: it holds no games yet.` : `Saved ${name}, holding ${count === 1 ? "one game" : `${count} games`}. Keep it somewhere safe; Import reads it back in any browser.`;
  });
  const file = h("input", { type: "file", id: "backup-file", accept: ".json,application/json", class: "backup-file" });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    clear();
    said.textContent = `Reading ${chosen.name}…`;
    try {
      const result = await importBackup(chosen, ask);
      said.textContent = importWords(result);
      if (result.damaged.length) {
        error.textContent = `${result.damaged.length === 1 ? "One game" : `${result.damaged.length} games`} in the file could not be read and ${result.damaged.length === 1 ? "was" : "were"} skipped:`;
        damaged.replaceChildren(...result.damaged.map((d) => h("li", { dataset: { position: d.position } }, `${d.label}: ${d.why}`)));
        damaged.hidden = false;
      }
    } catch (err) {
      said.textContent = "";
      error.textContent = `That file was not imported: ${err.message}. Your saved games are as they were.`;
    } finally {
      file.value = "";
      onImported?.();
    }
  });
  return h("section", { class: "backup", id: "backup", "aria-labelledby": "backup-title" },
    h("h2", { id: "backup-title" }, "Keep a copy of your games"),
    h("p", { class: "hint" }, "Games are kept in this browser only. Export saves them all in one file; Import reads such a file back, here or in another browser, without doubling games already here."),
    h("div", { class: "backup-buttons" },
      exportButton,
      h("span", { class: "backup-import" },
        h("label", { for: "backup-file" }, "Import games from a file:"), " ", file)),
    said, error, damaged);
}

// -- what the browser does with the storage ----------------------------------------------------

/** The bar for the browser's answer on keeping storage, or a save it refused;
 * `place(kind)` puts the bar where that kind of note belongs. */
export function storageNotes(bar, { place = () => {} } = {}) {
  const show = (kind, text, ...extra) => {
    place(kind);
    const close = h("button", { type: "button", class: "secondary storage-close" }, "Hide this note");
    close.addEventListener("click", () => { bar.replaceChildren(); bar.hidden = true; });
    bar.dataset.kind = kind;
    bar.hidden = false;
    bar.replaceChildren(h("p", { class: "storage-words" }, text), ...extra, close);
  };
  onSaveOutcome(async ({ ok, first, error }) => {
    if (!ok) {
      const full = error?.name === "QuotaExceededError" || /quota/i.test(String(error?.message));
      const exportButton = h("button", { type: "button", class: "export-all", dataset: { key: "export-all" } }, "Export all games");
      exportButton.addEventListener("click", () => {
        const { name, count } = exportAll();
        bar.querySelector(".storage-words").textContent = `Saved ${name}, holding ${count === 1 ? "one game" : `${count} games`} (this one included).`;
      });
      show("unsaved", full
        ? "This game was not saved: this browser's storage for the site is full. It is still here on screen, and the address bar holds it. Export all games to keep them in a file (this one included); deleting finished games on the home page makes room."
        : "This game was not saved: this browser does not let the site store anything. It is still here on screen, and the address bar holds it. Export all games to keep them in a file (this one included).",
      exportButton);
      return;
    }
    if (bar.dataset.kind === "unsaved") { // saving works again
      bar.replaceChildren();
      bar.hidden = true;
      delete bar.dataset.kind;
    }
    if (first) show("persist", await persistWords());
  });
}

/** Ask the browser to keep the site's storage (once, at the first game saved) and say its answer. */
async function persistWords() {
  const storage = navigator.storage;
  if (typeof storage?.persist !== "function") {
    return "Your game is saved in this browser. This browser cannot be asked to keep it safe from clearing; Export all games on the home page keeps a copy in a file.";
  }
  let granted = false;
  try {
    granted = (await storage.persisted?.()) || (await storage.persist());
  } catch {
    granted = false;
  }
  document.documentElement.dataset.persist = granted ? "granted" : "refused";
  return granted
    ? "Your game is saved in this browser, and the browser agreed to keep the site's storage: it will not clear your games to make room."
    : "Your game is saved in this browser, which did not promise to keep it: it may clear the site's storage when space runs short. Export all games on the home page keeps a copy in a file.";
}
