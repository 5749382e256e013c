// The embedded game (embed.html, meant for an <iframe> on someone else's page).
//
// Nothing heavy loads until the reader asks: first a poster (the game's name and
// its board module's static thumbnail, a few kB), then, on "Start" (or, with
// start=visible, once the frame is scrolled into view), the engine worker with
// Pyodide. Like the shell, no rule lives here: the board modules draw the
// engine's view() and send notations back.
//
// Address: embed.html?mode=play|replay&ply=N&theme=light|dark|auto&start=click|visible#<record>
//   mode   play (default): the reader plays on from the position; the frame's
//          fragment follows the record, and "Open in Quet Games" carries it.
//          replay: step through the record; the board never plays.
//   ply    the position after N moves (default: the game as it stands). In play
//          mode the game is cut there and the reader plays on from it.
//   theme  light, dark, or auto (the reader's system setting; the default).
//   start  click (default) or visible (load once half the frame is on screen).
// Testability: <html data-engine> is "idle" on the poster, then "loading",
// "ready", "busy", or "error"; one-click targets carry data-move; #status says
// whose turn it is.

import { h, showMessage } from "./dom.js";
import { confirmDialog } from "./dialog.js";
import { curtain, hotSeatFor, pendingSecret, revealText, seatName, secretBanner } from "./handover.js";

// The poster names the game before the engine is loaded, from the record's
// game code ("q1.pt.…"). Only names: an unknown code still gets a poster, and
// the engine has the last word once it is running.
const POSTER_GAMES = {
  cc: { id: "convoluted-coprimality", name: "Convoluted Coprimality" },
  en: { id: "enumeration", name: "Enumeration" },
  mu: { id: "multiplications", name: "Multiplications Within the Permutation" },
  nc: { id: "nonconformity", name: "Nonconformity" },
  pt: { id: "prime-target", name: "Prime Target" },
};

const root = document.documentElement;
const stage = document.getElementById("embed");
const openLink = document.getElementById("open-full");
const titleEl = document.getElementById("embed-title");

// -- the address ---------------------------------------------------------------------

/** The options in the query, with a plain-words note for each value we could not use. */
export function parseOptions(search) {
  const params = new URLSearchParams(search);
  const problems = [];
  const choice = (name, allowed, fallback) => {
    const value = params.get(name);
    if (value == null || value === "") return fallback;
    if (allowed.includes(value)) return value;
    problems.push(`“${name}=${value.slice(0, 30)}” is not understood (${name} is ${allowed.join(" or ")}); using ${fallback}.`);
    return fallback;
  };
  const mode = choice("mode", ["play", "replay"], "play");
  const theme = choice("theme", ["auto", "light", "dark"], "auto");
  const start = choice("start", ["click", "visible"], "click");
  let ply = null;
  const rawPly = params.get("ply");
  if (rawPly != null && rawPly !== "") {
    if (/^\d{1,6}$/.test(rawPly)) ply = Number(rawPly);
    else problems.push(`“ply=${rawPly.slice(0, 30)}” is not a move number (a whole number from 0); showing the game as it stands.`);
  }
  return { mode, theme, start, ply, problems };
}

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return location.hash.slice(1);
  }
}

function posterGame(record) {
  const code = /^q\d+\.([a-z]+)\./.exec(record)?.[1];
  return POSTER_GAMES[code] ?? null;
}

function fullSiteURL(record) {
  return new URL(record ? `index.html#${record}` : "index.html", location.href).href;
}

const opts = parseOptions(location.search);
if (opts.theme !== "auto") root.classList.add(`theme-${opts.theme}`);
root.dataset.mode = opts.mode;

// -- board modules -----------------------------------------------------------------

const linkedStyles = new Set();

function linkStyles(module) {
  for (const file of module.styles ?? []) {
    const href = `boards/${file}`;
    if (linkedStyles.has(href)) continue;
    linkedStyles.add(href);
    document.head.append(h("link", { rel: "stylesheet", href }));
  }
}

async function boardModule(gameId) {
  try {
    const module = await import(`./boards/${gameId}.js`);
    linkStyles(module);
    return module;
  } catch {
    return import("./boards/generic.js");
  }
}

// -- the poster ----------------------------------------------------------------------

function setEngineState(state) {
  root.dataset.engine = state;
}

function problemsNote() {
  return opts.problems.length
    ? h("ul", { class: "embed-problems", role: "note", "aria-label": "Embed settings not understood" },
      opts.problems.map((text) => h("li", {}, text)))
    : null;
}

