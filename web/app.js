// The shell: a home page listing the games, setup screens, and a game page
// that draws view() with the game's board renderer and sends notations back.
// No rule lives here: legal moves, status and scores all come from the engine.
// The game list, setup screens and rules come from the engine's catalog in
// build.json, so they are drawn at once while the engine downloads (loading.js).
//
// Testability contract (tests outside this repo rely on it):
//  - <html data-engine="ready"> once the engine is loaded and the view is interactive
//    ("loading" before, "busy" while a move is being checked, "error" if loading failed);
//  - <html data-shell="drawn"> once a first screen is drawn (possibly before the engine is ready);
//  - index.html#<record> opens that game; every move replaces the fragment with the new record;
//  - every one-click move target carries data-move="<notation>";
//  - #status says whose turn it is or how the game ended.

import { engine } from "./engine.js";
import { h, firstSentence, showMessage } from "./dom.js";
import { confirmDialog, showRules } from "./dialog.js";
import { setupScreen } from "./setup.js";
import { curtain, hotSeatFor, pendingSecret, revealText, seatName, secretBanner } from "./handover.js";
import { movesPanel, replayBanner, summaryPanel } from "./history.js";
import { formatLink, fragmentFromInput, linkErrorPanel, linkURL, parseLink, sameSeal } from "./links.js";
import { deleteSaved, keepEngineAlive, lastUnfinished, newSaveId, onStorageProblem, saveGame, savedGameFor, savedGamesPanel } from "./saved.js";
import { importForm, shareControls, sharePanel } from "./share.js";
import { findSeal, keepSeal, linkOffer, newSalt, oneScreenSwitch, openPickBanner, sealBanner, sealPhase, sealScreen } from "./commit.js";
import { ComputerPlayers, computerPickBanner, hasComputer, isComputer, kindWords } from "./computer.js";
import { EngineStatus, bindStrip, linkForDisplay, waitNote } from "./loading.js";

const root = document.documentElement;
const viewEl = document.getElementById("view");

let buildInfo = null;
let games = []; // the engine's catalog (bridge "games"), from build.json
let current = null; // {record, view} of the open game (public view), or null off the game page
let busy = false;
const renderers = new Map(); // game id -> module with render(view, ui)
const linkedStyles = new Set(); // board stylesheets already linked

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return location.hash.slice(1);
  }
}

// <html data-engine> is the engine's state until it is up ("loading", "error"),
// then the screen's: "ready", or "busy" while a move is checked or a game opens.
let engineUp = false;
let screenState = "ready";

function setEngineState(state) {
  screenState = state;
  root.dataset.engine = engineUp ? screenState : status.state;
}

// A worker that stops mid-game is restarted and the failed request sent again
// (requests carry the whole record, so that re-opens the game where it was).
let notices = []; // [text, kind] shown once the page is next drawn
keepEngineAlive(engine, {
  onRestart: (phase) => {
    if (phase === "restarting") explain("The game engine stopped; restarting it. Your game is safe.", "warning");
    else notices.push(["The game engine stopped and was restarted; your game is as it was.", "info"]);
  },
});
onStorageProblem((text) => notices.push([text, "warning"]));

// Computer seats (computer.js): they move through play() like a person does.
const computers = new ComputerPlayers(engine, {
  game: () => (current && !replay ? { record: current.record, view: current.view } : null),
  busy: () => busy,
  play: (move, seat) => play(move, seat),
  picksReady: async () => {
    while (busy) await new Promise((resolve) => setTimeout(resolve, 40));
    await step(async () => {
      hotseat = await computerHotseat();
      await drawSoon("board");
    });
  },
  humanSeat: () => {
    if (!current || replay || (hotseat && hotseat.phase !== "pick")) return null;
    const seat = actingSeat() ?? (current.view.to_move.length === 1 ? current.view.to_move[0] : null);
    return seat != null && !isComputer(current.view, seat) ? seat : null;
  },
  reopen: async () => { if (current) await engine.request("open", { record: current.record }); },
  redraw: () => (current ? drawSoon("keep") : Promise.resolve()),
  explain: (text, kind) => explain(text, kind),
});

// -- loading -----------------------------------------------------------------------
//
// The engine downloads in the background; the strip at the top (loading.js)
// says how far it is. Whatever needs the engine before it is up (a Start, a
// linked game) waits for engineArrived, showing that it waits.

const status = new EngineStatus(engine, { retry: retryEngine });
bindStrip(status);
let arrive;
const engineArrived = new Promise((resolve) => { arrive = resolve; });

/** Follow the engine's current start: up, or failed (then Try again starts it anew). */
function watchEngine() {
  const ready = engine.ready;
  status.loading();
  setEngineState(screenState);
  ready.then(() => {
    if (engine.ready !== ready || engineUp) return;
    engineUp = true;
    status.up();
    setEngineState(screenState);
    if (engine.timings) console.info("quetgames engine ready", engine.timings);
    arrive();
  }, (error) => {
    if (engine.ready === ready && !engineUp) showLoadError(error);
  });
}

