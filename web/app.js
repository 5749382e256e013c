// The shell: routing and page wiring. A home page listing the games, setup
// screens, and a game page: the game view (gameview.js, shared with the
// embed), which draws view() with the game's board renderer and sends
// notations back. No rule lives here: legal moves, status and scores all come
// from the engine.
// The game list, setup screens and rules come from the engine's catalog in
// build.json, so they are drawn at once while the engine downloads (loading.js).
//
// Testability contract (tests outside this repo rely on it):
//  - <html data-engine="ready"> once the engine is loaded and the view is interactive
//    ("loading" before, "busy" while a move is being checked, "error" if loading failed);
//  - <html data-shell="drawn"> once a first screen is drawn (possibly before the engine is ready);
//  - index.html#<record> opens that game; every move replaces the fragment with the new record;
//  - index.html#puzzle=<id> opens a puzzle (puzzles.js): #puzzle-answer (role=status) says what a move did;
//  - index.html#learn=<game id> opens that game's lesson (lesson.js): #lesson-said (role=status) says the task and each answer;
//  - every one-click move target carries data-move="<notation>";
//  - #status says whose turn it is or how the game ended.

import { engine } from "./bridge/engine.js";
import { h, firstSentence } from "./ui/dom.js";
import { confirmDialog } from "./ui/dialog.js";
import { showRules } from "./features/help.js";
import { setupScreen } from "./shell/setup.js";
import { forfeitedHere, hotSeatRecord } from "./view/commit.js";
import { checkAgainstSaved, conflictPanel, fragmentFromInput, linkErrorPanel, parseLink } from "./share/links.js";
import { changedElsewhere, checkSavedRecords, damagedNote, deleteSaved, gameSaveId, knowSaved, lastUnfinished, onSaveConflict, onStorageProblem, savedGames, savedGamesPanel } from "./share/saved.js";
import { watchTabs } from "./share/tabs.js";
import { backupPanel, storageNotes } from "./share/backup.js";
import { importForm } from "./share/share.js";
import { EngineStatus, bindStrip, linkForDisplay, waitNote } from "./shell/loading.js";
import { boardFor, loadBoard } from "./boards/index.js";
import { GameView } from "./view/gameview.js";
import { useEngineIdentity } from "./features/analysis.js";
import { withBalance } from "./features/balance.js";
import { puzzlesPanel, showPuzzle } from "./features/puzzles.js";
import { lessonPlay, lessonState, progressWords } from "./features/lesson.js";

const root = document.documentElement;
const viewEl = document.getElementById("view");

let buildInfo = null;
let games = []; // the engine's catalog (bridge "games"), from build.json

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
// (every request of the game view asks engine.js to; it carries the whole
// record, so that re-opens the game where it was).
const notices = []; // [text, kind] shown once the page is next drawn
engine.onRestart((phase) => {
  if (phase === "restarting") gameView.explain("The game engine stopped; restarting it. Your game is safe.", "warning");
  else notices.push(["The game engine stopped and was restarted; your game is as it was.", "info"]);
});
onStorageProblem((text) => notices.push([text, "warning"]));

// The game page: the game view shared with the embed (gameview.js).
const gameView = new GameView(viewEl, {
  engine,
  layout: "page",
  boardFor: (gameId) => boardFor(gameId, buildInfo.boards),
  gameInfo: (id) => gameInfo(id),
  setEngineState: (state) => setEngineState(state),
  byLink: true,
  saves: true,
  onPlayAgain: () => playAgain(),
  takeNotices: () => notices.splice(0),
  // another tab moved this game on: catch up first, and this move is not played
  beforeMove: (current) => !catchUp(current),
});

// The storage bar: a save refused (with Export) above the page, where it is
// seen at once; what the browser answered about keeping the storage, which
// the first save brings, below it, so the board a move was just played on
// does not move down (on a phone it was pushed some 180 px).
const storageBar = h("div", { class: "storage-bar", id: "storage-bar", role: "status", hidden: true });
viewEl.before(storageBar);
storageNotes(storageBar, { place: (kind) => (kind === "unsaved" ? viewEl.before(storageBar) : viewEl.after(storageBar)) });

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
    games = catalog.length ? withBalance(catalog, info.balance) : await engineArrived.then(() => engine.request("games", {}, { retry: true }));
  } catch (error) {
    console.warn("the game engine did not list its games:", error);
    games = [];
  }
  buildInfo = { ...info, boards: Array.isArray(info.boards) ? info.boards : [] };
  useEngineIdentity(info.wheel_sha256);
  await routed();
}