function showFatal(title, text) {
  setEngineState("error");
  stage.replaceChildren(h("section", { class: "embed-fatal", role: "alert" },
    h("h1", {}, title), h("p", {}, text), problemsNote(),
    h("p", {}, h("a", { href: fullSiteURL(""), target: "_blank", rel: "noopener" }, "Go to Quet Games"))));
}

function showPoster(record) {
  const known = posterGame(record);
  const name = known?.name ?? "A game by Leroy Quet";
  titleEl.textContent = name;
  document.title = `${name} · Quet Games`;
  const thumb = h("div", { class: "poster-thumb", "aria-hidden": "true" }, h("span", { class: "thumb-placeholder" }, name[0]));
  if (known) {
    boardModule(known.id).then((module) => {
      const picture = typeof module.thumbnail === "function" ? module.thumbnail() : null;
      if (picture instanceof Element) thumb.replaceChildren(picture);
    }).catch(() => {});
  }
  const from = opts.ply != null ? ` from move ${opts.ply}` : "";
  const what = opts.mode === "replay" ? `A game to step through${from}.` : `A game you can play here${opts.ply != null ? `, starting at move ${opts.ply}` : ""}.`;
  const button = h("button", { type: "button", id: "embed-start", class: "poster-start" }, "Start");
  const poster = h("section", { class: "poster", "aria-labelledby": "poster-title" },
    thumb,
    h("div", { class: "poster-text" },
      h("h1", { id: "poster-title" }, name),
      h("p", { class: "poster-what" }, what, " Invented by Leroy Quet."),
      button,
      h("p", { class: "poster-note" }, opts.start === "visible"
        ? "The game loads when this frame is on screen (about 4.5 MB once, then cached)."
        : "Click to load the game (about 4.5 MB once, then cached)."),
      problemsNote()));
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    boot(record);
  };
  button.addEventListener("click", go);
  // the whole picture is a click target too, as a reader expects of a poster
  thumb.addEventListener("click", go);
  let observer = null;
  if (opts.start === "visible" && "IntersectionObserver" in window) {
    // Inside a cross-origin frame the implicit root is the top page's viewport.
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) go();
    }, { threshold: 0.5 });
    observer.observe(poster);
  }
  stage.replaceChildren(poster);
  setEngineState("idle");
}

// -- loading the engine ------------------------------------------------------------------

let engine = null;

async function boot(record) {
  setEngineState("loading");
  const text = h("p", { id: "loading-text" }, "Loading the game engine…");
  const bar = h("progress", { id: "loading-bar", max: "1" });
  stage.replaceChildren(h("div", { class: "loading embed-loading", role: "status", "aria-live": "polite" },
    text, bar, h("p", { class: "loading-note" }, "Python runs inside this frame; the first visit downloads about 4.5 MB.")));
  try {
    if (!engine) {
      // the worker starts when this module is first imported, never before
      ({ engine } = await import("./engine.js"));
      engine.onProgress(({ text: words, fraction }) => {
        text.textContent = words;
        if (fraction === undefined) bar.removeAttribute("value");
        else bar.value = fraction;
      });
    }
    await engine.ready;
  } catch (error) {
    setEngineState("error");
    const retry = h("button", { type: "button", class: "retry" }, "Try again");
    retry.addEventListener("click", () => {
      engine?.start();
      boot(record);
    });
    stage.replaceChildren(h("div", { class: "embed-fatal", role: "alert" },
      h("p", {}, `The game engine could not start: ${error.message}`), retry));
    return;
  }
  await openGame(record);
}

// -- the game ------------------------------------------------------------------------

let game = null; // {record, view, secret, plies} as it stands (public view)
let shown = null; // {ply, view, move} while showing a past position, else null
let hotseat = null; // as in the shell (handover.js)
let reveal = "";
let renderer = null;
let busy = false;
let notice = ""; // a one-time note (e.g. the asked-for move was past the end)

