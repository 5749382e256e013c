// The embedded game (embed.html, meant for an <iframe> on someone else's page).
//
// Nothing heavy loads until the reader asks: first a poster (the game's name
// and the position the frame opens at, drawn still by the game's own board
// module from a small view the snippet carries in the fragment: poster.js,
// laid out by poster-screen.js),
// then, on "Start" (or, with start=visible, once the frame is scrolled into
// view), the engine worker with Pyodide, and the game view shared with the
// site's game page (gameview.js). A change of the fragment is followed: the
// poster of the new game, or once started, the new game opened.
// Like the shell, no rule lives here: the board modules draw the engine's
// view() and send notations back.
//
// Address: embed.html?mode=play|replay&ply=N&theme=light|dark|auto&start=click|visible&autoplay=1#<record>[!poster.<payload>]
//      or: embed.html?mode=puzzle&theme=…&start=…#<puzzle id>[!poster.<payload>]
//   mode   play (default): the reader plays on from the position; the frame's
//          fragment follows the record, and "Open in Quet Games" carries it.
//          replay: step through the record; the board never plays.
//          puzzle: the fragment is a puzzle's id (puzzles.json); the reader
//          tries moves, each answered from the puzzle's proof, and can ask for
//          the solution (puzzle-board.js, shared with the site's puzzle page).
//   ply    the position after N moves (default: the game as it stands). In play
//          mode the game is cut there and the reader plays on from it.
//   theme  light (the default), dark, or auto (the reader's system setting).
//   start  click (default) or visible (load once half the frame is on screen).
//   autoplay  1: a replay plays itself through once started (Play through
//          pressed), from `ply` or else the start; 0 or absent: it waits.
// In replay mode the step bar has Play through: a step forward every
// STEP_MS (longer on a move with a comment, to read it), paused by any step
// click or by the button again, stopped at the end of the line shown
// (play-through.js). The board is fitted to the frame, and a host page that
// runs embed-host.js grows the frame to its content (frame.js).
// Once the game is on screen, "Picture" in the head saves the position shown
// as a file (share.js, picture.js).
// Testability: <html data-engine> is "idle" on the poster, then "loading",
// "ready", "busy", or "error"; one-click targets carry data-move; #status says
// whose turn it is; the poster's section says data-poster="position" (a board
// from the address), "none" (the address has no position) or "unreadable".

import { h } from "./ui/dom.js";
import { boardFor } from "./boards/index.js";
import { noSuchPuzzle, puzzleList, puzzlePlay, puzzleTask } from "./features/puzzle-board.js";
import { downloadWords, splitFragment } from "./share/poster.js";
import { posterPosition, posterScreen } from "./share/poster-screen.js";
import { fitToFrame } from "./shell/frame.js";
import { playThrough } from "./view/play-through.js";

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
  const mode = choice("mode", ["play", "replay", "puzzle", "learn"], "play");
  // mode=learn: the game's lesson (lesson.js), named by game=<id>; no fragment
  const game = params.get("game");
  const learn = mode === "learn" && game != null && /^[a-z][a-z-]{0,39}$/.test(game) ? game : null;
  if (mode === "learn" && !learn) problems.push(`“game=${String(game ?? "").slice(0, 30)}” names no game to learn.`);
  const theme = choice("theme", ["light", "dark", "auto"], "light"); // (light by default: most pages that hold a frame are)
  const start = choice("start", ["click", "visible"], "click");
  const autoplay = choice("autoplay", ["0", "1"], "0") === "1";
  if (autoplay && mode !== "replay") problems.push(`“autoplay=1” plays a replay through, and this embed is ${mode === "puzzle" ? "a puzzle" : "for playing on (mode=play)"}; it is not used.`);
  let ply = null;
  const rawPly = params.get("ply");
  if (mode === "puzzle" && rawPly != null && rawPly !== "") {
    problems.push(`“ply=${rawPly.slice(0, 30)}” is not used: a puzzle always starts at its own position.`);
  } else if (rawPly != null && rawPly !== "") {
    if (/^\d{1,6}$/.test(rawPly)) ply = Number(rawPly);
    else problems.push(`“ply=${rawPly.slice(0, 30)}” is not a move number (a whole number from 0); showing the game as it stands.`);
  }
  return { mode, theme, start, ply: mode === "learn" ? null : ply, autoplay: autoplay && mode === "replay", learn, problems };
}

function fragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return location.hash.slice(1);
  }
}

// The poster names the game before the engine is loaded, from the record's
// game code ("q1.pt.…") and the engine's catalog in build.json: an unknown
// code still gets a poster, and the engine has the last word once it is
// running. Its position comes from the address (poster.js), drawn by the
// game's own board module.
let catalogRead = null;

/** {games, boards, engine, download} from build.json (the engine's catalog, its
 * build's hash, and the download's size in words), or empty lists if it cannot be read; read once. */
function readCatalog() {
  catalogRead ??= readCatalogOnce();
  return catalogRead;
}

async function readCatalogOnce() {
  try {
    const response = await fetch("build.json");
    if (!response.ok) throw new Error(String(response.status));
    const info = await response.json();
    return { games: Array.isArray(info.games) ? info.games : [], boards: Array.isArray(info.boards) ? info.boards : null,
             engine: info.wheel_sha256 ?? null, download: downloadWords(info) };
  } catch {
    return { games: [], boards: null, download: null };
  }
}

function posterGame(record, games) {
  const code = /^q\d+\.([a-z]+)\./.exec(record)?.[1];
  return games.find((game) => game.code === code) ?? null;
}

function fullSiteURL(record) {
  return new URL(record ? `index.html#${record}` : "index.html", location.href).href;
}

function puzzleSiteURL(id) {
  return new URL(`index.html#puzzle=${encodeURIComponent(id)}`, location.href).href;
}

const opts = parseOptions(location.search);
if (opts.theme !== "auto") root.classList.add(`theme-${opts.theme}`);
root.dataset.mode = opts.mode;

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
    h("h2", {}, title), h("p", {}, text), problemsNote(),
    h("p", {}, h("a", { href: fullSiteURL(""), target: "_blank", rel: "noopener" }, "Go to Quet Games"))));
}

/** The move the frame opens at: `ply`, or the start for a replay that plays
 * itself through, else null (the game as it stands). */
function openingPly() {
  return opts.autoplay && opts.ply == null ? 0 : opts.ply;
}

let posterRun = 0; // the poster being made: a slower, older one is dropped

async function showPoster({ record, poster: payload }) {
  const run = ++posterRun;
  catalog = await readCatalog();
  if (run !== posterRun) return;
  const known = posterGame(record, catalog.games);
  const name = known?.name ?? "A game by Leroy Quet";
  titleEl.textContent = name;
  document.title = `${name} · Quet Games`;
  const from = opts.ply != null ? ` from move ${opts.ply}` : "";
  const what = opts.autoplay ? `A game that plays itself through${from ? from : " from the start"}, with its comments.`
    : opts.mode === "replay" ? `A game to step through${from}.` : `A game you can play here${opts.ply != null ? `, starting at move ${opts.ply}` : ""}.`;
  const still = await posterPosition(payload, { key: record, ply: openingPly(), game: known?.id });
  if (run !== posterRun) return;
  poster(name, what, still, () => boot(openWanted));
}

/** The poster of a puzzle: its game and rating from puzzles.json, its
 * position from the address, before any engine. */
async function showPuzzlePoster({ record: id, poster: payload }) {
  const run = ++posterRun;
  let puzzles;
  [catalog, puzzles] = await Promise.all([readCatalog(), puzzleList().catch((error) => error)]);
  if (run !== posterRun) return;
  if (puzzles instanceof Error) {
    showFatal("The puzzles could not be read", `Try again later: ${puzzles.message}.`);
    return;
  }
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) {
    showFatal("No such puzzle", `${noSuchPuzzle(id)} The address may have been cut short, or come from another copy of Quet Games. The site below has a puzzle of the day.`);
    return;
  }
  const known = catalog.games.find((game) => game.id === puzzle.game) ?? null;
  const name = known?.name ?? "A game by Leroy Quet";
  titleEl.textContent = `Puzzle: ${name}`;
  document.title = `Puzzle · ${name} · Quet Games`;
  const still = await posterPosition(payload, { key: puzzle.id, ply: null, game: known?.id });
  if (run !== posterRun) return;
  poster(`Puzzle: ${name}`,
    `A position from a real game where one side can force a win: ${puzzleTask(puzzle)}. Puzzle rating ${puzzle.rating.elo}.`,
    still, () => boot(openWanted));
}