function showLoadError(error) {
  status.failed(error);
  setEngineState(screenState);
}

function retryEngine() {
  engine.start();
  watchEngine();
}

async function readBuildInfo() {
  const response = await fetch("build.json");
  if (!response.ok) throw new Error(`build.json could not be read (${response.status})`);
  return response.json();
}

async function start() {
  watchEngine();
  const info = await readBuildInfo().catch(async (error) => {
    // The worker reads the same file, so once the engine is up it can be read
    // again; failing that, the engine's own list of games and plain boards.
    console.warn(`${error.message}; waiting for the game engine`);
    await engineArrived;
    return readBuildInfo().catch(() => ({ boards: [] }));
  });
  const catalog = Array.isArray(info.games) ? info.games : [];
  try {
    // without a catalog (a build.json from before there was one), the engine lists the games
    games = catalog.length ? catalog : await engineArrived.then(() => engine.request("games"));
  } catch (error) {
    console.warn("the game engine did not list its games:", error);
    games = [];
  }
  buildInfo = { ...info, boards: Array.isArray(info.boards) ? info.boards : [] };
  await routed();
}

// -- routing -----------------------------------------------------------------------

const SETUP = "setup=";
let routeCount = 0; // which route() is the latest: an older one that waited gives way

async function route() {
  const record = fragment();
  const routeId = ++routeCount;
  cancelWaitingStart();
  closeDialogs();
  if (record === "") {
    leaveGame();
    showHome();
    return;
  }
  if (record.startsWith(SETUP)) {
    const game = games.find((g) => g.id === record.slice(SETUP.length));
    leaveGame();
    if (game) showSetup(game);
    else showHome(`There is no game called “${record.slice(SETUP.length, SETUP.length + 40)}” here.`);
    return;
  }
  const link = parseLink(record);
  if (link.error) {
    leaveGame();
    showHome(link.error);
    return;
  }
  if (current && current.record === link.record && sameSeal(current.seal, link.seal)) return;
  // Fetch the board's module and styles now, beside the engine's answer (or
  // its whole download on a first visit), not after it.
  const named = linkForDisplay(link.record, games)?.game;
  if (named) rendererFor(named.id).catch(() => {}); // a failure is met again, and handled, when drawing
  setEngineState("busy");
  if (!engineUp) {
    leaveGame();
    showOpening(link.record);
    await engineArrived;
    if (routeId !== routeCount) return; // the player went elsewhere meanwhile
  }
  let opened;
  try {
    opened = await engine.request("open", { record: link.record });
  } catch (error) {
    if (routeId !== routeCount) return;
    leaveGame();
    showHome(error.message);
    return;
  }
  if (routeId !== routeCount) return;
  const saved = savedGameFor(opened.view);
  // A secret pick made at this screen is kept on this device only (the address
  // shows the public record): take it back from the saved game.
  const savedLink = saved ? parseLink(saved.link) : null;
  if (savedLink && !link.seal && !savedLink.seal && !savedLink.error && savedLink.record !== link.record) {
    try {
      const full = await engine.request("open", { record: savedLink.record });
      if (full.view.record === link.record) opened = full;
    } catch {
      // not usable: open the link as it is
    }
  }
  if (routeId !== routeCount) return;
  const keep = { saveId: saved?.id ?? null, linkSeat: saved?.linkSeat ?? null };
  leaveGame();
  if (link.seal) await openSealed(opened, link.seal, keep);
  else await showGame(opened, keep);
}

function closeDialogs() {
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
}

// (a back/forward between entries always changes the fragment, so hashchange covers it)
window.addEventListener("hashchange", () => buildInfo && routed());

/** route(), then count it in <html data-routes> (tests wait on the count). */
async function routed() {
  try {
    await route();
  } finally {
    root.dataset.routes = String(Number(root.dataset.routes ?? 0) + 1);
  }
}

// -- home page ---------------------------------------------------------------------

function boardModuleName(gameId) {
  return buildInfo.boards.includes(gameId) ? gameId : "generic";
}

/** The card's picture: the board's own thumbnail() once its module has loaded;
 * until then (or without one) a neutral placeholder in the same box. */
function thumbnailBox(game) {
  const box = h("div", { class: "thumb", "aria-hidden": "true" }, h("span", { class: "thumb-placeholder" }, game.name[0]));
  if (buildInfo.boards.includes(game.id)) {
    rendererFor(game.id).then((module) => {
      if (typeof module.thumbnail !== "function") return;
      const picture = module.thumbnail();
      if (picture instanceof Element) box.replaceChildren(picture);
    }).catch((error) => console.warn(`no thumbnail for ${game.id}:`, error));
  }
  return box;
}