async function openGame(record) {
  setEngineState("busy");
  let opened;
  try {
    opened = await engine.request("open", { record });
  } catch (error) {
    showFatal("This game could not be opened", `The embedded game record is not one we can read: ${error.message}`);
    return;
  }
  let plies = (await engine.request("at", { record: opened.record, ply: 0 })).plies;
  let ply = opts.ply;
  if (ply != null && ply > plies) {
    notice = `The game has ${plies} move${plies === 1 ? "" : "s"}; move ${ply} does not exist, so this is the game as it stands.`;
    ply = null;
  }
  renderer = await boardModule(opened.view.game);
  titleEl.textContent = opened.view.name;
  document.title = `${opened.view.name} · Quet Games`;
  if (opts.mode === "play" && ply != null && ply < plies) {
    // play on from that position: the game is cut there
    const at = await engine.request("at", { record: opened.record, ply });
    opened = { record: at.record, view: at.view };
    plies = ply;
    ply = null;
  }
  setGame(opened, { plies });
  if (opts.mode === "replay" && ply != null && ply < plies) await stepTo(ply, { quiet: true });
  follow();
  draw();
}

function setGame(opened, { plies = null, revealed = "" } = {}) {
  const secret = !opened.view.is_over && pendingSecret(opened.view);
  game = { record: opened.record, view: opened.view, secret, plies: plies ?? opened.view.history.length + (secret ? 1 : 0) };
  shown = null;
  hotseat = opts.mode === "play" ? hotSeatFor(game.view, secret) : null;
  reveal = revealed;
}

/** The frame's own address and the full-site link carry the record as it stands. */
function follow() {
  if (opts.mode === "play") history.replaceState(null, "", `#${game.record}`);
  openLink.href = fullSiteURL(game.record);
}

function actingSeat() {
  return hotseat?.phase === "pick" ? hotseat.seat : null;
}

function explain(text, kind = "info") {
  showMessage(text, kind);
  fitBoard();
}

async function play(notation) {
  if (busy || !game || shown || opts.mode !== "play") return false;
  const seat = actingSeat();
  const before = game.view;
  busy = true;
  setEngineState("busy");
  try {
    let played = await engine.request("play", { record: game.record, move: String(notation), ...(seat != null ? { seat } : {}) });
    if (seat != null) played = await engine.request("open", { record: played.record });
    setGame(played, { revealed: revealText(before, played.view) });
    follow();
    draw("board");
    return true;
  } catch (error) {
    explain(error.message, "error");
    setEngineState("ready");
    return false;
  } finally {
    busy = false;
  }
}

function makeUi(replaying) {
  const seat = actingSeat();
  return {
    seat,
    replaying,
    play: (notation) => play(notation),
    explain: (text, kind = "info") => explain(text, kind),
    preview: (move) => engine.request("preview", { record: game.record, move: String(move), ...(seat != null ? { seat } : {}) }),
    confirm: (text) => confirmDialog(text),
  };
}

/** Show the position after `ply` moves (the game as it stands at the end). */
async function stepTo(ply, { quiet = false } = {}) {
  const wanted = Math.max(0, Math.min(ply, game.plies));
  if (wanted >= game.plies) {
    shown = null;
  } else {
    const at = await engine.request("at", { record: game.record, ply: wanted });
    shown = { ply: wanted, view: at.view, move: game.view.history[wanted - 1] };
  }
  if (!quiet) draw("keep");
}

async function step(ply) {
  if (busy || !game) return;
  busy = true;
  setEngineState("busy");
  try {
    await stepTo(ply);
  } catch (error) {
    explain(error.message, "error");
    setEngineState("ready");
  } finally {
    busy = false;
  }
}

async function showSeatBoard() {
  if (busy || !hotseat) return;
  busy = true;
  setEngineState("busy");
  try {
    const opened = await engine.request("open", { record: game.record, seat: hotseat.seat });
    hotseat = { ...hotseat, phase: "pick", seatView: opened.view };
    reveal = "";
    draw("board");
  } catch (error) {
    explain(error.message, "error");
    setEngineState("ready");
  } finally {
    busy = false;
  }
}

function seatChips(view) {
  return h("ol", { class: "seats embed-seats", "aria-label": "Players" }, view.seats.map((_, i) => {
    const toMove = !view.is_over && view.to_move.includes(i);
    const won = view.winners.includes(i);
    return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      h("span", { class: "score", "aria-label": `score ${view.scores[i] ?? 0}` }, String(view.scores[i] ?? 0)),
      won ? h("span", { class: "badge won" }, "winner") : null);
  }));
}