/** The poster (poster-screen.js) on the stage, in place of whatever was
 * there; Start, or the frame on screen with start=visible, calls `start`. */
function poster(name, what, still, start) {
  const shown = posterScreen(name, what, still, { mode: opts.mode, start: opts.start, problems: problemsNote, onStart: start, download: catalog.download });
  posterObserver?.disconnect();
  posterObserver = shown.observer;
  stage.replaceChildren(shown.poster);
  setEngineState("idle");
  if (shown.board) fitBoard();
}

let posterObserver = null; // the poster's start=visible watch, dropped with its poster

let catalog = { games: [], boards: null, download: null };

// -- loading the engine ------------------------------------------------------------------

let engine = null;
let GameView = null; // gameview.js, imported with the engine

/** Load the engine, then `open()` what the frame holds. */
async function boot(open) {
  begun = true;
  posterRun++; // (a poster still being made is not shown over the game)
  posterObserver?.disconnect();
  setEngineState("loading");
  const text = h("p", { id: "loading-text" }, "Loading the game engine…");
  const bar = h("progress", { id: "loading-bar", max: "1", "aria-labelledby": "loading-text" });
  const size = catalog.download ? `about ${catalog.download}` : "a few MB";
  const note = h("p", { class: "loading-note" }, `Python runs inside this frame; the first visit downloads ${size}.`);
  // The poster's position stays on screen until the game view draws the
  // board in its place (the same box): only the bar under it, where Start
  // was, becomes the progress. A poster without a position gives way to the
  // progress alone.
  const posterBar = stage.querySelector(".poster-position > .poster-bar");
  if (posterBar) {
    posterBar.replaceWith(h("div", { class: "poster-bar poster-loading", role: "status", "aria-live": "polite" }, text, bar, note));
    stage.querySelector(".poster-position")?.setAttribute("aria-busy", "true");
  } else {
    stage.replaceChildren(h("div", { class: "loading embed-loading", role: "status", "aria-live": "polite" }, text, bar, note));
  }
  try {
    if (!engine) {
      // the worker starts when this module is first imported, never before
      ({ engine } = await import("./bridge/engine.js"));
      if (opts.mode !== "puzzle" && opts.mode !== "learn") {
        ({ GameView } = await import("./view/gameview.js")); // (a puzzle is drawn by puzzle-board.js)
        (await import("./features/analysis.js")).useEngineIdentity(catalog?.engine); // (analyses kept per engine build)
      }
      engine.onProgress(({ text: words, fraction }) => {
        text.textContent = words;
        if (fraction === undefined) bar.removeAttribute("value");
        else bar.value = fraction;
      });
    }
    await engine.ready;
    engineUp = true;
  } catch (error) {
    setEngineState("error");
    const retry = h("button", { type: "button", class: "retry" }, "Try again");
    retry.addEventListener("click", () => {
      engine?.start();
      boot(open);
    });
    stage.replaceChildren(h("div", { class: "embed-fatal", role: "alert" },
      h("p", {}, `The game engine could not start: ${error.message}`), retry));
    return;
  }
  await open();
}

// -- the game ------------------------------------------------------------------------
//
// The game view shared with the site's game page (gameview.js): status,
// players (computer seats too, which move here as there), the board, and a
// step bar instead of the moves list.

let game = null; // the GameView, made once the engine is up
const player = playThrough(stage, () => game); // replay mode's Play through, on the step bar (play-through.js)

function gameView() {
  game ??= new GameView(stage, {
    engine,
    layout: "embed",
    boardFor: (gameId) => boardFor(gameId, catalog.boards),
    setEngineState,
    readOnly: opts.mode === "replay",
    fragment: opts.mode === "play",
    onFollow: (fragment) => { openLink.href = fullSiteURL(fragment); },
    afterDraw: () => fitBoard(),
    problems: problemsNote,
    stepBarExtra: opts.mode === "replay" ? () => player.button : null,
  });
  return game;
}

