// The shell: routing and page wiring. A home page listing the games, setup
// screens, and a game page: the game view (gameview.js, shared with the
// embed), which draws view() with the game's board renderer and sends
// notations back. No rule lives here: legal moves, status and scores all come
// from the engine.
// The game list, setup screens and rules come from the engine's catalog in
// build.json, so they are drawn at once while the engine downloads (loading.js).
// What this module keeps is the page's state (the engine's, the route's) and
// the wiring; the screens are drawn elsewhere: a game's setup, lesson and
// waiting link by pages.js, the home page's cards by game-cards.js, and the
// game page's following of the other tabs by other-tabs.js.
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
import { knownAnswer } from "./bridge/known.js";
import { h } from "./ui/dom.js";
import { confirmDialog } from "./ui/dialog.js";
import { showLesson, showOpening, showSetup } from "./shell/pages.js";
import { gameCard } from "./shell/game-cards.js";
import { forfeitedHere, hotSeatRecord } from "./view/commit.js";
import { followOtherTabs } from "./view/other-tabs.js";
import { OlderLinks } from "./view/older-link.js";
import { checkAgainstSaved, conflictPanel, fragmentFromInput, linkErrorPanel, parseLink } from "./share/links.js";
import { checkSavedRecords, damagedNote, deleteSaved, knowSaved, lastUnfinished, onStorageProblem, savedGames, savedGamesPanel } from "./share/saved.js";
import { keepSeats, playsSeat, seatNumbers, seatsHere } from "./share/seats.js";
import { backupPanel, storageNotes } from "./share/backup.js";
import { firstPosition } from "./share/still.js";
import { POSTER_MARK } from "./share/poster.js";
import { importForm } from "./share/share.js";
import { EngineStatus, StartWaiter, bindStrip, linkForDisplay } from "./shell/loading.js";
import { boardFor, loadBoard } from "./boards/index.js";
import { useEngineIdentity } from "./features/analysis.js";
import { withBalance } from "./features/balance.js";
import { puzzlesPanel, showPuzzle } from "./features/puzzles.js";

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
  if (phase === "restarting") gameView?.explain("The game engine stopped; restarting it. Your game is safe.", "warning");
  else notices.push(["The game engine stopped and was restarted; your game is as it was.", "info"]);
});
onStorageProblem((text) => notices.push([text, "warning"]));

// The game page: the game view shared with the embed (gameview.js). It is
// imported with the first game shown, not with the page: the home page, setup,
// lessons and puzzles need none of its modules, and over HTTP/1.1 their
// round trips held back the list of games (0.84 s -> 1.02 s at 10 Mbit/s
// when web/ was split in folders). build.py still preloads them, after the
// page's own, so a game's link does not wait for them either.
let gameView = null;
let gameViewLoaded = null;

/** The game view, made once its module is in. */
function theGameView() {
  gameViewLoaded ??= import("./view/gameview.js").then(({ GameView }) => (gameView = new GameView(viewEl, gameViewOptions())))
    .catch((error) => {
      gameViewLoaded = null; // asked again next time
      throw error;
    });
  return gameViewLoaded;
}