function boardArea() {
  const area = h("div", { id: "board", class: "board embed-board" });
  const replaying = shown != null || opts.mode === "replay";
  if (replaying) {
    const drawn = renderer.render(shown ? shown.view : game.view, makeUi(true));
    for (const el of drawn.querySelectorAll("[data-move], [data-try]")) {
      el.removeAttribute("data-move");
      el.removeAttribute("data-try");
    }
    area.inert = true;
    area.classList.add("replaying");
    area.append(drawn);
  } else if (hotseat && hotseat.phase !== "pick") {
    area.classList.add("curtained");
    area.append(curtain(game.view, hotseat, { reveal, onShow: showSeatBoard }));
  } else if (hotseat) {
    area.append(secretBanner(game.view, hotseat.seat), renderer.render(hotseat.seatView, makeUi(false)));
  } else {
    area.append(renderer.render(game.view, makeUi(false)));
  }
  // the generic board's buttons rely on a delegated handler, as in the shell
  area.addEventListener("click", (event) => {
    const target = event.target.closest?.("[data-move]");
    if (target && area.contains(target) && !target.closest("[disabled], [inert]")) {
      event.preventDefault();
      play(target.dataset.move);
    }
  });
  return area;
}

function stepBar() {
  const at = shown ? shown.ply : game.plies;
  const total = game.plies;
  const button = (key, words, label, target, enabled) => h("button", {
    type: "button", class: "secondary step", dataset: { key }, "aria-label": label, disabled: !enabled,
    onclick: () => step(target),
  }, words);
  const where = at === 0 ? `Start (of ${total} moves)`
    : `Move ${at} of ${total}${(shown?.move ?? game.view.history[at - 1]) != null ? `: ${shown?.move ?? game.view.history[at - 1]}` : ""}`;
  return h("div", { class: "embed-steps", role: "group", "aria-label": "Step through the game" },
    button("first", "«", "First: the start of the game", 0, at > 0),
    button("back", "‹", "Back one move", at - 1, at > 0),
    h("span", { id: "embed-ply", class: "embed-ply", "aria-live": "polite", dataset: { ply: at } }, where),
    button("forward", "›", "Forward one move", at + 1, at < total),
    button("last", "»", opts.mode === "play" ? "Last: back to the game" : "Last: the end of the record", total, at < total));
}

function draw(focus = null) {
  const focusKey = focus === "keep" ? document.activeElement?.closest?.("[data-key]")?.dataset.key : null;
  const view = shown ? shown.view : game.view;
  const status = shown ? `After move ${shown.ply}: ${shown.view.status}` : game.view.status;
  stage.replaceChildren(...[
    h("p", { id: "status", class: game.view.is_over && !shown ? "status over" : "status", "aria-live": "polite" }, status),
    seatChips(view),
    problemsNote(),
    boardArea(),
    h("p", { id: "message", class: "message", role: "alert" }),
    h("p", { id: "note", class: "note", role: "status" }, [notice, !hotseat && reveal ? reveal : ""].filter(Boolean).join(" ")),
    stepBar(),
  ].filter(Boolean));
  notice = "";
  if (focusKey) {
    const el = stage.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    (el && !el.disabled ? el : stage.querySelector(".embed-steps button:not(:disabled)"))?.focus();
  } else if (focus === "board") {
    stage.querySelector("#board .curtain button, #board [data-move][tabindex='0'], #board [data-move]")?.focus({ preventScroll: true });
  }
  fitBoard();
  setEngineState("ready");
}

/** Shrink the board (keeping its shape) until the frame needs no scrolling,
 * down to a readable minimum; boards that scroll sideways on purpose (a zoomed
 * big grid) are left alone. The height left over is only known by measuring. */
function fitBoard() {
  const svgs = [...stage.querySelectorAll("#board svg")];
  if (svgs.length === 0) return;
  const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const main = svgs.reduce((a, b) => (area(b) > area(a) ? b : a));
  main.style.maxWidth = "";
  if (getComputedStyle(main).maxWidth === "none") return;
  const overflow = document.documentElement.scrollHeight - window.innerHeight;
  const rect = main.getBoundingClientRect();
  if (overflow <= 0 || rect.height === 0) return;
  const height = Math.max(MIN_BOARD_PX, rect.height - overflow);
  if (height < rect.height) main.style.maxWidth = `${Math.floor((rect.width * height) / rect.height)}px`;
}

const MIN_BOARD_PX = 220; // about 18 px a square on a 12 × 12 grid: still a tap target
let fitFrame = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(fitFrame);
  fitFrame = requestAnimationFrame(() => game && fitBoard());
});

// -- start ---------------------------------------------------------------------------

const startRecord = fragment();
openLink.href = fullSiteURL(startRecord);
if (startRecord === "") {
  showFatal("No game here", "This embed's address holds no game record (it should end with # and a record). Make one with the Embed button on a game page of Quet Games.");
} else {
  showPoster(startRecord);
}