async function openGame(record) {
  setEngineState("busy");
  let opened;
  let plies;
  try {
    opened = await engine.request("open", { record }, { retry: true });
    plies = (await engine.request("at", { record: opened.private_record, ply: 0 }, { retry: true })).plies;
  } catch (error) {
    showFatal("This game could not be opened", `The embedded game record is not one we can read: ${error.message}`);
    return;
  }
  let ply = opts.ply;
  let notice = "";
  if (ply != null && ply > plies) {
    notice = `The game has ${plies} move${plies === 1 ? "" : "s"}; move ${ply} does not exist, so this is the game as it stands.`;
    ply = null;
  }
  titleEl.textContent = opened.view.name;
  document.title = `${opened.view.name} · Quet Games`;
  if (opts.mode === "play" && ply != null && ply < plies) {
    // play on from that position: the game is cut there
    opened = await engine.request("at", { record: opened.private_record, ply }, { retry: true });
    ply = null;
  }
  const view = gameView();
  view.leave();
  // (the public record: one with a pick made in secret at this screen never shows)
  if (opts.mode === "play") history.replaceState(null, "", `#${opened.record}`);
  openLink.href = fullSiteURL(opened.record);
  // (autoplay: from the start, unless a move was asked for)
  const first = opts.autoplay && ply == null ? 0 : ply;
  await view.show(opened, { ply: opts.mode === "replay" && first != null && first < plies ? first : null });
  if (notice) view.explain(notice, "info");
  await addPictures();
  if (opts.autoplay) player.play();
}

// -- a puzzle (mode=puzzle) ----------------------------------------------------------------
//
// The site's puzzle page and this frame draw a puzzle with the same module
// (puzzle-board.js): the task, the board, and every answer in the engine's
// words from the puzzle's stored proof. The frame keeps no score.

async function openPuzzle(puzzle) {
  setEngineState("busy");
  let played;
  try {
    played = await puzzlePlay(puzzle, {
      ask: (call, args) => engine.request(call, args, { retry: true }),
      boardFor: (gameId) => boardFor(gameId, catalog.boards),
      afterDraw: () => fitBoard(),
    });
  } catch (error) {
    showFatal("This puzzle could not be opened", `The engine does not accept it: ${error.message}`);
    return;
  }
  const { shown } = played;
  titleEl.textContent = `Puzzle: ${shown.game_name}`;
  openLink.href = puzzleSiteURL(puzzle.id);
  openLink.textContent = "Open in Quet Games";
  stage.replaceChildren(h("section", { class: "embed-puzzle", dataset: { puzzle: puzzle.id } },
    h("p", { class: "inventor" }, `${shown.game_name}, a game invented by ${shown.inventor}. Puzzle rating ${shown.rating}.`),
    problemsNote(),
    played.task,
    played.board,
    played.buttons,
    played.solution));
  played.start();
  setEngineState("ready");
}

/** "Picture" in the frame's head, folded: the position shown as a file, or the
 * moves up to it as an animation (share.js, picture.js). Folded, it takes no
 * height from the board. */
async function addPictures() {
  if (document.getElementById("embed-picture")) return;
  const { pictureControls } = await import("./share/share.js");
  const box = h("details", { id: "embed-picture", class: "embed-picture" },
    h("summary", {}, "Picture"),
    pictureControls(() => game?.shown() ?? null, {
      heading: false,
      hint: "The position shown, with its players and comment, as a file; or the moves up to it as an animation. Made here: nothing is sent anywhere.",
    }));
  box.addEventListener("toggle", () => fitBoard());
  openLink.before(box);
}

// -- a frame that can grow (frame.js, with the optional host script, web/embed-host.js) --

const fitBoard = fitToFrame(stage);

// -- start, and a change of the address --------------------------------------------------
//
// The frame follows its fragment as the site's game page does: a host page
// that changes it (to show another game in the same frame) gets the poster of
// the new one, or, once started, the new game opened. The frame's own
// rewrites of its fragment (play mode: the record as it stands) use
// history.replaceState, which fires no hashchange, so nothing here loops.

let wanted = splitFragment(fragment()); // {record (or puzzle id), poster payload}
let begun = false; // the reader asked for the game: no poster any more
let engineUp = false; // the engine answered ready once

// -- a lesson (mode=learn&game=<id>): the site's lesson.js in the frame ------------------

function lessonSiteURL(gameId) {
  return new URL(`index.html#learn=${encodeURIComponent(gameId)}`, location.href).href;
}

