// The embedded game (embed.html, meant for an <iframe> on someone else's page).
//
// Nothing heavy loads until the reader asks: first a poster (the game's name
// and the position the frame opens at, drawn still by the game's own board
// module from a small view the snippet carries in the fragment: poster.js),
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
//   theme  light, dark, or auto (the reader's system setting; the default).
//   start  click (default) or visible (load once half the frame is on screen).
//   autoplay  1: a replay plays itself through once started (Play through
//          pressed), from `ply` or else the start; 0 or absent: it waits.
// In replay mode the step bar has Play through: a step forward every
// STEP_MS (longer on a move with a comment, to read it), paused by any step
// click or by the button again, stopped at the end of the line shown.
// Once the game is on screen, "Picture" in the head saves the position shown
// as a file (share.js, picture.js).
// Testability: <html data-engine> is "idle" on the poster, then "loading",
// "ready", "busy", or "error"; one-click targets carry data-move; #status says
// whose turn it is; the poster's section says data-poster="position" (a board
// from the address), "none" (the address has no position) or "unreadable".

import { h, seatName, statusLine } from "./ui/dom.js";
import { boardFor } from "./boards/index.js";
import { noSuchPuzzle, puzzleList, puzzlePlay } from "./features/puzzle-board.js";
import { drawStill, PosterError, readPoster, splitFragment } from "./share/poster.js";

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
  const theme = choice("theme", ["auto", "light", "dark"], "auto");
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

/** {games, boards, engine} from build.json (the engine's catalog, and its build's hash), or empty lists if it cannot be read; read once. */
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
             engine: info.wheel_sha256 ?? null };
  } catch {
    return { games: [], boards: null };
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
const posterProblem = "The position in this embed's address cannot be shown (the game shows it once loaded):";

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
  const several = puzzle.solutions.length > 1;
  const still = await posterPosition(payload, { key: puzzle.id, ply: null, game: known?.id });
  if (run !== posterRun) return;
  poster(`Puzzle: ${name}`,
    `A position from a real game: find ${several ? "a move" : "the one move"} that keeps a certain win. Puzzle rating ${puzzle.rating.elo}.`,
    still, () => boot(openWanted));
}

/**
 * The position the poster shows, from the payload in the address (poster.js):
 * {view, draw} (the still view, and draw() its board by the game's own board
 * module), or {problem} in words when there is a payload we cannot use, or {}
 * when the address carries none (a snippet made before posters had one).
 */
async function posterPosition(payload, { key, ply, game }) {
  if (payload == null) return {};
  const problem = (why) => ({ problem: `${posterProblem} ${why}.` });
  if (!game) return problem("the game it names is not known here");
  let view;
  try {
    view = await readPoster(payload, { key, ply, game });
  } catch (error) {
    return problem(error instanceof PosterError ? error.message : "it could not be read");
  }
  try {
    const module = await boardFor(game, catalog.boards);
    await stylesLoaded(); // (its sheet: a board measures itself once on the page)
    return { view, draw: () => drawStill(module, view) };
  } catch {
    return problem("its board could not be drawn");
  }
}

/** The status line of the poster's position, as the game view words it in a
 * frame (a game over says why it ended; styled as the game's own line). */
function posterStatus(view) {
  return statusLine(String(view.status ?? ""), { over: !!view.is_over, reason: view.end_reason, extra: "poster-status" });
}