// A Start pressed before the engine is up is kept: the button says so, a note
// beside it shows the download, and the game starts once the engine is ready
// (unless the player has gone to another screen, or pressed another Start).
let waitingStart = null; // {cancel} of the Start that waits for the engine

function cancelWaitingStart() {
  waitingStart?.cancel();
}

/** Resolves true once the engine is up (at once if it is), false if this
 * Start was given up meanwhile. `button` shows the wait; the note goes after `place`. */
async function engineForStart(button, place) {
  if (engineUp) return true;
  cancelWaitingStart();
  const words = button.textContent;
  const label = button.getAttribute("aria-label");
  const note = waitNote("Loading the game engine", status, "The game starts as soon as the engine is ready.");
  button.textContent = "Starting as soon as the engine is ready…";
  if (label) button.setAttribute("aria-label", `${label}: starting as soon as the engine is ready`);
  button.classList.add("waiting");
  place.after(note);
  setEngineState("busy"); // once the engine is up, the page is busy starting this game
  let cancel;
  const cancelled = new Promise((resolve) => { cancel = () => resolve(false); });
  const mine = { cancel };
  waitingStart = mine;
  try {
    return await Promise.race([engineArrived.then(() => true), cancelled]);
  } finally {
    if (waitingStart === mine) waitingStart = null;
    button.textContent = words;
    if (label) button.setAttribute("aria-label", label);
    button.classList.remove("waiting");
    note.remove();
  }
}

/** Start a new game; `waiting` ({button, place}): where a Start pressed before the engine is up shows that it waits. */
async function startGame(gameId, options, seats, waiting = null) {
  if (busy) return;
  if (!engineUp) {
    if (!waiting) await engineArrived;
    else if (!(await engineForStart(waiting.button, waiting.place))) return;
  }
  if (busy) return;
  busy = true;
  setEngineState("busy");
  try {
    const created = await engine.request("new", { game: gameId, options, ...(seats ? { seats } : {}) });
    history.pushState(null, "", `#${created.record}`);
    leaveGame();
    await showGame(created, { saveId: newSaveId(), save: true });
  } catch (error) {
    setEngineState("ready");
    throw error;
  } finally {
    busy = false;
  }
}

