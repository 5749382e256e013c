// The engine's download, shown while the page is already in use: the strip at
// the top of the page (#loading), the note beside a Start pressed early and on
// a linked game that waits for the engine, and what a link says before the
// engine can read it.
//
// No rule lives here. A link is read only for display (its game's name and its
// seat names), never trusted: anything unexpected gives null, and the engine
// has the last word once it is running.

import { h } from "../ui/dom.js";

// What is shown follows every progress message (the worker sends one per
// percent or so); what a screen reader is told (a role=status region) changes
// when the loading step does, and otherwise at most this often, so it is not
// read out a new figure every moment.
const SPOKEN_EVERY_MS = 10_000;

/** How far the download is, in words: "1.2 of 12.1 MB" when the engine's text
 * has the figures, else a percentage; "" before anything is known. */
export function amountWords({ text = "", fraction } = {}) {
  const mb = /(\d+(?:\.\d+)?) of (\d+(?:\.\d+)?) MB/.exec(String(text));
  if (mb) return `${mb[1]} of ${mb[2]} MB`;
  return typeof fraction === "number" && fraction > 0 ? `${Math.round(Math.min(1, fraction) * 100)}%` : "";
}

const stepOf = (text) => String(text ?? "").replace(/\d+(?:\.\d+)?/g, "#");

/**
 * Where the engine's loading stands, for everything on the page that shows it.
 * Listeners get {state, text, fraction, spoken, error} at once and on every
 * change: state "loading" | "error" | "up"; text and fraction the engine's
 * latest; spoken the text for a live region (see SPOKEN_EVERY_MS).
 */
export class EngineStatus {
  state = "loading";
  error = null;
  #progress = { text: "", fraction: undefined };
  #spoken = "";
  #spokenAt = -Infinity;
  #timer = 0;
  #listeners = new Set();