// -- routing -----------------------------------------------------------------------

const SETUP = "setup=";
const PUZZLE = "puzzle="; // #puzzle=<id>, #puzzle=today (the day's, from the date alone), #puzzle=next (the unanswered one nearest the player's rating, puzzles.js)
const LEARN = "learn="; // #learn=<game id>: the game's lesson (lesson.js, docs/LEARN.md)
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
  if (record.startsWith(LEARN)) {
    leaveGame();
    await showLesson(record.slice(LEARN.length), routeId);
    return;
  }
  if (record.startsWith(PUZZLE)) {
    leaveGame();
    setEngineState("busy");
    try {
      await showPuzzle(viewEl, record.slice(PUZZLE.length), {
        ask: askWhenUp, boardFor: (gameId) => boardFor(gameId, buildInfo.boards), games, drawn: shellDrawn,
      });
    } catch (error) {
      if (routeId === routeCount) showHome(error.message);
    }
    return;
  }
  const link = parseLink(record);
  if (link.error) {
    leaveGame();
    showHome(link.error);
    return;
  }
  const { current } = gameView;
  if (current && current.record === link.record) return;
  // Fetch the board's module and styles now, beside the engine's answer (or
  // its whole download on a first visit), not after it.
  const named = linkForDisplay(link.record, games)?.game;
  if (named) boardFor(named.id, buildInfo.boards).catch(() => {}); // a failure is met again, and handled, when drawing
  setEngineState("busy");
  if (!engineUp) {
    leaveGame();
    showOpening(link.record);
    await engineArrived;
    if (routeId !== routeCount) return; // the player went elsewhere meanwhile
  }
  let opened;
  try {
    opened = await engine.request("open", { record: link.record }, { retry: true });
  } catch (error) {
    if (routeId !== routeCount) return;
    leaveGame();
    // a reveal that fails its seal (or a seal rewritten): the engine refuses the record, naming the round
    if (error.type === "InvalidRecord" && /seal/i.test(error.message)) showHome("", conflictPanel("seal", error.message));
    else showHome(error.message);
    return;
  }
  if (routeId !== routeCount) return;
  // A link of a game this device holds must continue it move for move (seals
  // and reveals included), and give up no sealed pick whose secret is here;
  // else the player chooses, and nothing is overwritten. (The engine compares
  // the records: links.js checkAgainstSaved.)
  const { saved, changed } = await checkAgainstSaved((call, args) => engine.request(call, args, { retry: true }),
    opened.record, savedGames().filter((e) => e.game === opened.view.game));
  if (routeId !== routeCount) return;
  const diff = changed?.message ?? null;
  // A secret pick made at this screen is kept on this device only (the address
  // shows the public record): take it back from the saved game.
  const secretRecord = saved ? hotSeatRecord(saved.id) : null;
  if (secretRecord && secretRecord !== link.record) {
    try {
      const full = await engine.request("open", { record: secretRecord }, { retry: true });
      if (full.record === link.record) opened = full;
    } catch {
      // not usable: open the link as it is
    }
  }
  if (routeId !== routeCount) return;
  const forfeit = diff ? null : forfeitedHere(opened.view);
  if (diff || forfeit) {
    const mine = changed?.entry ?? saved;
    const who = forfeit ? opened.view.seats?.[forfeit.seat]?.name || `Player ${forfeit.seat + 1}` : "";
    leaveGame();
    showHome("", conflictPanel(diff ? "changed" : "forfeit", diff
      ?? `this link gives up ${who}'s sealed pick of round ${forfeit.round}, but the secret that reveals it is on this device, so it was not given up here`, [
      mine ? { label: "Keep my game", key: "keep-mine", href: `#${mine.link}`, primary: true } : null,
      // (saved at once as a game of its own, so that it opens silently next time)
      // under an id of its own, so that it is never taken for the game held here (docs/RECORD.md)
      { label: "Open the link as a separate game", key: "open-separate", onClick: async () => {
        leaveGame();
        const apart = diff ? await engine.request("new_id", { record: opened.private_record }, { retry: true }) : opened;
        // the address names the game shown (its new id), without routing again
        if (apart !== opened) history.replaceState(null, "", `#${apart.record}`);
        gameView.show(apart, { saveId: null, linkSeat: null, save: true });
      } },
    ].filter(Boolean)));
    return;
  }
  const keep = { saveId: saved?.id ?? null, linkSeat: saved?.linkSeat ?? null };
  // (this tab now holds the saved game as stored: a later change in another tab is seen as one)
  if (saved) knowSaved(saved.id, saved.record);
  const sameGame = gameView.current?.view.game_id != null && gameView.current.view.game_id === opened.view.game_id;
  leaveGame();
  await gameView.openLink(opened, keep);
  // another game than the one on screen (a link, Resume) opens at its heading, wherever the page was scrolled
  if (!sameGame) window.scrollTo({ top: 0 });
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