function gameCard(game) {
  // "Quick start": the usual options and unnamed seats, straight to the board.
  const error = h("p", { class: "form-error", role: "alert" });
  const button = h("button", { type: "submit", class: "secondary", "aria-label": `Quick start ${game.name} with the usual options` }, "Quick start");
  const quick = h("form", { class: "new-game", dataset: { game: game.id } }, button);
  const buttons = h("div", { class: "card-buttons" },
    h("a", { class: "button play", href: `#${SETUP}${game.id}` }, "Play", h("span", { class: "visually-hidden" }, ` ${game.name}`)),
    quick);
  quick.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (button.classList.contains("waiting")) return; // already kept for when the engine is ready
    error.textContent = "";
    try {
      await startGame(game.id, {}, null, { button, place: buttons });
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return h("article", { class: "game-card", id: `game-${game.id}`, "aria-labelledby": `title-${game.id}` },
    thumbnailBox(game),
    h("div", { class: "card-text" },
      h("h2", { id: `title-${game.id}` }, game.name),
      h("p", { class: "summary" }, firstSentence(game.summary ?? "")),
      h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`)),
    buttons,
    error);
}

/** Saved games from this browser's storage; a damaged store must not take the home page with it. */
function savedPanel(linkError) {
  try {
    return savedGamesPanel({
      onDelete: async (entry) => {
        if (await confirmDialog(`Delete the saved game of ${entry.name} (${entry.seats.join(" vs ")})? Its link still works.`)) {
          deleteSaved(entry.id);
          showHome(linkError);
        }
      },
    });
  } catch (error) {
    console.warn("the saved games could not be listed:", error);
    return null;
  }
}

/** The home page; `linkError`: why the link in the address bar opens no game. */
function showHome(linkError = "") {
  document.title = linkError ? "Link not opened · Quet Games" : "Quet Games";
  const storage = notices.find(([, kind]) => kind === "warning")?.[0];
  viewEl.replaceChildren(
    h("section", { class: "home" },
      h("h1", { class: "visually-hidden" }, "Quet Games"),
      linkError ? linkErrorPanel(linkError, { resume: lastUnfinished() }) : null,
      h("p", { class: "intro" },
        "Five pencil-and-paper number games invented by Leroy Quet. Pick one, choose the options, and play with friends at one screen or by link. ",
        "Every game's address holds its whole record, so a link shares the game as it stands."),
      storage ? h("p", { class: "message storage-note", dataset: { kind: "warning" } }, storage) : null,
      savedPanel(linkError),
      h("div", { class: "game-list" }, games.map(gameCard)),
      importForm({ onOpen: openPasted })));
  shellDrawn();
}

/** A first screen is up (the engine may still be loading). */
function shellDrawn() {
  setEngineState("ready");
  root.dataset.shell = "drawn";
}

/** Import: a pasted record or whole link, checked by the engine before the page goes there. */
async function openPasted(text) {
  const fragment = fragmentFromInput(text);
  if (fragment === "") throw new Error("paste a game record (it starts with q1.) or a link to a game");
  const link = parseLink(fragment);
  if (link.error) throw new Error(link.error);
  // before the engine is up, the link's own screen waits for it and then says what it makes of it
  if (engineUp) await engine.request("open", { record: link.record });
  location.hash = fragment;
}

// -- setup screen ------------------------------------------------------------------

/** Computer levels the engine can play, if it says so (none yet: "coming soon"). */
function computerLevels(game) {
  return game.computer_levels ?? game.levels ?? [];
}

function showSetup(game) {
  document.title = `New game of ${game.name} · Quet Games`;
  viewEl.replaceChildren(setupScreen(game, {
    levels: computerLevels(game),
    onRules: () => showRules(game),
    onStart: (options, seats, waiting) => startGame(game.id, options, seats, waiting),
  }));
  shellDrawn();
  viewEl.querySelector(".setup-screen h2")?.focus({ preventScroll: true });
}

// -- a linked game, before the engine can open it --------------------------------------

/** What a link shows while the engine loads: its game's name and seats as the
 * record spells them (loading.js reads them for display only), and the download.
 * A link it cannot read says "Opening a game…"; the engine's verdict follows. */
function showOpening(record) {
  const link = linkForDisplay(record, games);
  const game = link?.game;
  document.title = game ? `${game.name} · Quet Games` : "Opening a game · Quet Games";
  viewEl.replaceChildren(
    h("section", { class: "opening", dataset: { game: game?.id }, "aria-labelledby": "opening-title" },
      h("div", { class: "game-head" },
        h("h2", { id: "opening-title" }, game ? game.name : "Opening a game…"),
        h("nav", { class: "head-links" },
          game?.rules ? h("button", { type: "button", class: "secondary rules-button", onclick: () => showRules(game) }, "How to play") : null,
          h("a", { href: "#", class: "back" }, "All games"))),
      game ? h("p", { class: "inventor" }, `Invented by ${game.inventor ?? "Leroy Quet"}`) : null,
      link?.seats ? h("ol", { class: "opening-seats", "aria-label": "Players" }, link.seats.map((seat, i) =>
        h("li", { dataset: { seat: i } },
          h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
          h("span", { class: "opening-name" }, seat.name),
          seat.computer ? h("span", { class: "seat-kind" }, "computer") : null))) : null,
      h("div", { class: "board opening-board" },
        waitNote(game ? "Getting the game engine ready to show this game" : "Getting the game engine ready to open this link", status))));
  root.dataset.shell = "drawn";
}

// -- game page ---------------------------------------------------------------------
//
// The page shows one of: the game as it stands (the board acts for the seat to
// move); a past position (replay: inert board, the fragment stays the record);
// or, when several people choose in secret at one screen, a hand-over screen
// instead of the board until the right person says they hold the device.

let replay = null; // {ply, plies, view, move} while showing a past position
let hotseat = null; // {phase: "ask" | "handover" | "pick", seat, seatView} (see handover.js)
let reveal = ""; // the round just revealed, in words, shown once

function leaveGame() {
  computers.reset();
  current = null;
  replay = null;
  hotseat = null;
  reveal = "";
}

function linkStyles(module) {
  for (const file of module.styles ?? []) {
    const href = `boards/${file}`;
    if (linkedStyles.has(href)) continue;
    linkedStyles.add(href);
    document.head.append(h("link", { rel: "stylesheet", href }));
  }
}

/** The board module of a game (generic when it has none or its own fails to load). */
function rendererFor(gameId) {
  const name = boardModuleName(gameId);
  if (!renderers.has(name)) {
    const pending = import(`./boards/${name}.js`).then((module) => {
      linkStyles(module);
      return module;
    });
    renderers.set(name, pending);
    pending.catch(() => renderers.delete(name));
  }
  return renderers.get(name);
}

async function boardFor(gameId) {
  try {
    return await rendererFor(gameId);
  } catch (error) {
    console.warn(`the board of ${gameId} did not load; using the generic one`, error);
    return rendererFor("generic");
  }
}

function gameInfo(id) {
  return games.find((g) => g.id === id) ?? { id, name: id };
}

let frame = 0;
let renderer = null;

/** Show `opened` ({record, view} with the public view) on the next animation
 * frame; resolves once drawn. secret: a move in the record is hidden from the view. */
async function showGame(opened, {
  secret = false, revealed = "", focus = null,
  // play by link (links.js, commit.js): the link's seal, "mismatch" when it failed its check,
  // and the seat this device plays by link (null: everyone at this screen)
  seal = null, sealState = null, linkSeat = current?.linkSeat ?? null,
  // the saved-games entry (saved.js); save: keep the game now (after a move)
  saveId = current?.saveId ?? null, save = false,
} = {}) {
  renderer = await boardFor(opened.view.game);
  // a seal's round holds only the second pick, which the first player may see
  current = { ...opened, secret: !seal && (secret || pendingSecret(opened.view)), plies: null, seal, linkSeat, saveId };
  replay = null;
  hotseat = hotSeatFor(current.view, current.secret);
  reveal = revealed;
  if (seal) hotseat = await sealedHotseat(sealState);
  else if (linkSeat != null && hotseat?.phase === "ask" && current.view.to_move.includes(linkSeat)) hotseat = await byLinkHotseat(linkSeat, "seal");
  else if (hasComputer(current.view)) hotseat = await computerHotseat();
  if (save || saveId) {
    current.saveId = saveId ?? newSaveId();
    saveGame({ id: current.saveId, link: formatLink(current.record, seal), view: current.view, linkSeat });
  }
  await drawSoon(focus);
  for (const [text, kind] of notices.splice(0)) explain(text, kind);
}

// -- play by link: Nonconformity's secret picks, sealed (commit.js) -------------------

/** The pick screen of `seat` for play by link: "seal" (first pick, sealed) or "open" (second). */
async function byLinkHotseat(seat, byLink) {
  const opened = await engine.request("open", { record: current.record, seat });
  return { phase: "pick", seat, seatView: opened.view, byLink };
}

/** What a link with a seal shows: the second player's open pick, or a screen. */
async function sealedHotseat(sealState) {
  const { view, seal } = current;
  const kept = findSeal(view.record, seal.seat);
  const phase = sealState ?? sealPhase(view, seal, kept);
  if (phase === "second") return byLinkHotseat(seal.seat === 0 ? 1 : 0, "open");
  return { phase: "link", link: phase === "reveal" ? "waiting" : phase, seat: seal.seat, kept };
}

/** Open a link that carries a seal: reveal the round if this device sealed
 * it and the other pick is in, after checking the seal; else show where it stands. */
async function openSealed(opened, seal, keep) {
  const kept = findSeal(opened.view.record, seal.seat);
  const phase = sealPhase(opened.view, seal, kept);
  if (phase === "stale") {
    showHome("the sealed pick in that link belongs to no round being chosen now (the round is over, or the seal names the wrong player)");
    return;
  }
  if (phase !== "reveal") {
    await showGame(opened, { ...keep, seal });
    return;
  }
  try {
    const hex = await engine.request("commitment", { salt: kept.salt, pick: kept.pick });
    if (hex !== seal.hex) {
      await showGame(opened, { ...keep, seal, sealState: "mismatch" });
      return;
    }
    const before = opened.view;
    const played = await engine.request("play", { record: opened.record, move: kept.pick, seat: seal.seat });
    const revealed = await engine.request("open", { record: played.record });
    history.replaceState(null, "", `#${revealed.record}`);
    const words = `${revealText(before, revealed.view)}. ${seatName(before, seal.seat)}'s pick matched its seal.`;
    await showGame(revealed, { ...keep, linkSeat: seal.seat, save: true, revealed: words, focus: "board" });
  } catch (error) {
    await showGame(opened, { ...keep, seal, sealState: "mismatch" });
    explain(`The sealed pick could not be played: ${error.message}`, "error");
  }
}

/** Seal the first pick of a round: commitment in the link, salt and pick kept here. */
async function sealPick(record, seat, pick) {
  const salt = newSalt();
  const hex = await engine.request("commitment", { salt, pick });
  if (!keepSeal({ record, seat, salt, pick, hex })) {
    throw new Error("this browser would not keep the sealed pick (its storage is blocked or full), so it cannot be sealed here; play at one screen instead");
  }
  return { seat, hex };
}

function chooseLinkSeat(seat) {
  return step(async () => {
    current.linkSeat = seat;
    hotseat = await byLinkHotseat(seat, "seal");
    await drawSoon("board");
  });
}

/** The page's secrecy screen with computer seats: none for a computer, and the
 * one person at the screen picks straight away once the computers' picks are held. */
async function computerHotseat() {
  const { view, record } = current;
  if (view.is_over) return null;
  if (computers.waiting(view, record).length) return null; // the computers choose first
  const humans = view.to_move.filter((seat) => !isComputer(view, seat));
  const computerPicked = computers.heldPicks(record).length > 0 || current.secret;
  if (humans.length === 1 && computerPicked) {
    const opened = await engine.request("open", { record, seat: humans[0] });
    const others = view.seats.map((_, seat) => seat).filter((seat) => seat !== humans[0] && isComputer(view, seat));
    return { phase: "pick", seat: humans[0], seatView: opened.view, computers: others };
  }
  return hotseat && isComputer(view, hotseat.seat) ? null : hotseat;
}

function playAtOneScreen() {
  current.linkSeat = null;
  hotseat = hotSeatFor(current.view, current.secret);
  return drawSoon("board");
}

/** What to do with the link now, in words, under "Share this game". */
function shareAdvice(view) {
  if (view.is_over) return "The game is over: this link shows it, and every move can be stepped through.";
  if (hasComputer(view) || view.seats.length === 1) return "This link holds the game as it stands (the computer players too): open it on any device to carry on.";
  if (current.seal && hotseat?.byLink === "open") {
    return `Choose your number first; then send the new link back to ${seatName(view, current.seal.seat)}.`;
  }
  if (current.seal && hotseat?.phase === "link") {
    const sealer = seatName(view, current.seal.seat);
    const picker = seatName(view, current.seal.seat === 0 ? 1 : 0);
    return hotseat.link === "sealed" ? `Send this link to ${picker}: it carries a seal of your pick, not the pick.`
      : `Send this link to ${sealer}, who sealed a pick and reveals the round by opening it.`;
  }
  return "Send this link to the next player: they make their move on their own device and send the new link back. The link always holds the game as it stands.";
}

/** Redraw on the next animation frame (one draw per frame); resolves once drawn. */
function drawSoon(focus = null) {
  cancelAnimationFrame(frame);
  return new Promise((resolve) => {
    frame = requestAnimationFrame(() => {
      if (current) drawGame(focus);
      setEngineState("ready");
      if (current) {
        computers.showHint();
        computers.schedule();
      }
      resolve();
    });
  });
}

function actingSeat() {
  return hotseat?.phase === "pick" ? hotseat.seat : null;
}

function makeUi(replaying) {
  const seat = actingSeat();
  return {
    seat,
    replaying,
    play: (notation) => play(notation),
    explain: (text, kind = "info") => explain(text, kind),
    preview: (move) => preview(move, seat),
    confirm: (text) => confirmDialog(text),
  };
}

function explain(text, kind = "info") {
  showMessage(text, kind);
}

async function preview(move, seat) {
  if (!current) throw new Error("no game is open");
  return engine.request("preview", { record: current.record, move: String(move), ...(seat != null ? { seat } : {}) });
}

/** Play a move for the acting seat; resolves true once the new position is
 * drawn, false (with the engine's reason shown, nothing changed) if refused. */
async function play(notation, computerSeat = null) {
  if (busy || !current || replay) return false;
  if (computerSeat == null && computers.blocksHuman(current.view, current.record)) {
    explain(computers.whyBlocked(current.view, current.record), "warning");
    return false;
  }
  const seat = computerSeat ?? actingSeat();
  const before = current.view;
  const byLink = hotseat?.byLink ?? null;
  busy = true;
  setEngineState("busy");
  try {
    // a computer's pick of this round, held until the last pick (computer.js), goes in first
    let record = current.record;
    for (const [heldSeat, move] of computers.heldPicks(record)) {
      if (heldSeat !== seat) record = (await engine.request("play", { record, move, seat: heldSeat })).record;
    }
    let played = await engine.request("play", { record, move: String(notation), ...(seat != null ? { seat } : {}) });
    // a seat's own view may hold its secret pick: the page keeps only the public one
    if (seat != null) played = await engine.request("open", { record: played.record });
    // by link, a first pick is sealed: the link keeps the round's secret-free record
    let seal = current.seal;
    if (byLink === "seal") {
      seal = await sealPick(played.view.record, seat, String(notation));
      played = await engine.request("open", { record: played.view.record });
    }
    // A pick made at this screen and still secret stays out of the address bar
    // (anyone can read that); the saved game on this device keeps it.
    const shown = byLink === null && played.view.record !== played.record ? played.view.record : played.record;
    history.replaceState(null, "", `#${formatLink(shown, seal)}`);
    const hidden = !played.view.is_over && played.view.history.length === before.history.length;
    await showGame(played, {
      secret: hidden, revealed: revealText(before, played.view), focus: "board",
      seal, linkSeat: byLink ? seat : current.linkSeat, save: true,
    });
    return true;
  } catch (error) {
    // Nothing changes: the same view stays, with the engine's explanation.
    explain(error.message, "error");
    setEngineState("ready");
    return false;
  } finally {
    busy = false;
  }
}

/** Run one engine call as the page's busy step (no other move meanwhile). */
async function step(work) {
  if (busy || !current) return;
  busy = true;
  setEngineState("busy");
  try {
    await work();
  } catch (error) {
    explain(error.message, "error");
  } finally {
    setEngineState("ready");
    busy = false;
  }
}

async function plyCount() {
  if (current.plies == null) current.plies = (await engine.request("at", { record: current.record, ply: 0 })).plies;
  return current.plies;
}

function replayTo(ply) {
  return step(async () => {
    const plies = await plyCount();
    const wanted = Math.max(0, Math.min(ply, plies));
    if (wanted >= plies) {
      replay = null;
    } else {
      const at = await engine.request("at", { record: current.record, ply: wanted });
      replay = { ply: wanted, plies: at.plies, view: at.view, move: current.view.history[wanted - 1] };
    }
    await drawSoon("keep");
  });
}

function exitReplay() {
  replay = null;
  return drawSoon("exit-replay");
}

function undo() {
  return step(async () => {
    if (replay) return;
    const plies = await plyCount();
    if (plies === 0) return;
    // with a computer seat: back to before the person's last move (computer.js)
    const ply = await computers.undoPly(current.record, current.view, plies);
    if (ply == null) {
      explain("There is no move of yours to take back.", "info");
      return;
    }
    const at = await engine.request("at", { record: current.record, ply });
    history.replaceState(null, "", `#${at.record}`);
    await showGame({ record: at.record, view: at.view }, { secret: at.view.history.length < ply, focus: "undo" });
    explain(plies - ply > 1 ? "Your last move and the computer's reply were taken back." : "The last move was taken back.", "info");
  });
}

function showSeatBoard() {
  return step(async () => {
    if (!hotseat) return;
    const opened = await engine.request("open", { record: current.record, seat: hotseat.seat });
    hotseat = { ...hotseat, phase: "pick", seatView: opened.view };
    reveal = "";
    await drawSoon("board");
  });
}

function playAgain() {
  const { view } = current;
  const seats = view.seats.map((seat, i) => ({ name: seat.name === `Player ${i + 1}` ? "" : seat.name, kind: seat.kind }));
  return startGame(view.game, view.options ?? {}, seats).catch((error) => explain(error.message, "error"));
}

function seatList(view) {
  const over = view.is_over;
  const best = current ? computers.solitaireBest(view, current.record) : null;
  return h("ol", { class: "seats", "aria-label": "Players" }, view.seats.map((_, i) => {
    const toMove = !over && view.to_move.includes(i);
    const won = view.winners.includes(i);
    return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      kindWords(view, i) ? h("span", { class: "seat-kind" }, ...kindWords(view, i)) : null,
      h("span", { class: "score", "aria-label": `score ${view.scores[i] ?? 0}` }, String(view.scores[i] ?? 0)),
      best ? h("span", { class: "best-score", dataset: { exact: String(best.exact) } },
        best.exact ? `best possible: ${best.score}` : `best possible: at least ${best.score} (best found)`) : null,
      toMove ? h("span", { class: "badge turn" }, "to move") : null,
      won ? h("span", { class: "badge won" }, "winner") : null);
  }));
}

function boardArea(view) {
  const area = h("div", { id: "board", class: "board" });
  if (replay) {
    const drawn = renderer.render(replay.view, makeUi(true));
    // a past position is a picture: nothing in it plays
    for (const el of drawn.querySelectorAll("[data-move], [data-try]")) {
      el.removeAttribute("data-move");
      el.removeAttribute("data-try");
    }
    area.inert = true;
    area.classList.add("replaying");
    area.append(drawn);
  } else if (hotseat?.phase === "link") {
    area.classList.add("curtained");
    area.append(sealScreen(view, {
      phase: hotseat.link, seal: current.seal, kept: hotseat.kept,
      share: hotseat.link === "mismatch" ? null : shareControls(location.href, { id: "seal-link", title: "Quet Games", text: shareAdvice(view) }),
    }));
  } else if (hotseat && hotseat.phase !== "pick") {
    area.classList.add("curtained");
    area.append(h("div", { class: "curtain-stack" },
      curtain(view, hotseat, { reveal, onShow: showSeatBoard }),
      hotseat.phase === "ask" && view.seats.length === 2 ? linkOffer(view, chooseLinkSeat) : null));
  } else if (hotseat) {
    const banner = hotseat.computers ? computerPickBanner(view, hotseat.seat, hotseat.computers, { reveal })
      : hotseat.byLink === "seal" ? sealBanner(view, hotseat.seat, { reveal })
      : hotseat.byLink === "open" ? openPickBanner(view, hotseat.seat, current.seal.seat)
      : secretBanner(view, hotseat.seat);
    area.append(banner, renderer.render(hotseat.seatView, makeUi(false)),
      hotseat.byLink === "seal" ? oneScreenSwitch(playAtOneScreen) : "");  // native append would print null
  } else if (computers.blocksHuman(view, current.record)) {
    // a computer is choosing: the board is a picture until it has
    const drawn = renderer.render(view, makeUi(true));
    for (const el of drawn.querySelectorAll("[data-move], [data-try]")) {
      el.removeAttribute("data-move");
      el.removeAttribute("data-try");
    }
    area.inert = true;
    area.classList.add("computer-turn");
    area.append(drawn);
  } else {
    area.append(renderer.render(view, makeUi(false)));
  }
  return area;
}

function drawGame(focus) {
  const { record, view, secret } = current;
  const game = gameInfo(view.game);
  const focusKey = focus === "keep" ? document.activeElement?.closest?.("[data-key]")?.dataset.key : focus;
  const focusInBoard = document.getElementById("board")?.contains(document.activeElement);
  document.title = `${game.name} · Quet Games`;

  const shown = replay ? replay.view : view;
  const canPlay = !replay && !view.is_over && !(hotseat && hotseat.phase !== "pick") && !computers.blocksHuman(view, record);
  const input = h("input", { id: "move-input", name: "move", autocomplete: "off", spellcheck: "false", placeholder: view.legal_moves[0] ?? "" });
  const moveForm = h("form", { id: "move-form", class: "move-form" },
    h("label", { for: "move-input" }, "Type a move"), input, h("button", { type: "submit" }, "Play"));
  moveForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) play(text);
  });
  const plies = view.history.length + (secret ? 1 : 0);

  viewEl.replaceChildren(
    // while a secret pick waits the record holds it: it stays out of the page
    h("section", { class: "game", dataset: { game: view.game, record: secret ? null : record } },
      h("div", { class: "game-head" },
        h("h2", {}, game.name),
        h("nav", { class: "head-links" },
          game.rules ? h("button", { type: "button", class: "secondary rules-button", dataset: { key: "rules" }, onclick: () => showRules(game) }, "How to play") : null,
          // an embed carries the record, so not while it holds a secret pick
          secret ? null : h("button", { type: "button", class: "secondary embed-button", dataset: { key: "embed" },
            onclick: () => import("./embed-snippet.js").then((m) => m.openEmbedDialog({ record, name: game.name, plies })) }, "Embed"),
          h("a", { href: "#", class: "back" }, "All games"))),
      h("p", { id: "status", class: view.is_over ? "status over" : "status", "aria-live": "polite" }, view.status),
      seatList(shown),
      view.is_over && !replay ? summaryPanel(view, { onPlayAgain: playAgain }) : null,
      h("div", { class: "game-body" },
        h("div", { class: "board-col" },
          replay ? replayBanner(replay, exitReplay) : null,
          computers.bar(view, record, { replaying: !!replay }),
          boardArea(view),
          h("p", { id: "message", class: "message", role: "alert" }),
          h("p", { id: "note", class: "note", role: "status" }, !hotseat && reveal ? reveal : ""),
          canPlay ? moveForm : null),
        h("aside", { class: "side" },
          movesPanel({
            moves: view.history, ply: replay ? replay.ply : null, plies,
            // no taking back while a secret pick waits: the next player holds the device
            canUndo: plies > 0 && !secret && !current.seal && (hotseat?.phase !== "pick" || !!hotseat.computers) && !computers.thinking && !computers.restarting,
            canReplay: hotseat?.phase !== "pick" || !!hotseat.computers,
          }, { replayTo, exit: exitReplay, undo }))),
      // (a sealed link's own screen offers the link itself)
      secret || hotseat?.phase === "link" ? null : sharePanel({ url: location.href, record: formatLink(record, current.seal), advice: shareAdvice(view), title: `${game.name} · Quet Games` })));

  restoreFocus(focusKey, focusInBoard);
}