/** The seats of the poster's position, as the game view lists them. */
function posterSeats(view) {
  return h("ol", { class: "seats embed-seats poster-seats", "aria-label": "Players" }, view.seats.map((_, i) => {
    const toMove = !view.is_over && view.to_move.includes(i);
    const won = view.winners.includes(i);
    const score = Array.isArray(view.standing) ? view.standing[i] : view.scores[i];
    return h("li", { class: [toMove ? "to-move" : "", won ? "winner" : ""].join(" ").trim() || null, dataset: { seat: i } },
      h("span", { class: "seat-mark", dataset: { seat: i }, "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "seat-name" }, seatName(view, i)),
      h("span", { class: "score" }, String(score ?? 0)));
  }));
}

/**
 * The poster: `name`, what the frame holds, and Start (or on screen,
 * start=visible), which calls `start`. With a position (`still.view`,
 * `still.draw()`): laid out as the game will be after Start (its status, its
 * players, the board in the same box), Start where the step bar will be.
 * Without one: words only, and `still.problem` if a position could not be shown.
 */
function poster(name, what, still, start) {
  const button = h("button", { type: "button", id: "embed-start", class: "poster-start" }, "Start");
  const thing = opts.mode === "puzzle" ? "puzzle" : opts.mode === "learn" ? "lesson" : "game";
  const note = opts.start === "visible"
    ? `The ${thing} loads when this frame is on screen (about 4.5 MB once, then cached).`
    : `Click to load the ${thing} (about 4.5 MB once, then cached).`;
  let poster = null;
  let board = null;
  if (still.draw) {
    try {
      // drawn as it goes on the page (a board may measure itself on the next
      // frame), in the box the game's board will have after Start
      // (#board.embed-board), and around it what will be there (status and
      // players above, a bar of one or two lines below, where the step bar
      // will be), so nothing jumps
      board = h("div", { id: "board", class: `board embed-board poster-board${opts.mode === "replay" ? " replaying" : ""}` }, still.draw());
      board.inert = true; // (a still board, as in a replay: nothing in it is a target)
      poster = h("section", { class: "poster poster-position", "aria-labelledby": "poster-title", dataset: { poster: "position" } },
        h("h2", { id: "poster-title", class: "visually-hidden" }, name), // (the frame's head shows it)
        posterStatus(still.view),
        posterSeats(still.view),
        problemsNote(),
        board,
        h("div", { class: "poster-bar" }, button,
          h("p", { class: "poster-what" }, what, " Invented by Leroy Quet. ", h("span", { class: "poster-note" }, note))));
    } catch (error) {
      board = null;
      still = { problem: `${posterProblem} ${error instanceof PosterError ? error.message : "its board could not be drawn"}.` };
    }
  }
  if (!poster) {
    poster = h("section", { class: "poster poster-plain", "aria-labelledby": "poster-title", dataset: { poster: still.problem ? "unreadable" : "none" } },
      h("div", { class: "poster-text" },
        h("h2", { id: "poster-title" }, name),
        h("p", { class: "poster-what" }, what, " Invented by Leroy Quet."),
        still.problem ? h("p", { class: "poster-problem", role: "note" }, still.problem) : null,
        button,
        h("p", { class: "poster-note" }, note),
        problemsNote()));
  }
  let started = false;
  const go = () => {
    if (started) return;
    started = true;
    observer?.disconnect();
    start();
  };
  button.addEventListener("click", go);
  let observer = null;
  if (opts.start === "visible" && "IntersectionObserver" in window) {
    // Inside a cross-origin frame the implicit root is the top page's viewport.
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) go();
    }, { threshold: 0.5 });
    observer.observe(poster);
  }
  posterObserver?.disconnect();
  posterObserver = observer;
  stage.replaceChildren(poster);
  setEngineState("idle");
  if (board) fitBoard();
}

/** Resolves once every stylesheet linked so far has loaded (or failed). */
function stylesLoaded() {
  const waiting = [...document.querySelectorAll('link[rel="stylesheet"]')].filter((link) => !link.sheet);
  return Promise.all(waiting.map((link) => new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  })));
}

let posterObserver = null; // the poster's start=visible watch, dropped with its poster

let catalog = { games: [], boards: null };

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
  const bar = h("progress", { id: "loading-bar", max: "1" });
  stage.replaceChildren(h("div", { class: "loading embed-loading", role: "status", "aria-live": "polite" },
    text, bar, h("p", { class: "loading-note" }, "Python runs inside this frame; the first visit downloads about 4.5 MB.")));
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
    stepBarExtra: opts.mode === "replay" ? () => playThrough.button : null,
  });
  return game;
}

// -- play through (replay mode) ----------------------------------------------------------
//
// A step forward every STEP_MS along the line shown (the game's moves, or a
// side line's), with time to read a comment; any step click pauses, as does
// the button again; the end of the line stops it. The button says which in
// its label and aria-pressed. The steps themselves are the point, so they go
// on under prefers-reduced-motion; only the line that fills up to the next
// step stands still then (style.css).

const STEP_MS = (() => {
  // test-only: ?play-ms=N (50 to 10000) for a quicker pace
  const asked = Number.parseInt(new URLSearchParams(location.search).get("play-ms") ?? "", 10);
  return asked >= 50 && asked <= 10_000 ? asked : 1500;
})();
const READ_MS_PER_CHAR = 60; // about 16 characters a second, on top of the step
const READ_MS_MAX = 8000;