/** The poster of a lesson: the game's name and what the lesson is, before any engine. */
async function showLessonPoster(gameId) {
  const run = ++posterRun;
  catalog = await readCatalog();
  if (run !== posterRun) return;
  const known = catalog.games.find((g) => g.id === gameId);
  if (!known) {
    showFatal("No such lesson", `There is no game “${gameId}” to learn here. The address may have been cut short, or come from another copy of Quet Games.`);
    return;
  }
  titleEl.textContent = `Learn ${known.name}`;
  document.title = `Learn ${known.name} · Quet Games`;
  openLink.href = lessonSiteURL(gameId);
  poster(`Learn ${known.name}`, "A one-minute lesson: a few small tasks on small boards, each move answered by the game's own engine, then a short game against the computer.",
    {}, () => boot(() => openLesson(known)));
}

/** The lesson of `game` ({id, name}) in the frame, once the engine is up. */
async function openLesson(game) {
  setEngineState("busy");
  const box = h("div", { class: "embed-lesson-box" });
  stage.replaceChildren(h("section", { class: "learn embed-lesson", dataset: { game: game.id } },
    h("p", { class: "inventor" }, `${game.name}, a game invented by Leroy Quet.`), box));
  try {
    const { lessonPlay } = await import("./features/lesson.js");
    await lessonPlay(box, {
      ask: (call, args) => engine.request(call, args, { retry: true }),
      boardFor: (gameId) => boardFor(gameId, catalog.boards),
      game: game.id,
      fullGame: new URL(`index.html#setup=${encodeURIComponent(game.id)}`, location.href).href,
      linkTarget: "_blank",
      afterDraw: () => fitBoard(),
    });
  } catch (error) {
    showFatal("This lesson could not be opened", `The engine does not have it: ${error.message}`);
    return;
  }
  setEngineState("ready");
}

/** The poster of what the address names, or why there is none. */
function showFront() {
  if (opts.mode === "learn") {
    posterRun++;
    if (opts.learn) showLessonPoster(opts.learn);
    else showFatal("No lesson here", "This embed's address names no game to learn (it should have game= and a game's name). Make one with the Embed button on a game page of Quet Games.");
    return;
  }
  const { record } = wanted;
  openLink.href = opts.mode === "puzzle" && record ? puzzleSiteURL(record) : fullSiteURL(record);
  if (record === "") {
    posterRun++; // (a poster still being made for an earlier address is dropped)
    if (opts.mode === "puzzle") showFatal("No puzzle here", "This embed's address names no puzzle (it should end with # and a puzzle's id). Make one with “Embed this puzzle” on a puzzle page of Quet Games.");
    else showFatal("No game here", "This embed's address holds no game record (it should end with # and a record). Make one with the Embed button on a game page of Quet Games.");
  } else if (opts.mode === "puzzle") {
    showPuzzlePoster(wanted);
  } else {
    showPoster(wanted);
  }
}

let opening = null; // the open under way
let openAgain = false; // the address changed meanwhile: open again once it is done

/** Open what the address names now (after Start, and after each change of it). */
function openWanted() {
  if (opening) {
    openAgain = true;
    return opening;
  }
  opening = (async () => {
    do {
      openAgain = false;
      player.pause();
      if (wanted.record === "") showFront();
      else if (opts.mode === "puzzle") await openPuzzleById(wanted.record);
      else await openGame(wanted.record);
    } while (openAgain);
  })().finally(() => {
    opening = null;
  });
  return opening;
}

async function openPuzzleById(id) {
  let puzzles;
  try {
    puzzles = await puzzleList();
  } catch (error) {
    showFatal("The puzzles could not be read", `Try again later: ${error.message}.`);
    return;
  }
  const puzzle = puzzles.find((p) => p.id === id);
  if (!puzzle) showFatal("No such puzzle", `${noSuchPuzzle(id)} The address may have been cut short, or come from another copy of Quet Games.`);
  else await openPuzzle(puzzle);
}

window.addEventListener("hashchange", () => {
  if (opts.mode === "learn") return; // (a lesson is named in the query; its fragment means nothing)
  wanted = splitFragment(fragment());
  if (!begun) {
    showFront();
    return;
  }
  openLink.href = opts.mode === "puzzle" ? puzzleSiteURL(wanted.record) : fullSiteURL(wanted.record);
  // (still loading: the engine opens what is wanted once it is up)
  if (!engineUp) return;
  const shown = opts.mode === "puzzle" ? stage.querySelector(".embed-puzzle")?.dataset.puzzle : game?.current?.record;
  if (wanted.record !== "" && shown === wanted.record && !opening) return; // shown already (only its poster part changed)
  openWanted();
});

showFront();