/** The card's picture: the board's own thumbnail() once its module has loaded;
 * until then (or without one) a neutral placeholder in the same box. */
function thumbnailBox(game) {
  const box = h("div", { class: "thumb", "aria-hidden": "true" }, h("span", { class: "thumb-placeholder" }, game.name[0]));
  if (buildInfo.boards.includes(game.id)) {
    loadBoard(game.id).then((module) => {
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
  if (gameView.busy) return;
  if (!engineUp) {
    if (!waiting) await engineArrived;
    else if (!(await engineForStart(waiting.button, waiting.place))) return;
  }
  if (gameView.busy) return;
  gameView.busy = true;
  setEngineState("busy");
  try {
    const created = await engine.request("new", { game: gameId, options, ...(seats ? { seats } : {}) }, { retry: true });
    history.pushState(null, "", `#${created.record}`);
    leaveGame();
    await gameView.show(created, { save: true, focus: "board" }); // a keyboard player starts on the board
    window.scrollTo({ top: 0 }); // (at its heading, wherever the setup page was scrolled to its Start)
  } catch (error) {
    setEngineState("ready");
    throw error;
  } finally {
    gameView.busy = false;
  }
}

function gameCard(game) {
  // "Quick start": the usual options and unnamed seats, straight to the board.
  const error = h("p", { class: "form-error", role: "alert" });
  const button = h("button", { type: "submit", class: "secondary", "aria-label": `Quick start ${game.name} with the usual options` }, "Quick start");
  const quick = h("form", { class: "new-game", dataset: { game: game.id } }, button);
  const buttons = h("div", { class: "card-buttons" },
    h("a", { class: "button play", href: `#${SETUP}${game.id}` }, "Play", h("span", { class: "visually-hidden" }, ` ${game.name}`)),
    quick,
    ...learnLink(game));
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

/** The card's Learn link, and how far this device got in the lesson ("Learned: lesson finished"). */
function learnLink(game) {
  const words = progressWords(lessonState(game.id));
  return [
    h("a", { class: "button secondary learn", href: `#${LEARN}${game.id}`, "aria-label": `Learn ${game.name} by playing (one minute)` }, "Learn"),
    words ? h("span", { class: "learned", dataset: { learned: String(lessonState(game.id).finished) } }, words) : null,
  ];
}

// -- a lesson ----------------------------------------------------------------------

/** The lesson page of `gameId` (#learn=): its heading at once from the
 * catalog, the lesson (lesson.js) once the engine is up. */
async function showLesson(gameId, routeId) {
  const game = games.find((g) => g.id === gameId);
  if (!game) {
    showHome(`There is no game called “${gameId.slice(0, 40)}” here, so there is no lesson for it.`);
    return;
  }
  document.title = `Learn ${game.name} · Quet Games`;
  setEngineState("busy");
  const stage = h("div", { class: "lesson-stage" },
    engineUp ? null : waitNote("Loading the game engine", status, "The lesson starts as soon as the engine is ready."));
  viewEl.replaceChildren(h("section", { class: "learn", dataset: { game: game.id }, "aria-labelledby": "learn-title" },
    h("div", { class: "game-head" },
      h("h1", { id: "learn-title" }, `Learn ${game.name}`),
      h("nav", { class: "head-links" },
        game.rules ? h("button", { type: "button", class: "secondary rules-button", onclick: () => showRules(game) }, "How to play") : null,
        h("a", { href: "#", class: "back" }, "All games"))),
    h("p", { class: "inventor" }, `${game.name}, a game invented by ${game.inventor ?? "Leroy Quet"}: learn it in a minute, a small position and one task a step.`),
    stage));
  root.dataset.shell = "drawn";
  window.scrollTo({ top: 0 }); // (at its heading, wherever the page before was scrolled)
  try {
    await lessonPlay(stage, {
      ask: askWhenUp, boardFor: (id) => boardFor(id, buildInfo.boards), game: game.id,
      fullGame: `#${SETUP}${game.id}`,
    });
  } catch (error) {
    if (routeId !== routeCount) return;
    stage.replaceChildren(h("p", { class: "message", dataset: { kind: "error" }, role: "alert" }, `The lesson could not be opened: ${error.message}`));
  }
  if (routeId === routeCount) shellDrawn();
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
function showHome(linkError = "", conflict = null) {
  document.title = linkError || conflict ? "Link not opened · Quet Games" : "Quet Games";
  const storage = notices.find(([, kind]) => kind === "warning")?.[0];
  const saved = savedPanel(linkError); // (read first: it sets aside damaged entries, which damagedNote reports)
  viewEl.replaceChildren(
    h("section", { class: "home" },
      h("h1", { class: "visually-hidden" }, "Quet Games"),
      conflict ?? (linkError ? linkErrorPanel(linkError, { resume: lastUnfinished() }) : null),
      h("p", { class: "intro" },
        "Five pencil-and-paper number games invented by Leroy Quet. Pick one, choose the options, and play with friends at one screen or by link. ",
        "Every game's address holds its whole record, so a link shares the game as it stands."),
      storage ? h("p", { class: "message storage-note", dataset: { kind: "warning" } }, storage) : null,
      damagedNote(),
      h("div", { id: "saved-slot" }, saved),
      h("div", { class: "game-list" }, games.map(gameCard)),
      buildInfo?.puzzles ? puzzlesPanel() : null,
      importForm({ onOpen: openPasted }),
      backupPanel({ ask: askWhenUp, onImported: () => refreshSavedList(linkError) })));
  shellDrawn();
  checkSavedSoon(linkError, conflict);
}

/** The engine, once it is up. */
async function askWhenUp(call, args) {
  await engineArrived;
  return engine.request(call, args, { retry: true });
}

/** The home page's list of saved games drawn again (another tab saved, an import). */
function refreshSavedList(linkError = "") {
  const slot = document.getElementById("saved-slot");
  if (!slot) return;
  const hadFocus = slot.contains(document.activeElement);
  slot.replaceChildren(...[savedPanel(linkError)].filter(Boolean));
  if (hadFocus) slot.querySelector("a.resume")?.focus({ preventScroll: true });
}

/** Once the engine is up, it reads every saved game's record; one it refuses
 * is set aside (saved.js), and the home page, if still shown, says so. */
function checkSavedSoon(linkError, conflict) {
  const routeId = routeCount;
  engineArrived
    .then(() => checkSavedRecords((call, args) => engine.request(call, args, { retry: true })))
    .then(({ setAside, learned }) => { if ((setAside || learned) && routeId === routeCount && viewEl.querySelector(".home")) showHome(linkError, conflict); })
    .catch((error) => console.warn("the saved games could not be checked:", error));
}

/** A first screen is up (the engine may still be loading). */
function shellDrawn() {
  setEngineState("ready");
  root.dataset.shell = "drawn";
}

/** Import: a pasted record or whole link, checked by the engine before the page goes there. */
async function openPasted(text) {
  const fragment = fragmentFromInput(text);
  if (fragment === "") throw new Error("paste a game record (it starts with q1. or q2.) or a link to a game");
  const link = parseLink(fragment);
  if (link.error) throw new Error(link.error);
  // before the engine is up, the link's own screen waits for it and then says what it makes of it
  if (engineUp) await engine.request("open", { record: link.record }, { retry: true });
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
  viewEl.querySelector(".setup-screen h1")?.focus({ preventScroll: true });
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
        h("h1", { id: "opening-title" }, game ? game.name : "Opening a game…"),
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

// -- tabs that agree (tabs.js) -----------------------------------------------------------
//
// Every tab showing a saved game follows it when another tab saves it: the new
// record is opened as any link is (route), so the game on screen is the one
// stored. A tab that missed that (catchUp, before a move) catches up first
// and plays nothing. A save that finds the stored game moved on (two tabs
// moved from one position) is not written: the player chooses.

const TAB_WORDS = "This game was played on in another tab; here it is as it stands now.";
let tabConflict = false; // a save was refused for another tab's: the player chooses, nothing follows meanwhile

/** The saved game `id` is the game on screen: saved under that id here, or,
 * not saved here yet, saved under its game id by another tab. */
function showsSaved(id) {
  const { current } = gameView;
  return !!current && (current.saveId != null ? current.saveId === id : gameSaveId(current.view) === id);
}

/** Show the saved entry's record in place of the game on screen (the same game, further on). */
async function followSaved(entry, words) {
  while (gameView.busy) await new Promise((resolve) => setTimeout(resolve, 40));
  const { current } = gameView;
  if (tabConflict || !current || !showsSaved(entry.id) || current.record === entry.link) return;
  knowSaved(entry.id, entry.record);
  notices.push([words, "info"]);
  history.replaceState(null, "", `#${entry.link}`);
  await routed();
}

/** The saved copy of the game on screen, if another tab saved it as something
 * else than this tab knew (a game this tab has not saved yet is looked up
 * under its game id, against the record it shows); else null. */
function storedElsewhere(current) {
  if (!current) return null;
  return current.saveId != null ? changedElsewhere(current.saveId) : changedElsewhere(gameSaveId(current.view), current.record);
}

// A tab brought to the front looks again, in case a save of another tab's
// reached it while it could not follow (busy, or a browser that held it back).
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || gameView.busy) return;
  const stored = storedElsewhere(gameView.current);
  if (stored) followSaved(stored, TAB_WORDS).catch((error) => console.warn("could not follow the other tab:", error));
});

/** Before a move: true (and the game brought up to date) if another tab moved it on. */
function catchUp(current) {
  const stored = storedElsewhere(current);
  if (!stored) return false;
  followSaved(stored, "This game was played on in another tab, so your move was not played: here it is as it stands now. Play your move again if it still fits.");
  return true;
}

watchTabs({
  onList: () => { if (viewEl.querySelector(".home")) refreshSavedList(); },
  onGame: (id, entry) => {
    if (entry && showsSaved(id)) followSaved(entry, TAB_WORDS).catch((error) => console.warn("could not follow the other tab:", error));
  },
});

onSaveConflict(({ id, mine, theirs }) => {
  const record = gameView.current?.saveId === id ? gameView.current.private_record : mine.link;
  tabConflict = true;
  // (after the move's own drawing and saving have finished)
  setTimeout(() => showTabConflict(record, mine, theirs).catch((error) => console.warn("the tab conflict could not be shown:", error)), 0);
});

async function showTabConflict(record, mine, theirs) {
  let words = `in another tab this game went on to ${theirs.moves} ${theirs.moves === 1 ? "move" : "moves"} while you played here from the same position`;
  try {
    const answer = await engine.request("compare", { mine: theirs.record, theirs: mine.record }, { retry: true });
    if (answer.relation === "changed" && answer.where) words = `at ${answer.where}, another tab has “${answer.mine}” and this tab “${answer.theirs}”, both played from the same position`;
  } catch {
    // the plain words above
  }
  leaveGame();
  tabConflict = false; // (no game is shown: nothing to follow until the player chooses)
  routeCount += 1; // a route under way gives way to this choice
  showHome("", conflictPanel("tab", words, [
    { label: "Keep the other tab's game", key: "keep-theirs", href: `#${theirs.link}`, primary: true },
    { label: "Keep this tab's game as a separate game", key: "open-separate", onClick: async () => {
      leaveGame();
      const apart = await engine.request("new_id", { record }, { retry: true });
      history.replaceState(null, "", `#${apart.record}`);
      await gameView.show(apart, { saveId: null, linkSeat: null, save: true });
    } },
  ]));
}

// -- game page ---------------------------------------------------------------------
//
// The game itself is the game view (gameview.js), shared with the embed.

function leaveGame() {
  gameView.leave();
}

function gameInfo(id) {
  return games.find((g) => g.id === id) ?? { id, name: id };
}

function playAgain() {
  const { view } = gameView.current;
  const seats = view.seats.map((seat, i) => ({ name: seat.name === `Player ${i + 1}` ? "" : seat.name, kind: seat.kind }));
  return startGame(view.game, view.options ?? {}, seats).catch((error) => gameView.explain(error.message, "error"));
}

start();