const gameViewOptions = () => ({
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
  beforeMove: (current) => !tabs.catchUp(current),
  replayAside: (replay) => olderLinks.aside(replay),
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
  waitingStart.cancel();
  closeDialogs();
  if (record === "") {
    leaveGame();
    showHome();
    return;
  }
  if (record.startsWith(SETUP)) {
    const game = games.find((g) => g.id === record.slice(SETUP.length));
    leaveGame();
    if (game) {
      showSetup(viewEl, game, { onStart: (options, seats, waiting, here) => startGame(game.id, options, seats, waiting, here), drawn: shellDrawn });
      window.scrollTo({ top: 0 }); // (at its title and How to play, wherever the page before was scrolled)
    } else {
      showHome(`There is no game called “${record.slice(SETUP.length, SETUP.length + 40)}” here.`);
    }
    return;
  }
  if (record.startsWith(LEARN)) {
    leaveGame();
    await openLesson(record.slice(LEARN.length), routeId);
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
  // (the address names the game alone once the engine is up: the poster it came with has done its work)
  const plain = () => {
    if (link.poster != null && location.hash.includes(POSTER_MARK)) history.replaceState(null, "", location.href.split(POSTER_MARK)[0]);
  };
  const current = gameView?.current;
  if (current && !current.still && current.record === link.record) return plain();
  const viewLoaded = theGameView(); // (its modules arrive beside the engine's answer)
  viewLoaded.catch(() => {}); // (met below, where it is awaited)
  // Fetch the board's module and styles now, beside the engine's answer (or
  // its whole download on a first visit), not after it.
  const named = linkForDisplay(link.record, games)?.game;
  if (named) boardFor(named.id, buildInfo.boards).catch(() => {}); // a failure is met again, and handled, when drawing
  setEngineState("busy");
  if (!engineUp) {
    leaveGame();
    await showBeforeEngine(link, routeId);
    await engineArrived;
    if (routeId !== routeCount) return; // the player went elsewhere meanwhile
  }
  plain();
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
  const { saved, changed, behind } = await checkAgainstSaved((call, args) => engine.request(call, args, { retry: true }),
    opened.record, savedGames().filter((e) => e.game === opened.view.game), (e) => seatNumbers(e.gameId, e.seats.length));
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
  if (behind) {
    await openOlderLink(opened, behind);
    return;
  }
  const forfeit = diff ? null : forfeitedHere(opened.view);
  if (diff || forfeit) {
    const mine = changed?.entry ?? saved;
    const who = forfeit ? opened.view.seats?.[forfeit.seat]?.name || `Player ${forfeit.seat + 1}` : "";
    // another seat's sealed pick not yet revealed here: the copy held here was never checked, so it is not kept as "my game"
    const unchecked = changed?.unchecked && playsSeat(mine.gameId, changed.seat) === false;
    leaveGame();
    const sealer = unchecked ? opened.view.seats?.[changed.seat]?.name || `Player ${changed.seat + 1}` : "";
    showHome("", conflictPanel(unchecked ? "unchecked" : diff ? "changed" : "forfeit", unchecked
      ? `${changed.where}: ${sealer}'s seal in this link is not the one in the link this device opened before` : diff
      ?? `this link gives up ${who}'s sealed pick of round ${forfeit.round}, but the secret that reveals it is on this device, so it was not given up here`, [
      unchecked ? { label: "Open this link in its place", key: "replace-unchecked", primary: true, onClick: async () => {
        leaveGame();
        knowSaved(mine.id, mine.record); // (written over, as chosen)
        (await theGameView()).openLink(opened, { saveId: mine.id, linkSeat: mine.linkSeat ?? null, save: true });
      } } : mine ? { label: "Keep my game", key: "keep-mine", href: `#${mine.link}`, primary: true } : null,
      // (saved at once as a game of its own, so that it opens silently next time)
      // under an id of its own, so that it is never taken for the game held here (docs/RECORD.md)
      { label: "Open the link as a separate game", key: "open-separate", onClick: async () => {
        leaveGame();
        // (recording where it parts from the game it came from: a device holding that game can name the change, docs/RECORD.md)
        const apart = diff ? await engine.request("new_id", { record: opened.private_record, branch: changed.ply ?? 0 }, { retry: true }) : opened;
        // the address names the game shown (its new id), without routing again
        if (apart !== opened) history.replaceState(null, "", `#${apart.record}`);
        (await theGameView()).show(apart, { saveId: null, linkSeat: null, save: true });
      } },
    ].filter(Boolean)));
    return;
  }
  // (this tab now holds the saved game as stored: a later change in another tab is seen as one)
  if (saved) knowSaved(saved.id, saved.record);
  try {
    await viewLoaded;
  } catch (error) {
    if (routeId !== routeCount) return;
    leaveGame();
    showHome(`the game page could not be loaded (${error.message}); reload the page to try again`);
    return;
  }
  if (routeId !== routeCount) return;
  // (a position drawn before the engine: the engine's view is drawn into the same boxes, view/still.js;
  // the panels under it follow in a task of their own, so the page never stops for both at once)
  const still = !!gameView.current?.still;
  const keep = { saveId: saved?.id ?? null, linkSeat: saved?.linkSeat ?? null, panels: still ? "later" : "now" };
  const sameGame = still || (gameView.current?.view.game_id != null && gameView.current.view.game_id === opened.view.game_id);
  if (still) olderLinks.forget();
  else leaveGame();
  await gameView.openLink(opened, keep);
  // another game than the one on screen (a link, Resume) opens at its heading, wherever the page was scrolled
  if (!sameGame) window.scrollTo({ top: 0 });
  if (still) await gameView.playKept(); // (a move made on it meanwhile: played now, or refused in words)
}

/** Before the engine is up: the link's position (its poster, or the view this
 * device kept of it), else the game's page with the board's room kept, drawn
 * as the game will be (share/still.js, view/still.js); else its name alone. */
async function showBeforeEngine(link, routeId) {
  const first = await firstPosition(link.record, link.poster, linkForDisplay(link.record, games));
  if (routeId !== routeCount) return;
  try {
    if (first) {
      await (await theGameView()).showStill(first);
      if (routeId === routeCount) root.dataset.shell = "drawn";
      return;
    }
  } catch (error) {
    console.warn("the game could not be drawn before the engine:", error);
    leaveGame();
  }
  showOpening(viewEl, link.record, { games, status });
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

// -- a new game ------------------------------------------------------------------

// A Start pressed before the engine is up is kept (loading.js StartWaiter): the
// game starts once the engine is ready, unless the player went elsewhere meanwhile.
const waitingStart = new StartWaiter({ status, arrived: engineArrived, busy: () => setEngineState("busy") });

/** Start a new game; `waiting` ({button, place}): where a Start pressed before the engine is up shows that it waits;
 * `here`: the seats this device plays ("all": at one screen; [seat]: by link, share/seats.js). */
async function startGame(gameId, options, seats, waiting = null, here = "all") {
  if (gameView?.busy) return; // (the page's game view, if one was made)
  const viewLoaded = theGameView(); // (beside the engine, if it is still on its way)
  viewLoaded.catch(() => {}); // (met below, where it is awaited)
  if (!engineUp) {
    if (!waiting) await engineArrived;
    else if (!(await waitingStart.wait(waiting.button, waiting.place))) return;
  }
  const view = await viewLoaded;
  if (view.busy) return;
  view.busy = true;
  setEngineState("busy");
  try {
    const created = await engine.request("new", { game: gameId, options, ...(seats ? { seats } : {}) }, { retry: true });
    history.pushState(null, "", `#${created.record}`);
    leaveGame();
    keepSeats(created.view.game_id, here);
    // (a keyboard player starts on the board; by link, a round of secret picks is sealed: view/sealing.js)
    await view.show(created, { save: true, focus: "board", linkSeat: Array.isArray(here) && here.length === 1 ? here[0] : null });
    window.scrollTo({ top: 0 }); // (at its heading, wherever the setup page was scrolled to its Start)
  } catch (error) {
    setEngineState("ready");
    throw error;
  } finally {
    view.busy = false;
  }
}

// -- a lesson ----------------------------------------------------------------------

/** The lesson page of `gameId` (#learn=, pages.js), or the home page if there is no such game. */
async function openLesson(gameId, routeId) {
  const game = games.find((g) => g.id === gameId);
  if (!game) {
    showHome(`There is no game called “${gameId.slice(0, 40)}” here, so there is no lesson for it.`);
    return;
  }
  setEngineState("busy");
  await showLesson(viewEl, game, {
    waiting: engineUp ? null : status,
    ask: askWhenUp, boardFor: (id) => boardFor(id, buildInfo.boards),
    fullGame: `#${SETUP}${game.id}`,
    latest: () => routeId === routeCount,
    drawn: shellDrawn,
  });
}

// -- home page ---------------------------------------------------------------------

// What a game's card (game-cards.js) asks of the page: its board module, for the thumbnail, and Quick start.
const cardHooks = {
  boardModule: (id) => (buildInfo.boards.includes(id) ? loadBoard(id) : null),
  quickStart: (id, waiting) => startGame(id, {}, null, waiting),
};

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
      buildInfo?.puzzles ? puzzlesPanel() : null, // (beside the intro on a laptop: on the first screen)
      storage ? h("p", { class: "message storage-note", dataset: { kind: "warning" } }, storage) : null,
      damagedNote(),
      h("div", { id: "saved-slot" }, saved),
      h("div", { class: "game-list" }, games.map((game) => gameCard(game, cardHooks))),
      importForm({ onOpen: openPasted }),
      backupPanel({ ask: askWhenUp, onImported: () => refreshSavedList(linkError) })));
  shellDrawn();
  window.scrollTo({ top: 0 }); // (a page reached by a link opens at its top: the list, or what the link's trouble is)
  checkSavedSoon(linkError, conflict);
}