function restoreFocus(key, wasInBoard) {
  const board = document.getElementById("board");
  let el = null;
  if (key === "board" || (key == null && wasInBoard)) {
    el = board.querySelector(".curtain button, [data-move][tabindex='0'], [data-move], [tabindex='0'], button, input");
  } else if (key === "exit-replay") {
    el = document.querySelector("[data-key=back]");
  } else if (key) {
    el = document.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (el?.disabled) el = document.querySelector(".replay-nav button:not(:disabled)") ?? document.querySelector("[data-key=undo]:not(:disabled)");
  }
  if (current?.view.is_over && !replay && key !== "keep" && document.getElementById("summary") && (key === "board" || wasInBoard)) {
    el = document.getElementById("summary-title");
  }
  if (hotseat && hotseat.phase !== "pick" && (key === "board" || wasInBoard)) el = document.getElementById("curtain-title") ?? el;
  el?.focus({ preventScroll: key !== "board" });
}

// One delegated handler: any element with data-move is a one-click move
// (board modules built on svg.js handle their own targets and stop the event).
viewEl.addEventListener("click", (event) => {
  const target = event.target.closest?.("[data-move]");
  if (target && viewEl.contains(target) && !target.closest("[disabled], [inert]")) {
    event.preventDefault();
    play(target.dataset.move);
  }
});
viewEl.addEventListener("keydown", (event) => {
  const target = event.target.closest?.("[data-move]");
  if (target && (event.key === "Enter" || event.key === " ") && target.tagName !== "BUTTON") {
    event.preventDefault();
    play(target.dataset.move);
  }
});

start();