const playThrough = {
  playing: false,
  stepping: false, // a step of its own is under way (the game view takes no other meanwhile)
  asked: null, // the data-key of a step the reader clicked meanwhile
  timer: 0,
  button: h("button", {
    type: "button", class: "secondary step play-through", dataset: { key: "play-through" }, "aria-pressed": "false",
    onclick: () => (playThrough.playing ? pause() : play()),
  }),
};

function label() {
  const { button, playing } = playThrough;
  button.setAttribute("aria-pressed", String(playing));
  button.title = playing ? "Pause" : "Step through the game by itself";
  // (a line along the foot fills up until the next step: restarted for each one;
  // its length set through the CSSOM, which the page's CSP allows, not a style attribute)
  const progress = playing ? h("span", { class: "play-progress", "aria-hidden": "true" }, h("span")) : null;
  progress?.style.setProperty("--play-ms", `${nextDelay()}ms`);
  // (an icon drawn, not a character: a reader's fonts may lack ⏸; the words are for a screen reader)
  button.replaceChildren(...[playIcon(playing), h("span", { class: "visually-hidden" }, playing ? "Playing through" : "Play through"), progress].filter(Boolean));
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** A small play (triangle) or pause (two bars) icon, drawn in the text's colour. */
function playIcon(playing) {
  const icon = document.createElementNS(SVG_NS, "svg");
  icon.setAttribute("viewBox", "0 0 16 16");
  icon.setAttribute("class", "play-icon");
  icon.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS(SVG_NS, "path");
  shape.setAttribute("d", playing ? "M3 2h3.5v12H3zM9.5 2H13v12H9.5z" : "M4 2l10 6-10 6z");
  shape.setAttribute("fill", "currentColor");
  icon.append(shape);
  return icon;
}

/** The next step along the line shown, or null at its end. */
function nextStep() {
  const replay = game?.replay;
  if (!replay) return null; // the end of the record
  if (replay.line) return replay.line.n < replay.line.length ? () => game.lineTo(replay.line.index, replay.line.n + 1) : null;
  return () => game.replayTo(replay.ply + 1);
}

function nextDelay() {
  const comment = game?.replay ? game.replay.comment : game?.current?.view.comment;
  return STEP_MS + Math.min(READ_MS_MAX, (comment?.length ?? 0) * READ_MS_PER_CHAR);
}

async function play() {
  if (!game?.current) return;
  playThrough.playing = true;
  // at the end already: from the start again
  if (!nextStep()) await game.replayTo(0);
  label();
  schedule();
}

function schedule() {
  clearTimeout(playThrough.timer);
  if (!playThrough.playing) return;
  if (!nextStep()) {
    pause();
    return;
  }
  playThrough.timer = setTimeout(async () => {
    const step = playThrough.playing ? nextStep() : null;
    if (!step) return pause();
    playThrough.stepping = true;
    try {
      await step();
    } finally {
      playThrough.stepping = false;
    }
    // a step the reader asked for while this one was under way: taken now
    const asked = playThrough.asked;
    playThrough.asked = null;
    if (asked) stage.querySelector(`[data-key="${CSS.escape(asked)}"]:not(:disabled)`)?.click();
    if (!playThrough.playing) return;
    label();
    schedule();
  }, nextDelay());
}

function pause() {
  clearTimeout(playThrough.timer);
  playThrough.playing = false;
  label();
}

label();
// any step the reader takes pauses it (the step bar, a move of the list); one
// clicked while a step of its own is under way is taken once that one is shown
stage.addEventListener("click", (event) => {
  const target = event.target.closest?.(".embed-steps button, .move-list button");
  if (!target || target.closest(".play-through")) return;
  if (playThrough.playing) pause();
  if (playThrough.stepping && target.dataset.key) {
    playThrough.asked = target.dataset.key;
    event.stopPropagation();
  }
}, true);

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
  if (opts.autoplay) play();
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

// -- a frame that can grow (the optional host script, web/embed-host.js) --------------
//
// A host page that runs the host script says hello to this frame from its
// own origin; from then on the board is fitted to the height the frame had
// then (the snippet's), and whatever more the content asks for (a panel
// opened, the analysis drawn) is asked of the host as the frame's height,
// posted to that origin only. Without a hello nothing is posted but the
// opening "ready", which carries nothing.

let grower = null; // {origin, base}: the host that said hello, and the frame's height then

window.addEventListener("message", (event) => {
  if (event.source !== window.parent || window.parent === window) return;
  if (event.data?.type !== "quetgames:hello" || typeof event.origin !== "string" || event.origin === "null") return;
  grower ??= { origin: event.origin, base: window.innerHeight };
  grower.origin = event.origin;
  root.dataset.grows = "yes";
  fitBoard();
});
if (window.parent !== window) window.parent.postMessage({ type: "quetgames:ready" }, "*");

/** The height the frame's content takes, in CSS pixels. */
function contentHeight() {
  const foot = document.querySelector(".embed-foot");
  return Math.ceil(foot ? foot.getBoundingClientRect().bottom + window.scrollY : document.documentElement.scrollHeight);
}

let askedHeight = 0;

/** Ask the host for the content's height (at least the snippet's), if it can grow the frame. */
function askHeight() {
  if (!grower) return;
  const height = Math.max(grower.base, contentHeight());
  if (height === askedHeight) return;
  askedHeight = height;
  window.parent.postMessage({ type: "quetgames:height", height }, grower.origin);
}

/** Shrink the board (keeping its shape) until the frame needs no scrolling,
 * down to a readable minimum; boards that scroll sideways on purpose (a zoomed
 * big grid) are left alone. The height left over is only known by measuring. */
function fitBoard() {
  fitBoardNow();
  // (the frame's size the board was last fitted to: what a host page, or a test, can wait for after a resize)
  root.dataset.fit = `${window.innerWidth}x${window.innerHeight}`;
}

function fitBoardNow() {
  watchParts();
  const svgs = [...stage.querySelectorAll("#board svg")];
  if (svgs.length === 0) return askHeight();
  const area = (el) => { const r = el.getBoundingClientRect(); return r.width * r.height; };
  const main = svgs.reduce((a, b) => (area(b) > area(a) ? b : a));
  main.style.maxWidth = "";
  if (getComputedStyle(main).maxWidth === "none") return askHeight();
  // The board is fitted to the frame with its panels folded: a panel the
  // reader opens (the moves, the analysis) adds to the frame's height (it
  // scrolls, or, with the host script, grows) and never shrinks the board.
  const opened = [...stage.querySelectorAll("details.embed-panel[open]")]
    .reduce((sum, panel) => sum + panel.offsetHeight - (panel.querySelector("summary")?.offsetHeight ?? 0), 0);
  const overflow = contentHeight() - opened - (grower ? grower.base : window.innerHeight);
  const rect = main.getBoundingClientRect();
  if (overflow <= 0 || rect.height === 0) return askHeight();
  // never below the width its squares need to be tapped (data-min-width, grid.js),
  // when the frame is wide enough for that (else its Zoom in does it), and only
  // where there is something to tap (a replay's board is a picture)
  const minWidth = main.querySelector("[data-move], [data-try]") ? Number(main.dataset.minWidth || 0) : 0;
  const floor = minWidth <= rect.width ? minWidth * (rect.height / rect.width) : 0;
  const height = Math.max(MIN_BOARD_PX, floor, rect.height - overflow);
  if (height < rect.height) main.style.maxWidth = `${Math.floor((rect.width * height) / rect.height)}px`;
  askHeight();
}

const MIN_BOARD_PX = 160; // a frame smaller than the board's surroundings and this scrolls instead
let fitFrame = 0;
const fitSoon = () => {
  cancelAnimationFrame(fitFrame);
  fitFrame = requestAnimationFrame(() => fitBoard());
};
window.addEventListener("resize", fitSoon);
// The frame's content changes size without a draw of ours too: a board's
// stylesheet arriving after its first drawing, a panel opened, a font. The fit
// is a function of the layout alone (it starts from the board's natural size),
// so it settles at once: the size it sets is the size the next look finds.
const sizes = typeof ResizeObserver === "function" ? new ResizeObserver(fitSoon) : null;
for (const part of [stage, document.querySelector(".embed-head"), document.querySelector(".embed-foot")]) if (part) sizes?.observe(part);

/** Watch the size of every part of the frame's game (parts drawn anew are
 * watched as they come; one watched already is not watched twice). */
function watchParts() {
  for (const part of stage.querySelectorAll(":scope > * > *, #board > *, #board svg")) sizes?.observe(part);
}

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
      pause();
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