/** The engine, once it is up; before, what the build answered already (a lesson, a puzzle: bridge/known.js). */
async function askWhenUp(call, args) {
  const known = engineUp ? null : await knownAnswer(call, args);
  if (known != null) return known;
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

// -- tabs that agree (tabs.js, other-tabs.js) ------------------------------------------

// (what it reads of the game view, which is made with the first game shown)
const shownGame = {
  get current() { return gameView?.current ?? null; },
  get busy() { return gameView?.busy ?? false; },
  show: (...args) => gameView.show(...args),
  leave: () => gameView?.leave(),
};
const tabs = followOtherTabs(shownGame, {
  engine,
  notices,
  reroute: routed,
  onList: () => { if (viewEl.querySelector(".home")) refreshSavedList(); },
  showConflict: (panel) => {
    routeCount += 1; // a route under way gives way to this choice
    showHome("", panel);
  },
});

// -- game page ---------------------------------------------------------------------
//
// The game itself is the game view (gameview.js), shared with the embed.

function leaveGame() {
  olderLinks.forget();
  gameView?.leave();
}

// -- an older link of a game this device holds (older-link.js) --------------------------

const olderLinks = new OlderLinks({ engine, view: () => gameView });
const openOlderLink = async (opened, entry) => {
  await theGameView();
  await olderLinks.open(opened, entry);
};

function gameInfo(id) {
  return games.find((g) => g.id === id) ?? { id, name: id };
}

function playAgain() {
  const { view } = gameView.current;
  const seats = view.seats.map((seat, i) => ({ name: seat.name === `Player ${i + 1}` ? "" : seat.name, kind: seat.kind }));
  // (by link, this device plays the same seats again)
  return startGame(view.game, view.options ?? {}, seats, null, seatsHere(view.game_id) ?? "all").catch((error) => gameView.explain(error.message, "error"));
}

start();