  constructor(engine, { retry }) {
    this.retry = retry;
    engine.onProgress((progress) => this.#arrived(progress));
  }

  subscribe(listener) {
    this.#listeners.add(listener);
    listener(this.#now());
    return () => this.#listeners.delete(listener);
  }

  loading() { this.#set("loading", null); }
  failed(error) { this.#set("error", error); }
  up() { this.#set("up", null); }

  #set(state, error) {
    this.state = state;
    this.error = error;
    this.#emit();
  }

  #arrived(progress) {
    this.#progress = progress;
    const wait = SPOKEN_EVERY_MS - (performance.now() - this.#spokenAt);
    if (stepOf(progress.text) !== stepOf(this.#spoken) || wait <= 0) this.#speak();
    else this.#timer ||= setTimeout(() => this.#speak(), wait);
    this.#emit();
  }

  #speak() {
    clearTimeout(this.#timer);
    this.#timer = 0;
    if (this.#spoken === this.#progress.text) return;
    this.#spoken = this.#progress.text;
    this.#spokenAt = performance.now();
    this.#emit();
  }

  #now() {
    return { state: this.state, error: this.error, ...this.#progress, spoken: this.#spoken };
  }

  #emit() {
    const now = this.#now();
    for (const listener of this.#listeners) listener(now);
  }
}

function setBar(bar, fraction) {
  if (typeof fraction === "number") bar.value = Math.min(1, fraction);
  else bar.removeAttribute("value");
}

/**
 * Bind the page's strip (#loading in index.html, with #loading-text,
 * #loading-bar, #retry and a role=status .strip-spoken) to `status`: the
 * engine's own words while it loads, the error in words with Try again if it
 * failed, hidden once the engine is up.
 */
export function bindStrip(status) {
  const strip = document.getElementById("loading");
  const label = strip.querySelector(".strip-label");
  const text = document.getElementById("loading-text");
  const bar = document.getElementById("loading-bar");
  const retry = document.getElementById("retry");
  const safe = strip.querySelector(".strip-safe");
  const spoken = strip.querySelector(".strip-spoken");
  retry.onclick = () => status.retry();
  status.subscribe(({ state, text: words, fraction, spoken: said, error }) => {
    strip.hidden = state === "up";
    strip.dataset.state = state;
    const failed = state === "error";
    label.textContent = failed ? "The game engine did not load." : "Loading the game engine:";
    text.textContent = failed ? error?.message || "it stopped" : words || "starting…";
    spoken.textContent = failed ? `The game engine did not load: ${error?.message || "it stopped"}. Your saved games are safe; Try again loads it again.`
      : state === "up" ? "" : `Loading the game engine: ${said || "starting"}`;
    bar.hidden = failed;
    retry.hidden = !failed;
    safe.hidden = !failed;
    if (!failed) setBar(bar, fraction);
  });
}

/**
 * A note saying what waits on the engine ("Getting the game engine ready to
 * show this game"), with the download's amount and a bar; if loading fails,
 * that, and a Try again. Only the words are announced (`spoken`: other words
 * for a screen reader, when the visible ones repeat what is beside them); the
 * figures are not, the strip speaks for the download.
 */
export function waitNote(words, status, spoken = null) {
  const said = h("span", { class: "wait-words" }, words);
  const speak = spoken ? h("span", { class: "visually-hidden" }) : null;
  // filled once the note is in the page: a live region is read out when it changes, not when it appears
  if (speak) setTimeout(() => { speak.textContent = spoken; }, 100);
  const amount = h("span", { class: "wait-amount", "aria-hidden": "true" });
  const bar = h("progress", { class: "wait-bar", max: 1, "aria-label": "Game engine download" });
  const retry = h("button", { type: "button", class: "secondary wait-retry", hidden: true, onclick: () => status.retry() }, "Try again");
  const note = h("div", { class: "engine-wait" },
    h("p", {}, h("span", { role: "status" }, speak, said), amount), bar, retry);
  const stop = status.subscribe(({ state, text, fraction }) => {
    if (note.dataset.state && !note.isConnected) {
      stop(); // its screen is gone
      return;
    }
    note.dataset.state = state;
    const failed = state === "error";
    if (speak) {
      speak.hidden = failed;
      said.toggleAttribute("aria-hidden", !failed);
    }
    // (the reason is in the strip at the top, beside its own Try again)
    said.textContent = failed ? "The game engine did not load, so this waits for it. Your saved games are safe." : words;
    const figures = amountWords({ text, fraction });
    amount.textContent = failed ? "" : figures ? `: ${figures}` : "…";
    bar.hidden = failed;
    retry.hidden = !failed;
    if (!failed) setBar(bar, fraction);
  });
  return note;
}

// -- a link, read for display only ------------------------------------------------------

const NAME_CHARS = 20;

/** A seat name from its record spelling (base64url of UTF-8, unpadded), or null. */
function decodeName(text) {
  if (!/^[A-Za-z0-9_-]{0,120}$/.test(text) || text.length % 4 === 1) return null;
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  let name;
  try {
    name = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  } catch {
    return null; // not base64, or not UTF-8
  }
  if ([...name].length > NAME_CHARS || /[\p{Cc}\p{Zl}\p{Zp}]/u.test(name)) return null;
  return name;
}

/**
 * What a record says for display before the engine reads it: {game, seats},
 * game from `games` (the catalog) by the record's code, seats [{name, computer}]
 * from its seats part (null when it has none or one is damaged). Null for
 * anything not shaped like a record (docs/RECORD.md). Never throws.
 */
export function linkForDisplay(record, games) {
  try {
    const parts = String(record ?? "").split(".");
    if (!/^q[12]$/.test(parts[0]) || parts.length < 4 || (parts[0] === "q1" && parts.length > 5)) return null;
    const game = (Array.isArray(games) ? games : []).find((g) => g && g.code === parts[1] && typeof g.name === "string");
    if (!game) return null;
    // q1: the seats are the fifth part; q2: the section tagged "s" (docs/RECORD.md)
    const seatsText = parts[0] === "q1" ? parts[4] : parts.slice(4).find((p) => p.startsWith("s"))?.slice(1);
    let seats = null;
    if (seatsText !== undefined) {
      seats = seatsText.split("~").map((token, i) => {
        const kind = /^[0-9]/.exec(token)?.[0];
        const name = kind === undefined ? null : decodeName(token.slice(1));
        return name === null ? null : { name: name || `Player ${i + 1}`, computer: kind !== "0" };
      });
      if (seats.length > 8 || seats.some((seat) => seat === null)) seats = null;
    }
    return { game, seats };
  } catch {
    return null; // whatever it was, the engine will say what is wrong with it
  }
}

// -- a Start pressed before the engine is up ----------------------------------------------

/**
 * A Start pressed before the engine is up is kept: the button says so, a
 * note beside it shows the download, and the game starts once the engine is
 * ready, unless the player has gone to another screen or pressed another
 * Start meanwhile (cancel()). status: the EngineStatus; arrived: a promise
 * that resolves once the engine is up; busy(): the page is busy from then on.
 */
export class StartWaiter {
  #waiting = null; // {cancel} of the Start that waits

  constructor({ status, arrived, busy }) {
    this.status = status;
    this.arrived = arrived;
    this.busy = busy;
  }

  cancel() {
    this.#waiting?.cancel();
  }

  /** Resolves true once the engine is up, false if this Start was given up
   * meanwhile. `button` shows the wait; the note goes after `place`. */
  async wait(button, place) {
    this.cancel();
    const words = button.textContent;
    const label = button.getAttribute("aria-label");
    const note = waitNote("Loading the game engine", this.status, "The game starts as soon as the engine is ready.");
    button.textContent = "Starting as soon as the engine is ready…";
    if (label) button.setAttribute("aria-label", `${label}: starting as soon as the engine is ready`);
    button.classList.add("waiting");
    place.after(note);
    this.busy(); // once the engine is up, the page is busy starting this game
    let cancel;
    const cancelled = new Promise((resolve) => { cancel = () => resolve(false); });
    const mine = { cancel };
    this.#waiting = mine;
    try {
      return await Promise.race([this.arrived.then(() => true), cancelled]);
    } finally {
      if (this.#waiting === mine) this.#waiting = null;
      button.textContent = words;
      if (label) button.setAttribute("aria-label", label);
      button.classList.remove("waiting");
      note.remove();
    }
  }
}
